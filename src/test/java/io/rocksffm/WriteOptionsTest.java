package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteOptionsTest {
    @TempDir
    Path dir;

    @Test
    void settersReachRocksDB() {
        try (WriteOptions wo = new WriteOptions()) {
            assertFalse(wo.sync());
            assertFalse(wo.disableWAL());
            assertTrue(wo.setSync(true).sync());
            assertTrue(wo.setDisableWAL(true).disableWAL());
            assertFalse(wo.setDisableWAL(false).disableWAL());
        }
    }

    /** Issue 32: the stall, priority and insertion-hint settings read back from RocksDB, and writes with them work. */
    @Test
    void stallPriorityAndHintSettings() {
        try (WriteOptions wo = new WriteOptions()) {
            assertFalse(wo.noSlowdown());
            assertFalse(wo.lowPri());
            assertFalse(wo.memtableInsertHintPerBatch());
            assertTrue(wo.setNoSlowdown(true).noSlowdown());
            assertTrue(wo.setLowPri(true).lowPri());
            assertTrue(wo.setMemtableInsertHintPerBatch(true).memtableInsertHintPerBatch());
            assertFalse(wo.setLowPri(false).lowPri());
            try (RocksDB db = open(dir); WriteBatch b = new WriteBatch().put(bytes("a"), bytes("1")).put(bytes("b"), bytes("2"))) {
                db.write(wo.setLowPri(true), b);
                db.put(wo, MemorySegment.ofArray(bytes("c")), MemorySegment.ofArray(bytes("3")));
                assertEquals("2", string(db.get(bytes("b"))));
                assertEquals("3", string(db.get(bytes("c"))));
            }
        }
    }

    @Test
    void syncedWritesAreReadable() {
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions().setSync(true)) {
            db.put(wo, MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(bytes("v")));
            assertEquals("v", string(db.get(bytes("k"))));
        }
    }

    @Test
    void closedThrowsIllegalState() {
        WriteOptions wo = new WriteOptions();
        wo.close();
        wo.close();
        assertThrows(IllegalStateException.class, () -> wo.setSync(true));
        assertThrows(IllegalStateException.class, wo::disableWAL);
        assertThrows(IllegalStateException.class, () -> wo.setNoSlowdown(true));
        assertThrows(IllegalStateException.class, wo::lowPri);
    }
}
