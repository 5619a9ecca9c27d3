package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PinnedValueTest {
    @TempDir
    Path dir;

    @Test
    void viewsTheValueUntilClosed() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("k"), bytes("pinned value"));
            assertNull(db.getPinned(ro, MemorySegment.ofArray(bytes("absent"))));
            PinnedValue pv = db.getPinned(ro, MemorySegment.ofArray(bytes("k")));
            assertNotNull(pv);
            assertEquals(12, pv.byteSize());
            MemorySegment seg = pv.segment();
            assertTrue(seg.isReadOnly());
            assertTrue(seg.isNative());
            assertEquals("pinned value", string(seg.toArray(ValueLayout.JAVA_BYTE)));
            assertEquals("pinned value", string(pv.toByteArray()));
            // the pin holds the value even if the key is overwritten meanwhile
            db.put(bytes("k"), bytes("other"));
            assertEquals("pinned value", string(seg.toArray(ValueLayout.JAVA_BYTE)));
            pv.close();
            pv.close();
            assertTrue(pv.isClosed());
            assertThrows(IllegalStateException.class, () -> seg.get(ValueLayout.JAVA_BYTE, 0));
            assertThrows(IllegalStateException.class, pv::segment);
            assertThrows(IllegalStateException.class, pv::toByteArray);
            assertThrows(IllegalStateException.class, pv::byteSize);
        }
    }

    @Test
    void databaseRefusesToCloseWhilePinned() {
        RocksDB db = open(dir);
        db.put(bytes("k"), bytes("v"));
        PinnedValue pv;
        try (ReadOptions ro = new ReadOptions()) {
            pv = db.getPinned(ro, MemorySegment.ofArray(bytes("k")));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, db::close);
        assertTrue(e.getMessage().contains("1 pinned values"), e.getMessage());
        assertFalse(db.isClosed());
        assertEquals("v", string(pv.toByteArray()));
        pv.close();
        db.close();
        assertTrue(db.isClosed());
    }

    @Test
    void confinedToTheReadingThread() throws Exception {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("k"), bytes("v"));
            try (PinnedValue pv = db.getPinned(ro, MemorySegment.ofArray(bytes("k")))) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> CompletableFuture.runAsync(() -> pv.segment().get(ValueLayout.JAVA_BYTE, 0)).get());
                assertInstanceOf(WrongThreadException.class, e.getCause());
                e = assertThrows(ExecutionException.class, () -> CompletableFuture.runAsync(pv::close).get());
                assertInstanceOf(WrongThreadException.class, e.getCause());
                assertFalse(pv.isClosed());
            }
        }
    }
}
