package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EnvTest {
    @TempDir
    Path dir;

    private long filesOnDisk() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).count();
        }
    }

    @Test
    void aDatabaseInMemoryWritesNothingToDiskAndSurvivesReopening() throws IOException {
        Path path = dir.resolve("in-memory");
        // --- readme:memoryEnv begin
        try (Env env = Env.memory()) {
            try (Options options = new Options().setCreateIfMissing(true).setEnv(env)) {
                try (RocksDB db = RocksDB.open(path, options)) {
                    db.put(bytes("k"), bytes("v"));
                    db.flush(true); // a table file, in memory
                }
                try (RocksDB again = RocksDB.open(path, options)) { // same path, same Env: same files
                    assertArrayEquals(bytes("v"), again.get(bytes("k")));
                }
            }
        } // closing the Env frees its files
        // --- readme:memoryEnv end
        assertFalse(Files.exists(path), "the database's directory is not on disk");
        assertEquals(0, filesOnDisk());
        // a new in-memory Env starts empty
        try (Env env = Env.memory();
             Options options = new Options().setEnv(env)) {
            RocksDBException e = assertThrows(RocksDBException.class, () -> RocksDB.open(path, options).close());
            assertTrue(e.getMessage().contains("does not exist") || e.getMessage().contains("No such"), e.getMessage());
        }
    }

    /**
     * Which environment each file writer uses: a checkpoint and an SST file writer write into the
     * database's (the options') environment, so into memory; a backup engine reads and writes
     * through the default environment, the disk, so it cannot back up a database in memory.
     */
    @Test
    void checkpointsAndTableFilesGoIntoTheEnvBackupsUseTheDisk() throws IOException {
        Path path = dir.resolve("in-memory");
        Path checkpoint = dir.resolve("checkpoint");
        Path sst = dir.resolve("file.sst");
        Path backups = dir.resolve("backups");
        try (Env env = Env.memory()) {
            try (Options options = new Options().setCreateIfMissing(true).setEnv(env)) {
                try (RocksDB db = RocksDB.open(path, options)) {
                    db.put(bytes("k"), bytes("v"));
                    db.createCheckpoint(checkpoint);
                    try (SstFileWriter writer = SstFileWriter.open(options, sst)) {
                        writer.put(bytes("s"), bytes("1"));
                        writer.finish();
                    }
                    try (IngestExternalFileOptions io = new IngestExternalFileOptions()) {
                        db.ingestExternalFile(List.of(sst), io);
                    }
                    // the engine reads the database's files on disk too: there are none
                    try (BackupEngineOptions beo = new BackupEngineOptions(backups);
                         BackupEngine engine = BackupEngine.open(beo)) {
                        RocksDBException e = assertThrows(RocksDBException.class, () -> engine.createBackup(db));
                        assertEquals(RocksDBException.Code.IO_ERROR, e.code(), e.getMessage());
                        assertTrue(e.getMessage().contains(path.toString()), e.getMessage());
                        assertEquals(List.of(), engine.backups());
                    }
                    assertArrayEquals(bytes("1"), db.get(bytes("s")));
                }
                assertFalse(Files.exists(checkpoint), "the checkpoint is in memory");
                assertFalse(Files.exists(sst), "the table file is in memory");
                try (RocksDB again = RocksDB.open(checkpoint, options)) {
                    assertArrayEquals(bytes("v"), again.get(bytes("k")));
                }
            }
            assertTrue(Files.isDirectory(backups), "the backup directory is on disk");
        }
    }

    @Test
    void theEnvOutlivesItsOptionsAndDatabases() throws IOException {
        Env env = Env.memory();
        Options options = new Options().setCreateIfMissing(true).setEnv(env);
        RocksDB db = RocksDB.open(dir.resolve("db"), options);
        IllegalStateException e = assertThrows(IllegalStateException.class, env::close);
        assertTrue(e.getMessage().contains("options or databases using it"), e.getMessage());
        options.close(); // the database still holds the Env
        assertThrows(IllegalStateException.class, env::close);
        assertFalse(env.isClosed());
        db.put(bytes("a"), bytes("b"));
        db.close();
        env.close();
        env.close();
        assertTrue(env.isClosed());
        assertEquals(0, filesOnDisk());
        try (Options other = new Options()) {
            assertThrows(IllegalStateException.class, () -> other.setEnv(env));
            assertThrows(NullPointerException.class, () -> other.setEnv(null));
        }
    }

    @Test
    void replacingOrCopyingTheEnvCountsItsUsers() {
        try (Env first = Env.memory(); Env second = Env.memory()) {
            Options options = new Options().setEnv(first).setEnv(second); // first released
            first.close();
            assertTrue(first.isClosed());
            Options copy = Options.fromString(options, "write_buffer_size=1048576");
            options.close();
            assertThrows(IllegalStateException.class, second::close); // the copy points at it
            copy.close();
        }
    }
}
