package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.Map;

class TransactionDBTest {
    @TempDir
    Path dir;

    static TransactionDB openTx(Path dir) {
        try (Options o = new Options().setCreateIfMissing(true); TransactionDBOptions t = new TransactionDBOptions()) {
            return TransactionDB.open(dir, o, t);
        }
    }

    @Test
    void nonTransactionalWritesAndReads() {
        try (TransactionDB db = openTx(dir)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"));
            assertEquals("1", string(db.get(bytes("a"))));
            db.delete(bytes("a"));
            assertNull(db.get(bytes("a")));
            try (WriteBatch b = new WriteBatch(); WriteOptions wo = new WriteOptions()) {
                b.put(bytes("c"), bytes("3"));
                db.write(wo, b);
            }
            assertEquals(List.of("2", "3"), db.multiGetAsList(List.of(bytes("b"), bytes("c"))).stream()
                    .map(TestSupport::string).toList());
            MemorySegment[] keys = {MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(bytes("zz"))};
            MemorySegment[] values = {MemorySegment.ofArray(new byte[4]), null};
            long[] lengths = new long[2];
            RocksDBException[] errors = new RocksDBException[2];
            assertEquals(1, db.multiGet(db.defaultColumnFamily(), ReadOptions.DEFAULT, keys, values, lengths, errors,
                    false));
            assertArrayEquals(new long[] {1, -1}, lengths);
            try (PinnedValue v = db.getPinned(ReadOptions.DEFAULT, MemorySegment.ofArray(bytes("c")))) {
                assertEquals("3", string(v.toByteArray()));
            }
            try (RocksIterator it = db.newIterator(ReadOptions.DEFAULT)) {
                int n = 0;
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    n++;
                }
                assertEquals(2, n);
            }
        }
    }

    @Test
    void snapshotsSeeThePast() {
        try (TransactionDB db = openTx(dir)) {
            db.put(bytes("k"), bytes("old"));
            try (Snapshot s = db.getSnapshot(); ReadOptions ro = new ReadOptions()) {
                db.put(bytes("k"), bytes("new"));
                ro.setSnapshot(s);
                assertEquals("old", string(db.get(ro, bytes("k"))));
                ro.setSnapshot(null);
            }
            assertEquals("new", string(db.get(bytes("k"))));
        }
    }

    @Test
    void deleteRangeIsRefused() {
        try (TransactionDB db = openTx(dir)) {
            db.put(bytes("a"), bytes("1"));
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> db.deleteRange(bytes("a"), bytes("b")));
            assertTrue(e.getMessage().contains("range deletion"), e.getMessage());
            try (WriteBatch batch = new WriteBatch().put(bytes("b"), bytes("2")).deleteRange(bytes("a"), bytes("b"))) {
                assertThrows(UnsupportedOperationException.class, () -> db.write(batch), "the same write in a batch");
            }
            assertThrows(NullPointerException.class, () -> db.deleteRange(null, bytes("b")), "arguments first");
            assertEquals("1", string(db.get(bytes("a"))), "nothing written");
            assertNull(db.get(bytes("b")), "nothing of the batch written");
        }
    }

    @Test
    void columnFamiliesOpenLikeRocksDB() {
        try (Options o = new Options().setCreateIfMissing(true); TransactionDBOptions t = new TransactionDBOptions()) {
            try (RocksDB plain = RocksDB.open(dir, o)) {
                plain.createColumnFamily("cf", o);
            }
            try (TransactionDB db = TransactionDB.open(dir, o, t, List.of(new ColumnFamilyDescriptor("cf", o)))) {
                ColumnFamilyHandle cf = db.columnFamily("cf");
                db.put(cf, bytes("k"), bytes("v"));
                try (WriteOptions wo = new WriteOptions(); Transaction tx = db.beginTransaction(wo)) {
                    tx.put(cf, MemorySegment.ofArray(bytes("t")), MemorySegment.ofArray(bytes("x")));
                    assertEquals("v", string(tx.get(cf, ReadOptions.DEFAULT, bytes("k"))));
                    tx.commit();
                }
                assertEquals("x", string(db.get(cf, bytes("t"))));
                assertNull(db.get(bytes("t")));
            }
            assertEquals(Arrays.asList("default", "cf"), RocksDB.listColumnFamilies(dir, o));
        }
    }

    @Test
    void administrationNeedsTheBaseDatabase() {
        try (TransactionDB db = openTx(dir)) {
            db.put(bytes("k"), bytes("v"));
            db.flush(true);
            db.flushWal(true);
            assertTrue(db.getLongProperty("rocksdb.estimate-num-keys").isPresent());
            assertNotNull(db.getProperty("rocksdb.stats"));
            if (TransactionDB.BASE_DB) {
                db.compactRange();
                db.createCheckpoint(dir.resolveSibling(dir.getFileName() + "-cp"));
                ColumnFamilyHandle cf;
                try (Options o = new Options()) {
                    cf = db.createColumnFamily("new", o);
                }
                db.dropColumnFamily(cf);
            } else {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, db::compactRange);
                assertTrue(e.getMessage().contains("rocksdb_transactiondb_get_base_db"), e.getMessage());
                assertThrows(UnsupportedOperationException.class,
                        () -> db.setOptions(Map.of("write_buffer_size", "4194304")));
                try (IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
                    assertThrows(UnsupportedOperationException.class,
                            () -> db.ingestExternalFile(List.of(dir.resolve("none.sst")), ingest));
                }
                try (BackupEngineOptions bo = new BackupEngineOptions(dir.resolveSibling(dir.getFileName() + "-bk"));
                     BackupEngine engine = BackupEngine.open(bo)) {
                    assertThrows(UnsupportedOperationException.class, () -> engine.createBackup(db));
                }
            }
        }
    }

    @Test
    void closeRefusesWhileTransactionsAreOpen() {
        TransactionDB db = openTx(dir);
        Transaction tx = db.beginTransaction(WriteOptions.DEFAULT);
        IllegalStateException e = assertThrows(IllegalStateException.class, db::close);
        assertTrue(e.getMessage().contains("transactions"), e.getMessage());
        tx.close();
        db.close();
        db.close();
        assertThrows(IllegalStateException.class, () -> db.get(bytes("k")));
        assertThrows(IllegalStateException.class, () -> db.beginTransaction(WriteOptions.DEFAULT));
    }

    @Test
    void reusesAFinishedTransaction() {
        try (TransactionDB db = openTx(dir); WriteOptions wo = new WriteOptions();
             TransactionOptions to = new TransactionOptions()) {
            Transaction tx = db.beginTransaction(wo, to);
            tx.put(bytes("a"), bytes("1"));
            assertThrows(IllegalStateException.class, () -> db.beginTransaction(wo, to, tx), "not finished");
            tx.commit();
            Transaction again = db.beginTransaction(wo, to, tx);
            assertSame(tx, again);
            assertEquals(Transaction.State.STARTED, again.state());
            again.put(bytes("b"), bytes("2"));
            again.rollback();
            assertNull(db.get(bytes("b")));
            assertEquals("1", string(db.get(bytes("a"))));
            again.close();
            assertThrows(IllegalStateException.class, () -> db.beginTransaction(wo, to, again), "closed");
        }
    }

    @Test
    void refusesATransactionOfAnotherDatabase() {
        try (TransactionDB a = openTx(dir.resolve("a")); TransactionDB b = openTx(dir.resolve("b"));
             Transaction tx = a.beginTransaction(WriteOptions.DEFAULT)) {
            tx.rollback();
            assertThrows(IllegalArgumentException.class,
                    () -> b.beginTransaction(WriteOptions.DEFAULT, new TransactionOptions(), tx));
        }
    }

    @Test
    void preparedTransactionsAreRecovered() {
        try (TransactionDB db = openTx(dir); WriteOptions wo = new WriteOptions().setSync(true)) {
            Transaction tx = db.beginTransaction(wo);
            tx.setName("xid-1");
            tx.put(bytes("p"), bytes("1"));
            tx.prepare();
            assertEquals(Transaction.State.PREPARED, tx.state());
            assertEquals(List.of(), db.getPreparedTransactions(), "not one an open Transaction owns");
            tx.close(); // stays prepared in the database
        }
        try (TransactionDB db = openTx(dir)) {
            List<Transaction> prepared = db.getPreparedTransactions();
            assertEquals(1, prepared.size());
            assertEquals(List.of(), db.getPreparedTransactions(), "handed out once while open");
            try (Transaction tx = prepared.get(0)) {
                assertEquals("xid-1", tx.getName());
                assertEquals(Transaction.State.PREPARED, tx.state());
                assertNull(db.get(bytes("p")));
                tx.commit();
            }
            assertEquals("1", string(db.get(bytes("p"))));
        }
    }
}
