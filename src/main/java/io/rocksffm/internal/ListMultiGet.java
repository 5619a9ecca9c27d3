package io.rocksffm.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.RocksDBException;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;

/**
 * The multi-gets that return each value as a C string (malloc'd, freed with {@code rocksdb_free})
 * rather than a pinnable slice: a transaction's ({@code rocksdb_transaction_multi_get_cf},
 * {@code rocksdb_transaction_multi_get_for_update_cf}) and a transaction database's
 * ({@code rocksdb_transactiondb_multi_get_cf}). Keys are packed as {@link MultiGet} packs them; the
 * caller holds the object, family and options open until the results are taken.
 */
public final class ListMultiGet {
    private ListMultiGet() {}

    /** The shape of the C functions: {@code f(handle, options, families, n, keys, key sizes, values, value sizes, errs)}. */
    @FunctionalInterface
    public interface Function {
        void call(MemorySegment handle, MemorySegment options, MemorySegment families, long n, MemorySegment keys,
                  MemorySegment keySizes, MemorySegment values, MemorySegment valueSizes, MemorySegment errs);
    }

    /** Packs the keys into {@code s} and calls {@code function} for them, all in {@code family}. */
    public static void call(Function function, MemorySegment handle, MemorySegment options, MemorySegment family,
                            MemorySegment[] keys, Scratch s) {
        int n = MultiGet.packKeys(keys, false, s);
        long words = 8L * Math.max(1, n);
        MemorySegment families = s.buffer(Scratch.MULTI_FAMILIES, words);
        MemorySegment valueSizes = s.buffer(Scratch.MULTI_VALUE_SIZES, words);
        for (int i = 0; i < n; i++) {
            families.setAtIndex(ADDRESS, i, family);
        }
        valueSizes.asSlice(0, words).fill((byte) 0);
        if (n > 0) {
            function.call(handle, options, families, n, s.buffer(Scratch.MULTI_KEYS, 0), s.buffer(Scratch.MULTI_SIZES, 0),
                    s.buffer(Scratch.MULTI_VALUES, 0), valueSizes, s.buffer(Scratch.MULTI_ERRORS, 0));
        }
    }

    /** Takes value {@code i}: its C string (NULL when absent), whose slot is cleared. */
    private static MemorySegment take(Scratch s, int i) {
        MemorySegment values = s.buffer(Scratch.MULTI_VALUES, 0);
        MemorySegment v = values.getAtIndex(ADDRESS, i);
        values.setAtIndex(JAVA_LONG, i, 0);
        return v.address() == 0 ? v : v.reinterpret(s.buffer(Scratch.MULTI_VALUE_SIZES, 0).getAtIndex(JAVA_LONG, i));
    }

    /**
     * Copies the results of {@link #call} into {@code values} (what fits; a null entry only
     * measures), their lengths (-1 when absent or failed) into {@code lengths} and errors into
     * {@code errors}; every value is freed and every error taken, also when a copy throws.
     *
     * @return the number of keys found
     */
    public static int intoSegments(Scratch s, MemorySegment[] values, long[] lengths, RocksDBException[] errors) {
        int n = values.length;
        int found = 0;
        RuntimeException failure = null;
        for (int i = 0; i < n; i++) {
            errors[i] = Native.takeError(s.buffer(Scratch.MULTI_ERRORS, 0), 8L * i);
            MemorySegment v = take(s, i);
            if (v.address() == 0) {
                lengths[i] = -1;
                continue;
            }
            try {
                lengths[i] = v.byteSize();
                found++;
                if (values[i] != null && failure == null) {
                    MemorySegment.copy(v, 0, values[i], 0, Math.min(v.byteSize(), values[i].byteSize()));
                }
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                RocksDBC.rocksdb_free(v);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return found;
    }

    /**
     * The results of {@link #call} for {@code n} keys as new arrays ({@code null} where absent).
     *
     * @throws RocksDBException the first key's failure (the others suppressed), after every value
     *         was freed and every error taken
     */
    public static List<byte[]> asArrays(Scratch s, int n) {
        byte[][] out = new byte[n][];
        RocksDBException failure = null;
        int i = 0;
        try {
            for (; i < n; i++) {
                failure = MultiGet.collectError(failure, s, i);
                MemorySegment v = take(s, i);
                if (v.address() != 0) {
                    try {
                        out[i] = Copies.toArray(v);
                    } finally {
                        RocksDBC.rocksdb_free(v);
                    }
                }
            }
        } catch (RuntimeException | Error e) { // e.g. a value too large for an array: free the rest
            for (int j = i + 1; j < n; j++) {
                Native.takeError(s.buffer(Scratch.MULTI_ERRORS, 0), 8L * j);
                MemorySegment v = take(s, j);
                if (v.address() != 0) {
                    RocksDBC.rocksdb_free(v);
                }
            }
            throw e;
        }
        if (failure != null) {
            throw failure;
        }
        return Arrays.asList(out);
    }
}
