package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
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
            Thread t = new Thread(() -> {
                try {
                    a.put(bytes("y"), bytes("a")); // waits for b
                } catch (RocksDBException e) {
                    // the deadlock may be detected on either side
                }
            });
            t.start();
            Thread.sleep(100);
            RocksDBException e = null;
            try {
                b.put(bytes("x"), bytes("b")); // closes the cycle
            } catch (RocksDBException ex) {
                e = ex;
            }
            t.join();
            assertNotNull(e, "one side sees the deadlock");
            assertEquals(RocksDBException.Code.BUSY, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("Deadlock"), e.getMessage());
            b.rollback();
            a.commit();
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
}
