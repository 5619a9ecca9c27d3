package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionOptionsTest {
    @TempDir
    Path dir;

    @Test
    void lockTimeoutAndDeadlockDetection() throws Exception {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions to = new TransactionOptions().setLockTimeout(2000).setDeadlockDetect(true)
                     .setDeadlockDetectDepth(50);
             Transaction a = db.beginTransaction(WriteOptions.DEFAULT, to);
             Transaction b = db.beginTransaction(WriteOptions.DEFAULT, to)) {
            a.put(bytes("x"), bytes("a"));
            b.put(bytes("y"), bytes("b"));
            AtomicReference<RocksDBException> fromA = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    a.put(bytes("y"), bytes("a")); // waits for b
                } catch (RocksDBException ex) {
                    fromA.set(ex);
                }
            });
            t.start();
            Thread.sleep(100);
            RocksDBException fromB = null;
            try {
                b.put(bytes("x"), bytes("b")); // closes the cycle
            } catch (RocksDBException ex) {
                fromB = ex;
            }
            b.rollback(); // releases y, so a's put goes through unless a was the side that saw the cycle
            t.join();
            // the side that closes the cycle sees it: normally b; a if its thread started waiting only after b did
            // (on a loaded machine), and then b's own wait ends with the lock timeout
            RocksDBException e = isDeadlock(fromB) ? fromB : fromA.get();
            assertNotNull(e, "one side sees the deadlock");
            assertEquals(RocksDBException.Code.BUSY, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("Deadlock"), e.getMessage());
            assertFalse(isDeadlock(fromA.get()) && isDeadlock(fromB), "only one side is chosen: " + fromA.get()
                    + " / " + fromB);
            a.commit();
            assertEquals("a", string(db.get(bytes("x"))));
        }
    }

    @Test
    void expirationExpires() throws Exception {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions to = new TransactionOptions().setExpiration(1);
             Transaction tx = db.beginTransaction(WriteOptions.DEFAULT, to)) {
            tx.put(bytes("k"), bytes("v"));
            Thread.sleep(20);
            RocksDBException e = assertThrows(RocksDBException.class, tx::commit);
            assertEquals(RocksDBException.Code.EXPIRED, e.code(), e.getMessage());
            assertEquals(Transaction.State.STARTED, tx.state());
            tx.rollback();
            assertNull(db.get(bytes("k")));
        }
    }

    @Test
    void setSnapshotMakesConflictingWritesBusy() {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions to = new TransactionOptions().setSetSnapshot(true);
             Transaction tx = db.beginTransaction(WriteOptions.DEFAULT, to)) {
            db.put(bytes("k"), bytes("after"));
            RocksDBException e = assertThrows(RocksDBException.class, () -> tx.put(bytes("k"), bytes("tx")));
            assertEquals(RocksDBException.Code.BUSY, e.code(), e.getMessage());
            tx.rollback();
        }
    }

    @Test
    void maxWriteBatchSizeAndSkipPrepare() {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions to = new TransactionOptions().setMaxWriteBatchSize(64).setSkipPrepare(false);
             Transaction tx = db.beginTransaction(WriteOptions.DEFAULT, to)) {
            RocksDBException e = assertThrows(RocksDBException.class, () -> tx.put(bytes("k"), new byte[100]));
            assertEquals(RocksDBException.Code.ABORTED, e.code(), e.getMessage());
            tx.rollback();
        }
    }

    @Test
    void badArgumentsAndClosed() {
        TransactionOptions t = new TransactionOptions();
        assertThrows(IllegalArgumentException.class, () -> t.setLockTimeout(-2));
        assertThrows(IllegalArgumentException.class, () -> t.setExpiration(-2));
        assertThrows(IllegalArgumentException.class, () -> t.setDeadlockDetectDepth(0));
        assertThrows(IllegalArgumentException.class, () -> t.setMaxWriteBatchSize(-1));
        t.close();
        t.close();
        assertThrows(IllegalStateException.class, () -> t.setSetSnapshot(true));
    }

    private static boolean isDeadlock(RocksDBException e) {
        return e != null && e.getMessage().contains("Deadlock");
    }
}
