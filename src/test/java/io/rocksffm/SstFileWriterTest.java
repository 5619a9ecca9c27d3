package io.rocksffm;

import static io.rocksffm.Scans.*;
import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.io.IOException;

/** SstFileWriter, and ingestion of its files (DatabaseAdmin.ingestExternalFile, IngestExternalFileOptions). */
class SstFileWriterTest {
    @TempDir
    Path dir;

    /** Writes {@code entries} (sorted) into a new table file; native segments for half of them. */
    private static Path write(Path file, SortedMap<String, String> entries) {
        try (Options o = new Options(); SstFileWriter w = SstFileWriter.open(o, file); Arena arena = Arena.ofConfined()) {
            int i = 0;
            for (Map.Entry<String, String> e : entries.entrySet()) {
                if (i++ % 2 == 0) {
                    w.put(latin1(e.getKey()), latin1(e.getValue()));
                } else {
                    w.put(arena.allocateFrom(ValueLayout.JAVA_BYTE, latin1(e.getKey())),
                            arena.allocateFrom(ValueLayout.JAVA_BYTE, latin1(e.getValue())));
                }
            }
            long size = w.finish();
            assertEquals(Files.size(file), size);
            assertEquals(size, w.fileSize());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return file;
    }

    @Test
    void writtenFilesIngestIntoAFamilyAndReadBackExactly() {
        Random random = new Random(2016);
        SortedMap<String, String> a = randomEntries(random, 3000);
        SortedMap<String, String> b = randomEntries(random, 1000);
        SortedMap<String, String> existing = randomEntries(random, 500);
        Path fa = write(dir.resolve("a.sst"), a);
        Path fb = write(dir.resolve("b.sst"), b);
        SortedMap<String, String> model = new TreeMap<>(existing);
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("db"), o);
             IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            ColumnFamilyHandle cf = db.createColumnFamily("bulk", o);
            putAll(db, cf, existing); // in the memtable: overlapping keys are flushed first, the files win
            try (Snapshot before = db.getSnapshot(); ReadOptions at = new ReadOptions().setSnapshot(before)) {
                db.ingestExternalFile(cf, List.of(fa), ingest);
                model.putAll(a);
                String someKey = a.firstKey();
                assertEquals(existing.containsKey(someKey) ? existing.get(someKey) : null,
                        db.get(cf, at, latin1(someKey)) == null ? null : latin1(db.get(cf, at, latin1(someKey))),
                        "snapshot consistency: a snapshot taken before does not see the ingested file");
            }
            db.ingestExternalFile(cf, List.of(fb), ingest.setMoveFiles(true));
            model.putAll(b);
            assertFalse(Files.exists(fb), "moved, not copied");
            assertTrue(Files.exists(fa), "copied");
            assertEquals(model, scan(db, cf));
            for (String k : List.of(a.firstKey(), a.lastKey(), b.firstKey(), b.lastKey())) {
                assertEquals(model.get(k), latin1(db.get(cf, latin1(k))));
            }
            assertEquals(Map.of(), scan(db, db.defaultColumnFamily()), "the other family is untouched");
            // the default family through the default-family form
            db.ingestExternalFile(List.of(fa), new IngestExternalFileOptions());
            assertEquals(a, scan(db, db.defaultColumnFamily()));
        }
    }

    @Test
    void deletionsAndRangeDeletionsInAFileApplyOnIngestion() {
        try (RocksDB db = open(dir.resolve("db")); Options o = new Options();
             IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            for (String k : List.of("a", "b", "c", "d", "e", "f")) {
                db.put(bytes(k), bytes("old"));
            }
            db.flush(true);
            Path file = dir.resolve("d.sst");
            try (SstFileWriter w = SstFileWriter.open(o, file)) {
                w.delete(bytes("a")).put(bytes("b"), bytes("new")).deleteRange(bytes("d"), bytes("f"));
                w.finish();
            }
            db.ingestExternalFile(List.of(file), ingest);
            assertEquals(new TreeMap<>(Map.of("b", "new", "c", "old", "f", "old")), scan(db, db.defaultColumnFamily()));
        }
    }

    @Test
    void unsortedKeysAndEmptyFilesAreRefused() {
        try (Options o = new Options(); SstFileWriter w = SstFileWriter.open(o, dir.resolve("x.sst"))) {
            RocksDBException empty = assertThrows(RocksDBException.class, w::finish);
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, empty.code());
        }
        try (Options o = new Options(); SstFileWriter w = SstFileWriter.open(o, dir.resolve("y.sst"))) {
            w.put(bytes("b"), bytes("1"));
            RocksDBException before = assertThrows(RocksDBException.class, () -> w.put(bytes("a"), bytes("2")));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, before.code());
            assertTrue(before.getMessage().contains("ascending"), before.getMessage());
            assertThrows(RocksDBException.class, () -> w.put(bytes("b"), bytes("again")), "equal keys");
            assertThrows(IllegalArgumentException.class, () -> w.deleteRange(bytes("z"), bytes("a")));
            w.put(bytes("c"), bytes("3")); // the writer goes on
            assertTrue(w.finish() > 0);
            assertThrows(RocksDBException.class, () -> w.put(bytes("d"), bytes("4")), "after finish");
        }
        try (Options o = new Options()) {
            RocksDBException noDir = assertThrows(RocksDBException.class,
                    () -> SstFileWriter.open(o, dir.resolve("missing").resolve("f.sst")));
            assertEquals(RocksDBException.Code.IO_ERROR, noDir.code());
        }
    }

    @Test
    void ingestionRefusesMissingFilesAndOverlapsBehind() {
        SortedMap<String, String> one = new TreeMap<>(Map.of("a", "1", "m", "1"));
        SortedMap<String, String> two = new TreeMap<>(Map.of("c", "2", "z", "2"));
        Path f1 = write(dir.resolve("1.sst"), one);
        Path f2 = write(dir.resolve("2.sst"), two);
        try (Options o = new Options().setCreateIfMissing(true).setAllowIngestBehind(true);
             RocksDB db = RocksDB.open(dir.resolve("db"), o);
             IngestExternalFileOptions behind = new IngestExternalFileOptions().setIngestBehind(true)) {
            assertTrue(o.allowIngestBehind());
            RocksDBException missing = assertThrows(RocksDBException.class,
                    () -> db.ingestExternalFile(List.of(dir.resolve("none.sst")), behind));
            assertNotNull(missing.code());
            RocksDBException overlap = assertThrows(RocksDBException.class, () -> db.ingestExternalFile(List.of(f1, f2), behind));
            assertNotNull(overlap.code(), overlap.getMessage());
            System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": ingest of a missing file: "
                    + missing.getMessage() + "; overlapping files behind: " + overlap.getMessage());
            assertThrows(IllegalArgumentException.class, () -> db.ingestExternalFile(List.of(), behind));
            // behind: existing data wins over the ingested file
            db.put(bytes("a"), bytes("newer"));
            db.flush(true);
            db.ingestExternalFile(List.of(f1), behind);
            assertEquals("newer", string(db.get(bytes("a"))));
            assertEquals("1", string(db.get(bytes("m"))));
        }
        try (RocksDB db = open(dir.resolve("plain")); IngestExternalFileOptions behind = new IngestExternalFileOptions()
                .setIngestBehind(true)) {
            RocksDBException notAllowed = assertThrows(RocksDBException.class, () -> db.ingestExternalFile(List.of(f2), behind));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, notAllowed.code(), notAllowed.getMessage());
        }
    }

    @Test
    void optionsOfTheEngineOnly() {
        try (IngestExternalFileOptions o = new IngestExternalFileOptions()) {
            o.setAllowBlockingFlush(true).setAllowGlobalSeqNo(true).setSnapshotConsistency(true).setMoveFiles(false);
            if (RocksDB.engine().hasFunction("rocksdb_ingestexternalfileoptions_set_fail_if_not_bottommost_level")) {
                o.setFailIfNotBottommostLevel(true);
            } else {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> o.setFailIfNotBottommostLevel(true));
                assertTrue(e.getMessage().contains("rocksdb_ingestexternalfileoptions_set_fail_if_not_bottommost_level"));
                System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": " + e.getMessage());
            }
        }
    }
}
