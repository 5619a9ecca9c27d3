package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;

/**
 * Options of a manual compaction of chosen table files ({@code rocksdb_compaction_options_t}),
 * for {@link Database#compactFiles(ColumnFamilyHandle, CompactionOptions, java.util.List, int)}:
 * the output's compression, the size of the output files, how many subcompactions may run in
 * parallel and whether files may simply be moved down when nothing overlaps them.
 *
 * <p>The C functions {@code rocksdb_compaction_options_*} are in RocksDB 11 and later engines:
 * on older ones (7.8.3, 10.x) the constructor throws {@link UnsupportedOperationException}
 * naming the function and the engine's version.
 *
 * <p>The caller owns and closes it; a compaction reads it during the call only. Setters return
 * {@code this}. Safe to share across threads; any call after close throws
 * {@link IllegalStateException}.
 */
public final class CompactionOptions extends CompactionOptionsSettings {
    /** RocksDB's cancel flag ({@code std::atomic<bool>}) these options point at, freed after them. */
    private final MemorySegment canceledFlag;
    private volatile boolean canceled;

    /**
     * RocksDB's defaults: the column family's compression for the output level, one output file
     * (no size limit), the database's {@code max_subcompactions}, no trivial moves.
     *
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_compaction_options_create}
     */
    public CompactionOptions() {
        super("CompactionOptions", create());
        MemorySegment flag = rocksdb_compaction_options_canceled_create();
        if (flag.address() == 0) {
            rocksdb_compaction_options_destroy(ptr);
            throw new IllegalStateException("RocksDB returned NULL creating a compaction's cancel flag");
        }
        canceledFlag = flag;
        rocksdb_compaction_options_set_canceled(ptr, flag);
    }

    private static MemorySegment create() {
        Capabilities.require("rocksdb_compaction_options_create");
        return rocksdb_compaction_options_create();
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_compaction_options_destroy(p);
        rocksdb_compaction_options_canceled_destroy(canceledFlag);
    }

    /**
     * Cancels ({@code true}) the compactions that use these options: one running now stops at
     * its next check, and a later one refuses to start, both failing with
     * {@link RocksDBException.Code#INCOMPLETE} ("Manual compaction paused"). {@code false} lets
     * later compactions run again. May be called from any thread, also while a compaction with
     * these options runs. False by default.
     *
     * @param value whether compactions with these options are canceled
     * @return these options
     * @throws IllegalStateException if closed
     */
    public CompactionOptions setCanceled(boolean value) {
        use(p -> {
            rocksdb_compaction_options_canceled_set(canceledFlag, flag(value));
            canceled = value;
        });
        return this;
    }

    /**
     * Whether compactions with these options are canceled.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean isCanceled() {
        lifecycle.ensureOpen();
        return canceled;
    }
}
