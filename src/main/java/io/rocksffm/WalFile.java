package io.rocksffm;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One write-ahead log file of a database, as {@link Database#sortedWalFiles()} and
 * {@link Database#currentWalFile()} report it ({@code rocksdb_wal_file_t}, copied: a plain
 * value, nothing to close).
 *
 * @param pathName      the file's name relative to the database's WAL directory, as RocksDB gives
 *                      it: {@code "/000012.log"} for a live file, {@code "/archive/000012.log"}
 *                      for an archived one
 * @param logNumber     the log's number (the number in its name)
 * @param type          whether the file is live or archived
 * @param startSequence the sequence number of the file's first write (0 for an empty file)
 * @param sizeBytes     the file's size in bytes when it was listed
 */
public record WalFile(String pathName, long logNumber, Type type, long startSequence, long sizeBytes) {
    /** Whether a log file is still in use or was moved to the archive. */
    public enum Type {
        /** Moved to the {@code archive} directory (kept for {@code WAL_ttl_seconds} or {@code WAL_size_limit_MB}). */
        ARCHIVED,
        /** In the WAL directory: the current log or one whose data is not all flushed yet. */
        ALIVE;

        /** The C API's {@code rocksdb_wal_file_type_*} value. */
        static Type of(int c) {
            return switch (c) {
                case 0 -> ARCHIVED;
                case 1 -> ALIVE;
                default -> throw new IllegalStateException("unknown WAL file type " + c);
            };
        }
    }

    /**
     * Checks the components.
     *
     * @throws NullPointerException if {@code pathName} or {@code type} is null
     */
    public WalFile {
        Objects.requireNonNull(pathName, "pathName");
        Objects.requireNonNull(type, "type");
    }

    /**
     * The file's path under {@code walDir} (the database's directory unless the options name a
     * WAL directory).
     *
     * @param walDir the database's WAL directory
     * @return the file's path
     */
    public Path in(Path walDir) {
        String relative = pathName.startsWith("/") ? pathName.substring(1) : pathName;
        return Objects.requireNonNull(walDir, "walDir").resolve(relative);
    }
}
