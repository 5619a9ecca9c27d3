package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;

import io.rocksffm.internal.Native;
import io.rocksffm.internal.Native.Scratch;
import io.rocksffm.internal.NativeLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * An open RocksDB database ({@code rocksdb_t}).
 *
 * <p><b>Ownership.</b> The caller owns the database and closes it; {@link #close()} is idempotent
 * and waits for calls in flight on other threads. It refuses (with
 * {@link IllegalStateException}) while pinned values, iterators or snapshots created from this
 * database are still open: close those first. Any call on a closed database throws
 * {@link IllegalStateException}.
 *
 * <p><b>Threads.</b> A database is safe to share across threads. Methods allocate nothing
 * native per call: inputs in heap memory are copied into per-thread scratch memory, and the
 * {@code errptr}/length out-slots are per-thread too.
 *
 * <p><b>Memory.</b> The core methods take {@link MemorySegment}s: a key or value is the whole
 * segment ({@code byteSize()} bytes), native or heap. {@code byte[]} methods are conveniences
 * over them that use this database's default read and write options.
 *
 * <p><b>Errors.</b> RocksDB failures throw {@link RocksDBException}; an absent key is a value
 * ({@code -1} or {@code null}), not an exception.
 */
public final class RocksDB extends NativeObject {
    private final MemorySegment defaultFamily;
    private final Path path;
    private final boolean readOnly;
    private final ReadOptions defaultRead = new ReadOptions();
    private final WriteOptions defaultWrite = new WriteOptions();

    private RocksDB(MemorySegment db, MemorySegment defaultFamily, Path path, boolean readOnly) {
        super("RocksDB", db);
        this.defaultFamily = defaultFamily;
        this.path = path;
        this.readOnly = readOnly;
    }

    /** The engine library this process's rocksffm is bound to (loading it if need be). */
    public static Engine engine() {
        NativeLibrary.Loaded l = Native.engine();
        return new Engine(l.source(), l.path(), l.version());
    }

    /**
     * Opens (or, with {@link Options#setCreateIfMissing}, creates) the database at {@code path}
     * for reading and writing. The options may be closed once this returns.
     *
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} when the
     *         database does not exist and create-if-missing is off, or
     *         {@link RocksDBException.Code#IO_ERROR} when another handle holds its lock
     */
    public static RocksDB open(Path path, Options options) {
        return open(path, options, false);
    }

    /**
     * Opens an existing database read-only; writes to it fail with
     * {@link RocksDBException.Code#NOT_SUPPORTED}. Several read-only handles (and one writer) may
     * open the same path.
     */
    public static RocksDB openReadOnly(Path path, Options options) {
        return open(path, options, true);
    }

    private static RocksDB open(Path path, Options options, boolean readOnly) {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(options, "options");
        String name = path.toAbsolutePath().toString();
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path contains a NUL character: " + path);
        }
        Scratch s = Scratch.get();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cName = arena.allocateFrom(name);
            MemorySegment families = arena.allocateFrom(ADDRESS, arena.allocateFrom("default"));
            MemorySegment familyOptions = arena.allocate(ADDRESS);
            MemorySegment handles = arena.allocate(ADDRESS);
            MemorySegment db = options.apply(o -> {
                familyOptions.set(ADDRESS, 0, o);
                return readOnly
                        ? rocksdb_open_for_read_only_column_families(o, cName, 1, families, familyOptions,
                                handles, flag(false), s.errptr)
                        : rocksdb_open_column_families(o, cName, 1, families, familyOptions, handles, s.errptr);
            });
            Native.check(s.errptr);
            return new RocksDB(db, handles.get(ADDRESS, 0), path, readOnly);
        }
    }

    @Override
    void destroy(MemorySegment db) {
        rocksdb_column_family_handle_destroy(defaultFamily);
        rocksdb_close(db);
        defaultRead.close();
        defaultWrite.close();
    }

    /**
     * Closes the database. Idempotent; waits for calls in flight on other threads.
     *
     * @throws IllegalStateException if pinned values, iterators or snapshots from it are open
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "pinned values, iterators or snapshots");
    }

    /** The path this database was opened at. */
    public Path path() {
        return path;
    }

    /** Whether this handle was opened with {@link #openReadOnly}. */
    public boolean isReadOnly() {
        return readOnly;
    }

    // ---- calls guarded against close ----------------------------------------------------------

    private void enter(NativeObject options) {
        lifecycle.enter();
        try {
            options.lifecycle.enter();
        } catch (RuntimeException e) {
            lifecycle.exit();
            throw e;
        }
    }

    private void exit(NativeObject options) {
        options.lifecycle.exit();
        lifecycle.exit();
    }

    /** Enters the database and read options, refusing a snapshot of another database. */
    private void enterRead(ReadOptions options) {
        enter(options);
        RocksDB owner = options.snapshotOwner();
        if (owner != null && owner != this) {
            exit(options);
            throw new IllegalArgumentException("the read options carry a snapshot of another database");
        }
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * Stores {@code value} under {@code key}.
     *
     * @throws RocksDBException if RocksDB refuses the write (e.g. a read-only database)
     */
    public void put(WriteOptions options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Scratch s = Scratch.get();
        MemorySegment k = s.first(key);
        MemorySegment v = s.second(value);
        enter(options);
        try {
            rocksdb_put(ptr, options.ptr, k, key.byteSize(), v, value.byteSize(), s.errptr);
        } finally {
            exit(options);
        }
        Native.check(s.errptr);
    }

    /** {@link #put(WriteOptions, MemorySegment, MemorySegment)} with default write options. */
    public void put(byte[] key, byte[] value) {
        put(defaultWrite, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /** Removes {@code key} (a no-op when it is absent). */
    public void delete(WriteOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Scratch s = Scratch.get();
        MemorySegment k = s.first(key);
        enter(options);
        try {
            rocksdb_delete(ptr, options.ptr, k, key.byteSize(), s.errptr);
        } finally {
            exit(options);
        }
        Native.check(s.errptr);
    }

    /** {@link #delete(WriteOptions, MemorySegment)} with default write options. */
    public void delete(byte[] key) {
        delete(defaultWrite, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * Removes every key in {@code [begin, end)} (bytewise order).
     *
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} if {@code end < begin}
     */
    public void deleteRange(WriteOptions options, MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        Scratch s = Scratch.get();
        MemorySegment b = s.first(begin);
        MemorySegment e = s.second(end);
        enter(options);
        try {
            rocksdb_delete_range_cf(ptr, options.ptr, defaultFamily, b, begin.byteSize(), e, end.byteSize(), s.errptr);
        } finally {
            exit(options);
        }
        Native.check(s.errptr);
    }

    /** {@link #deleteRange(WriteOptions, MemorySegment, MemorySegment)} with default write options. */
    public void deleteRange(byte[] begin, byte[] end) {
        deleteRange(defaultWrite, MemorySegment.ofArray(Objects.requireNonNull(begin, "begin")),
                MemorySegment.ofArray(Objects.requireNonNull(end, "end")));
    }

    /**
     * Applies every operation of {@code batch} atomically. The batch is unchanged and may be
     * written again.
     *
     * @throws RocksDBException if RocksDB refuses the write (e.g. a read-only database); nothing
     *         of the batch is applied then
     */
    public void write(WriteOptions options, WriteBatch batch) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(batch, "batch");
        Scratch s = Scratch.get();
        enter(options);
        try {
            batch.writeTo(ptr, options.ptr, s.errptr);
        } finally {
            exit(options);
        }
        Native.check(s.errptr);
    }

    // ---- reads ----------------------------------------------------------------------------------

    /** rocksdb_get_pinned; the slice (or NULL when absent) must be destroyed before exit(). */
    private MemorySegment pinnedSlice(ReadOptions options, MemorySegment key, Scratch s) {
        MemorySegment slice = rocksdb_get_pinned(ptr, options.ptr, s.first(key), key.byteSize(), s.errptr);
        if (slice.address() == 0) {
            Native.check(s.errptr);
        }
        return slice;
    }

    /**
     * Copies the value of {@code key} into {@code value} and returns the value's full length, or
     * -1 when the key is absent. When the result exceeds {@code value.byteSize()}, only the first
     * {@code value.byteSize()} bytes were copied: retry with a larger segment.
     *
     * @throws IllegalArgumentException if {@code value} is read-only
     */
    public long get(ReadOptions options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (value.isReadOnly()) {
            throw new IllegalArgumentException("value segment is read-only");
        }
        Scratch s = Scratch.get();
        enterRead(options);
        try {
            MemorySegment slice = pinnedSlice(options, key, s);
            if (slice.address() == 0) {
                return -1;
            }
            try {
                MemorySegment found = Native.pinnableValue(slice, s.size);
                long length = found.byteSize();
                MemorySegment.copy(found, 0, value, 0, Math.min(length, value.byteSize()));
                return length;
            } finally {
                Native.pinnableDestroy(slice);
            }
        } finally {
            exit(options);
        }
    }

    /** The value of {@code key} as a new array, or {@code null} when absent (default read options). */
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        Scratch s = Scratch.get();
        enterRead(defaultRead);
        try {
            MemorySegment slice = pinnedSlice(defaultRead, MemorySegment.ofArray(key), s);
            if (slice.address() == 0) {
                return null;
            }
            try {
                return Native.pinnableValue(slice, s.size).toArray(ValueLayout.JAVA_BYTE);
            } finally {
                Native.pinnableDestroy(slice);
            }
        } finally {
            exit(defaultRead);
        }
    }

    /**
     * Reads {@code key} without copying: the returned value views RocksDB's memory until it is
     * closed. Returns {@code null} when the key is absent.
     *
     * @see PinnedValue
     */
    public PinnedValue getPinned(ReadOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Scratch s = Scratch.get();
        enterRead(options);
        try {
            MemorySegment slice = pinnedSlice(options, key, s);
            if (slice.address() == 0) {
                return null;
            }
            try {
                PinnedValue pinned = new PinnedValue(this, slice, Native.pinnableValue(slice, s.size));
                lifecycle.addChild();
                return pinned;
            } catch (RuntimeException | Error e) {
                Native.pinnableDestroy(slice);
                throw e;
            }
        } finally {
            exit(options);
        }
    }

    // ---- iterators and snapshots ----------------------------------------------------------------

    /** {@link #newIterator(ReadOptions, long)} without prefetch. */
    public RocksIterator newIterator(ReadOptions options) {
        return newIterator(options, 0);
    }

    /**
     * A new iterator, not yet positioned (call a seek first), reading with {@code options}
     * (bounds, snapshot, ...). The options, their snapshot and this database stay open at least
     * as long as the iterator.
     *
     * @param prefetchBytes size of the run buffer for forward scans, 0 for none
     * @throws IllegalArgumentException if {@code prefetchBytes} is negative, or the options carry
     *         a snapshot of another database
     */
    public RocksIterator newIterator(ReadOptions options, long prefetchBytes) {
        Objects.requireNonNull(options, "options");
        if (prefetchBytes < 0) {
            throw new IllegalArgumentException("prefetch size must be >= 0: " + prefetchBytes);
        }
        enterRead(options);
        try {
            synchronized (options) { // orders against bound and snapshot changes
                Snapshot snapshot = options.snapshot();
                lifecycle.addChild();
                options.lifecycle.addChild();
                if (snapshot != null) {
                    snapshot.lifecycle.addChild();
                }
                try {
                    return new RocksIterator(this, options, snapshot, rocksdb_create_iterator(ptr, options.ptr), prefetchBytes);
                } catch (RuntimeException | Error e) {
                    if (snapshot != null) {
                        snapshot.lifecycle.removeChild();
                    }
                    options.lifecycle.removeChild();
                    lifecycle.removeChild();
                    throw e;
                }
            }
        } finally {
            exit(options);
        }
    }

    /**
     * A snapshot of the current state, owned by the caller. This database refuses to close while
     * it is open.
     */
    public Snapshot getSnapshot() {
        lifecycle.enter();
        try {
            lifecycle.addChild();
            try {
                return new Snapshot(this, rocksdb_create_snapshot(ptr));
            } catch (RuntimeException | Error e) {
                lifecycle.removeChild();
                throw e;
            }
        } finally {
            lifecycle.exit();
        }
    }

    /**
     * Calls {@code action} with every entry {@code options} let an iterator see (use its bounds
     * to walk a range), in key order, without copying: the key and value segments are valid only
     * during the call. The iterator is closed when this returns or throws.
     */
    public void forEach(ReadOptions options, BiConsumer<MemorySegment, MemorySegment> action) {
        Objects.requireNonNull(action, "action");
        try (RocksIterator it = newIterator(options)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                action.accept(it.key(), it.value());
            }
        }
    }

    /**
     * The entries {@code options} let an iterator see, in key order, as a sequential stream of
     * copies. The stream owns an iterator: consume or close it on the calling thread (use
     * try-with-resources); it is closed when the stream is exhausted or closed.
     */
    public Stream<Map.Entry<byte[], byte[]>> stream(ReadOptions options) {
        RocksIterator it = newIterator(options);
        it.seekToFirst();
        Spliterator<Map.Entry<byte[], byte[]>> entries = new Spliterators.AbstractSpliterator<>(
                Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL) {
            @Override
            public boolean tryAdvance(Consumer<? super Map.Entry<byte[], byte[]>> next) {
                if (it.isClosed()) {
                    return false;
                }
                if (!it.isValid()) {
                    it.close();
                    return false;
                }
                next.accept(Map.entry(it.keyBytes(), it.valueBytes()));
                it.next();
                return true;
            }
        };
        return StreamSupport.stream(entries, false).onClose(it::close);
    }

    /**
     * Flushes the memtable to a table file.
     *
     * @param wait whether to wait until the flush is done
     */
    public void flush(boolean wait) {
        Scratch s = Scratch.get();
        lifecycle.enter();
        try {
            MemorySegment fo = rocksdb_flushoptions_create();
            try {
                rocksdb_flushoptions_set_wait(fo, flag(wait));
                rocksdb_flush(ptr, fo, s.errptr);
            } finally {
                rocksdb_flushoptions_destroy(fo);
            }
        } finally {
            lifecycle.exit();
        }
        Native.check(s.errptr);
    }
}
