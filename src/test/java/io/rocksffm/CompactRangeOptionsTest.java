package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.lang.foreign.MemorySegment;

/**
 * Manual compactions with {@link CompactRangeOptions} and {@link DatabaseAdmin#liveFiles()} (issue 32),
 * checked against RocksDB: the files' levels against its per-level file counts, their sizes against
 * the files on disk, a forced last-level compaction against the file names.
 */
class CompactRangeOptionsTest {
    @TempDir
    Path dir;

    @Test
    void gettersReadTheSetters() {
        try (CompactRangeOptions o = new CompactRangeOptions()) {
            assertFalse(o.exclusiveManualCompaction()); // the C API's default, unlike C++'s
            assertFalse(o.changeLevel());
            assertEquals(-1, o.targetLevel());
            assertEquals(CompactRangeOptions.BottommostLevelCompaction.IF_HAVE_COMPACTION_FILTER, o.bottommostLevelCompaction());
            assertTrue(o.setExclusiveManualCompaction(true).exclusiveManualCompaction());
            assertTrue(o.setChangeLevel(true).changeLevel());
            assertEquals(4, o.setTargetLevel(4).targetLevel());
            assertEquals(CompactRangeOptions.BottommostLevelCompaction.FORCE_OPTIMIZED,
                    o.setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.FORCE_OPTIMIZED)
                            .bottommostLevelCompaction());
            if (Gated.supported("rocksdb_compactoptions_set_max_subcompactions", () -> o.setMaxSubcompactions(2))) {
                assertEquals(2, o.setMaxSubcompactions(2).maxSubcompactions());
            } else {
                Gated.supported("rocksdb_compactoptions_get_max_subcompactions", o::maxSubcompactions);
            }
        }
    }

    private static String key(int i) {
        return String.format("k%03d", i);
    }

    @Test
    void changeLevelAndForcedLastLevelCompaction() throws IOException {
        // static level sizes: with dynamic ones (the default since 8.4) RocksDB moves the files on to the last level
        try (Options options = new Options().setCreateIfMissing(true).setLevelCompactionDynamicLevelBytes(false);
             RocksDB db = RocksDB.open(dir, options);
             CompactRangeOptions move = new CompactRangeOptions().setChangeLevel(true).setTargetLevel(3)) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes(key(i)), bytes("value" + i));
            }
            db.delete(bytes(key(50)));
            db.flush(true);
            List<LiveFile> flushed = db.liveFiles();
            assertEquals(1, flushed.size());
            LiveFile f = flushed.get(0);
            assertEquals(0, f.level());
            assertEquals("default", f.columnFamily());
            assertEquals(Files.size(Path.of(db.path().toString(), f.name())), f.size());
            assertEquals(key(0), string(f.smallestKey()));
            assertEquals(key(99), string(f.largestKey()));
            assertEquals(100, f.entries()); // the flush dropped the put the delete shadows
            assertEquals(1, f.deletions());

            db.compactRange(db.defaultColumnFamily(), move, null, null);
            List<LiveFile> moved = db.liveFiles();
            assertFalse(moved.isEmpty());
            for (LiveFile m : moved) {
                assertEquals(3, m.level(), m.toString());
            }
            assertEquals(String.valueOf(moved.size()), db.getProperty("rocksdb.num-files-at-level3"),
                    () -> moved + "\n" + db.getProperty("rocksdb.levelstats"));
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0"));

            // the last level is left alone by default (no compaction filter) and rewritten when forced
            try (CompactRangeOptions plain = new CompactRangeOptions();
                 CompactRangeOptions force = new CompactRangeOptions()
                         .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.FORCE)) {
                db.compactRange(db.defaultColumnFamily(), plain, null, null);
                assertEquals(names(moved), names(db.liveFiles()));
                db.compactRange(db.defaultColumnFamily(), force, null, null);
                List<LiveFile> rewritten = db.liveFiles();
                assertNotEquals(names(moved), names(rewritten));
                assertEquals(99, rewritten.stream().mapToLong(LiveFile::entries).sum(), "the tombstone dropped at the last level");
            }
            assertEquals("value7", string(db.get(bytes(key(7)))));
        }
    }

    private static List<String> names(List<LiveFile> files) {
        return files.stream().map(LiveFile::name).sorted().toList();
    }

    @Test
    void badInputsAndClosedObjectsAreRefused() {
        try (RocksDB db = open(dir)) {
            CompactRangeOptions o = new CompactRangeOptions();
            assertThrows(IllegalArgumentException.class, () -> o.setTargetLevel(-2));
            assertThrows(NullPointerException.class, () -> o.setBottommostLevelCompaction(null));
            assertThrows(NullPointerException.class, () -> db.compactRange(db.defaultColumnFamily(), (CompactRangeOptions) null, null, null));
            assertEquals(-1, o.targetLevel());
            o.close();
            o.close();
            assertThrows(IllegalStateException.class, o::changeLevel);
            assertThrows(IllegalStateException.class, () -> db.compactRange(db.defaultColumnFamily(), o, null, null));
            db.close();
            assertThrows(IllegalStateException.class, db::liveFiles);
        }
    }

    /** deleteFilesInRange drops the files wholly inside the range, and only those: their keys are gone, the others stay. */
    @Test
    void deleteFilesInRangeDropsWholeFiles() {
        try (Options options = new Options().setCreateIfMissing(true).setLevelCompactionDynamicLevelBytes(false)
                     .setDisableAutoCompactions(true);
             RocksDB db = RocksDB.open(dir, options);
             CompactRangeOptions toLevel1 = new CompactRangeOptions().setChangeLevel(true).setTargetLevel(1)) {
            for (int file = 0; file < 3; file++) { // three files: a*, b*, c*
                for (int i = 0; i < 10; i++) {
                    db.put(bytes((char) ('a' + file) + "" + i), bytes("v"));
                }
                db.flush(true);
            }
            // out of level 0 (which deleteFilesInRange leaves alone), keeping the three files apart
            db.compactRange(db.defaultColumnFamily(), toLevel1, null, null);
            int before = db.liveFiles().size();
            db.deleteFilesInRange(db.defaultColumnFamily(), MemorySegment.ofArray(bytes("b")),
                    MemorySegment.ofArray(bytes("bz")));
            List<LiveFile> after = db.liveFiles();
            assertEquals(before - 1, after.size(), after.toString());
            for (LiveFile f : after) {
                assertNotEquals('b', (char) f.smallestKey()[0]);
            }
            assertNull(db.get(bytes("b5")));
            assertEquals("v", string(db.get(bytes("a5"))));
            assertEquals("v", string(db.get(bytes("c5"))));
        }
    }
}
