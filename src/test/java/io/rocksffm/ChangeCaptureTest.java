package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change capture (issue 32): sequence numbers and {@link DatabaseAdmin#getUpdatesSince}, checked
 * against the writes made: each batch read back from the log is byte for byte the batch written
 * (apart from the sequence number RocksDB stamps in its header), at the sequence number RocksDB gave it.
 */
class ChangeCaptureTest {
    @TempDir
    Path dir;

    private static byte[] body(WriteBatch b) {
        MemorySegment d = b.data();
        return d.asSlice(8).toArray(ValueLayout.JAVA_BYTE); // after the 8-byte sequence number
    }

    @Test
    void updatesSinceAreTheBatchesWritten() {
        try (RocksDB db = open(dir)) {
            long start = db.latestSequenceNumber();
            try (WriteOptions wo = new WriteOptions();
                 WriteBatch one = new WriteBatch().put(bytes("k1"), bytes("v1"));
                 WriteBatch two = new WriteBatch().put(bytes("k2"), bytes("v2")).delete(bytes("k1"));
                 WriteBatch three = new WriteBatch().singleDelete(bytes("m")).deleteRange(bytes("a"), bytes("b"))
                         .put(bytes("k3"), bytes("v3"))) {
                db.write(wo, one);
                db.write(wo, two);
                db.put(bytes("k4"), bytes("v4"));
                assertEquals(start + 4, db.latestSequenceNumber()); // two's two entries take two numbers
                List<WalUpdate> updates = db.getUpdatesSince(start + 1, 100);
                try {
                    assertEquals(3, updates.size(), () -> "start " + start + ": " + updates.stream()
                            .map(u -> u.sequence() + "x" + u.batch().count()).toList());
                    assertEquals(start + 1, updates.get(0).sequence());
                    assertEquals(start + 2, updates.get(1).sequence());
                    assertEquals(start + 4, updates.get(2).sequence());
                    assertArrayEquals(body(one), body(updates.get(0).batch()));
                    assertArrayEquals(body(two), body(updates.get(1).batch()));
                    assertEquals(1, updates.get(2).batch().count());
                } finally {
                    updates.forEach(u -> u.batch().close());
                }
                // the next poll resumes after the last batch
                List<WalUpdate> limited = db.getUpdatesSince(start + 2, 1);
                assertEquals(1, limited.size());
                assertEquals(start + 2, limited.get(0).sequence());
                limited.get(0).batch().close();
                // batches of several entries advance the sequence by their count, and a batch is
                // found from any sequence number inside it
                db.write(wo, three);
                assertEquals(start + 7, db.latestSequenceNumber());
                List<WalUpdate> inside = db.getUpdatesSince(start + 6, 10);
                assertEquals(1, inside.size());
                assertEquals(start + 5, inside.get(0).sequence());
                assertArrayEquals(body(three), body(inside.get(0).batch()));
                inside.forEach(u -> u.batch().close());
            }
        }
    }

    @Test
    void aSnapshotKnowsItsSequenceNumber() {
        try (RocksDB db = open(dir)) {
            db.put(bytes("a"), bytes("1"));
            try (Snapshot s = db.getSnapshot()) {
                if (Gated.supported("rocksdb_snapshot_get_sequence_number", s::sequenceNumber)) {
                    long seq = db.latestSequenceNumber();
                    assertEquals(seq, s.sequenceNumber());
                    db.put(bytes("b"), bytes("2"));
                    assertEquals(seq, s.sequenceNumber());
                    assertEquals(seq + 1, db.latestSequenceNumber());
                }
            }
        }
    }

    @Test
    void badInputsAndClosedDatabasesAreRefused() {
        RocksDB db = open(dir);
        db.put(bytes("a"), bytes("1"));
        assertThrows(IllegalArgumentException.class, () -> db.getUpdatesSince(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> db.getUpdatesSince(1, 0));
        List<WalUpdate> none = db.getUpdatesSince(db.latestSequenceNumber() + 100, 10);
        assertEquals(List.of(), none);
        db.close();
        assertThrows(IllegalStateException.class, db::latestSequenceNumber);
        assertThrows(IllegalStateException.class, () -> db.getUpdatesSince(1, 1));
    }
}
