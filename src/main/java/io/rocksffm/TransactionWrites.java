package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

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
        try (Scratch s = tx.beginWritable(family)) {
            tx.db.families.refuseTimestamped(family);
            tx.noteWritten(family);
            write.call(tx.ptr, family.ptr, s.first(key), key.byteSize(), s.second(value), value.byteSize(), s.errptr);
            Native.check(s.errptr);
        }
    }

    /** A delete of {@code key} from {@code family}. */
    static void delete(Transaction tx, ColumnFamilyHandle family, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        Limits.checkKey(key);
        try (Scratch s = tx.beginWritable(family)) {
            tx.db.families.refuseTimestamped(family);
            tx.noteWritten(family);
            rocksdb_transaction_delete_cf(tx.ptr, family.ptr, s.first(key), key.byteSize(), s.errptr);
            Native.check(s.errptr);
        }
    }

    /** Log data: the blob goes to the log with the transaction's writes (RocksDB 11.8 and later). */
    static void putLogData(Transaction tx, MemorySegment blob) {
        Objects.requireNonNull(blob, "blob");
        Limits.checkLogData(blob);
        try (Scratch s = tx.beginWritable()) {
            Capabilities.require("Transaction.putLogData", "rocksdb_transaction_put_log_data");
            rocksdb_transaction_put_log_data(tx.ptr, s.first(blob), blob.byteSize());
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
    static void checkMerge(Transaction tx, ColumnFamilyHandle family, MemorySegment key, MemorySegment value) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        tx.lifecycle.ensureOpen();
        tx.db.requireMergeOperator(family);
    }
}
