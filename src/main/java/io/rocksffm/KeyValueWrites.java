package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The writes of a database: the {@link Writes} every surface shares, plus a form taking
 * {@link WriteOptions} of each, and the batch writes ({@link #write(WriteOptions, WriteBatch)},
 * {@link #write(WriteOptions, WriteBatchWithIndex)}, each also without options).
 *
 * <p>Each operation has one core method taking a {@link ColumnFamilyHandle}, {@link WriteOptions}
 * and {@link MemorySegment}s; the other forms are written once, as default methods: the default
 * family, default write options ({@link WriteOptions#DEFAULT}, RocksDB's defaults: no sync), and
 * {@code byte[]} keys and values. Keys and values are copied by RocksDB: the caller's memory may
 * be reused as soon as a method returns. Every method returns the database. Failures throw
 * {@link RocksDBException}; a closed database, family or options throws
 * {@link IllegalStateException}.
 */
public sealed interface KeyValueWrites extends Writes<Database> permits Database {

    /**
     * The family the forms without a handle write.
     *
     * @return the default column family's handle (owned by the database)
     * @throws IllegalStateException if closed
     */
    ColumnFamilyHandle defaultColumnFamily();

    /**
     * Applies every operation of {@code batch} atomically (its column-family records go to the
     * families with those ids). The batch is unchanged and may be written again.
     *
     * @param options write options
     * @param batch   the batch
     * @throws IllegalArgumentException if the batch names a column family the database does not
     *         have (or was made with handles of another database), holds merge records for a
     *         family without a merge operator, or a range deletion that ends before it begins in
     *         its family's order; nothing of the batch is applied then
     * @throws UnsupportedOperationException if the batch holds a range deletion and this is a
     *         {@link TransactionDB} (as its {@code deleteRange}); nothing is applied then
     * @throws RocksDBException if RocksDB refuses the write; nothing of the batch is applied then
     */
    void write(WriteOptions options, WriteBatch batch);

    /**
     * {@link #write(WriteOptions, WriteBatch)} with the default write options.
     *
     * @param batch the batch
     * @throws IllegalArgumentException as {@link #write(WriteOptions, WriteBatch)}
     * @throws UnsupportedOperationException as {@link #write(WriteOptions, WriteBatch)}
     * @throws RocksDBException if RocksDB refuses the write; nothing of the batch is applied then
     */
    default void write(WriteBatch batch) {
        write(WriteOptions.DEFAULT, batch);
    }

    /**
     * Applies every operation of an indexed batch atomically. The batch is unchanged and may be
     * written again. A {@link RocksDB} writes it directly; the transaction databases, whose C API
     * writes only plain batches, write a copy of its records (their commit logic and locks apply
     * as for {@link #write(WriteOptions, WriteBatch)}).
     *
     * @param options write options
     * @param batch   the batch
     * @throws IllegalArgumentException if the batch holds records for a family of another
     *         database, or one dropped since (checked before RocksDB sees the batch)
     * @throws IllegalStateException if this database, the options or the batch is closed
     * @throws RocksDBException if RocksDB refuses the write; nothing of the batch is applied then
     */
    void write(WriteOptions options, WriteBatchWithIndex batch);

    /**
     * {@link #write(WriteOptions, WriteBatchWithIndex)} with the default write options.
     *
     * @param batch the batch
     * @throws IllegalArgumentException as {@link #write(WriteOptions, WriteBatchWithIndex)}
     * @throws RocksDBException if RocksDB refuses the write; nothing of the batch is applied then
     */
    default void write(WriteBatchWithIndex batch) {
        write(WriteOptions.DEFAULT, batch);
    }

    // ---- put ---------------------------------------------------------------------------------------

    /**
     * Stores {@code value} under {@code key} in {@code family}.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @param value   the value
     * @return this database
     * @throws RocksDBException if RocksDB refuses the write (e.g. a read-only database)
     */
    Database put(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value);

    /**
     * {@link #put(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param key     the key
     * @param value   the value
     * @return this database
     */
    default Database put(WriteOptions options, MemorySegment key, MemorySegment value) {
        return put(defaultColumnFamily(), options, key, value);
    }

    /**
     * {@link #put(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} for arrays.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @param value   the value
     * @return this database
     */
    default Database put(ColumnFamilyHandle family, WriteOptions options, byte[] key, byte[] value) {
        return put(family, options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")), MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * {@link #put(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family, for arrays.
     *
     * @param options write options
     * @param key     the key
     * @param value   the value
     * @return this database
     */
    default Database put(WriteOptions options, byte[] key, byte[] value) {
        return put(defaultColumnFamily(), options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")), MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    // With default write options (the interface's documentation applies).
    @Override
    default Database put(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        return put(family, WriteOptions.DEFAULT, key, value);
    }

    // In the default family, with default write options.
    @Override
    default Database put(MemorySegment key, MemorySegment value) {
        return put(defaultColumnFamily(), WriteOptions.DEFAULT, key, value);
    }

    // ---- merge -------------------------------------------------------------------------------------

    /**
     * Merges {@code value} (an operand) into {@code key} of {@code family}, with the merge
     * operator the family was opened or created with ({@link Options#setMergeOperator}). RocksDB
     * stores the operand and combines it on reads, flushes and compactions.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @param value   the merge operand
     * @return this database
     * @throws IllegalArgumentException if the family has no merge operator
     * @throws RocksDBException if RocksDB refuses the write
     */
    Database merge(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value);

    /**
     * {@link #merge(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param key     the key
     * @param value   the merge operand
     * @return this database
     */
    default Database merge(WriteOptions options, MemorySegment key, MemorySegment value) {
        return merge(defaultColumnFamily(), options, key, value);
    }

    /**
     * {@link #merge(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} for arrays.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @param value   the merge operand
     * @return this database
     */
    default Database merge(ColumnFamilyHandle family, WriteOptions options, byte[] key, byte[] value) {
        return merge(family, options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")), MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * {@link #merge(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family, for arrays.
     *
     * @param options write options
     * @param key     the key
     * @param value   the merge operand
     * @return this database
     */
    default Database merge(WriteOptions options, byte[] key, byte[] value) {
        return merge(defaultColumnFamily(), options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")), MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    // With default write options (the interface's documentation applies).
    @Override
    default Database merge(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        return merge(family, WriteOptions.DEFAULT, key, value);
    }

    // In the default family, with default write options.
    @Override
    default Database merge(MemorySegment key, MemorySegment value) {
        return merge(defaultColumnFamily(), WriteOptions.DEFAULT, key, value);
    }

    // ---- delete ------------------------------------------------------------------------------------

    /**
     * Removes {@code key} from {@code family} (a no-op when it is absent).
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @return this database
     * @throws RocksDBException if RocksDB refuses the write
     */
    Database delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key);

    /**
     * {@link #delete(ColumnFamilyHandle, WriteOptions, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param key     the key
     * @return this database
     */
    default Database delete(WriteOptions options, MemorySegment key) {
        return delete(defaultColumnFamily(), options, key);
    }

    /**
     * {@link #delete(ColumnFamilyHandle, WriteOptions, MemorySegment)} for arrays.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @return this database
     */
    default Database delete(ColumnFamilyHandle family, WriteOptions options, byte[] key) {
        return delete(family, options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * {@link #delete(ColumnFamilyHandle, WriteOptions, MemorySegment)} in the default family, for arrays.
     *
     * @param options write options
     * @param key     the key
     * @return this database
     */
    default Database delete(WriteOptions options, byte[] key) {
        return delete(defaultColumnFamily(), options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    // With default write options (the interface's documentation applies).
    @Override
    default Database delete(ColumnFamilyHandle family, MemorySegment key) {
        return delete(family, WriteOptions.DEFAULT, key);
    }

    // In the default family, with default write options.
    @Override
    default Database delete(MemorySegment key) {
        return delete(defaultColumnFamily(), WriteOptions.DEFAULT, key);
    }

    // ---- singleDelete ------------------------------------------------------------------------------

    /**
     * Removes {@code key} from {@code family}, which must have been put at most once since its
     * last deletion and not merged (RocksDB's {@code SingleDelete}; otherwise the result is
     * undefined).
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @return this database
     * @throws RocksDBException if RocksDB refuses the write
     */
    Database singleDelete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key);

    /**
     * {@link #singleDelete(ColumnFamilyHandle, WriteOptions, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param key     the key
     * @return this database
     */
    default Database singleDelete(WriteOptions options, MemorySegment key) {
        return singleDelete(defaultColumnFamily(), options, key);
    }

    /**
     * {@link #singleDelete(ColumnFamilyHandle, WriteOptions, MemorySegment)} for arrays.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @return this database
     */
    default Database singleDelete(ColumnFamilyHandle family, WriteOptions options, byte[] key) {
        return singleDelete(family, options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * {@link #singleDelete(ColumnFamilyHandle, WriteOptions, MemorySegment)} in the default family, for arrays.
     *
     * @param options write options
     * @param key     the key
     * @return this database
     */
    default Database singleDelete(WriteOptions options, byte[] key) {
        return singleDelete(defaultColumnFamily(), options, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    // With default write options (the interface's documentation applies).
    @Override
    default Database singleDelete(ColumnFamilyHandle family, MemorySegment key) {
        return singleDelete(family, WriteOptions.DEFAULT, key);
    }

    // In the default family, with default write options.
    @Override
    default Database singleDelete(MemorySegment key) {
        return singleDelete(defaultColumnFamily(), WriteOptions.DEFAULT, key);
    }

    // ---- deleteRange -------------------------------------------------------------------------------

    /**
     * Removes every key in {@code [begin, end)} (in the family's order: its comparator, Java or
     * built-in however it was set, else bytewise) from {@code family}.
     *
     * @param family  the column family
     * @param options write options
     * @param begin   the first key removed
     * @param end     the first key kept
     * @return this database
     * @throws IllegalArgumentException if {@code end} sorts before {@code begin} in the family's
     *         order, or a bound exceeds RocksDB's limit (4 GiB - 1 bytes)
     * @throws UnsupportedOperationException on a {@link TransactionDB}, which cannot lock a range
     *         ({@link Writes} lists what each surface refuses)
     * @throws RocksDBException if RocksDB refuses the write
     */
    Database deleteRange(ColumnFamilyHandle family, WriteOptions options, MemorySegment begin, MemorySegment end);

    /**
     * {@link #deleteRange(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param begin   the first key removed
     * @param end     the first key kept
     * @return this database
     */
    default Database deleteRange(WriteOptions options, MemorySegment begin, MemorySegment end) {
        return deleteRange(defaultColumnFamily(), options, begin, end);
    }

    /**
     * {@link #deleteRange(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} for arrays.
     *
     * @param family  the column family
     * @param options write options
     * @param begin   the first key removed
     * @param end     the first key kept
     * @return this database
     */
    default Database deleteRange(ColumnFamilyHandle family, WriteOptions options, byte[] begin, byte[] end) {
        return deleteRange(family, options, MemorySegment.ofArray(Objects.requireNonNull(begin, "begin")), MemorySegment.ofArray(Objects.requireNonNull(end, "end")));
    }

    /**
     * {@link #deleteRange(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family, for arrays.
     *
     * @param options write options
     * @param begin   the first key removed
     * @param end     the first key kept
     * @return this database
     */
    default Database deleteRange(WriteOptions options, byte[] begin, byte[] end) {
        return deleteRange(defaultColumnFamily(), options, MemorySegment.ofArray(Objects.requireNonNull(begin, "begin")), MemorySegment.ofArray(Objects.requireNonNull(end, "end")));
    }

    // With default write options (the interface's documentation applies).
    @Override
    default Database deleteRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        return deleteRange(family, WriteOptions.DEFAULT, begin, end);
    }

    // In the default family, with default write options.
    @Override
    default Database deleteRange(MemorySegment begin, MemorySegment end) {
        return deleteRange(defaultColumnFamily(), WriteOptions.DEFAULT, begin, end);
    }
}
