package io.rocksffm;

/**
 * Makes a {@link CompactionFilter} for each compaction, knowing what kind of compaction it is
 * ({@link Options#setCompactionFilterFactory}). Called from RocksDB's compaction threads: must be
 * thread-safe.
 *
 * {@snippet id="CompactionFilterFactory" :
 * // Empty values are dropped by manual compactions only
 * CompactionFilterFactory factory = new CompactionFilterFactory() {
 *     public String name() { return "drop-empty-when-manual"; }
 *     public CompactionFilter create(Context context) {   // one per compaction
 *         return (level, key, value, newValue) -> context.manualCompaction() && value.byteSize() == 0
 *                 ? CompactionFilter.Decision.REMOVE
 *                 : CompactionFilter.Decision.KEEP;
 *     }
 * };
 * options.setCompactionFilterFactory(factory);
 * }
 *
 * <p><b>Failures.</b> If {@link #create} throws or returns null, the compaction runs without a
 * filter (every entry kept); the failure is counted. The JVM never crashes.
 */
public interface CompactionFilterFactory {
    /**
     * What RocksDB says about the compaction a filter is made for.
     *
     * @param fullCompaction   whether the compaction includes every file of the family
     * @param manualCompaction whether it was asked for ({@link Database#compactRange}) rather
     *                         than started by RocksDB
     */
    record Context(boolean fullCompaction, boolean manualCompaction) {}

    /**
     * The factory's name, recorded by RocksDB in the options file. Read once, when set on options.
     *
     * @return the name, without NUL characters
     */
    String name();

    /**
     * A filter for one compaction.
     *
     * @param context the compaction's kind
     * @return the filter, or null for none
     */
    CompactionFilter create(Context context);
}
