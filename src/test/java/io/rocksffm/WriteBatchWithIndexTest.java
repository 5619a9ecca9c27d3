package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteBatchWithIndexTest {
    @TempDir
    Path dir;

    @Test
    void readsBackTheBatchAloneAndOverTheDatabase() {
        try (RocksDB db = open(dir); Options o = new Options(); ReadOptions ro = new ReadOptions();
             WriteBatchWithIndex b = new WriteBatchWithIndex()) {
            db.put(bytes("a"), bytes("db-a"));
            db.put(bytes("b"), bytes("db-b"));
            db.put(bytes("c"), bytes("db-c"));
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            b.put(bytes("b"), bytes("batch-b")).delete(bytes("c"));
            b.put(cf, MemorySegment.ofArray(bytes("d")), MemorySegment.ofArray(bytes("batch-d")));
            b.put(bytes("b"), bytes("batch-b2"));
            assertEquals(4, b.count());
            assertEquals("batch-b2", string(b.getFromBatch(o, cf, bytes("b"))));
            assertNull(b.getFromBatch(o, cf, bytes("a")), "not in the batch");
            assertEquals("batch-d", string(b.getFromBatch(o, bytes("d"))));
            assertNull(b.getFromBatch(o, cf, bytes("c")), "deleted in the batch");
            assertEquals("db-a", string(b.getFromBatchAndDB(db, ro, cf, bytes("a"))));
            assertEquals("batch-b2", string(b.getFromBatchAndDB(db, ro, cf, bytes("b"))));
            assertNull(b.getFromBatchAndDB(db, ro, cf, bytes("c")));
            List<String> seen = new ArrayList<>();
            try (RocksIterator it = b.newIteratorWithBase(db, ro, cf)) {
                assertThrows(IllegalStateException.class, () -> b.put(bytes("x"), bytes("y")), "iterated");
                assertThrows(IllegalStateException.class, b::close);
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    seen.add(string(it.keyBytes()) + "=" + string(it.valueBytes()));
                }
            }
            assertEquals(List.of("a=db-a", "b=batch-b2", "d=batch-d"), seen);
            assertEquals("db-b", string(db.get(bytes("b"))), "nothing written yet");
            try (WriteOptions wo = new WriteOptions()) {
                db.write(wo, b);
            }
            assertEquals("batch-b2", string(db.get(bytes("b"))));
            assertNull(db.get(bytes("c")));
            assertEquals("batch-d", string(db.get(bytes("d"))));
            b.clear();
            assertEquals(0, b.count());
        }
    }

    @Test
    void overTheOtherKindsOfDatabase() {
        try (OptimisticTransactionDB db = OptimisticTransactionDBTest.openOpt(dir.resolve("o"));
             WriteBatchWithIndex b = new WriteBatchWithIndex(); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("a"), bytes("1"));
            b.put(bytes("b"), bytes("2"));
            assertEquals("1", string(b.getFromBatchAndDB(db, ro, db.defaultColumnFamily(), bytes("a"))));
            try (RocksIterator it = b.newIteratorWithBase(db, ro, db.defaultColumnFamily())) {
                it.seekToLast();
                assertEquals("b", string(it.keyBytes()));
            }
        }
        try (TransactionDB db = TransactionDBTest.openTx(dir.resolve("t"));
             WriteBatchWithIndex b = new WriteBatchWithIndex(); ReadOptions ro = new ReadOptions()) {
            if (TransactionDB.BASE_DB) {
                assertNull(b.getFromBatchAndDB(db, ro, db.defaultColumnFamily(), bytes("a")));
            } else {
                assertThrows(UnsupportedOperationException.class,
                        () -> b.getFromBatchAndDB(db, ro, db.defaultColumnFamily(), bytes("a")));
            }
        }
    }

    @Test
    void misuse() throws Exception {
        try (RocksDB a = open(dir.resolve("a")); RocksDB other = open(dir.resolve("b")); ReadOptions ro = new ReadOptions()) {
            WriteBatchWithIndex b = new WriteBatchWithIndex();
            assertThrows(IllegalArgumentException.class,
                    () -> b.getFromBatchAndDB(a, ro, other.defaultColumnFamily(), bytes("k")));
            Thread t = new Thread(() -> assertThrows(WrongThreadException.class, b::count));
            t.start();
            t.join();
            b.close();
            b.close();
            assertThrows(IllegalStateException.class, b::count);
            assertThrows(IllegalStateException.class, () -> a.write(WriteOptions.DEFAULT, b));
        }
    }
}
