package io.rocksffm;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.TestSupport.string;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.BatchFormat;
import io.rocksffm.internal.Upcalls;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Java comparators with timestamps: the callbacks RocksDB calls, their failures, sizes, and read-timestamp changes. */
class TimestampedComparatorTest {
    @TempDir
    Path dir;

    /** Bytewise keys, u64 timestamps, counting calls of each callback; throws from compareTimestamp once told to. */
    static class Counting implements TimestampedComparator {
        final AtomicBoolean fail = new AtomicBoolean();
        volatile int timestampCalls;
        volatile int keyCalls;

        @Override
        public String name() {
            return "test.counting.u64ts";
        }

        @Override
        public int timestampSize() {
            return Timestamps.U64_SIZE;
        }

        @Override
        public int compareTimestamp(MemorySegment a, MemorySegment b) {
            timestampCalls++;
            if (fail.get()) {
                throw new IllegalStateException("test failure");
            }
            return Long.compareUnsigned(Timestamps.u64(a), Timestamps.u64(b));
        }

        @Override
        public int compareWithoutTimestamp(MemorySegment a, MemorySegment b) {
            keyCalls++;
            return BatchFormat.compareBytewise(a, b);
        }
    }

    @Test
    void rocksDBCallsTheTimestampAndKeyCallbacks() {
        Counting c = new Counting();
        try (Options o = new Options().setCreateIfMissing(true).setComparator(c);
             RocksDB db = RocksDB.open(dir, o); ReadOptions ro = new ReadOptions().setTimestamp(TimestampedDBTest.ts(100))) {
            TimestampedDB tdb = TimestampedDB.of(db);
            for (int t = 1; t <= 50; t++) {
                tdb.put(db.defaultColumnFamily(), bytes("k" + (t % 5)), Timestamps.u64(t), bytes("v" + t));
            }
            db.flush(true);
            assertEquals("v50", string(tdb.get(db.defaultColumnFamily(), ro, bytes("k0")).value()));
            assertTrue(c.timestampCalls > 0, "compareTimestamp called by RocksDB");
            assertTrue(c.keyCalls > 0, "compareWithoutTimestamp called");
            // the full history low compares timestamps through compareTimestamp
            long before = c.timestampCalls;
            tdb.increaseFullHistoryTsLow(db.defaultColumnFamily(), Timestamps.u64(10));
            assertTrue(c.timestampCalls > before);
        }
    }

    @Test
    void aThrowingTimestampCallbackDoesNotCrash() {
        Counting c = new Counting();
        try (Options o = new Options().setCreateIfMissing(true).setComparator(c);
             RocksDB db = RocksDB.open(dir, o)) {
            TimestampedDB tdb = TimestampedDB.of(db);
            tdb.increaseFullHistoryTsLow(db.defaultColumnFamily(), Timestamps.u64(10));
            long failures = Upcalls.failureCount();
            c.fail.set(true);
            try {
                tdb.increaseFullHistoryTsLow(db.defaultColumnFamily(), Timestamps.u64(20)); // answered bytewise
            } catch (RocksDBException e) {
                // bytewise of the little-endian bytes may call 20 older than 10: refused, not crashed
                assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            }
            assertTrue(Upcalls.failureCount() > failures, "the failure is counted");
        }
    }

    @Test
    void aTimestampSizeMustBePositive() {
        TimestampedComparator zero = new Counting() {
            @Override
            public int timestampSize() {
                return 0;
            }
        };
        try (Options o = new Options()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.setComparator(zero));
            assertTrue(e.getMessage().contains("timestamp size"), e.getMessage());
            assertNull(o.comparator(), "the options are unchanged");
        }
    }

    @Test
    void readTimestampsCannotChangeUnderAnOpenIterator() {
        try (RocksDB db = TimestampedDBTest.open(dir); ReadOptions ro = new ReadOptions().setTimestamp(TimestampedDBTest.ts(5))) {
            TimestampedDB.of(db).put(db.defaultColumnFamily(), bytes("k"), Timestamps.u64(1), bytes("v"));
            List<String> seen = new ArrayList<>();
            try (RocksIterator it = db.newIterator(ro)) {
                assertThrows(IllegalStateException.class, () -> ro.setTimestamp(TimestampedDBTest.ts(0)));
                assertThrows(IllegalStateException.class, () -> ro.setIterStartTimestamp(TimestampedDBTest.ts(0)));
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    seen.add(string(it.keyBytes()));
                }
            }
            assertEquals(List.of("k"), seen, "the iterator read as of 5");
            ro.setTimestamp(TimestampedDBTest.ts(0)); // once the iterator closed
            assertNull(TimestampedDB.of(db).get(db.defaultColumnFamily(), ro, bytes("k")), "nothing as of 0");
            ro.setTimestamp(null); // removed: a timestamped family then refuses the read
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TimestampedDB.of(db).get(db.defaultColumnFamily(), ro, bytes("k")));
            assertTrue(e.getMessage().contains("ReadOptions.setTimestamp"), e.getMessage());
            RocksDBException fromEngine = assertThrows(RocksDBException.class, () -> db.get(bytes("k")));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, fromEngine.code(), fromEngine.getMessage());
        }
    }

    /** A plain family's iterator has no timestamps. */
    @Test
    void aPlainFamilysIteratorHasEmptyTimestamps() {
        try (RocksDB db = TestSupport.open(dir)) {
            db.put(bytes("k"), bytes("v"));
            try (RocksIterator it = db.newIterator(ReadOptions.DEFAULT)) {
                it.seekToFirst();
                assertEquals(0, it.timestamp().length);
                it.next();
                assertThrows(IllegalStateException.class, it::timestamp, "not on an entry");
            }
        }
    }
}
