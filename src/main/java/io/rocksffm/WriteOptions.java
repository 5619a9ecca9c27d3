package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options for writes ({@code rocksdb_writeoptions_t}).
 *
 * <p>Owned by the caller, who closes it after the writes that use it. Safe to share across
 * threads for writing; closing waits for writes in flight. Using a closed instance throws
 * {@link IllegalStateException}.
 */
public final class WriteOptions extends NativeObject {
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

    /**
     * fsync the WAL before a write returns: survives machine crashes, not just process crashes.
     *
     * @param value whether to sync the write-ahead log before a write returns
     * @return these options
     */
    public WriteOptions setSync(boolean value) {
        use(p -> rocksdb_writeoptions_set_sync(p, flag(value)));
        return this;
    }

    /** {@return whether writes are synced} */
    public boolean sync() {
        return read(p -> rocksdb_writeoptions_get_sync(p)) != 0;
    }

    /**
     * Skip the write-ahead log: writes not yet flushed are lost on a crash.
     *
     * @param value whether to skip the write-ahead log
     * @return these options
     */
    public WriteOptions setDisableWAL(boolean value) {
        use(p -> rocksdb_writeoptions_disable_WAL(p, value ? 1 : 0));
        return this;
    }

    /** {@return whether the write-ahead log is skipped} */
    public boolean disableWAL() {
        return read(p -> rocksdb_writeoptions_get_disable_WAL(p)) != 0;
    }
}
