package io.rocksffm;

/**
 * RocksDB's background-error state, as the errors of writes and flushes report it. After a failed
 * flush or compaction, or a write that failed after it was logged, a database refuses every write
 * until it is reopened; the engine's C API has no {@code rocksdb_resume}, so rocksffm cannot offer
 * one and says so instead.
 */
final class BackgroundErrors {
    private BackgroundErrors() {}

    /** {@code e} with a note on the background-error state when {@code db} reports background errors. */
    static RocksDBException explain(Database db, RocksDBException e) {
        long errors;
        try {
            errors = db.getLongProperty(db.defaultFamily, "rocksdb.background-errors").orElse(0);
        } catch (RuntimeException notAvailable) {
            return e;
        }
        if (errors <= 0) {
            return e;
        }
        RocksDBException explained = new RocksDBException(e.getMessage() + " [RocksDB reported " + errors
                + " background error(s): the database is in its background-error state, in which it refuses "
                + "every write until it is reopened (the C API offers no resume)]");
        explained.initCause(e);
        return explained;
    }
}
