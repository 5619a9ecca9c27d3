package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The write surface, declared once for everything that takes writes: every {@link Database}, a
 * {@link Transaction}, a {@link WriteBatch} and a {@link WriteBatchWithIndex} offer exactly these
 * methods, and a database adds a {@link WriteOptions} form
 * of each ({@link KeyValueWrites}).
 *
 * {@snippet id="Writes" :
 * // One method for every write surface: a database, a transaction, a batch
 * static <T extends Writes<T>> T putUser(Writes<T> target, int id, String name) {
 *     return target.put(("user:" + id).getBytes(UTF_8), name.getBytes(UTF_8));
 * }
 * // putUser(db, 1, "alice"); putUser(batch, 2, "bob"); putUser(tx, 3, "carol");
 * }
 *
 * <p>Each operation ({@code put}, {@code merge}, {@code delete}, {@code singleDelete},
 * {@code deleteRange}) has two core methods on {@link MemorySegment}s, one taking a
 * {@link ColumnFamilyHandle} and one for the default family (a batch does not know its
 * database's default family handle, so it writes family id 0); the {@code byte[]} forms are
 * written here once. Every method returns the surface ({@code T}), so writes chain:
 * {@code batch.put(k1, v1).delete(k2)}. Keys and values are copied: the caller's memory may be
 * reused as soon as a method returns.
 *
 * <p><b>One contract.</b> Each operation means the same on every surface that supports it. An
 * operation a surface does not support is refused there, always with
 * {@link UnsupportedOperationException}, after the same argument and state checks as a supported
 * write (so a null key is still a {@link NullPointerException}, a closed surface still an
 * {@link IllegalStateException}), and nothing is written:
 * <table>
 * <caption>Refused writes</caption>
 * <tr><th>surface</th><th>refuses</th><th>why</th></tr>
 * <tr><td>{@link Transaction}</td><td>{@code singleDelete}, {@code deleteRange}</td>
 *     <td>RocksDB's C API has no single deletion for a transaction; transactions lock keys,
 *     not ranges</td></tr>
 * <tr><td>{@link TransactionDB}</td><td>{@code deleteRange} (also as a record of a written
 *     {@link WriteBatch})</td><td>its transactions lock keys, not ranges</td></tr>
 * <tr><td>{@link WriteBatchWithIndex}</td><td>{@code deleteRange}</td><td>RocksDB's indexed
 *     batch has no range deletions</td></tr>
 * </table>
 * Everything else is supported everywhere; a range deletion goes to a {@link RocksDB} or an
 * {@link OptimisticTransactionDB}, directly or in a {@link WriteBatch}.
 *
 * @param <T> the surface's own type, which every method returns
 */
public sealed interface Writes<T extends Writes<T>> permits KeyValueWrites, Transaction, WriteBatch, WriteBatchWithIndex {

    // ---- core methods ----------------------------------------------------------------------------

    /**
     * Stores {@code value} under {@code key} in {@code family}.
     *
     * @param family the column family
     * @param key    the key
     * @param value  the value
     * @return this surface
     * @throws RocksDBException if RocksDB refuses the write
     * @throws IllegalStateException if the surface or family is closed
     */
    T put(ColumnFamilyHandle family, MemorySegment key, MemorySegment value);

    /**
     * Stores {@code value} under {@code key} in the default family.
     *
     * @param key   the key
     * @param value the value
     * @return this surface
     * @throws RocksDBException if RocksDB refuses the write
     */
    T put(MemorySegment key, MemorySegment value);

    /**
     * Merges {@code value} (an operand) into {@code key} of {@code family}, with the merge
     * operator the family was opened or created with ({@link Options#setMergeOperator}).
     *
     * @param family the column family
     * @param key    the key
     * @param value  the merge operand
     * @return this surface
     * @throws IllegalArgumentException if the family has no merge operator (a batch is checked
     *         when it is written)
     * @throws RocksDBException if RocksDB refuses the write
     */
    T merge(ColumnFamilyHandle family, MemorySegment key, MemorySegment value);

    /**
     * Merges {@code value} into {@code key} of the default family.
     *
     * @param key   the key
     * @param value the merge operand
     * @return this surface
     * @throws IllegalArgumentException if the family has no merge operator
     */
    T merge(MemorySegment key, MemorySegment value);

    /**
     * Removes {@code key} from {@code family}.
     *
     * @param family the column family
     * @param key    the key
     * @return this surface
     * @throws RocksDBException if RocksDB refuses the write
     */
    T delete(ColumnFamilyHandle family, MemorySegment key);

    /**
     * Removes {@code key} from the default family.
     *
     * @param key the key
     * @return this surface
     * @throws RocksDBException if RocksDB refuses the write
     */
    T delete(MemorySegment key);

    /**
     * Removes {@code key} from {@code family}, which must have been put at most once since its
     * last deletion and not merged (RocksDB's {@code SingleDelete}; otherwise the result is
     * undefined).
     *
     * @param family the column family
     * @param key    the key
     * @return this surface
     * @throws UnsupportedOperationException on a {@link Transaction} (RocksDB's C API has no
     *         single deletion for one): use {@code delete} there
     * @throws RocksDBException if RocksDB refuses the write
     */
    T singleDelete(ColumnFamilyHandle family, MemorySegment key);

    /**
     * {@link #singleDelete(ColumnFamilyHandle, MemorySegment)} in the default family.
     *
     * @param key the key
     * @return this surface
     */
    T singleDelete(MemorySegment key);

    /**
     * Removes every key in {@code [begin, end)} of {@code family}.
     *
     * @param family the column family
     * @param begin  the first key of the range (inclusive)
     * @param end    the end of the range (exclusive)
     * @return this surface
     * @throws IllegalArgumentException if {@code end} sorts before {@code begin} in the family's
     *         order (a {@link WriteBatch} is checked when it is written)
     * @throws UnsupportedOperationException on a {@link Transaction} and a {@link TransactionDB}
     *         (RocksDB's transactions lock keys, not ranges) and a {@link WriteBatchWithIndex}
     *         (RocksDB's indexed batch has no range deletions): write the range deletion to a
     *         {@link RocksDB} or an {@link OptimisticTransactionDB}, directly or in a {@link WriteBatch}
     * @throws RocksDBException if RocksDB refuses the write
     */
    T deleteRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end);

    /**
     * {@link #deleteRange(ColumnFamilyHandle, MemorySegment, MemorySegment)} in the default family.
     *
     * @param begin the first key of the range (inclusive)
     * @param end   the end of the range (exclusive)
     * @return this surface
     */
    T deleteRange(MemorySegment begin, MemorySegment end);

    // ---- byte[] forms ----------------------------------------------------------------------------

    /**
     * {@link #put(MemorySegment, MemorySegment)} for arrays.
     *
     * @param key   the key
     * @param value the value
     * @return this surface
     */
    default T put(byte[] key, byte[] value) {
        return put(MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * {@link #put(ColumnFamilyHandle, MemorySegment, MemorySegment)} for arrays.
     *
     * @param family the column family
     * @param key    the key
     * @param value  the value
     * @return this surface
     */
    default T put(ColumnFamilyHandle family, byte[] key, byte[] value) {
        return put(family, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * {@link #merge(MemorySegment, MemorySegment)} for arrays.
     *
     * @param key   the key
     * @param value the merge operand
     * @return this surface
     */
    default T merge(byte[] key, byte[] value) {
        return merge(MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * {@link #merge(ColumnFamilyHandle, MemorySegment, MemorySegment)} for arrays.
     *
     * @param family the column family
     * @param key    the key
     * @param value  the merge operand
     * @return this surface
     */
    default T merge(ColumnFamilyHandle family, byte[] key, byte[] value) {
        return merge(family, MemorySegment.ofArray(Objects.requireNonNull(key, "key")),
                MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * {@link #delete(MemorySegment)} for arrays.
     *
     * @param key the key
     * @return this surface
     */
    default T delete(byte[] key) {
        return delete(MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * {@link #delete(ColumnFamilyHandle, MemorySegment)} for arrays.
     *
     * @param family the column family
     * @param key    the key
     * @return this surface
     */
    default T delete(ColumnFamilyHandle family, byte[] key) {
        return delete(family, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * {@link #singleDelete(MemorySegment)} for arrays.
     *
     * @param key the key
     * @return this surface
     */
    default T singleDelete(byte[] key) {
        return singleDelete(MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * {@link #singleDelete(ColumnFamilyHandle, MemorySegment)} for arrays.
     *
     * @param family the column family
     * @param key    the key
     * @return this surface
     */
    default T singleDelete(ColumnFamilyHandle family, byte[] key) {
        return singleDelete(family, MemorySegment.ofArray(Objects.requireNonNull(key, "key")));
    }

    /**
     * {@link #deleteRange(MemorySegment, MemorySegment)} for arrays.
     *
     * @param begin the first key of the range (inclusive)
     * @param end   the end of the range (exclusive)
     * @return this surface
     */
    default T deleteRange(byte[] begin, byte[] end) {
        return deleteRange(MemorySegment.ofArray(Objects.requireNonNull(begin, "begin")),
                MemorySegment.ofArray(Objects.requireNonNull(end, "end")));
    }

    /**
     * {@link #deleteRange(ColumnFamilyHandle, MemorySegment, MemorySegment)} for arrays.
     *
     * @param family the column family
     * @param begin  the first key of the range (inclusive)
     * @param end    the end of the range (exclusive)
     * @return this surface
     */
    default T deleteRange(ColumnFamilyHandle family, byte[] begin, byte[] end) {
        return deleteRange(family, MemorySegment.ofArray(Objects.requireNonNull(begin, "begin")),
                MemorySegment.ofArray(Objects.requireNonNull(end, "end")));
    }
}
