package io.rocksffm;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.TestSupport.string;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Upcalls;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/** Merge operators in Java: the ready-made ones, user ones, failures, batches, lifetimes, a model. */
class MergeOperatorTest {
    @TempDir
    Path dir;

    static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    static long le(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    static RocksDB open(Path dir, MergeOperator op) {
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(op)) {
            return RocksDB.open(dir, o);
        }
    }

    @Test
    void uint64AddSumsLittleEndianCountersLikeRocksDB() {
        try (RocksDB db = open(dir, new UInt64AddOperator())) {
            db.merge(bytes("c"), le(5));
            db.merge(bytes("c"), le(-7)); // wraps like uint64
            db.merge(bytes("c"), le(Long.MAX_VALUE));
            assertEquals(5L - 7 + Long.MAX_VALUE, le(db.get(bytes("c"))));
            db.put(bytes("c"), le(100));
            db.merge(bytes("c"), le(1));
            assertArrayEquals(le(101), db.get(bytes("c")));
            // RocksDB's operator counts a malformed value or operand as 0
            db.put(bytes("bad"), bytes("xyz"));
            db.merge(bytes("bad"), le(3));
            db.merge(bytes("bad"), bytes("no"));
            assertArrayEquals(le(3), db.get(bytes("bad")));
            db.delete(bytes("c"));
            db.merge(bytes("c"), le(9));
            assertArrayEquals(le(9), db.get(bytes("c")));
        }
    }

    @Test
    void stringAppendJoinsWithTheDelimiterAcrossFlushesAndCompactions() {
        try (RocksDB db = open(dir, new StringAppendOperator("--"))) {
            db.merge(bytes("k"), bytes("a"));
            db.merge(bytes("k"), bytes("b"));
            db.flush(true);
            db.merge(bytes("k"), bytes(""));
            db.merge(bytes("k"), bytes("c"));
            assertEquals("a--b----c", string(db.get(bytes("k"))));
            db.compactRange();
            assertEquals("a--b----c", string(db.get(bytes("k"))));
            db.put(bytes("p"), bytes("x"));
            db.merge(bytes("p"), bytes("y"));
            assertEquals("x--y", string(db.get(bytes("p"))));
        }
        try (RocksDB db = open(dir.resolve("comma"), new StringAppendOperator())) {
            db.merge(bytes("k"), bytes("1"));
            db.merge(bytes("k"), bytes("2"));
            assertEquals("1,2", string(db.get(bytes("k"))));
        }
    }

    /** Random merges, puts and deletes against a Java model, with flushes and compactions in between. */
    @Test
    void randomMergeSequencesMatchAModel() {
        Random rnd = new Random(15);
        Map<String, String> model = new HashMap<>();
        try (RocksDB db = open(dir, new StringAppendOperator("|"))) {
            for (int i = 0; i < 3000; i++) {
                String k = "k" + rnd.nextInt(40);
                int op = rnd.nextInt(10);
                if (op < 6) {
                    String v = Integer.toString(rnd.nextInt(1000));
                    if (rnd.nextBoolean()) {
                        db.merge(bytes(k), bytes(v));
                    } else {
                        try (WriteBatch b = new WriteBatch()) {
                            db.write(WriteOptions.DEFAULT, b.merge(bytes(k), bytes(v)));
                        }
                    }
                    model.merge(k, v, (a, b) -> a + "|" + b);
                } else if (op < 8) {
                    db.put(bytes(k), bytes("p" + i));
                    model.put(k, "p" + i);
                } else {
                    db.delete(bytes(k));
                    model.remove(k);
                }
                if (i % 500 == 250) {
                    db.flush(true);
                }
                if (i % 1000 == 999) {
                    db.compactRange();
                }
                if (i % 100 == 0) {
                    String probe = "k" + rnd.nextInt(40);
                    assertEquals(model.get(probe), string(db.get(bytes(probe))), probe);
                }
            }
            for (int j = 0; j < 40; j++) {
                assertEquals(model.get("k" + j), string(db.get(bytes("k" + j))));
            }
            int[] n = {0};
            db.forEach(ReadOptions.DEFAULT, (k, v) -> n[0]++);
            assertEquals(model.size(), n[0]);
        }
    }

    @Test
    void aJavaOperatorSeesKeyExistingValueAndOperandsAndCanPartialMerge() {
        AtomicInteger partials = new AtomicInteger();
        MergeOperator max = new MergeOperator() {
            @Override
            public String name() {
                return "max";
            }

            @Override
            public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands ops, ValueOutput out) {
                assertEquals("key", new String(key.toArray(ValueLayout.JAVA_BYTE)));
                assertTrue(key.isReadOnly());
                long m = existing == null ? -1 : existing.get(ValueLayout.JAVA_BYTE, 0);
                for (int i = 0; i < ops.size(); i++) {
                    assertEquals(1, ops.byteSize(i));
                    m = Math.max(m, ops.get(i).get(ValueLayout.JAVA_BYTE, 0));
                }
                out.set(new byte[] {(byte) m});
            }

            @Override
            public boolean partialMerge(MemorySegment key, MergeOperands ops, ValueOutput out) {
                partials.incrementAndGet();
                byte m = 0;
                for (int i = 0; i < ops.size(); i++) {
                    m = (byte) Math.max(m, ops.get(i).get(ValueLayout.JAVA_BYTE, 0));
                }
                out.allocate(1).set(ValueLayout.JAVA_BYTE, 0, m);
                return true;
            }
        };
        try (RocksDB db = open(dir, max)) {
            for (int v : new int[] {3, 9, 2, 7}) {
                db.merge(bytes("key"), new byte[] {(byte) v});
            }
            db.flush(true);
            assertArrayEquals(new byte[] {9}, db.get(bytes("key")));
            db.compactRange();
            assertArrayEquals(new byte[] {9}, db.get(bytes("key")));
        }
    }

    @Test
    void operandsAreUnusableAfterTheCall() {
        MemorySegment[] kept = new MemorySegment[1];
        MergeOperator keeper = new MergeOperator() {
            @Override
            public String name() {
                return "keeper";
            }

            @Override
            public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands ops, ValueOutput out) {
                kept[0] = ops.get(0);
                out.set(ops.get(0));
            }
        };
        try (RocksDB db = open(dir, keeper)) {
            db.merge(bytes("k"), bytes("v"));
            assertEquals("v", string(db.get(bytes("k"))));
            assertThrows(IllegalStateException.class, () -> kept[0].get(ValueLayout.JAVA_BYTE, 0));
        }
    }

    @Test
    void aThrowingOperatorFailsTheReadWithItsMessageAndLosesNothing() {
        MergeOperator failing = new MergeOperator() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands ops, ValueOutput out) {
                if (ops.get(ops.size() - 1).byteSize() == 0) {
                    throw new IllegalArgumentException("empty operand for " + new String(key.toArray(ValueLayout.JAVA_BYTE)));
                }
                out.set(ops.get(ops.size() - 1));
            }
        };
        try (RocksDB db = open(dir, failing)) {
            db.merge(bytes("ok"), bytes("1"));
            db.merge(bytes("bad"), new byte[0]);
            RocksDBException e = assertThrows(RocksDBException.class, () -> db.get(bytes("bad")));
            assertTrue(e.getMessage().contains("empty operand for bad"), e.getMessage());
            assertInstanceOf(IllegalArgumentException.class, e.getCause());
            assertEquals("1", string(db.get(bytes("ok"))), "other keys read fine");
            // a later, unrelated error does not inherit the failure
            db.put(bytes("bad"), bytes("fixed"));
            assertEquals("fixed", string(db.get(bytes("bad"))));
        }
    }

    /** A merge failing on a background thread (flush): no crash, and no data is lost. */
    @Test
    void aMergeFailingInAFlushLosesNothing() {
        AtomicBoolean fail = new AtomicBoolean();
        StringAppendOperator append = new StringAppendOperator();
        MergeOperator flaky = new MergeOperator() {
            @Override
            public String name() {
                return "StringAppendOperator";
            }

            @Override
            public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands ops, ValueOutput out) {
                if (fail.get()) {
                    throw new IllegalStateException("compaction-time failure");
                }
                append.fullMerge(key, existing, ops, out);
            }
        };
        try (RocksDB db = open(dir, flaky)) {
            db.put(bytes("k"), bytes("a"));
            db.merge(bytes("k"), bytes("b"));
            fail.set(true);
            long failures = Upcalls.failureCount();
            try {
                db.flush(true); // the flush merges the put and the operand on a background thread
            } catch (RocksDBException e) {
                // an engine may fail the flush (then the database refuses writes until reopened)
            }
            assertTrue(Upcalls.failureCount() > failures, "the operator ran and threw");
            assertThrows(RocksDBException.class, () -> db.get(bytes("k")), "reads fail as long as the operator does");
        }
        try (RocksDB db = open(dir, append)) {
            assertEquals("a,b", string(db.get(bytes("k"))), "nothing lost");
            db.compactRange();
            assertEquals("a,b", string(db.get(bytes("k"))));
        }
    }

    @Test
    void setNoResultIsAFailure() {
        MergeOperator lazy = new MergeOperator() {
            @Override
            public String name() {
                return "lazy";
            }

            @Override
            public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands ops, ValueOutput out) {}
        };
        try (RocksDB db = open(dir, lazy)) {
            db.merge(bytes("k"), bytes("v"));
            RocksDBException e = assertThrows(RocksDBException.class, () -> db.get(bytes("k")));
            assertTrue(e.getMessage().contains("set no result"), e.getMessage());
        }
    }

    @Test
    void largeResultsGrowTheBuffer() {
        try (RocksDB db = open(dir, new StringAppendOperator(""))) {
            byte[] big = new byte[100_000];
            Arrays.fill(big, (byte) 'x');
            db.merge(bytes("k"), big);
            db.merge(bytes("k"), big);
            assertEquals(200_000, db.get(bytes("k")).length);
        }
    }

    @Test
    void mergeNeedsAnOperatorAndBatchesAreCheckedPerFamily() {
        try (RocksDB plain = TestSupport.open(dir.resolve("plain"))) {
            assertThrows(IllegalArgumentException.class, () -> plain.merge(bytes("k"), bytes("v")));
            try (WriteBatch b = new WriteBatch().merge(bytes("k"), bytes("v"))) {
                assertThrows(IllegalArgumentException.class, () -> plain.write(WriteOptions.DEFAULT, b));
            }
            assertNull(plain.get(bytes("k")));
        }
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(new UInt64AddOperator());
             Options plainFamily = new Options();
             RocksDB db = RocksDB.open(dir.resolve("families"), o)) {
            ColumnFamilyHandle counters = db.createColumnFamily("counters", o);
            ColumnFamilyHandle other = db.createColumnFamily("other", plainFamily);
            db.merge(counters, bytes("n"), le(2));
            try (WriteBatch b = new WriteBatch()) {
                b.merge(counters, MemorySegment.ofArray(bytes("n")), MemorySegment.ofArray(le(3)));
                b.merge(bytes("d"), le(4));
                db.write(WriteOptions.DEFAULT, b);
            }
            assertArrayEquals(le(5), db.get(counters, bytes("n")));
            assertArrayEquals(le(4), db.get(bytes("d")));
            assertThrows(IllegalArgumentException.class, () -> db.merge(other, bytes("n"), le(1)));
            try (WriteBatch b = new WriteBatch()) {
                b.put(bytes("x"), bytes("y")).merge(other, MemorySegment.ofArray(bytes("n")), MemorySegment.ofArray(le(1)));
                assertThrows(IllegalArgumentException.class, () -> db.write(WriteOptions.DEFAULT, b));
            }
            assertNull(db.get(bytes("x")), "nothing of a refused batch is applied");
        }
    }

    /** Options closed before the database: the operator lives on; after close it is released. */
    @Test
    void theOperatorLivesAsLongAsADatabaseUsesIt() {
        int before = Upcalls.liveCount();
        RocksDB db;
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(new UInt64AddOperator())) {
            db = RocksDB.open(dir, o);
        }
        System.gc();
        try (db) {
            for (int i = 0; i < 100; i++) {
                db.merge(bytes("c"), le(1));
            }
            db.flush(true);
            db.compactRange();
            assertArrayEquals(le(100), db.get(bytes("c")));
        }
        assertEquals(before, Upcalls.liveCount(), "the destructor released the operator");
        try (Options o = new Options()) {
            o.setMergeOperator(new UInt64AddOperator()).setMergeOperator(new StringAppendOperator());
            assertInstanceOf(StringAppendOperator.class, o.mergeOperator());
        }
        assertEquals(before, Upcalls.liveCount(), "replaced and closed options released theirs");
    }

    /** Many threads merging and reading at once: pooled result buffers are never shared. */
    @Test
    void concurrentMergesAndReads() throws Exception {
        try (RocksDB db = open(dir, new UInt64AddOperator())) {
            int threads = 6;
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                ts.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < 2000; i++) {
                        db.merge(bytes("c" + id), le(1));
                        if (i % 10 == 0) {
                            assertEquals(i + 1, le(db.get(bytes("c" + id))));
                        }
                    }
                }));
            }
            for (Thread t : ts) {
                t.join();
            }
            for (int t = 0; t < threads; t++) {
                assertEquals(2000, le(db.get(bytes("c" + t))));
            }
        }
    }

    @Test
    void valueOutputRefusesUseOutsideTheCall() {
        ValueOutput[] kept = new ValueOutput[1];
        MergeOperator op = new MergeOperator() {
            @Override
            public String name() {
                return "k";
            }

            @Override
            public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands ops, ValueOutput out) {
                kept[0] = out;
                assertThrows(IllegalArgumentException.class, () -> out.allocate(-1));
                assertThrows(IndexOutOfBoundsException.class, () -> ops.get(ops.size()));
                out.set(ops.get(0));
            }
        };
        try (RocksDB db = open(dir, op)) {
            db.merge(bytes("k"), bytes("v"));
            assertEquals("v", string(db.get(bytes("k"))));
            assertThrows(IllegalStateException.class, () -> kept[0].allocate(1));
        }
    }
}
