package io.rocksffm;

import java.lang.foreign.MemorySegment;

/**
 * Java code that RocksDB runs on every entry a compaction rewrites: keep it, remove it, or change
 * its value. Set one on {@link Options} ({@link Options#setCompactionFilter}, the same filter for
 * every compaction) or have a {@link CompactionFilterFactory} make one per compaction.
 *
 * <p>Filters see plain values only (not merge operands, deletions, or entries a snapshot still
 * needs), and only when a compaction rewrites them: a filter is a way to drop data lazily, not a
 * read-time filter.
 *
 * <p><b>Memory.</b> The key and value are read-only zero-copy views valid only during the call.
 * <b>Threads:</b> a filter set with {@link Options#setCompactionFilter} is called by concurrent
 * compactions at once and must be thread-safe; one made by a factory serves one compaction, on one
 * thread at a time.
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
