package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calls rocksdbjni has that came later to rocksffm, each checked against what RocksDB does:
 * destroying and repairing a database, flushing several families and dropping several, the
 * {@code byte[]} and whole-family compactions, the default environment's thread pools, merge
 * records in table files, backup metadata and families with their own time to live.
 */
class RocksdbjniParityTest {
    @TempDir
    Path dir;

    private static byte[] u64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static long activeMemtableEntries(Database db, ColumnFamilyHandle cf) {
        return db.getLongProperty(cf, "rocksdb.num-entries-active-mem-table").orElseThrow();
    }

    @Test
    void destroyDBDeletesTheDatabaseAndRefusesAnOpenOne() throws IOException {
        Path path = dir.resolve("doomed");
        try (Options o = new Options().setCreateIfMissing(true)) {
            try (RocksDB db = RocksDB.open(path, o)) {
                db.put(bytes("k"), bytes("v"));
                assertThrows(IllegalStateException.class, () -> RocksDB.destroyDB(path, o));
                assertArrayEquals(bytes("v"), db.get(bytes("k")));
            }
            RocksDB.destroyDB(path, o);
            try (Stream<Path> left = Files.exists(path) ? Files.list(path) : Stream.empty()) {
                assertEquals(List.of(), left.toList(), "RocksDB deleted every file of the database");
            }
            try (Options plain = new Options()) {
                assertThrows(RocksDBException.class, () -> RocksDB.open(path, plain).close());
            }
            RocksDB.destroyDB(dir.resolve("never-was"), o); // nothing there: not an error
            try (RocksDB db = RocksDB.open(path, o)) {
                assertNull(db.get(bytes("k")), "a new, empty database");
            }
        }
    }

    @Test
    void repairDBRecoversADatabaseWhoseManifestIsGone() throws IOException {
        Path path = dir.resolve("damaged");
        try (Options o = new Options().setCreateIfMissing(true)) {
            try (RocksDB db = RocksDB.open(path, o)) {
                db.put(bytes("flushed"), bytes("1"));
                db.flush(true);
                db.put(bytes("logged"), bytes("2"));
            }
            try (Stream<Path> files = Files.list(path)) {
                for (Path f : files.toList()) {
                    String n = f.getFileName().toString();
                    if (n.startsWith("MANIFEST-") || n.equals("CURRENT")) {
                        Files.delete(f);
                    }
                }
            }
            try (Options plain = new Options()) {
                assertThrows(RocksDBException.class, () -> RocksDB.open(path, plain).close(), "no manifest: no open");
                RocksDB.repairDB(path, plain);
                try (RocksDB db = RocksDB.open(path, plain)) {
                    assertArrayEquals(bytes("1"), db.get(bytes("flushed")));
                    assertArrayEquals(bytes("2"), db.get(bytes("logged")));
                    assertThrows(IllegalStateException.class, () -> RocksDB.repairDB(path, plain));
                }
            }
        }
    }

    @Test
    void flushOfSeveralFamiliesEmptiesTheirMemtables() {
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("flush"), o);
             FlushOptions wait = new FlushOptions().setWait(true)) {
            ColumnFamilyHandle a = db.createColumnFamily("a", o);
            ColumnFamilyHandle b = db.createColumnFamily("b", o);
            ColumnFamilyHandle c = db.createColumnFamily("c", o);
            for (ColumnFamilyHandle cf : List.of(a, b, c)) {
                db.put(cf, bytes("k"), bytes("v"));
            }
            if (!Gated.supported("rocksdb_flush_cfs", () -> db.flush(List.of(a, b), wait))) {
                return;
            }
            db.flush(List.of(a, b), wait);
            assertEquals(0, activeMemtableEntries(db, a));
            assertEquals(0, activeMemtableEntries(db, b));
            assertEquals(1, activeMemtableEntries(db, c), "a family not named is not flushed");
            assertEquals(2, db.liveFiles().size());
            assertThrows(IllegalArgumentException.class, () -> db.flush(List.of(), wait));
            try (RocksDB other = RocksDB.open(dir.resolve("other"), o)) {
                assertThrows(IllegalArgumentException.class, () -> db.flush(List.of(a, other.defaultColumnFamily()), wait));
            }
        }
    }

    @Test
    void dropColumnFamiliesChecksEveryHandleFirst() {
        Path path = dir.resolve("drop");
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, o)) {
            ColumnFamilyHandle a = db.createColumnFamily("a", o);
            ColumnFamilyHandle b = db.createColumnFamily("b", o);
            db.createColumnFamily("kept", o);
            assertThrows(IllegalArgumentException.class, () -> db.dropColumnFamilies(List.of(a, db.defaultColumnFamily())));
            assertThrows(IllegalArgumentException.class, () -> db.dropColumnFamilies(List.of(a, a)));
            assertFalse(a.isClosed(), "nothing dropped before every handle was checked");
            db.dropColumnFamilies(List.of(a, b));
            assertTrue(a.isClosed() && b.isClosed());
        }
        try (Options o = new Options()) {
            assertEquals(List.of("default", "kept"), RocksDB.listColumnFamilies(path, o));
        }
    }

    @Test
    void compactRangeWithArraysAndWholeFamilies() {
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("compact"), o)) {
            ColumnFamilyHandle cf = db.createColumnFamily("cf", o);
            for (int round = 0; round < 3; round++) { // overlapping files: a compaction merges them into one
                for (String k : List.of("a0", "a1", "a2")) {
                    db.put(bytes(k), bytes("v" + round));
                    db.put(cf, bytes(k), bytes("v" + round));
                }
                db.flush(true);
                db.flush(cf, true);
            }
            assertEquals(6, db.liveFiles().size());
            db.compactRange(bytes("a0"), bytes("a2"));
            db.compactRange(cf);
            List<LiveFile> files = db.liveFiles();
            assertEquals(2, files.size(), files.toString());
            assertTrue(files.stream().allMatch(f -> f.level() > 0), "compacted out of level 0: " + files);
            db.compactRange((byte[]) null, null);
            assertArrayEquals(bytes("v2"), db.get(bytes("a1")));
        }
    }

    @Test
    void theDefaultEnvironmentsThreadPoolsCanBeSized() {
        try (Env env = Env.getDefault()) {
            int low = env.backgroundThreads();
            int high = env.highPriorityBackgroundThreads();
            try {
                assertSame(env, env.setBackgroundThreads(low + 2).setHighPriorityBackgroundThreads(high + 1));
                assertEquals(low + 2, env.backgroundThreads());
                assertEquals(high + 1, env.highPriorityBackgroundThreads());
                try (Env again = Env.getDefault()) {
                    assertEquals(low + 2, again.backgroundThreads(), "one default environment");
                }
                assertThrows(IllegalArgumentException.class, () -> env.setBackgroundThreads(-1));
                try (Options o = new Options().setCreateIfMissing(true).setEnv(env);
                     RocksDB db = RocksDB.open(dir.resolve("on-default"), o)) {
                    db.put(bytes("k"), bytes("v"));
                    db.flush(true);
                    assertArrayEquals(bytes("v"), db.get(bytes("k")));
                }
            } finally {
                env.setBackgroundThreads(low).setHighPriorityBackgroundThreads(high);
            }
        }
        Env closed = Env.getDefault();
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.setBackgroundThreads(1));
        try (Env env = Env.getDefault()) {
            assertTrue(env.backgroundThreads() >= 1, "closing a handle leaves the default environment");
        }
    }

    @Test
    void mergeRecordsInATableFileAreMergedAfterIngestion() {
        Path file = dir.resolve("merges.sst");
        try (Options o = new Options().setMergeOperatorName("uint64add"); SstFileWriter w = SstFileWriter.open(o, file)) {
            w.merge(bytes("a"), u64(5)).merge(MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(u64(7)));
            assertThrows(RocksDBException.class, () -> w.merge(bytes("a"), u64(1)), "keys in ascending order");
            w.finish();
        }
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperatorName("uint64add");
             RocksDB db = RocksDB.open(dir.resolve("ingest"), o);
             IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            db.put(bytes("a"), u64(10));
            db.ingestExternalFile(List.of(file), ingest);
            assertArrayEquals(u64(15), db.get(bytes("a")));
            assertArrayEquals(u64(7), db.get(bytes("b")));
            db.compactRange();
            assertArrayEquals(u64(15), db.get(bytes("a")));
        }
    }

    @Test
    void backupsCarryTheApplicationsMetadata() {
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("db"), o);
             BackupEngineOptions bo = new BackupEngineOptions(dir.resolve("backups"));
             BackupEngine engine = BackupEngine.open(bo)) {
            db.put(bytes("k"), bytes("v"));
            if (!Gated.supported("rocksdb_create_backup_options_create", () -> new CreateBackupOptions().close())) {
                return;
            }
            try (CreateBackupOptions options = new CreateBackupOptions()) {
                if (!Gated.supported("rocksdb_backup_engine_create_new_backup_with_metadata",
                        () -> engine.createBackupWithMetadata(db, options, "release 1"))) {
                    return;
                }
                int first = engine.createBackupWithMetadata(db, options, "release 1 \u00e9");
                engine.createBackup(db);
                List<BackupInfo> backups = engine.backups();
                assertEquals(first, backups.get(0).id());
                assertEquals("release 1 \u00e9", backups.get(0).appMetadata());
                assertEquals("", backups.get(1).appMetadata());
            }
        }
    }

    @Test
    void aFamilyWithItsOwnTimeToLiveExpires() throws InterruptedException {
        try (Options o = new Options().setCreateIfMissing(true)) {
            try (RocksDB plain = RocksDB.open(dir.resolve("plain"), o)) {
                assertThrows(IllegalStateException.class, () -> plain.createColumnFamilyWithTtl("t", o, 1));
            }
            try (RocksDB db = RocksDB.openWithTtl(dir.resolve("ttl"), o, 0)) {
                assertThrows(IllegalArgumentException.class, () -> db.createColumnFamilyWithTtl("t", o, -1));
                ColumnFamilyHandle shortLived = db.createColumnFamilyWithTtl("short", o, 1);
                ColumnFamilyHandle forever = db.createColumnFamilyWithTtl("forever", o, 0);
                db.put(shortLived, bytes("k"), bytes("v"));
                db.put(forever, bytes("k"), bytes("v"));
                assertArrayEquals(bytes("v"), db.get(shortLived, bytes("k")), "the timestamp suffix is stripped");
                Thread.sleep(2100);
                db.compactRange(shortLived);
                db.compactRange(forever);
                assertNull(db.get(shortLived, bytes("k")), "expired entries are dropped by compaction");
                assertArrayEquals(bytes("v"), db.get(forever, bytes("k")));
            }
        }
    }

    @Test
    void anIndexedBatchRollsBackToItsSavePoint() {
        try (WriteBatchWithIndex batch = new WriteBatchWithIndex(); Options o = new Options()) {
            RocksDBException none = assertThrows(RocksDBException.class, batch::rollbackToSavePoint);
            assertEquals(RocksDBException.Code.NOT_FOUND, none.code(), none.getMessage());
            batch.put(bytes("a"), bytes("1"));
            batch.setSavePoint().put(bytes("b"), bytes("2")).put(bytes("a"), bytes("3"));
            batch.setSavePoint().delete(bytes("a"));
            assertNull(batch.getFromBatch(o, bytes("a")));
            batch.rollbackToSavePoint();
            assertArrayEquals(bytes("3"), batch.getFromBatch(o, bytes("a")), "the inner save point undone");
            batch.rollbackToSavePoint();
            assertArrayEquals(bytes("1"), batch.getFromBatch(o, bytes("a")));
            assertNull(batch.getFromBatch(o, bytes("b")));
            assertEquals(1, batch.count());
            assertThrows(RocksDBException.class, batch::rollbackToSavePoint);
        }
    }

    @Test
    void theCompactionPoolsPrioritiesCanBeLowered() {
        try (Env env = Env.getDefault()) {
            assertSame(env, env.lowerThreadPoolCPUPriority().lowerThreadPoolIOPriority());
            try (Options o = new Options().setCreateIfMissing(true).setEnv(env);
                 RocksDB db = RocksDB.open(dir.resolve("low"), o)) {
                db.put(bytes("k"), bytes("v"));
                db.flush(true);
                db.compactRange();
                assertArrayEquals(bytes("v"), db.get(bytes("k")));
            }
        }
    }

    @Test
    void aWriteBatchRollsBackToItsSavePointsAsRocksDBsDoes() {
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperatorName("stringappend");
             RocksDB db = RocksDB.open(dir.resolve("batch-save-points"), o);
             WriteBatch batch = new WriteBatch(); WriteBatch expected = new WriteBatch();
             WriteOptions wo = new WriteOptions()) {
            ColumnFamilyHandle cf = db.createColumnFamily("cf", o);
            for (Runnable noSavePoint : List.<Runnable>of(batch::rollbackToSavePoint, batch::popSavePoint)) {
                RocksDBException e = assertThrows(RocksDBException.class, noSavePoint::run);
                assertEquals(RocksDBException.Code.NOT_FOUND, e.code());
            }
            batch.put(bytes("a"), bytes("1"));
            expected.put(bytes("a"), bytes("1"));
            batch.setSavePoint().put(cf, bytes("b"), bytes("2")).merge(cf, bytes("m"), bytes("x"));
            batch.setSavePoint().delete(bytes("a"));
            batch.popSavePoint(); // the delete stays, under the outer save point
            assertEquals(4, batch.count());
            batch.rollbackToSavePoint();
            assertEquals(1, batch.count());
            assertThrows(RocksDBException.class, batch::rollbackToSavePoint);
            assertEquals(expected.data().asByteBuffer(), batch.data().asByteBuffer(), "the same bytes as a batch that never had them");
            batch.setSavePoint().put(bytes("c"), bytes("3"));
            batch.clear(); // clears the save points too
            assertThrows(RocksDBException.class, batch::rollbackToSavePoint);
            batch.put(bytes("a"), bytes("1")).setSavePoint().put(bytes("z"), bytes("9")).rollbackToSavePoint();
            db.write(wo, batch);
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertNull(db.get(bytes("z")));
            assertNull(db.get(cf, bytes("b")));
        }
    }

    /** The contents an iterator shows, from the first key on. */
    private static TreeMap<String, String> contents(RocksIterator it) {
        TreeMap<String, String> out = new TreeMap<>();
        for (it.seekToFirst(); it.isValid(); it.next()) {
            out.put(string(it.keyBytes()), string(it.valueBytes()));
        }
        return out;
    }

    /**
     * Iterators made together see one state of every family: a writer updates a counter in three
     * families with each batch while iterators are made over them; every set shows one value in
     * all three. They also show what per-family iterators under a snapshot taken then show, not
     * writes made after.
     */
    @Test
    void iteratorsMadeTogetherSeeOneStateOfEveryFamily() throws InterruptedException {
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("iterators"), o);
             ReadOptions ro = new ReadOptions()) {
            ColumnFamilyHandle a = db.createColumnFamily("a", o);
            ColumnFamilyHandle b = db.createColumnFamily("b", o);
            List<ColumnFamilyHandle> families = List.of(db.defaultColumnFamily(), a, b);
            Random r = new Random(7);
            for (int i = 0; i < 300; i++) {
                ColumnFamilyHandle cf = families.get(r.nextInt(3));
                db.put(cf, bytes("k" + r.nextInt(100)), bytes("v" + i));
            }
            List<TreeMap<String, String>> expected = new ArrayList<>();
            List<RocksIterator> together;
            try (Snapshot snap = db.getSnapshot(); ReadOptions at = new ReadOptions().setSnapshot(snap)) {
                together = db.newIterators(List.of(a, db.defaultColumnFamily(), b, a), ro);
                for (ColumnFamilyHandle cf : List.of(a, db.defaultColumnFamily(), b, a)) {
                    try (RocksIterator it = db.newIterator(cf, at)) {
                        expected.add(contents(it));
                    }
                }
            }
            for (int i = 0; i < 300; i++) { // changes after the iterators were made
                db.put(families.get(r.nextInt(3)), bytes("k" + r.nextInt(200)), bytes("later" + i));
            }
            try {
                assertEquals(4, together.size());
                for (int i = 0; i < 4; i++) {
                    assertEquals(expected.get(i), contents(together.get(i)), "iterator " + i);
                }
                assertEquals(expected.get(0), expected.get(3));
                assertNotEquals(expected.get(0), expected.get(2));
            } finally {
                together.forEach(RocksIterator::close);
            }
            // one batch updates the counter in the three families; every set of iterators sees one value
            for (ColumnFamilyHandle cf : families) {
                db.put(cf, bytes("counter"), bytes("start"));
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger written = new AtomicInteger();
            Thread writer = new Thread(() -> {
                try (WriteOptions wo = new WriteOptions()) {
                    for (int i = 0; !stop.get(); i++) {
                        try (WriteBatch batch = new WriteBatch()) {
                            for (ColumnFamilyHandle cf : families) {
                                batch.put(cf, MemorySegment.ofArray(bytes("counter")), MemorySegment.ofArray(bytes("" + i)));
                            }
                            db.write(wo, batch);
                        }
                        written.incrementAndGet();
                    }
                }
            });
            writer.start();
            Set<String> seen = new HashSet<>();
            try {
                long deadline = System.nanoTime() + 10_000_000_000L;
                // at least 300 rounds, and on until the writer has been seen at work (a quiet machine
                // may run all 300 before the writer thread is first scheduled)
                for (int round = 0; round < 300 || (seen.size() < 2 && System.nanoTime() < deadline); round++) {
                    List<RocksIterator> its = db.newIterators(families, ro);
                    try {
                        List<String> values = new ArrayList<>();
                        for (RocksIterator it : its) {
                            it.seek(bytes("counter"));
                            assertTrue(it.isValid() && string(it.keyBytes()).equals("counter"));
                            values.add(string(it.valueBytes()));
                        }
                        assertEquals(1, new HashSet<>(values).size(), "round " + round + ": " + values);
                        seen.add(values.get(0));
                    } finally {
                        its.forEach(RocksIterator::close);
                    }
                }
            } finally {
                stop.set(true);
                writer.join();
            }
            assertTrue(seen.size() > 1, "the writer ran meanwhile: " + seen.size() + " values seen, " + written.get() + " batches written");
            assertEquals(List.of(), db.newIterators(List.of(), ro));
            assertThrows(NullPointerException.class, () -> db.newIterators(Arrays.asList(a, null), ro));
            try (RocksDB other = RocksDB.open(dir.resolve("other"), o)) {
                assertThrows(IllegalArgumentException.class,
                        () -> db.newIterators(List.of(a, other.defaultColumnFamily()), ro));
            }
        }
    }
}
