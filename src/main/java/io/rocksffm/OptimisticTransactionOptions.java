package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options of one optimistic transaction ({@code rocksdb_optimistictransaction_options_t}), given
 * to {@link OptimisticTransactionDB#beginTransaction(WriteOptions, OptimisticTransactionOptions)}.
 *
 * <p>Owned by the caller, who may close them once the
 * transaction has begun. Safe to share across threads. Use after close throws {@link IllegalStateException}.
 */
public final class OptimisticTransactionOptions extends NativeObject {
    /**
     * Whether a transaction begun with these options takes a snapshot (kept here: the C API's
     * snapshot wrapper of a transaction without one is not safe to inspect).
     */
    volatile boolean setSnapshot;

    /**
     * RocksDB's defaults, shared by the forms that take none; never closed (not reachable from
     * outside this package).
     */
    static final OptimisticTransactionOptions DEFAULT = new OptimisticTransactionOptions();

    /** RocksDB's defaults: no snapshot (conflicts are checked against the first read or write of each key). */
    public OptimisticTransactionOptions() {
        super("OptimisticTransactionOptions", rocksdb_optimistictransaction_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_optimistictransaction_options_destroy(p);
    }

    /**
     * Take a snapshot when the transaction begins: its commit then fails
     * ({@link RocksDBException.Code#BUSY}) if another writer changed, after the snapshot, a key it
     * wrote or read for update; {@link Transaction#getSnapshot()} returns it for reads.
     *
     * @param value whether to take a snapshot at begin
     * @return these options
     * @throws IllegalStateException if closed
     */
    public OptimisticTransactionOptions setSetSnapshot(boolean value) {
        use(p -> rocksdb_optimistictransaction_options_set_set_snapshot(p, flag(value)));
        setSnapshot = value;
        return this;
    }

    /**
     * Whether a transaction begun with these options takes a snapshot ({@link #setSetSnapshot};
     * false by default). Known on every engine: these options keep the value they were given.
     *
     * @return whether a snapshot is taken at begin
     * @throws IllegalStateException if closed
     */
    public boolean isSetSnapshot() {
        lifecycle.ensureOpen();
        return setSnapshot;
    }
}
