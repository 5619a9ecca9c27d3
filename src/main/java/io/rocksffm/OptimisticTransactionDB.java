package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;


import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import io.rocksffm.internal.Upcalls;

/**
 * A database with optimistic transactions ({@code rocksdb_optimistictransactiondb_t}): a
 * {@link Transaction} takes no locks; its commit fails ({@link RocksDBException.Code#BUSY}, or
 * {@link RocksDBException.Code#TRY_AGAIN} when too little history is kept in memory to check) if
 * another writer changed a key it wrote or read {@link Transaction#getForUpdate for update}
 * after the transaction first touched it (or after its snapshot). Good when conflicts are rare.
 *
 * {@snippet id="OptimisticTransactionDB" :
 * try (OptimisticTransactionDB db = OptimisticTransactionDB.open(path, options);
 *      WriteOptions write = new WriteOptions()) {
 *     for (boolean done = false; !done; ) {
 *         try (Transaction tx = db.beginTransaction(write)) {
 *             byte[] stock = tx.getForUpdate("stock".getBytes(UTF_8));   // no lock: checked at commit
 *             tx.put("stock".getBytes(UTF_8), new byte[] {(byte) (stock[0] - 1)});
 *             tx.commit();
 *             done = true;
 *         } catch (RocksDBException e) {   // BUSY: another writer changed "stock"; try again
 *             if (e.code() != RocksDBException.Code.BUSY) throw e;
 *         }
 *     }
 * }
 * }
 *
 * <p>Offers the reads of {@link KeyValueReads}, the administration of {@link DatabaseAdmin} and
 * the writes of {@link KeyValueWrites}, all through the base database
 * ({@code rocksdb_optimistictransactiondb_get_base_db}); those writes are not transactional, but
 * optimistic transactions see them as conflicts.
 *
 * <p><b>Ownership and threads.</b> As {@link RocksDB}: owned by the caller, safe to share across
 * threads; {@link #close()} refuses ({@link IllegalStateException}) while transactions, pinned
 * values, iterators or snapshots made from it are open.
 */
public final class OptimisticTransactionDB extends Database {
    private OptimisticTransactionDB(MemorySegment handle, MemorySegment base, Path path, List<String> names,
                                    MemorySegment handles) {
        super("OptimisticTransactionDB", handle, base, path, false, names, handles);
    }

    /**
     * Opens (or, with {@link Options#setCreateIfMissing}, creates) an optimistic transaction
     * database with the default column family only. The options may be closed once this returns.
     *
     * @param path    the database's directory
     * @param options the database's options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when the database does not exist and create-if-missing is off
     */
    public static OptimisticTransactionDB open(Path path, Options options) {
        return open(path, options, List.of());
    }

    /**
     * Opens an optimistic transaction database with the given column families (every family it
     * has; the default one is added with {@code options} if absent), as
     * {@link RocksDB#open(Path, Options, List)} does.
     *
     * @param path     the database's directory
     * @param options  the database's options
     * @param families every column family of the database, with its options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when a family is missing from the list
     */
    public static OptimisticTransactionDB open(Path path, Options options, List<ColumnFamilyDescriptor> families) {
        return Opening.open(path, options, families, (o, name, n, names, familyOptions, handles, err) ->
                        rocksdb_optimistictransactiondb_open_column_families(o, name, n, names, familyOptions, handles,
                                err), false,
                (db, p, readOnly, names, handles) -> new OptimisticTransactionDB(db,
                        rocksdb_optimistictransactiondb_get_base_db(db), p, names, handles));
    }

    @Override
    void destroy(MemorySegment p) {
        families.closeAll();
        rocksdb_optimistictransactiondb_close_base_db(db);
        rocksdb_optimistictransactiondb_close(p);
        families.releaseComparators(); // RocksDB no longer calls them
        OpenDatabases.remove(realPath, this);
        if (lifecycle.guardsCallbacks()) {
            Upcalls.recyclePoolThreads(); // no thread that ran Java code is left to block halt
        }
    }

    /**
     * Closes the database and its column family handles. Idempotent; waits for calls in flight.
     *
     * @throws IllegalStateException if transactions, pinned values, iterators, snapshots or
     *         checkpoints from it are open
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "transactions, pinned values, iterators, snapshots, checkpoints or pauses of background work");
    }

    // ---- transactions ---------------------------------------------------------------------------

    /**
     * Begins an optimistic transaction with RocksDB's default options.
     *
     * @param writeOptions the options its commit writes with
     * @return the transaction, owned by the caller; this database refuses to close until it is closed
     * @throws IllegalStateException if this database or the options are closed
     */
    public Transaction beginTransaction(WriteOptions writeOptions) {
        return beginTransaction(writeOptions, OptimisticTransactionOptions.DEFAULT, null);
    }

    /**
     * Begins an optimistic transaction.
     *
     * @param writeOptions the options its commit writes with (may be closed once this returns)
     * @param txOptions    its options (may be closed once this returns)
     * @return the transaction, owned by the caller
     * @throws IllegalStateException if this database or the options are closed
     */
    public Transaction beginTransaction(WriteOptions writeOptions, OptimisticTransactionOptions txOptions) {
        return beginTransaction(writeOptions, txOptions, null);
    }

    /**
     * Begins an optimistic transaction, reusing {@code reuse}'s native object when it is not null
     * (see {@link TransactionDB#beginTransaction(WriteOptions, TransactionOptions, Transaction)}).
     *
     * @param writeOptions the options its commit writes with (may be closed once this returns)
     * @param txOptions    its options (may be closed once this returns)
     * @param reuse        a finished transaction of this database to begin again, or null
     * @return the transaction ({@code reuse} when given), owned by the caller
     * @throws IllegalArgumentException if {@code reuse} belongs to another database
     * @throws IllegalStateException if {@code reuse} is closed, not finished, or in use
     */
    public Transaction beginTransaction(WriteOptions writeOptions, OptimisticTransactionOptions txOptions,
                                        Transaction reuse) {
        Objects.requireNonNull(writeOptions, "writeOptions");
        Objects.requireNonNull(txOptions, "txOptions");
        return Transactions.begin(this, reuse, writeOptions, txOptions, txOptions.setSnapshot,
                old -> rocksdb_optimistictransaction_begin(ptr, writeOptions.ptr, txOptions.ptr, old));
    }

    // ---- writes (not transactional, through the base database) ---------------------------------

    @Override
    public Database put(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        putDirect(family, options, key, value);
        return this;
    }

    @Override
    public Database merge(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        mergeDirect(family, options, key, value);
        return this;
    }

    @Override
    public Database delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        deleteDirect(family, options, key);
        return this;
    }

    /**
     * Refused: RocksDB's optimistic transaction database has no range deletion (its conflict
     * checks track keys, not ranges; its {@code DeleteRange} returns "not supported", and it
     * refuses batches holding one).
     *
     * @throws UnsupportedOperationException always, after the argument and state checks
     */
    @Override
    public Database deleteRange(ColumnFamilyHandle family, WriteOptions options, MemorySegment begin, MemorySegment end) {
        throw UnsupportedWrites.rangeDeletion(guard, families, "an OptimisticTransactionDB", family, options, begin, end);
    }

    @Override
    public Database singleDelete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        singleDeleteDirect(family, options, key);
        return this;
    }

    @Override
    void writeNative(MemorySegment options, MemorySegment nativeBatch, MemorySegment errptr) {
        rocksdb_optimistictransactiondb_write(ptr, options, nativeBatch, errptr);
    }

    @Override
    boolean takesRangeDeletions() {
        return false;
    }
}
