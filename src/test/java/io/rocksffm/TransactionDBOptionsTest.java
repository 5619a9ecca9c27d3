package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionDBOptionsTest {
    @TempDir
    Path dir;

    @Test
    void maxLocksIsEnforced() {
        try (Options o = new Options().setCreateIfMissing(true);
             TransactionDBOptions t = new TransactionDBOptions().setMaxNumLocks(2).setNumStripes(4);
             TransactionDB db = TransactionDB.open(dir, o, t);
             Transaction tx = db.beginTransaction(WriteOptions.DEFAULT)) {
            tx.put(bytes("a"), bytes("1"));
            tx.put(bytes("b"), bytes("2"));
            RocksDBException e = assertThrows(RocksDBException.class, () -> tx.put(bytes("c"), bytes("3")));
            // "Resource busy" on RocksDB 7.x, "Operation aborted" on 10.x
            assertTrue(e.code() == RocksDBException.Code.BUSY || e.code() == RocksDBException.Code.ABORTED,
                    e.getMessage());
            assertTrue(e.getMessage().contains("max_num_locks"), e.getMessage());
            tx.rollback();
        }
    }

    @Test
    void transactionLockTimeoutApplies() {
        try (Options o = new Options().setCreateIfMissing(true);
             TransactionDBOptions t = new TransactionDBOptions().setTransactionLockTimeout(0).setDefaultLockTimeout(0);
             TransactionDB db = TransactionDB.open(dir, o, t);
             Transaction a = db.beginTransaction(WriteOptions.DEFAULT);
             Transaction b = db.beginTransaction(WriteOptions.DEFAULT)) {
            a.put(bytes("k"), bytes("a"));
            long start = System.nanoTime();
            RocksDBException e = assertThrows(RocksDBException.class, () -> b.put(bytes("k"), bytes("b")));
            assertEquals(RocksDBException.Code.TIMED_OUT, e.code(), e.getMessage());
            assertTrue(System.nanoTime() - start < 500_000_000L);
            RocksDBException w = assertThrows(RocksDBException.class, () -> db.put(bytes("k"), bytes("db")),
                    "a non-transactional write waits for the lock too");
            assertEquals(RocksDBException.Code.TIMED_OUT, w.code(), w.getMessage());
            a.rollback();
            b.rollback();
        }
    }

    @Test
    void badArgumentsAndClosed() {
        TransactionDBOptions t = new TransactionDBOptions();
        assertThrows(IllegalArgumentException.class, () -> t.setNumStripes(0));
        assertThrows(IllegalArgumentException.class, () -> t.setTransactionLockTimeout(-2));
        assertThrows(IllegalArgumentException.class, () -> t.setDefaultLockTimeout(-2));
        t.close();
        t.close();
        assertThrows(IllegalStateException.class, () -> t.setMaxNumLocks(1));
    }
}
