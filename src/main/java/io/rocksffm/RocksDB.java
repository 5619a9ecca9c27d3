package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.BatchFormat;
import io.rocksffm.internal.MultiGet;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.NativeLibrary;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.ConcurrentHashMap;
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
public final class RocksDB extends NativeObject implements KeyValueReads, KeyValueWrites {
    private final ColumnFamilyHandle defaultFamily;
    private final ColumnFamilies families;
    private final Path path;
    private final boolean readOnly;

    private RocksDB(MemorySegment db, Path path, boolean readOnly, List<String> names, MemorySegment handles) {
        super("RocksDB", db);
        this.path = path;
        this.readOnly = readOnly;
        this.families = new ColumnFamilies(this, names, handles);
        this.defaultFamily = families.get(ColumnFamilyHandle.DEFAULT);
    }

    /** The engine library this process's rocksffm is bound to (loading it if need be). */
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
     */
    public static RocksDB open(Path path, Options options, List<ColumnFamilyDescriptor> families) {
        return open(path, options, families, false);
    }

    /**
     * Opens an existing database read-only; writes to it fail with
     * {@link RocksDBException.Code#NOT_SUPPORTED}. Several read-only handles (and one writer) may
     * open the same path. A subset of the column families may be listed.
     */
    public static RocksDB openReadOnly(Path path, Options options, List<ColumnFamilyDescriptor> families) {
        return open(path, options, families, true);
    }

    /** {@link #openReadOnly(Path, Options, List)} with the default family only. */
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
     * @throws IllegalStateException if pinned values, iterators or snapshots from it are open
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "pinned values, iterators, snapshots or checkpoints");
    }

    /** The path this database was opened at. */
    public Path path() {
        return path;
    }

    /** Whether this handle was opened with {@link #openReadOnly}. */
    public boolean isReadOnly() {
        return readOnly;
    }

    // ---- column families ------------------------------------------------------------------------

    @Override
    public ColumnFamilyHandle defaultColumnFamily() {
        lifecycle.ensureOpen();
        return defaultFamily;
    }

    /**
     * The open handle of the family named {@code name}.
     *
     * @param name the family's name
     * @return its handle, or {@code null} if there is none open
     * @throws IllegalStateException if closed
     */
    public ColumnFamilyHandle columnFamily(String name) {
        Objects.requireNonNull(name, "name");
        lifecycle.ensureOpen();
        return families.get(name);
    }

    /**
     * The open column family handles.
     *
     * @return the handles in id order, default first (an unmodifiable snapshot)
     * @throws IllegalStateException if closed
     */
    public List<ColumnFamilyHandle> columnFamilies() {
        lifecycle.ensureOpen();
        return families.list();
    }

    void forget(ColumnFamilyHandle handle) {
        families.forget(handle);
    }

    /**
     * Creates a column family. Its handle belongs to this database.
     *
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} if it exists,
     *         {@link RocksDBException.Code#NOT_SUPPORTED} on a read-only handle
     */
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

    /**
     * Drops a column family (its data becomes unreachable) and closes its handle.
     *
     * @throws IllegalArgumentException for the default family or a handle of another database
     * @throws IllegalStateException if the handle is closed or iterators on it are open
     */
    public void dropColumnFamily(ColumnFamilyHandle family) {
        checkFamily(family);
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

    private void checkFamily(ColumnFamilyHandle family) {
        Objects.requireNonNull(family, "family");
        if (family.db != this) {
            throw new IllegalArgumentException(family + " belongs to another database");
        }
    }

    // ---- calls guarded against close ----------------------------------------------------------

    // The default family's handle is destroyed only by close(), after every call has left, and
    // the default read/write options never, so calls need not enter their lifecycles: that saves
    // two atomic operations per call on each.

    /** The shared default options, which are never closed. */
    private static boolean owned(NativeObject options) {
        return options == ReadOptions.DEFAULT || options == WriteOptions.DEFAULT;
    }

    /** Enters this database, the family and the options (in that order); pair with exit(). */
    private void enter(NativeObject options, ColumnFamilyHandle family) {
        enterFamily(family);
        if (!owned(options)) {
            try {
                options.lifecycle.enter();
            } catch (RuntimeException e) {
                exitFamily(family);
                throw e;
            }
        }
    }

    private void exit(NativeObject options, ColumnFamilyHandle family) {
        if (!owned(options)) {
            options.lifecycle.exit();
        }
        exitFamily(family);
    }

    /** Enters this database and the family; pair with exitFamily(). */
    private void enterFamily(ColumnFamilyHandle family) {
        checkFamily(family);
        lifecycle.enter();
        if (family != defaultFamily) {
            try {
                family.lifecycle.enter();
            } catch (RuntimeException e) {
                lifecycle.exit();
                throw e;
            }
        }
    }

    private void exitFamily(ColumnFamilyHandle family) {
        if (family != defaultFamily) {
            family.lifecycle.exit();
        }
        lifecycle.exit();
    }

    /** {@link #enter} for reads, refusing a snapshot of another database. */
    private void enterRead(ReadOptions options, ColumnFamilyHandle family) {
        enter(options, family);
        RocksDB owner = options.snapshotOwner();
        if (owner != null && owner != this) {
            exit(options, family);
            throw new IllegalArgumentException("the read options carry a snapshot of another database");
        }
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
        enter(options, family);
        try (Scratch s = Scratch.acquire()) {
            write.call(ptr, options.ptr, family.ptr, s.first(a), a.byteSize(), s.second(b), b.byteSize(), s.errptr);
            Native.check(s.errptr);
        } finally {
            exit(options, family);
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
        enter(WriteOptions.DEFAULT, defaultFamily);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_put_cf(ptr, WriteOptions.DEFAULT.ptr, defaultFamily.ptr, s.copy(Scratch.FIRST, key), key.length,
                    s.copy(Scratch.SECOND, value), value.length, s.errptr);
            Native.check(s.errptr);
        } finally {
            exit(WriteOptions.DEFAULT, defaultFamily);
        }
    }

    @Override
    public void delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        enter(options, family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_delete_cf(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(), s.errptr);
            Native.check(s.errptr);
        } finally {
            exit(options, family);
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
        enter(options, defaultFamily);
        try (Scratch s = Scratch.acquire()) {
            MemorySegment nativeBatch = batch.newNative();
            try {
                rocksdb_write(ptr, options.ptr, nativeBatch, s.errptr);
            } finally {
                WriteBatch.destroyNative(nativeBatch);
            }
            Native.check(s.errptr);
        } finally {
            exit(options, defaultFamily);
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

    /** rocksdb_get_pinned_cf; the slice (or NULL when absent) must be destroyed before exit(). */
    private MemorySegment pinnedSlice(ColumnFamilyHandle family, ReadOptions options, MemorySegment nativeKey,
                                      long keyLength, Scratch s) {
        MemorySegment slice = rocksdb_get_pinned_cf(ptr, options.ptr, family.ptr, nativeKey, keyLength, s.errptr);
        if (slice.address() == 0) {
            Native.check(s.errptr);
        }
        return slice;
    }

    @Override
    public long get(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (value.isReadOnly()) {
            throw new IllegalArgumentException("value segment is read-only");
        }
        enterRead(options, family);
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
            return getPinnedCopy(family, options, key, value, s);
        } finally {
            exit(options, family);
        }
    }

    /** The pinned read of {@link #get(ColumnFamilyHandle, ReadOptions, MemorySegment, MemorySegment)} (kept apart so the one-call path stays small enough to inline). */
    private long getPinnedCopy(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value,
                               Scratch s) {
        MemorySegment slice = pinnedSlice(family, options, s.first(key), key.byteSize(), s);
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
    }

    @Override
    public byte[] get(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        enterRead(options, family);
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
            MemorySegment slice = pinnedSlice(family, options, s.copy(Scratch.FIRST, key), key.length, s);
            if (slice.address() == 0) {
                return null;
            }
            try {
                return Native.pinnableValue(slice, s.size).toArray(ValueLayout.JAVA_BYTE);
            } finally {
                Native.pinnableDestroy(slice);
            }
        } finally {
            exit(options, family);
        }
    }

    @Override
    public PinnedValue getPinned(ColumnFamilyHandle family, ReadOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            MemorySegment slice = pinnedSlice(family, options, s.first(key), key.byteSize(), s);
            if (slice.address() == 0) {
                return null;
            }
            return PinnedValue.of(this, slice, s.size);
        } finally {
            exit(options, family);
        }
    }

    @Override
    public int multiGet(ColumnFamilyHandle family, ReadOptions options, MemorySegment[] keys, MemorySegment[] values,
                        long[] lengths, RocksDBException[] errors, boolean sortedInput) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(options, "options");
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
        enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            MultiGet.call(ptr, options.ptr, family.ptr, keys, sortedInput, s);
            return MultiGet.intoSegments(s, values, lengths, errors);
        } finally {
            exit(options, family);
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
        enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            MultiGet.call(ptr, options.ptr, family.ptr, segments, false, s);
            return MultiGet.asArrays(s, n);
        } finally {
            exit(options, family);
        }
    }

    // ---- iterators and snapshots ----------------------------------------------------------------

    @Override
    public RocksIterator newIterator(ColumnFamilyHandle family, ReadOptions options, long prefetchBytes) {
        Objects.requireNonNull(options, "options");
        if (prefetchBytes < 0) {
            throw new IllegalArgumentException("prefetch size must be >= 0: " + prefetchBytes);
        }
        enterRead(options, family);
        try {
            synchronized (options) { // orders against bound and snapshot changes
                return RocksIterator.create(this, family, options, prefetchBytes);
            }
        } finally {
            exit(options, family);
        }
    }

    /**
     * A snapshot of the current state, owned by the caller. This database refuses to close while
     * it is open.
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

    /**
     * Flushes {@code family}'s memtable to a table file.
     *
     * @param family  the column family
     * @param options the flush options (whether to wait)
     * @throws RocksDBException if the flush fails
     * @throws IllegalStateException if this database, the family or the options are closed
     */
    public void flush(ColumnFamilyHandle family, FlushOptions options) {
        Objects.requireNonNull(options, "options");
        enter(options, family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_flush_cf(ptr, options.ptr, family.ptr, s.errptr);
            Native.check(s.errptr);
        } finally {
            exit(options, family);
        }
    }

    /**
     * Flushes {@code family}'s memtable to a table file.
     *
     * @param family the column family
     * @param wait   whether to wait until the flush is done
     * @throws RocksDBException if the flush fails
     */
    public void flush(ColumnFamilyHandle family, boolean wait) {
        checkFamily(family);
        try (FlushOptions options = new FlushOptions().setWait(wait)) {
            flush(family, options);
        }
    }

    /** {@link #flush(ColumnFamilyHandle, boolean)} for the default family. */
    public void flush(boolean wait) {
        flush(defaultFamily, wait);
    }

    /**
     * Writes the WAL's buffered data to its file ({@code FlushWAL}), and with {@code sync} also
     * fsyncs it: useful with unsynced writes to make a group of them durable at once.
     */
    public void flushWal(boolean sync) {
        try (Scratch s = Scratch.acquire()) {
            use(db -> rocksdb_flush_wal(db, flag(sync), s.errptr));
            Native.check(s.errptr);
        }
    }

    /**
     * Compacts the keys of {@code family} in {@code [begin, end]}; a {@code null} bound is
     * open-ended. Waits until the compaction is done.
     */
    public void compactRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        enterFamily(family);
        try (Scratch s = Scratch.acquire()) {
            MemorySegment b = begin == null ? MemorySegment.NULL : s.first(begin);
            MemorySegment e = end == null ? MemorySegment.NULL : s.second(end);
            rocksdb_compact_range_cf(ptr, family.ptr, b, begin == null ? 0 : begin.byteSize(), e,
                    end == null ? 0 : end.byteSize());
        } finally {
            exitFamily(family);
        }
    }

    /** Compacts the whole default family. */
    public void compactRange() {
        compactRange(defaultFamily, null, null);
    }

    /**
     * A database property of {@code family} as text (e.g. {@code "rocksdb.stats"},
     * {@code "rocksdb.estimate-num-keys"}), or {@code null} if RocksDB does not know it.
     */
    public String getProperty(ColumnFamilyHandle family, String property) {
        Objects.requireNonNull(property, "property");
        enterFamily(family);
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
            exitFamily(family);
        }
    }

    /** {@link #getProperty(ColumnFamilyHandle, String)} for the default family. */
    public String getProperty(String property) {
        return getProperty(defaultFamily, property);
    }

    /**
     * A numeric database property of {@code family} (e.g. {@code "rocksdb.estimate-num-keys"}),
     * or empty if RocksDB does not know it or it is not numeric.
     */
    public OptionalLong getLongProperty(ColumnFamilyHandle family, String property) {
        Objects.requireNonNull(property, "property");
        enterFamily(family);
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            int rc = rocksdb_property_int_cf(ptr, family.ptr, arena.allocateFrom(property), s.size);
            return rc == 0 ? OptionalLong.of(s.size.get(JAVA_LONG, 0)) : OptionalLong.empty();
        } finally {
            exitFamily(family);
        }
    }

    /** {@link #getLongProperty(ColumnFamilyHandle, String)} for the default family. */
    public OptionalLong getLongProperty(String property) {
        return getLongProperty(defaultFamily, property);
    }

    /**
     * Approximate on-disk sizes, in bytes, of the key ranges {@code [starts[i], limits[i])} of
     * {@code family} (table files only: flush first to count recent writes).
     */
    public long[] approximateSizes(ColumnFamilyHandle family, MemorySegment[] starts, MemorySegment[] limits) {
        Objects.requireNonNull(starts, "starts");
        Objects.requireNonNull(limits, "limits");
        if (starts.length != limits.length) {
            throw new IllegalArgumentException("starts and limits must have the same length");
        }
        int n = starts.length;
        enterFamily(family);
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment sp = arena.allocate(ADDRESS, Math.max(1, n));
            MemorySegment sl = arena.allocate(JAVA_LONG, Math.max(1, n));
            MemorySegment lp = arena.allocate(ADDRESS, Math.max(1, n));
            MemorySegment ll = arena.allocate(JAVA_LONG, Math.max(1, n));
            MemorySegment sizes = arena.allocate(JAVA_LONG, Math.max(1, n));
            for (int i = 0; i < n; i++) {
                MemorySegment start = MultiGet.element(starts[i], "starts", i);
                MemorySegment limit = MultiGet.element(limits[i], "limits", i);
                sp.setAtIndex(ADDRESS, i, arena.allocate(start.byteSize() + 1).copyFrom(start));
                sl.setAtIndex(JAVA_LONG, i, start.byteSize());
                lp.setAtIndex(ADDRESS, i, arena.allocate(limit.byteSize() + 1).copyFrom(limit));
                ll.setAtIndex(JAVA_LONG, i, limit.byteSize());
            }
            rocksdb_approximate_sizes_cf(ptr, family.ptr, n, sp, sl, lp, ll, sizes, s.errptr);
            Native.check(s.errptr);
            return n == 0 ? new long[0] : sizes.toArray(JAVA_LONG);
        } finally {
            exitFamily(family);
        }
    }

    /**
     * Creates a checkpoint: a consistent copy of the database (hard links where possible) in
     * the new directory {@code target}, which can be opened as a database of its own. To make
     * many, keep a {@link Checkpoint}.
     *
     * @param target a directory that does not exist yet
     * @throws RocksDBException e.g. if {@code target} exists
     */
    public void createCheckpoint(Path target) {
        Opening.cPath(target);
        try (Checkpoint checkpoint = Checkpoint.create(this)) {
            checkpoint.createCheckpoint(target);
        }
    }
}
