package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options of a memtable flush ({@code rocksdb_flushoptions_t}), for
 * {@link RocksDB#flush(ColumnFamilyHandle, FlushOptions)}.
 *
 * <p>The caller owns and closes it. Safe to share across threads; any call after close throws
 * {@link IllegalStateException}.
 */
public final class FlushOptions extends FlushOptionsSettings {
    /** RocksDB's defaults: wait until the flush is done. */
    public FlushOptions() {
        super("FlushOptions", rocksdb_flushoptions_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_flushoptions_destroy(p);
    }
}
