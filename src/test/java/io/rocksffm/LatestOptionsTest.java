package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Options from text and files: Options.fromString, LatestOptions, DatabaseAdmin.setOptions. */
class LatestOptionsTest {
    @TempDir
    Path dir;

    @Test
    void theLatestOptionsFileOpensTheDatabaseWithItsFamilies() {
        Path path = dir.resolve("db");
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(3 << 20).setMaxOpenFiles(77);
             Options cfOptions = new Options().setWriteBufferSize(5 << 20).setCompression(Compression.NONE);
             RocksDB db = RocksDB.open(path, o)) {
            db.createColumnFamily("one", cfOptions);
            db.createColumnFamily("two", o);
            db.put(db.columnFamily("one"), bytes("k"), bytes("v1"));
            db.put(db.columnFamily("two"), bytes("k"), bytes("v2"));
        }
        try (LatestOptions latest = LatestOptions.load(path)) {
            assertEquals(List.of("default", "one", "two"), latest.columnFamilies().stream().map(ColumnFamilyDescriptor::name).toList());
            assertEquals(77, latest.dbOptions().maxOpenFiles());
            assertEquals(3 << 20, latest.columnFamilies().get(0).options().writeBufferSize());
            assertEquals(5 << 20, latest.columnFamilies().get(1).options().writeBufferSize());
            assertEquals(Compression.NONE, latest.columnFamilies().get(1).options().compression());
            try (RocksDB db = RocksDB.open(path, latest.dbOptions(), latest.columnFamilies())) {
                assertEquals("v1", string(db.get(db.columnFamily("one"), bytes("k"))));
                assertEquals("v2", string(db.get(db.columnFamily("two"), bytes("k"))));
            }
            assertFalse(latest.isClosed());
            latest.close();
            assertTrue(latest.isClosed());
            assertThrows(IllegalStateException.class, () -> latest.dbOptions().maxOpenFiles());
            assertThrows(IllegalStateException.class, () -> latest.columnFamilies().get(2).options().writeBufferSize());
        }
        try (Cache cache = Cache.newLRUCache(1 << 20); LatestOptions latest = LatestOptions.load(path, cache, true)) {
            assertEquals(3, latest.columnFamilies().size());
        }
    }

    @Test
    void aDirectoryWithoutDatabaseHasNoOptions() {
        RocksDBException e = assertThrows(RocksDBException.class, () -> LatestOptions.load(dir.resolve("none")));
        assertNotNull(e.code());
        System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": options of a missing database: " + e.getMessage());
        try (Cache cache = Cache.newLRUCache(1 << 20)) {
            cache.close();
            assertThrows(IllegalStateException.class, () -> LatestOptions.load(dir, cache, false));
        }
    }

    @Test
    void optionsFromAStringStartFromTheBase() {
        try (Options base = new Options().setCreateIfMissing(true).setMaxOpenFiles(33);
             Options o = Options.fromString(base, "write_buffer_size=1048576;compression=kNoCompression")) {
            assertEquals(1 << 20, o.writeBufferSize());
            assertEquals(Compression.NONE, o.compression());
            assertEquals(33, o.maxOpenFiles(), "the base's settings are kept");
            assertTrue(o.createIfMissing());
            assertNotEquals(1 << 20, base.writeBufferSize(), "the base is unchanged");
            try (RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
                db.put(bytes("k"), bytes("v"));
            }
            RocksDBException unknown = assertThrows(RocksDBException.class, () -> Options.fromString(base, "no_such_option=1"));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, unknown.code());
            RocksDBException badValue = assertThrows(RocksDBException.class,
                    () -> Options.fromString(base, "write_buffer_size=lots"));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, badValue.code());
            assertThrows(IllegalArgumentException.class, () -> Options.fromString(base, "a=\0"));
        }
    }

    @Test
    void mutableOptionsChangeOnAnOpenDatabase() {
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
            ColumnFamilyHandle cf = db.createColumnFamily("cf", o);
            db.setOptions(Map.of("write_buffer_size", "2097152", "disable_auto_compactions", "true"));
            db.setOptions(cf, Map.of("write_buffer_size", "4194304"));
            try (LatestOptions latest = LatestOptions.load(db.path())) { // SetOptions writes a new OPTIONS file
                assertEquals(2 << 20, latest.columnFamilies().get(0).options().writeBufferSize());
                assertEquals(4 << 20, latest.columnFamilies().get(1).options().writeBufferSize());
            }
            RocksDBException unknown = assertThrows(RocksDBException.class, () -> db.setOptions(Map.of("no_such_option", "1")));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, unknown.code());
            System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": unknown option: " + unknown.getMessage());
            RocksDBException immutable = assertThrows(RocksDBException.class,
                    () -> db.setOptions(cf, Map.of("num_levels", "3")));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, immutable.code());
            assertThrows(RocksDBException.class, () -> db.setOptions(Map.of("write_buffer_size", "big")));
            assertThrows(IllegalArgumentException.class, () -> db.setOptions(Map.of()));
            assertThrows(IllegalArgumentException.class, () -> db.setOptions(Map.of("write_buffer_size", "1\0")));
            db.put(bytes("k"), bytes("v")); // still writable
            assertEquals("v", string(db.get(bytes("k"))));
        }
    }
}
