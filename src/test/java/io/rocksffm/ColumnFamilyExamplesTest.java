package io.rocksffm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.Capabilities;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of the javadoc of the types that administer column families (several created at
 * once, their table files by level, export and import), run; each block between "javadoc:NAME"
 * markers is quoted by a {@code {@snippet id="NAME"}} ({@link JavadocExamplesTest}).
 */
class ColumnFamilyExamplesTest {
    @TempDir
    Path dir;

    @Test
    void createSeveralAndReadTheirFiles() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("families"), options)) {
            assumeTrue(Gated.since11("rocksdb_create_column_families",
                    () -> db.createColumnFamilies(options, List.of("gate"))), "the engine has no createColumnFamilies");
            // --- javadoc:ColumnFamilyAdmin begin
            List<ColumnFamilyHandle> made = db.createColumnFamilies(options, List.of("events", "users"));
            ColumnFamilyHandle events = made.get(0);   // owned by the database, like createColumnFamily's
            db.put(events, "e1".getBytes(UTF_8), "login".getBytes(UTF_8));
            db.flush(events, true);
            ColumnFamilyMetaData files = db.getColumnFamilyMetaData(events);   // one table file, at level 0
            // --- javadoc:ColumnFamilyAdmin end
            assertEquals(List.of("events", "users"), made.stream().map(ColumnFamilyHandle::name).toList());
            assertSame(made.get(1), db.columnFamily("users"));
            assertEquals("events", files.name());
            assertEquals(1, files.fileCount());
            assertEquals(1, files.levels().get(0).files().size());
            List<LiveFile> live = db.liveFiles().stream().filter(f -> f.columnFamily().equals("events")).toList();
            assertEquals(live.get(0).size(), files.size());
        }
    }

    @Test
    void metaDataByLevel() {
        List<String> listed = new ArrayList<>();
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("levels"), options)) {
            for (int i = 0; i < 2; i++) {
                db.put(("k" + i).getBytes(UTF_8), new byte[100]);
                db.flush(true);
            }
            // --- javadoc:ColumnFamilyMetaData begin
            ColumnFamilyMetaData meta = db.getColumnFamilyMetaData();   // the default family's, a snapshot
            for (ColumnFamilyMetaData.Level level : meta.levels()) {    // level 0 first, empty ones too
                for (ColumnFamilyMetaData.SstFile file : level.files()) {
                    listed.add(level.level() + " " + file.relativeName() + " " + file.size());   // level, name, bytes
                }
            }
            // --- javadoc:ColumnFamilyMetaData end
            List<String> expected = new ArrayList<>();
            long total = 0;
            for (LiveFile f : db.liveFiles()) {
                expected.add(f.level() + " " + f.name().replaceFirst("^/", "") + " " + f.size());
                total += f.size();
            }
            assertEquals(2, expected.size());
            assertEquals(expected.stream().sorted().toList(), listed.stream().map(f -> f.replace("/", "")).sorted().toList());
            assertEquals(total, meta.size());
            assertEquals(2, meta.fileCount());
            assertEquals(options.numLevels(), meta.levels().size());
        }
    }

    /** Whether the engine exports families and imports them (RocksDB 11; not 7.8.3). */
    private boolean exportAndImport(RocksDB db) {
        try (Checkpoint checkpoint = Checkpoint.create(db)) {
            return Gated.since11("rocksdb_checkpoint_export_column_family",
                    () -> checkpoint.exportColumnFamily(db.defaultColumnFamily(), dir.resolve("gate")))
                    && Gated.since11("rocksdb_import_column_family_options_create", ImportColumnFamilyOptions::new)
                    && Capabilities.callable("rocksdb_create_column_family_with_import");
        }
    }

    @Test
    void exportAndImportAFamily() throws Exception {
        Path exportDir = dir.resolve("export");
        Path movedDir = dir.resolve("export-moved");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("source"), options);
             RocksDB other = RocksDB.open(dir.resolve("target"), options);
             RocksDB third = RocksDB.open(dir.resolve("third"), options);
             ColumnFamilyHandle events = db.createColumnFamily("events", options)) {
            assumeTrue(exportAndImport(db), "the engine has no export and import of families");
            db.put(events, "e1".getBytes(UTF_8), "login".getBytes(UTF_8));
            // --- javadoc:ExportImportFilesMetaData begin
            // Copy the family events into the database other: export its files, import them there
            try (Checkpoint checkpoint = Checkpoint.create(db);
                 ExportImportFilesMetaData exported = checkpoint.exportColumnFamily(events, exportDir);
                 ImportColumnFamilyOptions importOptions = new ImportColumnFamilyOptions()) {
                List<LiveFile> files = exported.files();   // in exportDir, with their levels and key ranges
                ColumnFamilyHandle copy = other.createColumnFamilyWithImport("events", options, importOptions, exported);
                // --- javadoc:ExportImportFilesMetaData end
                assertEquals("login", new String(other.get(copy, "e1".getBytes(UTF_8)), UTF_8));
                assertEquals(1, files.size(), "the export flushed the memtable");
                Path file = exportDir.resolve(files.get(0).name().replaceFirst("^/", ""));
                assertEquals(Files.size(file), files.get(0).size());
                // --- javadoc:ExportImportFilesMetaData begin
            }   // the files were copied: exportDir may be deleted now
            // --- javadoc:ExportImportFilesMetaData end
            assertEquals(1, sstFiles(exportDir), "copied, not moved");

            try (Checkpoint checkpoint = Checkpoint.create(db);
                 ExportImportFilesMetaData exported = checkpoint.exportColumnFamily(events, movedDir)) {
                // --- javadoc:ImportColumnFamilyOptions begin
                try (ImportColumnFamilyOptions move = new ImportColumnFamilyOptions().setMoveFiles(true)) {
                    ColumnFamilyHandle moved = third.createColumnFamilyWithImport("events", options, move, exported);
                    // --- javadoc:ImportColumnFamilyOptions end
                    assertEquals("login", new String(third.get(moved, "e1".getBytes(UTF_8)), UTF_8));
                    // --- javadoc:ImportColumnFamilyOptions begin
                }   // the exported files are in the database now, no longer in the export's directory
                // --- javadoc:ImportColumnFamilyOptions end
            }
            assertEquals(0, sstFiles(movedDir), "moved");
        }
    }

    private static long sstFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.toString().endsWith(".sst")).count();
        }
    }
}
