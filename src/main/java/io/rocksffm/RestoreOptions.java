package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Options of a restore from a backup ({@code rocksdb_restore_options_t}), for
 * {@link BackupEngine#restoreLatest(Path, Path, RestoreOptions)} and
 * {@link BackupEngine#restore(int, Path, Path, RestoreOptions)}.
 *
 * <p>The caller owns and closes it. Safe to share across threads; any call after close throws
 * {@link IllegalStateException}.
 */
public final class RestoreOptions extends NativeObject {
    private volatile boolean keepLogFiles;

    /** RocksDB's defaults: the restore replaces the write-ahead log files too. */
    public RestoreOptions() {
        super("RestoreOptions", rocksdb_restore_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_restore_options_destroy(p);
    }

    /**
     * Whether the restore keeps the log files already in the target's log directory (false by
     * default). Keeping them, with a backup made without log files, replays writes made after the
     * backup: the database comes back as it was when it stopped, not as it was at the backup.
     *
     * @param value true to keep existing log files
     * @return these options
     * @throws IllegalStateException if closed
     */
    public RestoreOptions setKeepLogFiles(boolean value) {
        use(p -> rocksdb_restore_options_set_keep_log_files(p, value ? 1 : 0));
        keepLogFiles = value;
        return this;
    }

    /**
     * Whether the restore keeps existing log files.
     *
     * @return true if it does
     * @throws IllegalStateException if closed
     */
    public boolean keepLogFiles() {
        lifecycle.ensureOpen();
        return keepLogFiles;
    }
}
