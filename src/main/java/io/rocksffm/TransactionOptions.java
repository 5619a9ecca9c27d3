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

    /**
     * Take a snapshot when the transaction begins: a write to a key another writer changed after
     * it then fails ({@link RocksDBException.Code#BUSY}), and {@link Transaction#getSnapshot()}
     * returns it for reads.
     *
     * @param value whether to take a snapshot at begin
     * @return these options
     * @throws IllegalStateException if closed
     */
    public TransactionOptions setSetSnapshot(boolean value) {
        use(p -> rocksdb_transaction_options_set_set_snapshot(p, flag(value)));
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
