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
public final class RestoreOptions extends RestoreOptionsSettings {

    /** RocksDB's defaults: the restore replaces the write-ahead log files too. */
    public RestoreOptions() {
        super("RestoreOptions", rocksdb_restore_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_restore_options_destroy(p);
    }
}
