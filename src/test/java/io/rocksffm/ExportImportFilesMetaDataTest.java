package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Checkpoint#exportColumnFamily} and {@link ColumnFamilyAdmin#createColumnFamilyWithImport}
 * (issue 32): a family exported from one database and imported into another holds exactly the
 * model's keys and values; the export's file list matches the exported family's live files and the
 * files on disk; bad imports fail. Gated on 7.8.3, which lacks them.
 */
class ExportImportFilesMetaDataTest {
    @TempDir
    Path dir;

    private static boolean supported(Checkpoint cp, ColumnFamilyHandle family, Path target) {
        return Gated.since11("rocksdb_checkpoint_export_column_family", () -> cp.exportColumnFamily(family, target));
    }

    @Test
    void anExportedFamilyImportsIntoAnotherDatabaseWithEveryKey() throws Exception {
        TreeMap<String, String> model = new TreeMap<>();
        Random random = new Random(32);
        Path export = dir.resolve("export");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB source = RocksDB.open(dir.resolve("source"), options);
             ColumnFamilyHandle cf = source.createColumnFamily("exported", options);
             Checkpoint cp = Checkpoint.create(source)) {
            if (!supported(cp, cf, dir.resolve("unsupported"))) {
                return;
            }
            for (int i = 0; i < 2000; i++) {
                String k = "key" + random.nextInt(1500);
                if (random.nextInt(10) == 0) {
                    source.delete(cf, bytes(k));
                    model.remove(k);
                } else {
                    String v = "value" + i;
                    source.put(cf, bytes(k), bytes(v));
                    model.put(k, v);
                }
                if (i % 700 == 699) {
                    source.flush(cf, true);
                }
            }
            source.put(bytes("default-only"), bytes("not exported"));
            try (ExportImportFilesMetaData meta = cp.exportColumnFamily(cf, export);
                 ImportColumnFamilyOptions copy = new ImportColumnFamilyOptions();
                 RocksDB target = RocksDB.open(dir.resolve("target"), options)) {
                assertEquals("leveldb.BytewiseComparator", meta.comparatorName());
                List<LiveFile> files = meta.files();
                List<LiveFile> live = source.liveFiles().stream().filter(f -> f.columnFamily().equals("exported")).toList();
                assertEquals(live.size(), files.size()); // the export flushed the memtable's last keys too
                for (LiveFile f : files) {
                    Path onDisk = export.resolve(f.name().startsWith("/") ? f.name().substring(1) : f.name());
                    assertEquals(Files.size(onDisk), f.size(), f.name());
                }

                ColumnFamilyHandle imported = target.createColumnFamilyWithImport("imported", options, copy, meta);
                assertSame(imported, target.columnFamily("imported"));
                assertEquals(model, contents(target, imported));
                assertNull(target.get(imported, bytes("default-only")));
                // the import is a family like another: it takes writes
                target.put(imported, bytes("new"), bytes("1"));
                assertEquals("1", string(target.get(imported, bytes("new"))));

                RocksDBException exists = assertThrows(RocksDBException.class,
                        () -> target.createColumnFamilyWithImport("imported", options, copy, meta));
                assertEquals(RocksDBException.Code.INVALID_ARGUMENT, exists.code(), exists.getMessage());
                try (Options reverse = Options.fromString(options, "comparator=rocksdb.ReverseBytewiseComparator")) {
                    RocksDBException order = assertThrows(RocksDBException.class,
                            () -> target.createColumnFamilyWithImport("reversed", reverse, copy, meta));
                    assertEquals(RocksDBException.Code.INVALID_ARGUMENT, order.code(), order.getMessage());
                }
                assertNull(target.columnFamily("reversed"));
            }
            assertThrows(RocksDBException.class, () -> cp.exportColumnFamily(cf, export)); // the directory exists
        }
        try (Options options = new Options()) {
            assertEquals(List.of("default", "imported"), RocksDB.listColumnFamilies(dir.resolve("target"), options));
        }
        try (RocksDB reopened = RocksDB.open(dir.resolve("target"), new Options(),
                List.of(new ColumnFamilyDescriptor("default", new Options()),
                        new ColumnFamilyDescriptor("imported", new Options())))) {
            model.put("new", "1");
            assertEquals(model, contents(reopened, reopened.columnFamily("imported")));
        }
    }

    @Test
    void movedFilesLeaveTheExportDirectory() throws Exception {
        Path export = dir.resolve("export");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB source = RocksDB.open(dir.resolve("source"), options);
             Checkpoint cp = Checkpoint.create(source)) {
            if (!supported(cp, source.defaultColumnFamily(), dir.resolve("unsupported"))) {
                return;
            }
            source.put(bytes("a"), bytes("1")).put(bytes("b"), bytes("2"));
            try (ExportImportFilesMetaData meta = cp.exportColumnFamily(source.defaultColumnFamily(), export);
                 ImportColumnFamilyOptions move = new ImportColumnFamilyOptions().setMoveFiles(true);
                 RocksDB target = RocksDB.open(dir.resolve("target"), options)) {
                assertEquals(1, meta.files().size());
                ColumnFamilyHandle h = target.createColumnFamilyWithImport("moved", options, move, meta);
                assertEquals(Map.of("a", "1", "b", "2"), contents(target, h));
                try (var left = Files.list(export)) {
                    assertEquals(0, left.filter(p -> p.toString().endsWith(".sst")).count());
                }
            }
        }
    }

    private static Object inode(Path file) throws IOException {
        return Files.getAttribute(file, "unix:ino");
    }

    private static int links(Path file) throws IOException {
        return (Integer) Files.getAttribute(file, "unix:nlink");
    }

    /** The table files of {@code family} in {@code db}'s directory. */
    private static List<Path> tableFiles(RocksDB db, Path dbDir, String family) {
        return db.liveFiles().stream().filter(f -> f.columnFamily().equals(family))
                .map(f -> dbDir.resolve(f.name().substring(1))).toList();
    }

    /**
     * What the docs say is shared is shared: a checkpoint's and an export's table files are the
     * source database's (one inode), an import by copy has files of its own, a moved import takes
     * over the export's links (so it shares the source's inode); and writing into an exported file
     * changes the source database's file, which its next open detects.
     */
    @Test
    void checkpointsExportsAndMovedImportsShareFilesCopiedImportsDoNot() throws Exception {
        Path sourceDir = dir.resolve("source");
        Path exported;
        try (Options options = new Options().setCreateIfMissing(true)) {
            try (RocksDB source = RocksDB.open(sourceDir, options);
                 ColumnFamilyHandle cf = source.createColumnFamily("shared", options);
                 Checkpoint cp = Checkpoint.create(source)) {
                if (!supported(cp, cf, dir.resolve("unsupported"))) {
                    return;
                }
                for (int i = 0; i < 100; i++) {
                    source.put(cf, bytes("k" + i), bytes("v" + i));
                }
                source.flush(cf, true);
                List<Path> sourceFiles = tableFiles(source, sourceDir, "shared");
                assertFalse(sourceFiles.isEmpty());
                Path sst = sourceFiles.get(0);
                Object ino = inode(sst);
                cp.createCheckpoint(dir.resolve("checkpoint"));
                assertEquals(ino, inode(dir.resolve("checkpoint").resolve(sst.getFileName())), "a checkpoint links");
                try (ExportImportFilesMetaData copyMeta = cp.exportColumnFamily(cf, dir.resolve("export1"));
                     ExportImportFilesMetaData moveMeta = cp.exportColumnFamily(cf, dir.resolve("export2"));
                     ImportColumnFamilyOptions copy = new ImportColumnFamilyOptions();
                     ImportColumnFamilyOptions move = new ImportColumnFamilyOptions().setMoveFiles(true);
                     RocksDB copied = RocksDB.open(dir.resolve("copied"), options);
                     RocksDB moved = RocksDB.open(dir.resolve("moved"), options)) {
                    exported = dir.resolve("export1").resolve(sst.getFileName());
                    assertEquals(ino, inode(exported), "an export links");
                    assertEquals(4, links(sst), "source, checkpoint and two exports");
                    copied.createColumnFamilyWithImport("shared", options, copy, copyMeta);
                    Path own = tableFiles(copied, dir.resolve("copied"), "shared").get(0);
                    assertNotEquals(ino, inode(own), "an import by copy has its own file");
                    assertEquals(1, links(own));
                    assertTrue(Files.exists(exported), "a copy leaves the export");
                    moved.createColumnFamilyWithImport("shared", options, move, moveMeta);
                    Path taken = tableFiles(moved, dir.resolve("moved"), "shared").get(0);
                    assertEquals(ino, inode(taken), "a moved import shares the source's file");
                    assertFalse(Files.exists(dir.resolve("export2").resolve(sst.getFileName())));
                    assertEquals(4, links(sst), "source, checkpoint, export1 and the moved import");
                    assertEquals("v7", string(moved.get(moved.columnFamily("shared"), bytes("k7"))));
                }
            }
            // one byte written into the exported file is written into the source's
            Files.write(exported, new byte[] {1}, StandardOpenOption.APPEND);
            RocksDBException damaged = assertThrows(RocksDBException.class, () -> RocksDB.open(sourceDir, options,
                    List.of(new ColumnFamilyDescriptor("default", options), new ColumnFamilyDescriptor("shared", options)))
                    .close());
            assertEquals(RocksDBException.Code.CORRUPTION, damaged.code(), damaged.getMessage());
        }
    }

    private static Map<String, String> contents(RocksDB db, ColumnFamilyHandle family) {
        Map<String, String> out = new TreeMap<>();
        try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(family, ro)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                out.put(string(it.keyBytes()), string(it.valueBytes()));
            }
        }
        return out;
    }
}
