package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options of a pessimistic {@link TransactionDB} ({@code rocksdb_transactiondb_options_t}), given
 * to {@link TransactionDB#open}: how many locks it may hold and how long transactions wait for
 * them.
 *
 * <p>The getters need RocksDB 11.8 or later. Owned by the caller, who may close them once the
 * database is open. Safe to share across threads. Use after close throws
 * {@link IllegalStateException}.
 */
public final class TransactionDBOptions extends TransactionDBOptionsSettings {
    /** RocksDB's defaults: unlimited locks, 16 stripes, 1000 ms lock timeout, no timeout for non-transactional writes. */
    public TransactionDBOptions() {
        super("TransactionDBOptions", rocksdb_transactiondb_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_transactiondb_options_destroy(p);
    }
}
