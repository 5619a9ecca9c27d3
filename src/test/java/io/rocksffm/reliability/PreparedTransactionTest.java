package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.UInt64AddOperator;
import io.rocksffm.WriteOptions;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prepared transaction takes only reads, commit and rollback (issue 37, case 2): RocksDB logs a
 * transaction's writes at {@code prepare()}, so a put accepted after it was visible after the
 * commit but missing after a crash. (The kill -9 form: {@link TransactionCrashTest}, kind q.)
 */
class PreparedTransactionTest {
    @TempDir
    Path dir;

    @Test
    void writesAfterPrepareAreRefusedAndCommitOrRollbackWork() {
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(new UInt64AddOperator());
             TransactionDBOptions to = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(dir.resolve("db"), o, to);
             WriteOptions sync = new WriteOptions().setSync(true);
             ReadOptions ro = new ReadOptions()) {
            db.put(bytes("existing"), bytes("e"));
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            for (boolean commit : new boolean[] {true, false}) {
                try (Transaction tx = db.beginTransaction(sync)) {
                    tx.put(bytes("before"), bytes("1"));
                    tx.setName("prepared-" + commit);
                    tx.prepare();
                    MemorySegment k = MemorySegment.ofArray(bytes("late"));
                    MemorySegment v = MemorySegment.ofArray(new byte[8]);
                    List<Executable> refused = List.of(
                            () -> tx.put(bytes("late"), bytes("x")),
                            () -> tx.put(cf, k, v),
                            () -> tx.merge(cf, k, v),
                            () -> tx.delete(bytes("existing")),
                            () -> tx.delete(cf, k),
                            tx::setSavePoint,
                            tx::rollbackToSavePoint,
                            () -> tx.getForUpdate(bytes("existing")),
                            () -> tx.getForUpdate(cf, ro, bytes("existing"), false),
                            () -> tx.setName("renamed"));
                    for (Executable call : refused) {
                        IllegalStateException e = assertThrows(IllegalStateException.class, call);
                        assertTrue(e.getMessage().contains("prepared"), e.getMessage());
                        assertEquals(Transaction.State.PREPARED, tx.state());
                    }
                    assertEquals("1", string(tx.get(cf, ro, bytes("before"))), "reads work");
                    if (commit) {
                        tx.commit();
                    } else {
                        tx.rollback();
                    }
                }
                assertEquals(commit ? "1" : null, commit ? string(db.get(bytes("before"))) : db.get(bytes("before")));
                assertNull(db.get(bytes("late")), "the refused write is nowhere");
                assertEquals("e", string(db.get(bytes("existing"))));
                db.delete(bytes("before"));
            }
        }
    }
}
