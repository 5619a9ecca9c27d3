package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.PrefetchPolicy;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import io.rocksffm.internal.capi.RocksDBC;

class RocksIteratorTest {
    @TempDir
    Path dir;

    /** Unsigned bytewise order, as RocksDB's default comparator. */
    private static NavigableMap<byte[], byte[]> model() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    private static byte[] randomKey(Random r) {
        byte[] k = new byte[1 + r.nextInt(3)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (r.nextInt(6) * 50); // few distinct bytes: collisions, prefixes, high bytes
        }
        return k;
    }

    private static byte[] randomValue(Random r) {
        byte[] v = new byte[r.nextInt(10) == 0 ? 2000 + r.nextInt(3000) : r.nextInt(60)];
        r.nextBytes(v);
        return v;
    }

    private static void assertAt(RocksIterator it, Map.Entry<byte[], byte[]> expected, String where) {
        if (expected == null) {
            assertFalse(it.isValid(), where + ": expected the end");
            return;
        }
        assertTrue(it.isValid(), where + ": expected an entry");
        assertArrayEquals(expected.getKey(), it.key().toArray(ValueLayout.JAVA_BYTE), where);
        assertArrayEquals(expected.getValue(), it.value().toArray(ValueLayout.JAVA_BYTE), where);
    }

    /**
     * Random writes, then random seeks and next/prev walks with and without bounds and prefetch
     * (including buffers smaller than one entry), compared with a TreeMap.
     */
    @ParameterizedTest
    @CsvSource({"1,0", "2,0", "3,64", "4,100", "5,4096", "6,16384", "7,1", "8,300"})
    void matchesATreeMap(long seed, long prefetch) {
        Random r = new Random(seed);
        NavigableMap<byte[], byte[]> model = model();
        try (RocksDB db = open(dir); WriteBatch batch = new WriteBatch(); WriteOptions wo = new WriteOptions()) {
            for (int i = 0; i < 400; i++) {
                byte[] k = randomKey(r);
                switch (r.nextInt(8)) {
                    case 0 -> {
                        db.delete(k);
                        model.remove(k);
                    }
                    case 1 -> {
                        byte[] end = randomKey(r);
                        if (Arrays.compareUnsigned(k, end) <= 0) {
                            batch.deleteRange(k, end);
                            db.write(wo, batch.clear().deleteRange(k, end));
                            model.subMap(k, true, end, false).clear();
                        }
                    }
                    default -> {
                        byte[] v = randomValue(r);
                        db.put(k, v);
                        model.put(k, v);
                    }
                }
                if (i == 200) {
                    db.flush(true); // half the data in a table file, half in the memtable
                }
            }
            for (int round = 0; round < 30; round++) {
                byte[] lower = r.nextInt(3) == 0 ? randomKey(r) : null;
                byte[] upper = r.nextInt(3) == 0 ? randomKey(r) : null;
                NavigableMap<byte[], byte[]> view = model;
                if (lower != null) {
                    view = view.tailMap(lower, true);
                }
                if (upper != null) {
                    if (lower != null && Arrays.compareUnsigned(lower, upper) > 0) {
                        upper = lower;
                    }
                    view = view.headMap(upper, false);
                }
                try (ReadOptions ro = new ReadOptions()
                        .setIterateLowerBound(lower == null ? null : MemorySegment.ofArray(lower))
                        .setIterateUpperBound(upper == null ? null : MemorySegment.ofArray(upper));
                     RocksIterator it = db.newIterator(ro.setPrefetchBytes(prefetch))) {
                    walk(r, it, view, "seed " + seed + " round " + round);
                }
            }
        }
    }

    private static void walk(Random r, RocksIterator it, NavigableMap<byte[], byte[]> view, String where) {
        Map.Entry<byte[], byte[]> expected;
        switch (r.nextInt(4)) {
            case 0 -> {
                it.seekToFirst();
                expected = view.firstEntry();
            }
            case 1 -> {
                it.seekToLast();
                expected = view.lastEntry();
            }
            case 2 -> {
                byte[] target = randomKey(r);
                it.seek(target);
                expected = view.ceilingEntry(target);
            }
            default -> {
                byte[] target = randomKey(r);
                it.seekForPrev(MemorySegment.ofArray(target));
                expected = view.floorEntry(target);
            }
        }
        assertAt(it, expected, where + " after seek");
        int steps = r.nextInt(60);
        for (int s = 0; s < steps && expected != null; s++) {
            if (r.nextInt(4) == 0) {
                it.prev();
                expected = view.lowerEntry(expected.getKey());
            } else {
                it.next();
                expected = view.higherEntry(expected.getKey());
            }
            assertAt(it, expected, where + " step " + s);
        }
    }

    @Test
    void fullScanWithEveryPrefetchSizeSeesEveryEntry() {
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions(); WriteBatch b = new WriteBatch()) {
            for (int i = 0; i < 5000; i++) {
                b.put(bytes(String.format("key%06d", i)), bytes("value" + i));
            }
            db.write(wo, b);
            for (long prefetch : new long[] {0, 1, 20, 4096, 16384, 1 << 20}) {
                try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro.setPrefetchBytes(prefetch))) {
                    int n = 0;
                    int fromRuns = 0;
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        assertEquals(String.format("key%06d", n), string(it.keyBytes()));
                        assertEquals("value" + n, string(it.valueBytes()));
                        // no run within a seek's first entries and a trial's timed direct ones (each
                        // timed interval ends at a move); the trial's runs right after them
                        if (n <= PrefetchPolicy.START_AFTER + PrefetchPolicy.TRIAL) {
                            assertFalse(it.servingFromRun(), "entry " + n + ", prefetch " + prefetch);
                        } else if (n < PrefetchPolicy.START_AFTER + 2 * PrefetchPolicy.TRIAL && prefetch >= 64) {
                            assertTrue(it.servingFromRun(), "entry " + n + ", prefetch " + prefetch);
                        }
                        fromRuns += it.servingFromRun() ? 1 : 0;
                        n++;
                    }
                    assertEquals(5000, n, "prefetch " + prefetch);
                    if (prefetch <= 20) { // smaller than any entry: nothing fits in a run
                        assertEquals(0, fromRuns, "prefetch " + prefetch);
                    }
                }
            }
        }
    }

    /**
     * Long walks, where prefetch runs start (after the first entries from a seek), grow, step aside
     * for stretches of large entries and resume, with a few moves back from inside a run, compared
     * with a TreeMap: small entries, stretches of 1-3 KiB values, and values larger than the buffer.
     */
    @ParameterizedTest
    @CsvSource({"11,64", "12,4096", "13,16384", "14,0"})
    void longWalksThroughPrefetchRunsMatchATreeMap(long seed, long prefetch) {
        Random r = new Random(seed);
        NavigableMap<byte[], byte[]> model = model();
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions(); WriteBatch b = new WriteBatch()) {
            for (int i = 0; i < 3000; i++) {
                int stretch = (i / 200) % 3; // 200 small, 200 large, 200 mixed, ...
                int size = switch (stretch) {
                    case 0 -> r.nextInt(40);
                    case 1 -> 1000 + r.nextInt(2000);
                    default -> r.nextInt(20) == 0 ? 20000 : r.nextInt(100);
                };
                byte[] k = bytes(String.format("k%05d", i));
                byte[] v = new byte[size];
                r.nextBytes(v);
                b.put(k, v);
                model.put(k, v);
            }
            db.write(wo, b);
            db.flush(true);
            try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro.setPrefetchBytes(prefetch))) {
                for (int round = 0; round < 12; round++) {
                    byte[] target = bytes(String.format("k%05d", r.nextInt(3000)));
                    it.seek(target);
                    Map.Entry<byte[], byte[]> expected = model.ceilingEntry(target);
                    String where = "seed " + seed + " round " + round;
                    assertAt(it, expected, where + " after seek");
                    int steps = 130 + r.nextInt(1500);
                    for (int s = 0; s < steps && expected != null; s++) {
                        if (s > 300 && r.nextInt(100) == 0) {
                            it.prev();
                            expected = model.lowerEntry(expected.getKey());
                        } else {
                            it.next();
                            expected = model.higherEntry(expected.getKey());
                        }
                        assertAt(it, expected, where + " step " + s);
                    }
                }
            }
        }
    }

    @Test
    void copyingAccessorsReturnFullLength() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions(); Arena arena = Arena.ofConfined()) {
            db.put(bytes("key"), bytes("a longer value"));
            try (RocksIterator it = db.newIterator(ro)) {
                it.seekToFirst();
                MemorySegment small = arena.allocate(4);
                assertEquals(3, it.key(small));
                assertEquals(14, it.value(small));
                assertEquals("a lo", string(small.toArray(ValueLayout.JAVA_BYTE)));
                assertThrows(IllegalArgumentException.class, () -> it.value(small.asReadOnly()));
                assertTrue(it.key().isReadOnly());
            }
        }
    }

    @Test
    void errorStatusIsRaisedNotSilentlyInvalid() {
        try (RocksDB db = open(dir)) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes("k" + i), bytes("v" + i));
            }
            db.flush(true);
        }
        // A block-cache-only read tier cannot read table files: RocksDB stops with "Incomplete".
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            RocksDBC.rocksdb_readoptions_set_read_tier(ro.ptr, 1);
            try (RocksIterator it = db.newIterator(ro)) {
                it.seekToFirst();
                RocksDBException e = assertThrows(RocksDBException.class, it::isValid);
                assertEquals(RocksDBException.Code.INCOMPLETE, e.code(), e.getMessage());
                assertThrows(RocksDBException.class, it::status);
            }
        }
    }

    @Test
    void lifetimeRules() throws Exception {
        RocksDB db = open(dir);
        db.put(bytes("k"), bytes("v"));
        ReadOptions ro = new ReadOptions();
        RocksIterator it = db.newIterator(ro.setPrefetchBytes(128));
        it.seekToFirst();
        MemorySegment view = it.key();
        // other threads may not use or close it
        ExecutionException e = assertThrows(ExecutionException.class, () -> CompletableFuture.runAsync(it::next).get());
        assertInstanceOf(WrongThreadException.class, e.getCause());
        e = assertThrows(ExecutionException.class, () -> CompletableFuture.runAsync(it::close).get());
        assertInstanceOf(WrongThreadException.class, e.getCause());
        // its owners stay open while it is
        assertThrows(IllegalStateException.class, db::close);
        assertThrows(IllegalStateException.class, ro::close);
        assertThrows(IllegalStateException.class, () -> ro.setIterateUpperBound(MemorySegment.ofArray(bytes("z"))));
        it.close();
        it.close();
        assertTrue(it.isClosed());
        assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, it::seekToFirst);
        assertThrows(IllegalStateException.class, it::isValid);
        assertThrows(IllegalStateException.class, it::key);
        assertThrows(IllegalStateException.class, it::next);
        assertThrows(IllegalStateException.class, it::prev);
        assertThrows(IllegalStateException.class, it::status);
        ro.close();
        db.close();
        assertTrue(db.isClosed());
        try (ReadOptions live = new ReadOptions()) {
            assertThrows(IllegalStateException.class, () -> db.newIterator(live));
        }
    }

    @Test
    void movingOffTheEndIsAnIllegalState() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            assertFalse(it.isValid());
            assertThrows(IllegalStateException.class, it::next);
            assertThrows(IllegalStateException.class, it::prev);
            assertThrows(IllegalStateException.class, it::key);
            assertThrows(IllegalStateException.class, it::value);
            assertThrows(IllegalArgumentException.class, () -> db.newIterator(ro.setPrefetchBytes(-1)));
            assertThrows(NullPointerException.class, () -> it.seek((byte[]) null));
        }
    }

    @Test
    void forEachAndStreamWalkARange() {
        try (RocksDB db = open(dir)) {
            for (char c = 'a'; c <= 'j'; c++) {
                db.put(bytes(String.valueOf(c)), bytes("v" + c));
            }
            try (ReadOptions ro = new ReadOptions()
                    .setIterateLowerBound(MemorySegment.ofArray(bytes("c")))
                    .setIterateUpperBound(MemorySegment.ofArray(bytes("f")))) {
                StringBuilder seen = new StringBuilder();
                db.forEach(ro, (k, v) -> seen.append(string(k.toArray(ValueLayout.JAVA_BYTE))));
                assertEquals("cde", seen.toString());
                try (var s = db.stream(ro)) {
                    assertEquals("vc,vd,ve", String.join(",", s.map(e -> string(e.getValue())).toList()));
                }
                // an abandoned stream, closed: its iterator no longer pins the options
                try (var s = db.stream(ro)) {
                    assertEquals("c", string(s.findFirst().orElseThrow().getKey()));
                }
                ro.setIterateUpperBound(null);
                try (var s = db.stream(ro)) {
                    assertEquals(8, s.count());
                }
            }
        }
    }

    @Test
    void refreshShowsWritesMadeAfterCreation() {
        try (RocksDB db = open(dir); ReadOptions latest = new ReadOptions()) {
            db.put(bytes("a"), bytes("1"));
            try (RocksIterator it = db.newIterator(latest)) {
                if (!Gated.supported("rocksdb_iter_refresh", it::refresh)) {
                    return;
                }
                // --- readme:iteratorRefresh begin
                db.put(bytes("b"), bytes("2"));   // after the iterator was created
                it.seekToFirst();
                it.next();
                boolean seenBefore = it.isValid(); // false: the iterator reads its creation's state
                it.refresh();                      // now the latest state; seek again before reading
                it.seek(bytes("b"));
                // --- readme:iteratorRefresh end
                assertFalse(seenBefore);
                assertTrue(it.isValid());
                assertArrayEquals(bytes("2"), it.valueBytes());
                // a refresh leaves the iterator on no entry, and ends the views of the last one
                MemorySegment view = it.key();
                it.refresh();
                assertFalse(it.isValid());
                assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_BYTE, 0));
                db.delete(bytes("a"));
                it.refresh();
                it.seekToFirst();
                assertArrayEquals(bytes("b"), it.keyBytes());
            }
            // over a snapshot too: refresh reads the latest state
            try (Snapshot snapshot = db.getSnapshot();
                 ReadOptions read = new ReadOptions().setSnapshot(snapshot);
                 RocksIterator it = db.newIterator(db.defaultColumnFamily(), read)) {
                db.put(bytes("c"), bytes("3"));
                it.seek(bytes("c"));
                assertFalse(it.isValid());
                it.refresh();
                it.seek(bytes("c"));
                assertTrue(it.isValid());
            }
            // RocksDB's iterator over an indexed batch and the database cannot be refreshed
            try (WriteBatchWithIndex batch = new WriteBatchWithIndex();
                 RocksIterator it = batch.newIteratorWithBase(db, db.defaultColumnFamily(), latest)) {
                RocksDBException e = assertThrows(RocksDBException.class, it::refresh);
                assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code(), e.getMessage());
                it.seekToFirst(); // still usable
                assertTrue(it.isValid());
            }
            RocksIterator closed = db.newIterator(latest);
            closed.close();
            assertThrows(IllegalStateException.class, closed::refresh);
        }
    }
}
