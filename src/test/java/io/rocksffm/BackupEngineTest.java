package io.rocksffm;

import static io.rocksffm.Scans.*;
import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupEngineTest {
    @TempDir
    Path dir;

    private static void deleteTree(Path root) throws Exception {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static RocksDB openWithFamily(Path path) {
        try (Options o = new Options().setCreateIfMissing(true)) {
            return RocksDB.open(path, o, List.of(new ColumnFamilyDescriptor("cf", o)));
        }
    }

    @Test
    void backupDestroyRestoreGivesBackTheSameData() throws Exception {
        Path dbPath = dir.resolve("db");
        Random random = new Random(16);
        SortedMap<String, String> atFirst;
        SortedMap<String, String> atFirstCf;
        SortedMap<String, String> model = new TreeMap<>(randomEntries(random, 2000));
        SortedMap<String, String> modelCf = new TreeMap<>(randomEntries(random, 500));
        Instant before = Instant.now().minusSeconds(2);
        try (Options o = new Options().setCreateIfMissing(true)) {
            RocksDB.open(dbPath, o).close();
        }
        try (Options o = new Options()) {
            try (RocksDB db = RocksDB.open(dbPath, o)) {
                db.createColumnFamily("cf", o);
            }
        }
        try (RocksDB db = openWithFamily(dbPath);
             BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("backups")).setSync(false);
             BackupEngine engine = BackupEngine.open(beo)) {
            ColumnFamilyHandle cf = db.columnFamily("cf");
            putAll(db, db.defaultColumnFamily(), model);
            putAll(db, cf, modelCf);
            engine.createBackup(db); // flushes first
            atFirst = new TreeMap<>(model);
            atFirstCf = new TreeMap<>(modelCf);
            SortedMap<String, String> more = randomEntries(random, 300);
            putAll(db, db.defaultColumnFamily(), more);
            model.putAll(more);
            db.delete(cf, latin1(modelCf.firstKey()));
            modelCf.remove(modelCf.firstKey());
            engine.createBackup(db, false); // the memtable's writes reach the backup through the log

            List<BackupInfo> backups = engine.backups();
            assertEquals(List.of(1, 2), backups.stream().map(BackupInfo::id).toList());
            for (BackupInfo b : backups) {
                assertTrue(b.size() > 0 && b.fileCount() > 0, b.toString());
                assertFalse(b.timestamp().isBefore(before) || b.timestamp().isAfter(Instant.now().plusSeconds(2)),
                        b.toString());
            }
            assertTrue(backups.get(1).fileCount() >= backups.get(0).fileCount(), backups.toString());
            engine.verify(1);
            engine.verify(2);
            RocksDBException unknown = assertThrows(RocksDBException.class, () -> engine.verify(99));
            assertEquals(RocksDBException.Code.NOT_FOUND, unknown.code());
            // the open database is refused, and left intact
            IllegalStateException open = assertThrows(IllegalStateException.class, () -> engine.restoreLatest(dbPath));
            assertTrue(open.getMessage().contains("open"), open.getMessage());
            try (RestoreOptions ro = new RestoreOptions()) { // the log directory counts too
                assertThrows(IllegalStateException.class, () -> engine.restore(1, dir.resolve("x"), dbPath, ro));
            }
            assertEquals(model, scan(db, db.defaultColumnFamily()));
        }
        deleteTree(dbPath);
        try (BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("backups"));
             BackupEngine engine = BackupEngine.open(beo)) {
            engine.restoreLatest(dbPath);
            engine.restore(1, dir.resolve("first"));
            RocksDBException unknown = assertThrows(RocksDBException.class, () -> engine.restore(7, dir.resolve("none")));
            assertEquals(RocksDBException.Code.NOT_FOUND, unknown.code());
            assertThrows(IllegalArgumentException.class, () -> engine.restore(0, dir.resolve("none")));
            engine.purgeOldBackups(1);
            assertEquals(List.of(2), engine.backups().stream().map(BackupInfo::id).toList());
            assertEquals(RocksDBException.Code.NOT_FOUND,
                    assertThrows(RocksDBException.class, () -> engine.restore(1, dir.resolve("purged"))).code());
        }
        try (RocksDB restored = openWithFamily(dbPath); RocksDB first = openWithFamily(dir.resolve("first"))) {
            assertEquals(model, scan(restored, restored.defaultColumnFamily()));
            assertEquals(modelCf, scan(restored, restored.columnFamily("cf")));
            assertEquals(atFirst, scan(first, first.defaultColumnFamily()));
            assertEquals(atFirstCf, scan(first, first.columnFamily("cf")));
        }
    }

    @Test
    void restoreKeepingLogFilesReplaysWritesAfterTheBackup() throws Exception {
        Path dbPath = dir.resolve("db");
        try (BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("backups")).setBackupLogFiles(false);
             BackupEngine engine = BackupEngine.open(beo)) {
            assertFalse(beo.backupLogFiles());
            try (RocksDB db = open(dbPath)) {
                db.put(bytes("a"), bytes("1"));
                engine.createBackup(db, true);
                db.put(bytes("b"), bytes("2")); // only in the log
            }
            try (RestoreOptions keep = new RestoreOptions().setKeepLogFiles(true)) {
                assertTrue(keep.keepLogFiles());
                engine.restoreLatest(dbPath, dbPath, keep);
            }
            try (RocksDB db = open(dbPath)) {
                assertEquals("1", string(db.get(bytes("a"))));
                assertEquals("2", string(db.get(bytes("b"))), "the kept log replays the later write");
            }
            engine.restoreLatest(dbPath); // without keeping logs: as at the backup
            try (RocksDB db = open(dbPath)) {
                assertEquals("1", string(db.get(bytes("a"))));
                assertNull(db.get(bytes("b")));
            }
        }
    }

    @Test
    void optionsRoundTripAndRefuseBadValues() {
        try (BackupEngineOptions o = new BackupEngineOptions(dir.resolve("b"))) {
            assertTrue(o.shareTableFiles());
            assertTrue(o.sync());
            assertFalse(o.destroyOldData());
            assertEquals(0, o.backupRateLimit());
            o.setShareTableFiles(false).setSync(false).setDestroyOldData(true).setBackupRateLimit(1 << 20)
                    .setRestoreRateLimit(2 << 20).setMaxBackgroundOperations(3);
            assertFalse(o.shareTableFiles());
            assertFalse(o.sync());
            assertTrue(o.destroyOldData());
            assertEquals(1 << 20, o.backupRateLimit());
            assertEquals(2 << 20, o.restoreRateLimit());
            assertEquals(3, o.maxBackgroundOperations());
            assertThrows(IllegalArgumentException.class, () -> o.setBackupRateLimit(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setRestoreRateLimit(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxBackgroundOperations(0));
        }
    }

    @Test
    void aBackupKeepsItsDatabaseOpenOnlyDuringTheCall() throws Exception {
        try (BackupEngineOptions o = new BackupEngineOptions(dir.resolve("b"));
             BackupEngine engine = BackupEngine.open(o)) {
            RocksDB db = open(dir.resolve("db"));
            db.put(bytes("k"), bytes("v"));
            engine.createBackup(db);
            db.close(); // no child left
            assertThrows(IllegalStateException.class, () -> engine.createBackup(db));
            assertThrows(IllegalArgumentException.class, () -> engine.purgeOldBackups(-1));
            assertThrows(NullPointerException.class, () -> engine.createBackup(null));
            assertEquals(1, engine.backups().size());
        }
    }
}
