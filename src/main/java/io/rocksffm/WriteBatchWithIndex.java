package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Copies;
import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.PointReads;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;

/**
 * A write batch you can read back ({@code rocksdb_writebatch_wi_t}): its writes are indexed by
 * key, so {@link #getFromBatch} finds a key's latest value in the batch,
 * {@link #getFromBatchAndDB} reads through the batch to a database, and
 * {@link #newIteratorWithBase} iterates the batch merged over a database, each in every form of
 * the database's reads ({@link BatchReads}). Written atomically with
 * {@link RocksDB#write(WriteOptions, WriteBatchWithIndex)}.
 *
 * {@snippet id="WriteBatchWithIndex" :
 * try (WriteBatchWithIndex batch = new WriteBatchWithIndex(true);
 *      ReadOptions read = new ReadOptions(); WriteOptions write = new WriteOptions()) {
 *     batch.put("a".getBytes(UTF_8), "10".getBytes(UTF_8));
 *     // reads see the batch's writes over the database's data: a is "10", b "2"
 *     byte[] a = batch.getFromBatchAndDB(db, read, "a".getBytes(UTF_8));
 *     byte[] b = batch.getFromBatchAndDB(db, read, "b".getBytes(UTF_8));
 *     db.write(write, batch);
 * }
 * }
 *
 * <p><b>Threads and ownership.</b> Confined to the thread that created it (others get
 * {@link WrongThreadException}); the caller closes it. While an iterator made from it is open it
 * refuses writes and close ({@link IllegalStateException}). Use after close throws
 * {@link IllegalStateException}. Keys and values are copied in; segments may be heap or native.
 */
public final class WriteBatchWithIndex extends NativeObject implements Writes<WriteBatchWithIndex>, BatchReads {
    /** A batch whose later write of a key replaces an earlier one in the index (RocksDB's overwrite_key). */
    public WriteBatchWithIndex() {
        this(true);
    }

    /**
     * A batch.
     *
     * @param overwriteKey whether a later write of a key replaces the earlier one in the index
     *                     (true: reads see the latest; false: every write stays, and reads of a
     *                     key written twice are not supported by RocksDB's index)
     */
    public WriteBatchWithIndex(boolean overwriteKey) {
        super(Lifecycle.confined("WriteBatchWithIndex"), "WriteBatchWithIndex",
                rocksdb_writebatch_wi_create(0, flag(overwriteKey)));
    }

    /**
     * The Java comparators of the families this batch indexed keys of: RocksDB's
     * index keeps a raw pointer to each, so they live until this batch is destroyed, whatever the
     * caller closes first (the database, its options). Confined, like the batch.
     */
    private final Set<NativeComparator> comparators = Collections.newSetFromMap(
            new IdentityHashMap<>(2));

    @Override
    void destroy(MemorySegment p) {
        rocksdb_writebatch_wi_destroy(p);
        for (NativeComparator c : comparators) {
            c.release();
        }
        comparators.clear();
    }

    /** Keeps {@code family}'s Java comparator alive while this batch may point at it. */
    private void keepComparator(ColumnFamilyHandle family) {
        NativeComparator c = family.db.families.nativeComparator(family);
        if (c != null && comparators.add(c)) {
            c.retain();
        }
    }

    /**
     * Frees the batch. Idempotent.
     *
     * @throws IllegalStateException while iterators made from it are open
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "iterators");
    }

    private void checkWritable() {
        lifecycle.check();
        if (lifecycle.hasChildren()) {
            throw new IllegalStateException("WriteBatchWithIndex cannot be changed while iterators made from it are open");
        }
    }

    private static void checkFamily(ColumnFamilyHandle family) {
        Objects.requireNonNull(family, "family");
        family.lifecycle.ensureOpen();
    }

    /** The non-default families the records name (checked when the batch is written). */
    private final Set<ColumnFamilyHandle> families =
            Collections.newSetFromMap(new IdentityHashMap<>());
    /** The family of the last record (spares the set a lookup per record). */
    private ColumnFamilyHandle lastFamily;
    /**
     * Whether records name the default family (with its handle or without one): whichever database
     * the batch is written to, they go to its default family, checked then.
     */
    private boolean writesDefault;

    /** {@link #checkFamily} for a write, remembering the family. */
    private void noteFamily(ColumnFamilyHandle family) {
        checkFamily(family);
        family.db.families.refuseTimestamped(family); // RocksDB would store the key without a timestamp
        if (family.isDefault()) {
            writesDefault = true;
        } else if (family != lastFamily) {
            families.add(family);
            lastFamily = family;
        }
    }

    /** Remembers a write of the default family without a handle (checked when the batch is written). */
    private void noteDefault() {
        checkWritable();
        writesDefault = true;
    }

    /**
     * The non-default families the records name (read by a database writing the batch, which
     * checks them; the batch knows no database).
     *
     * @throws IllegalStateException if closed
     */
    Set<ColumnFamilyHandle> familyHandles() {
        lifecycle.check();
        return families;
    }

    /** Whether records name the default family (read after {@link #familyHandles()}). */
    boolean writesDefaultFamily() {
        return writesDefault;
    }

    /**
     * A native {@code rocksdb_writebatch_t} holding a copy of this batch's records, for a
     * database kind whose C API writes only plain batches; free it with
     * {@code Native.writebatchDestroy}.
     */
    MemorySegment copyNative() {
        try (Scratch s = Scratch.acquire()) {
            MemorySegment data = records(ptr, s);
            return Native.writebatchCreateFrom(data, data.byteSize());
        }
    }

    /**
     * The records of the native indexed batch {@code wi} (this batch's, or a transaction's), in
     * RocksDB's batch format: valid until {@code wi} changes. {@code s} lends its size slot.
     */
    static MemorySegment records(MemorySegment wi, Scratch s) {
        MemorySegment data = rocksdb_writebatch_wi_data(wi, s.size);
        return data.reinterpret(s.size.get(ValueLayout.JAVA_LONG, 0));
    }

    /**
     * Adds a put of {@code value} under {@code key} in {@code family}.
     *
     * @param family the column family (its database's handle; the batch is checked against the
     *               database only when written)
     * @param key    the key
     * @param value  the value
     * @return this batch
     * @throws IllegalStateException if closed or iterated, or the family is closed
     * @throws IllegalArgumentException if the family has user-defined timestamps (the batch's keys
     *         carry none; write it with {@link TimestampedDB})
     */
    public WriteBatchWithIndex put(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        noteFamily(family);
        checkWritable();
        keepComparator(family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_put_cf(ptr, family.ptr, s.first(key), key.byteSize(), s.second(value),
                    value.byteSize());
        }
        return this;
    }

    /**
     * Adds a put in the default family of the database it will be written to (refused then if
     * that family has user-defined timestamps).
     *
     * @param key   the key
     * @param value the value
     * @return this batch
     */
    public WriteBatchWithIndex put(byte[] key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        noteDefault();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_put(ptr, s.copy(Scratch.FIRST, key), key.length, s.copy(Scratch.SECOND, value),
                    value.length);
        }
        return this;
    }

    /**
     * Adds a delete of {@code key} in {@code family}.
     *
     * @param family the column family
     * @param key    the key
     * @return this batch
     * @throws IllegalStateException if closed or iterated, or the family is closed
     */
    public WriteBatchWithIndex delete(ColumnFamilyHandle family, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        noteFamily(family);
        checkWritable();
        keepComparator(family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_delete_cf(ptr, family.ptr, s.first(key), key.byteSize());
        }
        return this;
    }

    /**
     * Adds a delete in the default family.
     *
     * @param key the key
     * @return this batch
     */
    public WriteBatchWithIndex delete(byte[] key) {
        Objects.requireNonNull(key, "key");
        noteDefault();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_delete(ptr, s.copy(Scratch.FIRST, key), key.length);
        }
        return this;
    }

    /**
     * Adds a merge of the operand {@code value} into {@code key} of {@code family} (the family's
     * merge operator is checked when the batch is written).
     *
     * @param family the column family
     * @param key    the key
     * @param value  the merge operand
     * @return this batch
     * @throws IllegalStateException if closed or iterated, or the family is closed
     */
    @Override
    public WriteBatchWithIndex merge(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        noteFamily(family);
        checkWritable();
        keepComparator(family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_merge_cf(ptr, family.ptr, s.first(key), key.byteSize(), s.second(value),
                    value.byteSize());
        }
        return this;
    }

    @Override
    public WriteBatchWithIndex put(MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        noteDefault();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_put(ptr, s.first(key), key.byteSize(), s.second(value), value.byteSize());
        }
        return this;
    }

    @Override
    public WriteBatchWithIndex merge(MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        noteDefault();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_merge(ptr, s.first(key), key.byteSize(), s.second(value), value.byteSize());
        }
        return this;
    }

    @Override
    public WriteBatchWithIndex delete(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        noteDefault();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_delete(ptr, s.first(key), key.byteSize());
        }
        return this;
    }

    @Override
    public WriteBatchWithIndex singleDelete(ColumnFamilyHandle family, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        noteFamily(family);
        checkWritable();
        keepComparator(family);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_singledelete_cf(ptr, family.ptr, s.first(key), key.byteSize());
        }
        return this;
    }

    @Override
    public WriteBatchWithIndex singleDelete(MemorySegment key) {
        Objects.requireNonNull(key, "key");
        noteDefault();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_singledelete(ptr, s.first(key), key.byteSize());
        }
        return this;
    }

    /**
     * Refused: RocksDB's indexed batch has no range deletions (its C function drops them
     * silently). Put the range deletion in a {@link WriteBatch} or write it to the database.
     *
     * @param family the column family
     * @param begin  the first key of the range
     * @param end    the end of the range
     * @return never
     * @throws UnsupportedOperationException always (after the argument and state checks)
     */
    @Override
    public WriteBatchWithIndex deleteRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        checkFamily(family);
        checkWritable();
        throw UnsupportedWrites.rangeDeletion("a WriteBatchWithIndex", "RocksDB's indexed batch has none");
    }

    @Override
    public WriteBatchWithIndex deleteRange(MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        checkWritable();
        throw UnsupportedWrites.rangeDeletion("a WriteBatchWithIndex", "RocksDB's indexed batch has none");
    }

    /**
     * Appends {@code blob} as log data (RocksDB's {@code PutLogData}): it is written to the
     * write-ahead log with the batch, and read back by change capture
     * ({@link WalUpdate#batch()}, {@link WriteBatch#iterate}), but it is not an operation: it
     * changes no family, is not indexed (reads of the batch do not see it), does not count in
     * {@link #count()} and takes no sequence number. A save point rolls it back like a write. The
     * blob is copied in.
     *
     * @param blob the bytes to log
     * @return this batch
     * @throws NullPointerException if {@code blob} is null
     * @throws IllegalArgumentException if {@code blob} exceeds RocksDB's limit of 2<sup>32</sup>-1 bytes
     * @throws IllegalStateException if closed or iterated
     */
    public WriteBatchWithIndex putLogData(MemorySegment blob) {
        Objects.requireNonNull(blob, "blob");
        checkWritable();
        Limits.checkLogData(blob);
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_put_log_data(ptr, s.first(blob), blob.byteSize());
        }
        return this;
    }

    /**
     * {@link #putLogData(MemorySegment)} for an array.
     *
     * @param blob the bytes to log
     * @return this batch
     * @throws NullPointerException if {@code blob} is null
     * @throws IllegalStateException if closed or iterated
     */
    public WriteBatchWithIndex putLogData(byte[] blob) {
        return putLogData(MemorySegment.ofArray(Objects.requireNonNull(blob, "blob")));
    }

    /** {@return the number of writes in the batch} */
    public int count() {
        lifecycle.check();
        return rocksdb_writebatch_wi_count(ptr);
    }

    /**
     * Removes every write.
     *
     * @return this batch
     * @throws IllegalStateException if closed or iterated
     */
    public WriteBatchWithIndex clear() {
        checkWritable();
        rocksdb_writebatch_wi_clear(ptr);
        families.clear();
        lastFamily = null;
        writesDefault = false;
        return this;
    }

    /**
     * Marks a save point: {@link #rollbackToSavePoint()} undoes the writes made after it (save
     * points nest).
     *
     * @return this batch
     * @throws IllegalStateException if closed or iterated
     */
    public WriteBatchWithIndex setSavePoint() {
        checkWritable();
        rocksdb_writebatch_wi_set_save_point(ptr);
        return this;
    }

    /**
     * Undoes the writes made since the most recent save point and removes that save point.
     *
     * @return this batch
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} if there is no save point
     * @throws IllegalStateException if closed or iterated
     */
    public WriteBatchWithIndex rollbackToSavePoint() {
        checkWritable();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_writebatch_wi_rollback_to_save_point(ptr, s.errptr);
            Native.check(s.errptr);
        }
        return this;
    }

    /**
     * RocksDB's default options, for the reads of the batch alone that take none (never closed;
     * RocksDB 11 ignores them, 7.x takes only their logger and statistics for merges).
     */
    static final Options DEFAULT_OPTIONS = new Options();

    /**
     * Whether the engine has the pinned read through the batch to a database (RocksDB 10.10 and
     * later): it spares the copy into a C string the other function makes.
     */
    private static final boolean PINNED = Capabilities.callable("rocksdb_writebatch_wi_get_pinned_from_batch_and_db_cf");

    private static void checkOutput(MemorySegment value) {
        Objects.requireNonNull(value, "value");
        if (value.isReadOnly()) {
            throw new IllegalArgumentException("value segment is read-only");
        }
    }

    /** A returned C string as an array (freed), or null. */
    private static byte[] take(MemorySegment value, Scratch s) {
        if (value.address() == 0) {
            Native.check(s.errptr);
            return null;
        }
        try {
            return Copies.toArray(value.reinterpret(s.size.get(ValueLayout.JAVA_LONG, 0)));
        } finally {
            Native.rocksdbFree(value);
        }
    }

    /** Copies what fits of a returned C string into {@code out} (freeing it); its length, or -1 when NULL. */
    private static long take(MemorySegment value, MemorySegment out, Scratch s) {
        if (value.address() == 0) {
            Native.check(s.errptr);
            return -1;
        }
        try {
            long length = s.size.get(ValueLayout.JAVA_LONG, 0);
            Copies.fromAddress(value.address(), out, 0, Math.min(length, out.byteSize()));
            return length;
        } finally {
            Native.rocksdbFree(value);
        }
    }

    /** rocksdb_writebatch_wi_get_from_batch[_cf] of a native key ({@code family} null: the default). */
    private MemorySegment fromBatch(Options options, ColumnFamilyHandle family, MemorySegment key, long keyLength,
                                    Scratch s) {
        return family == null
                ? rocksdb_writebatch_wi_get_from_batch(ptr, options.ptr, key, keyLength, s.size, s.errptr)
                : rocksdb_writebatch_wi_get_from_batch_cf(ptr, options.ptr, family.ptr, key, keyLength, s.size,
                        s.errptr);
    }

    /** Checks what a batch-only read uses ({@code family} null: the default family); the call's token enters the options. */
    private Scratch beginBatchRead(Options options, ColumnFamilyHandle family, Object key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        if (family != null) {
            checkFamily(family);
        }
        lifecycle.check();
        return Scratch.enterFirst(options.lifecycle);
    }

    @Override
    public long getFromBatch(ColumnFamilyHandle family, Options options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(family, "family");
        return segmentFromBatch(options, family, key, value);
    }

    @Override
    public long getFromBatch(Options options, MemorySegment key, MemorySegment value) {
        return segmentFromBatch(options, null, key, value);
    }

    private long segmentFromBatch(Options options, ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        checkOutput(value);
        try (Scratch s = beginBatchRead(options, family, key)) {
            return take(fromBatch(options, family, s.first(key), key.byteSize(), s), value, s);
        }
    }

    @Override
    public byte[] getFromBatch(ColumnFamilyHandle family, Options options, byte[] key) {
        Objects.requireNonNull(family, "family");
        return arrayFromBatch(options, family, key);
    }

    @Override
    public byte[] getFromBatch(Options options, byte[] key) {
        return arrayFromBatch(options, null, key);
    }

    private byte[] arrayFromBatch(Options options, ColumnFamilyHandle family, byte[] key) {
        try (Scratch s = beginBatchRead(options, family, key)) {
            return take(fromBatch(options, family, s.copy(Scratch.FIRST, key), key.length, s), s);
        }
    }

    /**
     * The pinned read through the batch to {@code db}: the slice, or NULL when absent (the caller
     * destroys it). The caller has entered everything.
     */
    private MemorySegment pinnedFromBatchAndDB(MemorySegment db, ReadOptions options, ColumnFamilyHandle family,
                                               MemorySegment key, long keyLength, Scratch s) {
        MemorySegment slice = rocksdb_writebatch_wi_get_pinned_from_batch_and_db_cf(ptr, db, options.ptr, family.ptr,
                key, keyLength, s.errptr);
        if (slice.address() == 0) {
            Native.check(s.errptr);
        }
        return slice;
    }

    @Override
    public long getFromBatchAndDB(Database db, ColumnFamilyHandle family, ReadOptions options, MemorySegment key,
                                  MemorySegment value) {
        Database d = Objects.requireNonNull(db, "db");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        checkOutput(value);
        lifecycle.check();
        try (Scratch s = d.guard.begin(options, family)) {
            MemorySegment base = d.adminDb();
            MemorySegment k = s.first(key);
            return PINNED
                    ? PointReads.copy(pinnedFromBatchAndDB(base, options, family, k, key.byteSize(), s), value, s)
                    : take(rocksdb_writebatch_wi_get_from_batch_and_db_cf(ptr, base, options.ptr, family.ptr, k,
                            key.byteSize(), s.size, s.errptr), value, s);
        }
    }

    @Override
    public byte[] getFromBatchAndDB(Database db, ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        Database d = Objects.requireNonNull(db, "db");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        lifecycle.check();
        try (Scratch s = d.guard.begin(options, family)) {
            MemorySegment base = d.adminDb();
            MemorySegment k = s.copy(Scratch.FIRST, key);
            return PINNED
                    ? PointReads.array(pinnedFromBatchAndDB(base, options, family, k, key.length, s), s)
                    : take(rocksdb_writebatch_wi_get_from_batch_and_db_cf(ptr, base, options.ptr, family.ptr, k,
                            key.length, s.size, s.errptr), s);
        }
    }

    @Override
    public PinnedValue getPinnedFromBatchAndDB(Database db, ColumnFamilyHandle family, ReadOptions options,
                                               MemorySegment key) {
        Database d = Objects.requireNonNull(db, "db");
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        lifecycle.check();
        Capabilities.require("rocksdb_writebatch_wi_get_pinned_from_batch_and_db_cf");
        try (Scratch s = d.guard.begin(options, family)) {
            MemorySegment slice = pinnedFromBatchAndDB(d.adminDb(), options, family, s.first(key), key.byteSize(),
                    s);
            return slice.address() == 0 ? null : PinnedValue.of(d.lifecycle, slice, s.size);
        }
    }

    @Override
    public RocksIterator newIteratorWithBase(Database db, ColumnFamilyHandle family, ReadOptions options) {
        Database d = Objects.requireNonNull(db, "db");
        Objects.requireNonNull(options, "options");
        lifecycle.check();
        try (Scratch s = d.guard.begin(options, family)) {
            MemorySegment base = d.adminDb();
            synchronized (options.lock) { // the base iterator does not prefetch
                return RocksIterator.create(new Lifecycle[] {d.lifecycle, lifecycle}, family, options, 0, (o, f) ->
                        rocksdb_writebatch_wi_create_iterator_with_base_cf(ptr, RocksIterator.nativeIterator(base, o, f),
                                f)).overBatch();
            }
        }
    }
}
