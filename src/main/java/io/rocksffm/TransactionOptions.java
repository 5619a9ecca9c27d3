package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options of one pessimistic transaction ({@code rocksdb_transaction_options_t}), given to
 * {@link TransactionDB#beginTransaction(WriteOptions, TransactionOptions)}.
 *
 * <p>The C API has setters only, so these options have no getters. Owned by the caller, who may
 * close them once the transaction has begun. Safe to share across threads. Use after close
 * throws {@link IllegalStateException}.
 */
public final class TransactionOptions extends NativeObject {
    /**
     * Whether a transaction begun with these options takes a snapshot (kept here: the C API's
     * snapshot wrapper of a transaction without one is not safe to inspect).
     */
    volatile boolean setSnapshot;

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

    static void checkTimeout(long millis) {
        if (millis < -1) {
            throw new IllegalArgumentException("timeout must be >= -1 (-1: none): " + millis);
        }
    }

    /**
     * Take a snapshot when the transaction begins: a write to a key another writer changed after
     * it then fails ({@link RocksDBException.Code#BUSY}), and {@link Transaction#getSnapshot()}
     * returns it for reads.
     *
     * @param value whether to take a snapshot at begin
     * @return these options
     */
    public TransactionOptions setSetSnapshot(boolean value) {
        use(p -> rocksdb_transaction_options_set_set_snapshot(p, flag(value)));
        setSnapshot = value;
        return this;
    }

    /**
     * Detect deadlocks while waiting for a lock: a transaction that would close a cycle fails at
     * once with {@link RocksDBException.Code#BUSY} ("Deadlock") instead of timing out.
     *
     * @param value whether to detect deadlocks
     * @return these options
     */
    public TransactionOptions setDeadlockDetect(boolean value) {
        use(p -> rocksdb_transaction_options_set_deadlock_detect(p, flag(value)));
        return this;
    }

    /**
     * How deep the deadlock detector follows waits-for chains.
     *
     * @param depth the depth, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code depth} is below 1
     */
    public TransactionOptions setDeadlockDetectDepth(long depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("depth must be >= 1: " + depth);
        }
        use(p -> rocksdb_transaction_options_set_deadlock_detect_depth(p, depth));
        return this;
    }

    /**
     * How long the transaction waits for a lock, in milliseconds ({@code -1}: the database's
     * {@link TransactionDBOptions#setTransactionLockTimeout}, {@code 0}: fail at once). A wait
     * that runs out fails with {@link RocksDBException.Code#TIMED_OUT}.
     *
     * @param millis the timeout in milliseconds, or -1
     * @return these options
     * @throws IllegalArgumentException if {@code millis} is below -1
     */
    public TransactionOptions setLockTimeout(long millis) {
        checkTimeout(millis);
        use(p -> rocksdb_transaction_options_set_lock_timeout(p, millis));
        return this;
    }

    /**
     * How long the transaction may run, in milliseconds ({@code -1}: forever). Once expired, other
     * transactions may take its locks, and its writes and commit fail with
     * {@link RocksDBException.Code#EXPIRED}; it can still be rolled back.
     *
     * @param millis the expiration in milliseconds, or -1
     * @return these options
     * @throws IllegalArgumentException if {@code millis} is below -1
     */
    public TransactionOptions setExpiration(long millis) {
        checkTimeout(millis);
        use(p -> rocksdb_transaction_options_set_expiration(p, millis));
        return this;
    }

    /**
     * The largest size in bytes the transaction's write batch may reach ({@code 0}: no limit);
     * a write beyond it fails with {@link RocksDBException.Code#ABORTED} ("Memory limit reached").
     *
     * @param bytes the limit in bytes, or 0
     * @return these options
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public TransactionOptions setMaxWriteBatchSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
        }
        use(p -> rocksdb_transaction_options_set_max_write_batch_size(p, bytes));
        return this;
    }

    /**
     * Let a named transaction commit without {@link Transaction#prepare()} (RocksDB's default:
     * true). With false, {@link Transaction#commit()} of a named transaction that was not
     * prepared fails.
     *
     * @param value whether commit may skip prepare
     * @return these options
     */
    public TransactionOptions setSkipPrepare(boolean value) {
        use(p -> rocksdb_transaction_options_set_skip_prepare(p, flag(value)));
        return this;
    }
}
