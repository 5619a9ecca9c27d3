package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Claim;
import io.rocksffm.internal.KeyRanges;
import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.MultiGet;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.PointReads;
import io.rocksffm.internal.OlderShapes;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.OptionalLong;
import java.util.Map;

/**
 * An open database, whatever its kind: {@link RocksDB}, {@link TransactionDB} or
 * {@link OptimisticTransactionDB}. This is the type the API takes and returns wherever "a database"
 * is meant ({@link Transaction#database()}, {@link BackupEngine#createBackup(Database)},
 * {@link Checkpoint#create(Database)}, {@link WriteBatchWithIndex#getFromBatchAndDB}, ...). It offers
 * the reads of {@link KeyValueReads}, the writes of {@link KeyValueWrites}, iterators, snapshots and
 * the administration of {@link DatabaseAdmin}. Only the kinds above extend it (no public
 * constructor); each opens with its own static methods. Thread-safe; closing waits for the calls
 * in flight, and a closed database throws {@link IllegalStateException}.
 */
// How: everything goes through the engine's rocksdb_t (db). Kinds that wrap a rocksdb_t (a
// transaction database) pass their own handle as ptr and the wrapped one as db; writes, whose C
// functions differ by kind, stay with each kind.
public abstract sealed class Database extends NativeObject implements KeyValueReads, KeyValueWrites, DatabaseAdmin
        permits RocksDB, TransactionDB, OptimisticTransactionDB {
    /** The engine's {@code rocksdb_t} that reads, iterators, snapshots and administration go to. */
    final MemorySegment db;
    final ColumnFamilyHandle defaultFamily;
    final ColumnFamilies families;
    private final Path path;
    /** The directory's real path ({@link OpenDatabases#key}), which the engine was given. */
    final Path realPath;
    private final boolean readOnly;
    final CallGuard guard;
    /** Pauses of the background work made through this handle and not yet continued ({@link #pauseBackgroundWork()}). */
    final AtomicInteger backgroundPauses = new AtomicInteger();
    /**
     * Bytes at the end of every stored value that are not the caller's (the timestamp of a TTL
     * database), which the engine's batched multi-get leaves in.
     */
    private final int valueSuffix;

    Database(String kind, MemorySegment handle, MemorySegment db, Path path, boolean readOnly, List<String> names,
             MemorySegment handles) {
        this(kind, handle, db, path, readOnly, names, handles, 0);
    }

    Database(String kind, MemorySegment handle, MemorySegment db, Path path, boolean readOnly, List<String> names,
             MemorySegment handles, int valueSuffix) {
        super(Lifecycle.striped(kind), kind, handle); // every call of every thread enters it
        this.valueSuffix = valueSuffix;
        this.db = db;
        this.path = path;
        this.realPath = OpenDatabases.key(path);
        this.readOnly = readOnly;
        this.families = new ColumnFamilies(this, names, handles);
        this.defaultFamily = families.get(ColumnFamilyHandle.DEFAULT);
        this.guard = new CallGuard(this, defaultFamily);
        OpenDatabases.add(realPath, this); // a kind removes it in its destroy (RocksDB does)
    }

    /**
     * The path this database was opened at, as the caller spelled it. (The engine is given its
     * real path: one directory is one database per process, however its path is spelled.)
     *
     * @return the path (also after close)
     */
    public Path path() {
        return path;
    }

    /**
     * Whether this handle was opened read-only ({@link RocksDB#openReadOnly}, or a read-only kind).
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
        try (Scratch s = guard.begin()) {
            return families.create(name, options);
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
     * {@inheritDoc}
     *
     * <p>The handle is closed first, which waits for the calls using it in flight and refuses new
     * ones ({@link IllegalStateException}); batches naming the family are written wholly before the
     * drop or checked after it. (A write RocksDB applied to a family dropped under it would leave
     * the database refusing every write until reopened.)
     */
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
        adminDb(); // a kind without the base database refuses before the handle closes
        family.lifecycle.ensureOpen();
        boolean[] dropped = {false};
        try (Scratch s = guard.begin()) {
            family.closeHandle(() -> {
                families.drop(family);
                dropped[0] = true;
            });
        }
        if (!dropped[0]) { // closed by another thread meanwhile
            throw new IllegalStateException(family + " is closed");
        }
    }

    // ---- the downcalls that differ by kind -------------------------------------------------------
    // A kind whose engine gives it no rocksdb_t (a pessimistic transaction database on RocksDB
    // before 10.x, which lacks rocksdb_transactiondb_get_base_db) passes NULL as db and overrides
    // these: the point reads' two downcalls here, multi-gets, iterators and snapshots by overriding
    // their public methods, and administration by refusing in adminDb().

    /** Whether gets may use rocksdb_get_into_buffer_cf on {@link #db}. */
    boolean oneCallGets() {
        return Native.GET_INTO_BUFFER;
    }

    /** The pinned get of {@code key} (native): the slice, NULL when absent; the caller destroys it. */
    MemorySegment pinnedSlice(MemorySegment options, MemorySegment family, MemorySegment key, long keyLength,
                              Scratch s) {
        return PointReads.slice(db, options, family, key, keyLength, s);
    }

    /**
     * Creates a column family natively ({@code rocksdb_create_column_family} on {@link #adminDb()});
     * a kind whose engine must know of the family itself (a transaction database's lock manager)
     * overrides it.
     */
    MemorySegment createFamily(MemorySegment options, MemorySegment name, MemorySegment errptr) {
        return rocksdb_create_column_family(adminDb(), options, name, errptr);
    }

    /**
     * The {@code rocksdb_t} administration goes through (flush, compaction, properties, sizes,
     * checkpoints, creating and dropping families).
     *
     * @throws UnsupportedOperationException if this kind has no {@code rocksdb_t} on this engine
     */
    MemorySegment adminDb() {
        return db;
    }

    // ---- reads ----------------------------------------------------------------------------------

    /**
     * The largest value read through a scratch buffer with one downcall (rocksdb_get_into_buffer_cf);
     * larger ones take the pinned path, which copies once instead of twice. A {@code byte[]} get
     * that finds one (its one-call read was wasted) marks its scratch ({@link Scratch#largeValues}),
     * and the next {@code byte[]} gets through that scratch go straight to the pinned path until
     * one of them reads a value no larger than this.
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
        try (Scratch s = guard.begin(options, family)) {
            if (oneCallGets() && (value.isNative() || value.byteSize() <= INTO_BUFFER_MAX)) {
                // one downcall into the caller's segment, or into scratch memory for a heap one
                MemorySegment buf = value.isNative() ? value : s.buffer(Scratch.SECOND, value.byteSize());
                long length = Native.getIntoBuffer(db, options.ptr, family.ptr, s.first(key), key.byteSize(), buf, s);
                if (length <= buf.byteSize()) { // absent (-1), or the whole value is in buf
                    if (buf != value && length > 0) {
                        MemorySegment.copy(buf, 0, value, 0, Math.min(length, value.byteSize()));
                    }
                    return length;
                }
                // too large for buf, which copied nothing: read it pinned to copy what fits
            }
            return PointReads.copy(pinnedSlice(options.ptr, family.ptr, s.first(key), key.byteSize(), s), value, s);
        }
    }

    @Override
    public byte[] get(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        try (Scratch s = guard.begin(options, family)) {
            if (oneCallGets() && !s.largeValues) {
                // one downcall into a reused scratch buffer that grows to the values seen (up to
                // INTO_BUFFER_MAX); larger values are read pinned and copied once
                MemorySegment buf = s.buffer(Scratch.SECOND, INTO_BUFFER_MIN);
                long length = Native.getIntoBuffer(db, options.ptr, family.ptr, s.copy(Scratch.FIRST, key),
                        key.length, buf, s);
                if (length < 0) {
                    return null;
                }
                if (length <= buf.byteSize()) {
                    byte[] out = new byte[(int) length];
                    MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, out, 0, (int) length);
                    return out;
                }
                // the read was wasted: the engine copies nothing into a buffer too small
                s.buffer(Scratch.SECOND, Math.min(length, INTO_BUFFER_MAX));
                s.largeValues = length > INTO_BUFFER_MAX;
            }
            byte[] value = PointReads.array(pinnedSlice(options.ptr, family.ptr, s.copy(Scratch.FIRST, key),
                    key.length, s), s);
            if (value != null && value.length <= INTO_BUFFER_MAX) {
                s.largeValues = false;
            }
            return value;
        }
    }

    @Override
    public PinnedValue getPinned(ColumnFamilyHandle family, ReadOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        try (Scratch s = guard.begin(options, family)) {
            MemorySegment slice = pinnedSlice(options.ptr, family.ptr, s.first(key), key.byteSize(), s);
            return slice.address() == 0 ? null : PinnedValue.of(lifecycle, slice, s.size);
        }
    }

    @Override
    public int multiGet(ColumnFamilyHandle family, ReadOptions options, MemorySegment[] keys, MemorySegment[] values,
                        long[] lengths, RocksDBException[] errors, boolean sortedInput) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(options, "options");
        MultiGet.checkArguments(keys, values, lengths, errors);
        try (Scratch s = guard.begin(options, family)) {
            MultiGet.call(db, options.ptr, family.ptr, keys, sortedInput, s);
            return MultiGet.intoSegments(s, values, lengths, errors, valueSuffix);
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
        try (Scratch s = guard.begin(options, family)) {
            MultiGet.call(db, options.ptr, family.ptr, segments, false, s);
            return MultiGet.asArrays(s, n, valueSuffix);
        }
    }

    // ---- iterators and snapshots ----------------------------------------------------------------

    @Override
    public RocksIterator newIterator(ColumnFamilyHandle family, ReadOptions options) {
        Objects.requireNonNull(options, "options");
        try (Scratch s = guard.begin(options, family)) {
            synchronized (options.lock) { // orders against bound, snapshot and prefetch changes
                return RocksIterator.create(lifecycle, family, options, options.prefetchBytes,
                        (o, f) -> RocksIterator.nativeIterator(db, o, f));
            }
        }
    }

    /**
     * Iterators over several column families that all see the same state of the database (one
     * {@code rocksdb_create_iterators}: RocksDB takes their views together, as if under one
     * snapshot). Each is an ordinary iterator, as {@link #newIterator(ColumnFamilyHandle,
     * ReadOptions)} gives, keeping this database, its family, {@code options} and the options'
     * snapshot open until it is closed.
     *
     * @param families the families, in the order of the iterators returned (a family may appear
     *        more than once)
     * @param options the read options of every iterator
     * @return one new iterator per family, in order; the caller closes each (an empty list for no
     *         families)
     * @throws NullPointerException if {@code families}, a family or {@code options} is null
     * @throws IllegalArgumentException if a family or the options' snapshot is another database's
     * @throws IllegalStateException if this database, a family, the options or their snapshot is closed
     * @throws RocksDBException if RocksDB refuses (nothing is left open then)
     */
    public List<RocksIterator> newIterators(List<ColumnFamilyHandle> families, ReadOptions options) {
        Objects.requireNonNull(options, "options");
        List<ColumnFamilyHandle> all = List.copyOf(Objects.requireNonNull(families, "families"));
        if (all.isEmpty()) {
            try (Scratch s = guard.begin(options, defaultColumnFamily())) {
                return List.of();
            }
        }
        try (Scratch s = guard.begin(options, all.get(0))) {
            for (int i = 1; i < all.size(); i++) {
                guard.enterOtherFamily(s, all.get(i));
            }
            int n = all.size();
            synchronized (options.lock) { // as newIterator
                MemorySegment[] made = new MemorySegment[n];
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment handles = arena.allocate(ValueLayout.ADDRESS, n);
                    MemorySegment iterators = arena.allocate(ValueLayout.ADDRESS, n);
                    for (int i = 0; i < n; i++) {
                        handles.setAtIndex(ValueLayout.ADDRESS, i, all.get(i).ptr);
                    }
                    rocksdb_create_iterators(db, options.ptr, handles, iterators, n, s.errptr);
                    Native.check(s.errptr); // on an error RocksDB made none
                    for (int i = 0; i < n; i++) {
                        made[i] = iterators.getAtIndex(ValueLayout.ADDRESS, i);
                    }
                }
                return RocksIterator.createAll(lifecycle, all, options, options.prefetchBytes, made);
            }
        }
    }

    /**
     * A snapshot of the current state. This database refuses to close while it is open.
     *
     * @return the snapshot, owned by the caller (safe to share across threads)
     * @throws IllegalStateException if closed
     */
    public Snapshot getSnapshot() {
        try (Scratch s = guard.begin()) {
            return Snapshot.take(this);
        }
    }

    // ---- administration -------------------------------------------------------------------------

    @Override
    public void flush(ColumnFamilyHandle family, FlushOptions options) {
        Objects.requireNonNull(options, "options");
        Callbacks.refuseWaiting("flush");
        refuseWhilePaused("flush", "continue it first");
        try (Scratch s = guard.begin(options, family)) {
            rocksdb_flush_cf(adminDb(), options.ptr, family.ptr, s.errptr);
            checkWrite(s.errptr);
        }
    }

    @Override
    public void flushWal(boolean sync) {
        try (Scratch s = guard.begin()) {
            rocksdb_flush_wal(adminDb(), flag(sync), s.errptr);
            Native.check(s.errptr);
        }
    }

    @Override
    public void startTrace(TraceOptions options, Path path) {
        Objects.requireNonNull(options, "options");
        String file = CStrings.path(path);
        try (Scratch s = guard.begin(); Arena arena = Arena.ofConfined()) {
            Capabilities.require("rocksdb_start_trace");
            MemorySegment traceOptions = options.toNative();
            try {
                // the database's Env and default EnvOptions write the file
                rocksdb_start_trace(adminDb(), MemorySegment.NULL, MemorySegment.NULL, traceOptions, arena.allocateFrom(file),
                        s.errptr);
            } finally {
                TraceOptions.destroy(traceOptions);
            }
            Native.check(s.errptr);
        }
    }

    @Override
    public void endTrace() {
        try (Scratch s = guard.begin()) {
            Capabilities.require("rocksdb_end_trace");
            rocksdb_end_trace(adminDb(), s.errptr);
            Native.check(s.errptr);
        }
    }

    @Override
    public void compactRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        Callbacks.refuseWaiting("compactRange");
        refuseWhilePaused("compactRange", "continue it first");
        try (Scratch s = guard.begin(family)) {
            withRange(s, begin, end, (b, bn, e, en) -> rocksdb_compact_range_cf(adminDb(), family.ptr, b, bn, e, en));
        }
    }

    /** A call on an optional key range: the bounds (NULL for none) and their lengths. */
    @FunctionalInterface
    private interface RangeCall {
        void call(MemorySegment begin, long beginLength, MemorySegment end, long endLength);
    }

    /** Runs {@code call} with {@code begin} and {@code end} copied into {@code s} (NULL and 0 for a missing bound). */
    private static void withRange(Scratch s, MemorySegment begin, MemorySegment end, RangeCall call) {
        call.call(begin == null ? MemorySegment.NULL : s.first(begin), begin == null ? 0 : begin.byteSize(),
                end == null ? MemorySegment.NULL : s.second(end), end == null ? 0 : end.byteSize());
    }

    @Override
    public String getProperty(ColumnFamilyHandle family, String property) {
        Objects.requireNonNull(property, "property");
        try (Scratch s = guard.begin(family); Arena arena = Arena.ofConfined()) {
            MemorySegment v = rocksdb_property_value_cf(adminDb(), family.ptr, arena.allocateFrom(property));
            if (v.address() == 0) {
                return null;
            }
            try {
                return v.reinterpret(Long.MAX_VALUE).getString(0);
            } finally {
                rocksdb_free(v);
            }
        }
    }

    @Override
    public OptionalLong getLongProperty(ColumnFamilyHandle family, String property) {
        Objects.requireNonNull(property, "property");
        try (Scratch s = guard.begin(family); Arena arena = Arena.ofConfined()) {
            int rc = rocksdb_property_int_cf(adminDb(), family.ptr, arena.allocateFrom(property), s.size);
            return rc == 0 ? OptionalLong.of(s.size.get(JAVA_LONG, 0)) : OptionalLong.empty();
        }
    }

    @Override
    public long[] approximateSizes(ColumnFamilyHandle family, MemorySegment[] starts, MemorySegment[] limits) {
        Objects.requireNonNull(starts, "starts");
        Objects.requireNonNull(limits, "limits");
        if (starts.length != limits.length) {
            throw new IllegalArgumentException("starts and limits must have the same length");
        }
        try (Scratch s = guard.begin(family)) {
            return KeyRanges.approximateSizes(adminDb(), family.ptr, starts, limits);
        }
    }

    @Override
    public void createCheckpoint(Path target) {
        CStrings.path(target);
        try (Checkpoint checkpoint = Checkpoint.of(this)) {
            checkpoint.createCheckpoint(target);
        }
    }
    // ---- table files, compaction control and column families from files -----------------------------

    @Override
    public void compactRange(ColumnFamilyHandle family, CompactRangeOptions options, MemorySegment begin,
                              MemorySegment end) {
        Objects.requireNonNull(options, "options");
        Callbacks.refuseWaiting("compactRange");
        refuseWhilePaused("compactRange", "continue it first");
        try (Scratch s = guard.begin(options, family)) {
            withRange(s, begin, end, (b, bn, e, en) -> rocksdb_compact_range_cf_opt(adminDb(), family.ptr, options.ptr,
                    b, bn, e, en));
        }
    }

    @Override
    public void dropColumnFamilies(List<ColumnFamilyHandle> families) {
        List<ColumnFamilyHandle> all = List.copyOf(Objects.requireNonNull(families, "families"));
        lifecycle.ensureOpen();
        for (ColumnFamilyHandle f : all) {
            guard.checkFamily(f);
            if (f.isDefault()) {
                throw new IllegalArgumentException("the default column family cannot be dropped");
            }
        }
        if (new HashSet<>(all).size() != all.size()) {
            throw new IllegalArgumentException("a family is listed twice: " + all);
        }
        for (ColumnFamilyHandle f : all) {
            dropColumnFamily(f);
        }
    }

    @Override
    public void flush(List<ColumnFamilyHandle> families, FlushOptions options) {
        Objects.requireNonNull(options, "options");
        List<ColumnFamilyHandle> all = List.copyOf(Objects.requireNonNull(families, "families"));
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no families to flush");
        }
        Callbacks.refuseWaiting("flush");
        refuseWhilePaused("flush", "continue it first");
        try (Scratch s = guard.begin(options, all.get(0)); Arena arena = Arena.ofConfined()) {
            MemorySegment handles = arena.allocate(ValueLayout.ADDRESS, all.size());
            for (int i = 0; i < all.size(); i++) {
                if (i > 0) {
                    guard.enterOtherFamily(s, all.get(i));
                }
                handles.setAtIndex(ValueLayout.ADDRESS, i, all.get(i).ptr);
            }
            Capabilities.require("DatabaseAdmin.flush(List, FlushOptions)", "rocksdb_flush_cfs");
            rocksdb_flush_cfs(adminDb(), options.ptr, handles, all.size(), s.errptr);
            checkWrite(s.errptr);
        }
    }

    @Override
    public List<LiveFile> liveFiles() {
        try (Scratch s = guard.begin()) {
            return LiveFile.copyAll(rocksdb_livefiles(adminDb()));
        }
    }

    @Override
    public void deleteFilesInRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        try (Scratch s = guard.begin(family)) {
            withRange(s, begin, end, (b, bn, e, en) -> rocksdb_delete_file_in_range_cf(adminDb(), family.ptr, b, bn, e,
                    en, s.errptr));
            Native.check(s.errptr);
        }
    }

    @Override
    public long[] approximateSizes(ColumnFamilyHandle family, MemorySegment[] starts, MemorySegment[] limits,
                                    boolean includeMemtables, boolean includeFiles) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(starts, "starts");
        Objects.requireNonNull(limits, "limits");
        if (starts.length != limits.length) {
            throw new IllegalArgumentException("starts and limits must have the same length");
        }
        if (!includeMemtables && !includeFiles) {
            throw new IllegalArgumentException("count the memtables, the table files, or both");
        }
        try (Scratch s = guard.begin(family)) {
            Capabilities.require("rocksdb_approximate_sizes_cf_with_flags");
            return KeyRanges.approximateSizes(adminDb(), family.ptr, starts, limits,
                    (includeMemtables ? KeyRanges.INCLUDE_MEMTABLES : 0) | (includeFiles ? KeyRanges.INCLUDE_FILES : 0));
        }
    }

    @Override
    public void disableFileDeletions() {
        try (Scratch s = guard.begin()) {
            rocksdb_disable_file_deletions(adminDb(), s.errptr);
            Native.check(s.errptr);
        }
    }

    @Override
    public void enableFileDeletions() {
        try (Scratch s = guard.begin()) {
            if (Capabilities.callable("rocksdb_enable_file_deletions")) { // else its older shape (OlderShapes)
                rocksdb_enable_file_deletions(adminDb(), s.errptr);
            } else {
                OlderShapes.enableFileDeletions(adminDb(), s.errptr);
            }
            Native.check(s.errptr);
        }
    }

    @Override
    public void waitForCompact(WaitForCompactOptions options) {
        Objects.requireNonNull(options, "options");
        Callbacks.refuseWaiting("waitForCompact");
        if (options.flush()) {
            refuseWhilePaused("waitForCompact with a flush first",
                    "its flush waits without the timeout; wait without the flush, or continue the work first");
        } else if (!options.abortOnPause() && options.timeout().isZero()) {
            refuseWhilePaused("waitForCompact without a timeout",
                    "set a timeout or abortOnPause, or continue the work first");
        }
        try (Scratch s = guard.begin()) {
            Capabilities.require("rocksdb_wait_for_compact");
            options.use(o -> rocksdb_wait_for_compact(adminDb(), o, s.errptr));
            Native.check(s.errptr);
        }
    }

    @Override
    public void cancelAllBackgroundWork(boolean wait) {
        if (wait) {
            Callbacks.refuseWaiting("cancelAllBackgroundWork");
        }
        try (Scratch s = guard.begin()) {
            rocksdb_cancel_all_background_work(adminDb(), (byte) (wait ? 1 : 0));
        }
    }

    @Override
    public void suggestCompactRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        guard.checkFamily(family);
        if (begin != null && end != null) {
            Limits.checkRange(begin, end);
            families.checkRangeOrder(family.id(), begin, end, "suggestCompactRange");
        }
        try (Scratch s = guard.begin(family)) {
            withRange(s, begin, end, (b, bn, e, en) -> rocksdb_suggest_compact_range_cf(adminDb(), family.ptr, b, bn, e,
                    en, s.errptr));
            Native.check(s.errptr);
        }
    }

    @Override
    public List<ColumnFamilyHandle> createColumnFamilies(Options options, List<String> names) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(names, "names");
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no column family names");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = Objects.requireNonNull(names.get(i), "names[" + i + "]");
            new ColumnFamilyDescriptor(name, options); // the checks of one family's creation
            if (!seen.add(name)) {
                throw new IllegalArgumentException("column family name given twice: " + name);
            }
        }
        if (this instanceof TransactionDB) { // its lock manager must learn of each family: one by one
            List<ColumnFamilyHandle> out = new ArrayList<>(names.size());
            for (String name : names) {
                out.add(createColumnFamily(name, options));
            }
            return List.copyOf(out);
        }
        lifecycle.ensureOpen();
        if (isReadOnly()) { // RocksDB 7.x lets a read-only handle change the families on disk
            throw new RocksDBException("Not implemented: Not supported operation in read only mode.");
        }
        try (Scratch s = guard.begin()) {
            return families.createAll(List.copyOf(names), options);
        }
    }

    @Override
    public ColumnFamilyMetaData getColumnFamilyMetaData(ColumnFamilyHandle family) {
        try (Scratch s = guard.begin(family)) {
            return ColumnFamilyMetaData.copy(rocksdb_get_column_family_metadata_cf(adminDb(), family.ptr));
        }
    }

    @Override
    public ColumnFamilyMetaData getColumnFamilyMetaData() {
        return getColumnFamilyMetaData(defaultFamily);
    }

    @Override
    public ColumnFamilyHandle createColumnFamilyWithImport(String name, Options options,
                                                            ImportColumnFamilyOptions importOptions,
                                                            ExportImportFilesMetaData metadata) {
        lifecycle.ensureOpen();
        new ColumnFamilyDescriptor(name, options); // the checks of one family's creation
        Objects.requireNonNull(importOptions, "importOptions");
        Objects.requireNonNull(metadata, "metadata");
        if (this instanceof TransactionDB) {
            throw new UnsupportedOperationException("createColumnFamilyWithImport on a TransactionDB: its lock manager "
                    + "must know each family, and the C API has no import through a transaction database");
        }
        if (isReadOnly()) {
            throw new RocksDBException("Not implemented: Not supported operation in read only mode.");
        }
        try (Scratch s = guard.begin()) {
            return families.createWithImport(name, options, importOptions, metadata);
        }
    }

    @Override
    public boolean keyMayExist(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        try (Scratch s = guard.begin(options, family); Arena arena = Arena.ofConfined()) {
            MemorySegment k = arena.allocateFrom(ValueLayout.JAVA_BYTE, key);
            // no value wanted: RocksDB allocates nothing (value_found NULL)
            return rocksdb_key_may_exist_cf(adminDb(), options.ptr, family.ptr, k, key.length, MemorySegment.NULL,
                    MemorySegment.NULL, MemorySegment.NULL, 0, MemorySegment.NULL) != 0;
        }
    }

    // ---- bulk loading and mutable options ----------------------------------------------------------

    @Override
    public void ingestExternalFile(ColumnFamilyHandle family, List<Path> files, IngestExternalFileOptions options) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(files, "files");
        Objects.requireNonNull(options, "options");
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no files to ingest");
        }
        String[] names = new String[files.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = CStrings.path(Objects.requireNonNull(files.get(i), "files[" + i + "]"));
        }
        if (options.allowBlockingFlush()) {
            refuseWhilePaused("ingestExternalFile allowing a blocking flush",
                    "ingest with setAllowBlockingFlush(false) (files that overlap the memtable then fail at once), "
                            + "or continue the work first");
        }
        try (Scratch s = guard.begin(options, family)) {
            if (families.timestampSize(family) != 0) {
                Capabilities.requireSince("rocksdb_ingest_external_file_cf", "10.0", "ingestion into a family with"
                        + " user-defined timestamps reads a file's keys unchecked (an engine built with assertions aborts"
                        + " on a key shorter than the timestamp; 10.0 is the oldest engine tested to refuse such a file)");
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment list = arena.allocate(ADDRESS, names.length);
                for (int i = 0; i < names.length; i++) {
                    list.setAtIndex(ADDRESS, i, arena.allocateFrom(names[i]));
                }
                rocksdb_ingest_external_file_cf(adminDb(), family.ptr, list, names.length, options.ptr, s.errptr);
                Native.check(s.errptr);
            }
        }
    }

    @Override
    public void setOptions(ColumnFamilyHandle family, Map<String, String> options) {
        setOptions(Objects.requireNonNull(family, "family"), options, false);
    }

    @Override
    public void setOptions(Map<String, String> options) {
        setOptions(null, options, false);
    }

    @Override
    public void setDBOptions(Map<String, String> options) {
        setOptions(null, options, true);
    }

    /**
     * Sets {@code options}: database-wide ones ({@code SetDBOptions}) if {@code dbWide}, else those
     * of {@code family}, or of the default family when it is null ({@code SetOptions}).
     */
    private void setOptions(ColumnFamilyHandle family, Map<String, String> options, boolean dbWide) {
        String[][] pairs = MutableOptions.pairs(options, dbWide);
        ColumnFamilyHandle target = family == null ? defaultFamily : family;
        try (Scratch s = guard.begin(target)) {
            if (dbWide) {
                Capabilities.require("rocksdb_set_db_options");
                MutableOptions.call(pairs, (n, keys, values, errptr) -> rocksdb_set_db_options(adminDb(), n, keys,
                        values, errptr));
                return;
            }
            MutableOptions.refuseWedging(realPath, target.name(), options);
            MutableOptions.call(pairs, (n, keys, values, errptr) -> {
                if (family == null) {
                    rocksdb_set_options(adminDb(), n, keys, values, errptr);
                } else {
                    rocksdb_set_options_cf(adminDb(), family.ptr, n, keys, values, errptr);
                }
            });
        }
    }

    /** The text of RocksDB's error once an {@link SstFileManager}'s space limit is reached. */
    private static final String SPACE_LIMIT = "Max allowed space was reached";

    /**
     * Throws the error in {@code errptr}, if any, of a write or flush, with a note when the
     * database is in RocksDB's background-error state: after a failed flush or compaction, or a
     * write that failed after it was logged, a database refuses every write until it is reopened,
     * and the engine's C API has no {@code rocksdb_resume}, so rocksffm cannot offer one and says
     * so instead.
     */
    final void checkWrite(MemorySegment errptr) {
        RocksDBException e = Native.takeError(errptr, 0);
        if (e != null) {
            throw explainBackgroundErrors(e);
        }
    }

    /** {@code e} with a note on the background-error state when this database reports background errors. */
    private RocksDBException explainBackgroundErrors(RocksDBException e) {
        long errors;
        try {
            errors = getLongProperty(defaultFamily, "rocksdb.background-errors").orElse(0);
        } catch (RuntimeException notAvailable) {
            return e;
        }
        if (errors <= 0 && !e.getMessage().contains(SPACE_LIMIT)) {
            return e;
        }
        String why = errors > 0 ? "RocksDB reported " + errors + " background error(s)"
                : "an SstFileManager's space limit was reached"; // not counted as a background error
        String limit = e.getMessage().contains(SPACE_LIMIT) ? "; raising or lifting the limit does not end it" : "";
        RocksDBException explained = new RocksDBException(e.getMessage() + " [" + why
                + ": the database is in its background-error state, in which it refuses "
                + "every write until it is reopened (the C API offers no resume" + limit + ")]");
        explained.initCause(e);
        return explained;
    }

    // ---- RocksDB 11 administration: compacting chosen files, checksums, pauses, the log's files ------
    // Each call enters the database first (a closed one throws IllegalStateException), then requires
    // its C function (UnsupportedOperationException on older engines).

    @Override
    public List<Path> compactFiles(ColumnFamilyHandle family, CompactionOptions options, List<Path> inputFiles,
                                   int outputLevel) {
        return compactFiles(family, options, inputFiles, outputLevel, false, (outputs, info) -> outputs);
    }

    @Override
    public EventListener.CompactionJobInfo compactFilesWithJobInfo(ColumnFamilyHandle family, CompactionOptions options,
                                                                   List<Path> inputFiles, int outputLevel) {
        return compactFiles(family, options, inputFiles, outputLevel, true,
                (outputs, info) -> EventListeners.copyJobInfo(info));
    }

    /** Compacts, with a job info for RocksDB to fill if {@code withInfo}, and returns {@code result}'s value. */
    private <T> T compactFiles(ColumnFamilyHandle family, CompactionOptions options, List<Path> inputFiles,
                               int outputLevel, boolean withInfo, FileCompaction.Result<T> result) {
        String[] names = FileCompaction.inputNames(family, options, inputFiles, outputLevel);
        try (Scratch s = guard.begin(options, family)) {
            Capabilities.require("rocksdb_compact_files_cf");
            FileCompaction.checkLiveTableFiles(liveFiles(), path, realPath, inputFiles);
            return FileCompaction.compact(adminDb(), family.ptr, options.ptr, names, outputLevel, withInfo, result, s);
        }
    }

    @Override
    public void verifyChecksum() {
        try (Scratch s = guard.begin()) {
            Capabilities.require("rocksdb_verify_checksum");
            rocksdb_verify_checksum(adminDb(), s.errptr);
            Native.check(s.errptr);
        }
    }

    @Override
    public void verifyChecksum(ReadOptions options) {
        Objects.requireNonNull(options, "options");
        try (Scratch s = guard.begin(options, defaultFamily)) {
            Capabilities.require("rocksdb_verify_checksum_with_options");
            rocksdb_verify_checksum_with_options(adminDb(), options.ptr, s.errptr);
            Native.check(s.errptr);
        }
    }

    // Each pause counts as a child of the database until its continue: a database closing while
    // paused would wait forever for its closing flush, so it refuses to close instead.
    @Override
    public void pauseBackgroundWork() {
        Callbacks.refuseWaiting("pauseBackgroundWork"); // it waits for the running jobs
        try (Scratch s = guard.begin()) {
            Capabilities.require("rocksdb_pause_background_work");
            Claim.hold(lifecycle, () -> { // before the pause: a close that has begun refuses it
                rocksdb_pause_background_work(adminDb(), s.errptr);
                Native.check(s.errptr);
                backgroundPauses.incrementAndGet();
            });
        }
    }

    @Override
    public void continueBackgroundWork() {
        try (Scratch s = guard.begin()) {
            Capabilities.require("rocksdb_continue_background_work");
            rocksdb_continue_background_work(adminDb(), s.errptr);
            Native.check(s.errptr); // not paused: InvalidArgument, and no child to remove
            backgroundPauses.decrementAndGet();
            lifecycle.removeChild(); // the pause's claim
        }
    }

    /**
     * Refuses {@code call}, which waits for background work (a flush, a compaction), while the
     * database's background work is paused through it: RocksDB would wait until the work is
     * continued, which a program with one thread never does; whatever timeout the call has does
     * not cover that wait. (A pause that begins while such a call runs holds the call until its
     * continue, as RocksDB does.)
     *
     * @param call    the call, for the message
     * @param instead what the caller can do instead, for the message
     * @throws IllegalStateException while paused
     */
    final void refuseWhilePaused(String call, String instead) {
        int pauses = backgroundPauses.get();
        if (pauses > 0) {
            throw new IllegalStateException(call + " refused: the database's background work is paused ("
                    + pauses + " pauseBackgroundWork without its continueBackgroundWork), and it would wait for "
                    + "a flush or compaction that cannot run until then; " + instead);
        }
    }

    @Override
    public List<WalFile> sortedWalFiles() {
        try (Scratch s = guard.begin()) {
            Capabilities.require("rocksdb_get_sorted_wal_files");
            MemorySegment files = rocksdb_get_sorted_wal_files(adminDb(), s.errptr);
            Native.check(s.errptr);
            try {
                long n = rocksdb_wal_files_count(files);
                List<WalFile> out = new ArrayList<>((int) n);
                for (long i = 0; i < n; i++) {
                    out.add(walFile(rocksdb_wal_files_get_wal_file(files, i)));
                }
                return List.copyOf(out);
            } finally {
                rocksdb_wal_files_destroy(files);
            }
        }
    }

    @Override
    public WalFile currentWalFile() {
        try (Scratch s = guard.begin()) {
            Capabilities.require("rocksdb_get_current_wal_file");
            MemorySegment file = rocksdb_get_current_wal_file(adminDb(), s.errptr);
            Native.check(s.errptr);
            try {
                return walFile(file);
            } finally {
                rocksdb_wal_file_destroy(file);
            }
        }
    }

    private static WalFile walFile(MemorySegment f) {
        String name = rocksdb_wal_file_path_name(f).reinterpret(Long.MAX_VALUE).getString(0);
        return new WalFile(name, rocksdb_wal_file_log_number(f), WalFile.Type.of(rocksdb_wal_file_type(f)),
                rocksdb_wal_file_start_sequence(f), rocksdb_wal_file_size_file_bytes(f));
    }

    // ---- change capture (ChangeCapture reads the log through the engine handle) --------------------

    @Override
    public long latestSequenceNumber() {
        try (Scratch s = guard.begin()) {
            return rocksdb_get_latest_sequence_number(adminDb());
        }
    }

    @Override
    public List<WalUpdate> getUpdatesSince(long sequence, int maxBatches) {
        ChangeCapture.checkArguments(sequence, maxBatches);
        try (Scratch s = guard.begin()) {
            return ChangeCapture.updatesSince(adminDb(), sequence, maxBatches, s);
        }
    }

    @Override
    public long oldestLoggedSequenceNumber() {
        try (Scratch s = guard.begin()) {
            return ChangeCapture.oldestLoggedSequenceNumber(adminDb(), s);
        }
    }

    // ---- writes straight through db: RocksDB's, and an OptimisticTransactionDB's outside a transaction ----
    // Each checks its arguments, enters the database, family and options, copies heap inputs into
    // scratch memory and makes one downcall.

    /** The shape of rocksdb_put_cf, _merge_cf and _delete_range_cf: a write of two slices. */
    @FunctionalInterface
    interface TwoSliceWrite {
        void call(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment a, long aLength,
                  MemorySegment b, long bLength, MemorySegment errptr);
    }

    /** The shape of rocksdb_delete_cf and _singledelete_cf: a write of one slice. */
    @FunctionalInterface
    interface OneSliceWrite {
        void call(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment key, long keyLength,
                  MemorySegment errptr);
    }

    /** {@code rocksdb_put_cf} on {@link #db}. */
    final void putDirect(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        Limits.checkKeyValue(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        writeDirect(family, options, key, value, false, RocksDBC::rocksdb_put_cf);
    }

    /** {@code rocksdb_merge_cf} on {@link #db}, refused for a family without a merge operator. */
    final void mergeDirect(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        Limits.checkKeyValue(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        writeDirect(family, options, key, value, true, RocksDBC::rocksdb_merge_cf);
    }

    /** {@code rocksdb_delete_range_cf} on {@link #db}; {@code begin} must not sort after {@code end} in the family's order. */
    final void deleteRangeDirect(ColumnFamilyHandle family, WriteOptions options, MemorySegment begin,
                                 MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        guard.checkFamily(family);
        Limits.checkRange(begin, end); // before RocksDB copies them into a batch of their size
        families.checkRangeOrder(family.id(), begin, end, "deleteRange"); // its comparator, built-in or Java
        writeDirect(family, options, begin, end, false, RocksDBC::rocksdb_delete_range_cf);
    }

    /** {@code rocksdb_delete_cf} on {@link #db}. */
    final void deleteDirect(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        writeDirect(family, options, key, RocksDBC::rocksdb_delete_cf);
    }

    /** {@code rocksdb_singledelete_cf} on {@link #db}. */
    final void singleDeleteDirect(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        writeDirect(family, options, key, RocksDBC::rocksdb_singledelete_cf);
    }

    /** Runs a one-slice write guarded against close ({@code write} is a constant method reference). */
    private void writeDirect(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, OneSliceWrite write) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Limits.checkKey(key);
        try (Scratch s = guard.begin(options, family)) {
            families.refuseTimestamped(family);
            write.call(db, options.ptr, family.ptr, s.first(key), key.byteSize(), s.errptr);
            checkWrite(s.errptr);
        }
    }

    /** Runs a two-slice write guarded against close ({@code write} is a constant method reference). */
    private void writeDirect(ColumnFamilyHandle family, WriteOptions options, MemorySegment a, MemorySegment b,
                             boolean merge, TwoSliceWrite write) {
        Objects.requireNonNull(options, "options");
        try (Scratch s = guard.begin(options, family)) { // closed database, family or options first
            families.refuseTimestamped(family);
            if (merge) {
                requireMergeOperator(family);
            }
            write.call(db, options.ptr, family.ptr, s.first(a), a.byteSize(), s.second(b), b.byteSize(), s.errptr);
            checkWrite(s.errptr);
        }
    }

    /** Refuses a merge into a family opened without a merge operator (RocksDB would fail later, on reads). */
    final void requireMergeOperator(ColumnFamilyHandle family) {
        if (!families.mergeIds().contains(family.id())) {
            throw new IllegalArgumentException(family + " has no merge operator");
        }
    }

    // ---- batch writes: one way, the database reads the batch --------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>The batch is checked first (RocksDB checks families and merge records only while
     * applying a batch, after logging it; a failure there leaves the database refusing every
     * later write until it is reopened), then copied into a native batch
     * ({@code rocksdb_writebatch_create_from}), written with this kind's write function and the
     * copy freed: three downcalls and one copy of the batch's bytes.
     */
    @Override
    public final void write(WriteOptions options, WriteBatch batch) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(batch, "batch");
        MemorySegment records = batch.sealed(); // a closed batch refuses here
        boolean named = batch.familyIds() != null; // orders it against drops of the families it names
        if (named) {
            families.dropLock.readLock().lock();
        }
        try {
            if (batch.rangeFamilyIds() != null && !takesRangeDeletions()) { // in any order, as deleteRange
                guard.begin(options, defaultFamily).release(); // closed database or options first
                throw UnsupportedWrites.rangeDeletion(kind(), UnsupportedWrites.TRANSACTIONS);
            }
            families.checkBatch(batch, records);
            try (Scratch s = guard.begin(options, defaultFamily)) {
                MemorySegment nativeBatch = Native.writebatchCreateFrom(records, batch.sealedSize());
                try {
                    writeNative(options.ptr, nativeBatch, s.errptr);
                } finally {
                    Native.writebatchDestroy(nativeBatch);
                }
                checkWrite(s.errptr);
            }
        } finally {
            if (named) {
                families.dropLock.readLock().unlock();
            }
        }
    }

    @Override
    public final void write(WriteOptions options, WriteBatchWithIndex batch) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(batch, "batch");
        boolean named = !batch.familyHandles().isEmpty(); // a closed batch refuses here
        if (named) { // no family it names is dropped between the check and the write
            families.dropLock.readLock().lock();
        }
        try {
            families.checkBatch(batch);
            try (Scratch s = guard.begin(options, defaultFamily)) {
                writeIndexed(options.ptr, batch, s.errptr);
                checkWrite(s.errptr);
            }
        } finally {
            if (named) {
                families.dropLock.readLock().unlock();
            }
        }
    }

    /** {@return the kind's name for messages ("a TransactionDB")} */
    private String kind() {
        String name = getClass().getSimpleName();
        return (name.startsWith("O") ? "an " : "a ") + name;
    }

    /** Whether this kind takes range deletions (RocksDB's transaction databases have none). */
    boolean takesRangeDeletions() {
        return true;
    }

    /** Writes a native batch with this kind's write function on {@link #ptr} ({@code rocksdb_write} and its kin). */
    abstract void writeNative(MemorySegment options, MemorySegment nativeBatch, MemorySegment errptr);

    /**
     * Writes an indexed batch's records: a copy as a plain native batch through
     * {@link #writeNative}, as the C API writes indexed batches only to a plain database (which
     * overrides this).
     */
    void writeIndexed(MemorySegment options, WriteBatchWithIndex batch, MemorySegment errptr) {
        MemorySegment nativeBatch = batch.copyNative();
        try {
            writeNative(options, nativeBatch, errptr);
        } finally {
            Native.writebatchDestroy(nativeBatch);
        }
    }
}
