package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * FIFO compaction's settings ({@code rocksdb_fifo_compaction_options_t}), given to
 * {@link Options#setFifoCompactionOptions} (which copies them) for families using
 * {@link CompactionStyle#FIFO}: the oldest table files are deleted once the family's files pass
 * a total size (and, with {@link Options#setTtl}, an age).
 *
 * {@snippet id="FifoCompactionOptions" :
 * // An event log that keeps about the newest 1 GiB: the oldest table files are deleted
 * try (FifoCompactionOptions fifo = new FifoCompactionOptions().setMaxTableFilesSize(1L << 30);
 *      Options options = new Options().setCreateIfMissing(true)
 *              .setCompactionStyle(CompactionStyle.FIFO)
 *              .setFifoCompactionOptions(fifo);   // copied: fifo may be closed
 *      RocksDB events = RocksDB.open(path, options)) {
 * }
 * }
 *
 * <p>The caller owns and closes it; setters return {@code this}; safe to share across threads;
 * any call after close throws {@link IllegalStateException}.
 */
public final class FifoCompactionOptions extends FifoCompactionOptionsSettings {
    /** RocksDB's defaults (1 GiB of table files, no intra-level-0 compaction). */
    public FifoCompactionOptions() {
        super("FifoCompactionOptions", rocksdb_fifo_compaction_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_fifo_compaction_options_destroy(p);
    }
}
