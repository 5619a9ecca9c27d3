package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A transaction ({@code rocksdb_transaction_t}) of a {@link TransactionDB} (pessimistic: keys are
 * locked as they are written or read for update) or an {@link OptimisticTransactionDB} (conflicts
 * are checked at commit). Its writes are buffered until {@link #commit()}; its reads (the
 * {@link KeyValueReads} surface, {@link #getForUpdate}) and iterators see its own writes over the
 * database.
 *
 * {@snippet id="Transaction" :
 * try (Transaction tx = db.beginTransaction(write)) {
 *     tx.put("a".getBytes(UTF_8), "1".getBytes(UTF_8));
 *     tx.setSavePoint();
 *     tx.put("b".getBytes(UTF_8), "2".getBytes(UTF_8));
 *     byte[] b = tx.get("b".getBytes(UTF_8));   // "2": the transaction reads its own writes
 *     tx.rollbackToSavePoint();                 // undoes the put of "b" only
 *     tx.commit();                              // writes "a"
 * }
 * }
 *
 * <p><b>States.</b> A transaction begins {@link State#STARTED}; {@link #prepare()} (two-phase
 * commit, pessimistic only, after {@link #setName}) makes it {@link State#PREPARED};
 * {@link #commit()} makes it {@link State#COMMITTED}, {@link #rollback()}
 * {@link State#ROLLED_BACK}. A finished (committed or rolled back) transaction refuses reads and
 * writes with {@link IllegalStateException}; it can be begun again with
 * {@code beginTransaction(..., reuse)} or closed. A prepared transaction takes only reads,
 * {@link #commit()} and {@link #rollback()}: writes, savepoints and reads for update throw
 * {@link IllegalStateException} (RocksDB has logged its writes at prepare; one accepted later
 * would be visible after the commit but lost in a crash).
 *
 * <p><b>Errors.</b> A lock wait that runs out throws {@link RocksDBException.Code#TIMED_OUT}, a
 * detected deadlock {@link RocksDBException.Code#BUSY}, an optimistic conflict at commit
 * {@link RocksDBException.Code#BUSY} (or {@link RocksDBException.Code#TRY_AGAIN} when RocksDB
 * kept too little history to check), an expired transaction
 * {@link RocksDBException.Code#EXPIRED}. A failed operation leaves the state unchanged: the
 * transaction stays {@link State#STARTED} (or {@link State#PREPARED}), and {@link #rollback()}
 * works and discards its writes. (An optimistic transaction whose commit failed for a conflict
 * has nothing left to commit: roll it back, then retry.)
 *
 * <p><b>Ownership and threads.</b> The caller owns the transaction and closes it; closing one
 * that is neither committed nor prepared discards its writes. Its database refuses to close while
 * it is open. A transaction is used by one thread at a time: a call while another thread's call
 * is in flight throws {@link IllegalStateException} (it is refused, not serialized), so hand it
 * between threads with the usual happens-before. {@link #commit()}, {@link #rollback()},
 * {@link #rollbackToSavePoint()} and {@link #close()} refuse while iterators or snapshots made
 * from it are open. Handles, options and snapshots of another database throw
 * {@link IllegalArgumentException}.
 */
public final class Transaction extends NativeObject implements KeyValueReads, Writes<Transaction> {
    /** Where a transaction is in its life. */
    public enum State {
        /** Begun: reads and writes allowed. */
        STARTED,
        /** Prepared for two-phase commit: commit or roll back. */
        PREPARED,
        /** Committed: finished. */
        COMMITTED,
        /** Rolled back: finished. */
        ROLLED_BACK
    }

    final Database db;
    final boolean optimistic;
    // The transaction's state is its own: only its methods below change these fields.
    private volatile State state;
    /** The non-default families written since begin, null until one is (see {@link #holdFamilies}). */
    private Set<ColumnFamilyHandle> written;
    /** The family last added to {@link #written} (spares the set a lookup per write). */
    private ColumnFamilyHandle lastWritten;
    /** This transaction's name as its {@link TransactionDB} holds it ({@link #holdName}), or null. */
    private String heldName;
    /**
     * Whether the transaction took a snapshot at begin (its options said so; a recovered one took
     * none). The C API has no getter that is safe without one, so the Java side keeps it.
     */
    private boolean snapshot;

    Transaction(Database db, Lifecycle lifecycle, MemorySegment txn, boolean optimistic, State state,
                boolean snapshot) {
        super(lifecycle, "Transaction", txn);
        this.db = db;
        this.optimistic = optimistic;
        this.state = state;
        this.snapshot = snapshot;
        if (state == State.PREPARED) { // recovered: named, as every prepared transaction is
            holdName(Transactions.nameOf(txn));
        }
    }

    /**
     * Begins this finished transaction again ({@code begin} is the C API's begin, given this
     * transaction's pointer; the caller holds its token): started, nothing written,
     * {@code snapshot} as its new options say, and whatever name RocksDB's begin left it.
     *
     * @throws IllegalStateException if not finished, or iterators or snapshots made from it are open
     */
    void beginAgain(boolean snapshot, Function<MemorySegment, MemorySegment> begin) {
        State st = state;
        if (st != State.COMMITTED && st != State.ROLLED_BACK) {
            throw new IllegalStateException("only a committed or rolled back transaction can be "
                    + "begun again; this one is " + st);
        }
        refuseWithChildren("begun again");
        MemorySegment again = begin.apply(ptr);
        if (again.address() != ptr.address()) {
            throw new AssertionError("the C API did not begin the old transaction again");
        }
        holdName(Transactions.nameOf(ptr));
        this.state = State.STARTED;
        this.written = null;
        this.lastWritten = null;
        this.snapshot = snapshot;
    }

    /** Whether the transaction holds a snapshot (the caller holds its token). */
    boolean hasSnapshot() {
        return snapshot;
    }

    /**
     * Holds {@code name} (null or empty: none) as this transaction's in its database's names, in
     * place of the one it had (a transaction of a pessimistic database only), so that
     * {@link TransactionDB#getPreparedTransactions()} leaves it out.
     */
    private void holdName(String name) {
        if (db instanceof TransactionDB t) {
            String now = name == null || name.isEmpty() ? null : name;
            t.replaceHeldName(heldName, now);
            heldName = now;
        }
    }

    @Override
    void destroy(MemorySegment p) {
        holdName(null);
        rocksdb_transaction_destroy(p);
    }

    /**
     * Frees the transaction; one neither committed nor prepared is rolled back (a prepared one
     * stays prepared in the database, recovered on the next open). Idempotent; waits for a call in
     * flight on another thread.
     *
     * @throws IllegalStateException while iterators or snapshots made from it are open
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "iterators or snapshots");
    }

    // ---- the guard: open, one thread at a time --------------------------------------------------

    /**
     * The token of a call on this transaction (its lifecycle refuses a second thread's call while
     * one is in flight): release it to end the call.
     */
    Scratch begin() {
        return Scratch.enterFirst(lifecycle);
    }

    /** {@link #begin()} for reads and writes: refuses a finished transaction. */
    Scratch beginActive() {
        Scratch s = begin();
        State st = state;
        if (st == State.COMMITTED || st == State.ROLLED_BACK) {
            s.release();
            throw new IllegalStateException("Transaction is " + (st == State.COMMITTED ? "committed" : "rolled back"));
        }
        return s;
    }

    /**
     * {@link #begin()} for writes, savepoints and locking reads: refuses a transaction that is not
     * {@link State#STARTED} (once prepared, RocksDB has logged its writes: a later one would be
     * visible after the commit and lost in a crash).
     */
    Scratch beginWritable() {
        Scratch s = begin();
        State st = state;
        if (st != State.STARTED) {
            s.release();
            throw new IllegalStateException(st == State.PREPARED
                    ? "Transaction is prepared: only commit or rollback are allowed"
                    : "Transaction is " + (st == State.COMMITTED ? "committed" : "rolled back"));
        }
        return s;
    }

    /** {@link #beginWritable()}, then the database and {@code family} (checked to be this database's). */
    Scratch beginWritable(ColumnFamilyHandle family) {
        Scratch s = beginWritable();
        try {
            return db.guard.enter(s, family);
        } catch (RuntimeException | Error e) {
            s.release();
            throw e;
        }
    }

    void refuseWithChildren(String action) {
        if (lifecycle.hasChildren()) {
            throw new IllegalStateException("Transaction cannot be " + action
                    + " while iterators or snapshots made from it are open; close them first");
        }
    }

    /** Remembers that this transaction writes to {@code family} (the caller holds its token and has entered the family). */
    void noteWritten(ColumnFamilyHandle family) {
        if (family != lastWritten && !family.isDefault()) {
            if (written == null) {
                written = Collections.newSetFromMap(new IdentityHashMap<>());
            }
            written.add(family);
            lastWritten = family;
        }
    }

    /**
     * Runs a prepare or commit ({@code end}) with drops of the families written held off; refuses
     * one whose writes name a family dropped since ({@link IllegalStateException}; the transaction
     * stays as it was, to be rolled back: RocksDB would fail while applying it, after logging it,
     * and a pessimistic database would then refuse every write until reopened).
     */
    private void withFamiliesHeld(Runnable end) {
        boolean held = holdFamilies();
        try {
            end.run();
        } finally {
            releaseFamilies(held);
        }
    }

    /** The first half of {@link #withFamiliesHeld}: whether drops are held off (for {@link #releaseFamilies}). */
    private boolean holdFamilies() {
        if (written == null) {
            return false;
        }
        ColumnFamilies families = db.families;
        families.dropLock.readLock().lock();
        for (ColumnFamilyHandle f : written) {
            if (!families.ids().contains(f.id())) {
                families.dropLock.readLock().unlock();
                throw new IllegalStateException("the transaction wrote to " + f + ", dropped since: roll it back");
            }
        }
        return true;
    }

    /** Ends {@link #holdFamilies}. */
    private void releaseFamilies(boolean held) {
        if (held) {
            db.families.dropLock.readLock().unlock();
        }
    }

    /** {@return where this transaction is in its life} */
    public State state() {
        lifecycle.ensureOpen();
        return state;
    }

    /** {@return the database this transaction belongs to} */
    public Database database() {
        return db;
    }

    @Override
    public ColumnFamilyHandle defaultColumnFamily() {
        lifecycle.ensureOpen();
        return db.defaultFamily;
    }

    // ---- writes ---------------------------------------------------------------------------------

    /**
     * Stores {@code value} under {@code key} in {@code family}, in this transaction (a pessimistic
     * one locks the key first). The segments are copied; they may be heap or native.
     *
     * @param family the column family, of this transaction's database
     * @param key    the key
     * @param value  the value
     * @return this transaction
     * @throws RocksDBException e.g. {@link RocksDBException.Code#TIMED_OUT} when the lock wait
     *         runs out, {@link RocksDBException.Code#BUSY} for a deadlock or a key changed since
     *         the transaction's snapshot, {@link RocksDBException.Code#EXPIRED}
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     * @throws IllegalArgumentException if {@code family} belongs to another database
     */
    @Override
    public Transaction put(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        TransactionWrites.write(this, family, key, value, RocksDBC::rocksdb_transaction_put_cf);
        return this;
    }

    @Override
    public Transaction put(MemorySegment key, MemorySegment value) {
        return put(db.defaultFamily, key, value);
    }

    /**
     * Merges the operand {@code value} into {@code key} of {@code family}, in this transaction.
     *
     * @param family the column family, opened with a merge operator
     * @param key    the key
     * @param value  the merge operand
     * @return this transaction
     * @throws IllegalArgumentException if the family has no merge operator or is of another database
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     */
    @Override
    public Transaction merge(ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        TransactionWrites.checkMerge(this, family, key, value);
        TransactionWrites.write(this, family, key, value, RocksDBC::rocksdb_transaction_merge_cf);
        return this;
    }

    @Override
    public Transaction merge(MemorySegment key, MemorySegment value) {
        return merge(db.defaultFamily, key, value);
    }

    /**
     * Removes {@code key} from {@code family}, in this transaction (a pessimistic one locks it).
     *
     * @param family the column family
     * @param key    the key
     * @return this transaction
     * @throws RocksDBException as {@link #put(ColumnFamilyHandle, MemorySegment, MemorySegment)}
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     * @throws IllegalArgumentException if {@code family} belongs to another database
     */
    @Override
    public Transaction delete(ColumnFamilyHandle family, MemorySegment key) {
        TransactionWrites.delete(this, family, key);
        return this;
    }

    @Override
    public Transaction delete(MemorySegment key) {
        return delete(db.defaultFamily, key);
    }

    /**
     * Refused: RocksDB's C API has no single deletion for a transaction (and a plain delete in its
     * place would not be one).
     *
     * @param family the column family
     * @param key    the key
     * @return never
     * @throws UnsupportedOperationException always, after the argument and state checks
     * @throws IllegalStateException if closed, finished or prepared
     */
    @Override
    public Transaction singleDelete(ColumnFamilyHandle family, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        Limits.checkKey(key);
        db.guard.checkFamily(family);
        try (Scratch s = beginWritable()) { // closed, finished or prepared: IllegalStateException as for every write
            db.families.refuseTimestamped(family); // as every write: IllegalArgumentException
        }
        throw UnsupportedWrites.singleDeletion("a Transaction", "RocksDB's C API has none for transactions");
    }

    @Override
    public Transaction singleDelete(MemorySegment key) {
        return singleDelete(db.defaultFamily, key);
    }

    /**
     * Refused: RocksDB's transactions lock keys, not ranges.
     *
     * @param family the column family
     * @param begin  the first key of the range
     * @param end    the end of the range
     * @return never
     * @throws UnsupportedOperationException always, after the argument and state checks
     * @throws IllegalStateException if closed, finished or prepared
     */
    @Override
    public Transaction deleteRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        Limits.checkRange(begin, end);
        db.guard.checkFamily(family);
        try (Scratch s = beginWritable()) { // closed, finished or prepared: IllegalStateException as for every write
            db.families.refuseTimestamped(family); // as every write: IllegalArgumentException
        }
        throw UnsupportedWrites.rangeDeletion("a Transaction", "RocksDB's transactions lock keys, not ranges");
    }

    @Override
    public Transaction deleteRange(MemorySegment begin, MemorySegment end) {
        return deleteRange(db.defaultFamily, begin, end);
    }

    // ---- reads ----------------------------------------------------------------------------------

    /** The token of a read: this transaction, then the database, family and options (checked to be this database's). */
    Scratch beginRead(ReadOptions options, ColumnFamilyHandle family) {
        return beginRead(options, family, false);
    }

    /** {@link #beginRead(ReadOptions, ColumnFamilyHandle)}; a read for update locks, and needs {@link #beginWritable()}. */
    Scratch beginRead(ReadOptions options, ColumnFamilyHandle family, boolean forUpdate) {
        Objects.requireNonNull(options, "options");
        Scratch s = forUpdate ? beginWritable() : beginActive();
        try {
            db.guard.enter(s, options, family);
            if (forUpdate && db.families.timestampSize(family) != 0) { // an optimistic commit would validate it without one
                throw new IllegalArgumentException("column family '" + family.name() + "' has user-defined timestamps,"
                        + " which transactions do not carry: a read for update of it is refused");
            }
            return s;
        } catch (RuntimeException | Error e) {
            s.release();
            throw e;
        }
    }

    /**
     * The value of {@code key} as this transaction sees it: its own writes over the database (as
     * of the options' snapshot, if any). Copies what fits into {@code value}.
     *
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    @Override
    public long get(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value) {
        return TransactionReads.get(this, family, options, key, value, false, false);
    }

    /**
     * The value of {@code key} as this transaction sees it (its own writes over the database).
     *
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    @Override
    public byte[] get(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        return TransactionReads.get(this, family, options, key, false, false);
    }

    /**
     * Reads {@code key} and claims it for this transaction: a pessimistic transaction locks it
     * (exclusively, or shared), an optimistic one has its commit fail if another writer changes
     * it first. With a snapshot set ({@link TransactionOptions#setSetSnapshot}), a key changed
     * since the snapshot fails with {@link RocksDBException.Code#BUSY}. Copies what fits of the
     * value into {@code value}.
     *
     * @param family    the column family
     * @param options   read options
     * @param key       the key
     * @param value     where the value is copied (as much as fits)
     * @param exclusive whether the lock is exclusive (a shared lock lets other transactions read
     *                  it for update too, but none write it)
     * @return the value's full length, or -1 if absent
     * @throws RocksDBException e.g. {@link RocksDBException.Code#TIMED_OUT},
     *         {@link RocksDBException.Code#BUSY}
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     */
    public long getForUpdate(ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value,
                             boolean exclusive) {
        return TransactionReads.get(this, family, options, key, value, true, exclusive);
    }

    /**
     * {@link #getForUpdate(ColumnFamilyHandle, ReadOptions, MemorySegment, MemorySegment, boolean)}
     * returning the value as a new array.
     *
     * @param family    the column family
     * @param options   read options
     * @param key       the key
     * @param exclusive whether the lock is exclusive
     * @return the value, or null if absent
     * @throws RocksDBException e.g. {@link RocksDBException.Code#TIMED_OUT}
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     */
    public byte[] getForUpdate(ColumnFamilyHandle family, ReadOptions options, byte[] key, boolean exclusive) {
        return TransactionReads.get(this, family, options, key, true, exclusive);
    }

    /**
     * An exclusive {@link #getForUpdate(ColumnFamilyHandle, ReadOptions, byte[], boolean)}.
     *
     * @param family  the column family
     * @param options read options
     * @param key     the key
     * @return the value, or null if absent
     */
    public byte[] getForUpdate(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        return TransactionReads.get(this, family, options, key, true, true);
    }

    /**
     * An exclusive {@link #getForUpdate(ColumnFamilyHandle, ReadOptions, byte[], boolean)} with
     * default read options.
     *
     * @param family the column family
     * @param key    the key
     * @return the value, or null if absent
     */
    public byte[] getForUpdate(ColumnFamilyHandle family, byte[] key) {
        return TransactionReads.get(this, family, ReadOptions.DEFAULT, key, true, true);
    }

    /**
     * An exclusive {@link #getForUpdate(ColumnFamilyHandle, ReadOptions, byte[], boolean)} in the
     * default family.
     *
     * @param options read options
     * @param key     the key
     * @return the value, or null if absent
     */
    public byte[] getForUpdate(ReadOptions options, byte[] key) {
        return TransactionReads.get(this, db.defaultFamily, options, key, true, true);
    }

    /**
     * An exclusive {@link #getForUpdate(ColumnFamilyHandle, ReadOptions, byte[], boolean)} in the
     * default family with default read options.
     *
     * @param key the key
     * @return the value, or null if absent
     */
    public byte[] getForUpdate(byte[] key) {
        return TransactionReads.get(this, db.defaultFamily, ReadOptions.DEFAULT, key, true, true);
    }

    /**
     * The value of {@code key} as this transaction sees it, pinned.
     *
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    @Override
    public PinnedValue getPinned(ColumnFamilyHandle family, ReadOptions options, MemorySegment key) {
        return TransactionReads.pinned(this, family, options, key);
    }

    /**
     * The values of {@code keys} as this transaction sees them ({@code rocksdb_transaction_multi_get_cf}:
     * one value per key, copied). {@code sortedInput} is only checked.
     *
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    @Override
    public int multiGet(ColumnFamilyHandle family, ReadOptions options, MemorySegment[] keys, MemorySegment[] values,
                        long[] lengths, RocksDBException[] errors, boolean sortedInput) {
        return TransactionReads.multiGet(this, family, options, keys, values, lengths, errors, sortedInput);
    }

    @Override
    public List<byte[]> multiGetAsList(ColumnFamilyHandle family, ReadOptions options, List<byte[]> keys) {
        return TransactionReads.multiGetAsList(this, family, options, keys, false);
    }

    /**
     * {@link #getForUpdate} of several keys in one call ({@code rocksdb_transaction_multi_get_for_update_cf},
     * exclusive locks), values as new arrays.
     *
     * @param family  the column family
     * @param options read options
     * @param keys    the keys
     * @return the values in key order, {@code null} where absent
     * @throws RocksDBException the first key's failure (e.g. a lock timeout)
     * @throws UnsupportedOperationException on engines without the function (RocksDB before 8.x)
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     */
    public List<byte[]> multiGetForUpdateAsList(ColumnFamilyHandle family, ReadOptions options, List<byte[]> keys) {
        return TransactionReads.multiGetForUpdateAsList(this, family, options, keys);
    }

    /**
     * An iterator over {@code family} as this transaction sees it: its own writes merged over the
     * database. This transaction refuses to commit, roll back or close while it is open.
     *
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    @Override
    public RocksIterator newIterator(ColumnFamilyHandle family, ReadOptions options) {
        return TransactionReads.iterator(this, family, options);
    }

    /**
     * {@inheritDoc} A transaction answers exactly: it reads the key (its own writes over the
     * database), as the C API has no may-exist for a transaction.
     *
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    @Override
    public boolean keyMayExist(ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        return get(family, options, key) != null;
    }

    // ---- snapshot, savepoints, write batch ---------------------------------------------------------

    /**
     * The snapshot this transaction took at begin ({@link TransactionOptions#setSetSnapshot}), to
     * read with ({@link ReadOptions#setSnapshot}); null if it took none. The transaction owns it:
     * close the returned object (which frees only its wrapper) before committing, rolling back or
     * closing the transaction, which refuse while it is open.
     *
     * @return the snapshot, or null
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    public Snapshot getSnapshot() {
        return TransactionReads.snapshot(this);
    }

    /**
     * Marks a savepoint: {@link #rollbackToSavePoint()} undoes the writes made after it.
     *
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     */
    public void setSavePoint() {
        TransactionWrites.setSavePoint(this);
    }

    /**
     * Undoes the writes made since the last savepoint and removes it (locks taken stay taken).
     *
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} if there is no savepoint
     * @throws IllegalStateException if closed, finished, prepared, in use, or iterators or snapshots are open
     */
    public void rollbackToSavePoint() {
        TransactionWrites.rollbackToSavePoint(this);
    }

    /**
     * Adds {@code blob} as log data (RocksDB's {@code PutLogData}): it is written to the
     * write-ahead log with the transaction's writes when it commits, and read back by change
     * capture ({@link WalUpdate#batch()}, {@link WriteBatch#iterate}), but it is not a write: it
     * changes no key, takes no sequence number and is not in {@link #getWriteBatch()}'s count. A
     * rollback (to a savepoint or of the whole transaction) discards it with the writes. The blob is
     * copied in.
     *
     * @param blob the bytes to log
     * @return this transaction
     * @throws NullPointerException if {@code blob} is null
     * @throws IllegalArgumentException if {@code blob} exceeds RocksDB's limit of 2<sup>32</sup>-1 bytes
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_transaction_put_log_data}
     *         (before RocksDB 11.8)
     */
    public Transaction putLogData(MemorySegment blob) {
        TransactionWrites.putLogData(this, blob);
        return this;
    }

    /**
     * {@link #putLogData(MemorySegment)} for an array.
     *
     * @param blob the bytes to log
     * @return this transaction
     * @throws NullPointerException if {@code blob} is null
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_transaction_put_log_data}
     */
    public Transaction putLogData(byte[] blob) {
        return putLogData(MemorySegment.ofArray(Objects.requireNonNull(blob, "blob")));
    }

    /**
     * A copy of this transaction's pending writes as a {@link WriteBatch} (from
     * {@code rocksdb_transaction_get_writebatch_wi}).
     *
     * @return a new batch, owned by the caller
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    public WriteBatch getWriteBatch() {
        return TransactionReads.writeBatch(this);
    }

    // ---- two-phase commit, commit, rollback ------------------------------------------------------

    /**
     * Names the transaction, for two-phase commit (a pessimistic transaction only; the name must
     * be unique among the database's live transactions).
     *
     * @param name the name (non-empty)
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} for a name in
     *         use, a name already set, or an optimistic transaction
     * @throws IllegalStateException if closed, finished, prepared, or in use by another thread
     */
    public void setName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name must not be empty");
        }
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        try (Scratch s = beginWritable()) {
            rocksdb_transaction_set_name(ptr, s.copy(Scratch.FIRST, bytes), bytes.length, s.errptr);
            Native.check(s.errptr);
            holdName(name); // so getPreparedTransactions leaves it out once prepared
        }
    }

    /**
     * The name set with {@link #setName} (or recovered), or the empty string.
     *
     * @return the name
     * @throws IllegalStateException if closed or in use by another thread
     */
    public String getName() {
        try (Scratch s = begin()) {
            return Transactions.nameOf(ptr);
        }
    }

    /**
     * Prepares a named pessimistic transaction (the first phase of two-phase commit): its writes
     * are logged, and survive a crash as a prepared transaction ({@link TransactionDB#getPreparedTransactions()}).
     *
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} without a name
     *         or for an optimistic transaction, {@link RocksDBException.Code#EXPIRED}
     * @throws IllegalStateException if closed, finished, or in use by another thread
     */
    public void prepare() {
        try (Scratch s = beginActive()) {
            withFamiliesHeld(() -> rocksdb_transaction_prepare(ptr, s.errptr));
            Native.check(s.errptr);
            state = State.PREPARED;
        }
    }

    /**
     * Commits: the writes become visible and durable as the write options say. On failure the
     * transaction stays as it was ({@link State#STARTED} or {@link State#PREPARED}): roll it back.
     *
     * @throws RocksDBException e.g. {@link RocksDBException.Code#BUSY} or
     *         {@link RocksDBException.Code#TRY_AGAIN} for an optimistic conflict,
     *         {@link RocksDBException.Code#EXPIRED} for an expired pessimistic transaction
     * @throws IllegalStateException if closed, finished, in use, or iterators or snapshots are open
     */
    public void commit() {
        try (Scratch s = beginActive()) {
            refuseWithChildren("committed");
            withFamiliesHeld(() -> rocksdb_transaction_commit(ptr, s.errptr));
            db.checkWrite(s.errptr);
            state = State.COMMITTED;
        }
    }

    /**
     * Discards the writes and releases the locks; the transaction is then {@link State#ROLLED_BACK}.
     *
     * @throws RocksDBException if RocksDB fails to roll back
     * @throws IllegalStateException if closed, finished, in use, or iterators or snapshots are open
     */
    public void rollback() {
        try (Scratch s = beginActive()) {
            refuseWithChildren("rolled back");
            rocksdb_transaction_rollback(ptr, s.errptr);
            Native.check(s.errptr);
            state = State.ROLLED_BACK;
            written = null;
            lastWritten = null;
        }
    }

    /** {@return whether this is an optimistic transaction} */
    public boolean isOptimistic() {
        return optimistic;
    }

    @Override
    public String toString() {
        return "Transaction[" + (optimistic ? "optimistic, " : "") + state + (isClosed() ? ", closed]" : "]");
    }
}
