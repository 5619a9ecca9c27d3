package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RocksDB 11 administration of {@link DatabaseAdmin} (issue 30): database options, checksum
 * verification and pausing background work, checked against what RocksDB writes and reports.
 * compactFiles is in {@link CompactionOptionsTest}, the WAL list in {@link WalFileTest}.
 */
class DatabaseAdminTest {
    @TempDir
    Path dir;

    @Test
    void setDBOptionsChangesTheOptionsFile() throws IOException {
        try (RocksDB db = open(dir)) {
            assertThrows(NullPointerException.class, () -> db.setDBOptions(null));
            assertThrows(IllegalArgumentException.class, () -> db.setDBOptions(Map.of()));
            assertThrows(IllegalArgumentException.class, () -> db.setDBOptions(Map.of("", "1")));
            assertThrows(IllegalArgumentException.class, () -> db.setDBOptions(Map.of("max_background_jobs\0x", "1")));
            assertThrows(IllegalArgumentException.class, () -> db.setDBOptions(Map.of("max_background_jobs", "1\0")));
            Map<String, String> nullValue = new HashMap<>();
            nullValue.put("max_background_jobs", null);
            assertThrows(NullPointerException.class, () -> db.setDBOptions(nullValue));
            if (!Gated.since11("rocksdb_set_db_options", () -> db.setDBOptions(Map.of("max_background_jobs", "5")))) {
                return;
            }
            db.setDBOptions(Map.of("max_background_jobs", "5", "stats_dump_period_sec", "77"));
            String file = latestOptionsFile(dir);
            assertTrue(file.contains("max_background_jobs=5"), file);
            assertTrue(file.contains("stats_dump_period_sec=77"), file);
            // RocksDB's codes: an option SetDBOptions does not know (unknown, immutable, or a
            // column family's) is NotFound, a value that does not parse InvalidArgument
            Map<Map<String, String>, RocksDBException.Code> bad = Map.of(
                    Map.of("no_such_option", "1"), RocksDBException.Code.NOT_FOUND,
                    Map.of("write_buffer_size", "1048576"), RocksDBException.Code.NOT_FOUND,
                    Map.of("create_if_missing", "false"), RocksDBException.Code.NOT_FOUND,
                    Map.of("max_background_jobs", "many"), RocksDBException.Code.INVALID_ARGUMENT);
            bad.forEach((options, code) -> {
                RocksDBException e = assertThrows(RocksDBException.class, () -> db.setDBOptions(options), options.toString());
                assertEquals(code, e.code(), e.getMessage());
            });
            // all or nothing: a bad option leaves the good one unset
            Map<String, String> mixed = new LinkedHashMap<>();
            mixed.put("max_background_jobs", "3");
            mixed.put("no_such_option", "1");
            assertThrows(RocksDBException.class, () -> db.setDBOptions(mixed));
            file = latestOptionsFile(dir);
            assertTrue(file.contains("max_background_jobs=5"), file);
        }
    }

    /** A byte flipped in a table file's data block: verifyChecksum reports the corruption, naming the file. */
    @Test
    void verifyChecksumFindsAFlippedByte() throws IOException {
        try (RocksDB db = open(dir)) {
            CompactionOptionsTest.write(db, 0, 500);
            db.flush(true);
            if (!Gated.since11("rocksdb_verify_checksum", db::verifyChecksum)) {
                try (ReadOptions ro = new ReadOptions()) {
                    Gated.supported("rocksdb_verify_checksum_with_options", () -> db.verifyChecksum(ro));
                }
                return;
            }
            db.verifyChecksum();
            try (ReadOptions ro = new ReadOptions().setFillCache(false)) {
                db.verifyChecksum(ro);
            }
        }
        Path sst = CompactionOptionsTest.tableFiles(dir).get(0);
        try (FileChannel ch = FileChannel.open(sst, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            ch.read(b, 200); // inside the first data block (4 KiB), past the first keys
            b.put(0, (byte) (b.get(0) ^ 0x5a)).rewind();
            ch.write(b, 200);
        }
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions().setFillCache(false)) {
            RocksDBException e = assertThrows(RocksDBException.class, db::verifyChecksum);
            assertEquals(RocksDBException.Code.CORRUPTION, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains(sst.getFileName().toString()), e.getMessage());
            e = assertThrows(RocksDBException.class, () -> db.verifyChecksum(ro));
            assertEquals(RocksDBException.Code.CORRUPTION, e.code(), e.getMessage());
            assertThrows(NullPointerException.class, () -> db.verifyChecksum(null));
            ReadOptions closed = new ReadOptions();
            closed.close();
            assertThrows(IllegalStateException.class, () -> db.verifyChecksum(closed));
        }
    }

    /** While paused a flush does not run (the memtable stays immutable) and the database refuses to close. */
    @Test
    void pausedBackgroundWorkHoldsFlushesUntilContinued() {
        RocksDB db = open(dir);
        try {
            if (!Gated.since11("rocksdb_pause_background_work", db::pauseBackgroundWork)) {
                Gated.supported("rocksdb_continue_background_work", db::continueBackgroundWork);
                return;
            }
            RocksDBException notPaused = assertThrows(RocksDBException.class, db::continueBackgroundWork);
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, notPaused.code(), notPaused.getMessage());
            db.pauseBackgroundWork();
            db.pauseBackgroundWork(); // nested
            db.put(bytes("k"), bytes("v"));
            // a flush, waiting or not, would wait for the paused work (a non-waiting one for a write
            // stall to clear): refused, whatever else it could do
            for (boolean wait : new boolean[] {false, true}) {
                IllegalStateException flush = assertThrows(IllegalStateException.class, () -> db.flush(wait));
                assertTrue(flush.getMessage().contains("paused"), flush.getMessage());
            }
            sleep(300);
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0"));
            IllegalStateException refused = assertThrows(IllegalStateException.class, db::close);
            assertTrue(refused.getMessage().contains("2") && refused.getMessage().contains("pauses of background work"),
                    refused.getMessage());
            assertFalse(db.isClosed());
            db.continueBackgroundWork();
            sleep(200);
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0")); // one pause left
            assertThrows(IllegalStateException.class, () -> db.flush(true), "one pause is still open");
            db.continueBackgroundWork();
            db.flush(true);
            assertEquals(0, db.getLongProperty("rocksdb.num-immutable-mem-table").getAsLong());
            assertEquals("1", db.getProperty("rocksdb.num-files-at-level0"));
            assertEquals("v", string(db.get(bytes("k"))));
        } finally {
            db.close();
        }
        assertThrows(IllegalStateException.class, db::pauseBackgroundWork);
        assertThrows(IllegalStateException.class, db::continueBackgroundWork);
        assertThrows(IllegalStateException.class, db::verifyChecksum);
        assertThrows(IllegalStateException.class, () -> db.setDBOptions(Map.of("max_background_jobs", "2")));
    }

    /** Transaction databases offer the same administration, through their base database. */
    @Test
    void transactionDatabasesOfferItToo() {
        try (Options options = CompactionOptionsTest.noAutoCompactions();
             TransactionDBOptions tdo = new TransactionDBOptions();
             TransactionDB tdb = TransactionDB.open(dir.resolve("pessimistic"), options, tdo);
             OptimisticTransactionDB odb = OptimisticTransactionDB.open(dir.resolve("optimistic"), options)) {
            if (!Gated.since11("rocksdb_verify_checksum", odb::verifyChecksum)) {
                Gated.supported("rocksdb_get_sorted_wal_files", odb::sortedWalFiles);
                return;
            }
            for (Database db : List.<Database>of(tdb, odb)) {
                KeyValueWrites writes = (KeyValueWrites) db;
                writes.put(bytes("a"), bytes("1"));
                db.flush(true);
                writes.put(bytes("b"), bytes("2"));
                db.flush(true);
                db.verifyChecksum();
                db.setDBOptions(Map.of("max_background_jobs", "3"));
                db.pauseBackgroundWork();
                db.continueBackgroundWork();
                writes.put(bytes("c"), bytes("3"));
                assertEquals(WalFile.Type.ALIVE, db.sortedWalFiles().getLast().type());
                try (CompactionOptions co = new CompactionOptions()) {
                    Path path = db == tdb ? dir.resolve("pessimistic") : dir.resolve("optimistic");
                    assertEquals(1, db.compactFiles(co, CompactionOptionsTest.tableFiles(path), 1).size());
                }
                assertEquals("0", db.getProperty("rocksdb.num-files-at-level0"));
                assertEquals("1", db.getProperty("rocksdb.num-files-at-level1"));
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    static String latestOptionsFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            Path latest = files.filter(p -> p.getFileName().toString().startsWith("OPTIONS-"))
                    .max((a, b) -> Long.compare(number(a), number(b))).orElseThrow();
            return Files.readString(latest);
        }
    }

    private static long number(Path optionsFile) {
        return Long.parseLong(optionsFile.getFileName().toString().substring("OPTIONS-".length()));
    }

    /** Issue 32: an integer property summed over the families equals the sum of each family's value. */
    @Test
    void aggregatedIntegerPropertySumsTheFamilies() {
        try (RocksDB db = open(dir.resolve("aggregated")); Options o = new Options()) {
            ColumnFamilyHandle other = db.createColumnFamily("other", o);
            for (int i = 0; i < 10; i++) {
                db.put(bytes("d" + i), bytes("v"));
            }
            for (int i = 0; i < 5; i++) {
                db.put(other, bytes("o" + i), bytes("v"));
            }
            String keys = "rocksdb.estimate-num-keys";
            long each = db.getLongProperty(keys).getAsLong() + db.getLongProperty(other, keys).getAsLong();
            assertEquals(15, each);
            assertEquals(each, db.getAggregatedLongProperty(keys).getAsLong());
            long memtables = db.getLongProperty("rocksdb.cur-size-all-mem-tables").getAsLong()
                    + db.getLongProperty(other, "rocksdb.cur-size-all-mem-tables").getAsLong();
            assertEquals(memtables, db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables").getAsLong());
            assertTrue(db.getAggregatedLongProperty("rocksdb.no-such-property").isEmpty());
            assertThrows(NullPointerException.class, () -> db.getAggregatedLongProperty(null));
        }
    }

    /** Issue 32: keyMayExist never says no for a key that is there, and with a bloom filter says no for most absent ones. */
    @Test
    void keyMayExistHasNoFalseNegatives() {
        try (Options o = new Options().setCreateIfMissing(true).setBloomFilter(10);
             RocksDB db = RocksDB.open(dir.resolve("may-exist"), o);
             ReadOptions ro = new ReadOptions()) {
            for (int i = 0; i < 1000; i += 2) {
                db.put(bytes("key" + i), bytes("v"));
            }
            db.flush(true);
            db.put(bytes("memtable"), bytes("v"));
            int saidNo = 0;
            for (int i = 0; i < 1000; i++) {
                boolean may = db.keyMayExist(db.defaultColumnFamily(), ro, bytes("key" + i));
                if (db.get(bytes("key" + i)) != null) {
                    assertTrue(may, "key" + i + " is there");
                } else if (!may) {
                    saidNo++;
                }
            }
            assertTrue(saidNo > 450, "the filter ruled out " + saidNo + " of 500 absent keys");
            assertTrue(db.keyMayExist(db.defaultColumnFamily(), ro, bytes("memtable")));
            assertThrows(NullPointerException.class, () -> db.keyMayExist(db.defaultColumnFamily(), ro, null));
            assertThrows(NullPointerException.class, () -> db.keyMayExist(db.defaultColumnFamily(), null, bytes("k")));
        }
    }

    /**
     * The include flags, checked against RocksDB's own answers: memtables only sees unflushed
     * writes and no file; files only is the plain call's answer; both is at least either.
     */
    @Test
    void approximateSizesCountWhatTheFlagsSay() {
        try (RocksDB db = open(dir)) {
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            MemorySegment[] starts = {MemorySegment.ofArray(bytes("k"))};
            MemorySegment[] limits = {MemorySegment.ofArray(bytes("l"))};
            assertThrows(IllegalArgumentException.class, () -> db.approximateSizes(cf, starts, limits, false, false));
            assertThrows(IllegalArgumentException.class,
                    () -> db.approximateSizes(cf, starts, new MemorySegment[0], true, true));
            assertThrows(NullPointerException.class, () -> db.approximateSizes(cf, null, limits, true, true));
            if (!Gated.supported("rocksdb_approximate_sizes_cf_with_flags",
                    () -> db.approximateSizes(cf, starts, limits, true, true))) {
                return;
            }
            for (int i = 0; i < 2000; i++) {
                db.put(bytes("k" + i), new byte[100]);
            }
            assertTrue(db.approximateSizes(cf, starts, limits, true, false)[0] > 0, "memtables hold the writes");
            assertEquals(0, db.approximateSizes(cf, starts, limits, false, true)[0], "no table file yet");
            db.flush(true);
            long files = db.approximateSizes(cf, starts, limits, false, true)[0];
            assertTrue(files > 0, "the flushed file");
            assertEquals(db.approximateSizes(cf, starts, limits)[0], files, "files only is the plain call");
            assertEquals(0, db.approximateSizes(cf, starts, limits, true, false)[0], "the memtables are empty");
            assertTrue(db.approximateSizes(cf, starts, limits, true, true)[0] >= files);
        }
    }

    /**
     * While file deletions are disabled, a compaction's input files stay on disk; once every
     * disable is undone (they nest), RocksDB deletes them.
     */
    @Test
    void disabledFileDeletionsKeepObsoleteFilesUntilReEnabled() throws Exception {
        try (RocksDB db = open(dir)) {
            for (int round = 0; round < 3; round++) { // overlapping files: a compaction must merge them
                db.put(bytes("a"), bytes("v" + round));
                db.put(bytes("k2"), bytes("v" + round));
                db.put(bytes("z"), bytes("v" + round));
                db.flush(true);
            }
            List<Path> before = tableFiles(dir);
            assertEquals(3, before.size(), before.toString());
            db.disableFileDeletions();
            db.disableFileDeletions();
            db.compactRange();
            assertTrue(db.liveFiles().stream().noneMatch(f -> before.contains(dir.resolve(f.name().substring(1)))),
                    "the compaction replaced the files");
            assertTrue(tableFiles(dir).containsAll(before), "compacted inputs kept while disabled");
            db.enableFileDeletions();
            db.compactRange();
            assertTrue(tableFiles(dir).containsAll(before), "one enable of two: still disabled");
            db.enableFileDeletions();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (before.stream().anyMatch(Files::exists) && System.nanoTime() < deadline) {
                db.compactRange();
                Thread.sleep(20);
            }
            assertTrue(before.stream().noneMatch(Files::exists), "the obsolete files are deleted once enabled");
            assertArrayEquals(bytes("v2"), db.get(bytes("k2")));
        }
    }

    private static List<Path> tableFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".sst")).sorted().toList();
        }
    }

    /** Key {@code i} of the compaction cross-check: k00..k99, written in four files of 25. */
    private static byte[] key(int i) {
        return bytes(String.format("k%02d", i));
    }

    /**
     * rocksdbjni's {@code compactRange(family, byte[], byte[])} is rocksffm's segment form with the
     * keys wrapped by {@code MemorySegment.ofArray} (a null key staying null), as the mapping says:
     * on the same engine, the same writes compacted over the same range leave the same files on
     * every level, for a bounded range and for ranges open at either end.
     */
    @Test
    void compactRangeOfArrayKeysIsRocksdbjnisCall() throws Exception {
        if (!"rocksdbjni".equals(RocksDB.engine().source())) {
            return; // rocksdbjni's Java API is on the class path only with its engine
        }
        org.rocksdb.RocksDB.loadLibrary(); // fully qualified: rocksdbjni's RocksDB beside ours
        String[][] ranges = {{"k20", "k60"}, {null, "k30"}, {"k70", null}, {"k26", "k27"}};
        for (int r = 0; r < ranges.length; r++) {
            byte[] begin = ranges[r][0] == null ? null : bytes(ranges[r][0]);
            byte[] end = ranges[r][1] == null ? null : bytes(ranges[r][1]);
            List<String> jni = new ArrayList<>();
            try (org.rocksdb.Options o = new org.rocksdb.Options().setCreateIfMissing(true) // fully qualified: as above
                         .setDisableAutoCompactions(true);
                 org.rocksdb.ColumnFamilyOptions cfo = new org.rocksdb.ColumnFamilyOptions() // fully qualified: as above
                         .setDisableAutoCompactions(true);
                 org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(o, dir.resolve("jni-" + r).toString()); // fully qualified: as above
                 org.rocksdb.ColumnFamilyHandle cf = db.createColumnFamily( // fully qualified: as above
                         new org.rocksdb.ColumnFamilyDescriptor(bytes("cf"), cfo)); // fully qualified: as above
                 org.rocksdb.FlushOptions wait = new org.rocksdb.FlushOptions().setWaitForFlush(true)) { // fully qualified: as above
                // no lambdas here: their synthetic methods would name rocksdbjni's types, which the
                // runs without rocksdbjni on the class path could not resolve
                for (int i = 0; i < 100; i++) {
                    db.put(cf, key(i), bytes("v" + i));
                    if (i % 25 == 24) {
                        db.flush(wait, cf);
                    }
                }
                db.compactRange(cf, begin, end);
                for (int level = 0; level < 7; level++) {
                    jni.add(db.getProperty(cf, "rocksdb.num-files-at-level" + level).strip());
                }
            }
            List<String> ffm = new ArrayList<>();
            try (Options o = new Options().setCreateIfMissing(true).setDisableAutoCompactions(true);
                 RocksDB db = RocksDB.open(dir.resolve("ffm-" + r), o)) {
                ColumnFamilyHandle cf = db.createColumnFamily("cf", o);
                for (int i = 0; i < 100; i++) {
                    db.put(cf, key(i), bytes("v" + i));
                    if (i % 25 == 24) {
                        db.flush(cf, true);
                    }
                }
                // the mapping's call for rocksdbjni's db.compactRange(cf, begin, end)
                db.compactRange(cf, begin == null ? null : MemorySegment.ofArray(begin),
                        end == null ? null : MemorySegment.ofArray(end));
                for (int level = 0; level < 7; level++) {
                    ffm.add(db.getProperty(cf, "rocksdb.num-files-at-level" + level).strip());
                }
            }
            assertEquals(jni, ffm, "files per level after compacting [" + ranges[r][0] + ", " + ranges[r][1] + "]");
            assertNotEquals(List.of("4", "0", "0", "0", "0", "0", "0"), ffm, "the compaction moved files");
        }
    }
}
