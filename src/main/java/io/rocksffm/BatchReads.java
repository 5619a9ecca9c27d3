package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The reads of an indexed batch ({@link WriteBatchWithIndex}), declared once in the shape of the
 * database's reads ({@link KeyValueReads}): {@code getFromBatchAndDB} has exactly the overloads
 * of {@link KeyValueReads#get} with a {@link Database} first, {@code getPinnedFromBatchAndDB} those of
 * {@link KeyValueReads#getPinned}, {@code newIteratorWithBase} those of
 * {@link KeyValueReads#newIterator}, and {@code getFromBatch} those of {@code get} with the
 * database's {@link Options} in place of the read options (the batch alone has no snapshot to
 * read; the forms without options use RocksDB's defaults). As with the database, each operation
 * has core methods taking a {@link ColumnFamilyHandle} and options, and the other forms are
 * written here once, as default methods.
 *
 * {@snippet id="BatchReads" :
 * try (WriteBatchWithIndex batch = new WriteBatchWithIndex(true); ReadOptions read = new ReadOptions()) {
 *     batch.put("b".getBytes(UTF_8), "2".getBytes(UTF_8)).delete("a".getBytes(UTF_8));
 *     byte[] b = batch.getFromBatch(options, "b".getBytes(UTF_8));     // "2": the batch alone
 *     byte[] a = batch.getFromBatchAndDB(db, read, "a".getBytes(UTF_8));   // null: the batch deletes it
 *     try (RocksIterator it = batch.newIteratorWithBase(db, read)) {   // the batch over the database
 *         for (it.seekToFirst(); it.isValid(); it.next()) {
 *             merged.add(new String(it.keyBytes(), UTF_8));   // "b", "c"
 *         }
 *     }
 * }
 * }
 *
 * <p>A read of the batch alone ({@code getFromBatch}) sees only the batch's writes of the key:
 * absent when it has none or deletes the key; when the batch holds only merges of the key it
 * fails with {@link RocksDBException.Code#MERGE_IN_PROGRESS} (there is no base value to merge
 * into). A read through the batch to a database ({@code getFromBatchAndDB}) sees the batch
 * written over the database (as of the read options' snapshot, if any). Keys are whole segments
 * or arrays, native or heap; a value read into a segment returns its full length (copying what
 * fits, like {@link KeyValueReads#get(ColumnFamilyHandle, ReadOptions, MemorySegment, MemorySegment)}),
 * or -1 when absent. Confined to the batch's thread, like the batch.
 */
public sealed interface BatchReads permits WriteBatchWithIndex {

    // ---- core methods ----------------------------------------------------------------------------

    /**
     * Copies the value the batch alone gives {@code key} in {@code family} into {@code value}
     * and returns the value's full length, or -1 when the batch has no write of the key or
     * deletes it. When the result exceeds {@code value.byteSize()}, only the first
     * {@code value.byteSize()} bytes were copied: retry with a larger segment.
     *
     * @param family  the column family (its comparator and merge operator apply)
     * @param options the database's options (RocksDB 7.x takes their logger and statistics for
     *                merges; later versions ignore them)
     * @param key     the key (native or heap)
     * @param value   where the value goes (native or heap, writable)
     * @return the value's length, or -1 when absent
     * @throws IllegalArgumentException if {@code value} is read-only
     * @throws RocksDBException e.g. {@link RocksDBException.Code#MERGE_IN_PROGRESS} when only
     *         merges of the key are in the batch
     * @throws IllegalStateException if the batch, the options or the family is closed
     */
    long getFromBatch(ColumnFamilyHandle family, Options options, MemorySegment key, MemorySegment value);

    /**
     * {@link #getFromBatch(ColumnFamilyHandle, Options, MemorySegment, MemorySegment)} in the
     * default family (family id 0: the batch does not know a database's handle).
     *
     * @param options the database's options
     * @param key     the key
     * @param value   where the value goes (writable)
     * @return the value's length, or -1 when absent
     * @throws IllegalArgumentException if {@code value} is read-only
     * @throws RocksDBException e.g. {@link RocksDBException.Code#MERGE_IN_PROGRESS}
     * @throws IllegalStateException if the batch or the options are closed
     */
    long getFromBatch(Options options, MemorySegment key, MemorySegment value);

    /**
     * The value the batch alone gives {@code key} in {@code family}, as a new array.
     *
     * @param family  the column family (its comparator and merge operator apply)
     * @param options the database's options
     * @param key     the key
     * @return a copy of the value, or {@code null} when the batch has no write of it or deletes it
     * @throws RocksDBException e.g. {@link RocksDBException.Code#MERGE_IN_PROGRESS} when only
     *         merges of the key are in the batch
     * @throws UnsupportedOperationException if the value is larger than a {@code byte[]} can hold
     * @throws IllegalStateException if the batch, the options or the family is closed
     */
    byte[] getFromBatch(ColumnFamilyHandle family, Options options, byte[] key);

    /**
     * {@link #getFromBatch(ColumnFamilyHandle, Options, byte[])} in the default family (family
     * id 0).
     *
     * @param options the database's options
     * @param key     the key
     * @return a copy of the value, or {@code null}
     * @throws RocksDBException e.g. {@link RocksDBException.Code#MERGE_IN_PROGRESS}
     * @throws IllegalStateException if the batch or the options are closed
     */
    byte[] getFromBatch(Options options, byte[] key);

    /**
     * Copies the value of {@code key} in {@code family}, as the batch written over {@code db}
     * would leave it, into {@code value}; returns the value's full length, or -1 when absent.
     * When the result exceeds {@code value.byteSize()}, only the first {@code value.byteSize()}
     * bytes were copied.
     *
     * @param db      the database (a {@link RocksDB} or {@link OptimisticTransactionDB}, or a
     *                {@link TransactionDB} on engines with its base database)
     * @param family  the column family, of {@code db}
     * @param options read options (their snapshot, if any, must be {@code db}'s)
     * @param key     the key
     * @param value   where the value goes (writable)
     * @return the value's length, or -1 when absent
     * @throws IllegalArgumentException if {@code value} is read-only, or {@code family} or the
     *         snapshot belongs to another database
     * @throws UnsupportedOperationException for a {@link TransactionDB} on RocksDB 7.x
     * @throws RocksDBException if the read fails
     * @throws IllegalStateException if anything is closed
     */
    long getFromBatchAndDB(Database db, ColumnFamilyHandle family, ReadOptions options, MemorySegment key,
                           MemorySegment value);

    /**
     * The value of {@code key} in {@code family} as the batch written over {@code db} would
     * leave it, as a new array.
     *
     * @param db      the database (as for the segment form)
     * @param family  the column family, of {@code db}
     * @param options read options (their snapshot, if any, must be {@code db}'s)
     * @param key     the key
     * @return a copy of the value, or {@code null} when absent
     * @throws IllegalArgumentException if {@code family} or the snapshot belongs to another database
     * @throws UnsupportedOperationException for a {@link TransactionDB} on RocksDB 7.x, or a
     *         value larger than a {@code byte[]} can hold
     * @throws RocksDBException if the read fails
     * @throws IllegalStateException if anything is closed
     */
    byte[] getFromBatchAndDB(Database db, ColumnFamilyHandle family, ReadOptions options, byte[] key);

    /**
     * Reads {@code key} in {@code family} through the batch to {@code db} without copying a
     * value of the database ({@code rocksdb_writebatch_wi_get_pinned_from_batch_and_db_cf}): a
     * value the batch gives is copied into the result, one from the database stays pinned.
     *
     * @param db      the database (as for the segment form)
     * @param family  the column family, of {@code db}
     * @param options read options
     * @param key     the key
     * @return the pinned value, owned by the caller and confined to this thread (the database
     *         refuses to close while it is open), or {@code null} when absent
     * @throws UnsupportedOperationException on engines without the function (of the supported
     *         ones, RocksDB 7.8.3 and 10.1.3), and for a {@link TransactionDB} on RocksDB 7.x
     * @throws IllegalArgumentException if {@code family} or the snapshot belongs to another database
     * @throws RocksDBException if the read fails
     * @throws IllegalStateException if anything is closed
     */
    PinnedValue getPinnedFromBatchAndDB(Database db, ColumnFamilyHandle family, ReadOptions options,
                                        MemorySegment key);

    /**
     * An iterator over {@code family} of {@code db} with this batch's writes merged over it, not
     * yet positioned. The batch, the database, options and family refuse to close (and the batch
     * to change) while it is open.
     *
     * @param db      the database (as for {@code getFromBatchAndDB})
     * @param family  the column family, of {@code db}
     * @param options read options
     * @return the iterator, confined to this thread, owned by the caller
     * @throws IllegalArgumentException if {@code family} or the snapshot belongs to another database
     * @throws IllegalStateException if anything is closed
     */
    RocksIterator newIteratorWithBase(Database db, ColumnFamilyHandle family, ReadOptions options);

    // ---- conveniences --------------------------------------------------------------------------

    /**
     * {@link #getFromBatch(ColumnFamilyHandle, Options, byte[])} with RocksDB's default options.
     *
     * @param family the column family
     * @param key    the key
     * @return a copy of the value, or {@code null}
     */
    default byte[] getFromBatch(ColumnFamilyHandle family, byte[] key) {
        return getFromBatch(family, WriteBatchWithIndex.DEFAULT_OPTIONS, key);
    }

    /**
     * {@link #getFromBatch(Options, byte[])} with RocksDB's default options.
     *
     * @param key the key
     * @return a copy of the value, or {@code null}
     */
    default byte[] getFromBatch(byte[] key) {
        return getFromBatch(WriteBatchWithIndex.DEFAULT_OPTIONS, key);
    }

    /**
     * {@link #getFromBatchAndDB(Database, ColumnFamilyHandle, ReadOptions, MemorySegment, MemorySegment)}
     * in {@code db}'s default family.
     *
     * @param db      the database
     * @param options read options
     * @param key     the key
     * @param value   where the value goes (writable)
     * @return the value's length, or -1 when absent
     */
    default long getFromBatchAndDB(Database db, ReadOptions options, MemorySegment key, MemorySegment value) {
        return getFromBatchAndDB(db, Objects.requireNonNull(db, "db").defaultColumnFamily(), options, key, value);
    }

    /**
     * {@link #getFromBatchAndDB(Database, ColumnFamilyHandle, ReadOptions, byte[])} in {@code db}'s
     * default family, with default read options.
     *
     * @param db  the database
     * @param key the key
     * @return a copy of the value, or {@code null} when absent
     */
    default byte[] getFromBatchAndDB(Database db, byte[] key) {
        return getFromBatchAndDB(db, Objects.requireNonNull(db, "db").defaultColumnFamily(), ReadOptions.DEFAULT, key);
    }

    /**
     * {@link #getFromBatchAndDB(Database, ColumnFamilyHandle, ReadOptions, byte[])} with default
     * read options.
     *
     * @param db     the database
     * @param family the column family, of {@code db}
     * @param key    the key
     * @return a copy of the value, or {@code null} when absent
     */
    default byte[] getFromBatchAndDB(Database db, ColumnFamilyHandle family, byte[] key) {
        return getFromBatchAndDB(db, family, ReadOptions.DEFAULT, key);
    }

    /**
     * {@link #getFromBatchAndDB(Database, ColumnFamilyHandle, ReadOptions, byte[])} in {@code db}'s
     * default family.
     *
     * @param db      the database
     * @param options read options
     * @param key     the key
     * @return a copy of the value, or {@code null} when absent
     */
    default byte[] getFromBatchAndDB(Database db, ReadOptions options, byte[] key) {
        return getFromBatchAndDB(db, Objects.requireNonNull(db, "db").defaultColumnFamily(), options, key);
    }

    /**
     * {@link #getPinnedFromBatchAndDB(Database, ColumnFamilyHandle, ReadOptions, MemorySegment)} in
     * {@code db}'s default family.
     *
     * @param db      the database
     * @param options read options
     * @param key     the key
     * @return the pinned value, owned by the caller, or {@code null} when absent
     */
    default PinnedValue getPinnedFromBatchAndDB(Database db, ReadOptions options, MemorySegment key) {
        return getPinnedFromBatchAndDB(db, Objects.requireNonNull(db, "db").defaultColumnFamily(), options, key);
    }

    /**
     * {@link #newIteratorWithBase(Database, ColumnFamilyHandle, ReadOptions)} over {@code db}'s
     * default family.
     *
     * @param db      the database
     * @param options read options
     * @return the iterator, owned by the caller
     */
    default RocksIterator newIteratorWithBase(Database db, ReadOptions options) {
        return newIteratorWithBase(db, Objects.requireNonNull(db, "db").defaultColumnFamily(), options);
    }
}
