package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Universal compaction's settings ({@code rocksdb_universal_compaction_options_t}), given to
 * {@link Options#setUniversalCompactionOptions} (which copies them) for families using
 * {@link CompactionStyle#UNIVERSAL}.
 *
 * {@snippet id="UniversalCompactionOptions" :
 * try (UniversalCompactionOptions universal = new UniversalCompactionOptions()
 *              .setSizeRatio(10).setMaxSizeAmplificationPercent(150);
 *      Options options = new Options().setCreateIfMissing(true)
 *              .setCompactionStyle(CompactionStyle.UNIVERSAL)
 *              .setUniversalCompactionOptions(universal);   // copied: universal may be closed
 *      RocksDB db = RocksDB.open(universalPath, options)) {
 * }
 * }
 *
 * <p>The caller owns and closes it; setters return {@code this}; safe to share across threads;
 * any call after close throws {@link IllegalStateException}.
 */
public final class UniversalCompactionOptions extends NativeObject {
    /** RocksDB's defaults (size ratio 1, merge width 2 to unlimited, 200% size amplification). */
    public UniversalCompactionOptions() {
        super("UniversalCompactionOptions", rocksdb_universal_compaction_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_universal_compaction_options_destroy(p);
    }

    /**
     * How much larger (in percent) a sorted run may be than the next smaller ones to still be
     * merged with them (RocksDB's default: 1).
     *
     * @param percent the ratio in percent, at least 0
     * @return these settings
     * @throws IllegalArgumentException if {@code percent < 0}
     */
    public UniversalCompactionOptions setSizeRatio(int percent) {
        atLeast("size ratio", percent, 0);
        use(p -> rocksdb_universal_compaction_options_set_size_ratio(p, percent));
        return this;
    }

    /** {@return the size ratio in percent} */
    public int sizeRatio() {
        return (int) read(p -> rocksdb_universal_compaction_options_get_size_ratio(p));
    }

    /**
     * The fewest sorted runs merged by one compaction (RocksDB's default: 2).
     *
     * @param runs the number of runs, at least 2
     * @return these settings
     * @throws IllegalArgumentException if {@code runs < 2}
     */
    public UniversalCompactionOptions setMinMergeWidth(int runs) {
        atLeast("min merge width", runs, 2);
        use(p -> rocksdb_universal_compaction_options_set_min_merge_width(p, runs));
        return this;
    }

    /** {@return the fewest sorted runs merged at once} */
    public int minMergeWidth() {
        return (int) read(p -> rocksdb_universal_compaction_options_get_min_merge_width(p));
    }

    /**
     * The most sorted runs merged by one compaction (RocksDB's default: {@link Integer#MAX_VALUE}).
     *
     * @param runs the number of runs, at least 2
     * @return these settings
     * @throws IllegalArgumentException if {@code runs < 2}
     */
    public UniversalCompactionOptions setMaxMergeWidth(int runs) {
        atLeast("max merge width", runs, 2);
        use(p -> rocksdb_universal_compaction_options_set_max_merge_width(p, runs));
        return this;
    }

    /** {@return the most sorted runs merged at once} */
    public int maxMergeWidth() {
        return (int) read(p -> rocksdb_universal_compaction_options_get_max_merge_width(p));
    }

    /**
     * The space amplification (in percent of the last run's size) from which everything is
     * compacted together (RocksDB's default: 200).
     *
     * @param percent the amplification in percent, at least 0
     * @return these settings
     * @throws IllegalArgumentException if {@code percent < 0}
     */
    public UniversalCompactionOptions setMaxSizeAmplificationPercent(int percent) {
        atLeast("max size amplification percent", percent, 0);
        use(p -> rocksdb_universal_compaction_options_set_max_size_amplification_percent(p, percent));
        return this;
    }

    /** {@return the space amplification in percent that triggers a full compaction} */
    public int maxSizeAmplificationPercent() {
        return (int) read(p -> rocksdb_universal_compaction_options_get_max_size_amplification_percent(p));
    }

    /**
     * The percentage of the data, oldest first, that is compressed (RocksDB's default: -1, all).
     *
     * @param percent the percentage, -1 for all
     * @return these settings
     * @throws IllegalArgumentException if {@code percent < -1}
     */
    public UniversalCompactionOptions setCompressionSizePercent(int percent) {
        atLeast("compression size percent", percent, -1);
        use(p -> rocksdb_universal_compaction_options_set_compression_size_percent(p, percent));
        return this;
    }

    /** {@return the percentage of the data compressed, -1 for all} */
    public int compressionSizePercent() {
        return (int) read(p -> rocksdb_universal_compaction_options_get_compression_size_percent(p));
    }

    /**
     * Whether a candidate run is compared with the total size of the runs picked so far
     * ({@code kCompactionStopStyleTotalSize}, RocksDB's default) rather than with the last one
     * picked ({@code kCompactionStopStyleSimilarSize}).
     *
     * @param value true for the total-size stop style, false for the similar-size one
     * @return these settings
     */
    public UniversalCompactionOptions setStopStyleTotalSize(boolean value) {
        use(p -> rocksdb_universal_compaction_options_set_stop_style(p, value ? 1 : 0));
        return this;
    }

    /** {@return whether the total-size stop style is used} */
    public boolean stopStyleTotalSize() {
        return read(p -> rocksdb_universal_compaction_options_get_stop_style(p)) == 1;
    }
}
