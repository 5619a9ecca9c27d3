package io.rocksffm;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.TestSupport.string;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.BatchFormat;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.OptionsFileText;

import java.lang.foreign.Arena;
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
                assertEquals(0, tdb.fullHistoryTsLow(f).length, "never set: empty");
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
            ro.setTimestamp(ts(5));
            if (Capabilities.compareVersions(version == null ? "0" : version, "8.0") < 0) { // 7.8.3: at once
                RocksDBException e = assertThrows(RocksDBException.class, () -> tdb.get(f, ro, bytes("a")));
                assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            } else { // later engines check the low the family's state recorded when it last changed (a flush,
                // a compaction): until then a read below the new low is refused or still reads what was there
                for (String k : KEYS) {
                    Map.Entry<Long, String> e = modelAsOf(k, 5);
                    try {
                        TimestampedDB.Versioned got = tdb.get(f, ro, bytes(k));
                        assertEquals(e == null ? null : e.getValue(), got == null ? null : string(got.value()),
                                k + " as of 5");
                    } catch (RocksDBException refused) {
                        assertEquals(RocksDBException.Code.INVALID_ARGUMENT, refused.code(), refused.getMessage());
                    }
                }
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
            ro.setTimestamp(ts(5)); // after a compaction every engine refuses reads below the low
            for (Executable read : List.<Executable>of(() -> tdb.get(f, ro, bytes("a")),
                    () -> tdb.multiGet(ro, List.of(f), List.of(bytes("a"))), () -> db.get(f, ro, bytes("a")))) {
                RocksDBException e = assertThrows(RocksDBException.class, read);
                assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            }
            try (RocksIterator it = db.newIterator(f, ro)) {
                it.seekToFirst();
                RocksDBException e = assertThrows(RocksDBException.class, it::isValid);
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
            // refused by rocksffm before RocksDB is called, naming the family and the size it has
            List<Executable> refused = List.of(
                    () -> tdb.put(f, bytes("k"), new byte[4], bytes("v")), // wrong timestamp size
                    () -> tdb.delete(f, bytes("k"), new byte[9]),
                    () -> tdb.singleDelete(f, bytes("k"), new byte[0]),
                    () -> tdb.put(p, bytes("k"), Timestamps.u64(1), bytes("v")), // a family without timestamps
                    () -> tdb.put(f, new byte[0], Timestamps.u64(1), bytes("v")), // an empty key
                    () -> db.put(bytes("k"), bytes("v")), // a timestamp-less write of a timestamped family
                    () -> db.delete(bytes("k")),
                    () -> tdb.get(f, ro, bytes("k")), // TimestampedDB's read without a read timestamp
                    () -> tdb.get(p, ro.setTimestamp(ts(1)), bytes("k")), // a read timestamp on a family without
                    () -> tdb.get(f, ro.setTimestamp(MemorySegment.ofArray(new byte[3])), bytes("k")),
                    () -> tdb.multiGet(ro.setTimestamp(ts(1)), List.of(f, p), List.of(bytes("k"), bytes("k"))),
                    () -> tdb.increaseFullHistoryTsLow(f, new byte[4]),
                    () -> tdb.increaseFullHistoryTsLow(p, Timestamps.u64(1)),
                    () -> tdb.fullHistoryTsLow(p),
                    () -> db.newIterator(f, ro.setTimestamp(ts(1)).setIterStartTimestamp(MemorySegment.ofArray(new byte[3]))),
                    () -> tdb.get(f, ro.setTimestamp(ts(1)), MemorySegment.ofArray(bytes("k")),
                            MemorySegment.ofArray(new byte[4]), MemorySegment.ofArray(new byte[4]))); // timestamp out
            for (Executable call : refused) {
                ro.setTimestamp(null).setIterStartTimestamp(null);
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
                assertTrue(e.getMessage().contains("column family '"), e.getMessage());
            }
            // the database's own reads are refused by RocksDB
            for (Executable call : List.<Executable>of(() -> db.get(bytes("k")), // a read without a timestamp
                    () -> db.get(p, ro.setTimestamp(ts(1)), bytes("k")), // a read timestamp on a family without
                    () -> db.get(f, ro.setTimestamp(MemorySegment.ofArray(new byte[4])), bytes("k")))) {
                RocksDBException e = assertThrows(RocksDBException.class, call);
                assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
                ro.setTimestamp(null);
            }
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(bytes("k"), bytes("v"));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> db.write(WriteOptions.DEFAULT, batch));
                assertTrue(e.getMessage().contains("'default'") && e.getMessage().contains("8-byte"), e.getMessage());
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

    /**
     * Every way to write a key without a timestamp into a timestamped family is refused with
     * {@link IllegalArgumentException} naming the family and its timestamp size, before RocksDB sees
     * it; nothing reaches the family but the timestamped writes.
     */
    @Test
    void everyWriteSurfaceRefusesATimestampedFamily() {
        MemorySegment k = MemorySegment.ofArray(bytes("abc"));
        MemorySegment v = MemorySegment.ofArray(bytes("v"));
        try (Options tsOptions = new Options().setCreateIfMissing(true).setComparator(TimestampedComparator.bytewiseU64());
             Options withMerge = new Options().setCreateIfMissing(true).setComparator(TimestampedComparator.bytewiseU64())
                     .setMergeOperator(new StringAppendOperator(","));
             RocksDB db = RocksDB.open(dir.resolve("ts-default"), withMerge);
             RocksDB mixed = TestSupport.open(dir.resolve("mixed"));
             WriteOptions wo = new WriteOptions(); ReadOptions latest = new ReadOptions()) {
            ColumnFamilyHandle f = db.defaultColumnFamily();
            ColumnFamilyHandle versions = mixed.createColumnFamily("versions", tsOptions);
            TimestampedDB.of(db).put(f, bytes("abc"), Timestamps.u64(1), bytes("kept"));
            List<Executable> writes = new ArrayList<>(List.of(
                    () -> db.put(f, wo, k, v), () -> db.merge(f, wo, k, v), () -> db.delete(f, wo, k),
                    () -> db.singleDelete(f, wo, k), () -> db.deleteRange(f, wo, k, MemorySegment.ofArray(bytes("abd"))),
                    () -> db.put(bytes("abc"), bytes("v")),
                    () -> mixed.put(versions, wo, k, v),
                    () -> { // an indexed batch without a family handle: the crash case
                        try (WriteBatchWithIndex batch = new WriteBatchWithIndex()) {
                            db.write(wo, batch.put(bytes("abc"), bytes("v")));
                        }
                    },
                    () -> { // the default family's handle of a database without timestamps, written to one with
                        try (WriteBatchWithIndex batch = new WriteBatchWithIndex()) {
                            db.write(wo, batch.delete(mixed.defaultColumnFamily(), k));
                        }
                    },
                    () -> {
                        try (WriteBatchWithIndex batch = new WriteBatchWithIndex()) {
                            batch.put(versions, k, v);
                        }
                    },
                    () -> {
                        try (WriteBatch batch = new WriteBatch()) {
                            db.write(wo, batch.merge(k, v));
                        }
                    },
                    () -> {
                        try (SstFileWriter w = SstFileWriter.open(tsOptions, dir.resolve("t.sst"))) {
                            w.put(k, v);
                        }
                    },
                    () -> {
                        try (SstFileWriter w = SstFileWriter.open(tsOptions, dir.resolve("t.sst"))) {
                            w.deleteRange(k, MemorySegment.ofArray(bytes("abd")));
                        }
                    }));
            for (Executable write : writes) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, write);
                assertTrue(e.getMessage().contains("8-byte user-defined timestamps"), e.getMessage());
            }
            try (WriteBatchWithIndex batch = new WriteBatchWithIndex()) { // the same batch is written where it fits
                mixed.write(wo, batch.put(bytes("abc"), bytes("plain")));
                assertEquals("plain", string(mixed.get(bytes("abc"))));
            }
            latest.setTimestamp(ts(-1));
            try (RocksIterator it = db.newIterator(f, latest)) {
                List<String> seen = new ArrayList<>();
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    seen.add(string(it.keyBytes()) + "@" + Timestamps.u64(it.timestamp()) + "=" + string(it.valueBytes()));
                }
                it.status();
                assertEquals(List.of("abc@1=kept"), seen, "nothing refused reached the family");
            }
            db.flush(true);
        }
        try (Options plain = new Options().setCreateIfMissing(true);
             Options tsOptions = new Options().setComparator(TimestampedComparator.bytewiseU64());
             TransactionDBOptions txo = new TransactionDBOptions();
             TransactionDB tdb = TransactionDB.open(dir.resolve("tx"), plain, txo);
             OptimisticTransactionDB odb = OptimisticTransactionDB.open(dir.resolve("otx"), plain);
             WriteOptions wo = new WriteOptions(); ReadOptions ro = new ReadOptions().setTimestamp(ts(5))) {
            ColumnFamilyHandle t = tdb.createColumnFamily("versions", tsOptions);
            ColumnFamilyHandle o = odb.createColumnFamily("versions", tsOptions);
            MemorySegment end = MemorySegment.ofArray(bytes("abd"));
            try (Transaction tx = tdb.beginTransaction(wo); Transaction otx = odb.beginTransaction(wo)) {
                for (Executable write : List.<Executable>of(() -> tdb.put(t, wo, k, v), () -> tdb.delete(t, wo, k),
                        () -> tdb.singleDelete(t, wo, k), () -> tdb.deleteRange(t, wo, k, end),
                        () -> tx.put(t, k, v), () -> tx.delete(t, k), () -> tx.getForUpdate(t, ro, bytes("abc")),
                        () -> odb.put(o, wo, k, v), () -> otx.put(o, k, v), () -> otx.delete(o, k),
                        () -> otx.getForUpdate(o, ro, bytes("abc")))) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, write);
                    assertTrue(e.getMessage().contains("'versions'"), e.getMessage());
                }
                assertNull(tx.get(t, ro, bytes("abc")), "reads with a timestamp work");
                tx.put(bytes("plain"), bytes("v"));
                tx.commit();
                otx.commit();
            }
            assertEquals("v", string(tdb.get(bytes("plain"))));
        }
    }

    /** The segment form of get: the value (cut to the segment, full length returned) and its timestamp. */
    @Test
    void segmentGetReadsValueAndTimestamp() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions(); Arena arena = Arena.ofConfined()) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            tdb.put(f, bytes("k"), Timestamps.u64(3), bytes("value"));
            tdb.delete(f, bytes("k"), Timestamps.u64(6));
            MemorySegment key = MemorySegment.ofArray(bytes("k"));
            MemorySegment value = arena.allocate(16);
            MemorySegment version = arena.allocate(Timestamps.U64_SIZE);
            ro.setTimestamp(ts(4));
            assertEquals(5, tdb.get(f, ro, key, value, version));
            assertEquals("value", string(value.asSlice(0, 5).toArray(ValueLayout.JAVA_BYTE)));
            assertEquals(3, Timestamps.u64(version));
            byte[] small = new byte[2];
            assertEquals(5, tdb.get(f, ro, key, MemorySegment.ofArray(small), version), "the full length");
            assertEquals("va", string(small));
            ro.setTimestamp(ts(7));
            assertEquals(-1, tdb.get(f, ro, key, value, version), "deleted as of 7");
            ro.setTimestamp(ts(2));
            assertEquals(-1, tdb.get(f, ro, key, value, version), "no version yet");
            assertThrows(IllegalArgumentException.class, () -> tdb.get(f, ro, key, value.asReadOnly(), version));
        }
    }

    /**
     * An iterator over an indexed batch gives timestamps from RocksDB 8.11 (7.8.3 has none there and
     * asserts: refused); ingestion into a timestamped family is refused before 10.0 (7.8.3 reads
     * a file's keys unchecked), and later engines refuse a file without timestamps themselves.
     */
    @Test
    void iteratorsOverBatchesAreGatedOnOldEngines() throws Exception {
        String version = RocksDB.engine().version();
        try (Options plain = new Options(); RocksDB db = open(dir); ReadOptions ro = new ReadOptions().setTimestamp(ts(9));
             WriteBatchWithIndex batch = new WriteBatchWithIndex()) {
            ColumnFamilyHandle f = db.defaultColumnFamily();
            TimestampedDB.of(db).put(f, bytes("k"), Timestamps.u64(3), bytes("v"));
            try (RocksIterator it = batch.newIteratorWithBase(db, f, ro)) {
                it.seekToFirst();
                assertTrue(it.isValid());
                assertEquals("k", string(it.keyBytes()));
                if (version != null && Capabilities.compareVersions(version, "8.11") >= 0) {
                    assertEquals(3, Timestamps.u64(it.timestamp()));
                } else {
                    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, it::timestamp);
                    assertTrue(e.getMessage().contains("rocksdb_iter_timestamp"), e.getMessage());
                }
            }
            Path file = dir.resolve("plain.sst");
            try (SstFileWriter w = SstFileWriter.open(plain, file)) {
                w.put(bytes("ab"), bytes("short key"));
                w.finish();
            }
            try (IngestExternalFileOptions io = new IngestExternalFileOptions()) {
                if (version != null && Capabilities.compareVersions(version, "10.0") >= 0) {
                    RocksDBException e = assertThrows(RocksDBException.class, () -> db.ingestExternalFile(f, List.of(file), io));
                    assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
                } else {
                    assertThrows(UnsupportedOperationException.class, () -> db.ingestExternalFile(f, List.of(file), io));
                }
            }
            assertEquals("v", string(TimestampedDB.of(db).get(f, ro, bytes("k")).value()));
        }
    }
}
