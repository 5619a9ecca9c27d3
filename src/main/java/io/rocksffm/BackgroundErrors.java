package io.rocksffm;

/**
 * RocksDB's background-error state, as the errors of writes and flushes report it. After a failed
 * flush or compaction, or a write that failed after it was logged, a database refuses every write
 * until it is reopened; the engine's C API has no {@code rocksdb_resume}, so rocksffm cannot offer
 * one and says so instead.
 */
final class BackgroundErrors {
    private BackgroundErrors() {}

    /** The text of RocksDB's error once an {@link SstFileManager}'s space limit is reached. */
    private static final String SPACE_LIMIT = "Max allowed space was reached";

    /** {@code e} with a note on the background-error state when {@code db} reports background errors. */
    static RocksDBException explain(Database db, RocksDBException e) {
        long errors;
        try {
            errors = db.getLongProperty(db.defaultFamily, "rocksdb.background-errors").orElse(0);
        } catch (RuntimeException notAvailable) {
            return e;
        }
        if (errors <= 0 && !e.getMessage().contains(SPACE_LIMIT)) {
            return e;
        }
        String why = errors > 0 ? "RocksDB reported " + errors + " background error(s)"
                : "an SstFileManager's space limit was reached"; // not counted as a background error
        String limit = e.getMessage().contains(SPACE_LIMIT) ? "; raising or lifting the limit does not end it" : "";
        RocksDBException explained = new RocksDBException(e.getMessage() + " [" + why
                + ": the database is in its background-error state, in which it refuses "
                + "every write until it is reopened (the C API offers no resume" + limit + ")]");
        explained.initCause(e);
        return explained;
    }
}
