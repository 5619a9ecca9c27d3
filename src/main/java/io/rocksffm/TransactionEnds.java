package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** How a {@link Transaction} ends: its name for two-phase commit, prepare, commit and rollback. */
final class TransactionEnds {
    private TransactionEnds() {}

    static void setName(Transaction tx, String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("name must not be empty");
        }
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        try (Scratch s = tx.beginWritable()) {
            rocksdb_transaction_set_name(tx.ptr, s.copy(Scratch.FIRST, bytes), bytes.length, s.errptr);
            Native.check(s.errptr);
            Transactions.hold(tx, name); // so getPreparedTransactions leaves it out once prepared
        }
    }

    static void prepare(Transaction tx) {
        try (Scratch s = tx.beginActive()) {
            boolean held = TransactionWrites.holdFamilies(tx);
            try {
                rocksdb_transaction_prepare(tx.ptr, s.errptr);
            } finally {
                TransactionWrites.releaseFamilies(tx, held);
            }
            Native.check(s.errptr);
            tx.state = Transaction.State.PREPARED;
        }
    }

    static void commit(Transaction tx) {
        try (Scratch s = tx.beginActive()) {
            tx.refuseWithChildren("committed");
            boolean held = TransactionWrites.holdFamilies(tx);
            try {
                rocksdb_transaction_commit(tx.ptr, s.errptr);
            } finally {
                TransactionWrites.releaseFamilies(tx, held);
            }
            tx.db.checkWrite(s.errptr);
            tx.state = Transaction.State.COMMITTED;
        }
    }

    static void rollback(Transaction tx) {
        try (Scratch s = tx.beginActive()) {
            tx.refuseWithChildren("rolled back");
            rocksdb_transaction_rollback(tx.ptr, s.errptr);
            Native.check(s.errptr);
            tx.state = Transaction.State.ROLLED_BACK;
            tx.written = null;
            tx.lastWritten = null;
        }
    }
}
