package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options for writes ({@code rocksdb_writeoptions_t}).
 *
 * {@snippet id="WriteOptions" :
 * try (WriteOptions durable = new WriteOptions().setSync(true)) {   // fsync the log before returning
 *     db.put(durable, "balance".getBytes(UTF_8), "100".getBytes(UTF_8));
 * }
 * }
 *
 * <p>Owned by the caller, who closes it after the writes that use it. Safe to share across
 * threads for writing; closing waits for writes in flight. Using a closed instance throws
 * {@link IllegalStateException}.
 */
public final class WriteOptions extends WriteOptionsSettings {
    /**
     * RocksDB's default write options, shared by the forms that take none; never closed, never changed
     * (not reachable from outside this package).
     */
    static final WriteOptions DEFAULT = new WriteOptions();

    /** RocksDB's default write options (no sync, WAL on). */
    public WriteOptions() {
        super("WriteOptions", rocksdb_writeoptions_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_writeoptions_destroy(p);
    }
}
