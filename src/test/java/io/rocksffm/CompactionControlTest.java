package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DatabaseAdmin#suggestCompactRange} and {@link DatabaseAdmin#cancelAllBackgroundWork}
 * (issue 32): a suggested range gets compacted by background work (level 0 empties below its
 * trigger), a range is checked in the family's order, and cancelled work leaves reads working
 * and the data recovered on reopen.
 */
class CompactionControlTest {
    @TempDir
    Path dir;

    @Test
    void aSuggestedRangeIsCompactedInTheBackground() throws InterruptedException {
        try (Options options = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, options)) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes(String.format("k%03d", i)), bytes("v"));
            }
            db.flush(true);
            db.compactRange(); // a lower level: RocksDB marks files above the last non-empty level only
            for (int round = 0; round < 2; round++) { // two level-0 files, below the trigger (4)
                for (int i = 0; i < 100; i++) {
                    db.put(bytes(String.format("k%03d", i)), bytes("v" + round));
                }
                db.flush(true);
            }
            assertEquals("2", db.getProperty("rocksdb.num-files-at-level0"));
            Thread.sleep(200);
            assertEquals("2", db.getProperty("rocksdb.num-files-at-level0"), "nothing compacts them unasked");
            db.suggestCompactRange(db.defaultColumnFamily(), MemorySegment.ofArray(bytes("k000")),
                    MemorySegment.ofArray(bytes("k099")));
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!db.getProperty("rocksdb.num-files-at-level0").equals("0") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0"), db.getProperty("rocksdb.levelstats"));
            assertEquals("v1", string(db.get(bytes("k050"))));
            db.suggestCompactRange(db.defaultColumnFamily(), null, null); // the whole family
        }
    }

    @Test
    void aRangeIsCheckedInTheFamilysOrder() {
        MemorySegment a = MemorySegment.ofArray(bytes("a"));
        MemorySegment b = MemorySegment.ofArray(bytes("b"));
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir, options);
             Options reverse = Options.fromString(options, "comparator=rocksdb.ReverseBytewiseComparator");
             ColumnFamilyHandle descending = db.createColumnFamily("descending", reverse)) {
            assertThrows(IllegalArgumentException.class, () -> db.suggestCompactRange(db.defaultColumnFamily(), b, a));
            db.suggestCompactRange(db.defaultColumnFamily(), a, b);
            assertThrows(IllegalArgumentException.class, () -> db.suggestCompactRange(descending, a, b));
            db.suggestCompactRange(descending, b, a);
            assertThrows(NullPointerException.class, () -> db.suggestCompactRange(null, a, b));
        }
    }

    @Test
    void cancelledWorkKeepsReadsAndTheDataIsRecovered() {
        try (Options options = new Options().setCreateIfMissing(true)) {
            try (RocksDB db = RocksDB.open(dir, options)) {
                db.put(bytes("flushed"), bytes("1"));
                db.flush(true);
                db.put(bytes("logged"), bytes("2"));
                db.cancelAllBackgroundWork(true);
                assertEquals("1", string(db.get(bytes("flushed"))));
                assertEquals("2", string(db.get(bytes("logged"))));
                db.cancelAllBackgroundWork(false); // again: harmless
            }
            try (RocksDB db = RocksDB.open(dir, options)) {
                assertEquals("1", string(db.get(bytes("flushed"))));
                assertEquals("2", string(db.get(bytes("logged"))));
            }
        }
    }
}
