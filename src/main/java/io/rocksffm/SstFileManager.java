package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Envs;

import java.lang.foreign.MemorySegment;

/**
 * An SST file manager ({@code rocksdb_sst_file_manager_t}): tracks the table files of every
 * database whose {@link Options} name it ({@link Options#setSstFileManager}), their total size,
 * an optional limit on it, and the rate at which obsolete files are deleted. When the files pass
 * {@link #setMaxAllowedSpaceUsage the limit}, RocksDB stops the database's writes: flushes and
 * compactions fail with a {@link RocksDBException} whose status is {@code IOError} ("Max allowed
 * space was reached"), and the database enters read-only mode with that background error. Raising
 * or lifting the limit does not end that state: only reopening the database does (the C API has
 * no resume).
 *
 * {@snippet id="SstFileManager" :
 * try (SstFileManager files = SstFileManager.create()
 *              .setMaxAllowedSpaceUsage(10L << 30);   // past 10 GiB of table files, writes fail
 *      Options options = new Options().setCreateIfMissing(true).setSstFileManager(files);
 *      RocksDB db = RocksDB.open(dir.resolve("tracked"), options)) {
 *     db.put("k".getBytes(UTF_8), new byte[1000]);
 *     db.flush(true);
 *     long bytes = files.totalSize();   // of the table files of every database using the manager
 * }
 * }
 *
 * <p>The C functions {@code rocksdb_sst_file_manager_*} are in RocksDB 10.4 and later, not in
 * older engines such as 7.8.3 and 10.1.3: there {@link #create} throws
 * {@link UnsupportedOperationException} naming the function.
 *
 * <p>The caller owns it and closes it. RocksDB keeps its own reference from each options object
 * (and so each database) it was given to, so closing this object only drops the Java side's
 * reference: the databases keep using it. One manager may be shared by several databases. Safe
 * to share across threads; using a closed manager throws {@link IllegalStateException}.
 */
public final class SstFileManager extends NativeObject {
    private SstFileManager(MemorySegment sfm) {
        super("SstFileManager", sfm);
    }

    /**
     * A manager of files in the engine's default environment, without a space limit
     * ({@code rocksdb_sst_file_manager_create}).
     *
     * @return a new manager, owned by the caller
     * @throws UnsupportedOperationException if the engine lacks the function (before 10.4)
     */
    public static SstFileManager create() {
        Capabilities.require("rocksdb_sst_file_manager_create");
        return new SstFileManager(rocksdb_sst_file_manager_create(Envs.defaultEnv()));
    }

    @Override
    void destroy(MemorySegment sfm) {
        rocksdb_sst_file_manager_destroy(sfm);
    }

    /**
     * Limits the total size of the tracked table files: once it is reached, flushes and
     * compactions fail (the databases stop accepting writes, see the class comment).
     *
     * @param bytes the limit in bytes; 0 removes it
     * @return this manager
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws IllegalStateException if closed
     */
    public SstFileManager setMaxAllowedSpaceUsage(long bytes) {
        checkNotNegative("max allowed space", bytes);
        use(m -> rocksdb_sst_file_manager_set_max_allowed_space_usage(m, bytes));
        return this;
    }

    /**
     * Space set aside for compaction outputs when deciding whether a compaction may start (with a
     * {@link #setMaxAllowedSpaceUsage limit}).
     *
     * @param bytes the buffer in bytes
     * @return this manager
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws IllegalStateException if closed
     */
    public SstFileManager setCompactionBufferSize(long bytes) {
        checkNotNegative("compaction buffer size", bytes);
        use(m -> rocksdb_sst_file_manager_set_compaction_buffer_size(m, bytes));
        return this;
    }

    /**
     * Whether the tracked files have reached the {@link #setMaxAllowedSpaceUsage limit}.
     *
     * @return true if a limit is set and reached
     * @throws IllegalStateException if closed
     */
    public boolean isMaxAllowedSpaceReached() {
        return apply(m -> rocksdb_sst_file_manager_is_max_allowed_space_reached(m));
    }

    /**
     * Whether the tracked files plus the space running compactions may need reach the limit.
     *
     * @return true if a limit is set and reached, counting compactions
     * @throws IllegalStateException if closed
     */
    public boolean isMaxAllowedSpaceReachedIncludingCompactions() {
        return apply(m -> rocksdb_sst_file_manager_is_max_allowed_space_reached_including_compactions(m));
    }

    /**
     * The total size of the table files tracked now (of every database using this manager).
     *
     * @return the size in bytes
     * @throws IllegalStateException if closed
     */
    public long totalSize() {
        return read(m -> rocksdb_sst_file_manager_get_total_size(m));
    }

    /**
     * How fast obsolete files are deleted, in bytes per second; 0 deletes at once.
     *
     * @return the rate, 0 for immediate deletion
     * @throws IllegalStateException if closed
     */
    public long deleteRateBytesPerSecond() {
        return read(m -> rocksdb_sst_file_manager_get_delete_rate_bytes_per_second(m));
    }

    /**
     * Limits how fast obsolete files are deleted (they wait as trash meanwhile); 0 deletes at once.
     *
     * @param bytesPerSecond the rate, 0 for immediate deletion
     * @return this manager
     * @throws IllegalArgumentException if {@code bytesPerSecond < 0}
     * @throws IllegalStateException if closed
     */
    public SstFileManager setDeleteRateBytesPerSecond(long bytesPerSecond) {
        checkNotNegative("delete rate", bytesPerSecond);
        use(m -> rocksdb_sst_file_manager_set_delete_rate_bytes_per_second(m, bytesPerSecond));
        return this;
    }

    /**
     * The ratio of trash to live data above which obsolete files are deleted at once despite a
     * delete rate.
     *
     * @return the ratio
     * @throws IllegalStateException if closed
     */
    public double maxTrashDbRatio() {
        return apply(m -> rocksdb_sst_file_manager_get_max_trash_db_ratio(m));
    }

    /**
     * Sets the ratio of trash to live data above which obsolete files are deleted at once.
     *
     * @param ratio the ratio, not negative
     * @return this manager
     * @throws IllegalArgumentException if {@code ratio} is negative or NaN
     * @throws IllegalStateException if closed
     */
    public SstFileManager setMaxTrashDbRatio(double ratio) {
        if (!(ratio >= 0)) {
            throw new IllegalArgumentException("max trash db ratio must be >= 0: " + ratio);
        }
        use(m -> rocksdb_sst_file_manager_set_max_trash_db_ratio(m, ratio));
        return this;
    }

    /**
     * The total size of obsolete files waiting to be deleted (with a delete rate).
     *
     * @return the size in bytes
     * @throws IllegalStateException if closed
     */
    public long totalTrashSize() {
        return read(m -> rocksdb_sst_file_manager_get_total_trash_size(m));
    }

    private static void checkNotNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must be >= 0: " + value);
        }
    }
}
