package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The shape and pace of a column family's compactions, part of {@link Options}: the compaction
 * style, the levels' sizes, level-0 triggers, memtable counts, time-based compactions. A part of
 * {@code Options}, not a type of its own: the methods are {@code Options}' methods and return the
 * options.
 */
abstract class CompactionTuning extends DatabaseTuning {
    CompactionTuning(String what, MemorySegment ptr) {
        super(what, ptr);
    }

    /**
     * How table files are compacted (RocksDB's default: {@link CompactionStyle#LEVEL}).
     *
     * @param style the compaction style
     * @return these options
     */
    public Options setCompactionStyle(CompactionStyle style) {
        Objects.requireNonNull(style, "style");
        return set(p -> rocksdb_options_set_compaction_style(p, style.id));
    }

    /** {@return the compaction style} */
    public CompactionStyle compactionStyle() {
        return CompactionStyle.of((int) read(p -> rocksdb_options_get_compaction_style(p)));
    }

    /**
     * The universal compaction settings (used with {@link CompactionStyle#UNIVERSAL}); copied, so
     * {@code universal} may be closed or changed afterwards.
     *
     * @param universal the settings
     * @return these options
     * @throws IllegalStateException if these options or {@code universal} are closed
     */
    public Options setUniversalCompactionOptions(UniversalCompactionOptions universal) {
        Objects.requireNonNull(universal, "universal");
        return set(p -> universal.use(u -> rocksdb_options_set_universal_compaction_options(p, u)));
    }

    /**
     * The FIFO compaction settings (used with {@link CompactionStyle#FIFO}); copied, so
     * {@code fifo} may be closed or changed afterwards.
     *
     * @param fifo the settings
     * @return these options
     * @throws IllegalStateException if these options or {@code fifo} are closed
     */
    public Options setFifoCompactionOptions(FifoCompactionOptions fifo) {
        Objects.requireNonNull(fifo, "fifo");
        return set(p -> fifo.use(f -> rocksdb_options_set_fifo_compaction_options(p, f)));
    }

    /**
     * The number of levels (RocksDB's default: 7). Set it when the family is created.
     *
     * @param levels the number of levels, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code levels < 1}
     */
    public Options setNumLevels(int levels) {
        atLeast("num levels", levels, 1);
        return set(p -> rocksdb_options_set_num_levels(p, levels));
    }

    /** {@return the number of levels} */
    public int numLevels() {
        return (int) read(p -> rocksdb_options_get_num_levels(p));
    }

    /**
     * The target total size of level 1 (RocksDB's default: 256 MiB).
     *
     * @param bytes the size in bytes, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 1}
     */
    public Options setMaxBytesForLevelBase(long bytes) {
        atLeast("max bytes for level base", bytes, 1);
        return set(p -> rocksdb_options_set_max_bytes_for_level_base(p, bytes));
    }

    /** {@return the target size of level 1 in bytes} */
    public long maxBytesForLevelBase() {
        return read(p -> rocksdb_options_get_max_bytes_for_level_base(p));
    }

    /**
     * How much larger each level is than the one above (RocksDB's default: 10).
     *
     * @param multiplier the ratio, above 0 and finite
     * @return these options
     * @throws IllegalArgumentException if {@code multiplier} is not above 0 or not finite
     */
    public Options setMaxBytesForLevelMultiplier(double multiplier) {
        if (!(multiplier > 0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("max bytes for level multiplier must be finite and > 0: " + multiplier);
        }
        return set(p -> rocksdb_options_set_max_bytes_for_level_multiplier(p, multiplier));
    }

    /** {@return the ratio of the sizes of successive levels} */
    public double maxBytesForLevelMultiplier() {
        return readDouble(p -> rocksdb_options_get_max_bytes_for_level_multiplier(p));
    }

    /**
     * Sizes the levels from the last one up, so that most data sits in the last level
     * (true by default since RocksDB 8.4).
     *
     * @param value whether level sizes are dynamic
     * @return these options
     */
    public Options setLevelCompactionDynamicLevelBytes(boolean value) {
        return set(p -> rocksdb_options_set_level_compaction_dynamic_level_bytes(p, flag(value)));
    }

    /** {@return whether level sizes are dynamic} */
    public boolean levelCompactionDynamicLevelBytes() {
        return read(p -> rocksdb_options_get_level_compaction_dynamic_level_bytes(p)) != 0;
    }

    /**
     * The target size of a table file in level 1 (RocksDB's default: 64 MiB).
     *
     * @param bytes the size in bytes, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 1}
     */
    public Options setTargetFileSizeBase(long bytes) {
        atLeast("target file size base", bytes, 1);
        return set(p -> rocksdb_options_set_target_file_size_base(p, bytes));
    }

    /** {@return the target table file size of level 1 in bytes} */
    public long targetFileSizeBase() {
        return read(p -> rocksdb_options_get_target_file_size_base(p));
    }

    /**
     * How much larger the target file size of each level is than the one above (RocksDB's default: 1).
     *
     * @param multiplier the ratio, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code multiplier < 1}
     */
    public Options setTargetFileSizeMultiplier(int multiplier) {
        atLeast("target file size multiplier", multiplier, 1);
        return set(p -> rocksdb_options_set_target_file_size_multiplier(p, multiplier));
    }

    /** {@return the ratio of successive levels' target file sizes} */
    public int targetFileSizeMultiplier() {
        return (int) read(p -> rocksdb_options_get_target_file_size_multiplier(p));
    }

    /**
     * The most bytes one compaction may take as input (0, the default: 25 times the target file size).
     *
     * @param bytes the limit in bytes, 0 for RocksDB's choice
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setMaxCompactionBytes(long bytes) {
        atLeast("max compaction bytes", bytes, 0);
        return set(p -> rocksdb_options_set_max_compaction_bytes(p, bytes));
    }

    /** {@return the most input bytes of one compaction, 0 for RocksDB's choice} */
    public long maxCompactionBytes() {
        return read(p -> rocksdb_options_get_max_compaction_bytes(p));
    }

    /**
     * The number of level-0 files that starts a compaction (RocksDB's default: 4).
     *
     * @param files the trigger, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code files < 1}
     */
    public Options setLevel0FileNumCompactionTrigger(int files) {
        atLeast("level0 file num compaction trigger", files, 1);
        return set(p -> rocksdb_options_set_level0_file_num_compaction_trigger(p, files));
    }

    /** {@return the number of level-0 files that starts a compaction} */
    public int level0FileNumCompactionTrigger() {
        return (int) read(p -> rocksdb_options_get_level0_file_num_compaction_trigger(p));
    }

    /**
     * The number of level-0 files from which writes are slowed down (RocksDB's default: 20).
     *
     * @param files the trigger, at least 0
     * @return these options
     * @throws IllegalArgumentException if {@code files < 0}
     */
    public Options setLevel0SlowdownWritesTrigger(int files) {
        atLeast("level0 slowdown writes trigger", files, 0);
        return set(p -> rocksdb_options_set_level0_slowdown_writes_trigger(p, files));
    }

    /** {@return the number of level-0 files from which writes slow down} */
    public int level0SlowdownWritesTrigger() {
        return (int) read(p -> rocksdb_options_get_level0_slowdown_writes_trigger(p));
    }

    /**
     * The number of level-0 files from which writes stop until compaction catches up (RocksDB's default: 36).
     *
     * @param files the trigger, at least 0
     * @return these options
     * @throws IllegalArgumentException if {@code files < 0}
     */
    public Options setLevel0StopWritesTrigger(int files) {
        atLeast("level0 stop writes trigger", files, 0);
        return set(p -> rocksdb_options_set_level0_stop_writes_trigger(p, files));
    }

    /** {@return the number of level-0 files from which writes stop} */
    public int level0StopWritesTrigger() {
        return (int) read(p -> rocksdb_options_get_level0_stop_writes_trigger(p));
    }

    /**
     * Pending compaction bytes from which writes are slowed down (RocksDB's default: 64 GiB; 0 never).
     *
     * @param bytes the limit, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setSoftPendingCompactionBytesLimit(long bytes) {
        atLeast("soft pending compaction bytes limit", bytes, 0);
        return set(p -> rocksdb_options_set_soft_pending_compaction_bytes_limit(p, bytes));
    }

    /** {@return the pending compaction bytes from which writes slow down, 0 for none} */
    public long softPendingCompactionBytesLimit() {
        return read(p -> rocksdb_options_get_soft_pending_compaction_bytes_limit(p));
    }

    /**
     * Pending compaction bytes from which writes stop (RocksDB's default: 256 GiB; 0 never).
     *
     * @param bytes the limit, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setHardPendingCompactionBytesLimit(long bytes) {
        atLeast("hard pending compaction bytes limit", bytes, 0);
        return set(p -> rocksdb_options_set_hard_pending_compaction_bytes_limit(p, bytes));
    }

    /** {@return the pending compaction bytes from which writes stop, 0 for none} */
    public long hardPendingCompactionBytesLimit() {
        return read(p -> rocksdb_options_get_hard_pending_compaction_bytes_limit(p));
    }

    /**
     * Turns automatic compactions off (manual ones still run); false by default.
     *
     * @param value true to disable automatic compactions
     * @return these options
     */
    public Options setDisableAutoCompactions(boolean value) {
        return set(p -> rocksdb_options_set_disable_auto_compactions(p, value ? 1 : 0));
    }

    /** {@return whether automatic compactions are off} */
    public boolean disableAutoCompactions() {
        return read(p -> rocksdb_options_get_disable_auto_compactions(p)) != 0;
    }

    /**
     * The most memtables, mutable and immutable, kept in memory (RocksDB's default: 2).
     *
     * @param n the number of memtables, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Options setMaxWriteBufferNumber(int n) {
        atLeast("max write buffer number", n, 1);
        return set(p -> rocksdb_options_set_max_write_buffer_number(p, n));
    }

    /** {@return the most memtables kept in memory} */
    public int maxWriteBufferNumber() {
        return (int) read(p -> rocksdb_options_get_max_write_buffer_number(p));
    }

    /**
     * The fewest immutable memtables merged into one flush (RocksDB's default: 1). RocksDB lowers
     * it at open to less than {@link #setMaxWriteBufferNumber}'s count.
     *
     * @param n the number of memtables, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Options setMinWriteBufferNumberToMerge(int n) {
        atLeast("min write buffer number to merge", n, 1);
        return set(p -> rocksdb_options_set_min_write_buffer_number_to_merge(p, n));
    }

    /** {@return the fewest memtables merged into one flush} */
    public int minWriteBufferNumberToMerge() {
        return (int) read(p -> rocksdb_options_get_min_write_buffer_number_to_merge(p));
    }

    /**
     * Builds no filters for the last level, where most lookups find their key (false by default;
     * saves the filters' memory when misses are rare).
     *
     * @param value whether to skip last-level filters
     * @return these options
     */
    public Options setOptimizeFiltersForHits(boolean value) {
        return set(p -> rocksdb_options_set_optimize_filters_for_hits(p, value ? 1 : 0));
    }

    /** {@return whether last-level filters are skipped} */
    public boolean optimizeFiltersForHits() {
        return read(p -> rocksdb_options_get_optimize_filters_for_hits(p)) != 0;
    }

    /**
     * Compacts files holding data older than {@code seconds} (RocksDB 8.0 or later; with FIFO
     * compaction, deletes them). 0 disables it.
     *
     * @param seconds the age, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code seconds < 0}
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_options_set_ttl} (7.8.3)
     */
    public Options setTtl(long seconds) {
        atLeast("ttl", seconds, 0);
        return setGated("rocksdb_options_set_ttl", p -> rocksdb_options_set_ttl(p, seconds));
    }

    /**
     * The age after which files are compacted.
     *
     * @return the age in seconds
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_options_get_ttl} (7.8.3)
     */
    public long ttl() {
        return readGated("rocksdb_options_get_ttl", p -> rocksdb_options_get_ttl(p));
    }

    /**
     * Recompacts every file at least every {@code seconds} (RocksDB 8.0 or later). 0 disables it.
     *
     * @param seconds the period, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code seconds < 0}
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_options_set_periodic_compaction_seconds} (7.8.3)
     */
    public Options setPeriodicCompactionSeconds(long seconds) {
        atLeast("periodic compaction seconds", seconds, 0);
        return setGated("rocksdb_options_set_periodic_compaction_seconds",
                p -> rocksdb_options_set_periodic_compaction_seconds(p, seconds));
    }

    /**
     * The period after which every file is recompacted.
     *
     * @return the period in seconds
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_options_get_periodic_compaction_seconds} (7.8.3)
     */
    public long periodicCompactionSeconds() {
        return readGated("rocksdb_options_get_periodic_compaction_seconds",
                p -> rocksdb_options_get_periodic_compaction_seconds(p));
    }
}
