package io.rocksffm;

import java.lang.foreign.MemorySegment;

/**
 * A key order written in Java, for a database or column family
 * ({@link Options#setComparator}): RocksDB calls {@link #compare} for every key comparison
 * (writes, reads, iterators, bounds, flushes, compactions). It is also a
 * {@code java.util.Comparator<MemorySegment>}, so the same object orders a {@code TreeMap}.
 *
 * <p><b>Contract.</b> A total order, consistent for the life of the database's files: the same
 * name must always mean the same order. RocksDB records the name, and opening a database with a
 * comparator of another name fails with {@link RocksDBException} ({@code INVALID_ARGUMENT}).
 *
 * <p><b>Memory.</b> The keys are read-only zero-copy views of RocksDB's memory, valid only
 * during the call: never keep them. <b>Threads:</b> called from many threads at once; must be
 * thread-safe and fast.
 *
 * <p><b>Failures.</b> A comparator cannot report an error to RocksDB. When {@link #compare}
 * throws, rocksffm answers that comparison with bytewise order (unsigned bytes, shorter first on a
 * common prefix) and counts the failure; the JVM does not crash. A comparator that throws only
 * sometimes thus makes an inconsistent order, under which RocksDB may not find keys it holds: a
 * comparator must not throw.
 */
public interface Comparator extends java.util.Comparator<MemorySegment> {
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
