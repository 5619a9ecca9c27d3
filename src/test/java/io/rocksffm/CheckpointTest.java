package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointTest {
    @TempDir
    Path dir;

    @Test
    void checkpointsAreConsistentCopiesThatOpen() {
        try (RocksDB db = open(dir.resolve("db"))) {
            db.put(bytes("a"), bytes("1"));
            try (Checkpoint checkpoint = Checkpoint.create(db)) {
                checkpoint.createCheckpoint(dir.resolve("cp1"));
                db.put(bytes("b"), bytes("2"));
                checkpoint.createCheckpoint(dir.resolve("cp2"), 1 << 30); // small WAL: copied, not flushed
                assertThrows(IllegalStateException.class, db::close, "a checkpoint keeps its database open");
                RocksDBException e = assertThrows(RocksDBException.class, () -> checkpoint.createCheckpoint(dir.resolve("cp1")));
                assertNotNull(e.code());
                assertThrows(IllegalArgumentException.class, () -> checkpoint.createCheckpoint(dir.resolve("x"), -1));
            }
            db.put(bytes("c"), bytes("3"));
        } // closes now that the checkpoint is closed
        try (RocksDB cp1 = open(dir.resolve("cp1")); RocksDB cp2 = open(dir.resolve("cp2"))) {
            assertEquals("1", string(cp1.get(bytes("a"))));
            assertNull(cp1.get(bytes("b")));
            assertEquals("2", string(cp2.get(bytes("b"))));
            assertNull(cp2.get(bytes("c")));
        }
        assertFalse(Files.exists(dir.resolve("x")));
    }

    @Test
    void aClosedDatabaseMakesNoCheckpoint() {
        RocksDB db = open(dir.resolve("db"));
        db.close();
        assertThrows(IllegalStateException.class, () -> Checkpoint.create(db));
        assertThrows(NullPointerException.class, () -> Checkpoint.create(null));
    }

    @Test
    void anyKindOfDatabaseMakesCheckpoints() {
        Database db;
        try (Options options = new Options().setCreateIfMissing(true);
             OptimisticTransactionDB odb = OptimisticTransactionDB.open(dir.resolve("odb"), options)) {
            db = odb; // taken as the public base type
            db.put(bytes("a"), bytes("1"));
            try (Checkpoint checkpoint = Checkpoint.create(db)) {
                checkpoint.createCheckpoint(dir.resolve("cp"));
            }
        }
        assertTrue(db.isClosed());
        try (RocksDB cp = open(dir.resolve("cp"))) {
            assertEquals("1", string(cp.get(bytes("a"))));
        }
    }
}
