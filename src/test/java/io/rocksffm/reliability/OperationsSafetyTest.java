package io.rocksffm.reliability;

import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.RocksDB;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls that hung the JVM for good: a backup's progress callback calling its engine, options or
 * database (each waited for the backup running the callback), and calls that wait for background
 * work while it is paused (each waited for a continue that a program with one thread never makes,
 * whatever its timeout). Each scenario runs in a child JVM ({@link OperationsProbe}) that must end
 * in time, exit 0, and show every call ended promptly.
 */
class OperationsSafetyTest {
    @TempDir
    Path dir;

    private String probe(String scenario) throws Exception {
        String text = Reliability.childOutput(OperationsProbe.class, scenario, dir, "DONE");
        assertFalse(text.contains("HANG"), text);
        return text;
    }

    /** The line of {@code step}'s outcome. */
    private static String line(String out, String step) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(step) + " (.*)$").matcher(out);
        assertTrue(m.find(), step + " missing: " + out);
        return m.group(1);
    }

    @Test
    void aProgressCallbackCallingItsEngineOptionsOrDatabaseIsRefusedNotADeadlock() throws Exception {
        Assumptions.assumeTrue(RocksDB.engine().hasFunction("rocksdb_create_backup_options_create"),
                "no backup progress callbacks on this engine");
        String out = probe("backup-callback-reenters");
        for (String call : new String[] {"purgeOldBackups", "createBackup", "backups", "verify", "engineClose",
            "optionsClose", "dbClose", "dbGet", "dbPut", "dbFlush", "dbCheckpoint"}) {
            String got = line(out, call);
            assertTrue(got.startsWith("IllegalStateException") && got.contains("backup progress callback"),
                    call + ": " + got);
            assertEquals("OK open true", line(out, call + " backup"), call + ": the backup completes, the database stays open");
        }
        assertTrue(line(out, "optionsSet").startsWith("IllegalStateException"), out);
        assertEquals("value", line(out, "get after"));
    }

    @Test
    void waitsWhileBackgroundWorkIsPausedEndOrAreRefusedPromptly() throws Exception {
        Assumptions.assumeTrue(RocksDB.engine().hasFunction("rocksdb_pause_background_work"),
                "no pause of background work on this engine");
        boolean waitForCompact = RocksDB.engine().hasFunction("rocksdb_wait_for_compact");
        boolean export = RocksDB.engine().hasFunction("rocksdb_checkpoint_export_column_family");
        String out = probe("paused-waits");
        for (String call : new String[] {"flushWait", "flushNoWait", "flushFamilies", "compactRange", "compactRangeOptions",
            "waitForCompactFlushTimeout", "waitForCompactNoTimeout", "ingestBlocking", "checkpointFlushing",
            "backupFlushing", "exportFamily"}) {
            if (!waitForCompact && call.startsWith("waitForCompact") || !export && call.equals("exportFamily")
                    || !RocksDB.engine().hasFunction("rocksdb_flush_cfs") && call.equals("flushFamilies")) {
                assertTrue(line(out, call).startsWith("UnsupportedOperationException"), call + ": " + out);
                continue;
            }
            String got = line(out, call);
            assertTrue(got.startsWith("IllegalStateException") && got.contains("paused"), call + ": " + got);
        }
        assertTrue(line(out, "close").startsWith("IllegalStateException"), out);
        if (waitForCompact) {
            assertTrue(line(out, "waitForCompactAbortOnPause").startsWith("RocksDBException"), out);
            String timed = line(out, "waitForCompactTimeoutPending");
            assertTrue(timed.startsWith("RocksDBException") && timed.contains("timed out"), timed);
        }
        assertTrue(line(out, "ingestNonBlockingOverlapping").startsWith("RocksDBException"), out);
        for (String call : new String[] {"ingestNonBlockingApart", "checkpointCopyingTheLog", "backupWithoutFlush",
            "flushAfterContinue"}) {
            assertTrue(line(out, call).startsWith("OK"), call + ": " + out);
        }
        if (RocksDB.engine().hasFunction("rocksdb_compact_files_cf")) {
            assertTrue(line(out, "compactFiles").startsWith("OK"), out);
        }
        assertTrue(line(out, "putsNoSlowdown").startsWith("RocksDBException"), "a stalled write fails fast: " + out);
        assertEquals("true", line(out, "ingested"));
        assertEquals("true", line(out, "reopened key199"));
    }

    /**
     * The second, hostile round: a listener or a progress callback pausing the work it is part of
     * (a pause waits for the running jobs: a deadlock), a listener backing up, odd compactFiles
     * inputs, a second move-import of the same export, a read of updates from the largest sequence.
     */
    @Test
    void hostileCallsEndInAnswers() throws Exception {
        String out = probe("hostile");
        assertTrue(line(out, "listenerFlush").startsWith("OK"), out);
        String listener = line(out, "fromListener");
        assertTrue(listener.matches("IllegalStateException .*\\| IllegalStateException .*"), listener);
        if (RocksDB.engine().hasFunction("rocksdb_create_backup_options_create")) {
            assertTrue(line(out, "progressPauses").startsWith("OK"), out);
            String pause = line(out, "progressPause");
            assertTrue(pause.startsWith("IllegalStateException") && pause.contains("backup progress callback"), pause);
        }
        if (RocksDB.engine().hasFunction("rocksdb_compact_files_cf")) {
            assertTrue(line(out, "compactFilesDuplicate").startsWith("OK"), out);
            String mixed = line(out, "compactFilesMixed");
            assertTrue(mixed.startsWith("IllegalArgumentException") && mixed.contains("\"\""), mixed);
            String alias = line(out, "compactFilesAlias"); // passes the check (RocksDB may find it busy)
            assertTrue(alias.startsWith("OK") || alias.startsWith("RocksDBException"), alias);
        }
        assertTrue(line(out, "updatesSinceMax").startsWith("OK"), out);
        if (RocksDB.engine().hasFunction("rocksdb_checkpoint_export_column_family")) {
            assertTrue(line(out, "importMoveOnce").startsWith("OK"), out);
            assertTrue(line(out, "importMoveTwice").startsWith("RocksDBException"), out);
            assertEquals("true", line(out, "m1"));
        }
    }
}
