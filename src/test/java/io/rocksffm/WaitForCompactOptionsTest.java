package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Capabilities;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WaitForCompactOptions} and {@link DatabaseAdmin#waitForCompact} (issue 32), checked
 * against RocksDB's properties: a wait with a flush leaves the memtables empty and no compaction
 * pending; a paused database makes an aborting wait fail. Gated on 7.8.3, which lacks them.
 */
class WaitForCompactOptionsTest {
    @TempDir
    Path dir;

    private static boolean supported() {
        return Gated.since11("rocksdb_wait_for_compact_options_create", WaitForCompactOptions::new);
    }

    @Test
    void gettersReadTheSetters() {
        if (!supported()) {
            return;
        }
        try (WaitForCompactOptions o = new WaitForCompactOptions()) {
            assertFalse(o.flush());
            assertFalse(o.abortOnPause());
            assertEquals(Duration.ZERO, o.timeout());
            assertTrue(o.setFlush(true).flush());
            assertTrue(o.setAbortOnPause(true).abortOnPause());
            assertEquals(Duration.ofMillis(1500), o.setTimeout(Duration.ofMillis(1500)).timeout());
            assertEquals(Duration.ofNanos(1000), o.setTimeout(Duration.ofNanos(1999)).timeout()); // whole microseconds
            assertThrows(IllegalArgumentException.class, () -> o.setTimeout(Duration.ofSeconds(-1)));
            assertThrows(NullPointerException.class, () -> o.setTimeout(null));
            if (Gated.supported("rocksdb_wait_for_compact_options_get_wait_for_purge", o::waitForPurge)) {
                assertFalse(o.waitForPurge());
                assertTrue(o.setWaitForPurge(true).waitForPurge());
            }
        }
    }

    @Test
    void aWaitWithFlushLeavesNothingPending() {
        if (!supported()) {
            return;
        }
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir, options);
             WaitForCompactOptions wait = new WaitForCompactOptions().setFlush(true)) {
            for (int round = 0; round < 6; round++) { // past the level-0 trigger (4): a compaction runs
                for (int i = 0; i < 100; i++) {
                    db.put(bytes("k" + i), bytes("v" + round));
                }
                if (round < 5) {
                    db.flush(true);
                }
            }
            assertNotEquals("0", db.getProperty("rocksdb.num-entries-active-mem-table"));
            db.waitForCompact(wait);
            assertEquals("0", db.getProperty("rocksdb.num-entries-active-mem-table"));
            assertEquals("0", db.getProperty("rocksdb.compaction-pending"));
            assertEquals("0", db.getProperty("rocksdb.num-running-compactions"));
            assertEquals("0", db.getProperty("rocksdb.num-running-flushes"));
            assertTrue(Integer.parseInt(db.getProperty("rocksdb.num-files-at-level0")) < 4);
            assertEquals("v5", string(db.get(bytes("k7"))));
        }
    }

    @Test
    void aPausedDatabaseAbortsAWaitThatAsksTo() {
        if (!supported() || !Capabilities.callable("rocksdb_pause_background_work")) { // pausing: RocksDB 11
            return;
        }
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir, options);
             WaitForCompactOptions wait = new WaitForCompactOptions().setAbortOnPause(true)) {
            db.put(bytes("k"), bytes("v"));
            db.pauseBackgroundWork();
            try {
                RocksDBException e = assertThrows(RocksDBException.class, () -> db.waitForCompact(wait));
                assertEquals(RocksDBException.Code.ABORTED, e.code(), e.getMessage());
            } finally {
                db.continueBackgroundWork();
            }
            db.waitForCompact(wait); // nothing paused, nothing to wait for
        }
    }
}
