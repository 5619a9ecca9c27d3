package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes a table file ({@code rocksdb_sstfilewriter_t}) outside any database, to be ingested with
 * {@link Database#ingestExternalFile}: bulk loading without the write path (no log, no
 * memtable, no compaction of the loaded data).
 *
 * {@snippet id="SstFileWriter" :
 * try (SstFileWriter writer = SstFileWriter.open(options, file)) {
 *     writer.put("a".getBytes(UTF_8), "1".getBytes(UTF_8))   // in ascending key order
 *           .put("b".getBytes(UTF_8), "2".getBytes(UTF_8));
 *     writer.finish();
 * }
 * try (IngestExternalFileOptions ingest = new IngestExternalFileOptions().setMoveFiles(true)) {
 *     db.ingestExternalFile(List.of(file), ingest);   // atomically visible
 * }
 * }
 *
 * <p>Entries must be added in strictly ascending key order (bytewise); RocksDB refuses any other
 * order with {@link RocksDBException.Code#INVALID_ARGUMENT}. Range deletions may come in any order.
 * {@link #finish()} completes the file; a file without entries cannot be finished.
 *
 * <p>The caller owns and closes it; closing without {@link #finish()} leaves an incomplete file
 * behind. Calls are serialised (one writer is meant for one thread); any call after close throws
 * {@link IllegalStateException}. Keys and values are copied before {@link #put} returns: the
 * segments may be reused at once.
 */
public final class SstFileWriter extends NativeObject {
    /** Guards this object's state (an internal object: never the caller's, who may lock this one). */
    private final Object lock = new Object();
    /** The order of the keys, the options' comparator's (Java, or built-in from an options string or file). */
    private final KeyOrder order;
    /** The Java comparator of the options, if any: RocksDB's copy keeps a raw pointer to it. */
    private final NativeComparator comparator;
    /** The size of the timestamps of the options' {@link TimestampedComparator}, 0 without one. */
    private final int timestampSize;

    private SstFileWriter(MemorySegment writer, KeyOrder order, NativeComparator comparator, int timestampSize) {
        super("SstFileWriter", writer);
        this.order = order;
        this.comparator = comparator;
        this.timestampSize = timestampSize;
    }

    /**
     * Refuses a key without a timestamp when the comparator has them (RocksDB refuses it too, but
     * only inside the engine): this writer writes keys without timestamps.
     */
    private void refuseTimestamped() {
        if (timestampSize != 0) {
            throw new IllegalArgumentException("the writer's comparator has " + timestampSize + "-byte user-defined"
                    + " timestamps, which SstFileWriter's keys do not carry: write the family with TimestampedDB");
        }
    }

    /**
     * A writer of a new table file at {@code file} (overwritten if it exists) whose blocks,
     * compression and filters follow {@code options} (use the options of the column family the
     * file is meant for).
     *
     * @param options the table options (copied: may be closed once this returns; a Java
     *                comparator set on them lives until this writer is closed)
     * @param file    the file to write
     * @return the writer, owned by the caller
     * @throws IllegalStateException if {@code options} is closed
     * @throws IllegalArgumentException if the path holds a NUL character
     * @throws RocksDBException if the file cannot be created
     */
    public static SstFileWriter open(Options options, Path file) {
        try (EnvOptions env = new EnvOptions()) {
            return open(options, env, file);
        }
    }

    /**
     * A writer of a new table file at {@code file} (overwritten if it exists) whose blocks,
     * compression and filters follow {@code options}, and whose reads and writes of the file
     * follow {@code envOptions} (direct or memory-mapped I/O, syncing, buffers).
     *
     * @param options    the table options (copied: may be closed once this returns; a Java
     *                   comparator set on them lives until this writer is closed)
     * @param envOptions the file I/O options (copied: may be closed once this returns)
     * @param file       the file to write
     * @return the writer, owned by the caller
     * @throws IllegalStateException if {@code options} or {@code envOptions} is closed
     * @throws IllegalArgumentException if the path holds a NUL character
     * @throws RocksDBException if the file cannot be created
     */
    public static SstFileWriter open(Options options, EnvOptions envOptions, Path file) {
        String name = CStrings.path(file);
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(envOptions, "envOptions");
        MemorySegment writer;
        NativeComparator comparator = options.retainComparator(); // the copy points at it
        try {
            writer = envOptions.apply(env -> options.apply(o -> rocksdb_sstfilewriter_create(env, o))); // copies both
        } catch (RuntimeException | Error e) {
            if (comparator != null) {
                comparator.release();
            }
            throw e;
        }
        SstFileWriter w = new SstFileWriter(writer, options.keyOrder(), comparator,
                options.comparator() instanceof TimestampedComparator t ? t.timestampSize() : 0);
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            rocksdb_sstfilewriter_open(writer, arena.allocateFrom(name), s.errptr);
            Native.check(s.errptr);
        } catch (RuntimeException | Error e) {
            w.close();
            throw e;
        }
        return w;
    }

    @Override
    void destroy(MemorySegment writer) {
        rocksdb_sstfilewriter_destroy(writer);
        if (comparator != null) {
            comparator.release();
        }
    }

    /** The shape of the writer's two-slice calls (put, merge, delete range). */
    @FunctionalInterface
    private interface TwoSlices {
        void call(MemorySegment writer, MemorySegment a, long aLength, MemorySegment b, long bLength, MemorySegment err);
    }

    private void call(MemorySegment a, MemorySegment b, TwoSlices f) {
        synchronized (lock) {
            use(w -> {
                try (Scratch s = Scratch.acquire()) {
                    f.call(w, s.first(a), a.byteSize(), s.second(b), b.byteSize(), s.errptr);
                    Native.check(s.errptr);
                }
            });
        }
    }

    /**
     * Adds {@code key} with {@code value}.
     *
     * @param key   the key (the whole segment), after every key added so far
     * @param value the value (the whole segment)
     * @return this writer
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} if {@code key} does
     *         not sort after the previous key, or after {@link #finish()}
     * @throws IllegalArgumentException if the options' comparator has user-defined timestamps
     *         ({@link TimestampedComparator}: the keys here carry none)
     * @throws IllegalStateException if closed
     */
    public SstFileWriter put(MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        refuseTimestamped();
        call(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"),
                (w, k, kl, v, vl, err) -> rocksdb_sstfilewriter_put(w, k, kl, v, vl, err));
        return this;
    }

    /**
     * Adds a merge record: {@code value} is merged into {@code key} by the merge operator of the
     * family the file is ingested into, when read or compacted.
     *
     * @param key   the key (the whole segment), after every key added so far
     * @param value the merge operand (the whole segment)
     * @return this writer
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} if {@code key} does
     *         not sort after the previous key, or after {@link #finish()}
     * @throws IllegalStateException if closed
     */
    public SstFileWriter merge(MemorySegment key, MemorySegment value) {
        call(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"),
                (w, k, kl, v, vl, err) -> rocksdb_sstfilewriter_merge(w, k, kl, v, vl, err));
        return this;
    }

    /**
     * {@link #merge(MemorySegment, MemorySegment)} for arrays.
     *
     * @param key   the key, after every key added so far
     * @param value the merge operand
     * @return this writer
     * @throws RocksDBException if {@code key} does not sort after the previous key
     * @throws IllegalStateException if closed
     */
    public SstFileWriter merge(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        return merge(MemorySegment.ofArray(key), MemorySegment.ofArray(value));
    }

    /**
     * {@link #put(MemorySegment, MemorySegment)} for arrays.
     *
     * @param key   the key, after every key added so far
     * @param value the value
     * @return this writer
     * @throws RocksDBException if {@code key} does not sort after the previous key
     * @throws IllegalStateException if closed
     */
    public SstFileWriter put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        return put(MemorySegment.ofArray(key), MemorySegment.ofArray(value));
    }

    /**
     * Adds a deletion of {@code key} (it hides the key's older versions once ingested).
     *
     * @param key the key (the whole segment), after every key added so far
     * @return this writer
     * @throws RocksDBException if {@code key} does not sort after the previous key
     * @throws IllegalArgumentException if the options' comparator has user-defined timestamps
     * @throws IllegalStateException if closed
     */
    public SstFileWriter delete(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        refuseTimestamped();
        synchronized (lock) {
            use(w -> {
                try (Scratch s = Scratch.acquire()) {
                    rocksdb_sstfilewriter_delete(w, s.first(key), key.byteSize(), s.errptr);
                    Native.check(s.errptr);
                }
            });
        }
        return this;
    }

    /**
     * {@link #delete(MemorySegment)} for an array.
     *
     * @param key the key, after every key added so far
     * @return this writer
     * @throws RocksDBException if {@code key} does not sort after the previous key
     * @throws IllegalStateException if closed
     */
    public SstFileWriter delete(byte[] key) {
        return delete(MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * Adds a deletion of the keys from {@code begin} (inclusive) to {@code end} (exclusive).
     * Range deletions need not be in order among themselves or with the keys.
     *
     * @param begin the first key deleted
     * @param end   the end of the range (not deleted)
     * @return this writer
     * @throws IllegalArgumentException if {@code end} sorts before {@code begin}, or the options'
     *         comparator has user-defined timestamps
     * @throws RocksDBException after {@link #finish()}
     * @throws IllegalStateException if closed
     */
    public SstFileWriter deleteRange(MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        refuseTimestamped();
        Limits.checkRange(begin, end);
        if (order.compare(begin, end) > 0) {
            throw new IllegalArgumentException("deleteRange: end sorts before begin in the order of " + order);
        }
        call(begin, end, (w, b, bl, e, el, err) -> rocksdb_sstfilewriter_delete_range(w, b, bl, e, el, err));
        return this;
    }

    /**
     * {@link #deleteRange(MemorySegment, MemorySegment)} for arrays.
     *
     * @param begin the first key deleted
     * @param end   the end of the range (not deleted)
     * @return this writer
     * @throws IllegalArgumentException if {@code end} sorts before {@code begin}
     * @throws IllegalStateException if closed
     */
    public SstFileWriter deleteRange(byte[] begin, byte[] end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        return deleteRange(MemorySegment.ofArray(begin), MemorySegment.ofArray(end));
    }

    /**
     * Completes the file: writes its index, filters and footer and closes it. The writer accepts
     * nothing more.
     *
     * @return the file's size in bytes
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} if nothing was added
     *         or the file was already finished; an I/O error if the file cannot be written
     * @throws IllegalStateException if closed
     */
    public long finish() {
        synchronized (lock) {
            use(w -> {
                try (Scratch s = Scratch.acquire()) {
                    rocksdb_sstfilewriter_finish(w, s.errptr);
                    Native.check(s.errptr);
                }
            });
            return fileSize();
        }
    }

    /**
     * The bytes written to the file so far (its final size after {@link #finish()}).
     *
     * @return the size in bytes
     * @throws IllegalStateException if closed
     */
    public long fileSize() {
        synchronized (lock) {
            return apply(w -> {
                try (Scratch s = Scratch.acquire()) {
                    rocksdb_sstfilewriter_file_size(w, s.size);
                    return s.size.get(ValueLayout.JAVA_LONG, 0);
                }
            });
        }
    }
}
