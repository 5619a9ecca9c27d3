package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksDBException;
import io.rocksffm.WriteOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the classes of the bad input catalogue (docs/bad-inputs.md) share: {@link BadInputTest},
 * {@link BadSegmentInputTest}, {@link BadBatchInputTest} and {@link BadOpenAndOwnershipTest}.
 * Each test tries one family of bad inputs and checks the exception it gets, and that the objects
 * involved are still usable (or cleanly closed) afterwards; the database of each test must still
 * close at the end (no child leaked).
 */
abstract class BadInputFixture {
    @TempDir
    Path dir;

    RocksDB db;
    ReadOptions ro;
    WriteOptions wo;
    Arena arena;

    @BeforeEach
    void openDatabase() {
        db = open(dir.resolve("db"));
        db.put(bytes("a"), bytes("1"));
        db.put(bytes("b"), bytes("2"));
        ro = new ReadOptions();
        wo = new WriteOptions();
        arena = Arena.ofConfined();
    }

    @AfterEach
    void closeDatabase() {
        arena.close();
        ro.close();
        wo.close();
        db.close(); // throws if a refused call left an iterator, pinned value or snapshot registered
    }

    static MemorySegment heap(String s) {
        return MemorySegment.ofArray(bytes(s));
    }

    void assertWritable() {
        db.put(bytes("still-writable"), bytes("yes"));
        assertEquals("yes", string(db.get(bytes("still-writable"))));
    }

    static RocksDBException assertCode(RocksDBException.Code code, Executable call) {
        return assertCode(code, call, "");
    }

    static RocksDBException assertCode(RocksDBException.Code code, Executable call, String what) {
        RocksDBException e = assertThrows(RocksDBException.class, call, what);
        assertEquals(code, e.code(), what + ": " + e.getMessage());
        return e;
    }
}
