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
    }
}
