package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.io.UncheckedIOException;
import java.util.Arrays;

/** CompactionOptions and DatabaseAdmin.compactFiles, checked against RocksDB's per-level file counts. */
class CompactionOptionsTest {
    @TempDir
    Path dir;

    private static boolean supported() {
        return Gated.since11("rocksdb_compaction_options_create", CompactionOptions::new);
    }

    @Test
    void settingsAreWhatWasSet() {
        assumeTrue(supported(), "the engine has no compaction options");
        try (CompactionOptions o = new CompactionOptions()) {
            assertNull(o.compression()); // RocksDB's "the family's compression"
            assertEquals(-1, o.outputFileSizeLimit()); // unsigned maximum: no limit
            assertEquals(0, o.maxSubcompactions());
            assertFalse(o.allowTrivialMove());
            assertSame(o, o.setCompression(Compression.NONE).setOutputFileSizeLimit(1 << 20)
                    .setMaxSubcompactions(2).setAllowTrivialMove(true));
            assertEquals(Compression.NONE, o.compression());
            assertEquals(1 << 20, o.outputFileSizeLimit());
            assertEquals(2, o.maxSubcompactions());
            assertTrue(o.allowTrivialMove());
            assertEquals(Compression.ZSTD, o.setCompression(Compression.ZSTD).compression());
            assertThrows(NullPointerException.class, () -> o.setCompression(null));
            assertThrows(IllegalArgumentException.class, () -> o.setOutputFileSizeLimit(0));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxSubcompactions(-1));
            assertEquals(1 << 20, o.outputFileSizeLimit());
        }
        CompactionOptions closed = new CompactionOptions();
        closed.close();
        closed.close();
        assertThrows(IllegalStateException.class, closed::compression);
        assertThrows(IllegalStateException.class, () -> closed.setAllowTrivialMove(true));
        assertThrows(IllegalStateException.class, () -> closed.setCanceled(true));
        assertThrows(IllegalStateException.class, closed::isCanceled);
    }

    /** Two overlapping level-0 files are compacted into level 1: RocksDB's file counts move, the data stays. */
    @Test
    void compactFilesMovesTheFilesToTheOutputLevel() throws IOException {
        assumeTrue(supported(), "the engine has no compaction options");
        try (Options options = noAutoCompactions();
             RocksDB db = RocksDB.open(dir, options);
             CompactionOptions co = new CompactionOptions()) {
            write(db, 0, 2000);
            db.flush(true);
            write(db, 1000, 3000); // overlaps the first file
            db.flush(true);
            List<Path> inputs = tableFiles(dir);
            assertEquals(2, inputs.size());
            assertEquals(2, level(db, 0));
            assertEquals(0, level(db, 1));

            List<Path> outputs = db.compactFiles(co, inputs, 1);

            assertEquals(1, outputs.size(), outputs.toString()); // no size limit: one file
            assertEquals(0, level(db, 0));
            assertEquals(1, level(db, 1));
            assertTrue(Files.exists(outputs.get(0)), outputs.toString());
            assertEquals(List.of(outputs.get(0).getFileName()), tableFiles(dir).stream().map(Path::getFileName).toList());
            assertEquals("v2999", string(db.get(bytes(key(2999)))));
            assertEquals("v1500", string(db.get(bytes(key(1500)))));
            assertEquals("6000", db.getProperty("rocksdb.estimate-num-keys")); // the overlap counted once

            // level 1 to level 3 in files of at most 16 KiB, by name rather than path
            co.setOutputFileSizeLimit(16 << 10);
            List<Path> split = db.compactFiles(co, List.of(outputs.get(0).getFileName()), 3);
            assertTrue(split.size() > 1, split.toString());
            assertEquals(0, level(db, 1));
            assertEquals(split.size(), level(db, 3));
            assertEquals(split.stream().map(Path::getFileName).sorted().toList(),
                    tableFiles(dir).stream().map(Path::getFileName).sorted().toList());
            assertEquals("v0", string(db.get(bytes(key(0)))));
        }
    }

    /** RocksDB's record of the job: the files, the levels, the records in and out (the overlap counted once), the bytes written. */
    @Test
    void compactFilesWithJobInfoReportsTheJob() throws IOException {
        assumeTrue(supported(), "the engine has no compaction options");
        try (Options options = noAutoCompactions();
             RocksDB db = RocksDB.open(dir, options);
             CompactionOptions co = new CompactionOptions()) {
            write(db, 0, 2000);
            db.flush(true);
            write(db, 1000, 3000);
            db.flush(true);
            List<Path> inputs = tableFiles(dir);
            EventListener.CompactionJobInfo job = db.compactFilesWithJobInfo(db.defaultColumnFamily(), co, inputs, 2);
            assertNull(job.status());
            assertEquals("default", job.columnFamily());
            assertEquals(EventListener.CompactionJobInfo.MANUAL_COMPACTION, job.reason());
            assertEquals(0, job.baseInputLevel());
            assertEquals(2, job.outputLevel());
            assertEquals(inputs.stream().map(Path::getFileName).toList(),
                    job.inputFiles().stream().map(f -> Path.of(f).getFileName()).sorted().toList());
            List<Path> outputs = tableFiles(dir);
            assertEquals(outputs.stream().map(Path::getFileName).toList(),
                    job.outputFiles().stream().map(f -> Path.of(f).getFileName()).sorted().toList());
            assertEquals(8000, job.inputRecords()); // 2 x 2000 keys with their pads
            assertEquals(6000, job.outputRecords()); // 3000 keys with their pads
            long written = 0;
            for (Path p : outputs) {
                written += Files.size(p);
            }
            assertEquals(written, job.totalOutputBytes());
            assertEquals(2, job.numInputFiles());
            assertEquals("1", db.getProperty("rocksdb.num-files-at-level2"));
        }
    }

    @Test
    void compactFilesInAColumnFamily() throws IOException {
        assumeTrue(supported(), "the engine has no compaction options");
        try (Options options = noAutoCompactions();
             RocksDB db = RocksDB.open(dir, options);
             CompactionOptions co = new CompactionOptions()) {
            ColumnFamilyHandle cf = db.createColumnFamily("cf", options);
            for (int round = 0; round < 3; round++) {
                db.put(cf, bytes("k" + round), bytes("v" + round));
                db.flush(cf, true);
            }
            List<Path> files = tableFiles(dir);
            assertEquals(3, files.size());
            assertEquals("3", db.getProperty(cf, "rocksdb.num-files-at-level0"));
            List<Path> out = db.compactFiles(cf, co, files, 2);
            assertEquals(1, out.size());
            assertEquals("0", db.getProperty(cf, "rocksdb.num-files-at-level0"));
            assertEquals("1", db.getProperty(cf, "rocksdb.num-files-at-level2"));
            assertEquals("v1", string(db.get(cf, bytes("k1"))));
            // the default family has none of these files
            RocksDBException e = assertThrows(RocksDBException.class, () -> db.compactFiles(co, out, 1));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
        }
    }

    @Test
    void badInputIsRefused() {
        assumeTrue(supported(), "the engine has no compaction options");
        try (Options options = noAutoCompactions(); // no automatic move of the output to the last level
             RocksDB db = RocksDB.open(dir, options);
             CompactionOptions co = new CompactionOptions()) {
            db.put(bytes("a"), bytes("1"));
            db.flush(true);
            Path sst = tableFiles(dir).get(0);
            assertThrows(IllegalArgumentException.class, () -> db.compactFiles(co, List.of(), 1));
            assertThrows(IllegalArgumentException.class, () -> db.compactFiles(co, List.of(sst), -1));
            assertThrows(IllegalArgumentException.class, () -> db.compactFiles(co, List.of(Path.of("a\0b")), 1));
            assertThrows(NullPointerException.class, () -> db.compactFiles(null, List.of(sst), 1));
            assertThrows(NullPointerException.class, () -> db.compactFiles(co, null, 1));
            assertThrows(NullPointerException.class, () -> db.compactFiles(co, Arrays.asList((Path) null), 1));
            // not a live table file of this database: refused, naming the path, before RocksDB
            // (which reads only the number in the name: any other name was file 0, a path into
            // another database's directory this database's file of that number)
            Path other = dir.resolveSibling(dir.getFileName() + "-other");
            try (Options o = new Options().setCreateIfMissing(true); RocksDB otherDb = RocksDB.open(other, o)) {
                otherDb.put(bytes("a"), bytes("other"));
                otherDb.flush(true);
            }
            Path otherSst = other.resolve(sst.getFileName());
            assertTrue(Files.exists(otherSst), "the other database has a file of the same number");
            for (Path bad : List.of(dir.resolve("999999.sst"), otherSst, Path.of(""), dir, Path.of("../../etc/passwd"),
                    dir.resolve("CURRENT"), dir.resolve("../" + dir.getFileName() + "-other/" + sst.getFileName()))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> db.compactFiles(co, List.of(bad), 1), bad.toString());
                assertTrue(e.getMessage().contains("\"" + bad + "\""), e.getMessage());
            }
            assertEquals("1", db.getProperty("rocksdb.num-files-at-level0"), "nothing moved");
            RocksDBException level = assertThrows(RocksDBException.class, () -> db.compactFiles(co, List.of(sst), 7));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, level.code(), level.getMessage());
            CompactionOptions closed = new CompactionOptions();
            closed.close();
            assertThrows(IllegalStateException.class, () -> db.compactFiles(closed, List.of(sst), 1));
            // canceled options: RocksDB refuses to start
            assertFalse(co.isCanceled());
            assertTrue(co.setCanceled(true).isCanceled());
            RocksDBException canceled = assertThrows(RocksDBException.class, () -> db.compactFiles(co, List.of(sst), 1));
            assertEquals(RocksDBException.Code.INCOMPLETE, canceled.code(), canceled.getMessage());
            assertEquals("1", db.getProperty("rocksdb.num-files-at-level0"));
            co.setCanceled(false);
            assertEquals(1, db.compactFiles(co, List.of(sst), 1).size());
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0"));
            assertEquals("1", db.getProperty("rocksdb.num-files-at-level1"));
            // the other spellings of a live file: its name as liveFiles reports it, a path into
            // the database's directory spelled another way
            int to = 2;
            for (String spelling : List.of("/%s", dir + "/../" + dir.getFileName() + "/%s", "%s")) {
                String live = db.liveFiles().get(0).name().substring(1);
                db.compactFiles(co, List.of(Path.of(spelling.formatted(live))), to);
                assertEquals("1", db.getProperty("rocksdb.num-files-at-level" + to), spelling);
                to++;
            }
            assertEquals("1", string(db.get(bytes("a"))));
        }
    }

    static Options noAutoCompactions() {
        try (Options base = new Options().setCreateIfMissing(true)) {
            return Options.fromString(base, "disable_auto_compactions=true");
        }
    }

    static void write(RocksDB db, int from, int to) {
        Random random = new Random(from);
        for (int i = from; i < to; i++) {
            byte[] value = new byte[100];
            random.nextBytes(value);
            db.put(bytes(key(i)), bytes("v" + i));
            db.put(bytes(key(i) + "-pad"), value); // incompressible, so files have a real size
        }
    }

    static String key(int i) {
        return String.format("key%06d", i);
    }

    static int level(RocksDB db, int level) {
        return Integer.parseInt(db.getProperty("rocksdb.num-files-at-level" + level));
    }

    static List<Path> tableFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".sst")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
