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
public final class UniversalCompactionOptions extends UniversalCompactionOptionsSettings {
    /** RocksDB's defaults (size ratio 1, merge width 2 to unlimited, 200% size amplification). */
    public UniversalCompactionOptions() {
        super("UniversalCompactionOptions", rocksdb_universal_compaction_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_universal_compaction_options_destroy(p);
    }
}
