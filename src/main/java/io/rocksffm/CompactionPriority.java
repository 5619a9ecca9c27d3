package io.rocksffm;

import io.rocksffm.internal.Ids;

/**
 * Which file of a level a leveled compaction picks first ({@link Options#setCompactionPriority});
 * ids follow RocksDB's {@code CompactionPri}.
 */
public enum CompactionPriority {
    /** The file whose size, counting deletions, is largest. */
    BY_COMPENSATED_SIZE(0),
    /** The file whose newest data is oldest: for workloads that update some keys often. */
    OLDEST_LARGEST_SEQ_FIRST(1),
    /** The file whose key range has been compacted least recently: for uniform updates. */
    OLDEST_SMALLEST_SEQ_FIRST(2),
    /** The file that overlaps the next level least for its size (RocksDB's default): the least write amplification. */
    MIN_OVERLAPPING_RATIO(3),
    /** Files in turn, round robin through the key space. */
    ROUND_ROBIN(4);

    final int id;

    CompactionPriority(int id) {
        this.id = id;
    }

    static CompactionPriority of(int id) {
        return Ids.of(values(), v -> v.id, id, "compaction priority");
    }
}
