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

    private static void closeAll(List<WalUpdate> updates) {
        updates.forEach(u -> u.batch().close());
    }

    private static void putAll(RocksDB db, int from, int to) {
        for (int i = from; i < to; i++) {
            db.put(bytes("k" + i), bytes("v" + i));
        }
    }

    /** A consumer whose position the log no longer holds learns it: a gap is an error, never skipped. */
    @Test
    void aPurgedPositionIsAGapNotASkipNorNothingNew() {
        try (RocksDB db = open(dir)) {
            putAll(db, 0, 100);                 // sequence numbers 1 to 100
            db.flush(true);                     // their log file is obsolete: deleted (no TTL, no size limit)
            putAll(db, 100, 110);               // 101 to 110, in a new log file
            assertEquals(110, db.latestSequenceNumber());
            assertEquals(101, db.oldestLoggedSequenceNumber());
            // RocksDB alone returns the batches from 101 on for a reader at 1 or 50
            for (long at : new long[] {0, 1, 50, 100}) {
                RocksDBException gap = assertThrows(RocksDBException.class, () -> db.getUpdatesSince(at, 100));
                assertEquals(RocksDBException.Code.NOT_FOUND, gap.code(), gap.getMessage());
                assertTrue(gap.getMessage().contains("from sequence number " + Math.max(at, 1) + " to 100 ")
                        && gap.getMessage().contains("holds 101 on"), gap.getMessage());
            }
            List<WalUpdate> rest = db.getUpdatesSince(101, 100);
            try {
                assertEquals(10, rest.size());
                assertEquals(101, rest.get(0).sequence());
            } finally {
                closeAll(rest);
            }
            // purged with nothing newer: a gap, not the empty list of "nothing new"
            db.flush(true);
            assertEquals(111, db.oldestLoggedSequenceNumber());
            RocksDBException gap = assertThrows(RocksDBException.class, () -> db.getUpdatesSince(105, 100));
            assertEquals(RocksDBException.Code.NOT_FOUND, gap.code(), gap.getMessage());
            assertTrue(gap.getMessage().contains("105 to 110") && gap.getMessage().contains("none"), gap.getMessage());
            assertEquals(List.of(), db.getUpdatesSince(111, 100)); // nothing new
            db.put(bytes("after"), bytes("1"));
            List<WalUpdate> next = db.getUpdatesSince(111, 100);
            assertEquals(1, next.size());
            assertEquals(111, next.get(0).sequence());
            closeAll(next);
        }
    }

    /** Writes not logged are a gap too: before the first batch, and between two (the list ends before it). */
    @Test
    void unloggedWritesAreAGap() {
        try (RocksDB db = open(dir); WriteOptions noLog = new WriteOptions().setDisableWAL(true)) {
            putAll(db, 0, 3);                                   // 1 to 3, logged
            db.put(noLog, bytes("quiet"), bytes("1"));           // 4, not logged
            putAll(db, 3, 5);                                   // 5 and 6, logged
            List<WalUpdate> before = db.getUpdatesSince(1, 100);
            try {
                assertEquals(List.of(1L, 2L, 3L), before.stream().map(WalUpdate::sequence).toList());
            } finally {
                closeAll(before);
            }
            RocksDBException gap = assertThrows(RocksDBException.class, () -> db.getUpdatesSince(4, 100));
            assertEquals(RocksDBException.Code.NOT_FOUND, gap.code(), gap.getMessage());
            assertTrue(gap.getMessage().contains("4 to 4") && gap.getMessage().contains("holds 5 on"), gap.getMessage());
            List<WalUpdate> after = db.getUpdatesSince(5, 100);
            assertEquals(List.of(5L, 6L), after.stream().map(WalUpdate::sequence).toList());
            closeAll(after);
            assertEquals(1, db.oldestLoggedSequenceNumber());
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
        assertThrows(IllegalStateException.class, db::oldestLoggedSequenceNumber);
        assertThrows(IllegalStateException.class, () -> db.getUpdatesSince(1, 1));
    }
}
