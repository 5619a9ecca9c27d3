package io.rocksffm;

import io.rocksffm.internal.Ids;

/**
 * How opening a database treats a damaged write-ahead log ({@link Options#setWalRecoveryMode});
 * ids follow RocksDB's {@code WALRecoveryMode}.
 */
public enum WalRecoveryMode {
    /** Tolerates an incomplete record at the end of any log (the behaviour of LevelDB). */
    TOLERATE_CORRUPTED_TAIL_RECORDS(0),
    /** Fails on any damage in the logs: for applications that cannot lose a write. */
    ABSOLUTE_CONSISTENCY(1),
    /** Stops replaying at the first damaged record (RocksDB's default): the database is as it was at that point. */
    POINT_IN_TIME_RECOVERY(2),
    /** Skips every damaged record: for salvaging as much as possible. */
    SKIP_ANY_CORRUPTED_RECORDS(3);

    final int id;

    WalRecoveryMode(int id) {
        this.id = id;
    }

    static WalRecoveryMode of(int id) {
        return Ids.of(values(), v -> v.id, id, "WAL recovery mode");
    }
}
