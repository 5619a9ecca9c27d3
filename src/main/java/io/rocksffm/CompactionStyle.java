package io.rocksffm;

import io.rocksffm.internal.Ids;

/**
 * How a column family's table files are compacted ({@link Options#setCompactionStyle}); ids follow
 * RocksDB's {@code CompactionStyle}.
 */
public enum CompactionStyle {
    /** Leveled compaction (RocksDB's default): each level a sorted run, about ten times the one above. */
    LEVEL(0),
    /** Universal (tiered) compaction: sorted runs merged by size ratio, less write amplification. */
    UNIVERSAL(1),
    /** FIFO: the oldest files are deleted once the total size or age passes a limit (no merging). */
    FIFO(2),
    /** No automatic compaction: only manual compactions run. */
    NONE(3);

    final int id;

    CompactionStyle(int id) {
        this.id = id;
    }

    static CompactionStyle of(int id) {
        return Ids.of(values(), v -> v.id, id, "compaction style");
    }
}
