package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Options of a {@link BackupEngine} ({@code rocksdb_backup_engine_options_t}): where backups go,
 * whether table files are shared between backups, syncing and rate limits.
 *
 * <p>The caller owns and closes it; {@link BackupEngine#open} copies the options, so they may be
 * closed once it returns. Setters return {@code this}. Safe to share across threads; any call
 * after close throws {@link IllegalStateException}.
 */
public final class BackupEngineOptions extends BackupEngineOptionsSettings {
    /**
     * Options for backups in the directory {@code backupDir} (created on open if missing), with
     * RocksDB's defaults: table files shared, files synced, no rate limits.
     *
     * @param backupDir the backup directory
     * @throws IllegalArgumentException if the path holds a NUL character
     */
    public BackupEngineOptions(Path backupDir) {
        super("BackupEngineOptions", create(CStrings.path(backupDir)));
    }

    private static MemorySegment create(String dir) {
        try (Arena arena = Arena.ofConfined()) {
            return rocksdb_backup_engine_options_create(arena.allocateFrom(dir));
        }
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_backup_engine_options_destroy(p);
    }

    /**
     * Whether backups share their table files (incremental backups: a file already backed up is
     * not copied again). True by default.
     *
     * @param value true to share table files
     * @return these options
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setShareTableFiles(boolean value) {
        use(p -> rocksdb_backup_engine_options_set_share_table_files(p, flag(value)));
        return this;
    }

    /**
     * Whether backups share their table files.
     *
     * @return true if they do
     * @throws IllegalStateException if closed
     */
    public boolean shareTableFiles() {
        return read(p -> rocksdb_backup_engine_options_get_share_table_files(p)) != 0;
    }

    /**
     * Whether backup and restore sync the files they write (true by default: a backup survives a
     * machine crash).
     *
     * @param value true to sync
     * @return these options
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setSync(boolean value) {
        use(p -> rocksdb_backup_engine_options_set_sync(p, flag(value)));
        return this;
    }

    /**
     * Whether backup and restore sync the files they write.
     *
     * @return true if they do
     * @throws IllegalStateException if closed
     */
    public boolean sync() {
        return read(p -> rocksdb_backup_engine_options_get_sync(p)) != 0;
    }

    /**
     * Whether opening the engine deletes every backup already in the directory (false by default).
     *
     * @param value true to start from an empty backup directory
     * @return these options
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setDestroyOldData(boolean value) {
        use(p -> rocksdb_backup_engine_options_set_destroy_old_data(p, flag(value)));
        return this;
    }

    /**
     * Whether opening the engine deletes the backups already in the directory.
     *
     * @return true if it does
     * @throws IllegalStateException if closed
     */
    public boolean destroyOldData() {
        return read(p -> rocksdb_backup_engine_options_get_destroy_old_data(p)) != 0;
    }

    /**
     * Whether backups include the write-ahead log files (true by default). Without them, a backup
     * holds only what was flushed: back up with a flush first.
     *
     * @param value true to back up log files
     * @return these options
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setBackupLogFiles(boolean value) {
        use(p -> rocksdb_backup_engine_options_set_backup_log_files(p, flag(value)));
        return this;
    }

    /**
     * Whether backups include the write-ahead log files.
     *
     * @return true if they do
     * @throws IllegalStateException if closed
     */
    public boolean backupLogFiles() {
        return read(p -> rocksdb_backup_engine_options_get_backup_log_files(p)) != 0;
    }

    /**
     * The most bytes per second a backup writes; 0 (the default) for no limit.
     *
     * @param bytesPerSecond the limit, or 0 for none
     * @return these options
     * @throws IllegalArgumentException if negative
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setBackupRateLimit(long bytesPerSecond) {
        checkRate(bytesPerSecond);
        use(p -> rocksdb_backup_engine_options_set_backup_rate_limit(p, bytesPerSecond));
        return this;
    }

    /**
     * The backup rate limit.
     *
     * @return bytes per second, 0 for none
     * @throws IllegalStateException if closed
     */
    public long backupRateLimit() {
        return read(p -> rocksdb_backup_engine_options_get_backup_rate_limit(p));
    }

    /**
     * The most bytes per second a restore writes; 0 (the default) for no limit.
     *
     * @param bytesPerSecond the limit, or 0 for none
     * @return these options
     * @throws IllegalArgumentException if negative
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setRestoreRateLimit(long bytesPerSecond) {
        checkRate(bytesPerSecond);
        use(p -> rocksdb_backup_engine_options_set_restore_rate_limit(p, bytesPerSecond));
        return this;
    }

    /**
     * The restore rate limit.
     *
     * @return bytes per second, 0 for none
     * @throws IllegalStateException if closed
     */
    public long restoreRateLimit() {
        return read(p -> rocksdb_backup_engine_options_get_restore_rate_limit(p));
    }

    /**
     * How many threads copy files during a backup or restore (1 by default).
     *
     * @param threads at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code threads < 1}
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setMaxBackgroundOperations(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1: " + threads);
        }
        use(p -> rocksdb_backup_engine_options_set_max_background_operations(p, threads));
        return this;
    }

    /**
     * How many threads copy files during a backup or restore.
     *
     * @return the number of threads
     * @throws IllegalStateException if closed
     */
    public int maxBackgroundOperations() {
        return (int) read(p -> rocksdb_backup_engine_options_get_max_background_operations(p));
    }

    /**
     * How many bytes a backup copies between two calls of its
     * {@link CreateBackupOptions#setProgressCallback progress callback} (4 MiB by default).
     *
     * @param bytes the interval in bytes, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code bytes <= 0}
     * @throws IllegalStateException if closed
     */
    public BackupEngineOptions setCallbackTriggerIntervalSize(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("callback interval must be > 0: " + bytes);
        }
        use(p -> rocksdb_backup_engine_options_set_callback_trigger_interval_size(p, bytes));
        return this;
    }

    /**
     * How many bytes a backup copies between two progress callbacks.
     *
     * @return the interval in bytes
     * @throws IllegalStateException if closed
     */
    public long callbackTriggerIntervalSize() {
        return read(p -> rocksdb_backup_engine_options_get_callback_trigger_interval_size(p));
    }

    private static void checkRate(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("rate limit must be >= 0 (0 for none): " + bytesPerSecond);
        }
    }
}
