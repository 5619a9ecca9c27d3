package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
            assertEquals("batch-b2", string(b.getFromBatch(cf, o, bytes("b"))));
            assertNull(b.getFromBatch(cf, o, bytes("a")), "not in the batch");
            assertEquals("batch-d", string(b.getFromBatch(o, bytes("d"))));
            assertNull(b.getFromBatch(cf, o, bytes("c")), "deleted in the batch");
            assertEquals("db-a", string(b.getFromBatchAndDB(db, cf, ro, bytes("a"))));
            assertEquals("batch-b2", string(b.getFromBatchAndDB(db, cf, ro, bytes("b"))));
            assertNull(b.getFromBatchAndDB(db, cf, ro, bytes("c")));
            List<String> seen = new ArrayList<>();
            try (RocksIterator it = b.newIteratorWithBase(db, cf, ro)) {
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
            assertEquals("1", string(b.getFromBatchAndDB(db, db.defaultColumnFamily(), ro, bytes("a"))));
            try (RocksIterator it = b.newIteratorWithBase(db, db.defaultColumnFamily(), ro)) {
                it.seekToLast();
                assertEquals("b", string(it.keyBytes()));
            }
        }
        try (TransactionDB db = TransactionDBTest.openTx(dir.resolve("t"));
             WriteBatchWithIndex b = new WriteBatchWithIndex(); ReadOptions ro = new ReadOptions()) {
            if (TransactionDB.BASE_DB) {
                assertNull(b.getFromBatchAndDB(db, db.defaultColumnFamily(), ro, bytes("a")));
            } else {
                assertThrows(UnsupportedOperationException.class,
                        () -> b.getFromBatchAndDB(db, db.defaultColumnFamily(), ro, bytes("a")));
            }
        }
    }

    @Test
    void misuse() throws Exception {
        try (RocksDB a = open(dir.resolve("a")); RocksDB other = open(dir.resolve("b")); ReadOptions ro = new ReadOptions()) {
            WriteBatchWithIndex b = new WriteBatchWithIndex();
            assertThrows(IllegalArgumentException.class,
                    () -> b.getFromBatchAndDB(a, other.defaultColumnFamily(), ro, bytes("k")));
            Thread t = new Thread(() -> assertThrows(WrongThreadException.class, b::count));
            t.start();
            t.join();
            b.close();
            b.close();
            assertThrows(IllegalStateException.class, b::count);
            assertThrows(IllegalStateException.class, () -> a.write(WriteOptions.DEFAULT, b));
        }
    }

    private static final String PINNED = "rocksdb_writebatch_wi_get_pinned_from_batch_and_db_cf";

    /** A segment read's result as a string: the value, or null for -1 (the buffer was large enough). */
    private static String segmentResult(long length, MemorySegment out) {
        if (length < 0) {
            return null;
        }
        assertTrue(length <= out.byteSize(), "buffer large enough");
        return new String(out.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE));
    }

    /**
     * Every read form (batch alone and through the batch; arrays, native and heap segments,
     * pinned where the engine has it; family and default-family forms) against a model of the
     * batch over the database, after random writes to a bytewise default family and a family in
     * descending order (a Java comparator).
     */
    @Test
    void everyReadFormAgreesWithAModelInBothOrders() {
        Random random = new Random(31);
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, o);
             Options reverse = new Options().setComparator(new ComparatorTest.Reverse());
             ReadOptions ro = new ReadOptions(); WriteBatchWithIndex b = new WriteBatchWithIndex();
             Arena arena = Arena.ofConfined()) {
            ColumnFamilyHandle rev = db.createColumnFamily("rev", reverse);
            ColumnFamilyHandle def = db.defaultColumnFamily();
            Map<ColumnFamilyHandle, Map<String, String>> inDb = Map.of(def, new HashMap<>(), rev, new HashMap<>());
            Map<ColumnFamilyHandle, Map<String, String>> inBatch = Map.of(def, new HashMap<>(), rev, new HashMap<>());
            for (int i = 0; i < 400; i++) {
                ColumnFamilyHandle f = random.nextBoolean() ? def : rev;
                String k = "k" + random.nextInt(40);
                String v = "v" + i + "-" + "x".repeat(random.nextInt(30));
                switch (random.nextInt(4)) {
                    case 0 -> {
                        db.put(f, bytes(k), bytes(v));
                        inDb.get(f).put(k, v);
                    }
                    case 1 -> {
                        b.put(f, bytes(k), bytes(v));
                        inBatch.get(f).put(k, v);
                    }
                    case 2 -> {
                        b.delete(f, bytes(k));
                        inBatch.get(f).put(k, null);
                    }
                    default -> {
                        db.delete(f, bytes(k));
                        inDb.get(f).remove(k);
                    }
                }
            }
            boolean pinned = Gated.supported(PINNED, () -> b.getPinnedFromBatchAndDB(db, def, ro,
                    MemorySegment.ofArray(bytes("k1"))));
            MemorySegment nativeOut = arena.allocate(64);
            MemorySegment heapOut = MemorySegment.ofArray(new byte[64]);
            int checked = 0;
            for (ColumnFamilyHandle f : List.of(def, rev)) {
                Options opts = f == def ? o : reverse;
                for (int i = 0; i < 42; i++) {
                    String k = "k" + i;
                    byte[] key = bytes(k);
                    MemorySegment heapKey = MemorySegment.ofArray(key);
                    MemorySegment nativeKey = arena.allocateFrom(ValueLayout.JAVA_BYTE, key);
                    String batchOnly = inBatch.get(f).get(k);
                    String merged = inBatch.get(f).containsKey(k) ? batchOnly : inDb.get(f).get(k);
                    assertEquals(batchOnly, string(b.getFromBatch(f, opts, key)), k);
                    assertEquals(batchOnly, string(b.getFromBatch(f, key)), k);
                    assertEquals(batchOnly, segmentResult(b.getFromBatch(f, opts, nativeKey, nativeOut), nativeOut), k);
                    assertEquals(batchOnly, segmentResult(b.getFromBatch(f, opts, heapKey, heapOut), heapOut), k);
                    assertEquals(merged, string(b.getFromBatchAndDB(db, f, ro, key)), k);
                    assertEquals(merged, string(b.getFromBatchAndDB(db, f, key)), k);
                    assertEquals(merged, segmentResult(b.getFromBatchAndDB(db, f, ro, nativeKey, nativeOut), nativeOut), k);
                    assertEquals(merged, segmentResult(b.getFromBatchAndDB(db, f, ro, heapKey, heapOut), heapOut), k);
                    if (f == def) {
                        assertEquals(batchOnly, string(b.getFromBatch(o, key)), k);
                        assertEquals(batchOnly, string(b.getFromBatch(key)), k);
                        assertEquals(batchOnly, segmentResult(b.getFromBatch(o, heapKey, heapOut), heapOut), k);
                        assertEquals(merged, string(b.getFromBatchAndDB(db, key)), k);
                        assertEquals(merged, string(b.getFromBatchAndDB(db, ro, key)), k);
                        assertEquals(merged, segmentResult(b.getFromBatchAndDB(db, ro, nativeKey, nativeOut), nativeOut), k);
                    }
                    if (pinned) {
                        try (PinnedValue p = b.getPinnedFromBatchAndDB(db, f, ro, nativeKey)) {
                            assertEquals(merged, p == null ? null : string(p.toByteArray()), k);
                        }
                        if (f == def) {
                            try (PinnedValue p = b.getPinnedFromBatchAndDB(db, ro, heapKey)) {
                                assertEquals(merged, p == null ? null : string(p.toByteArray()), k);
                            }
                        }
                    }
                    checked++;
                }
                // the iterator over the batch and the database follows the family's order
                List<String> expected = new ArrayList<>();
                Map<String, String> view = new HashMap<>(inDb.get(f));
                inBatch.get(f).forEach((k, v) -> {
                    if (v == null) {
                        view.remove(k);
                    } else {
                        view.put(k, v);
                    }
                });
                view.keySet().stream().sorted().forEach(k -> expected.add(k + "=" + view.get(k)));
                if (f == rev) {
                    Collections.reverse(expected);
                }
                List<String> seen = new ArrayList<>();
                try (RocksIterator it = f == def ? b.newIteratorWithBase(db, ro) : b.newIteratorWithBase(db, f, ro)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        seen.add(string(it.keyBytes()) + "=" + string(it.valueBytes()));
                    }
                }
                assertEquals(expected, seen, f.toString());
                assertFalse(expected.isEmpty());
            }
            assertEquals(84, checked);
        }
    }

    /** A segment smaller than the value gets its prefix and the full length, the bytes past it untouched. */
    @Test
    void aSmallOutputSegmentGetsThePrefixAndTheFullLength() {
        try (Options o = new Options(); RocksDB db = open(dir); WriteBatchWithIndex b = new WriteBatchWithIndex();
             Arena arena = Arena.ofConfined()) {
            db.put(bytes("d"), bytes("database-value"));
            b.put(bytes("b"), bytes("batch-value"));
            for (MemorySegment buf : List.of(arena.allocate(6), MemorySegment.ofArray(new byte[6]))) {
                buf.fill((byte) 'z');
                MemorySegment out = buf.asSlice(0, 3);
                assertEquals(11, b.getFromBatch(o, MemorySegment.ofArray(bytes("b")), out));
                assertEquals("batzzz", new String(buf.toArray(ValueLayout.JAVA_BYTE)));
                buf.fill((byte) 'z');
                assertEquals(14, b.getFromBatchAndDB(db, ReadOptions.DEFAULT, MemorySegment.ofArray(bytes("d")), out));
                assertEquals("datzzz", new String(buf.toArray(ValueLayout.JAVA_BYTE)));
                assertEquals(11, b.getFromBatchAndDB(db, ReadOptions.DEFAULT, MemorySegment.ofArray(bytes("b")),
                        MemorySegment.NULL), "a zero-length output only measures");
            }
        }
    }

    /** Read-only outputs, merges without a base in the batch, a closed batch. */
    @Test
    void badReads() {
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(new StringAppendOperator());
             RocksDB db = RocksDB.open(dir, o); ReadOptions ro = new ReadOptions()) {
            WriteBatchWithIndex b = new WriteBatchWithIndex();
            db.put(bytes("m"), bytes("base"));
            b.merge(bytes("m"), bytes("op"));
            MemorySegment key = MemorySegment.ofArray(bytes("m"));
            MemorySegment readOnly = MemorySegment.ofArray(new byte[8]).asReadOnly();
            assertThrows(IllegalArgumentException.class, () -> b.getFromBatch(o, key, readOnly));
            assertThrows(IllegalArgumentException.class, () -> b.getFromBatch(db.defaultColumnFamily(), o, key, readOnly));
            assertThrows(IllegalArgumentException.class, () -> b.getFromBatchAndDB(db, ro, key, readOnly));
            assertArrayEquals(new byte[8], readOnly.toArray(ValueLayout.JAVA_BYTE));
            RocksDBException e = assertThrows(RocksDBException.class, () -> b.getFromBatch(o, bytes("m")));
            assertEquals(RocksDBException.Code.MERGE_IN_PROGRESS, e.code());
            e = assertThrows(RocksDBException.class, () -> b.getFromBatch(o, key, MemorySegment.ofArray(new byte[8])));
            assertEquals(RocksDBException.Code.MERGE_IN_PROGRESS, e.code());
            assertEquals("base,op", string(b.getFromBatchAndDB(db, bytes("m"))), "the merge applies over the database");
            MemorySegment out = MemorySegment.ofArray(new byte[16]);
            assertEquals(7, b.getFromBatchAndDB(db, ro, key, out));
            assertEquals("base,op", new String(Arrays.copyOf(out.toArray(ValueLayout.JAVA_BYTE), 7)));
            b.close();
            assertThrows(IllegalStateException.class, () -> b.getFromBatch(o, key, out));
            assertThrows(IllegalStateException.class, () -> b.getFromBatchAndDB(db, ro, key, out));
            assertThrows(IllegalStateException.class, () -> b.getFromBatchAndDB(db, bytes("m")));
            assertThrows(IllegalStateException.class, () -> b.getPinnedFromBatchAndDB(db, ro, key));
            assertEquals("base", string(db.get(bytes("m"))), "nothing was written");
        }
    }

    /**
     * Log data in an indexed batch goes to the log with the batch, in RocksDB's record (the same
     * bytes as a {@link WriteBatch} given the same calls, whose encoding is checked against the C
     * API), but not into the index or the count; a save point rolls it back.
     */
    @Test
    void logDataGoesToTheLogNotTheIndex() {
        try (RocksDB db = open(dir); Options o = new Options(); WriteOptions wo = new WriteOptions();
             WriteBatchWithIndex b = new WriteBatchWithIndex();
             WriteBatch plain = new WriteBatch().put(bytes("a"), bytes("1")).putLogData(bytes("blob one"))
                     .putLogData(bytes("a"))) {
            b.put(bytes("a"), bytes("1")).putLogData(bytes("blob one"));
            b.setSavePoint().putLogData(bytes("dropped")).put(bytes("b"), bytes("2")).rollbackToSavePoint();
            b.putLogData(MemorySegment.ofArray(bytes("a")));
            assertEquals(1, b.count(), "log data is not a write");
            assertNull(b.getFromBatch(o, bytes("blob one")), "nor indexed");
            assertEquals("1", string(b.getFromBatch(o, bytes("a"))), "a blob equal to a key does not shadow it");
            assertThrows(NullPointerException.class, () -> b.putLogData((byte[]) null));
            assertThrows(NullPointerException.class, () -> b.putLogData((MemorySegment) null));
            long start = db.latestSequenceNumber();
            db.write(wo, b);
            assertEquals(start + 1, db.latestSequenceNumber(), "one write, one sequence number");
            assertEquals(List.of("put a 1", "log blob one", "log a"), loggedRecords(db, start + 1));
            List<WalUpdate> updates = db.getUpdatesSince(start + 1, 10);
            try {
                assertArrayEquals(plain.data().asSlice(8).toArray(ValueLayout.JAVA_BYTE),
                        updates.get(0).batch().data().asSlice(8).toArray(ValueLayout.JAVA_BYTE));
            } finally {
                updates.forEach(u -> u.batch().close());
            }
            assertNull(db.get(bytes("blob one")));
            assertEquals("1", string(db.get(bytes("a"))));
            try (RocksIterator it = b.newIteratorWithBase(db, ReadOptions.DEFAULT)) {
                assertThrows(IllegalStateException.class, () -> b.putLogData(bytes("x")), "iterated");
            }
        }
    }
}
