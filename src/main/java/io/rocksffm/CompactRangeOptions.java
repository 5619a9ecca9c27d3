package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Settings of a manual compaction of a key range ({@code rocksdb_compactoptions_t}), for
 * {@link DatabaseAdmin#compactRange(ColumnFamilyHandle, CompactRangeOptions, MemorySegment, MemorySegment)}:
 * whether it runs alone, which level its output goes to, and whether the last level is rewritten.
 *
 * {@snippet id="CompactRangeOptions" :
 * try (CompactRangeOptions compact = new CompactRangeOptions()
 *              .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.FORCE)) {
 *     db.compactRange(db.defaultColumnFamily(), compact, null, null);   // all keys, last level too
 * }
 * }
 *
 * <p>The caller owns and closes it; setters return {@code this}; safe to share across threads;
 * any call after close throws {@link IllegalStateException}.
 */
public final class CompactRangeOptions extends CompactRangeOptionsSettings {
    /** Whether the last level is compacted too ({@code BottommostLevelCompaction}); ids as RocksDB's. */
    public enum BottommostLevelCompaction {
        /** Never rewrite the last level. */
        SKIP(0),
        /** Rewrite it only when a compaction filter is set (RocksDB's default). */
        IF_HAVE_COMPACTION_FILTER(1),
        /** Always rewrite it. */
        FORCE(2),
        /** Always rewrite it, but not the files this compaction just wrote there. */
        FORCE_OPTIMIZED(3);

        final int id;

        BottommostLevelCompaction(int id) {
            this.id = id;
        }

        static BottommostLevelCompaction of(int id) {
            for (BottommostLevelCompaction b : values()) {
                if (b.id == id) {
                    return b;
                }
            }
            throw new IllegalArgumentException("unknown bottommost level compaction " + id);
        }
    }

    /** The C API's defaults (not exclusive, output in place, last level only with a compaction filter). */
    public CompactRangeOptions() {
        super("CompactRangeOptions", rocksdb_compactoptions_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_compactoptions_destroy(p);
    }

    /**
     * Whether no automatic compaction runs alongside this one (false by default in the C API,
     * which differs from C++'s default).
     *
     * @param value whether the compaction runs alone
     * @return these settings
     */
    public CompactRangeOptions setExclusiveManualCompaction(boolean value) {
        use(p -> rocksdb_compactoptions_set_exclusive_manual_compaction(p, flag(value)));
        return this;
    }

    /** {@return whether the compaction runs alone} */
    public boolean exclusiveManualCompaction() {
        return read(p -> rocksdb_compactoptions_get_exclusive_manual_compaction(p)) != 0;
    }

    /**
     * Moves the compacted files to {@link #setTargetLevel}'s level (false by default).
     *
     * @param value whether the output changes level
     * @return these settings
     */
    public CompactRangeOptions setChangeLevel(boolean value) {
        use(p -> rocksdb_compactoptions_set_change_level(p, flag(value)));
        return this;
    }

    /** {@return whether the output changes level} */
    public boolean changeLevel() {
        return read(p -> rocksdb_compactoptions_get_change_level(p)) != 0;
    }

    /**
     * The level the output moves to with {@link #setChangeLevel}; -1 (the default) for the lowest
     * level that can take it.
     *
     * @param level the level, or -1
     * @return these settings
     * @throws IllegalArgumentException if {@code level < -1}
     */
    public CompactRangeOptions setTargetLevel(int level) {
        if (level < -1) {
            throw new IllegalArgumentException("target level must be >= -1: " + level);
        }
        use(p -> rocksdb_compactoptions_set_target_level(p, level));
        return this;
    }

    /** {@return the level the output moves to, -1 for the lowest possible} */
    public int targetLevel() {
        return (int) read(p -> rocksdb_compactoptions_get_target_level(p));
    }

    /**
     * Whether the last level is rewritten.
     *
     * @param value the choice
     * @return these settings
     */
    public CompactRangeOptions setBottommostLevelCompaction(BottommostLevelCompaction value) {
        Objects.requireNonNull(value, "value");
        use(p -> rocksdb_compactoptions_set_bottommost_level_compaction(p, (byte) value.id));
        return this;
    }

    /** {@return whether the last level is rewritten} */
    public BottommostLevelCompaction bottommostLevelCompaction() {
        return BottommostLevelCompaction.of((int) read(p -> rocksdb_compactoptions_get_bottommost_level_compaction(p)));
    }

    /**
     * Splits the compaction into up to {@code n} subcompactions (0, the default: the database's
     * {@code max_subcompactions}; RocksDB 8 or later).
     *
     * @param n the most subcompactions, 0 for the database's setting
     * @return these settings
     * @throws IllegalArgumentException if {@code n < 0}
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_compactoptions_set_max_subcompactions} (7.8.3)
     */
    public CompactRangeOptions setMaxSubcompactions(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("max subcompactions must be >= 0: " + n);
        }
        use(p -> {
            Capabilities.require("rocksdb_compactoptions_set_max_subcompactions");
            rocksdb_compactoptions_set_max_subcompactions(p, n);
        });
        return this;
    }

    /**
     * The most subcompactions.
     *
     * @return the setting, 0 for the database's
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_compactoptions_get_max_subcompactions} (7.8.3)
     */
    public int maxSubcompactions() {
        return (int) read(p -> {
            Capabilities.require("rocksdb_compactoptions_get_max_subcompactions");
            return rocksdb_compactoptions_get_max_subcompactions(p);
        });
    }
}
