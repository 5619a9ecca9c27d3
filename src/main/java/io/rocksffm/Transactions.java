package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.lang.foreign.ValueLayout;

/**
 * Beginning transactions (new, begun again on an old one, or recovered prepared on open) and their
 * names as a pessimistic database holds them.
 */
final class Transactions {
    private Transactions() {}

    /**
     * Begins a transaction of {@code db} with {@code begin} (called with the old transaction's
     * pointer or NULL), reusing {@code reuse} when not null; the options are entered around it.
     * {@code snapshot}: whether {@code txOptions} take a snapshot at begin.
     */
    static Transaction begin(Database db, Transaction reuse, NativeObject writeOptions, NativeObject txOptions,
                             boolean snapshot, Function<MemorySegment, MemorySegment> begin) {
        boolean optimistic = db instanceof OptimisticTransactionDB;
        try (Scratch s = db.guard.begin()) {
            s.enter(writeOptions.lifecycle);
            s.enter(txOptions.lifecycle);
            if (reuse == null) {
                return Lifecycle.buildExclusiveChild("Transaction", child ->
                        new Transaction(db, child, begin.apply(MemorySegment.NULL), optimistic, Transaction.State.STARTED,
                                snapshot), db.lifecycle);
            }
            if (reuse.db != db) {
                throw new IllegalArgumentException("the transaction to reuse belongs to another database");
            }
            s.enter(reuse.lifecycle);
            reuse.beginAgain(snapshot, begin);
            return reuse;
        }
    }

    /** A prepared transaction recovered by {@code db} on open (the caller has entered {@code db}). */
    static Transaction recovered(TransactionDB db, MemorySegment txn) {
        return Lifecycle.buildExclusiveChild("Transaction",
                child -> new Transaction(db, child, txn, false, Transaction.State.PREPARED, false), db.lifecycle);
    }

    /** The name of the transaction {@code txn} (public C API), the empty string if it has none. */
    static String nameOf(MemorySegment txn) {
        try (Scratch s = Scratch.acquire()) {
            MemorySegment name = rocksdb_transaction_get_name(txn, s.size);
            try {
                return new String(name.reinterpret(s.size.get(JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE),
                        StandardCharsets.UTF_8);
            } finally {
                Native.rocksdbFree(name);
            }
        }
    }
}
