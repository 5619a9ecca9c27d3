package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotTest {
    @TempDir
    Path dir;

    @Test
    void readsAndIteratorsSeeTheSnapshotState() {
        try (RocksDB db = open(dir)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("1"));
            try (Snapshot snap = db.getSnapshot()) {
                assertSame(db, snap.database());
                db.put(bytes("a"), bytes("2"));
                db.delete(bytes("b"));
                db.put(bytes("c"), bytes("2"));
                try (ReadOptions at = new ReadOptions().setSnapshot(snap); ReadOptions now = new ReadOptions()) {
                    assertSame(snap, at.snapshot());
                    byte[] out = new byte[1];
                    assertEquals(1, db.get(at, MemorySegment.ofArray(bytes("a")), MemorySegment.ofArray(out)));
                    assertEquals('1', out[0]);
                    assertEquals(1, db.get(at, MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(out)));
                    assertEquals(-1, db.get(at, MemorySegment.ofArray(bytes("c")), MemorySegment.ofArray(out)));
                    assertEquals(-1, db.get(now, MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(out)));
                    try (PinnedValue pv = db.getPinned(at, MemorySegment.ofArray(bytes("a")))) {
                        assertEquals("1", string(pv.toByteArray()));
                    }
                    try (var s = db.stream(at)) {
                        assertEquals("a=1,b=1", String.join(",",
                                s.map(e -> string(e.getKey()) + "=" + string(e.getValue())).toList()));
                    }
                    try (var s = db.stream(now)) {
                        assertEquals("a=2,c=2", String.join(",",
                                s.map(e -> string(e.getKey()) + "=" + string(e.getValue())).toList()));
                    }
                    // the snapshot cannot go while options use it
                    assertThrows(IllegalStateException.class, snap::close);
                    at.setSnapshot(null);
                    assertNull(at.snapshot());
                }
            }
        }
    }

    @Test
    void ownershipRules() {
        RocksDB db = open(dir);
        Snapshot snap = db.getSnapshot();
        IllegalStateException e = assertThrows(IllegalStateException.class, db::close);
        assertTrue(e.getMessage().contains("snapshots"), e.getMessage());
        snap.close();
        snap.close();
        assertTrue(snap.isClosed());
        try (ReadOptions ro = new ReadOptions()) {
            assertThrows(IllegalStateException.class, () -> ro.setSnapshot(snap));
        }
        db.close();
        assertThrows(IllegalStateException.class, db::getSnapshot);
    }

    @Test
    void snapshotOfAnotherDatabaseIsRefused() {
        try (RocksDB a = open(dir.resolve("a")); RocksDB b = open(dir.resolve("b"));
             Snapshot snapA = a.getSnapshot(); ReadOptions ro = new ReadOptions().setSnapshot(snapA)) {
            assertThrows(IllegalArgumentException.class, () -> b.get(ro, MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(new byte[1])));
            assertThrows(IllegalArgumentException.class, () -> b.newIterator(ro));
            assertThrows(IllegalArgumentException.class, () -> b.getPinned(ro, MemorySegment.ofArray(bytes("k"))));
            assertEquals(-1, a.get(ro, MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(new byte[1])));
        }
    }
}
