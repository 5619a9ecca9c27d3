package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options of a pessimistic {@link TransactionDB} ({@code rocksdb_transactiondb_options_t}), given
 * to {@link TransactionDB#open}: how many locks it may hold and how long transactions wait for
 * them.
 *
 * <p>The C API has setters only, so these options have no getters. Owned by the caller, who may
 * close them once the database is open. Safe to share across threads. Use after close throws
 * {@link IllegalStateException}.
 */
public final class TransactionDBOptions extends NativeObject {
    /** RocksDB's defaults: unlimited locks, 16 stripes, 1000 ms lock timeout, no timeout for non-transactional writes. */
    public TransactionDBOptions() {
        super("TransactionDBOptions", rocksdb_transactiondb_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_transactiondb_options_destroy(p);
    }

    /**
     * The most keys a column family may have locked at once ({@code 0} or less: no limit); a
     * transaction that would exceed it fails with {@link RocksDBException.Code#BUSY} (RocksDB 7.x)
     * or {@link RocksDBException.Code#ABORTED} (10.x), "... max_num_locks limit".
     *
     * @param maxLocks the limit per column family
     * @return these options
     */
    public TransactionDBOptions setMaxNumLocks(long maxLocks) {
        use(p -> rocksdb_transactiondb_options_set_max_num_locks(p, maxLocks));
        return this;
    }

    /**
     * The number of sub-tables of each column family's lock table (more: less contention).
     *
     * @param stripes the number of stripes, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code stripes} is below 1
     */
    public TransactionDBOptions setNumStripes(long stripes) {
        if (stripes < 1) {
            throw new IllegalArgumentException("stripes must be >= 1: " + stripes);
        }
        use(p -> rocksdb_transactiondb_options_set_num_stripes(p, stripes));
        return this;
    }

    /**
     * The default time a transaction waits for a lock, in milliseconds ({@code -1}: forever,
     * {@code 0}: fail at once); a {@link TransactionOptions#setLockTimeout} overrides it. A wait
     * that runs out fails with {@link RocksDBException.Code#TIMED_OUT}.
     *
     * @param millis the timeout in milliseconds, or -1
     * @return these options
     * @throws IllegalArgumentException if {@code millis} is below -1
     */
    public TransactionDBOptions setTransactionLockTimeout(long millis) {
        TransactionOptions.checkTimeout(millis);
        use(p -> rocksdb_transactiondb_options_set_transaction_lock_timeout(p, millis));
        return this;
    }

    /**
     * The time a non-transactional write (the database's own put, delete, write) waits for the
     * locks of the keys it writes, in milliseconds ({@code -1}: forever).
     *
     * @param millis the timeout in milliseconds, or -1
     * @return these options
     * @throws IllegalArgumentException if {@code millis} is below -1
     */
    public TransactionDBOptions setDefaultLockTimeout(long millis) {
        TransactionOptions.checkTimeout(millis);
        use(p -> rocksdb_transactiondb_options_set_default_lock_timeout(p, millis));
        return this;
    }
}
