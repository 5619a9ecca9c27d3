package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

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
public final class CompactionOptions extends NativeObject {
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

    /**
     * The compression of the output files. By default RocksDB uses the column family's
     * compression for the output level (with the family's compression settings either way, which
     * is why RocksDB deprecates choosing another type here).
     *
     * @param compression the compression type
     * @return these options
     * @throws IllegalStateException if closed
     */
    public CompactionOptions setCompression(Compression compression) {
        Objects.requireNonNull(compression, "compression");
        use(p -> rocksdb_compaction_options_set_compression(p, compression.id));
        return this;
    }

    /**
     * The compression of the output files, as set. The default, RocksDB's "the column family's
     * compression", has no {@link Compression} value and reads as {@code null}.
     *
     * @return the compression, or {@code null} for the column family's
     * @throws IllegalStateException if closed
     */
    public Compression compression() {
        int id = (int) read(p -> rocksdb_compaction_options_get_compression(p));
        for (Compression c : Compression.values()) {
            if (c.id == id) {
                return c;
            }
        }
        return null;
    }

    /**
     * The largest output file, in bytes: the compaction starts a new file when the current one
     * reaches it. By default there is no limit: the compaction writes one file.
     *
     * @param bytes the limit, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code bytes <= 0}
     * @throws IllegalStateException if closed
     */
    public CompactionOptions setOutputFileSizeLimit(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("output file size limit must be > 0: " + bytes);
        }
        use(p -> rocksdb_compaction_options_set_output_file_size_limit(p, bytes));
        return this;
    }

    /**
     * The largest output file, in bytes ({@code -1}, the unsigned 64-bit maximum, when unset:
     * no limit).
     *
     * @return the limit
     * @throws IllegalStateException if closed
     */
    public long outputFileSizeLimit() {
        return read(p -> rocksdb_compaction_options_get_output_file_size_limit(p));
    }

    /**
     * How many subcompactions (threads) the compaction may split into; 0 (the default) takes the
     * database's {@code max_subcompactions}.
     *
     * @param count at least 0
     * @return these options
     * @throws IllegalArgumentException if {@code count < 0}
     * @throws IllegalStateException if closed
     */
    public CompactionOptions setMaxSubcompactions(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("max subcompactions must be >= 0: " + count);
        }
        use(p -> rocksdb_compaction_options_set_max_subcompactions(p, count));
        return this;
    }

    /**
     * How many subcompactions the compaction may split into (0: the database's setting).
     *
     * @return the count
     * @throws IllegalStateException if closed
     */
    public int maxSubcompactions() {
        return (int) read(p -> rocksdb_compaction_options_get_max_subcompactions(p));
    }

    /**
     * Whether input files that overlap nothing at the output level may be moved there instead
     * of rewritten (a "trivial move"). False by default.
     *
     * @param value true to allow trivial moves
     * @return these options
     * @throws IllegalStateException if closed
     */
    public CompactionOptions setAllowTrivialMove(boolean value) {
        use(p -> rocksdb_compaction_options_set_allow_trivial_move(p, flag(value)));
        return this;
    }

    /**
     * Whether trivial moves are allowed.
     *
     * @return true if they are
     * @throws IllegalStateException if closed
     */
    public boolean allowTrivialMove() {
        return read(p -> rocksdb_compaction_options_get_allow_trivial_move(p)) != 0;
    }
}
