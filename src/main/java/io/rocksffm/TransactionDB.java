package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.ListMultiGet;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import io.rocksffm.internal.MultiGet;
import io.rocksffm.internal.Upcalls;
import java.lang.foreign.Arena;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A database with pessimistic transactions ({@code rocksdb_transactiondb_t}): a
 * {@link Transaction} locks each key it writes or reads {@link Transaction#getForUpdate for
 * update}, so conflicts surface when they happen (a lock wait that times out,
 * {@link RocksDBException.Code#TIMED_OUT}, or a detected deadlock, {@link RocksDBException.Code#BUSY}),
 * and commit does not fail for a conflict. Supports two-phase commit ({@link Transaction#prepare()})
 * and recovers prepared transactions on open ({@link #getPreparedTransactions()}).
 *
 * {@snippet id="TransactionDB" :
 * try (TransactionDBOptions txDbOptions = new TransactionDBOptions();
 *      TransactionDB db = TransactionDB.open(path, options, txDbOptions);
 *      WriteOptions write = new WriteOptions();
 *      TransactionOptions txOptions = new TransactionOptions().setLockTimeout(100);  // ms
 *      Transaction tx = db.beginTransaction(write, txOptions)) {
 *     byte[] stock = tx.getForUpdate("stock".getBytes(UTF_8));   // locks "stock" until commit
 *     tx.put("stock".getBytes(UTF_8), "9".getBytes(UTF_8));
 *     tx.commit();   // a lock wait that runs out throws TIMED_OUT; a deadlock, BUSY
 * }
 * }
 *
 * <p>Offers the reads of {@link KeyValueReads} and the writes of {@link KeyValueWrites}; those
 * writes are not transactional but wait for the locks of the keys they write (see
 * {@link TransactionDBOptions#setDefaultLockTimeout}).
 *
 * <p><b>Engines.</b> On RocksDB 10.x reads, iterators, snapshots and administration go to the
 * base database ({@code rocksdb_transactiondb_get_base_db}). Engines before it (Debian's 7.8.3)
 * lack that function: there, reads, multi-gets, iterators, snapshots, flushes and the default
 * family's properties go through the {@code rocksdb_transactiondb_*} functions, and the rest of
 * the administration (compaction, sizes, checkpoints, other families' properties, creating and
 * dropping column families) throws {@link UnsupportedOperationException} naming the missing
 * function.
 *
 * <p><b>Ownership and threads.</b> As {@link RocksDB}: owned by the caller, safe to share across
 * threads; {@link #close()} refuses ({@link IllegalStateException}) while transactions, pinned
 * values, iterators or snapshots made from it are open.
 */
public final class TransactionDB extends Database {
    /** Whether the engine has rocksdb_transactiondb_get_base_db (RocksDB 10.x). */
    static final boolean BASE_DB = Capabilities.callable("rocksdb_transactiondb_get_base_db");

    /**
     * The names of this database's transactions held by {@link Transaction} objects (names are
     * unique among a database's live transactions), so {@link #getPreparedTransactions()} returns
     * only the others: RocksDB lists every prepared transaction, held or not.
     */
    private final Set<String> heldNames = ConcurrentHashMap.newKeySet();

    /** Holds {@code now} in place of {@code before} (either null for none) as a live transaction's name. */
    void replaceHeldName(String before, String now) {
        if (before != null) {
            heldNames.remove(before);
        }
        if (now != null) {
            heldNames.add(now);
        }
    }

    private TransactionDB(MemorySegment handle, MemorySegment base, Path path, List<String> names,
                          MemorySegment handles) {
        super("TransactionDB", handle, base, path, false, names, handles);
    }

    /**
     * Opens (or, with {@link Options#setCreateIfMissing}, creates) a transaction database with the
     * default column family only. The options may be closed once this returns.
     *
     * @param path      the database's directory
     * @param options   the database's options
     * @param txOptions the transaction database's options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when the database does not exist and create-if-missing is off
     */
    public static TransactionDB open(Path path, Options options, TransactionDBOptions txOptions) {
        return open(path, options, txOptions, List.of());
    }

    /**
     * Opens a transaction database with the given column families (every family it has must be
     * listed; the default one is added with {@code options} if absent), as
     * {@link RocksDB#open(Path, Options, List)} does. Prepared two-phase transactions found in the
     * write-ahead log are recovered: see {@link #getPreparedTransactions()}.
     *
     * @param path      the database's directory
     * @param options   the database's options
     * @param txOptions the transaction database's options
     * @param families  every column family of the database, with its options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when a family is missing from the list
     */
    public static TransactionDB open(Path path, Options options, TransactionDBOptions txOptions,
                                     List<ColumnFamilyDescriptor> families) {
        Objects.requireNonNull(txOptions, "txOptions");
        try (Scratch s = Scratch.enterFirst(txOptions.lifecycle)) {
            return Opening.open(path, options, families,
                    (o, name, n, names, familyOptions, handles, err) -> rocksdb_transactiondb_open_column_families(o,
                            txOptions.ptr, name, n, names, familyOptions, handles, err),
                    false, (db, p, readOnly, names, handles) -> new TransactionDB(db,
                            BASE_DB ? rocksdb_transactiondb_get_base_db(db) : MemorySegment.NULL, p, names, handles));
        }
    }

    @Override
    void destroy(MemorySegment p) {
        families.closeAll();
        if (db.address() != 0) {
            rocksdb_transactiondb_close_base_db(db);
        }
        rocksdb_transactiondb_close(p);
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
     * Begins a transaction with RocksDB's default transaction options.
     *
     * @param writeOptions the options its commit writes with
     * @return the transaction, owned by the caller; this database refuses to close until it is closed
     * @throws IllegalStateException if this database or the options are closed
     */
    public Transaction beginTransaction(WriteOptions writeOptions) {
        return beginTransaction(writeOptions, TransactionOptions.DEFAULT);
    }

    /**
     * Begins a transaction.
     *
     * @param writeOptions the options its commit writes with (may be closed once this returns)
     * @param txOptions    its options (may be closed once this returns)
     * @return the transaction, owned by the caller; this database refuses to close until it is closed
     * @throws IllegalStateException if this database or the options are closed
     */
    public Transaction beginTransaction(WriteOptions writeOptions, TransactionOptions txOptions) {
        return beginTransaction(writeOptions, txOptions, null);
    }

    /**
     * Begins a transaction, reusing {@code reuse}'s native object when it is not null (the C API's
     * {@code old_txn}: saves an allocation). {@code reuse} must be a finished (committed or rolled
     * back) and open transaction of this database, with no iterator or snapshot open and no call
     * in flight; it is returned, begun again.
     *
     * @param writeOptions the options its commit writes with (may be closed once this returns)
     * @param txOptions    its options (may be closed once this returns)
     * @param reuse        a finished transaction of this database to begin again, or null
     * @return the transaction ({@code reuse} when given), owned by the caller
     * @throws IllegalArgumentException if {@code reuse} belongs to another database
     * @throws IllegalStateException if {@code reuse} is closed, not finished, or in use
     */
    public Transaction beginTransaction(WriteOptions writeOptions, TransactionOptions txOptions, Transaction reuse) {
        Objects.requireNonNull(writeOptions, "writeOptions");
        Objects.requireNonNull(txOptions, "txOptions");
        return Transactions.begin(this, reuse, writeOptions, txOptions, txOptions.setSnapshot,
                old -> rocksdb_transaction_begin(ptr, writeOptions.ptr, txOptions.ptr, old));
    }

    /**
     * The prepared but uncommitted two-phase transactions that no open {@link Transaction} object
     * owns: those recovered when this database was opened and not yet handed out by this method.
     * (Closing a transaction that is still prepared removes it from this database; it stays
     * prepared in the write-ahead log and is recovered again on the next open.) Each is
     * {@link Transaction.State#PREPARED}, with its {@link Transaction#getName() name}: commit or
     * roll it back, then close it.
     *
     * @return the recovered transactions, owned by the caller (empty if none)
     * @throws IllegalStateException if closed
     */
    public List<Transaction> getPreparedTransactions() {
        try (Scratch s = guard.begin()) {
            MemorySegment array = rocksdb_transactiondb_get_prepared_transactions(ptr, s.size);
            long n = s.size.get(JAVA_LONG, 0);
            List<Transaction> out = new ArrayList<>();
            if (array.address() == 0) {
                return out;
            }
            try {
                MemorySegment entries = array.reinterpret(ADDRESS.byteSize() * n);
                for (long i = 0; i < n; i++) {
                    MemorySegment txn = entries.getAtIndex(ADDRESS, i);
                    if (!heldNames.contains(Transactions.nameOf(txn))) {
                        out.add(Transactions.recovered(this, txn));
                    }
                    // else: already a Transaction's; its 8-byte wrapper (C++ new) is left, as the
                    // C API offers nothing that frees only the wrapper
                }
            } finally {
                Native.rocksdbFree(array);
            }
            return out;
        }
    }

    // ---- writes (not transactional; they wait for the keys' locks) -----------------------------

    @Override
    public Database put(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        try (Scratch s = guard.begin(options, family)) {
            families.refuseTimestamped(family);
            rocksdb_transactiondb_put_cf(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(), s.second(value),
                    value.byteSize(), s.errptr);
            checkWrite(s.errptr);
        }
        return this;
    }

    @Override
    public Database delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        try (Scratch s = guard.begin(options, family)) {
            families.refuseTimestamped(family);
            rocksdb_transactiondb_delete_cf(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(), s.errptr);
            checkWrite(s.errptr);
        }
        return this;
    }

    @Override
    public Database merge(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        try (Scratch s = guard.begin(options, family)) {
            families.refuseTimestamped(family);
            requireMergeOperator(family);
            rocksdb_transactiondb_merge_cf(ptr, options.ptr, family.ptr, s.first(key), key.byteSize(),
                    s.second(value), value.byteSize(), s.errptr);
            checkWrite(s.errptr);
        }
        return this;
    }

    /**
     * Refused: RocksDB's pessimistic transaction database has no range deletion (its transactions
     * lock keys, not ranges; its {@code DeleteRange} returns "not supported").
     *
     * @throws UnsupportedOperationException always, after the argument and state checks
     */
    @Override
    public Database deleteRange(ColumnFamilyHandle family, WriteOptions options, MemorySegment begin, MemorySegment end) {
        throw UnsupportedWrites.rangeDeletion(guard, families, "a TransactionDB", family, options, begin, end);
    }

    /** Written as a batch with a single deletion (the C API has no transaction database form). */
    @Override
    public Database singleDelete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        guard.checkFamily(family);
        Limits.checkKey(key);
        try (WriteBatch batch = new WriteBatch()) {
            batch.singleDelete(family, key);
            write(options, batch);
        }
        return this;
    }

    @Override
    void writeNative(MemorySegment options, MemorySegment nativeBatch, MemorySegment errptr) {
        rocksdb_transactiondb_write(ptr, options, nativeBatch, errptr);
    }

    @Override
    boolean takesRangeDeletions() {
        return false;
    }

    // ---- engines without rocksdb_transactiondb_get_base_db: the transactiondb_* reads ----------

    @Override
    boolean oneCallGets() {
        return BASE_DB && super.oneCallGets();
    }

    @Override
    MemorySegment pinnedSlice(MemorySegment options, MemorySegment family, MemorySegment key, long keyLength,
                              Scratch s) {
        if (BASE_DB) {
            return super.pinnedSlice(options, family, key, keyLength, s);
        }
        MemorySegment slice = rocksdb_transactiondb_get_pinned_cf(ptr, options, family, key, keyLength, s.errptr);
        if (slice.address() == 0) {
            Native.check(s.errptr);
        }
        return slice;
    }

    /**
     * Creates a family through the transaction database ({@code rocksdb_transactiondb_create_column_family}),
     * whose lock manager then knows it: one created through the base database could not be written
     * until reopen ("Column family id not found").
     */
    @Override
    MemorySegment createFamily(MemorySegment options, MemorySegment name, MemorySegment errptr) {
        return rocksdb_transactiondb_create_column_family(ptr, options, name, errptr);
    }

    @Override
    MemorySegment adminDb() {
        if (!BASE_DB) {
            Capabilities.require("rocksdb_transactiondb_get_base_db");
        }
        return db;
    }

    @Override
    public int multiGet(ColumnFamilyHandle family, ReadOptions options, MemorySegment[] keys, MemorySegment[] values,
                        long[] lengths, RocksDBException[] errors, boolean sortedInput) {
        if (BASE_DB) {
            return super.multiGet(family, options, keys, values, lengths, errors, sortedInput);
        }
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(options, "options");
        MultiGet.checkArguments(keys, values, lengths, errors);
        try (Scratch s = guard.begin(options, family)) {
            ListMultiGet.call(RocksDBC::rocksdb_transactiondb_multi_get_cf, ptr, options.ptr, family.ptr, keys, s);
            return ListMultiGet.intoSegments(s, values, lengths, errors);
        }
    }

    @Override
    public List<byte[]> multiGetAsList(ColumnFamilyHandle family, ReadOptions options, List<byte[]> keys) {
        if (BASE_DB) {
            return super.multiGetAsList(family, options, keys);
        }
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(keys, "keys");
        MemorySegment[] segments = new MemorySegment[keys.size()];
        for (int i = 0; i < segments.length; i++) {
            segments[i] = MemorySegment.ofArray(MultiGet.element(keys.get(i), "keys", i));
        }
        try (Scratch s = guard.begin(options, family)) {
            ListMultiGet.call(RocksDBC::rocksdb_transactiondb_multi_get_cf, ptr, options.ptr, family.ptr, segments, s);
            return ListMultiGet.asArrays(s, segments.length);
        }
    }

    @Override
    public RocksIterator newIterator(ColumnFamilyHandle family, ReadOptions options) {
        if (BASE_DB) {
            return super.newIterator(family, options);
        }
        Objects.requireNonNull(options, "options");
        try (Scratch s = guard.begin(options, family)) {
            synchronized (options.lock) {
                return RocksIterator.create(lifecycle, family, options, options.prefetchBytes,
                        (o, f) -> rocksdb_transactiondb_create_iterator_cf(ptr, o, f));
            }
        }
    }

    @Override
    public Snapshot getSnapshot() {
        if (BASE_DB) {
            return super.getSnapshot();
        }
        try (Scratch s = guard.begin()) {
            return Snapshot.adopt(this, lifecycle, rocksdb_transactiondb_create_snapshot(ptr),
                    p -> rocksdb_transactiondb_release_snapshot(ptr, p));
        }
    }

    @Override
    public void flush(ColumnFamilyHandle family, FlushOptions options) {
        if (BASE_DB) {
            super.flush(family, options);
            return;
        }
        Objects.requireNonNull(options, "options");
        try (Scratch s = guard.begin(options, family)) {
            rocksdb_transactiondb_flush_cf(ptr, options.ptr, family.ptr, s.errptr);
            Native.check(s.errptr);
        }
    }

    @Override
    public void flushWal(boolean sync) {
        if (BASE_DB) {
            super.flushWal(sync);
            return;
        }
        try (Scratch s = guard.begin()) {
            rocksdb_transactiondb_flush_wal(ptr, flag(sync), s.errptr);
            Native.check(s.errptr);
        }
    }

    @Override
    public String getProperty(ColumnFamilyHandle family, String property) {
        if (BASE_DB || family != defaultFamily) {
            return super.getProperty(family, property);
        }
        Objects.requireNonNull(property, "property");
        try (Scratch s = guard.begin(); Arena arena = Arena.ofConfined()) {
            MemorySegment v = rocksdb_transactiondb_property_value(ptr, arena.allocateFrom(property));
            if (v.address() == 0) {
                return null;
            }
            try {
                return v.reinterpret(Long.MAX_VALUE).getString(0);
            } finally {
                Native.rocksdbFree(v);
            }
        }
    }

    @Override
    public OptionalLong getLongProperty(ColumnFamilyHandle family, String property) {
        if (BASE_DB || family != defaultFamily) {
            return super.getLongProperty(family, property);
        }
        Objects.requireNonNull(property, "property");
        try (Scratch s = guard.begin(); Arena arena = Arena.ofConfined()) {
            int rc = rocksdb_transactiondb_property_int(ptr, arena.allocateFrom(property), s.size);
            return rc == 0 ? OptionalLong.of(s.size.get(JAVA_LONG, 0)) : OptionalLong.empty();
        }
    }
}
