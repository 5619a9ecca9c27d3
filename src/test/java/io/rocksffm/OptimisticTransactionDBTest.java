package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptimisticTransactionDBTest {
    @TempDir
    Path dir;

    static OptimisticTransactionDB openOpt(Path dir) {
        try (Options o = new Options().setCreateIfMissing(true)) {
            return OptimisticTransactionDB.open(dir, o);
        }
    }

    @Test
    void readsWritesAndAdministration() {
        try (OptimisticTransactionDB db = openOpt(dir)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"));
            db.put(bytes("c"), bytes("3"));
            db.delete(bytes("b"));
            assertEquals("1", string(db.get(bytes("a"))));
            assertNull(db.get(bytes("b")));
            db.delete(bytes("a"));
            assertNull(db.get(bytes("a")));
            try (WriteBatch b = new WriteBatch(); WriteOptions wo = new WriteOptions()) {
                db.write(wo, b.put(bytes("d"), bytes("4")));
            }
            assertEquals(List.of("3", "4"), db.multiGetAsList(List.of(bytes("c"), bytes("d"))).stream()
                    .map(TestSupport::string).toList());
            db.flush(true);
            db.compactRange();
            assertTrue(db.getLongProperty("rocksdb.estimate-num-keys").isPresent());
            try (Options o = new Options()) {
                db.dropColumnFamily(db.createColumnFamily("x", o));
            }
        }
    }

    @Test
    void conflictAtCommitIsBusyAndRollbackWorks() {
        try (OptimisticTransactionDB db = openOpt(dir); WriteOptions wo = new WriteOptions();
             Transaction tx = db.beginTransaction(wo)) {
            db.put(bytes("k"), bytes("0"));
            assertEquals("0", string(tx.getForUpdate(bytes("k"))));
            tx.put(bytes("k"), bytes("tx"));
            db.put(bytes("k"), bytes("outside")); // a conflicting write after the transaction read it
            RocksDBException e = assertThrows(RocksDBException.class, tx::commit);
            assertTrue(e.code() == RocksDBException.Code.BUSY || e.code() == RocksDBException.Code.TRY_AGAIN,
                    e.getMessage());
            assertEquals(Transaction.State.STARTED, tx.state());
            tx.rollback();
            assertEquals(Transaction.State.ROLLED_BACK, tx.state());
            assertEquals("outside", string(db.get(bytes("k"))));
        }
    }

    @Test
    void setSnapshotDetectsWritesSinceBegin() {
        try (OptimisticTransactionDB db = openOpt(dir); WriteOptions wo = new WriteOptions();
             OptimisticTransactionOptions to = new OptimisticTransactionOptions().setSetSnapshot(true);
             Transaction tx = db.beginTransaction(wo, to)) {
            db.put(bytes("k"), bytes("after-begin"));
            tx.put(bytes("k"), bytes("tx"));
            assertThrows(RocksDBException.class, tx::commit);
            tx.rollback();
        }
    }

    @Test
    void twoPhaseCommitIsRefused() {
        try (OptimisticTransactionDB db = openOpt(dir); Transaction tx = db.beginTransaction(WriteOptions.DEFAULT)) {
            assertTrue(tx.isOptimistic());
            assertThrows(RocksDBException.class, () -> {
                tx.setName("x");
                tx.prepare();
            });
            tx.rollback();
        }
    }

    @Test
    void reusesAndRefusesToCloseWithOpenTransactions() {
        OptimisticTransactionDB db = openOpt(dir);
        Transaction tx = db.beginTransaction(WriteOptions.DEFAULT);
        tx.put(bytes("a"), bytes("1"));
        tx.commit();
        assertSame(tx, db.beginTransaction(WriteOptions.DEFAULT, new OptimisticTransactionOptions(), tx));
        tx.put(bytes("b"), bytes("2"));
        tx.commit();
        assertThrows(IllegalStateException.class, db::close);
        tx.close();
        assertEquals("2", string(db.get(bytes("b"))));
        db.close();
        assertThrows(IllegalStateException.class, () -> db.get(bytes("a")));
    }

    /**
     * Range deletions are refused, as RocksDB's optimistic transaction database refuses them (its
     * conflict checks track keys): directly and in a batch, in any order, and nothing is written.
     */
    @Test
    void rangeDeletionsAreRefused() {
        try (Options o = new Options().setCreateIfMissing(true).setComparator(new ComparatorTest.Reverse());
             OptimisticTransactionDB db = OptimisticTransactionDB.open(dir, o)) {
            for (String k : List.of("a", "b", "c")) {
                db.put(bytes(k), bytes("v"));
            }
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> db.deleteRange(bytes("c"), bytes("a")));
            assertTrue(e.getMessage().contains("range deletion"), e.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> db.deleteRange(bytes("a"), bytes("c")));
            try (WriteBatch batch = new WriteBatch().put(bytes("d"), bytes("v")).deleteRange(bytes("c"), bytes("a"))) {
                assertThrows(UnsupportedOperationException.class, () -> db.write(WriteOptions.DEFAULT, batch));
            }
            assertThrows(NullPointerException.class, () -> db.deleteRange(bytes("c"), null));
            assertEquals(List.of("v", "v", "v"), db.multiGetAsList(List.of(bytes("a"), bytes("b"), bytes("c")))
                    .stream().map(TestSupport::string).toList(), "nothing deleted");
            assertNull(db.get(bytes("d")), "nothing of the batch written");
        }
    }
}
