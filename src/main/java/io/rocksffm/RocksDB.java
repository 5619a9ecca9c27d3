package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.BatchFormat;
import io.rocksffm.internal.KeyRanges;
import io.rocksffm.internal.MultiGet;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.NativeLibrary;
import io.rocksffm.internal.PointReads;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * An open RocksDB database ({@code rocksdb_t}).
 *
 * <p><b>Ownership.</b> The caller owns the database and closes it; {@link #close()} is idempotent
 * and waits for calls in flight on other threads. It refuses (with
 * {@link IllegalStateException}) while pinned values, iterators or snapshots created from this
 * database are still open: close those first. It closes the column family handles itself. Any
 * call on a closed database throws {@link IllegalStateException}.
 *
 * <p><b>Threads.</b> A database is safe to share across threads, platform or virtual. Methods
 * allocate nothing native per call: inputs in heap memory are copied into pooled scratch memory,
 * which also holds the {@code errptr}/length out-slots; a thread holds it only during a call.
 *
 * <p><b>Memory.</b> The core methods take {@link MemorySegment}s: a key or value is the whole
 * segment ({@code byteSize()} bytes), native or heap. Each operation has one core method taking
 * a {@link ColumnFamilyHandle}; the forms without one use the default family, and the
 * {@code byte[]} forms also use this database's default read and write options.
 *
 * <p><b>Errors.</b> RocksDB failures throw {@link RocksDBException}; an absent key is a value
 * ({@code -1} or {@code null}), not an exception.
 */
public final class RocksDB extends NativeObject implements KeyValueReads, KeyValueWrites, DatabaseAdmin {
    private final ColumnFamilyHandle defaultFamily;
    private final ColumnFamilies families;
    private final Path path;
    private final boolean readOnly;
    private final CallGuard guard;

    private RocksDB(MemorySegment db, Path path, boolean readOnly, List<String> names, MemorySegment handles) {
        super("RocksDB", db);
        this.path = path;
        this.readOnly = readOnly;
        this.families = new ColumnFamilies(this, names, handles);
        this.defaultFamily = families.get(ColumnFamilyHandle.DEFAULT);
        this.guard = new CallGuard(this, defaultFamily);
    }

    /**
     * The engine library this process's rocksffm is bound to (loading it if need be).
     *
     * @return the engine: where it came from, its file and version, which C functions it has
     * @throws UnsatisfiedLinkError if no engine can be found (the message says what was tried)
     */
    public static Engine engine() {
        NativeLibrary.Loaded l = Native.engine();
        return new Engine(l.source(), l.path(), l.version());
    }

    // ---- open ---------------------------------------------------------------------------------

    /**
     * Opens (or, with {@link Options#setCreateIfMissing}, creates) the database at {@code path}
     * for reading and writing, with only the default column family. The options may be closed
     * once this returns.
     *
     * @param path    the database's directory
     * @param options the database's options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} when the
     *         database does not exist and create-if-missing is off, or has other column
     *         families; {@link RocksDBException.Code#IO_ERROR} when another handle holds its lock
     */
    public static RocksDB open(Path path, Options options) {
        return open(path, options, List.of(), false);
    }

    /**
     * Opens the database with the given column families (every family it has must be listed;
     * the default family is added with {@code options} if absent). Their handles are then
     * available from {@link #columnFamily(String)}.
     *
     * @param path     the database's directory
     * @param options  the database's options
     * @param families every column family of the database, with its options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when a family is missing from the list
     */
    public static RocksDB open(Path path, Options options, List<ColumnFamilyDescriptor> families) {
        return open(path, options, families, false);
    }

    /**
     * Opens an existing database read-only; writes to it fail with
     * {@link RocksDBException.Code#NOT_SUPPORTED}. Several read-only handles (and one writer) may
     * open the same path. A subset of the column families may be listed.
     *
     * @param path     the database's directory
     * @param options  the database's options
     * @param families the column families to open, with their options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when there is no database at {@code path}
     */
    public static RocksDB openReadOnly(Path path, Options options, List<ColumnFamilyDescriptor> families) {
        return open(path, options, families, true);
    }

    /**
     * {@link #openReadOnly(Path, Options, List)} with the default family only.
     *
     * @param path    the database's directory
     * @param options the database's options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when there is no database at {@code path}
     */
    public static RocksDB openReadOnly(Path path, Options options) {
        return open(path, options, List.of(), true);
    }

    private static RocksDB open(Path path, Options options, List<ColumnFamilyDescriptor> families, boolean readOnly) {
        return Opening.open(path, options, families, readOnly, RocksDB::new);
    }

    /**
     * The names of the column families of the database at {@code path}.
     *
     * @param path    the database's directory
     * @param options options (the environment to read with)
     * @return the family names, "default" among them
     * @throws RocksDBException e.g. if there is no database at {@code path}
     */
    public static List<String> listColumnFamilies(Path path, Options options) {
        return Opening.listColumnFamilies(path, options);
    }

    @Override
    void destroy(MemorySegment db) {
        families.closeAll();
        rocksdb_close(db);
    }

    /**
     * Closes the database and its column family handles. Idempotent; waits for calls in flight
     * on other threads.
     *
     * @throws IllegalStateException if pinned values, iterators, snapshots or checkpoints from it
     *         are open
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "pinned values, iterators, snapshots or checkpoints");
    }

    /**
     * The path this database was opened at.
     *
     * @return the path (also after close)
     */
    public Path path() {
        return path;
    }

    /**
     * Whether this handle was opened with {@link #openReadOnly}.
     *
     * @return true for a read-only handle (also after close)
     */
    public boolean isReadOnly() {
        return readOnly;
    }

    // ---- column families ------------------------------------------------------------------------

    @Override
    public ColumnFamilyHandle defaultColumnFamily() {
        lifecycle.ensureOpen();
        return defaultFamily;
    }

    @Override
    public ColumnFamilyHandle columnFamily(String name) {
        Objects.requireNonNull(name, "name");
        lifecycle.ensureOpen();
        return families.get(name);
    }

    @Override
    public List<ColumnFamilyHandle> columnFamilies() {
        lifecycle.ensureOpen();
        return families.list();
    }

    void forget(ColumnFamilyHandle handle) {
        families.forget(handle);
    }

    @Override
    public ColumnFamilyHandle createColumnFamily(String name, Options options) {
        new ColumnFamilyDescriptor(name, options); // argument checks
        refuseIfReadOnly();
        lifecycle.enter();
        try {
            return families.create(this, name, options);
        } finally {
            lifecycle.exit();
        }
    }

    /** RocksDB 7.x lets a read-only handle change the column families on disk: refuse it here. */
    private void refuseIfReadOnly() {
        lifecycle.ensureOpen();
        if (readOnly) {
            throw new RocksDBException("Not implemented: Not supported operation in read only mode.");
        }
    }

    @Override
    public void dropColumnFamily(ColumnFamilyHandle family) {
        guard.checkFamily(family);
        if (family.isDefault()) {
            throw new IllegalArgumentException("the default column family cannot be dropped");
        }
        if (family.lifecycle.hasChildren()) {
            throw new IllegalStateException("cannot drop " + family.name() + " while iterators on it are open");
        }
        refuseIfReadOnly();
        lifecycle.enter();
        try {
            families.drop(this, family);
        } finally {
            lifecycle.exit();
        }
        family.close();
    }

    // ---- writes ---------------------------------------------------------------------------------

    @Override
    public void put(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        write(family, options, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"),
                RocksDBC::rocksdb_put_cf);
    }

    /** The shape of rocksdb_put_cf and rocksdb_delete_range_cf: a write of two slices. */
    @FunctionalInterface
    private interface TwoSliceWrite {
        void call(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment a, long aLength,
                  MemorySegment b, long bLength, MemorySegment errptr);
    }

    /** Runs a two-slice write guarded against close ({@code write} is a constant method reference). */
    private void write(ColumnFamilyHandle family, WriteOptions options, MemorySegment a, MemorySegment b,
                       TwoSliceWrite write) {
        Objects.requireNonNull(options, "options");
        guard.enter(options, family);
        try (Scratch s = Scratch.acquire()) {
            write.call(ptr, options.ptr, family.ptr, s.first(a), a.byteSize(), s.second(b), b.byteSize(), s.errptr);
            Native.check(s.errptr);
        } finally {
            guard.exit(options, family);
        }
    }

    /**
     * Stores {@code value} under {@code key} in the default family, with default write options.
     * (Overrides the interface's form to copy the arrays straight into scratch memory: wrapping
     * them in segments allocates whenever the JIT does not inline the whole path, measured with
     * JMH's {@code -prof gc}.)
     *
     * @param key   the key
     * @param value the value
     */
    @Override
    public void put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        guard.enter(WriteOptions.DEFAULT, defaultFamily);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_put_cf(ptr, WriteOptions.DEFAULT.ptr, defaultFamily.ptr, s.copy(Scratch.FIRST, key), key.length,
                    s.copy(Scratch.SECOND, value), value.length, s.errptr);
            Native.check(s.errptr);
        } finally {
            guard.exit(WriteOptions.DEFAULT, defaultFamily);
        }
    }

    @Override
    public void delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        guard.enter(options, family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_delete_cf(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(), s.errptr);
            Native.check(s.errptr);
        } finally {
            guard.exit(options, family);
        }
    }

    @Override
    public void deleteRange(ColumnFamilyHandle family, WriteOptions options, MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        if (BatchFormat.compareBytewise(begin, end) > 0) {
            throw new IllegalArgumentException("deleteRange: end sorts before begin");
        }
        write(family, options, begin, end, RocksDBC::rocksdb_delete_range_cf);
    }

    @Override
    public void write(WriteOptions options, WriteBatch batch) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(batch, "batch");
        // RocksDB checks these only while applying a batch, after logging it; a failure there
        // leaves the database refusing every later write until it is reopened.
        batch.checkWritable(families.ids());
        guard.enter(options, defaultFamily);
        try (Scratch s = Scratch.acquire()) {
            MemorySegment nativeBatch = batch.createNative();
            try {
                rocksdb_write(ptr, options.ptr, nativeBatch, s.errptr);
            } finally {
                WriteBatch.destroyNative(nativeBatch);
            }
            Native.check(s.errptr);
        } finally {
            guard.exit(options, defaultFamily);
        }
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * The largest value read through a scratch buffer with one downcall (rocksdb_get_into_buffer_cf);
     * larger ones take the pinned path, which copies once instead of twice.
     */
    private static final long INTO_BUFFER_MAX = 16 * 1024;
    /** The smallest scratch buffer a {@code byte[]} get reads into (it grows to the values seen). */
    private static final long INTO_BUFFER_MIN = 256;

    @Override
    public long get(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (value.isReadOnly()) {
            throw new IllegalArgumentException("value segment is read-only");
        }
        guard.enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            if (Native.GET_INTO_BUFFER && (value.isNative() || value.byteSize() <= INTO_BUFFER_MAX)) {
                // one downcall into the caller's segment, or into scratch memory for a heap one
                MemorySegment buf = value.isNative() ? value : s.buffer(Scratch.SECOND, value.byteSize());
                long length = Native.getIntoBuffer(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(), buf, s);
                if (length <= buf.byteSize()) { // absent (-1), or the whole value is in buf
                    if (buf != value && length > 0) {
                        MemorySegment.copy(buf, 0, value, 0, Math.min(length, value.byteSize()));
                    }
                    return length;
                }
                // too large for buf, which copied nothing: read it pinned to copy what fits
            }
            return PointReads.copy(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(), value, s);
        } finally {
            guard.exit(options, family);
        }
    }

    @Override
    public byte[] get(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        guard.enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            if (Native.GET_INTO_BUFFER) {
                // one downcall into a reused scratch buffer that grows to the values seen (up to
                // INTO_BUFFER_MAX); larger values are read pinned and copied once
                MemorySegment buf = s.buffer(Scratch.SECOND, INTO_BUFFER_MIN);
                long length = Native.getIntoBuffer(ptr, options.ptr, family.ptr, s.copy(Scratch.FIRST, key),
                        key.length, buf, s);
                if (length < 0) {
                    return null;
                }
                if (length <= buf.byteSize()) {
                    byte[] out = new byte[(int) length];
                    MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, 0, (int) length);
                    return out;
                }
                s.buffer(Scratch.SECOND, Math.min(length, INTO_BUFFER_MAX));
            }
            return PointReads.array(ptr, options.ptr, family.ptr, s.copy(Scratch.FIRST, key), key.length, s);
        } finally {
            guard.exit(options, family);
        }
    }

    @Override
    public PinnedValue getPinned(ColumnFamilyHandle family, ReadOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        guard.enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            MemorySegment slice = PointReads.slice(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(), s);
            return slice.address() == 0 ? null : PinnedValue.of(this, slice, s.size);
        } finally {
            guard.exit(options, family);
        }
    }

    @Override
    public int multiGet(ColumnFamilyHandle family, ReadOptions options, MemorySegment[] keys, MemorySegment[] values,
                        long[] lengths, RocksDBException[] errors, boolean sortedInput) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(options, "options");
        MultiGet.checkArguments(keys, values, lengths, errors);
        guard.enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            MultiGet.call(ptr, options.ptr, family.ptr, keys, sortedInput, s);
            return MultiGet.intoSegments(s, values, lengths, errors);
        } finally {
            guard.exit(options, family);
        }
    }

    @Override
    public List<byte[]> multiGetAsList(ColumnFamilyHandle family, ReadOptions options, List<byte[]> keys) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(keys, "keys");
        int n = keys.size();
        MemorySegment[] segments = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            segments[i] = MemorySegment.ofArray(MultiGet.element(keys.get(i), "keys", i));
        }
        guard.enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            MultiGet.call(ptr, options.ptr, family.ptr, segments, false, s);
            return MultiGet.asArrays(s, n);
        } finally {
            guard.exit(options, family);
        }
    }

    // ---- iterators and snapshots ----------------------------------------------------------------

    @Override
    public RocksIterator newIterator(ColumnFamilyHandle family, ReadOptions options, long prefetchBytes) {
        Objects.requireNonNull(options, "options");
        if (prefetchBytes < 0) {
            throw new IllegalArgumentException("prefetch size must be >= 0: " + prefetchBytes);
        }
        guard.enterRead(options, family);
        try {
            synchronized (options) { // orders against bound and snapshot changes
                return RocksIterator.create(this, family, options, prefetchBytes);
            }
        } finally {
            guard.exit(options, family);
        }
    }

    /**
     * A snapshot of the current state. This database refuses to close while it is open.
     *
     * @return the snapshot, owned by the caller (safe to share across threads)
     * @throws IllegalStateException if closed
     */
    public Snapshot getSnapshot() {
        lifecycle.enter();
        try {
            return Snapshot.take(this);
        } finally {
            lifecycle.exit();
        }
    }

    // ---- administration -------------------------------------------------------------------------

    @Override
    public void flush(ColumnFamilyHandle family, FlushOptions options) {
        Objects.requireNonNull(options, "options");
        guard.enter(options, family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_flush_cf(ptr, options.ptr, family.ptr, s.errptr);
            Native.check(s.errptr);
        } finally {
            guard.exit(options, family);
        }
    }

    @Override
    public void flushWal(boolean sync) {
        try (Scratch s = Scratch.acquire()) {
            use(db -> rocksdb_flush_wal(db, flag(sync), s.errptr));
            Native.check(s.errptr);
        }
    }

    @Override
    public void compactRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        guard.enterFamily(family);
        try (Scratch s = Scratch.acquire()) {
            MemorySegment b = begin == null ? MemorySegment.NULL : s.first(begin);
            MemorySegment e = end == null ? MemorySegment.NULL : s.second(end);
            rocksdb_compact_range_cf(ptr, family.ptr, b, begin == null ? 0 : begin.byteSize(), e,
                    end == null ? 0 : end.byteSize());
        } finally {
            guard.exitFamily(family);
        }
    }

    @Override
    public String getProperty(ColumnFamilyHandle family, String property) {
        Objects.requireNonNull(property, "property");
        guard.enterFamily(family);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = rocksdb_property_value_cf(ptr, family.ptr, arena.allocateFrom(property));
            if (v.address() == 0) {
                return null;
            }
            try {
                return v.reinterpret(Long.MAX_VALUE).getString(0);
            } finally {
                rocksdb_free(v);
            }
        } finally {
            guard.exitFamily(family);
        }
    }

    @Override
    public OptionalLong getLongProperty(ColumnFamilyHandle family, String property) {
        Objects.requireNonNull(property, "property");
        guard.enterFamily(family);
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            int rc = rocksdb_property_int_cf(ptr, family.ptr, arena.allocateFrom(property), s.size);
            return rc == 0 ? OptionalLong.of(s.size.get(JAVA_LONG, 0)) : OptionalLong.empty();
        } finally {
            guard.exitFamily(family);
        }
    }

    @Override
    public long[] approximateSizes(ColumnFamilyHandle family, MemorySegment[] starts, MemorySegment[] limits) {
        Objects.requireNonNull(starts, "starts");
        Objects.requireNonNull(limits, "limits");
        if (starts.length != limits.length) {
            throw new IllegalArgumentException("starts and limits must have the same length");
        }
        guard.enterFamily(family);
        try {
            return KeyRanges.approximateSizes(ptr, family.ptr, starts, limits);
        } finally {
            guard.exitFamily(family);
        }
    }

    @Override
    public void createCheckpoint(Path target) {
        Opening.cPath(target);
        try (Checkpoint checkpoint = Checkpoint.create(this)) {
            checkpoint.createCheckpoint(target);
        }
    }
}
