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

    /**
     * Fails a write with {@link RocksDBException.Code#INCOMPLETE} instead of waiting when RocksDB
     * would slow it down or stop it (a write stall); false by default.
     *
     * @param value whether stalled writes fail at once
     * @return these options
     */
    public WriteOptions setNoSlowdown(boolean value) {
        use(p -> rocksdb_writeoptions_set_no_slowdown(p, flag(value)));
        return this;
    }

    /** {@return whether stalled writes fail at once} */
    public boolean noSlowdown() {
        return read(p -> rocksdb_writeoptions_get_no_slowdown(p)) != 0;
    }

    /**
     * Marks writes as low priority: RocksDB slows them down first when compaction falls behind
     * (false by default).
     *
     * @param value whether writes are low priority
     * @return these options
     */
    public WriteOptions setLowPri(boolean value) {
        use(p -> rocksdb_writeoptions_set_low_pri(p, flag(value)));
        return this;
    }

    /** {@return whether writes are low priority} */
    public boolean lowPri() {
        return read(p -> rocksdb_writeoptions_get_low_pri(p)) != 0;
    }

    /**
     * Keeps memtable insertion hints across the keys of one batch (faster inserts of batches of
     * sequential keys; false by default; not with concurrent memtable writes).
     *
     * @param value whether insertion hints are kept per batch
     * @return these options
     */
    public WriteOptions setMemtableInsertHintPerBatch(boolean value) {
        use(p -> rocksdb_writeoptions_set_memtable_insert_hint_per_batch(p, flag(value)));
        return this;
    }

    /** {@return whether insertion hints are kept per batch} */
    public boolean memtableInsertHintPerBatch() {
        return read(p -> rocksdb_writeoptions_get_memtable_insert_hint_per_batch(p)) != 0;
    }
}
