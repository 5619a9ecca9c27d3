package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options of one pessimistic transaction ({@code rocksdb_transaction_options_t}), given to
 * {@link TransactionDB#beginTransaction(WriteOptions, TransactionOptions)}.
 *
 * <p>The getters need RocksDB 11.8 or later. Owned by the caller, who may close them once the
 * transaction has begun. Safe to share across threads. Use after close
 * throws {@link IllegalStateException}.
 */
public final class TransactionOptions extends TransactionOptionsSettings {
    /**
     * RocksDB's defaults, shared by the forms that take none; never closed (not reachable from
     * outside this package).
     */
    static final TransactionOptions DEFAULT = new TransactionOptions();

    /** RocksDB's defaults: no snapshot, no deadlock detection, the database's lock timeout, no expiration. */
    public TransactionOptions() {
        super("TransactionOptions", rocksdb_transaction_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_transaction_options_destroy(p);
    }
}
