package io.rocksffm.reliability;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.rocksffm.RocksDB;
import org.junit.jupiter.api.Assumptions;

/**
 * Issue 36: Java callbacks that call into their own database, and objects RocksDB points at that
 * the caller closed first. Each scenario runs in a child JVM ({@link CallbackProbe}): before the
 * fixes they crashed it (SIGSEGV) or hung it; now each must end in time, exit 0 and print what
 * rocksffm did.
 */
class CallbackSafetyTest {
    @TempDir
    Path dir;

    /** Runs {@code scenario} in a child JVM and returns its output, failing on a crash or hang. */
    private String probe(String scenario) throws Exception {
        return probe(scenario, "DONE");
    }

    /** {@link #probe(String)} ending with {@code last} printed (a child that halts prints no DONE). */
    private String probe(String scenario, String last) throws Exception {
        return Reliability.childOutput(CallbackProbe.class, scenario, dir, last);
    }

    @Test
    void aMergeOperatorReadingItsOwnDatabaseIsRefusedNotACrash() throws Exception {
        String out = probe("merge-reads-itself");
        for (String how : new String[] {"get", "getPinned", "iterator", "put", "close"}) {
            assertTrue(out.contains(how + " REENTRY-REFUSED"), how + ": " + out);
            assertTrue(out.contains("get-" + how + " OK"), "the operator caught the refusal: " + out);
        }
    }

    @Test
    void aComparatorCallingItsDatabaseIsRefusedNotAHang() throws Exception {
        String out = probe("comparator-reenters");
        for (String how : new String[] {"put", "get", "close"}) {
            assertTrue(out.contains(how + " REENTRY-REFUSED"), how + ": " + out);
            assertTrue(out.contains("put-" + how + " OK"), how + ": " + out);
        }
    }

    @Test
    void aCompactionFilterClosingItsDatabaseIsRefusedNotAHang() throws Exception {
        String out = probe("filter-closes");
        assertTrue(out.contains("filter REENTRY-REFUSED"), out);
        assertTrue(out.contains("compact OK") && out.contains("value 1"), out);
    }

    @Test
    void aListenerFlushingAndWaitingIsRefusedNotAHang() throws Exception {
        Assumptions.assumeTrue(RocksDB.engine().hasFunction("rocksdb_eventlistener_create"),
                "no event listeners on this engine");
        String out = probe("listener-flushes");
        assertTrue(out.contains("listener REENTRY-REFUSED"), out);
        assertTrue(out.contains("flush OK"), out);
        assertFalse(out.contains("REENTRY-RocksDBException"), out);
    }

    @Test
    void optionsFromStringKeepTheBasesComparatorAlive() throws Exception {
        String out = probe("from-string-base-closed");
        assertTrue(out.contains("first b"), "reverse order: " + out);
        assertTrue(out.contains("open-put OK"), out);
    }

    @Test
    void optionsFromStringKnowTheirReadsCallJavaWithAndWithoutPrefetch() throws Exception {
        String out = probe("from-string-prefetch");
        for (String kind : new String[] {"comparator", "merge", "prefix"}) {
            assertTrue(out.contains(kind + " prefetch 0 scanned 2000"), out);
            assertTrue(out.contains(kind + " prefetch 16384 scanned 2000"), out);
        }
    }

    @Test
    void anSstFileWriterKeepsItsComparatorAfterTheOptionsClose() throws Exception {
        assertTrue(probe("sst-options-closed").contains("sst OK"));
    }

    @Test
    void anIndexedBatchKeepsItsFamiliesComparatorsAfterTheDatabaseCloses() throws Exception {
        String out = probe("wbwi-outlives-db");
        assertTrue(out.contains("wbwi v7"), out);
        assertTrue(out.contains("wbwi the first comparator still ran: true"), "it was released with its database: " + out);
        assertTrue(out.contains("wbwi count 51"), out);
    }

    /**
     * A comparator that always answers "less" made {@code seekToLast} loop forever in native code
     * (RocksDB steps back until a key compares equal to the one it saved). rocksffm answers 0 for
     * equal keys whatever the comparator says (recorded as a failure): iterators, reads, flush and
     * close complete, with whatever order such a comparator gives.
     */
    @Test
    void aComparatorThatAlwaysAnswersLessDoesNotHangIteratorsOrClose() throws Exception {
        String out = probe("always-less");
        for (String phase : new String[] {"memtable", "flushed"}) {
            assertTrue(out.contains(phase + " seekToLast OK"), out);
            assertTrue(out.contains(phase + " scan OK"), out);
            assertTrue(out.contains(phase + " get OK"), out);
        }
        assertTrue(out.contains("closed"), out);
    }

    /**
     * {@code Runtime.halt} (no shutdown hooks) after Java callbacks ran on RocksDB's compaction and
     * flush threads, every database closed: the process ends. Before, the engine's exit-time
     * destructors joined a pool thread blocked detaching from the exiting JVM. Now a database that
     * ran Java code replaces the pool threads when it closes; {@code System.exit} is covered by the
     * shutdown hook.
     */
    @Test
    void haltAndExitCompleteAfterCallbacksRanOnRocksDbThreads() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertTrue(probe("halt-after-callbacks", "closed").contains("callbacks ran"));
            assertTrue(probe("exit-after-callbacks", "closed").contains("callbacks ran"));
        }
    }
}
