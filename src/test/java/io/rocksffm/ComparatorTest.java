package io.rocksffm;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.TestSupport.string;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Upcalls;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.rocksffm.internal.BatchFormat;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Java comparators: order of reads, iterators and bounds; names; failures; lifetimes. */
class ComparatorTest {
    @TempDir
    Path dir;

    /** Reverse bytewise order. */
    static final class Reverse implements Comparator {
        @Override
        public String name() {
            return "test.Reverse";
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            long i = a.mismatch(b);
            if (i < 0) {
                return 0;
            }
            if (i == a.byteSize() || i == b.byteSize()) {
                return -Long.compare(a.byteSize(), b.byteSize());
            }
            return -Integer.compare(a.get(ValueLayout.JAVA_BYTE, i) & 0xFF, b.get(ValueLayout.JAVA_BYTE, i) & 0xFF);
        }
    }

    /** Orders keys as decimal numbers (so "10" after "9"). */
    static final class Numeric implements Comparator {
        @Override
        public String name() {
            return "test.Numeric";
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            return Long.compare(parse(a), parse(b));
        }

        static long parse(MemorySegment s) {
            long v = 0;
            for (long i = 0; i < s.byteSize(); i++) {
                v = v * 10 + (s.get(ValueLayout.JAVA_BYTE, i) - '0');
            }
            return v;
        }
    }

    static RocksDB open(Path dir, Comparator c) {
        try (Options o = new Options().setCreateIfMissing(true).setComparator(c)) {
            return RocksDB.open(dir, o);
        }
    }

    static List<String> keys(RocksDB db, ReadOptions ro) {
        List<String> out = new ArrayList<>();
        try (RocksIterator it = db.newIterator(ro)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(string(it.keyBytes()));
            }
        }
        return out;
    }

    /** A database ordered by a Java comparator against a TreeMap with the same comparator. */
    @Test
    void aComparatorOrderedDatabaseMatchesATreeMap() {
        Comparator c = new Numeric();
        TreeMap<MemorySegment, String> model = new TreeMap<>(c);
        Random rnd = new Random(3);
        try (RocksDB db = open(dir, c)) {
            for (int i = 0; i < 2000; i++) {
                String k = Integer.toString(rnd.nextInt(500));
                if (rnd.nextInt(5) == 0) {
                    db.delete(bytes(k));
                    model.remove(MemorySegment.ofArray(bytes(k)));
                } else {
                    db.put(bytes(k), bytes("v" + i));
                    model.put(MemorySegment.ofArray(bytes(k)), "v" + i);
                }
                if (i % 700 == 0) {
                    db.flush(true);
                }
            }
            db.compactRange();
            List<String> expected = model.keySet().stream().map(s -> new String(s.toArray(ValueLayout.JAVA_BYTE))).toList();
            assertEquals(expected, keys(db, ReadOptions.DEFAULT));
            for (Map.Entry<MemorySegment, String> e : model.entrySet()) {
                assertEquals(e.getValue(), string(db.get(e.getKey().toArray(ValueLayout.JAVA_BYTE))));
            }
            // seek, seekForPrev and bounds follow the comparator
            try (RocksIterator it = db.newIterator(ReadOptions.DEFAULT)) {
                it.seek(bytes("100"));
                MemorySegment ceiling = model.ceilingKey(MemorySegment.ofArray(bytes("100")));
                assertEquals(new String(ceiling.toArray(ValueLayout.JAVA_BYTE)), string(it.keyBytes()));
                it.seekForPrev(bytes("99"));
                MemorySegment floor = model.floorKey(MemorySegment.ofArray(bytes("99")));
                assertEquals(new String(floor.toArray(ValueLayout.JAVA_BYTE)), string(it.keyBytes()));
            }
            try (ReadOptions ro = new ReadOptions()) {
                ro.setIterateLowerBound(MemorySegment.ofArray(bytes("50")));
                ro.setIterateUpperBound(MemorySegment.ofArray(bytes("150")));
                List<String> sub = model.subMap(MemorySegment.ofArray(bytes("50")), MemorySegment.ofArray(bytes("150")))
                        .keySet().stream().map(s -> new String(s.toArray(ValueLayout.JAVA_BYTE))).toList();
                assertEquals(sub, keys(db, ro));
            }
        }
    }

    @Test
    void reverseOrderAcrossFamilies() {
        try (Options o = new Options().setCreateIfMissing(true).setComparator(new Reverse());
             RocksDB db = RocksDB.open(dir, o)) {
            for (String k : List.of("b", "a", "c", "ab")) {
                db.put(bytes(k), bytes(k));
            }
            assertEquals(List.of("c", "b", "ab", "a"), keys(db, ReadOptions.DEFAULT));
            ColumnFamilyHandle f = db.createColumnFamily("rev", o);
            db.put(f, bytes("x"), bytes("1"));
            db.put(f, bytes("y"), bytes("2"));
            try (RocksIterator it = db.newIterator(f, ReadOptions.DEFAULT)) {
                it.seekToFirst();
                assertEquals("y", string(it.keyBytes()));
            }
        }
    }

    /** deleteRange checks begin <= end in the family's order, not bytewise. */
    @Test
    void deleteRangeFollowsTheComparator() {
        try (RocksDB db = open(dir, new Reverse())) {
            for (String k : List.of("a", "b", "c", "d")) {
                db.put(bytes(k), bytes(k));
            }
            assertThrows(IllegalArgumentException.class, () -> db.deleteRange(bytes("a"), bytes("d")));
            db.deleteRange(bytes("c"), bytes("a")); // [c, a) in reverse order: c and b
            assertEquals(List.of("d", "a"), keys(db, ReadOptions.DEFAULT));
        }
    }

    @Test
    void reopeningWithAnotherComparatorNameIsRefused() {
        try (RocksDB db = open(dir, new Reverse())) {
            db.put(bytes("a"), bytes("1"));
        }
        RocksDBException e = assertThrows(RocksDBException.class, () -> TestSupport.open(dir).close());
        assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code());
        assertTrue(e.getMessage().contains("test.Reverse"), e.getMessage());
        assertThrows(RocksDBException.class, () -> open(dir, new Numeric()).close());
        try (RocksDB db = open(dir, new Reverse())) {
            assertEquals("1", string(db.get(bytes("a"))));
        }
    }

    /** Closing the options first is safe; the comparator is released after the database closes. */
    @Test
    void theComparatorLivesAsLongAsADatabaseUsesIt() {
        int before = Upcalls.liveCount();
        RocksDB db;
        try (Options o = new Options().setCreateIfMissing(true).setComparator(new Reverse())) {
            db = RocksDB.open(dir, o);
            assertInstanceOf(Reverse.class, o.comparator());
        }
        System.gc();
        try (db) {
            for (int i = 0; i < 200; i++) {
                db.put(bytes("k" + i), bytes("v"));
            }
            db.flush(true);
            db.compactRange();
            assertEquals("k99", keys(db, ReadOptions.DEFAULT).get(0));
        }
        assertEquals(before, Upcalls.liveCount());
        try (Options o = new Options()) {
            o.setComparator(new Reverse()).setComparator(new Numeric());
        }
        assertEquals(before, Upcalls.liveCount());
    }

    /**
     * A comparator that throws (here: from some point on, on every call) gets bytewise order for
     * those comparisons: no crash, failures counted, and with a consistent fallback no data lost.
     */
    @Test
    void aThrowingComparatorDoesNotCrash() {
        AtomicBoolean fail = new AtomicBoolean();
        Comparator c = new Comparator() {
            @Override
            public String name() {
                return "test.Flaky";
            }

            @Override
            public int compare(MemorySegment a, MemorySegment b) {
                if (fail.get()) {
                    throw new IllegalStateException("comparator failure");
                }
                return BatchFormat.compareBytewise(a, b);
            }
        };
        long failures = Upcalls.failureCount();
        try (RocksDB db = open(dir, c)) {
            db.put(bytes("a"), bytes("1"));
            fail.set(true);
            for (int i = 0; i < 100; i++) {
                db.put(bytes("k" + i), bytes("v" + i));
            }
            db.flush(true); // background thread
            db.compactRange();
            assertEquals("1", string(db.get(bytes("a"))));
            assertEquals("v42", string(db.get(bytes("k42"))));
            assertEquals(101, keys(db, ReadOptions.DEFAULT).size());
        }
        assertTrue(Upcalls.failureCount() > failures);
    }

    /**
     * The keys a comparator sees are read-only views of exactly the key's bytes: a comparator that
     * writes into one gets an exception, not the engine's memory.
     */
    @Test
    void keysAreReadOnlyViewsOfExactlyTheKey() {
        Set<Long> sizes = ConcurrentHashMap.newKeySet();
        AtomicBoolean writable = new AtomicBoolean();
        AtomicBoolean written = new AtomicBoolean();
        Comparator c = new Comparator() {
            @Override
            public String name() {
                return "test.Inspecting";
            }

            @Override
            public int compare(MemorySegment a, MemorySegment b) {
                sizes.add(a.byteSize());
                sizes.add(b.byteSize());
                writable.compareAndSet(false, !a.isReadOnly() || !b.isReadOnly());
                try {
                    a.set(ValueLayout.JAVA_BYTE, 0, (byte) 'z');
                    written.set(true);
                } catch (RuntimeException expected) {
                    // read-only (the exception's type differs between JDK releases)
                }
                return BatchFormat.compareBytewise(a, b);
            }
        };
        try (RocksDB db = open(dir, c)) {
            for (String k : List.of("a", "bb", "ccc", "dddd")) {
                db.put(bytes(k), bytes("v" + k));
            }
            assertEquals("vccc", string(db.get(bytes("ccc"))));
            assertEquals(List.of("a", "bb", "ccc", "dddd"), keys(db, ReadOptions.DEFAULT));
        }
        assertFalse(writable.get(), "a key view was writable");
        assertFalse(written.get(), "a comparator wrote into a key");
        // memtable comparisons see internal keys (user key + 8 bytes), lookups the user key alone
        assertTrue(sizes.stream().allMatch(n -> n >= 1 && n <= 4 + 8), sizes.toString());
    }

    /**
     * A prefetching iterator moves with critical downcalls only where no move can call Java: never
     * under a Java comparator, merge operator or prefix extractor; and such scans still match a model.
     */
    @Test
    void iteratorsOfFamiliesThatCallJavaNeverMoveCritically() {
        try (Options plain = new Options().setCreateIfMissing(true);
             Options cmp = new Options().setCreateIfMissing(true).setComparator(new Reverse());
             Options merge = new Options().setCreateIfMissing(true).setMergeOperator(new UInt64AddOperator());
             Options prefix = new Options().setCreateIfMissing(true).setPrefixExtractor(PrefixExtractor.capped(2));
             Options fixed = new Options().setCreateIfMissing(true).setPrefixExtractor(PrefixExtractor.fixed(2))) {
            Map<Options, Boolean> expected = new LinkedHashMap<>();
            expected.put(plain, true);
            expected.put(cmp, false);
            expected.put(merge, false);
            expected.put(prefix, false);
            expected.put(fixed, true);
            int n = 0;
            for (Map.Entry<Options, Boolean> e : expected.entrySet()) {
                try (RocksDB db = RocksDB.open(dir.resolve("db" + n++), e.getKey())) {
                    TreeMap<MemorySegment, String> model = new TreeMap<>(
                            e.getKey() == cmp ? new Reverse() : (a, b) -> BatchFormat.compareBytewise(a, b));
                    for (int i = 0; i < 500; i++) {
                        db.put(bytes("k" + i), bytes("v" + i));
                        model.put(MemorySegment.ofArray(bytes("k" + i)), "v" + i);
                    }
                    try (ReadOptions read = new ReadOptions(); RocksIterator it = db.newIterator(read.setPrefetchBytes(8 * 1024))) {
                        assertEquals(e.getValue(), it.criticalMoves, "critical moves for option set " + (n - 1));
                        List<String> seen = new ArrayList<>();
                        for (it.seekToFirst(); it.isValid(); it.next()) {
                            seen.add(string(it.keyBytes()));
                        }
                        List<String> want = new ArrayList<>();
                        model.keySet().forEach(k -> want.add(string(k.toArray(ValueLayout.JAVA_BYTE))));
                        assertEquals(want, seen);
                    }
                }
            }
        }
    }
}
