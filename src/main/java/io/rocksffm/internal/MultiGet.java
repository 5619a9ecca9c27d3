package io.rocksffm.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.RocksDBException;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The marshalling of a batched multi-get ({@code rocksdb_batched_multi_get_cf}): keys into
 * scratch arrays, the call, and the per-key results out again, allocating nothing per key.
 * Callers hold the database, family and options open from {@link #call} until the results are
 * taken (every slice destroyed, every error freed).
 */
public final class MultiGet {
    private MultiGet() {}

    /** {@code value}, element {@code i} of array {@code name}, checked non-null (the message is built only on failure). */
    public static <T> T element(T value, String name, int i) {
        if (value == null) {
            throw new NullPointerException(name + "[" + i + "]");
        }
        return value;
    }

    /**
     * Checks a multi-get's arrays: non-null, of one length, no read-only value segment.
     *
     * @throws NullPointerException if an array is null
     * @throws IllegalArgumentException if the lengths differ or a value segment is read-only
     */
    public static void checkArguments(MemorySegment[] keys, MemorySegment[] values, long[] lengths,
                                      RocksDBException[] errors) {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(lengths, "lengths");
        Objects.requireNonNull(errors, "errors");
        int n = keys.length;
        if (values.length != n || lengths.length != n || errors.length != n) {
            throw new IllegalArgumentException("keys, values, lengths and errors must have the same length");
        }
        for (MemorySegment v : values) {
            if (v != null && v.isReadOnly()) {
                throw new IllegalArgumentException("value segment is read-only");
            }
        }
    }

    /**
     * Checks the keys, copies them into {@code s} (RocksDB then reads no memory a caller could
     * free meanwhile) and calls rocksdb_batched_multi_get_cf, leaving the per-key slices and
     * errors in the scratch buffers MULTI_VALUES and MULTI_ERRORS for {@link #intoSegments} or
     * {@link #asArrays}.
     *
     * @throws NullPointerException if a key is null
     * @throws IllegalArgumentException if {@code sortedInput} is claimed for unsorted keys
     */
    public static void call(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment[] keys,
                            boolean sortedInput, Scratch s) {
        int n = packKeys(keys, sortedInput, s);
        if (n > 0) {
            RocksDBC.rocksdb_batched_multi_get_cf(db, options, family, n, s.buffer(Scratch.MULTI_KEYS, 0),
                    s.buffer(Scratch.MULTI_SIZES, 0), s.buffer(Scratch.MULTI_VALUES, 0),
                    s.buffer(Scratch.MULTI_ERRORS, 0), sortedInput);
        }
    }

    /**
     * Checks the keys and copies them into {@code s}: their pointers into MULTI_KEYS, their sizes
     * into MULTI_SIZES; clears MULTI_VALUES and MULTI_ERRORS (room for {@code keys.length} words).
     *
     * @return the number of keys
     */
    public static int packKeys(MemorySegment[] keys, boolean sortedInput, Scratch s) {
        int n = keys.length;
        long keyBytes = 0;
        for (int i = 0; i < n; i++) {
            element(keys[i], "keys", i);
            if (keys[i].byteSize() > BatchFormat.MAX_SLICE) { // before allocating room for it
                throw Scratch.tooLarge(keys[i].byteSize());
            }
            keyBytes += keys[i].byteSize();
            if (sortedInput && i > 0 && BatchFormat.compareBytewise(keys[i - 1], keys[i]) > 0) {
                throw new IllegalArgumentException("sortedInput, but keys[" + i + "] sorts before keys[" + (i - 1) + "]");
            }
        }
        long words = 8L * Math.max(1, n);
        MemorySegment pointers = s.buffer(Scratch.MULTI_KEYS, words);
        MemorySegment sizes = s.buffer(Scratch.MULTI_SIZES, words);
        MemorySegment slices = s.buffer(Scratch.MULTI_VALUES, words);
        MemorySegment errs = s.buffer(Scratch.MULTI_ERRORS, words);
        MemorySegment bytes = s.buffer(Scratch.MULTI_BYTES, Math.max(1, keyBytes));
        long at = 0;
        for (int i = 0; i < n; i++) {
            long len = keys[i].byteSize();
            MemorySegment.copy(keys[i], 0, bytes, at, len);
            pointers.setAtIndex(JAVA_LONG, i, bytes.address() + at);
            sizes.setAtIndex(JAVA_LONG, i, len);
            at += len;
        }
        errs.asSlice(0, words).fill((byte) 0);
        slices.asSlice(0, words).fill((byte) 0);
        return n;
    }

    /**
     * Copies the results of {@link #call} for {@code values.length} keys into {@code values}
     * (as much as fits; a null entry only measures), their lengths (-1 when absent or failed)
     * into {@code lengths} and their errors into {@code errors}; every slice is destroyed and
     * every error taken, also when copying into a value throws.
     *
     * @return the number of keys found
     */
    public static int intoSegments(Scratch s, MemorySegment[] values, long[] lengths, RocksDBException[] errors) {
        return intoSegments(s, values, lengths, errors, 0);
    }

    /**
     * {@link #intoSegments(Scratch, MemorySegment[], long[], RocksDBException[])} leaving out the
     * last {@code suffix} bytes of every value: the timestamp a TTL database appends, which the
     * engine's batched multi-get (unlike its get) does not strip.
     *
     * @return the number of keys found
     */
    public static int intoSegments(Scratch s, MemorySegment[] values, long[] lengths, RocksDBException[] errors,
                                   int suffix) {
        int n = values.length;
        MemorySegment slices = s.buffer(Scratch.MULTI_VALUES, 0);
        int found = 0;
        int i = 0;
        try {
            for (; i < n; i++) {
                // raw addresses: no object per key
                long slice = slices.getAtIndex(JAVA_LONG, i);
                errors[i] = Native.takeError(s.buffer(Scratch.MULTI_ERRORS, 0), 8L * i);
                if (slice == 0) {
                    lengths[i] = -1;
                    continue;
                }
                try {
                    long value = Native.pinnableValueAddress(slice, s.size);
                    long length = Math.max(0, s.size.get(JAVA_LONG, 0) - suffix);
                    lengths[i] = length;
                    found++;
                    if (values[i] != null) { // may throw, e.g. for a segment of a closed arena
                        Copies.fromAddress(value, values[i], 0, Math.min(length, values[i].byteSize()));
                    }
                } finally {
                    Native.pinnableDestroy(slice);
                }
            }
        } catch (RuntimeException | Error e) {
            discard(s, i + 1, n);
            throw e;
        }
        return found;
    }

    /**
     * The results of {@link #call} for {@code n} keys as new arrays ({@code null} where absent).
     *
     * @throws RocksDBException the first key's failure (the others suppressed), after every
     *         slice was destroyed and every error taken
     * @throws UnsupportedOperationException if a value does not fit in an array (after every slice
     *         was destroyed and every error taken)
     */
    public static List<byte[]> asArrays(Scratch s, int n) {
        return asArrays(s, n, 0);
    }

    /**
     * {@link #asArrays(Scratch, int)} leaving out the last {@code suffix} bytes of every value
     * (see {@link #intoSegments(Scratch, MemorySegment[], long[], RocksDBException[], int)}).
     *
     * @throws RocksDBException the first key's failure (the others suppressed)
     */
    public static List<byte[]> asArrays(Scratch s, int n, int suffix) {
        byte[][] out = new byte[n][];
        RocksDBException failure = null;
        MemorySegment slices = s.buffer(Scratch.MULTI_VALUES, 0);
        int i = 0;
        try {
            for (; i < n; i++) {
                MemorySegment slice = slices.getAtIndex(ADDRESS, i);
                failure = MultiGet.collectError(failure, s, i);
                if (slice.address() != 0) {
                    try {
                        MemorySegment value = Native.pinnableValue(slice, s.size);
                        out[i] = Copies.toArray(value.asSlice(0, Math.max(0, value.byteSize() - suffix)));
                    } finally {
                        Native.pinnableDestroy(slice);
                    }
                }
            }
        } catch (RuntimeException | Error e) { // e.g. a value too large for an array: release the rest
            discard(s, i + 1, n);
            throw e;
        }
        if (failure != null) {
            throw failure;
        }
        return Arrays.asList(out);
    }

    /** Releases the results of keys {@code from} to {@code n - 1} (after a failure). */
    private static void discard(Scratch s, int from, int n) {
        MemorySegment slices = s.buffer(Scratch.MULTI_VALUES, 0);
        for (int j = from; j < n; j++) {
            MemorySegment slice = slices.getAtIndex(ADDRESS, j);
            if (slice.address() != 0) {
                Native.pinnableDestroy(slice);
            }
            Native.takeError(s.buffer(Scratch.MULTI_ERRORS, 0), 8L * j);
        }
    }

    /**
     * Takes key {@code i}'s error from the multi-get's error slots, if any: the first error is
     * returned as the failure, later ones are added to it as suppressed.
     */
    static RocksDBException collectError(RocksDBException failure, Scratch s, int i) {
        RocksDBException error = Native.takeError(s.buffer(Scratch.MULTI_ERRORS, 0), 8L * i);
        if (error == null) {
            return failure;
        }
        if (failure == null) {
            return error;
        }
        failure.addSuppressed(error);
        return failure;
    }
}
