package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Reads of keys and values, declared once for every surface that offers them (a {@link RocksDB}
 * today; transactional databases, transactions and indexed batches later).
 *
 * {@snippet id="KeyValueReads" :
 * // values: "1" and null (absent)
 * List<byte[]> values = db.multiGetAsList(List.of("a".getBytes(UTF_8), "x".getBytes(UTF_8)));
 * try (ReadOptions read = new ReadOptions();
 *      Stream<Map.Entry<byte[], byte[]>> entries = db.stream(read)) {   // it holds an iterator
 *     long count = entries.count();                                     // 2
 * }
 * }
 *
 * <p>Each operation has one core method taking a {@link ColumnFamilyHandle}, {@link ReadOptions}
 * and {@link MemorySegment}s; the other forms are written here once, as default methods: the
 * default family ({@link #defaultColumnFamily()}), default read options (RocksDB's defaults), and
 * {@code byte[]} keys and values. Keys and values are whole segments ({@code byteSize()} bytes),
 * native or heap; an absent key is a value ({@code -1} or {@code null}), never an exception.
 * Failures throw {@link RocksDBException}; a closed surface, family, options or snapshot throws
 * {@link IllegalStateException}. Safe to call from any thread where the implementation says so
 * ({@link RocksDB} is).
 */
public sealed interface KeyValueReads permits Database, Transaction {

    /**
     * The family the forms without a handle read.
     *
     * @return the default column family's handle (owned by the surface)
     * @throws IllegalStateException if closed
     */
    ColumnFamilyHandle defaultColumnFamily();

    // ---- core methods ----------------------------------------------------------------------------

    /**
     * Copies the value of {@code key} in {@code family} into {@code value} and returns the
     * value's full length, or -1 when the key is absent. When the result exceeds
     * {@code value.byteSize()}, only the first {@code value.byteSize()} bytes were copied: retry
     * with a larger segment. Allocates nothing.
     *
     * @param family  the column family
     * @param options read options (snapshot, ...)
     * @param key     the key (native or heap)
     * @param value   where the value goes (native or heap, writable)
     * @return the value's length, or -1 when absent
     * @throws IllegalArgumentException if {@code value} is read-only, or the options carry a
     *         snapshot of another database
     * @throws RocksDBException if the read fails
     */
    long get(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value);

    /**
     * The value of {@code key} in {@code family} as a new array.
     *
     * @param family  the column family
     * @param options read options
     * @param key     the key
     * @return a copy of the value, or {@code null} when absent
     * @throws RocksDBException if the read fails
     * @throws UnsupportedOperationException if the value is larger than a {@code byte[]} can hold
     *         (2 GiB less 8 bytes; RocksDB's values reach 4 GiB): read it into a segment or pinned
     */
    byte[] get(ColumnFamilyHandle family, ReadOptions options, byte[] key);

    /**
     * Reads {@code key} in {@code family} without copying: the returned value views RocksDB's
     * memory until it is closed (and confines it to this thread).
     *
     * @param family  the column family
     * @param options read options
     * @param key     the key
     * @return the pinned value, owned by the caller, or {@code null} when absent
     * @throws RocksDBException if the read fails
     * @see PinnedValue
     */
    PinnedValue getPinned(ColumnFamilyHandle family, ReadOptions options, MemorySegment key);

    /**
     * Reads many keys of {@code family} in one batched call (RocksDB's {@code MultiGet}), without
     * allocating: the value of {@code keys[i]} is copied into {@code values[i]} (as much as fits;
     * a {@code null} entry only measures), and {@code lengths[i]} receives its full length, or -1
     * when the key is absent or its read failed. A failed read puts its {@link RocksDBException}
     * in {@code errors[i]} (otherwise set to {@code null}): errors are per key.
     *
     * @param family      the column family
     * @param options     read options
     * @param keys        the keys
     * @param values      where the values go (entries may be {@code null})
     * @param lengths     receives each value's length, or -1
     * @param errors      receives each key's error, or {@code null}
     * @param sortedInput the keys are in ascending bytewise order (checked), which saves a sort
     * @return the number of keys found
     * @throws IllegalArgumentException if the arrays differ in length, a value segment is
     *         read-only, or {@code sortedInput} is claimed for unsorted keys
     */
    int multiGet(ColumnFamilyHandle family, ReadOptions options, MemorySegment[] keys, MemorySegment[] values,
                 long[] lengths, RocksDBException[] errors, boolean sortedInput);

    /**
     * The values of {@code keys} in {@code family}, in order, {@code null} where absent.
     *
     * @param family  the column family
     * @param options read options
     * @param keys    the keys
     * @return the values (a fixed-size list)
     * @throws RocksDBException if any key's read failed (the first failure, the others
     *         suppressed); use {@link #multiGet} for per-key errors
     * @throws UnsupportedOperationException if a value is larger than a {@code byte[]} can hold
     *         (every key's result is released first); use {@link #multiGet} for such values
     */
    List<byte[]> multiGetAsList(ColumnFamilyHandle family, ReadOptions options, List<byte[]> keys);

    /**
     * A new iterator over {@code family}, not yet positioned (call a seek first). The surface,
     * the family's handle, the options and their snapshot stay open at least as long as it does.
     *
     * Forward scans prefetch only if the options ask for it ({@link ReadOptions#setPrefetchBytes}).
     *
     * @param family  the column family
     * @param options read options (bounds, snapshot, prefetch, ...)
     * @return the iterator, owned by the caller and confined to this thread
     * @throws IllegalArgumentException if the options carry a snapshot of another database
     */
    RocksIterator newIterator(ColumnFamilyHandle family, ReadOptions options);

    /**
     * Whether {@code key} may be in {@code family} ({@code KeyMayExist}): false means it certainly
     * is not; true means it may be (a get tells). A database answers from memory only (memtables,
     * the block cache, filters), without reading table files, so it is cheaper than a get. A
     * {@link Transaction} answers exactly, with a read that sees its own writes (the C API has no
     * may-exist for a transaction).
     *
     * @param family  the column family
     * @param options the read options (a snapshot in them is honoured)
     * @param key     the key
     * @return false if the key is certainly absent
     * @throws IllegalStateException if the surface, family or options are closed
     */
    boolean keyMayExist(ColumnFamilyHandle family, ReadOptions options, byte[] key);

    // ---- conveniences --------------------------------------------------------------------------

    /**
     * {@link #get(ColumnFamilyHandle, ReadOptions, MemorySegment, MemorySegment)} in the default family.
     *
     * @param options read options
     * @param key     the key
     * @param value   where the value goes
     * @return the value's length, or -1 when absent
     */
    default long get(ReadOptions options, MemorySegment key, MemorySegment value) {
        return get(defaultColumnFamily(), options, key, value);
    }

    /**
     * The value of {@code key} in the default family, with default read options.
     *
     * @param key the key
     * @return a copy of the value, or {@code null} when absent
     */
    default byte[] get(byte[] key) {
        return get(defaultColumnFamily(), ReadOptions.DEFAULT, key);
    }

    /**
     * The value of {@code key} in {@code family}, with default read options.
     *
     * @param family the column family
     * @param key    the key
     * @return a copy of the value, or {@code null} when absent
     */
    default byte[] get(ColumnFamilyHandle family, byte[] key) {
        return get(family, ReadOptions.DEFAULT, key);
    }

    /**
     * The value of {@code key} in the default family.
     *
     * @param options read options
     * @param key     the key
     * @return a copy of the value, or {@code null} when absent
     */
    default byte[] get(ReadOptions options, byte[] key) {
        return get(defaultColumnFamily(), options, key);
    }

    /**
     * {@link #getPinned(ColumnFamilyHandle, ReadOptions, MemorySegment)} in the default family.
     *
     * @param options read options
     * @param key     the key
     * @return the pinned value, or {@code null} when absent
     */
    default PinnedValue getPinned(ReadOptions options, MemorySegment key) {
        return getPinned(defaultColumnFamily(), options, key);
    }

    /**
     * {@link #multiGetAsList(ColumnFamilyHandle, ReadOptions, List)} in the default family with
     * default read options.
     *
     * @param keys the keys
     * @return the values, {@code null} where absent
     */
    default List<byte[]> multiGetAsList(List<byte[]> keys) {
        return multiGetAsList(defaultColumnFamily(), ReadOptions.DEFAULT, keys);
    }

    /**
     * {@link #newIterator(ColumnFamilyHandle, ReadOptions)} over the default family.
     *
     * @param options read options
     * @return the iterator, owned by the caller
     */
    default RocksIterator newIterator(ReadOptions options) {
        return newIterator(defaultColumnFamily(), options);
    }

    /**
     * Calls {@code action} with every entry {@code options} let an iterator see in the default
     * family (use its bounds to walk a range), in key order, without copying: the key and value
     * segments are valid only during the call (afterwards they throw IllegalStateException). The iterator is closed when this returns or throws.
     *
     * @param options read options
     * @param action  called with each key and value
     */
    default void forEach(ReadOptions options, BiConsumer<MemorySegment, MemorySegment> action) {
        Objects.requireNonNull(action, "action");
        try (RocksIterator it = newIterator(options)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                action.accept(it.key(), it.value());
            }
        }
    }

    /**
     * The entries {@code options} let an iterator see in the default family, in key order, as a
     * sequential stream of copies. The stream owns an iterator: consume or close it on the
     * calling thread (use try-with-resources); it is closed when the stream is exhausted or closed.
     *
     * @param options read options
     * @return the entries
     */
    default Stream<Map.Entry<byte[], byte[]>> stream(ReadOptions options) {
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
}
