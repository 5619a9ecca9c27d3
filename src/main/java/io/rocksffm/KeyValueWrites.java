package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Writes of keys and values, declared once for every surface that offers them (a {@link RocksDB}
 * today; transactional databases later).
 *
 * <p>Each operation has one core method taking a {@link ColumnFamilyHandle}, {@link WriteOptions}
 * and {@link MemorySegment}s; the other forms are written here once, as default methods: the
 * default family, default write options (RocksDB's defaults: no sync), and {@code byte[]} keys
 * and values. Keys and values are copied by RocksDB: the caller's memory may be reused as soon as
 * a method returns. Failures throw {@link RocksDBException}; a closed surface, family or options
 * throws {@link IllegalStateException}.
 */
public sealed interface KeyValueWrites permits Database {

    /**
     * The family the forms without a handle write.
     *
     * @return the default column family's handle (owned by the surface)
     * @throws IllegalStateException if closed
     */
    ColumnFamilyHandle defaultColumnFamily();

    // ---- core methods ----------------------------------------------------------------------------

    /**
     * Stores {@code value} under {@code key} in {@code family}.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @param value   the value
     * @throws RocksDBException if RocksDB refuses the write (e.g. a read-only database)
     */
    void put(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value);

    /**
     * Removes {@code key} from {@code family} (a no-op when it is absent).
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @throws RocksDBException if RocksDB refuses the write
     */
    void delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key);

    /**
     * Removes every key in {@code [begin, end)} (in the family's order: its comparator, Java or
     * built-in however it was set, else bytewise) from {@code family}.
     *
     * @param family  the column family
     * @param options write options
     * @param begin   the first key removed
     * @param end     the first key kept
     * @throws IllegalArgumentException if {@code end} sorts before {@code begin} in the family's
     *         order, or a bound exceeds RocksDB's limit (4 GiB - 1 bytes)
     * @throws RocksDBException if RocksDB refuses the write
     */
    void deleteRange(ColumnFamilyHandle family, WriteOptions options, MemorySegment begin, MemorySegment end);

    /**
     * Applies every operation of {@code batch} atomically (its column-family records go to the
     * families with those ids). The batch is unchanged and may be written again.
     *
     * @param options write options
     * @param batch   the batch
     * @throws IllegalArgumentException if the batch names a column family the surface does not
     *         have (or was made with handles of another database), holds merge records for a
     *         family without a merge operator, or a range deletion that ends before it begins in
     *         its family's order; nothing of the batch is applied then
     * @throws RocksDBException if RocksDB refuses the write; nothing of the batch is applied then
     */
    void write(WriteOptions options, WriteBatch batch);

    /**
     * Merges {@code value} (an operand) into {@code key} of {@code family}, with the merge
     * operator the family was opened or created with ({@link Options#setMergeOperator}). RocksDB
     * stores the operand and combines it on reads, flushes and compactions.
     *
     * @param family  the column family
     * @param options write options
     * @param key     the key
     * @param value   the merge operand
     * @throws IllegalArgumentException if the family has no merge operator
     * @throws RocksDBException if RocksDB refuses the write
     */
    void merge(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value);

    /**
     * Merges {@code value} into {@code key} of the default family, with default write options.
     *
     * @param key   the key
     * @param value the merge operand
     * @throws IllegalArgumentException if the family has no merge operator
     */
    default void merge(byte[] key, byte[] value) {
        merge(defaultColumnFamily(), WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * Merges {@code value} into {@code key} of {@code family}, with default write options.
     *
     * @param family the column family
     * @param key    the key
     * @param value  the merge operand
     * @throws IllegalArgumentException if the family has no merge operator
     */
    default void merge(ColumnFamilyHandle family, byte[] key, byte[] value) {
        merge(family, WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    // ---- conveniences --------------------------------------------------------------------------

    /**
     * {@link #put(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param key     the key
     * @param value   the value
     */
    default void put(WriteOptions options, MemorySegment key, MemorySegment value) {
        put(defaultColumnFamily(), options, key, value);
    }

    /**
     * Stores {@code value} under {@code key} in the default family, with default write options.
     *
     * @param key   the key
     * @param value the value
     */
    default void put(byte[] key, byte[] value) {
        put(defaultColumnFamily(), WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * Stores {@code value} under {@code key} in {@code family}, with default write options.
     *
     * @param family the column family
     * @param key    the key
     * @param value  the value
     */
    default void put(ColumnFamilyHandle family, byte[] key, byte[] value) {
        put(family, WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * {@link #delete(ColumnFamilyHandle, WriteOptions, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param key     the key
     */
    default void delete(WriteOptions options, MemorySegment key) {
        delete(defaultColumnFamily(), options, key);
    }

    /**
     * Removes {@code key} from the default family, with default write options.
     *
     * @param key the key
     */
    default void delete(byte[] key) {
        delete(defaultColumnFamily(), WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * Removes {@code key} from {@code family}, with default write options.
     *
     * @param family the column family
     * @param key    the key
     */
    default void delete(ColumnFamilyHandle family, byte[] key) {
        delete(family, WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * {@link #deleteRange(ColumnFamilyHandle, WriteOptions, MemorySegment, MemorySegment)} in the default family.
     *
     * @param options write options
     * @param begin   the first key removed
     * @param end     the first key kept
     */
    default void deleteRange(WriteOptions options, MemorySegment begin, MemorySegment end) {
        deleteRange(defaultColumnFamily(), options, begin, end);
    }

    /**
     * Removes every key in {@code [begin, end)} from the default family, with default write options.
     *
     * @param begin the first key removed
     * @param end   the first key kept
     */
    default void deleteRange(byte[] begin, byte[] end) {
        deleteRange(defaultColumnFamily(), WriteOptions.DEFAULT, MemorySegment.ofArray(Objects.requireNonNull(begin, "begin")),
                MemorySegment.ofArray(Objects.requireNonNull(end, "end")));
    }
}
