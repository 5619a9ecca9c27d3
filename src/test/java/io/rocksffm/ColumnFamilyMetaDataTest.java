package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ColumnFamilyAdmin#getColumnFamilyMetaData} (issue 32), checked against RocksDB's other
 * views of the same files: {@link DatabaseAdmin#liveFiles()}, the per-level and total-size
 * properties, and the files on disk.
 */
class ColumnFamilyMetaDataTest {
    @TempDir
    Path dir;

    /** A file's name without the leading separator some engines put in front. */
    private static String bare(String name) {
        return name.startsWith("/") ? name.substring(1) : name;
    }

    @Test
    void metadataMatchesLiveFilesPropertiesAndDisk() throws IOException {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir, options);
             ColumnFamilyHandle cf = db.createColumnFamily("meta", options)) {
            for (int flush = 0; flush < 3; flush++) {
                for (int i = 0; i < 50; i++) {
                    db.put(cf, bytes(String.format("k%d-%03d", flush, i)), bytes("v" + i));
                }
                db.flush(cf, true);
            }
            db.put(bytes("d"), bytes("only in the default family's memtable"));

            ColumnFamilyMetaData meta = db.getColumnFamilyMetaData(cf);
            assertEquals("meta", meta.name());
            assertEquals(Long.parseLong(db.getProperty(cf, "rocksdb.total-sst-files-size")), meta.size());
            assertEquals(options.numLevels(), meta.levels().size());
            Map<String, LiveFile> live = new HashMap<>();
            for (LiveFile f : db.liveFiles()) {
                if (f.columnFamily().equals("meta")) {
                    live.put(bare(f.name()), f);
                }
            }
            assertEquals(live.size(), meta.fileCount());
            assertEquals(3, meta.fileCount()); // three flushes, below the level-0 compaction trigger (4)
            List<String> seen = new ArrayList<>();
            long total = 0;
            for (int l = 0; l < meta.levels().size(); l++) {
                ColumnFamilyMetaData.Level level = meta.levels().get(l);
                assertEquals(l, level.level());
                assertEquals(db.getProperty(cf, "rocksdb.num-files-at-level" + l), String.valueOf(level.files().size()));
                long levelSize = 0;
                for (ColumnFamilyMetaData.SstFile f : level.files()) {
                    LiveFile same = live.get(bare(f.relativeName()));
                    assertNotNull(same, f.relativeName() + " is not among the live files " + live.keySet());
                    assertEquals(l, same.level());
                    assertEquals(same.size(), f.size());
                    assertArrayEquals(same.smallestKey(), f.smallestKey());
                    assertArrayEquals(same.largestKey(), f.largestKey());
                    Path onDisk = f.directory().isEmpty() ? dir.resolve(bare(f.relativeName()))
                            : Path.of(f.directory(), bare(f.relativeName()));
                    assertEquals(Files.size(onDisk), f.size());
                    levelSize += f.size();
                    seen.add(bare(f.relativeName()));
                }
                assertEquals(levelSize, level.size());
                total += levelSize;
            }
            assertEquals(meta.size(), total);
            assertEquals(live.keySet(), new HashSet<>(seen));
            // each flush's keys: file key ranges as written
            List<String> smallest = meta.levels().get(0).files().stream().map(f -> string(f.smallestKey())).sorted().toList();
            assertEquals(List.of("k0-000", "k1-000", "k2-000"), smallest);

            ColumnFamilyMetaData defaults = db.getColumnFamilyMetaData();
            assertEquals("default", defaults.name());
            assertEquals(0, defaults.fileCount()); // its one key is still in the memtable
            assertEquals(0, defaults.size());
        }
    }

    @Test
    void recordsCopyTheirKeysAndLists() {
        byte[] small = bytes("a");
        ColumnFamilyMetaData.SstFile f = new ColumnFamilyMetaData.SstFile("/1.sst", "", 1, small, bytes("b"));
        small[0] = 'z';
        assertEquals("a", string(f.smallestKey()));
        f.smallestKey()[0] = 'y';
        assertEquals("a", string(f.smallestKey()));
        List<ColumnFamilyMetaData.SstFile> files = new ArrayList<>(List.of(f));
        ColumnFamilyMetaData.Level level = new ColumnFamilyMetaData.Level(0, 1, files);
        files.clear();
        assertEquals(1, level.files().size());
        assertThrows(UnsupportedOperationException.class, () -> level.files().clear());
    }
}
