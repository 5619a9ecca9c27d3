package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Ids;
import java.lang.foreign.MemorySegment;

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
            return Ids.of(values(), v -> v.id, id, "bottommost level compaction");
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
}
