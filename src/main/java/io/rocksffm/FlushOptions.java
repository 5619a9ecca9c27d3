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

    /**
     * Whether a flush waits until it is done (true by default).
     *
     * @param value true to wait
     * @return these options
     * @throws IllegalStateException if closed
     */
    public FlushOptions setWait(boolean value) {
        use(p -> rocksdb_flushoptions_set_wait(p, flag(value)));
        return this;
    }

    /**
     * Whether a flush waits until it is done.
     *
     * @return true if it waits
     * @throws IllegalStateException if closed
     */
    public boolean waitForFlush() {
        return read(p -> rocksdb_flushoptions_get_wait(p)) != 0;
    }
}
