package io.rocksffm;

import java.lang.foreign.MemorySegment;

/**
 * A key order written in Java, for a database or column family
 * ({@link Options#setComparator}): RocksDB calls {@link #compare} for every key comparison
 * (writes, reads, iterators, bounds, flushes, compactions). It is also a
 * {@code java.util.Comparator<MemorySegment>}, so the same object orders a {@code TreeMap}.
 *
 * {@snippet id="Comparator" :
 * // Keys are 8-byte big-endian numbers, largest first
 * ValueLayout.OfLong number = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
 * Comparator largestFirst = new Comparator() {
 *     public String name() { return "largest-first"; }   // the same name at every open
 *     public int compare(MemorySegment a, MemorySegment b) {
 *         return Long.compare(b.get(number, 0), a.get(number, 0));
 *     }
 * };
 * try (Options options = new Options().setCreateIfMissing(true).setComparator(largestFirst);
 *      RocksDB db = RocksDB.open(path, options)) {
 * }
 * }
 *
 * <p><b>Contract.</b> A total order, consistent for the life of the database's files: the same
 * name must always mean the same order. RocksDB records the name, and opening a database with a
 * comparator of another name fails with {@link RocksDBException} ({@code INVALID_ARGUMENT}).
 *
 * <p><b>Memory.</b> The keys are read-only zero-copy views of RocksDB's memory, valid only
 * during the call: never keep them. Unlike other callbacks' views, a kept one is not detected
 * (it reads whatever the memory then holds): a check would cost every comparison an allocation,
 * on this hottest of callbacks. <b>Threads:</b>
 * called from many threads at once; must be thread-safe and fast.
 *
 * <p><b>Calling databases.</b> From inside the call, any call into a database that runs Java code
 * (a merge operator, comparator, compaction filter, prefix extractor or event listener set on its
 * options), this one's included, throws {@link IllegalStateException} naming the callback before
 * it reaches RocksDB: a comparator runs inside RocksDB's writes (a put from it
 * deadlocked) and reads. Databases without Java code may be called.
 *
 * <p><b>Equal keys.</b> Two keys of the same bytes compare equal whatever {@link #compare} says:
 * rocksffm answers 0 for them (a key compared with itself without calling {@link #compare}; a
 * nonzero answer for equal bytes is replaced and counted as a failure). RocksDB's iterators step
 * back until a key compares equal to the one they saved, and a comparator that never answered 0
 * (always "less") made {@code seekToLast} loop forever in native code. Other broken orders (not
 * total, not transitive) are not detected: reads may miss keys and flushes may fail with
 * {@code CORRUPTION}, but every call returns, and {@code close()} and process exit complete.
 *
 * <p><b>Failures.</b> A comparator cannot report an error to RocksDB. When {@link #compare}
 * throws, rocksffm answers that comparison with bytewise order (unsigned bytes, shorter first on a
 * common prefix) and counts the failure; the JVM does not crash. A comparator that throws only
 * sometimes thus makes an inconsistent order, under which RocksDB may not find keys it holds: a
 * comparator must not throw.
 */
public interface Comparator extends java.util.Comparator<MemorySegment> { // fully qualified: this is io.rocksffm.Comparator
    /**
     * The comparator's name, which RocksDB stores with the database. Read once, when set on
     * options.
     *
     * @return the name, without NUL characters
     */
    String name();

    /**
     * Compares two keys.
     *
     * @param a a key (read-only, valid during the call)
     * @param b a key (read-only, valid during the call)
     * @return negative, zero or positive as {@code a} sorts before, with, or after {@code b}
     */
    @Override
    int compare(MemorySegment a, MemorySegment b);
}
