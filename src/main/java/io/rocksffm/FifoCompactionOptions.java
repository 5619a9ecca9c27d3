package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

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
public final class FifoCompactionOptions extends NativeObject {
    /** RocksDB's defaults (1 GiB of table files, no intra-level-0 compaction). */
    public FifoCompactionOptions() {
        super("FifoCompactionOptions", rocksdb_fifo_compaction_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_fifo_compaction_options_destroy(p);
    }

    /**
     * The total size of table files past which the oldest are deleted (RocksDB's default: 1 GiB).
     *
     * @param bytes the size in bytes, above 0
     * @return these settings
     * @throws IllegalArgumentException if {@code bytes < 1}
     */
    public FifoCompactionOptions setMaxTableFilesSize(long bytes) {
        atLeast("max table files size", bytes, 1);
        use(p -> rocksdb_fifo_compaction_options_set_max_table_files_size(p, bytes));
        return this;
    }

    /** {@return the total table file size past which the oldest files are deleted} */
    public long maxTableFilesSize() {
        return read(p -> rocksdb_fifo_compaction_options_get_max_table_files_size(p));
    }

    /**
     * Whether small level-0 files are compacted together (false by default).
     *
     * @param value whether intra-level-0 compactions run
     * @return these settings
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_fifo_compaction_options_set_allow_compaction} (7.8.3)
     */
    public FifoCompactionOptions setAllowCompaction(boolean value) {
        lifecycle.ensureOpen();
        Capabilities.require("rocksdb_fifo_compaction_options_set_allow_compaction");
        use(p -> rocksdb_fifo_compaction_options_set_allow_compaction(p, flag(value)));
        return this;
    }

    /**
     * Whether small level-0 files are compacted together.
     *
     * @return whether intra-level-0 compactions run
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_fifo_compaction_options_get_allow_compaction} (7.8.3)
     */
    public boolean allowCompaction() {
        lifecycle.ensureOpen();
        Capabilities.require("rocksdb_fifo_compaction_options_get_allow_compaction");
        return read(p -> rocksdb_fifo_compaction_options_get_allow_compaction(p)) != 0;
    }
}
