package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.rocksffm.internal.capi.RocksDBC;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import org.junit.jupiter.api.function.Executable;

class RocksDBTest {
    @TempDir
    Path dir;

    @Test
    void putGetDeleteWithArrays() {
        try (RocksDB db = open(dir)) {
            assertNull(db.get(bytes("k")));
            db.put(bytes("k"), bytes("v1"));
            assertEquals("v1", string(db.get(bytes("k"))));
            db.put(bytes("k"), bytes("v2"));
            assertEquals("v2", string(db.get(bytes("k"))));
            db.delete(bytes("k"));
            assertNull(db.get(bytes("k")));
            db.delete(bytes("never-there"));
        }
    }

    @Test
    void emptyKeysAndValuesAreData() {
        try (RocksDB db = open(dir)) {
            db.put(new byte[0], new byte[0]);
            assertArrayEquals(new byte[0], db.get(new byte[0]));
            db.put(bytes("e"), new byte[0]);
            assertArrayEquals(new byte[0], db.get(bytes("e")));
        }
    }

    @Test
    void segmentsNativeAndHeapAreInterchangeable() {
        try (RocksDB db = open(dir); Arena arena = Arena.ofConfined();
             ReadOptions ro = new ReadOptions(); WriteOptions wo = new WriteOptions()) {
            MemorySegment nk = arena.allocateFrom("native-key");
            MemorySegment nv = arena.allocateFrom("native-value");
            db.put(wo, nk, nv);
            db.put(wo, MemorySegment.ofArray(bytes("heap-key")), MemorySegment.ofArray(bytes("heap-value")));

            // read each through the other kind of key segment
            MemorySegment out = arena.allocate(64);
            long n = db.get(ro, MemorySegment.ofArray(nk.toArray(ValueLayout.JAVA_BYTE)), out);
            assertEquals(nv.byteSize(), n);
            assertEquals(nv.mismatch(out.asSlice(0, n)), -1);
            byte[] heapOut = new byte[64];
            n = db.get(ro, arena.allocateFrom("heap-key", StandardCharsets.UTF_8).asSlice(0, 8),
                    MemorySegment.ofArray(heapOut));
            assertEquals(10, n);
            assertEquals("heap-value", new String(heapOut, 0, 10, StandardCharsets.UTF_8));
            // a slice of a larger segment is exactly its bytes
            assertEquals(-1, db.get(ro, nk.asSlice(0, 3), out));
        }
    }

    @Test
    void getReportsFullLengthWhenTheBufferIsTooSmall() {
        byte[] value = new byte[1000];
        new Random(1).nextBytes(value);
        try (RocksDB db = open(dir); Arena arena = Arena.ofConfined(); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("big"), value);
            MemorySegment small = arena.allocate(10);
            long n = db.get(ro, MemorySegment.ofArray(bytes("big")), small);
            assertEquals(value.length, n);
            assertArrayEquals(Arrays.copyOf(value, 10), small.toArray(ValueLayout.JAVA_BYTE));
            MemorySegment exact = arena.allocate(n);
            assertEquals(n, db.get(ro, MemorySegment.ofArray(bytes("big")), exact));
            assertArrayEquals(value, exact.toArray(ValueLayout.JAVA_BYTE));
            assertEquals(-1, db.get(ro, MemorySegment.ofArray(bytes("absent")), small));
        }
    }

    /**
     * Every read path against the value that was written, around every size boundary of the
     * one-call read (RocksDB 10.x) and its scratch buffer (256 B at first, grown up to 16 KiB, larger
     * values read pinned): byte[] gets, copies into native and heap segments that are larger,
     * exact and smaller than the value, and the pinned view. Sizes in random order, so the scratch
     * buffer is met grown and not.
     */
    @Test
    void everyGetPathReturnsTheValueAtEverySize() {
        List<Integer> sizes = new ArrayList<>(List.of(0, 1, 255, 256, 257, 2048, 4097, 16383, 16384, 16385, 70000));
        Collections.shuffle(sizes, new Random(7));
        Random random = new Random(11);
        try (RocksDB db = open(dir); ReadOptions read = new ReadOptions(); Arena arena = Arena.ofConfined()) {
            for (int round = 0; round < 2; round++) {
                for (int size : sizes) {
                    byte[] key = bytes("key-" + size);
                    byte[] value = new byte[size];
                    random.nextBytes(value);
                    db.put(key, value);
                    assertArrayEquals(value, db.get(key), "byte[] get of " + size);
                    for (int delta : new int[] {16, 0, -1, -size}) {
                        int capacity = Math.max(0, size + delta);
                        MemorySegment k = MemorySegment.ofArray(key);
                        MemorySegment nativeOut = arena.allocate(Math.max(1, capacity)).asSlice(0, capacity);
                        MemorySegment heapOut = MemorySegment.ofArray(new byte[capacity]);
                        for (MemorySegment out : List.of(nativeOut, heapOut)) {
                            out.fill((byte) 0x5A);
                            assertEquals(size, db.get(read, k, out), size + " into " + capacity);
                            int copied = Math.min(size, capacity);
                            assertArrayEquals(Arrays.copyOf(value, copied),
                                    out.asSlice(0, copied).toArray(ValueLayout.JAVA_BYTE), size + " into " + capacity);
                            for (long i = copied; i < capacity; i++) {
                                assertEquals((byte) 0x5A, out.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " untouched");
                            }
                        }
                    }
                    try (PinnedValue pinned = db.getPinned(read, MemorySegment.ofArray(key))) {
                        assertArrayEquals(value, pinned.toByteArray());
                    }
                    byte[] absent = bytes("absent-" + size);
                    assertNull(db.get(absent));
                    assertEquals(-1, db.get(read, MemorySegment.ofArray(absent), arena.allocate(8)));
                    assertEquals(-1, db.get(read, MemorySegment.ofArray(absent), MemorySegment.ofArray(new byte[8])));
                }
                db.flush(true); // the second round reads from table files instead of the memtable
            }
        }
    }

    /** The family, options and array forms rocksdbjni users type most, against the segment core. */
    @Test
    void familyAndOptionsFormsOfArraysAgreeWithTheCore() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir, options);
             ReadOptions read = new ReadOptions()) {
            ColumnFamilyHandle users = db.createColumnFamily("users", options);
            db.put(users, bytes("alice"), bytes("1"));
            db.put(bytes("alice"), bytes("default"));
            assertEquals("1", string(db.get(users, bytes("alice"))));
            assertEquals("default", string(db.get(read, bytes("alice"))));
            MemorySegment out = MemorySegment.ofArray(new byte[8]);
            assertEquals(1, db.get(users, read, MemorySegment.ofArray(bytes("alice")), out));
            assertEquals('1', out.get(ValueLayout.JAVA_BYTE, 0));
            assertEquals(List.of("1", "default"), List.of(string(db.get(users, read, bytes("alice"))),
                    string(db.get(db.defaultColumnFamily(), read, bytes("alice")))));
            assertEquals(Arrays.asList("1", null), db.multiGetAsList(users, read, List.of(bytes("alice"), bytes("bob")))
                    .stream().map(TestSupport::string).toList());
            try (Snapshot snapshot = db.getSnapshot()) {
                db.put(users, bytes("alice"), bytes("2"));
                read.setSnapshot(snapshot);
                assertEquals("1", string(db.get(users, read, bytes("alice"))), "the snapshot's value");
                read.setSnapshot(null);
            }
            assertEquals("2", string(db.get(users, bytes("alice"))));
            db.delete(users, bytes("alice"));
            assertNull(db.get(users, bytes("alice")));
            assertEquals("default", string(db.get(bytes("alice"))), "the other family is untouched");
        }
    }

    @Test
    void deleteRangeRemovesHalfOpenInterval() {
        try (RocksDB db = open(dir)) {
            for (char c = 'a'; c <= 'f'; c++) {
                db.put(bytes(String.valueOf(c)), bytes("v" + c));
            }
            db.deleteRange(bytes("b"), bytes("e"));
            assertNotNull(db.get(bytes("a")));
            assertNull(db.get(bytes("b")));
            assertNull(db.get(bytes("d")));
            assertNotNull(db.get(bytes("e")));
            assertNotNull(db.get(bytes("f")));
            // RocksDB would log it, fail it, and then refuse every write: refused before it gets there
            assertThrows(IllegalArgumentException.class, () -> db.deleteRange(bytes("z"), bytes("a")));
            db.put(bytes("still"), bytes("writable"));
        }
    }

    @Test
    void dataSurvivesReopenAndReadOnlyOpenSeesIt() {
        try (RocksDB db = open(dir)) {
            db.put(bytes("persist"), bytes("yes"));
        }
        try (Options o = new Options(); RocksDB ro = RocksDB.openReadOnly(dir, o)) {
            assertTrue(ro.isReadOnly());
            assertEquals(dir, ro.path());
            assertEquals("yes", string(ro.get(bytes("persist"))));
            assertThrows(RocksDBException.class, () -> ro.delete(bytes("persist")));
        }
        try (RocksDB db = open(dir)) {
            assertFalse(db.isReadOnly());
            assertEquals("yes", string(db.get(bytes("persist"))));
        }
    }

    @Test
    void largeValuesRoundTrip() {
        byte[] big = new byte[8 << 20];
        new Random(7).nextBytes(big);
        try (RocksDB db = open(dir)) {
            db.put(bytes("big"), big);
            assertArrayEquals(big, db.get(bytes("big")));
        }
    }

    @Test
    void byteArrayGetsOfLargeValuesReadTheEngineOnceEach() {
        // a one-call read into a buffer too small for the value is a wasted read; the scratch
        // remembers, so the next gets of large values read pinned at once
        Map<String, byte[]> model = new HashMap<>();
        Random random = new Random(11);
        try (Options o = new Options().setCreateIfMissing(true)) {
            Statistics stats = o.enableStatistics();
            try (RocksDB db = RocksDB.open(dir, o)) {
                for (int size : new int[] {0, 1, 255, 256, 257, 2048, 16383, 16384, 16385, 100 << 10}) {
                    byte[] value = new byte[size];
                    random.nextBytes(value);
                    model.put("v" + size, value);
                    db.put(bytes("v" + size), value);
                }
                String reads = TickerType.NUMBER_KEYS_READ.engineName();
                long before = stats.tickers().get(reads);
                int gets = 20;
                for (int i = 0; i < gets; i++) {
                    assertArrayEquals(model.get("v102400"), db.get(bytes("v102400")));
                }
                long made = stats.tickers().get(reads) - before;
                // one wasted read per scratch the calls went through (one, on one thread), none after
                assertTrue(made >= gets && made <= gets + 2, "engine reads for " + gets + " gets: " + made);
                // every size, in every order, absent keys between: the hint never changes a result
                List<String> keys = new ArrayList<>(model.keySet());
                keys.add("absent");
                for (int round = 0; round < 200; round++) {
                    String k = keys.get(random.nextInt(keys.size()));
                    assertArrayEquals(model.get(k), db.get(bytes(k)), k);
                }
            }
        }
    }

    @Test
    void nullArgumentsNameTheParameter() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions(); WriteOptions wo = new WriteOptions()) {
            MemorySegment k = MemorySegment.ofArray(bytes("k"));
            assertNpe("key", () -> db.put(null, bytes("v")));
            assertNpe("value", () -> db.put(bytes("k"), null));
            assertNpe("options", () -> db.put((WriteOptions) null, k, k));
            assertNpe("key", () -> db.get((byte[]) null));
            assertNpe("value", () -> db.get(ro, k, null));
            assertNpe("options", () -> db.get(null, k, k));
            assertNpe("key", () -> db.delete((byte[]) null));
            assertNpe("begin", () -> db.deleteRange(null, bytes("z")));
            assertNpe("end", () -> db.deleteRange(wo, k, null));
            assertNpe("key", () -> db.getPinned(ro, null));
            assertNpe("path", () -> RocksDB.open(null, new Options()));
            assertNpe("options", () -> RocksDB.open(dir, null));
            // array elements: named with their index
            MemorySegment[] withNull = {k, null};
            assertNpe("keys[1]", () -> db.multiGet(db.defaultColumnFamily(), ro, withNull, new MemorySegment[2],
                    new long[2], new RocksDBException[2], false));
            assertNpe("keys[0]", () -> db.multiGetAsList(Arrays.asList((byte[]) null)));
            assertNpe("limits[1]", () -> db.approximateSizes(db.defaultColumnFamily(), new MemorySegment[] {k, k}, withNull));
        }
    }

    private static void assertNpe(String name, Executable call) {
        NullPointerException e = assertThrows(NullPointerException.class, call);
        assertEquals(name, e.getMessage());
    }

    @Test
    void readOnlyOutputSegmentIsRejected() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("k"), bytes("v"));
            MemorySegment readOnly = MemorySegment.ofArray(new byte[8]).asReadOnly();
            assertThrows(IllegalArgumentException.class, () -> db.get(ro, MemorySegment.ofArray(bytes("k")), readOnly));
        }
    }

    @Test
    void closedDatabaseAndOptionsThrowIllegalState() {
        RocksDB db = open(dir);
        ReadOptions ro = new ReadOptions();
        WriteOptions wo = new WriteOptions();
        MemorySegment k = MemorySegment.ofArray(bytes("k"));
        db.put(wo, k, k);
        ro.close();
        wo.close();
        assertThrows(IllegalStateException.class, () -> db.get(ro, k, MemorySegment.ofArray(new byte[4])));
        assertThrows(IllegalStateException.class, () -> db.put(wo, k, k));
        assertThrows(IllegalStateException.class, () -> db.getPinned(ro, k));
        db.close();
        db.close();
        assertTrue(db.isClosed());
        assertThrows(IllegalStateException.class, () -> db.get(bytes("k")));
        assertThrows(IllegalStateException.class, () -> db.put(bytes("k"), bytes("v")));
        assertThrows(IllegalStateException.class, () -> db.delete(bytes("k")));
        assertThrows(IllegalStateException.class, () -> db.deleteRange(bytes("a"), bytes("b")));
        try (ReadOptions live = new ReadOptions()) {
            assertThrows(IllegalStateException.class, () -> db.getPinned(live, k));
        }
        try (Options closed = new Options()) {
            closed.close();
            assertThrows(IllegalStateException.class, () -> RocksDB.open(dir, closed));
        }
    }

    @Test
    void pathWithNulIsRejected() {
        try (Options o = new Options().setCreateIfMissing(true)) {
            assertThrows(IllegalArgumentException.class, () -> RocksDB.open(Path.of("bad\0name"), o));
        }
    }

    @Test
    void sharedAcrossThreadsMatchesAModel() throws Exception {
        int threads = 4;
        int perThread = 2000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (RocksDB db = open(dir)) {
            List<Future<Map<String, String>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                results.add(pool.submit(() -> {
                    Map<String, String> mine = new HashMap<>();
                    Random r = new Random(id);
                    for (int i = 0; i < perThread; i++) {
                        String key = "t" + id + "-" + r.nextInt(500);
                        if (r.nextInt(4) == 0) {
                            db.delete(bytes(key));
                            mine.remove(key);
                        } else {
                            String v = "v" + i;
                            db.put(bytes(key), bytes(v));
                            mine.put(key, v);
                        }
                        assertEquals(mine.get(key), string(db.get(bytes(key))));
                    }
                    return mine;
                }));
            }
            Map<String, String> model = new HashMap<>();
            for (Future<Map<String, String>> f : results) {
                model.putAll(f.get());
            }
            for (int t = 0; t < threads; t++) {
                for (int k = 0; k < 500; k++) {
                    String key = "t" + t + "-" + k;
                    assertEquals(model.get(key), string(db.get(bytes(key))), key);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void multiGetEqualsSingleGets() {
        Random r = new Random(3);
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions(); Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < 500; i += 2) {
                byte[] v = new byte[i % 50 == 0 ? 100_000 : r.nextInt(100)];
                r.nextBytes(v);
                db.put(bytes("key" + i), v);
            }
            db.flush(true);
            db.put(bytes("key1"), bytes("in-memtable"));
            int n = 200;
            List<byte[]> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add(bytes("key" + r.nextInt(520)));
            }
            List<byte[]> values = db.multiGetAsList(keys);
            MemorySegment[] keySegs = new MemorySegment[n];
            MemorySegment[] out = new MemorySegment[n];
            long[] lengths = new long[n];
            RocksDBException[] errors = new RocksDBException[n];
            for (int i = 0; i < n; i++) {
                keySegs[i] = i % 2 == 0 ? MemorySegment.ofArray(keys.get(i)) : arena.allocateFrom(ValueLayout.JAVA_BYTE, keys.get(i));
                out[i] = i % 3 == 0 ? null : arena.allocate(64);
            }
            int found = db.multiGet(db.defaultColumnFamily(), ro, keySegs, out, lengths, errors, false);
            int expectedFound = 0;
            for (int i = 0; i < n; i++) {
                byte[] single = db.get(keys.get(i));
                assertArrayEquals(single, values.get(i), "list form, key " + i);
                assertNull(errors[i]);
                assertEquals(single == null ? -1 : single.length, lengths[i], "lengths, key " + i);
                if (single != null) {
                    expectedFound++;
                    if (out[i] != null) {
                        int c = Math.min(single.length, 64);
                        assertArrayEquals(Arrays.copyOf(single, c), out[i].asSlice(0, c).toArray(ValueLayout.JAVA_BYTE));
                    }
                }
            }
            assertEquals(expectedFound, found);
            // sorted input is checked, then used
            MemorySegment[] sorted = {MemorySegment.ofArray(bytes("key0")), MemorySegment.ofArray(bytes("key2"))};
            assertEquals(2, db.multiGet(db.defaultColumnFamily(), ro, sorted, new MemorySegment[2], new long[2], new RocksDBException[2], true));
            MemorySegment[] unsorted = {sorted[1], sorted[0]};
            assertThrows(IllegalArgumentException.class,
                    () -> db.multiGet(db.defaultColumnFamily(), ro, unsorted, new MemorySegment[2], new long[2], new RocksDBException[2], true));
            assertThrows(IllegalArgumentException.class,
                    () -> db.multiGet(db.defaultColumnFamily(), ro, sorted, new MemorySegment[1], new long[2], new RocksDBException[2], false));
            assertThrows(IllegalArgumentException.class, () -> db.multiGet(db.defaultColumnFamily(), ro, sorted,
                    new MemorySegment[] {null, arena.allocate(4).asReadOnly()}, new long[2], new RocksDBException[2], false));
            assertEquals(List.of(), db.multiGetAsList(List.of()));
        }
    }

    @Test
    void multiGetReportsErrorsPerKey() {
        try (RocksDB db = open(dir)) {
            // a table file larger than the tail RocksDB prefetches when it opens one
            for (int i = 0; i < 20_000; i++) {
                db.put(bytes(String.format("k%05d", i)), new byte[200]);
            }
            db.flush(true);
        }
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("mem"), bytes("memtable"));
            // a deadline long past: every key's read times out, each reported on its own; the call returns
            RocksDBC.rocksdb_readoptions_set_deadline(ro.ptr, 1);
            MemorySegment[] keys = {MemorySegment.ofArray(bytes("mem")), MemorySegment.ofArray(bytes("k00005")),
                    MemorySegment.ofArray(bytes("k00006"))};
            long[] lengths = new long[3];
            RocksDBException[] errors = new RocksDBException[3];
            int found = db.multiGet(db.defaultColumnFamily(), ro, keys, new MemorySegment[3], lengths, errors, false);
            for (int i = 0; i < 3; i++) {
                assertEquals(-1, lengths[i]);
                assertNotNull(errors[i], "key " + i + " failed on its own");
                assertEquals(RocksDBException.Code.TIMED_OUT, errors[i].code(), errors[i].getMessage());
            }
            assertEquals(0, found);
            assertNotSame(errors[1], errors[2]);
            // the same keys with live options: found, and the error slots are cleared
            try (ReadOptions live = new ReadOptions()) {
                assertEquals(3, db.multiGet(db.defaultColumnFamily(), live, keys, new MemorySegment[3], lengths, errors, false));
                assertArrayEquals(new RocksDBException[3], errors);
                assertArrayEquals(new long[] {8, 200, 200}, lengths);
            }
        }
    }

    @Test
    void adminOperations() {
        try (RocksDB db = open(dir)) {
            // incompressible values: the engine's default compression differs between versions
            Random random = new Random(42);
            for (int i = 0; i < 20_000; i++) {
                byte[] value = new byte[100];
                random.nextBytes(value);
                db.put(bytes(String.format("key%06d", i)), value);
            }
            db.flushWal(true);
            db.flush(true);
            long estimate = db.getLongProperty("rocksdb.estimate-num-keys").orElseThrow();
            assertTrue(estimate > 10_000 && estimate < 40_000, "estimate " + estimate);
            assertTrue(db.getProperty("rocksdb.stats").contains("Compaction"), "stats text");
            assertNull(db.getProperty("rocksdb.no-such-property"));
            assertTrue(db.getLongProperty("rocksdb.no-such-property").isEmpty());
            long[] sizes = db.approximateSizes(db.defaultColumnFamily(),
                    new MemorySegment[] {MemorySegment.ofArray(bytes("key000000")), MemorySegment.ofArray(bytes("zzz"))},
                    new MemorySegment[] {MemorySegment.ofArray(bytes("key010000")), MemorySegment.ofArray(bytes("zzzz"))});
            assertTrue(sizes[0] > 500_000, "half the keys (1 MB of values) take room: " + sizes[0]);
            assertEquals(0, sizes[1], "an empty range takes none");
            db.compactRange();
            db.compactRange(db.defaultColumnFamily(), MemorySegment.ofArray(bytes("key0")), null);
            long files = 0;
            for (int level = 0; level < 7; level++) {
                // a text property: RocksDB has no integer form of it
                files += Long.parseLong(db.getProperty("rocksdb.num-files-at-level" + level).strip());
            }
            assertEquals(1, files, "compacted into one file");
            assertEquals(100, db.get(bytes("key019999")).length);
        }
    }

    @Test
    void checkpointIsAConsistentCopy() {
        try (RocksDB db = open(dir.resolve("db"))) {
            db.put(bytes("before"), bytes("1"));
            db.createCheckpoint(dir.resolve("cp"));
            db.put(bytes("after"), bytes("2"));
            RocksDBException e = assertThrows(RocksDBException.class, () -> db.createCheckpoint(dir.resolve("cp")));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        }
        try (Options o = new Options(); RocksDB cp = RocksDB.openReadOnly(dir.resolve("cp"), o)) {
            assertEquals("1", string(cp.get(bytes("before"))));
            assertNull(cp.get(bytes("after")));
        }
    }

    /**
     * A read-only open of the default family alone is RocksDB's own {@code OpenForReadOnly}: on an
     * engine with {@code rocksdb_get_default_column_family_handle}, a fully compacted database is
     * then served by the engine's compacted-DB read path (its refusals say so), and every read
     * works through it as through the ordinary read-only database.
     */
    @Test
    void aFullyCompactedDatabaseOpensReadOnlyThroughRocksDBsOwnPath() {
        Path path = dir.resolve("compacted");
        try (RocksDB db = open(path)) {
            for (int i = 0; i < 1000; i++) {
                db.put(bytes(String.format("k%04d", i)), bytes("v" + i));
            }
            db.flush(true);
            db.compactRange();
        }
        try (Options o = new Options(); RocksDB db = RocksDB.openReadOnly(path, o)) {
            assertEquals("v7", string(db.get(bytes("k0007"))));
            assertNull(db.get(bytes("nope")));
            try (Arena arena = Arena.ofConfined(); ReadOptions ro = new ReadOptions()) {
                MemorySegment value = arena.allocate(16);
                assertEquals(-1, db.get(ro, MemorySegment.ofArray(bytes("nope")), value));
                assertEquals(4, db.get(ro, MemorySegment.ofArray(bytes("k0999")), value));
                try (PinnedValue v = db.getPinned(ro, MemorySegment.ofArray(bytes("k0500")))) {
                    assertEquals("v500", string(v.toByteArray()));
                }
            }
            List<byte[]> many = db.multiGetAsList(List.of(bytes("k0001"), bytes("x"), bytes("k0002")));
            assertEquals("v1", string(many.get(0)));
            assertNull(many.get(1));
            assertEquals("v2", string(many.get(2)));
            int n = 0;
            try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    assertEquals(String.format("k%04d", n), string(it.keyBytes()));
                    n++;
                }
                it.status();
            }
            assertEquals(1000, n);
            try (Snapshot snapshot = db.getSnapshot()) {
                assertNotNull(snapshot);
            }
            RocksDBException put = assertThrows(RocksDBException.class, () -> db.put(bytes("k"), bytes("v")));
            assertEquals(RocksDBException.Code.NOT_SUPPORTED, put.code(), put.getMessage());
            RocksDBException flush = assertThrows(RocksDBException.class, () -> db.flush(true));
            assertEquals(RocksDBException.Code.NOT_SUPPORTED, flush.code(), flush.getMessage());
            assertEquals(Opening.SINGLE_READ_ONLY, flush.getMessage().contains("compacted db mode"), flush.getMessage());
        }
    }
}
