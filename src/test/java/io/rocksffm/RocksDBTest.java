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
            n = db.get(ro, arena.allocateFrom("heap-key", java.nio.charset.StandardCharsets.UTF_8).asSlice(0, 8),
                    MemorySegment.ofArray(heapOut));
            assertEquals(10, n);
            assertEquals("heap-value", new String(heapOut, 0, 10, java.nio.charset.StandardCharsets.UTF_8));
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
            RocksDBException e = assertThrows(RocksDBException.class, () -> db.deleteRange(bytes("z"), bytes("a")));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
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
    void nullArgumentsNameTheParameter() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions(); WriteOptions wo = new WriteOptions()) {
            MemorySegment k = MemorySegment.ofArray(bytes("k"));
            assertNpe("key", () -> db.put(null, bytes("v")));
            assertNpe("value", () -> db.put(bytes("k"), null));
            assertNpe("options", () -> db.put(null, k, k));
            assertNpe("key", () -> db.get((byte[]) null));
            assertNpe("value", () -> db.get(ro, k, null));
            assertNpe("options", () -> db.get(null, k, k));
            assertNpe("key", () -> db.delete((byte[]) null));
            assertNpe("begin", () -> db.deleteRange(null, bytes("z")));
            assertNpe("end", () -> db.deleteRange(wo, k, null));
            assertNpe("key", () -> db.getPinned(ro, null));
            assertNpe("path", () -> RocksDB.open(null, new Options()));
            assertNpe("options", () -> RocksDB.open(dir, null));
        }
    }

    private static void assertNpe(String name, org.junit.jupiter.api.function.Executable call) {
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
}
