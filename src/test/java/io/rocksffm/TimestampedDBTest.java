package io.rocksffm;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.TestSupport.string;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.BatchFormat;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.OptionsFileText;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** User-defined timestamps: writes and reads as of every time against a model, history, bad inputs, reopen. */
class TimestampedDBTest {
    @TempDir
    Path dir;

    private static final List<String> KEYS = List.of("a", "b", "c", "d");

    /** The model: each key's versions, by timestamp; a null value is a deletion. */
    private final Map<String, TreeMap<Long, String>> model = new TreeMap<>();

    static RocksDB open(Path dir) {
        try (Options o = new Options().setCreateIfMissing(true).setComparator(TimestampedComparator.bytewiseU64())) {
            return RocksDB.open(dir, o);
        }
    }

    static MemorySegment ts(long t) {
        return MemorySegment.ofArray(Timestamps.u64(t));
    }

    /** The model's value of {@code key} as of {@code t}: its newest version at or before, null if none or deleted. */
    private Map.Entry<Long, String> modelAsOf(String key, long t) {
        TreeMap<Long, String> versions = model.get(key);
        return versions == null ? null : versions.floorEntry(t);
    }

    /** Random puts and deletes on a few keys at increasing timestamps. */
    private void writeRandomHistory(TimestampedDB tdb, ColumnFamilyHandle f, int operations) {
        Random rnd = new Random(32);
        for (int t = 1; t <= operations; t++) {
            String k = KEYS.get(rnd.nextInt(KEYS.size()));
            if (rnd.nextInt(4) == 0) {
                tdb.delete(f, bytes(k), Timestamps.u64(t));
                model.computeIfAbsent(k, x -> new TreeMap<>()).put((long) t, null);
            } else {
                tdb.put(f, bytes(k), Timestamps.u64(t), bytes("v" + t));
                model.computeIfAbsent(k, x -> new TreeMap<>()).put((long) t, "v" + t);
            }
            if (t == operations / 2) {
                tdb.database().flush(true); // half the history in a file, half in the memtable
            }
        }
    }

    @Test
    void readsAsOfEveryTimestampMatchTheModel() {
        int n = 60;
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            writeRandomHistory(tdb, f, n);
            for (long t = 0; t <= n + 1; t++) {
                ro.setTimestamp(ts(t));
                List<String> expectedScan = new ArrayList<>();
                for (String k : KEYS) {
                    Map.Entry<Long, String> e = modelAsOf(k, t);
                    TimestampedDB.Versioned got = tdb.get(f, ro, bytes(k));
                    if (e == null || e.getValue() == null) {
                        assertNull(got, k + " as of " + t);
                    } else {
                        assertEquals(e.getValue(), string(got.value()), k + " as of " + t);
                        assertEquals(e.getKey(), Timestamps.u64(got.timestamp()), k + " as of " + t);
                        expectedScan.add(k + "@" + e.getKey() + "=" + e.getValue());
                    }
                }
                List<String> scan = new ArrayList<>();
                try (RocksIterator it = db.newIterator(f, ro)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        scan.add(string(it.keyBytes()) + "@" + Timestamps.u64(it.timestamp()) + "=" + string(it.valueBytes()));
                    }
                }
                assertEquals(expectedScan, scan, "scan as of " + t);
                List<String> backwards = new ArrayList<>();
                try (RocksIterator it = db.newIterator(f, ro)) {
                    for (it.seekToLast(); it.isValid(); it.prev()) {
                        backwards.add(0, string(it.keyBytes()) + "@" + Timestamps.u64(it.timestamp()) + "=" + string(it.valueBytes()));
                    }
                }
                assertEquals(expectedScan, backwards, "reverse scan as of " + t);
                List<TimestampedDB.Versioned> multi = tdb.multiGet(ro, List.of(f, f, f, f),
                        KEYS.stream().map(TestSupport::bytes).toList());
                for (int i = 0; i < KEYS.size(); i++) {
                    Map.Entry<Long, String> e = modelAsOf(KEYS.get(i), t);
                    assertEquals(e == null ? null : e.getValue(), multi.get(i) == null ? null : string(multi.get(i).value()));
                }
            }
        }
    }

    /** History iteration: every version between the start timestamp and the read timestamp, as internal keys. */
    @Test
    void historyIterationReturnsEveryVersionInRange() {
        int n = 40;
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            writeRandomHistory(tdb, f, n);
            long start = 10;
            long end = 30;
            ro.setTimestamp(ts(end)).setIterStartTimestamp(ts(start));
            List<String> expected = new ArrayList<>();
            for (String k : KEYS) {
                model.getOrDefault(k, new TreeMap<>()).subMap(start, true, end, true).descendingMap()
                        .forEach((t, v) -> expected.add(k + "@" + t + "=" + (v == null ? "<deleted>" : v)));
            }
            List<String> got = new ArrayList<>();
            try (RocksIterator it = db.newIterator(f, ro)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    byte[] internal = it.keyBytes(); // key, timestamp, then 8 bytes: sequence << 8 | type (little-endian)
                    int keyLength = internal.length - 8 - Timestamps.U64_SIZE;
                    String key = new String(internal, 0, keyLength, StandardCharsets.UTF_8);
                    byte[] stamp = Arrays.copyOfRange(internal, keyLength, keyLength + Timestamps.U64_SIZE);
                    assertArrayEquals(stamp, it.timestamp());
                    boolean value = internal[internal.length - 8] == 1; // kTypeValue
                    got.add(key + "@" + Timestamps.u64(stamp) + "=" + (value ? string(it.valueBytes()) : "<deleted>"));
                }
            }
            assertEquals(expected, got);
        }
    }

    /** A single deletion hides the one version below it from reads as of its time and later, not earlier. */
    @Test
    void singleDeleteEndsTheVersionAtItsTime() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            tdb.put(f, bytes("k"), Timestamps.u64(1), bytes("v"));
            tdb.singleDelete(f, bytes("k"), Timestamps.u64(2));
            tdb.singleDelete(f, WriteOptions.DEFAULT, MemorySegment.ofArray(bytes("absent")), ts(2));
            for (boolean flushed : new boolean[] {false, true}) {
                assertEquals("v", string(tdb.get(f, ro.setTimestamp(ts(1)), bytes("k")).value()), "flushed " + flushed);
                assertNull(tdb.get(f, ro.setTimestamp(ts(2)), bytes("k")), "flushed " + flushed);
                assertNull(tdb.get(f, ro.setTimestamp(ts(3)), bytes("absent")));
                db.flush(true);
            }
        }
    }

    @Test
    void fullHistoryLowOnlyRises() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            writeRandomHistory(tdb, f, 20);
            String version = RocksDB.engine().version();
            boolean getter = version != null && Capabilities.compareVersions(version, "8.8") >= 0;
            if (getter) {
                assertEquals(0, tdb.fullHistoryTsLow(f).length);
            } else { // the engine asserts a low was set: refused before it is called
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> tdb.fullHistoryTsLow(f));
                assertTrue(e.getMessage().contains("rocksdb_get_full_history_ts_low") && e.getMessage().contains(version),
                        e.getMessage());
            }
            tdb.increaseFullHistoryTsLow(f, Timestamps.u64(10));
            if (getter) {
                assertEquals(10, Timestamps.u64(tdb.fullHistoryTsLow(f)));
            }
            RocksDBException lower = assertThrows(RocksDBException.class, () -> tdb.increaseFullHistoryTsLow(f, Timestamps.u64(5)));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, lower.code(), lower.getMessage());
            if (getter) {
                assertEquals(10, Timestamps.u64(tdb.fullHistoryTsLow(f)));
            }
            db.compactRange();
            // at and after the low, reads see what they saw
            for (long t = 10; t <= 21; t++) {
                ro.setTimestamp(ts(t));
                for (String k : KEYS) {
                    Map.Entry<Long, String> e = modelAsOf(k, t);
                    TimestampedDB.Versioned got = tdb.get(f, ro, bytes(k));
                    assertEquals(e == null ? null : e.getValue(), got == null ? null : string(got.value()), k + " as of " + t);
                }
            }
            if (version != null && Capabilities.compareVersions(version, "11.0") >= 0) { // RocksDB 8.x on refuses collapsed reads
                ro.setTimestamp(ts(5));
                RocksDBException e = assertThrows(RocksDBException.class, () -> tdb.get(f, ro, bytes("a")));
                assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            }
        }
    }

    @Test
    void badInputsAreRefused() {
        try (Options plain = new Options();
             RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            ColumnFamilyHandle p = db.createColumnFamily("plain", plain);
            tdb.put(f, bytes("k"), Timestamps.u64(1), bytes("v"));
            List<Executable> invalid = List.of(
                    () -> tdb.put(f, bytes("k"), new byte[4], bytes("v")), // wrong timestamp size
                    () -> tdb.delete(f, bytes("k"), new byte[9]),
                    () -> tdb.put(p, bytes("k"), Timestamps.u64(1), bytes("v")), // a family without timestamps
                    () -> db.put(bytes("k"), bytes("v")), // a timestamp-less write of a timestamped family
                    () -> db.delete(bytes("k")),
                    () -> db.get(bytes("k")), // a read without a timestamp
                    () -> tdb.get(f, ro, bytes("k")),
                    () -> tdb.get(p, ro.setTimestamp(ts(1)), bytes("k")), // a read timestamp on a family without
                    () -> tdb.get(f, ro.setTimestamp(MemorySegment.ofArray(new byte[3])), bytes("k")));
            for (Executable call : invalid) {
                ro.setTimestamp(null);
                RocksDBException e = assertThrows(RocksDBException.class, call);
                assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            }
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(bytes("k"), bytes("v"));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> db.write(WriteOptions.DEFAULT, batch));
                assertTrue(e.getMessage().contains("user-defined timestamps"), e.getMessage());
            }
            try (WriteBatchWithIndex indexed = new WriteBatchWithIndex()) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> indexed.put(f, bytes("k"), bytes("v")));
                assertTrue(e.getMessage().contains("user-defined timestamps"), e.getMessage());
                assertEquals(0, indexed.count(), "nothing indexed");
            }
            try (WriteBatch batch = new WriteBatch()) { // a batch for the plain family only is still written
                batch.put(p, bytes("k"), bytes("v"));
                db.write(WriteOptions.DEFAULT, batch);
                assertEquals("v", string(db.get(p, bytes("k"))));
            }
            assertThrows(NullPointerException.class, () -> tdb.put(f, bytes("k"), null, bytes("v")));
            assertThrows(IllegalArgumentException.class, () -> tdb.multiGet(ro, List.of(f), List.of()));
            ro.setTimestamp(ts(2));
            assertEquals("v", string(tdb.get(f, ro, bytes("k")).value())); // nothing above changed the database
        }
    }

    @Test
    void reopenNeedsTheTimestampedComparator() {
        try (RocksDB db = open(dir)) {
            TimestampedDB.of(db).put(db.defaultColumnFamily(), bytes("k"), Timestamps.u64(7), bytes("v"));
        }
        try (Options o = new Options()) {
            RocksDBException e = assertThrows(RocksDBException.class, () -> RocksDB.open(dir, o).close());
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            // 7.8.3 names the comparators; 11.8.1 first finds the family's timestamps would be lost
            assertTrue(e.getMessage().contains("u64ts") || e.getMessage().contains("user-defined timestamps"), e.getMessage());
        }
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions().setTimestamp(ts(8))) {
            TimestampedDB.Versioned got = TimestampedDB.of(db).get(db.defaultColumnFamily(), ro, bytes("k"));
            assertEquals("v", string(got.value()));
            assertEquals(7, Timestamps.u64(got.timestamp()));
        }
    }

    /**
     * Reopened from its OPTIONS file, the family runs RocksDB's built-in u64 comparator (the name
     * bytewiseU64 shares): it reads the same, and batches for it are still refused.
     */
    @Test
    void reopenedFromTheOptionsFileWithRocksDBsBuiltInComparator() {
        try (RocksDB db = open(dir)) {
            TimestampedDB.of(db).put(db.defaultColumnFamily(), bytes("k"), Timestamps.u64(7), bytes("v"));
        }
        try (LatestOptions latest = LatestOptions.load(dir);
             RocksDB db = RocksDB.open(dir, latest.dbOptions(), latest.columnFamilies());
             ReadOptions ro = new ReadOptions().setTimestamp(ts(9))) {
            assertNull(latest.dbOptions().comparator(), "no Java comparator: the engine's own");
            TimestampedDB.Versioned got = TimestampedDB.of(db).get(db.defaultColumnFamily(), ro, bytes("k"));
            assertEquals("v", string(got.value()));
            assertEquals(7, Timestamps.u64(got.timestamp()));
            try (WriteBatch batch = new WriteBatch().put(bytes("k"), bytes("v2"))) {
                assertThrows(IllegalArgumentException.class, () -> db.write(WriteOptions.DEFAULT, batch));
            }
        }
    }

    @Test
    void aJavaTimestampedComparatorOrdersLikeRocksDB() {
        TimestampedComparator c = TimestampedComparator.bytewiseU64();
        MemorySegment a1 = MemorySegment.ofArray(concat(bytes("a"), Timestamps.u64(1)));
        MemorySegment a2 = MemorySegment.ofArray(concat(bytes("a"), Timestamps.u64(2)));
        MemorySegment b1 = MemorySegment.ofArray(concat(bytes("b"), Timestamps.u64(1)));
        assertTrue(c.compare(a2, a1) < 0, "newer first");
        assertTrue(c.compare(a1, b1) < 0, "keys first");
        assertTrue(c.compareTimestamp(ts(-1), ts(1)) > 0, "unsigned");
        assertEquals(0, c.compare(a1, a1));
        assertEquals("leveldb.BytewiseComparator.u64ts", c.name());
        assertArrayEquals(new byte[] {1, 2, 0, 0, 0, 0, 0, 0}, Timestamps.u64(0x0201));
        assertThrows(IllegalArgumentException.class, () -> Timestamps.u64(new byte[7]));
    }

    /** A Java comparator of 4-byte big-endian timestamps, in its own family. */
    @Test
    void aCustomTimestampSize() {
        TimestampedComparator be32 = new TimestampedComparator() {
            @Override
            public String name() {
                return "test.be32ts";
            }

            @Override
            public int timestampSize() {
                return 4;
            }

            @Override
            public int compareTimestamp(MemorySegment a, MemorySegment b) {
                ValueLayout.OfInt be = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
                return Integer.compareUnsigned(a.get(be, 0), b.get(be, 0));
            }

            @Override
            public int compareWithoutTimestamp(MemorySegment a, MemorySegment b) {
                return BatchFormat.compareBytewise(a, b);
            }
        };
        try (Options o = new Options().setCreateIfMissing(true); Options withTs = new Options().setComparator(be32);
             RocksDB db = RocksDB.open(dir, o); ReadOptions ro = new ReadOptions()) {
            ColumnFamilyHandle f = db.createColumnFamily("ts", withTs);
            TimestampedDB tdb = TimestampedDB.of(db);
            tdb.put(f, bytes("k"), new byte[] {0, 0, 1, 0}, bytes("old"));
            tdb.put(f, bytes("k"), new byte[] {0, 0, 2, 0}, bytes("new"));
            ro.setTimestamp(MemorySegment.ofArray(new byte[] {0, 0, 1, (byte) 0xFF}));
            assertEquals("old", string(tdb.get(f, ro, bytes("k")).value()));
            ro.setTimestamp(MemorySegment.ofArray(new byte[] {0, 0, 2, 0}));
            assertEquals("new", string(tdb.get(f, ro, bytes("k")).value()));
            db.put(bytes("plain"), bytes("v")); // the default family has no timestamps
            assertEquals("v", string(db.get(bytes("plain"))));
        }
    }

    /** RocksDB 11's switch for keeping timestamps out of files, gated elsewhere; checked in the OPTIONS file. */
    @Test
    void persistUserDefinedTimestampsIsGated() {
        try (Options o = new Options().setCreateIfMissing(true)) {
            if (!Gated.since11("rocksdb_options_set_persist_user_defined_timestamps",
                    () -> o.setPersistUserDefinedTimestamps(false))) {
                return;
            }
            assertTrue(o.persistUserDefinedTimestamps());
            o.setPersistUserDefinedTimestamps(false).setAllowConcurrentMemtableWrite(false)
                    .setComparator(TimestampedComparator.bytewiseU64());
            assertFalse(o.persistUserDefinedTimestamps());
            try (RocksDB db = RocksDB.open(dir, o)) {
                TimestampedDB.of(db).put(db.defaultColumnFamily(), bytes("k"), Timestamps.u64(3), bytes("v"));
                TimestampedDB tdb = TimestampedDB.of(db);
                try (ReadOptions ro = new ReadOptions().setTimestamp(ts(3))) {
                    assertEquals("v", string(tdb.get(db.defaultColumnFamily(), ro, bytes("k")).value()));
                }
                db.flush(true); // the file keeps no timestamps: the family's history low rises past them
                long low = Timestamps.u64(tdb.fullHistoryTsLow(db.defaultColumnFamily()));
                assertTrue(low > 3, "low " + low);
                try (ReadOptions ro = new ReadOptions().setTimestamp(ts(3))) {
                    RocksDBException e = assertThrows(RocksDBException.class, () -> tdb.get(db.defaultColumnFamily(), ro, bytes("k")));
                    assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
                    ro.setTimestamp(ts(low));
                    assertEquals("v", string(tdb.get(db.defaultColumnFamily(), ro, bytes("k")).value()));
                }
            }
            assertEquals("false", OptionsFileText.latest(dir).get("default")
                    .get("persist_user_defined_timestamps"));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * A timestamped family beside a plain default one: a batch naming it is refused (from the
     * families the batch tracked while built), a batch for the default family alone is written.
     */
    @Test
    void aBatchNamingATimestampedFamilyIsRefused() {
        try (RocksDB db = TestSupport.open(dir.resolve("mixed"));
             Options tsOptions = new Options().setComparator(TimestampedComparator.bytewiseU64())) {
            ColumnFamilyHandle versions = db.createColumnFamily("versions", tsOptions);
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(bytes("plain"), bytes("v")).put(versions, bytes("k"), bytes("v"));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> db.write(WriteOptions.DEFAULT, batch));
                assertTrue(e.getMessage().contains("id " + versions.id()), e.getMessage());
                assertNull(db.get(bytes("plain")), "nothing of the refused batch was applied");
            }
            try (WriteBatch batch = new WriteBatch().put(bytes("plain"), bytes("v"))) {
                db.write(WriteOptions.DEFAULT, batch);
                assertEquals("v", string(db.get(bytes("plain"))));
            }
        }
    }
}
