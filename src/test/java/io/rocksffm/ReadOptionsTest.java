package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadOptionsTest {
    @TempDir
    Path dir;

    @Test
    void settersReachRocksDB() {
        try (ReadOptions ro = new ReadOptions()) {
            assertTrue(ro.verifyChecksums());
            assertTrue(ro.fillCache());
            assertFalse(ro.setVerifyChecksums(false).verifyChecksums());
            assertFalse(ro.setFillCache(false).fillCache());
            assertTrue(ro.setFillCache(true).fillCache());
        }
    }

    @Test
    void readsWorkWithNonDefaultOptions() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions().setFillCache(false).setVerifyChecksums(false)) {
            db.put(bytes("k"), bytes("v"));
            byte[] out = new byte[1];
            assertEquals(1, db.get(ro, MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(out)));
            assertEquals('v', out[0]);
        }
    }

    @Test
    void closedThrowsIllegalState() {
        ReadOptions ro = new ReadOptions();
        ro.close();
        ro.close();
        assertThrows(IllegalStateException.class, () -> ro.setFillCache(true));
        assertThrows(IllegalStateException.class, ro::verifyChecksums);
    }
}
