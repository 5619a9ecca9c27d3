package io.rocksffm;

import java.lang.foreign.MemorySegment;

/**
 * A key order for a column family with user-defined timestamps ({@link Options#setComparator}):
 * every key RocksDB stores in the family is the caller's key followed by a timestamp of
 * {@link #timestampSize()} bytes, and each write names its timestamp ({@link TimestampedDB}).
 * Reads name the time they read as of ({@link ReadOptions#setTimestamp}), and see, for each key,
 * the newest version at or before that time.
 *
 * {@snippet id="TimestampedComparator" :
 * // Keys are 8-byte big-endian ids; timestamps 4-byte big-endian seconds
 * ValueLayout.OfLong id = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
 * ValueLayout.OfInt seconds = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
 * TimestampedComparator idThenSeconds = new TimestampedComparator() {
 *     public String name() { return "id-then-seconds"; }   // the same name and size at every open
 *     public int timestampSize() { return 4; }
 *     public int compareTimestamp(MemorySegment a, MemorySegment b) {   // oldest first
 *         return Integer.compareUnsigned(a.get(seconds, 0), b.get(seconds, 0));
 *     }
 *     public int compareWithoutTimestamp(MemorySegment a, MemorySegment b) {   // the ids alone
 *         return Long.compareUnsigned(a.get(id, 0), b.get(id, 0));
 *     }
 * };
 * try (Options options = new Options().setCreateIfMissing(true).setComparator(idThenSeconds);
 *      RocksDB db = RocksDB.open(path, options)) {
 *     // writes and reads name their timestamps: TimestampedDB.of(db)
 * }
 * }
 *
 * <p><b>Contract</b> (RocksDB's, {@code Comparator} with a timestamp size in
 * {@code rocksdb/comparator.h}): {@link #compareWithoutTimestamp} orders the caller's keys;
 * {@link #compareTimestamp} orders timestamps from oldest to newest, and RocksDB assumes that
 * all zero bytes are the oldest timestamp and all one bits the newest; {@link #compare} orders
 * stored keys by key, then <b>newest timestamp first</b>. Implement the first two; keep the
 * default {@link #compare}. Everything {@link Comparator} says (name, views valid only during the
 * call, thread safety, failures answered bytewise, equal bytes equal) holds here too, for all
 * three methods.
 *
 * <p>{@link #bytewiseU64()} is RocksDB's own order of that kind (bytewise keys, 8-byte
 * little-endian unsigned timestamps, {@link Timestamps#u64(long)}), under the name of RocksDB's
 * built-in one, so a database made by RocksDB's C++ or Java API with
 * {@code BytewiseComparatorWithU64Ts()} opens with it (the C API does not reach the built-in one).
 *
 * <p>A family created with such a comparator must be opened with one of the same name and
 * timestamp size again: RocksDB refuses another name ({@link RocksDBException}
 * {@code INVALID_ARGUMENT}).
 */
public interface TimestampedComparator extends Comparator {
    /**
     * The size of every timestamp in bytes. Read once, when set on options.
     *
     * @return a positive size
     */
    int timestampSize();

    /**
     * Compares two timestamps.
     *
     * @param a a timestamp of {@link #timestampSize()} bytes (read-only, valid during the call)
     * @param b a timestamp of {@link #timestampSize()} bytes (read-only, valid during the call)
     * @return negative, zero or positive as {@code a} is older than, as old as, or newer than {@code b}
     */
    int compareTimestamp(MemorySegment a, MemorySegment b);

    /**
     * Compares two of the caller's keys, without timestamps.
     *
     * @param a a key without its timestamp (read-only, valid during the call)
     * @param b a key without its timestamp (read-only, valid during the call)
     * @return negative, zero or positive as {@code a} sorts before, with, or after {@code b}
     */
    int compareWithoutTimestamp(MemorySegment a, MemorySegment b);

    /**
     * Compares two stored keys (each a key followed by its timestamp): by key, then newest
     * timestamp first. Keep this default: RocksDB's reads depend on that order.
     *
     * @param a a key with its timestamp (read-only, valid during the call)
     * @param b a key with its timestamp (read-only, valid during the call)
     * @return negative, zero or positive as {@code a} sorts before, with, or after {@code b}
     */
    @Override
    default int compare(MemorySegment a, MemorySegment b) {
        int ts = timestampSize();
        long aKey = a.byteSize() - ts;
        long bKey = b.byteSize() - ts;
        int c = compareWithoutTimestamp(a.asSlice(0, aKey), b.asSlice(0, bKey));
        return c != 0 ? c : -compareTimestamp(a.asSlice(aKey, ts), b.asSlice(bKey, ts));
    }

    /**
     * RocksDB's bytewise order with 8-byte timestamps ({@link Timestamps#u64(long)}: unsigned
     * 64-bit numbers, little-endian), named {@code leveldb.BytewiseComparator.u64ts} as RocksDB's
     * built-in one.
     *
     * @return the comparator (one shared, stateless instance)
     */
    static TimestampedComparator bytewiseU64() {
        return Timestamps.BYTEWISE_U64;
    }
}
