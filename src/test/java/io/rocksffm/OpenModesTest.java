package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Secondary instances and TTL databases ({@link RocksDB#openAsSecondary}, {@link RocksDB#openWithTtl}). */
class OpenModesTest {
    @TempDir
    Path dir;

    private static List<String> keys(RocksDB db, ColumnFamilyHandle family) {
        List<String> out = new ArrayList<>();
        try (RocksIterator it = db.newIterator(family, ReadOptions.DEFAULT)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.add(string(it.keyBytes()));
            }
        }
        return out;
    }

    @Test
    void aSecondaryCatchesUpWithItsPrimarysWrites() {
        Path primaryPath = dir.resolve("primary");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB primary = RocksDB.open(primaryPath, options)) {
            ColumnFamilyHandle cf = primary.createColumnFamily("cf", options);
            primary.put(bytes("before"), bytes("1"));
            primary.put(cf, bytes("c1"), bytes("x"));
            try (RocksDB secondary = RocksDB.openAsSecondary(primaryPath, dir.resolve("secondary"), options,
                    List.of(new ColumnFamilyDescriptor("cf", options)))) {
                assertTrue(secondary.isReadOnly());
                ColumnFamilyHandle scf = secondary.columnFamily("cf");
                assertEquals("1", string(secondary.get(bytes("before"))));
                assertEquals(List.of("c1"), keys(secondary, scf));
                primary.put(bytes("after"), bytes("2")); // in the primary's memtable and WAL only
                primary.delete(bytes("before"));
                primary.put(cf, bytes("c2"), bytes("y"));
                assertNull(secondary.get(bytes("after")), "not seen before catching up");
                secondary.tryCatchUpWithPrimary();
                assertEquals("2", string(secondary.get(bytes("after"))));
                assertNull(secondary.get(bytes("before")));
                assertEquals(List.of("c1", "c2"), keys(secondary, scf));
                // after a flush (the primary's WAL switches to table files) and a compaction
                for (int i = 0; i < 100; i++) {
                    primary.put(bytes("k" + i), bytes("v" + i));
                }
                primary.flush(true);
                primary.compactRange(primary.defaultColumnFamily(), null, null);
                secondary.tryCatchUpWithPrimary();
                for (int i = 0; i < 100; i++) {
                    assertEquals("v" + i, string(secondary.get(bytes("k" + i))));
                }
                assertEquals(keys(primary, primary.defaultColumnFamily()), keys(secondary, secondary.defaultColumnFamily()));
                System.out.println("secondary caught up with " + keys(secondary, secondary.defaultColumnFamily()).size()
                        + " keys of its primary on engine " + RocksDB.engine().version());
            }
        }
    }

    @Test
    void aSecondaryRefusesWrites() {
        Path primaryPath = dir.resolve("primary");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB primary = RocksDB.open(primaryPath, options)) {
            primary.put(bytes("k"), bytes("v"));
            try (RocksDB secondary = RocksDB.openAsSecondary(primaryPath, dir.resolve("secondary"), options);
                 WriteBatch batch = new WriteBatch().put(bytes("b"), bytes("v"))) {
                List<Runnable> writes = List.of(
                        () -> secondary.put(bytes("k"), bytes("w")),
                        () -> secondary.delete(bytes("k")),
                        () -> secondary.deleteRange(bytes("a"), bytes("z")),
                        () -> secondary.write(WriteOptions.DEFAULT, batch),
                        () -> secondary.createColumnFamily("new", options));
                for (Runnable write : writes) {
                    RocksDBException e = assertThrows(RocksDBException.class, write::run);
                    assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code(), e.getMessage());
                }
                RocksDBException flush = assertThrows(RocksDBException.class, () -> secondary.flush(true));
                assertEquals(RocksDBException.Code.NOT_SUPPORTED, flush.code(), flush.getMessage());
                assertEquals("v", string(secondary.get(bytes("k"))));
            }
            assertEquals("v", string(primary.get(bytes("k"))));
            RocksDBException e = assertThrows(RocksDBException.class, primary::tryCatchUpWithPrimary);
            assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code(), e.getMessage());
        }
        try (Options options = new Options()) {
            RocksDBException e = assertThrows(RocksDBException.class,
                    () -> RocksDB.openAsSecondary(dir.resolve("none"), dir.resolve("s2"), options));
            assertNotNull(e.code());
        }
    }

    @Test
    void ttlEntriesExpireAtCompaction() throws InterruptedException {
        Path path = dir.resolve("ttl");
        try (Options options = new Options().setCreateIfMissing(true)) {
            try (RocksDB db = RocksDB.openWithTtl(path, options, 1)) {
                db.put(bytes("old"), bytes("1"));
                db.put(bytes("old2"), bytes("2"));
                assertEquals("1", string(db.get(bytes("old"))), "the value without its timestamp");
                assertEquals(List.of("old", "old2"), keys(db, db.defaultColumnFamily()));
                db.flush(true);
                Thread.sleep(2100);
                db.put(bytes("new"), bytes("3"));
                db.compactRange(db.defaultColumnFamily(), null, null);
                assertNull(db.get(bytes("old")), "expired and compacted away");
                assertNull(db.get(bytes("old2")));
                assertEquals("3", string(db.get(bytes("new"))));
                assertEquals(List.of("new"), keys(db, db.defaultColumnFamily()));
            }
            // TTL 0: kept forever, and opening the same files again with another TTL works
            try (RocksDB db = RocksDB.openWithTtl(path, options, 0)) {
                db.put(bytes("forever"), bytes("4"));
                db.flush(true);
                db.compactRange(db.defaultColumnFamily(), null, null);
                assertEquals("4", string(db.get(bytes("forever"))));
                assertEquals("3", string(db.get(bytes("new"))));
                List<byte[]> values = db.multiGetAsList(db.defaultColumnFamily(), ReadOptions.DEFAULT,
                        List.of(bytes("forever"), bytes("new"), bytes("old")));
                assertEquals("4", string(values.get(0)));
                assertEquals("3", string(values.get(1)));
                assertNull(values.get(2));
                MemorySegment[] out = {MemorySegment.ofArray(new byte[8]), null};
                long[] lengths = new long[2];
                assertEquals(2, db.multiGet(db.defaultColumnFamily(), ReadOptions.DEFAULT,
                        new MemorySegment[] {MemorySegment.ofArray(bytes("forever")),
                                MemorySegment.ofArray(bytes("new"))},
                        out, lengths, new RocksDBException[2], false));
                assertArrayEquals(new long[] {1, 1}, lengths, "lengths without the timestamp");
                assertEquals('4', out[0].get(ValueLayout.JAVA_BYTE, 0));
                assertEquals(0, out[0].get(ValueLayout.JAVA_BYTE, 1), "nothing copied past the value");
            }
            // a plain open sees the timestamp suffix: 4 bytes more
            try (RocksDB db = RocksDB.open(path, options)) {
                assertEquals(5, db.get(bytes("forever")).length);
            }
            assertThrows(IllegalArgumentException.class, () -> RocksDB.openWithTtl(path, options, -1));
        }
    }

    @Test
    void ttlWithColumnFamilies() throws InterruptedException {
        Path path = dir.resolve("ttlcf");
        try (Options options = new Options().setCreateIfMissing(true)) {
            try (RocksDB db = RocksDB.open(path, options)) {
                db.createColumnFamily("cf", options);
            }
            List<ColumnFamilyDescriptor> families = List.of(new ColumnFamilyDescriptor("cf", options));
            try (RocksDB db = RocksDB.openWithTtl(path, options, families, 1)) {
                ColumnFamilyHandle cf = db.columnFamily("cf");
                db.put(cf, bytes("a"), bytes("1"));
                assertEquals("1", string(db.get(cf, bytes("a"))));
                Thread.sleep(2100);
                db.compactRange(cf, null, null);
                assertNull(db.get(cf, bytes("a")));
            }
        }
    }
}
