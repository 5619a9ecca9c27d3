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
public final class OptimisticTransactionOptions extends OptimisticTransactionOptionsSettings {
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
}
