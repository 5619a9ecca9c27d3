package io.rocksffm;

import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * RocksDB's background-error state, as the errors of writes and flushes report it. After a failed
 * flush or compaction, or a write that failed after it was logged, a database refuses every write
 * until it is reopened; the engine's C API has no {@code rocksdb_resume}, so rocksffm cannot offer
 * one and says so instead.
 */
final class BackgroundErrors {
    private BackgroundErrors() {}

    /** The property that counts a database's background errors. */
    static final String PROPERTY = "rocksdb.background-errors";

    /**
     * {@code e} with a note on the background-error state when the database reports background
     * errors ({@code errors} reads its {@link #PROPERTY}).
     */
    static RocksDBException explain(RocksDBException e, Supplier<OptionalLong> errorCount) {
        long errors;
        try {
            errors = errorCount.get().orElse(0);
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
