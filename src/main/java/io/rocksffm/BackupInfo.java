package io.rocksffm;

import java.time.Instant;

/**
 * One backup in a {@link BackupEngine}'s directory.
 *
 * @param id        the backup's id (1 for the first backup of a directory, then increasing)
 * @param timestamp when the backup was made (whole seconds)
 * @param size      the bytes of the backup's files (shared files counted in every backup holding them)
 * @param fileCount the number of files in the backup
 * @param appMetadata the application's metadata stored with the backup
 *        ({@link BackupEngine#createBackupWithMetadata}), empty when none (and on engines before
 *        RocksDB 11.8, which do not report it)
 */
public record BackupInfo(int id, Instant timestamp, long size, int fileCount, String appMetadata) {
}
