package io.rocksffm;

import java.lang.foreign.MemorySegment;

/**
 * Java code that RocksDB runs on every entry a compaction rewrites: keep it, remove it, or change
 * its value. Set one on {@link Options} ({@link Options#setCompactionFilter}, the same filter for
 * every compaction) or have a {@link CompactionFilterFactory} make one per compaction.
 *
 * {@snippet id="CompactionFilter" :
 * // Empty values are tombstones of the application: compactions drop them
 * try (Options options = new Options().setCreateIfMissing(true)
 *              .setCompactionFilter((level, key, value, newValue) -> value.byteSize() == 0
 *                      ? CompactionFilter.Decision.REMOVE
 *                      : CompactionFilter.Decision.KEEP);
 *      RocksDB db = RocksDB.open(path, options)) {
 *     db.put("gone".getBytes(UTF_8), new byte[0]);
 *     db.compactRange();                          // after it, get("gone") is null
 * }
 * }
 *
 * <p>Filters see plain values only (not merge operands, deletions, or entries a snapshot still
 * needs), and only when a compaction rewrites them: a filter is a way to drop data lazily, not a
 * read-time filter.
 *
 * <p><b>Memory.</b> The key and value are read-only zero-copy views valid only during the call,
 * and so is the segment of {@link ValueOutput#allocate}: a view kept and used later throws
 * (compactions run on RocksDB's threads: on another thread, {@link WrongThreadException}; on the
 * compaction's, {@link IllegalStateException}).
 * <b>Threads:</b> a filter set with {@link Options#setCompactionFilter} is called by concurrent
 * compactions at once and must be thread-safe; one made by a factory serves one compaction, on one
 * thread at a time.
 *
 * <p><b>Calling databases.</b> From inside the call, any call into a database that runs Java code
 * (a merge operator, comparator, compaction filter, prefix extractor or event listener set on its
 * options), this one's included, throws {@link IllegalStateException} naming the callback before
 * it reaches RocksDB: closing the database from a filter deadlocked
 * (the close waits for the compaction). Databases without Java code may be called.
 *
 * <p><b>Failures.</b> An exception thrown by {@link #filter} keeps the entry unchanged (nothing is
 * lost), and the failure is counted; the compaction goes on. The JVM never crashes.
 */
@FunctionalInterface
public interface CompactionFilter {
    /** What to do with an entry. */
    enum Decision {
        /** Keep the entry as it is. */
        KEEP,
        /** Remove the entry. */
        REMOVE,
        /** Keep the entry with the value written to the {@link ValueOutput}. */
        CHANGE_VALUE
    }

    /**
     * Decides the fate of one entry.
     *
     * @param level    the level as RocksDB passes it: that of the compaction's first input
     * @param key      the key (read-only, valid during the call)
     * @param value    the value (read-only, valid during the call)
     * @param newValue where to write the new value when returning {@link Decision#CHANGE_VALUE}
     * @return the decision (null counts as {@link Decision#KEEP})
     */
    Decision filter(int level, MemorySegment key, MemorySegment value, ValueOutput newValue);
}
