package io.rocksffm;

import static io.rocksffm.internal.BatchFormat.*;

import io.rocksffm.internal.BatchFormat;
import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.BitSet;
import java.util.Objects;

/**
 * A batch of writes encoded by Java code straight into RocksDB's own write-batch byte layout, in
 * native memory this object owns: adding an operation makes no downcall. The batch crosses into
 * RocksDB only when it is {@linkplain Database#write(WriteOptions, WriteBatch) written} (three
 * downcalls: {@code rocksdb_writebatch_create_from} copies it into a native batch, the database's
 * write function writes that, {@code rocksdb_writebatch_destroy} frees it) or turned into a
 * {@linkplain #toNative() native batch}.
 *
 * {@snippet id="WriteBatch" :
 * try (WriteBatch batch = new WriteBatch(); WriteOptions write = new WriteOptions()) {
 *     batch.put("a".getBytes(UTF_8), "1".getBytes(UTF_8))
 *          .put("b".getBytes(UTF_8), "2".getBytes(UTF_8))
 *          .delete("balance".getBytes(UTF_8));
 *     db.write(write, batch);   // all or nothing
 *     batch.clear();            // reusable: keeps its buffer
 * }
 * }
 *
 * <p><b>Memory.</b> The buffer starts at the capacity given to the constructor and doubles when
 * full; {@link #clear()} keeps it, so a batch reused across writes stops allocating. Keys and
 * values are copied in: the caller's segments and arrays may be reused as soon as a method
 * returns. {@link #close()} frees the buffer; it is idempotent, and any use afterwards throws
 * {@link IllegalStateException}. (A database refuses, before anything is applied, a batch holding
 * merge records for a family without a merge operator, records for a family it does not have or
 * made with another database's handles, or a range deletion that ends before it begins in its
 * family's order: RocksDB would fail such a batch only after logging it, and then refuse every
 * write until reopened.)
 *
 * <p><b>Threads.</b> A batch is confined to the thread that created it (its memory belongs to a
 * confined arena, which frees it at once on close): other threads get
 * {@link WrongThreadException}. Writing it leaves it unchanged, so the same batch may be written
 * again or to several databases.
 *
 * <p>Operations and their order are exactly those of RocksDB's {@code WriteBatch}; the encoded
 * bytes ({@link #data()}) are identical to those RocksDB's C API builds for the same calls.
 */
public final class WriteBatch implements Writes<WriteBatch>, AutoCloseable {
    /** The capacity {@link #WriteBatch()} starts with. */
    public static final long DEFAULT_CAPACITY = 4096;

    private final Lifecycle lifecycle = Lifecycle.confined("WriteBatch");
    private Arena arena;
    private MemorySegment buf;
    private long size;
    private int count;
    /** Non-default column-family ids the records name (null until one does). */
    private BitSet families;
    /** Column-family ids (0 for the default) that merge records name (null until one does). */
    private BitSet mergeFamilies;
    /** Column-family ids (0 for the default) that range deletions name (null until one does). */
    private BitSet rangeFamilies;

    /** An empty batch with {@value #DEFAULT_CAPACITY} bytes of initial capacity. */
    public WriteBatch() {
        this(DEFAULT_CAPACITY);
    }

    /**
     * An empty batch whose buffer starts at {@code initialCapacity} bytes (at least the 12-byte
     * header); size it to the batches you build to avoid growth.
     *
     * @param initialCapacity the buffer's initial size in bytes
     * @throws IllegalArgumentException if {@code initialCapacity} is negative
     */
    public WriteBatch(long initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initial capacity must be >= 0: " + initialCapacity);
        }
        arena = Arena.ofConfined();
        buf = arena.allocate(Math.max(initialCapacity, HEADER), 8);
        clear();
    }

    /**
     * A batch holding a copy of RocksDB-format batch bytes (e.g. from {@link #data()} or from
     * another RocksDB binding), validated record by record.
     *
     * @param data RocksDB-format batch bytes
     * @return a new batch, which the caller closes
     * @throws IllegalArgumentException if the bytes are not a well-formed batch whose records
     *         are all put, delete, single-delete, delete-range, merge or log data
     */
    public static WriteBatch fromBytes(MemorySegment data) {
        Objects.requireNonNull(data, "data");
        BatchFormat.Summary summary = BatchFormat.validate(data);
        WriteBatch b = new WriteBatch(data.byteSize());
        MemorySegment.copy(data, 0, b.buf, 0, data.byteSize());
        b.buf.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 0L); // sequence number: RocksDB assigns it
        b.size = data.byteSize();
        b.count = summary.count();
        b.families = summary.families().isEmpty() ? null : summary.families();
        b.mergeFamilies = summary.mergeFamilies();
        b.rangeFamilies = summary.rangeFamilies();
        return b;
    }

    /**
     * A batch holding a copy of the contents of a native {@code rocksdb_writebatch_t*} created
     * by other code through RocksDB's C API (read with {@code rocksdb_writebatch_data}). The
     * native batch stays owned by that code.
     *
     * @param nativeBatch a live {@code rocksdb_writebatch_t*}; anything else is undefined behaviour
     * @return a new batch, which the caller closes
     */
    public static WriteBatch fromNative(MemorySegment nativeBatch) {
        Objects.requireNonNull(nativeBatch, "nativeBatch");
        if (nativeBatch.address() == 0) {
            throw new IllegalArgumentException("nativeBatch is NULL");
        }
        Native.engine();
        try (Scratch s = Scratch.acquire()) {
            MemorySegment rep = RocksDBC.rocksdb_writebatch_data(nativeBatch, s.size);
            return fromBytes(rep.reinterpret(s.size.get(ValueLayout.JAVA_LONG, 0)));
        }
    }

    private void ensureOpen() {
        lifecycle.check();
    }

    /** Grows the buffer (doubling, or to {@code needed} if more) keeping the encoded bytes. */
    private void grow(long needed) {
        long capacity = Math.max(needed, buf.byteSize() * 2);
        Arena grown = Arena.ofConfined();
        MemorySegment next = grown.allocate(capacity, 8);
        MemorySegment.copy(buf, 0, next, 0, size);
        arena.close();
        arena = grown;
        buf = next;
    }

    /**
     * Appends one record; {@code value} is null for records without one. {@link #reserve} makes
     * room and writes the tag, family and key length; the key, the value's length and the value are
     * written here; the record counts once {@link #commit} ran. A copy that fails leaves the batch's
     * records, count and families as they were (its capacity may have grown).
     */
    private WriteBatch append(byte tag, int family, MemorySegment key, MemorySegment value) {
        long klen = key.byteSize();
        long vlen = value == null ? NO_VALUE : value.byteSize();
        long k = reserve(tag, family, klen, vlen);
        MemorySegment b = buf;
        MemorySegment.copy(key, 0, b, k, klen);
        if (value == null) {
            return commit(k + klen, family, tag);
        }
        long v = putVarint(b, k + klen, vlen);
        MemorySegment.copy(value, 0, b, v, vlen);
        return commit(v + vlen, family, tag);
    }

    /**
     * {@link #append(byte, int, MemorySegment, MemorySegment)} for arrays, wrapping them only
     * where it copies them: wrappers made by the caller and passed down escape (one allocation
     * each) whenever the JIT compiles the append on its own instead of inlining it, which it did
     * or not by compilation order (measured: the {@code byte[]} batch build ran at about 32M or
     * 48M puts/s per JVM by that choice; here, at 48M in every JVM).
     */
    private WriteBatch append(byte tag, int family, byte[] key, byte[] value) {
        long k = reserve(tag, family, key.length, value == null ? NO_VALUE : value.length);
        MemorySegment b = buf;
        MemorySegment.copy(MemorySegment.ofArray(key), 0, b, k, key.length);
        if (value == null) {
            return commit(k + key.length, family, tag);
        }
        long v = putVarint(b, k + key.length, value.length);
        MemorySegment.copy(MemorySegment.ofArray(value), 0, b, v, value.length);
        return commit(v + value.length, family, tag);
    }

    /** The value length of a record without a value. */
    private static final long NO_VALUE = -1;

    /**
     * Makes room for a record after the last one (with a value of {@code vlen} bytes unless that is
     * {@link #NO_VALUE}) and writes its tag, family and key length. Returns the key's offset in
     * {@link #buf}; the value's length prefix follows the key.
     */
    private long reserve(byte tag, int family, long klen, long vlen) {
        ensureOpen();
        if (klen > MAX_SLICE || vlen > MAX_SLICE || count == Integer.MAX_VALUE) {
            throw refused(klen, vlen);
        }
        long need = 1 + varintSize(klen) + klen;
        if (family != 0) {
            need += varintSize(family);
        }
        if (vlen != NO_VALUE) {
            need += varintSize(vlen) + vlen;
        }
        if (size + need > buf.byteSize()) {
            grow(size + need);
        }
        MemorySegment b = buf;
        long p = family == 0 ? putByte(b, size, tag) : familyHeader(b, size, tag, family);
        return putVarint(b, p, klen);
    }

    /** Counts the record {@link #reserve} began, which ends at {@code end}. */
    private WriteBatch commit(long end, int family, byte tag) {
        size = end;
        count++;
        if (family != 0 || tag == MERGE || tag == RANGE_DELETION) {
            note(family, tag);
        }
        return this;
    }

    private static long putByte(MemorySegment b, long p, byte tag) {
        b.set(ValueLayout.JAVA_BYTE, p, tag);
        return p + 1;
    }

    private static long familyHeader(MemorySegment b, long p, byte tag, int family) {
        return putVarint(b, putByte(b, p, familyTag(tag)), family);
    }

    /** Records what {@link #checkWritable} needs to know about a family or merge record. */
    private void note(int family, byte tag) {
        if (family != 0) {
            if (families == null) {
                families = new BitSet();
            }
            families.set(family);
        }
        if (tag == MERGE) {
            if (mergeFamilies == null) {
                mergeFamilies = new BitSet();
            }
            mergeFamilies.set(family);
        }
        if (tag == RANGE_DELETION) {
            if (rangeFamilies == null) {
                rangeFamilies = new BitSet();
            }
            rangeFamilies.set(family);
        }
    }

    private IllegalArgumentException refused(long klen, long vlen) {
        if (klen > MAX_SLICE) {
            return new IllegalArgumentException("key of " + klen + " bytes exceeds RocksDB's limit of " + MAX_SLICE);
        }
        if (vlen > MAX_SLICE) {
            return new IllegalArgumentException("value of " + vlen + " bytes exceeds RocksDB's limit of " + MAX_SLICE);
        }
        return new IllegalArgumentException("write batch is full: " + count + " records");
    }

    /** The database of the family handles the records were made with (null until one is). */
    private Database familiesOf;

    /** The family id to encode; checks the handle is open and of the database of the others. */
    private int id(ColumnFamilyHandle family) {
        Objects.requireNonNull(family, "family");
        family.lifecycle.ensureOpen();
        if (familiesOf != family.db) {
            if (familiesOf != null) {
                throw new IllegalArgumentException("the batch holds records for families of another database than "
                        + family + "'s");
            }
            familiesOf = family.db;
        }
        return family.id();
    }

    /**
     * Stores {@code value} under {@code key} in {@code family}. The record carries the family's
     * id: write the batch to that family's database.
     *
     * @param family the column family
     * @param key the key
     * @param value the value
     * @return this batch
     */
    @Override
    public WriteBatch put(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        return append(VALUE, id(family), Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /**
     * Stores {@code value} under {@code key}.
     *
     * @param key the key
     * @param value the value
     * @return this batch
     */
    @Override
    public WriteBatch put(MemorySegment key, MemorySegment value) {
        return append(VALUE, 0, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    // Array forms call the array append, not their segment form: no wrappers to escape when the JIT
    // does not inline the path (see append(byte, int, byte[], byte[])); only deleteRange wraps.

    /**
     * {@link #put(MemorySegment, MemorySegment)} for arrays.
     *
     * @param key the key
     * @param value the value
     * @return this batch
     */
    @Override
    public WriteBatch put(byte[] key, byte[] value) {
        return append(VALUE, 0, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /**
     * Removes {@code key} from {@code family}.
     *
     * @param family the column family
     * @param key the key
     * @return this batch
     */
    @Override
    public WriteBatch delete(ColumnFamilyHandle family, MemorySegment key) {
        return append(DELETION, id(family), Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Removes {@code key}.
     *
     * @param key the key
     * @return this batch
     */
    @Override
    public WriteBatch delete(MemorySegment key) {
        return append(DELETION, 0, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * {@link #delete(MemorySegment)} for arrays.
     *
     * @param key the key
     * @return this batch
     */
    @Override
    public WriteBatch delete(byte[] key) {
        return append(DELETION, 0, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Removes {@code key}, which must have been put at most once since its last deletion
     * (RocksDB's {@code SingleDelete}; otherwise the result is undefined).
     *
     * @param key the key
     * @return this batch
     */
    @Override
    public WriteBatch singleDelete(MemorySegment key) {
        return append(SINGLE_DELETION, 0, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * {@link #singleDelete(MemorySegment)} in {@code family}.
     *
     * @param family the column family
     * @param key the key
     * @return this batch
     */
    @Override
    public WriteBatch singleDelete(ColumnFamilyHandle family, MemorySegment key) {
        return append(SINGLE_DELETION, id(family), Objects.requireNonNull(key, "key"), null);
    }

    /**
     * {@link #singleDelete(MemorySegment)} for arrays.
     *
     * @param key the key
     * @return this batch
     */
    @Override
    public WriteBatch singleDelete(byte[] key) {
        return append(SINGLE_DELETION, 0, Objects.requireNonNull(key, "key"), null);
    }

    /**
     * Removes every key in {@code [begin, end)}.
     *
     * @param begin the first key of the range (inclusive)
     * @param end the end of the range (exclusive)
     * @return this batch
     * @throws IllegalArgumentException if a bound exceeds RocksDB's limit. (The order of
     *         {@code begin} and {@code end} depends on the comparator of the family the batch is
     *         written to, which a batch does not know: the database checks every range in its
     *         family's order when the batch is written, and refuses the whole batch, before
     *         anything is applied, if one ends before it begins.)
     */
    @Override
    public WriteBatch deleteRange(MemorySegment begin, MemorySegment end) {
        return rangeDeletion(0, begin, end);
    }

    /**
     * {@link #deleteRange(MemorySegment, MemorySegment)} in {@code family}.
     *
     * @param family the column family
     * @param begin the first key of the range (inclusive)
     * @param end the end of the range (exclusive)
     * @return this batch
     */
    @Override
    public WriteBatch deleteRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        return rangeDeletion(id(family), begin, end);
    }

    private WriteBatch rangeDeletion(int family, MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        return append(RANGE_DELETION, family, begin, end); // order: checked when written
    }

    // Merge records (refused for a family without a merge operator: checkWritable); byte-exact to the C API's.

    /**
     * Merges {@code value} into {@code key} of {@code family} with the family's merge operator
     * ({@link Options#setMergeOperator}).
     *
     * @param family the column family
     * @param key the key
     * @param value the merge operand
     * @return this batch
     */
    @Override
    public WriteBatch merge(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        return append(MERGE, id(family), Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /**
     * Merges {@code value} into {@code key} of the default family with its merge operator.
     *
     * @param key the key
     * @param value the merge operand
     * @return this batch
     */
    @Override
    public WriteBatch merge(MemorySegment key, MemorySegment value) {
        return append(MERGE, 0, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /**
     * {@link #merge(MemorySegment, MemorySegment)} for arrays.
     *
     * @param key the key
     * @param value the merge operand
     * @return this batch
     */
    @Override
    public WriteBatch merge(byte[] key, byte[] value) {
        return append(MERGE, 0, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
    }

    /**
     * Appends {@code blob} as log data (RocksDB's {@code PutLogData}): it is written to the
     * write-ahead log with the batch, and read back by change capture, but it is not an operation:
     * it changes no family, does not count in {@link #count()} and takes no sequence number.
     * The blob is copied in.
     *
     * @param blob the bytes to log
     * @return this batch
     * @throws NullPointerException if {@code blob} is null
     * @throws IllegalArgumentException if {@code blob} exceeds RocksDB's limit of 2<sup>32</sup>-1 bytes
     * @throws IllegalStateException if closed
     */
    public WriteBatch putLogData(MemorySegment blob) {
        Objects.requireNonNull(blob, "blob");
        ensureOpen();
        Limits.checkLogData(blob);
        long n = blob.byteSize();
        long need = 1 + varintSize(n) + n;
        if (size + need > buf.byteSize()) {
            grow(size + need);
        }
        MemorySegment b = buf;
        long p = putVarint(b, putByte(b, size, LOG_DATA), n);
        MemorySegment.copy(blob, 0, b, p, n);
        size = p + n;
        return this;
    }

    /**
     * {@link #putLogData(MemorySegment)} for an array.
     *
     * @param blob the bytes to log
     * @return this batch
     * @throws NullPointerException if {@code blob} is null
     * @throws IllegalStateException if closed
     */
    public WriteBatch putLogData(byte[] blob) {
        return putLogData(MemorySegment.ofArray(Objects.requireNonNull(blob, "blob")));
    }

    /**
     * What {@link #iterate} hands the records of a batch to, one method per kind of record
     * (RocksDB's {@code WriteBatch::Handler}); each does nothing unless overridden. The family
     * is the record's column-family id ({@link ColumnFamilyHandle#id()}; 0 for the default).
     * The segments are read-only views of the batch, valid only during the call: copy what you
     * keep ({@code toArray(ValueLayout.JAVA_BYTE)}). A handler must not change the batch it is
     * iterating.
     */
    public interface Handler {
        /**
         * A put.
         *
         * @param family the column-family id
         * @param key the key
         * @param value the value
         */
        default void put(int family, MemorySegment key, MemorySegment value) {}

        /**
         * A merge.
         *
         * @param family the column-family id
         * @param key the key
         * @param value the merge operand
         */
        default void merge(int family, MemorySegment key, MemorySegment value) {}

        /**
         * A delete.
         *
         * @param family the column-family id
         * @param key the key
         */
        default void delete(int family, MemorySegment key) {}

        /**
         * A single delete.
         *
         * @param family the column-family id
         * @param key the key
         */
        default void singleDelete(int family, MemorySegment key) {}

        /**
         * A range deletion of {@code [begin, end)}.
         *
         * @param family the column-family id
         * @param begin the first key of the range
         * @param end the end of the range (exclusive)
         */
        default void deleteRange(int family, MemorySegment begin, MemorySegment end) {}

        /**
         * Log data ({@link WriteBatch#putLogData(MemorySegment)}).
         *
         * @param blob the blob
         */
        default void logData(MemorySegment blob) {}
    }

    /**
     * Hands every record of this batch, in order, to {@code handler} (RocksDB's
     * {@code WriteBatch::Iterate}), on the calling thread; no native call. Works the same for a
     * batch read back by change capture ({@link WalUpdate#batch()}).
     *
     * @param handler the handler; an exception it throws ends the iteration and is rethrown
     * @throws NullPointerException if {@code handler} is null
     * @throws IllegalStateException if closed
     */
    public void iterate(Handler handler) {
        Objects.requireNonNull(handler, "handler");
        ensureOpen();
        BatchFormat.forEachEntry(buf.asSlice(0, size).asReadOnly(), (at, tag, family, first, second) -> {
            switch (tag) {
                case VALUE -> handler.put(family, first, second);
                case MERGE -> handler.merge(family, first, second);
                case DELETION -> handler.delete(family, first);
                case SINGLE_DELETION -> handler.singleDelete(family, first);
                case RANGE_DELETION -> handler.deleteRange(family, first, second);
                default -> handler.logData(first);
            }
        });
    }

    /** {@return number of operations in the batch} */
    public int count() {
        ensureOpen();
        return count;
    }

    /** {@return size in bytes of the encoded batch, header included (RocksDB's {@code GetDataSize})} */
    public long dataSize() {
        ensureOpen();
        return size;
    }

    /** {@return current buffer capacity in bytes} */
    public long capacity() {
        ensureOpen();
        return buf.byteSize();
    }

    /**
     * Removes every operation, keeping the buffer.
     *
     * @return this batch
     */
    public WriteBatch clear() {
        ensureOpen();
        buf.asSlice(0, HEADER).fill((byte) 0);
        size = HEADER;
        count = 0;
        families = null;
        mergeFamilies = null;
        rangeFamilies = null;
        familiesOf = null;
        savePoints = null; // as RocksDB's Clear
        return this;
    }

    // ---- save points: the batch is encoded here, so a save point is where it ended ---------------

    /** Where the batch ended when a save point was set, and what it knew of its records then. */
    private record SavePoint(long size, int count, BitSet families, BitSet mergeFamilies, BitSet rangeFamilies,
                             Database familiesOf) {}

    private java.util.ArrayDeque<SavePoint> savePoints; // fully qualified: the one deque of this class

    private static BitSet copy(BitSet b) {
        return b == null ? null : (BitSet) b.clone();
    }

    /**
     * Marks a save point: {@link #rollbackToSavePoint()} undoes the records added after it. Save
     * points nest; {@link #clear()} removes them all (RocksDB's {@code WriteBatch} semantics).
     *
     * @return this batch
     * @throws IllegalStateException if closed
     */
    public WriteBatch setSavePoint() {
        ensureOpen();
        if (savePoints == null) {
            savePoints = new java.util.ArrayDeque<>(); // fully qualified: as above
        }
        savePoints.push(new SavePoint(size, count, copy(families), copy(mergeFamilies), copy(rangeFamilies), familiesOf));
        return this;
    }

    /**
     * Removes the records added since the most recent save point, and that save point.
     *
     * @return this batch
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} if there is no save point
     * @throws IllegalStateException if closed
     */
    public WriteBatch rollbackToSavePoint() {
        SavePoint p = popOrRefuse();
        size = p.size();
        count = p.count();
        families = p.families();
        mergeFamilies = p.mergeFamilies();
        rangeFamilies = p.rangeFamilies();
        familiesOf = p.familiesOf();
        return this;
    }

    /**
     * Removes the most recent save point, keeping the records added since.
     *
     * @return this batch
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} if there is no save point
     * @throws IllegalStateException if closed
     */
    public WriteBatch popSavePoint() {
        popOrRefuse();
        return this;
    }

    private SavePoint popOrRefuse() {
        ensureOpen();
        if (savePoints == null || savePoints.isEmpty()) {
            throw new RocksDBException("NotFound: no save point in the write batch");
        }
        return savePoints.pop();
    }

    /**
     * The encoded batch, a read-only view of this batch's buffer (header with the current count,
     * then the records). Valid until the next change to the batch (which may move the buffer) or
     * {@link #close()}.
     *
     * @return a read-only view of the batch's bytes
     */
    public MemorySegment data() {
        ensureOpen();
        sealHeader();
        return buf.asSlice(0, size).asReadOnly();
    }

    private void sealHeader() {
        buf.set(U32_LE, COUNT_OFFSET, count);
    }

    /**
     * A native {@code rocksdb_writebatch_t} holding a copy of this batch, for code that needs a
     * real one. The caller owns and closes it; it does not change when this batch does.
     *
     * @return a new native batch, which the caller closes
     */
    public NativeWriteBatch toNative() {
        return new NativeWriteBatch(Native.writebatchCreateFrom(sealed(), size));
    }

    // ---- what a database reads when it writes this batch (the batch knows no database) --------

    /**
     * The batch's buffer with its header sealed: its first {@link #sealedSize()} bytes are the
     * batch. Valid until the next change to the batch or its close.
     *
     * @throws IllegalStateException if closed; {@link WrongThreadException} on another thread
     */
    MemorySegment sealed() {
        ensureOpen();
        sealHeader();
        return buf;
    }

    /** The size of {@link #sealed()}'s batch (read after it). */
    long sealedSize() {
        return size;
    }

    /** Non-default column-family ids the records name, or null for none (read after {@link #sealed()}). */
    BitSet familyIds() {
        return families;
    }

    /** Column-family ids merge records name, or null for none (read after {@link #sealed()}). */
    BitSet mergeFamilyIds() {
        return mergeFamilies;
    }

    /** Column-family ids range deletions name, or null for none (read after {@link #sealed()}). */
    BitSet rangeFamilyIds() {
        return rangeFamilies;
    }

    /** The database whose family handles made records, or null for none (read after {@link #sealed()}). */
    Database handlesOf() {
        return familiesOf;
    }

    /** {@return whether {@link #close()} has been called} */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    /** Frees the buffer. Idempotent. */
    @Override
    public void close() {
        lifecycle.close(arena::close);
    }
}
