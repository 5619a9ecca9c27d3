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

    private static void checkRate(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("rate limit must be >= 0 (0 for none): " + bytesPerSecond);
        }
    }
}
