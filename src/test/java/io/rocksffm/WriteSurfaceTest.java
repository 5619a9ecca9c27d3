package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one write surface ({@link Writes}), written the same way to every kind of surface. */
class WriteSurfaceTest {
    @TempDir
    Path dir;

    /** The same writes through any surface: put, merge, delete, singleDelete, chained. */
    private static <T extends Writes<T>> void writeAll(Writes<T> w, ColumnFamilyHandle cf) {
        T written = writeSome(w, cf);
        written.singleDelete(bytes("c"));
    }

    /** {@link #writeAll} but for the single deletion, which a transaction refuses: a plain delete. */
    private static <T extends Writes<T>> T writeSome(Writes<T> w, ColumnFamilyHandle cf) {
        return w.put(bytes("a"), bytes("1"))
                .put(cf, bytes("b"), bytes("2"))
                .put(bytes("c"), bytes("3"))
                .merge(bytes("a"), bytes("x"))
                .merge(cf, bytes("b"), bytes("y"))
                .delete(cf, bytes("zz"));
    }

    private static void assertWritten(Database db) {
        assertEquals("1,x", string(db.get(bytes("a"))));
        assertEquals("2,y", string(db.get(bytes("b"))));
        assertNull(db.get(bytes("c")), "single-deleted");
    }

    /** What runs against one database of each kind, opened on the same options with a merge operator. */
    @FunctionalInterface
    private interface EveryKind {
        void run(RocksDB rdb, OptimisticTransactionDB odb, TransactionDB tdb, WriteOptions wo);
    }

    private void withEveryKind(EveryKind body) {
        try (Options options = new Options().setCreateIfMissing(true).setMergeOperator(new StringAppendOperator());
             TransactionDBOptions txOptions = new TransactionDBOptions();
             RocksDB rdb = RocksDB.open(dir.resolve("r"), options);
             OptimisticTransactionDB odb = OptimisticTransactionDB.open(dir.resolve("o"), options);
             TransactionDB tdb = TransactionDB.open(dir.resolve("t"), options, txOptions);
             WriteOptions wo = new WriteOptions()) {
            body.run(rdb, odb, tdb, wo);
        }
    }

    @Test
    void everyKindOfDatabaseTakesTheSameWrites() {
        withEveryKind((rdb, odb, tdb, wo) -> {
            for (Database db : List.<Database>of(rdb, odb, tdb)) {
                writeAll(db, db.defaultColumnFamily());
                assertWritten(db);
                assertSame(db, db.put(wo, bytes("d"), bytes("4")), "a database write returns the database");
                assertEquals("4", string(db.get(bytes("d"))));
                db.singleDelete(wo, bytes("d"));
                assertNull(db.get(bytes("d")));
            }
            rdb.deleteRange(bytes("a"), bytes("b"));
            assertNull(rdb.get(bytes("a")));
            assertEquals("2,y", string(rdb.get(bytes("b"))));
        });
    }

    /** Every kind of database writes a batch and an indexed batch, with and without write options, to the same result. */
    @Test
    void everyKindOfDatabaseWritesBothKindsOfBatch() {
        withEveryKind((rdb, odb, tdb, wo) -> {
            for (Database db : List.<Database>of(rdb, odb, tdb)) {
                String kind = db.getClass().getSimpleName();
                try (WriteBatch batch = new WriteBatch()) {
                    writeAll(batch, db.defaultColumnFamily());
                    db.write(batch);
                    assertWritten(db);
                    db.write(wo, batch.clear().put(bytes("e"), bytes("5")));
                    assertEquals("5", string(db.get(bytes("e"))), kind);
                }
                try (WriteBatchWithIndex indexed = new WriteBatchWithIndex()) {
                    writeAll(indexed, db.defaultColumnFamily());
                    indexed.put(bytes("e"), bytes("6"));
                    db.write(indexed);
                    assertWritten(db);
                    assertEquals("6", string(db.get(bytes("e"))), kind);
                    db.write(wo, indexed);
                    assertWritten(db); // written again: the same result
                    assertEquals(8, indexed.count(), kind + ": the batch is unchanged");
                }
                try (Options other = new Options().setCreateIfMissing(true); RocksDB elsewhere = RocksDB.open(dir.resolve("x-" + kind), other);
                     WriteBatchWithIndex foreign = new WriteBatchWithIndex()) {
                    ColumnFamilyHandle cf = elsewhere.createColumnFamily("cf", other);
                    foreign.put(cf, bytes("f"), bytes("1"));
                    assertThrows(IllegalArgumentException.class, () -> db.write(foreign), kind + ": another database's family");
                    assertNull(db.get(bytes("f")));
                }
            }
        });
    }

    @Test
    void batchesAndTransactionsTakeTheSameWrites() {
        try (Options options = new Options().setCreateIfMissing(true).setMergeOperator(new StringAppendOperator());
             TransactionDBOptions txOptions = new TransactionDBOptions();
             RocksDB rdb = RocksDB.open(dir.resolve("r"), options);
             TransactionDB tdb = TransactionDB.open(dir.resolve("t"), options, txOptions);
             WriteOptions wo = new WriteOptions()) {
            try (WriteBatch batch = new WriteBatch()) {
                writeAll(batch, rdb.defaultColumnFamily());
                rdb.write(wo, batch);
            }
            assertWritten(rdb);
            try (WriteBatchWithIndex batch = new WriteBatchWithIndex()) {
                writeAll(batch, rdb.defaultColumnFamily());
                rdb.write(wo, batch);
            }
            assertWritten(rdb); // the same writes again: the same result
            try (Transaction tx = tdb.beginTransaction(wo)) {
                writeSome(tx, tdb.defaultColumnFamily()).delete(bytes("c"));
                tx.commit();
            }
            assertWritten(tdb);
        }
    }

    @Test
    void transactionsAndIndexedBatchesRefuseRangeDeletions() {
        try (Options options = new Options().setCreateIfMissing(true);
             TransactionDBOptions txOptions = new TransactionDBOptions();
             TransactionDB tdb = TransactionDB.open(dir.resolve("t"), options, txOptions);
             WriteOptions wo = new WriteOptions();
             Transaction tx = tdb.beginTransaction(wo);
             WriteBatchWithIndex batch = new WriteBatchWithIndex()) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> tx.deleteRange(bytes("a"), bytes("b")));
            assertTrue(e.getMessage().contains("range deletion"), e.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> batch.deleteRange(bytes("a"), bytes("b")));
            assertThrows(UnsupportedOperationException.class,
                    () -> batch.deleteRange(tdb.defaultColumnFamily(), bytes("a"), bytes("b")));
            assertThrows(NullPointerException.class, () -> tx.deleteRange(null, bytes("b")));
            tx.put(bytes("s"), bytes("1"));
            UnsupportedOperationException single = assertThrows(UnsupportedOperationException.class,
                    () -> tx.singleDelete(bytes("s")), "no single deletion for a transaction in the C API");
            assertTrue(single.getMessage().contains("single deletion"), single.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> tx.singleDelete(tdb.defaultColumnFamily(), bytes("s")));
            assertArrayEquals(bytes("1"), tx.get(bytes("s")), "not deleted");
            assertThrows(NullPointerException.class, () -> tx.singleDelete((byte[]) null));
            assertThrows(UnsupportedOperationException.class, () -> tdb.deleteRange(bytes("a"), bytes("b")),
                    "and the transaction database: the same exception type");
            assertEquals(0, batch.count(), "nothing was added");
            tx.rollback();
            assertThrows(IllegalStateException.class, () -> tx.deleteRange(bytes("a"), bytes("b")), "finished");
            assertThrows(IllegalStateException.class, () -> tx.singleDelete(bytes("s")), "finished");
        }
    }
}
