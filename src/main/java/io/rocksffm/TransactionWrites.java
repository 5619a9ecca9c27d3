package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Collections;
import java.util.IdentityHashMap;

/**
 * The writes of a {@link Transaction} and what changes its write set (savepoints): allowed only
 * while it is {@link Transaction.State#STARTED}. After {@link Transaction#prepare()} RocksDB has
 * logged the write set; a write accepted then would be visible after the commit but missing after
 * a crash (the recovered transaction is the prepared one), so it is refused with
 * {@link IllegalStateException}.
 */
final class TransactionWrites {
    private TransactionWrites() {}

    /** The shape of rocksdb_transaction_put_cf and _merge_cf. */
    @FunctionalInterface
    interface TwoSliceWrite {
        void call(MemorySegment txn, MemorySegment family, MemorySegment a, long aLength, MemorySegment b,
                  long bLength, MemorySegment errptr);
    }

    /** A put or merge of {@code key} and {@code value} into {@code family}. */
    static void write(Transaction tx, ColumnFamilyHandle family, MemorySegment key, MemorySegment value,
                      TwoSliceWrite write) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Limits.checkKeyValue(key, value);
        try (Scratch s = tx.beginWrite(family)) {
            tx.db.families.refuseTimestamped(family);
            noteFamily(tx, family);
            write.call(tx.ptr, family.ptr, s.first(key), key.byteSize(), s.second(value), value.byteSize(), s.errptr);
            Native.check(s.errptr);
        }
    }

    /** A delete of {@code key} from {@code family}. */
    static void delete(Transaction tx, ColumnFamilyHandle family, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        Limits.checkKey(key);
        try (Scratch s = tx.beginWrite(family)) {
            tx.db.families.refuseTimestamped(family);
            noteFamily(tx, family);
            rocksdb_transaction_delete_cf(tx.ptr, family.ptr, s.first(key), key.byteSize(), s.errptr);
            Native.check(s.errptr);
        }
    }

    /** Remembers that {@code tx} writes to {@code family} (the caller has entered both). */
    private static void noteFamily(Transaction tx, ColumnFamilyHandle family) {
        if (family != tx.lastWritten && !family.isDefault()) {
            if (tx.written == null) {
                tx.written = Collections.newSetFromMap(new IdentityHashMap<>());
            }
            tx.written.add(family);
            tx.lastWritten = family;
        }
    }

    /**
     * Before a prepare or commit: refuses one whose writes name a family dropped since
     * ({@link IllegalStateException}; the transaction stays as it was, to be rolled back: RocksDB
     * would fail while applying it, after logging it, and a pessimistic database would then refuse
     * every write until reopened), and holds drops off until {@link #releaseFamilies}.
     *
     * @return whether drops are held off (pass it to {@link #releaseFamilies})
     */
    static boolean holdFamilies(Transaction tx) {
        if (tx.written == null) {
            return false;
        }
        ColumnFamilies families = tx.db.families;
        families.dropLock.readLock().lock();
        for (ColumnFamilyHandle f : tx.written) {
            if (!families.ids().contains(f.id())) {
                families.dropLock.readLock().unlock();
                throw new IllegalStateException("the transaction wrote to " + f + ", dropped since: roll it back");
            }
        }
        return true;
    }

    /** Ends {@link #holdFamilies}. */
    static void releaseFamilies(Transaction tx, boolean held) {
        if (held) {
            tx.db.families.dropLock.readLock().unlock();
        }
    }

    static void setSavePoint(Transaction tx) {
        try (Scratch s = tx.beginWritable()) {
            rocksdb_transaction_set_savepoint(tx.ptr);
        }
    }

    static void rollbackToSavePoint(Transaction tx) {
        try (Scratch s = tx.beginWritable()) {
            tx.refuseWithChildren("rolled back to a savepoint");
            rocksdb_transaction_rollback_to_savepoint(tx.ptr, s.errptr);
            Native.check(s.errptr);
        }
    }

    /** Argument and state checks of {@link Transaction#merge}: nulls, closed, then the family's merge operator. */
    static void checkMerge(Transaction tx, Database db, ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        tx.lifecycle.ensureOpen();
        db.requireMergeOperator(family);
    }
}
