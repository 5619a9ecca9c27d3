package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

class TransactionTest {
    @TempDir
    Path dir;

    /** A database of either kind and a transaction of it. */
    private record Pair(Database db, Transaction tx) implements AutoCloseable {
        @Override
        public void close() {
            tx.close();
            db.close();
        }

        KeyValueWrites writes() {
            return (KeyValueWrites) db;
        }
    }

    private Pair open(boolean optimistic) {
        if (optimistic) {
            OptimisticTransactionDB db = OptimisticTransactionDBTest.openOpt(dir);
            return new Pair(db, db.beginTransaction(WriteOptions.DEFAULT));
        }
        TransactionDB db = TransactionDBTest.openTx(dir);
        return new Pair(db, db.beginTransaction(WriteOptions.DEFAULT));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void readsSeeOwnWritesAndCommitPublishesThem(boolean optimistic) {
        try (Pair p = open(optimistic)) {
            Transaction tx = p.tx();
            p.writes().put(bytes("db"), bytes("0"));
            tx.put(bytes("a"), bytes("1"));
            tx.put(bytes("b"), bytes("2"));
            tx.delete(bytes("db"));
            assertEquals("1", string(tx.get(bytes("a"))));
            assertNull(tx.get(bytes("db")));
            assertNull(p.db().get(bytes("a")), "not visible outside before commit");
            assertEquals("0", string(p.db().get(bytes("db"))));
            MemorySegment out = MemorySegment.ofArray(new byte[1]);
            assertEquals(1, tx.get(ReadOptions.DEFAULT, MemorySegment.ofArray(bytes("b")), out));
            try (PinnedValue v = tx.getPinned(ReadOptions.DEFAULT, MemorySegment.ofArray(bytes("a")))) {
                assertEquals("1", string(v.toByteArray()));
            }
            assertEquals(Arrays.asList("1", null, "2"), tx.multiGetAsList(List.of(bytes("a"), bytes("db"), bytes("b")))
                    .stream().map(TestSupport::string).toList());
            MemorySegment[] keys = {MemorySegment.ofArray(bytes("a")), MemorySegment.ofArray(bytes("x"))};
            long[] lengths = new long[2];
            assertEquals(1, tx.multiGet(tx.defaultColumnFamily(), ReadOptions.DEFAULT, keys,
                    new MemorySegment[] {MemorySegment.ofArray(new byte[8]), null}, lengths, new RocksDBException[2],
                    true));
            assertArrayEquals(new long[] {1, -1}, lengths);
            List<String> seen = new ArrayList<>();
            try (RocksIterator it = tx.newIterator(ReadOptions.DEFAULT)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    seen.add(string(it.keyBytes()) + "=" + string(it.valueBytes()));
                }
                assertThrows(IllegalStateException.class, tx::commit, "an open iterator blocks commit");
            }
            assertEquals(List.of("a=1", "b=2"), seen);
            try (WriteBatch b = tx.getWriteBatch()) {
                assertEquals(3, b.count());
            }
            tx.commit();
            assertEquals(Transaction.State.COMMITTED, tx.state());
            assertEquals("1", string(p.db().get(bytes("a"))));
            assertNull(p.db().get(bytes("db")));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void finishedTransactionsRefuseUse(boolean optimistic) {
        try (Pair p = open(optimistic)) {
            Transaction tx = p.tx();
            tx.put(bytes("a"), bytes("1"));
            tx.rollback();
            assertNull(p.db().get(bytes("a")));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> tx.put(bytes("a"), bytes("1")));
            assertTrue(e.getMessage().contains("rolled back"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> tx.get(bytes("a")));
            assertThrows(IllegalStateException.class, tx::commit);
            assertThrows(IllegalStateException.class, tx::rollback);
            tx.close();
            tx.close();
            assertThrows(IllegalStateException.class, tx::state);
            assertThrows(IllegalStateException.class, () -> tx.get(bytes("a")));
        }
    }

    @Test
    void savepoints() {
        try (Pair p = open(false)) {
            Transaction tx = p.tx();
            tx.put(bytes("a"), bytes("1"));
            tx.setSavePoint();
            tx.put(bytes("a"), bytes("2"));
            tx.put(bytes("b"), bytes("2"));
            tx.rollbackToSavePoint();
            assertEquals("1", string(tx.get(bytes("a"))));
            assertNull(tx.get(bytes("b")));
            RocksDBException e = assertThrows(RocksDBException.class, tx::rollbackToSavePoint);
            assertEquals(RocksDBException.Code.NOT_FOUND, e.code(), e.getMessage());
            tx.commit();
            assertEquals("1", string(p.db().get(bytes("a"))));
        }
    }

    @Test
    void getForUpdateLocksTheKey() {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions quick = new TransactionOptions().setLockTimeout(10);
             Transaction a = db.beginTransaction(WriteOptions.DEFAULT, quick);
             Transaction b = db.beginTransaction(WriteOptions.DEFAULT, quick)) {
            db.put(bytes("k"), bytes("v"));
            assertEquals("v", string(a.getForUpdate(bytes("k"))));
            RocksDBException e = assertThrows(RocksDBException.class, () -> b.put(bytes("k"), bytes("b")));
            assertEquals(RocksDBException.Code.TIMED_OUT, e.code(), e.getMessage());
            assertEquals(Transaction.State.STARTED, b.state());
            MemorySegment out = MemorySegment.ofArray(new byte[4]);
            assertEquals(-1, b.getForUpdate(db.defaultColumnFamily(), ReadOptions.DEFAULT,
                    MemorySegment.ofArray(bytes("other")), out, false));
            a.commit();
            b.put(bytes("k"), bytes("b"));
            b.commit();
            assertEquals("b", string(db.get(bytes("k"))));
        }
    }

    @Test
    void everyGetForUpdateFormLocksExclusively() {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions quick = new TransactionOptions().setLockTimeout(10);
             ReadOptions ro = new ReadOptions();
             Transaction a = db.beginTransaction(WriteOptions.DEFAULT, quick);
             Transaction b = db.beginTransaction(WriteOptions.DEFAULT, quick)) {
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            db.put(bytes("k1"), bytes("1")).put(bytes("k2"), bytes("2")).put(bytes("k3"), bytes("3"));
            assertEquals("1", string(a.getForUpdate(cf, ro, bytes("k1"))));
            assertEquals("2", string(a.getForUpdate(cf, bytes("k2"))));
            assertEquals("3", string(a.getForUpdate(ro, bytes("k3"))));
            for (String k : List.of("k1", "k2", "k3")) {
                RocksDBException e = assertThrows(RocksDBException.class, () -> b.getForUpdate(ro, bytes(k)), k);
                assertEquals(RocksDBException.Code.TIMED_OUT, e.code(), e.getMessage());
            }
            a.rollback();
            assertEquals("1", string(b.getForUpdate(ro, bytes("k1"))), "released by the rollback");
        }
    }

    @Test
    void sharedLocksLetOthersReadForUpdate() {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions quick = new TransactionOptions().setLockTimeout(10);
             Transaction a = db.beginTransaction(WriteOptions.DEFAULT, quick);
             Transaction b = db.beginTransaction(WriteOptions.DEFAULT, quick)) {
            db.put(bytes("k"), bytes("v"));
            assertEquals("v", string(a.getForUpdate(db.defaultColumnFamily(), ReadOptions.DEFAULT, bytes("k"), false)));
            assertEquals("v", string(b.getForUpdate(db.defaultColumnFamily(), ReadOptions.DEFAULT, bytes("k"), false)));
            assertThrows(RocksDBException.class, () -> b.put(bytes("k"), bytes("b")));
            a.rollback();
            b.rollback();
        }
    }

    @Test
    void multiGetForUpdateWhereTheEngineHasIt() {
        try (TransactionDB db = TransactionDBTest.openTx(dir); Transaction tx = db.beginTransaction(WriteOptions.DEFAULT)) {
            db.put(bytes("a"), bytes("1"));
            List<byte[]> keys = List.of(bytes("a"), bytes("b"));
            if (Capabilities.callable("rocksdb_transaction_multi_get_for_update_cf")) {
                assertEquals(Arrays.asList("1", null), tx.multiGetForUpdateAsList(db.defaultColumnFamily(),
                        ReadOptions.DEFAULT, keys).stream().map(TestSupport::string).toList());
            } else {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> tx.multiGetForUpdateAsList(db.defaultColumnFamily(), ReadOptions.DEFAULT, keys));
                assertTrue(e.getMessage().contains("rocksdb_transaction_multi_get_for_update_cf"));
            }
            tx.rollback();
        }
    }

    @Test
    void snapshotSetAtBeginIsReadable() {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions to = new TransactionOptions().setSetSnapshot(true);
             Transaction tx = db.beginTransaction(WriteOptions.DEFAULT, to);
             ReadOptions ro = new ReadOptions()) {
            db.put(bytes("k"), bytes("after"));
            Snapshot s = tx.getSnapshot();
            ro.setSnapshot(s);
            assertNull(tx.get(ro, bytes("k")), "the snapshot predates the write");
            assertNull(db.get(ro, bytes("k")));
            assertEquals("after", string(tx.get(bytes("k"))));
            assertThrows(IllegalStateException.class, tx::rollback, "the snapshot is open");
            ro.setSnapshot(null);
            s.close();
            tx.rollback();
        }
    }

    /** keyMayExist is on the read surface: a transaction answers exactly, its own writes included. */
    @Test
    void keyMayExistSeesTheTransactionsOwnWrites() {
        try (TransactionDB db = TransactionDBTest.openTx(dir); Transaction tx = db.beginTransaction(WriteOptions.DEFAULT)) {
            db.put(bytes("stored"), bytes("1"));
            tx.put(bytes("pending"), bytes("2"));
            tx.delete(bytes("stored"));
            KeyValueReads reads = tx;
            assertTrue(reads.keyMayExist(db.defaultColumnFamily(), ReadOptions.DEFAULT, bytes("pending")));
            assertFalse(reads.keyMayExist(db.defaultColumnFamily(), ReadOptions.DEFAULT, bytes("stored")), "deleted in it");
            assertFalse(reads.keyMayExist(db.defaultColumnFamily(), ReadOptions.DEFAULT, bytes("absent")));
            if (TransactionDB.BASE_DB) { // the database's own answer needs its base database (not on 7.8.3)
                assertTrue(db.keyMayExist(db.defaultColumnFamily(), ReadOptions.DEFAULT, bytes("stored")), "the database's view");
            }
            tx.rollback();
            assertThrows(IllegalStateException.class,
                    () -> tx.keyMayExist(db.defaultColumnFamily(), ReadOptions.DEFAULT, bytes("pending")));
        }
    }

    /** A transaction has a snapshot exactly when its options at its latest begin said so; begun again, it follows the new ones. */
    @Test
    void snapshotFollowsTheOptionsOfEachBegin() {
        try (TransactionDB db = TransactionDBTest.openTx(dir);
             TransactionOptions with = new TransactionOptions().setSetSnapshot(true);
             TransactionOptions without = new TransactionOptions();
             Transaction tx = db.beginTransaction(WriteOptions.DEFAULT, without)) {
            assertNull(tx.getSnapshot(), "none asked for");
            tx.rollback();
            assertSame(tx, db.beginTransaction(WriteOptions.DEFAULT, with, tx));
            db.put(bytes("k"), bytes("later"));
            try (Snapshot s = tx.getSnapshot(); ReadOptions ro = new ReadOptions().setSnapshot(s)) {
                assertNotNull(s, "asked for at the second begin");
                assertNull(db.get(ro, bytes("k")), "taken at that begin");
                ro.setSnapshot(null);
            }
            tx.setSavePoint();
            tx.put(bytes("a"), bytes("1"));
            tx.rollbackToSavePoint();
            try (Snapshot s = tx.getSnapshot()) {
                assertNotNull(s, "kept through a savepoint rollback");
            }
            tx.commit();
            assertThrows(IllegalStateException.class, tx::getSnapshot, "finished");
            assertSame(tx, db.beginTransaction(WriteOptions.DEFAULT, without, tx));
            assertNull(tx.getSnapshot(), "begun again without one");
            tx.rollback();
        }
        try (Options o = new Options().setCreateIfMissing(true);
             OptimisticTransactionDB db = OptimisticTransactionDB.open(dir.resolve("optimistic"), o);
             OptimisticTransactionOptions with = new OptimisticTransactionOptions().setSetSnapshot(true);
             Transaction plain = db.beginTransaction(WriteOptions.DEFAULT);
             Transaction snapshotted = db.beginTransaction(WriteOptions.DEFAULT, with)) {
            assertNull(plain.getSnapshot());
            try (Snapshot s = snapshotted.getSnapshot()) {
                assertNotNull(s);
            }
        }
    }

    @Test
    void usedByOneThreadAtATime() throws Exception {
        try (Pair p = open(false)) {
            Transaction tx = p.tx();
            AtomicInteger refused = new AtomicInteger();
            AtomicInteger done = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 2000; i++) {
                        try {
                            tx.put(bytes("k" + id + "-" + i), bytes("v"));
                            done.incrementAndGet();
                        } catch (IllegalStateException e) {
                            assertTrue(e.getMessage().contains("another thread"), e.getMessage());
                            refused.incrementAndGet();
                        }
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            System.out.println("transaction from 4 threads: " + done + " calls done, " + refused + " refused");
            try (WriteBatch b = tx.getWriteBatch()) {
                assertEquals(done.get(), b.count(), "every accepted put is in the batch, no refused one");
            }
            tx.rollback();
        }
    }

    @Test
    void handlesOfAnotherDatabaseAreRefused() {
        try (TransactionDB a = TransactionDBTest.openTx(dir.resolve("a"));
             TransactionDB b = TransactionDBTest.openTx(dir.resolve("b"));
             Transaction tx = a.beginTransaction(WriteOptions.DEFAULT);
             Snapshot other = b.getSnapshot();
             ReadOptions ro = new ReadOptions()) {
            ColumnFamilyHandle foreign = b.defaultColumnFamily();
            MemorySegment k = MemorySegment.ofArray(bytes("k"));
            assertThrows(IllegalArgumentException.class, () -> tx.put(foreign, k, k));
            assertThrows(IllegalArgumentException.class, () -> tx.delete(foreign, k));
            assertThrows(IllegalArgumentException.class, () -> tx.get(foreign, ReadOptions.DEFAULT, bytes("k")));
            ro.setSnapshot(other);
            assertThrows(IllegalArgumentException.class, () -> tx.get(ro, bytes("k")));
            ro.setSnapshot(null);
            tx.rollback();
        }
    }

    @Test
    void twoPhaseCommit() {
        try (TransactionDB db = TransactionDBTest.openTx(dir); Transaction tx = db.beginTransaction(WriteOptions.DEFAULT)) {
            tx.put(bytes("k"), bytes("v"));
            RocksDBException unnamed = assertThrows(RocksDBException.class, tx::prepare);
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, unnamed.code(), unnamed.getMessage());
            assertEquals("", tx.getName());
            tx.setName("two-phase");
            assertEquals("two-phase", tx.getName());
            tx.prepare();
            assertEquals(Transaction.State.PREPARED, tx.state());
            assertNull(db.get(bytes("k")));
            tx.commit();
            assertEquals("v", string(db.get(bytes("k"))));
        }
    }

    /**
     * Log data of a transaction reaches the log with its commit (read back by change capture),
     * changes no key and takes no sequence number; a rollback to a savepoint drops it, and a
     * finished transaction refuses it. Before RocksDB 11.8 the call is refused, naming it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void logDataGoesToTheLogWithTheCommit(boolean optimistic) {
        try (Pair p = open(optimistic)) {
            Transaction tx = p.tx();
            assertThrows(NullPointerException.class, () -> tx.putLogData((byte[]) null));
            assertThrows(NullPointerException.class, () -> tx.putLogData((MemorySegment) null));
            if (!Gated.supported("rocksdb_transaction_put_log_data", () -> tx.putLogData(bytes("x")))) {
                return;
            }
            long start = p.db().latestSequenceNumber();
            tx.put(bytes("a"), bytes("1")).putLogData(bytes("blob one"));
            tx.setSavePoint();
            tx.putLogData(MemorySegment.ofArray(bytes("dropped")));
            tx.rollbackToSavePoint();
            tx.putLogData(MemorySegment.ofArray(bytes("blob two")));
            try (WriteBatch pending = tx.getWriteBatch()) {
                assertEquals(1, pending.count(), "log data is not a write");
            }
            tx.commit();
            assertThrows(IllegalStateException.class, () -> tx.putLogData(bytes("late")));
            assertEquals(start + 1, p.db().latestSequenceNumber(), "one write, one sequence number");
            assertEquals(List.of("put a 1", "log blob one", "log blob two"), loggedRecords(p.db(), start + 1));
            assertNull(p.db().get(bytes("blob one")));
        }
    }
}
