package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

class ReadOptionsTest {
    @TempDir
    Path dir;

    @Test
    void aCallerLockingItsOptionsBlocksNoRead() throws Exception {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            Thread locker = Thread.ofPlatform().start(() -> {
                synchronized (ro) { // the caller's own use of its object's monitor
                    held.countDown();
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            held.await();
            try {
                assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                    ro.setPrefetchBytes(4096).setIterateUpperBound(MemorySegment.ofArray(bytes("z")));
                    try (RocksIterator it = db.newIterator(ro)) {
                        it.seekToFirst();
                    }
                    ro.setSnapshot(null);
                });
            } finally {
                done.countDown();
                locker.join();
            }
        }
    }

    @Test
    void prefetchIsAnOptInOfTheReadOptions() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            for (int i = 0; i < 500; i++) {
                db.put(bytes(String.format("k%04d", i)), bytes("v"));
            }
            assertEquals(0, ro.prefetchBytes(), "off by default");
            assertThrows(IllegalArgumentException.class, () -> ro.setPrefetchBytes(-1));
            assertEquals(0, ro.prefetchBytes(), "unchanged by a refused size");
            try (RocksIterator plain = db.newIterator(ro)) {
                assertSame(ro, ro.setPrefetchBytes(1 << 16));
                assertEquals(1 << 16, ro.prefetchBytes());
                try (RocksIterator prefetching = db.newIterator(ro)) {
                    int plainRuns = 0;
                    int prefetchRuns = 0;
                    plain.seekToFirst();
                    prefetching.seekToFirst();
                    for (; prefetching.isValid(); prefetching.next(), plain.next()) {
                        assertArrayEquals(plain.keyBytes(), prefetching.keyBytes());
                        plainRuns += plain.servingFromRun() ? 1 : 0;
                        prefetchRuns += prefetching.servingFromRun() ? 1 : 0;
                    }
                    assertFalse(plain.isValid());
                    assertEquals(0, plainRuns, "made before the option was set: no prefetch");
                    assertTrue(prefetchRuns > 0, "made after: served from runs");
                }
            }
        }
        ReadOptions closed = new ReadOptions();
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.setPrefetchBytes(1));
    }

    @Test
    void settersReachRocksDB() {
        try (ReadOptions ro = new ReadOptions()) {
            assertTrue(ro.verifyChecksums());
            assertTrue(ro.fillCache());
            assertFalse(ro.setVerifyChecksums(false).verifyChecksums());
            assertFalse(ro.setFillCache(false).fillCache());
            assertTrue(ro.setFillCache(true).fillCache());
            assertTrue(ro.setPrefixSameAsStart(true).prefixSameAsStart());
            assertTrue(ro.setTotalOrderSeek(true).totalOrderSeek());
            assertEquals(1 << 20, ro.setReadaheadSize(1 << 20).readaheadSize());
            assertTrue(ro.setTailing(true).tailing());
            assertThrows(IllegalArgumentException.class, () -> ro.setReadaheadSize(-1));
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
    void boundsAreCopiedAndApplyToIterators() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            for (char c = 'a'; c <= 'e'; c++) {
                db.put(bytes(String.valueOf(c)), bytes("v"));
            }
            byte[] lower = bytes("b");
            byte[] upper = bytes("d");
            ro.setIterateLowerBound(MemorySegment.ofArray(lower)).setIterateUpperBound(MemorySegment.ofArray(upper));
            lower[0] = 'a'; // the options own a copy
            upper[0] = 'z';
            StringBuilder seen = new StringBuilder();
            db.forEach(ro, (k, v) -> seen.append((char) k.get(ValueLayout.JAVA_BYTE, 0)));
            assertEquals("bc", seen.toString());
            // an empty upper bound admits nothing; null removes a bound
            ro.setIterateUpperBound(MemorySegment.ofArray(new byte[0]));
            seen.setLength(0);
            db.forEach(ro, (k, v) -> seen.append('x'));
            assertEquals("", seen.toString());
            ro.setIterateUpperBound(null).setIterateLowerBound(null);
            db.forEach(ro, (k, v) -> seen.append((char) k.get(ValueLayout.JAVA_BYTE, 0)));
            assertEquals("abcde", seen.toString());
        }
    }

    @Test
    void closedThrowsIllegalState() {
        ReadOptions ro = new ReadOptions();
        ro.close();
        ro.close();
        assertThrows(IllegalStateException.class, () -> ro.setFillCache(true));
        assertThrows(IllegalStateException.class, ro::verifyChecksums);
        assertThrows(IllegalStateException.class, () -> ro.setIterateLowerBound(null));
        assertThrows(IllegalStateException.class, () -> ro.setSnapshot(null));
        assertThrows(IllegalStateException.class, ro::snapshot);
    }

    // ---- RocksDB 11 settings (issue 30) ---------------------------------------------------------

    @Test
    void rocksDB11SettingsReachRocksDB() {
        try (ReadOptions ro = new ReadOptions()) {
            boolean refresh = Gated.since11("rocksdb_readoptions_set_auto_refresh_iterator_with_snapshot",
                    () -> ro.setAutoRefreshIteratorWithSnapshot(true));
            boolean multiget = Gated.since11("rocksdb_readoptions_set_optimize_multiget_for_io",
                    () -> ro.setOptimizeMultigetForIo(false));
            if (!refresh || !multiget) {
                Gated.supported("rocksdb_readoptions_get_auto_refresh_iterator_with_snapshot",
                        ro::autoRefreshIteratorWithSnapshot);
                Gated.supported("rocksdb_readoptions_get_optimize_multiget_for_io", ro::optimizeMultigetForIo);
                return;
            }
            assertFalse(ro.autoRefreshIteratorWithSnapshot());
            assertTrue(ro.setAutoRefreshIteratorWithSnapshot(true).autoRefreshIteratorWithSnapshot());
            assertFalse(ro.setAutoRefreshIteratorWithSnapshot(false).autoRefreshIteratorWithSnapshot());
            assertTrue(ro.optimizeMultigetForIo()); // RocksDB's default
            assertFalse(ro.setOptimizeMultigetForIo(false).optimizeMultigetForIo());
        }
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("a"), bytes("1"));
            db.flush(true);
            db.put(bytes("b"), bytes("2"));
            ro.setOptimizeMultigetForIo(false);
            assertEquals(Arrays.asList("1", "2", null),
                    db.multiGetAsList(db.defaultColumnFamily(), ro, List.of(bytes("a"), bytes("b"), bytes("c")))
                            .stream().map(TestSupport::string).toList());
        }
    }

    /**
     * An iterator over a snapshot, with the memtable flushed and every file compacted under it:
     * it still sees the snapshot's data, and with auto-refresh it lets go of the old files' version
     * (RocksDB's live version count drops back to 1), without it holds it.
     */
    @Test
    void autoRefreshingSnapshotIteratorsSeeTheSnapshotAfterFlushAndCompaction() {
        assumeTrue(Capabilities.callable("rocksdb_readoptions_set_auto_refresh_iterator_with_snapshot"),
                "the engine has no auto-refreshing iterators");
        assertEquals(1, liveVersionsAfterRewrite(true, dir.resolve("refreshing")));
        assertEquals(2, liveVersionsAfterRewrite(false, dir.resolve("plain")));
    }

    /** Scans a snapshot while its keys are rewritten, flushed and compacted; the live versions at the end. */
    private static long liveVersionsAfterRewrite(boolean autoRefresh, Path path) {
        try (RocksDB db = open(path)) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes(String.format("k%03d", i)), bytes("old" + i));
            }
            db.flush(true);
            try (Snapshot snapshot = db.getSnapshot();
                 ReadOptions ro = new ReadOptions().setSnapshot(snapshot).setAutoRefreshIteratorWithSnapshot(autoRefresh);
                 RocksIterator it = db.newIterator(db.defaultColumnFamily(), ro)) {
                it.seekToFirst();
                int seen = 0;
                for (; seen < 10; seen++, it.next()) {
                    assertEquals("old" + seen, string(it.valueBytes()));
                }
                for (int i = 0; i < 100; i++) {
                    db.put(bytes(String.format("k%03d", i)), bytes("new" + i));
                }
                db.delete(bytes("k050"));
                db.put(bytes("k050x"), bytes("added"));
                db.flush(true);
                db.compactRange();
                assertEquals(2, db.getLongProperty("rocksdb.num-live-versions").getAsLong());
                for (; it.isValid(); seen++, it.next()) {
                    assertEquals(String.format("k%03d", seen), string(it.keyBytes()));
                    assertEquals("old" + seen, string(it.valueBytes()));
                }
                it.status();
                assertEquals(100, seen);
                assertNull(db.get(bytes("k050"))); // the latest state has what the snapshot does not
                assertEquals("new7", string(db.get(bytes("k007"))));
                return db.getLongProperty("rocksdb.num-live-versions").getAsLong();
            }
        }
    }

    /** Issue 32: a block-cache-only read of a key in a table file not yet cached is INCOMPLETE; once cached, it is found. */
    @Test
    void readTierBlockCacheNeedsTheBlockInCache() {
        Path db = dir.resolve("tier");
        try (RocksDB d = open(db)) {
            d.put(bytes("k"), bytes("v"));
            d.flush(true);
        }
        try (RocksDB d = open(db); ReadOptions cacheOnly = new ReadOptions().setReadTier(ReadOptions.ReadTier.BLOCK_CACHE)) {
            assertEquals(ReadOptions.ReadTier.BLOCK_CACHE, cacheOnly.readTier());
            RocksDBException e = assertThrows(RocksDBException.class, () -> d.get(cacheOnly, bytes("k")));
            assertEquals(RocksDBException.Code.INCOMPLETE, e.code());
            assertEquals("v", string(d.get(bytes("k")))); // a normal read fills the cache
            assertEquals("v", string(d.get(cacheOnly, bytes("k"))));
        }
    }

    /** Issue 32: ignoring range deletions shows keys a range deletion hid; the other settings read back. */
    @Test
    void rangeDeletionsPinningAndTimeLimits() {
        try (RocksDB d = open(dir.resolve("ranges")); ReadOptions ro = new ReadOptions()) {
            d.put(bytes("b"), bytes("1"));
            d.deleteRange(bytes("a"), bytes("c"));
            assertNull(d.get(ro, bytes("b")));
            assertFalse(ro.ignoreRangeDeletions());
            assertTrue(ro.setIgnoreRangeDeletions(true).ignoreRangeDeletions());
            assertEquals("1", string(d.get(ro, bytes("b"))));
            assertTrue(ro.setPinData(true).pinData());
            assertEquals(0, ro.deadlineMicros());
            assertEquals(123_456_789L, ro.setDeadlineMicros(123_456_789L).deadlineMicros());
            assertEquals(5_000, ro.setIoTimeoutMicros(5_000).ioTimeoutMicros());
            assertThrows(IllegalArgumentException.class, () -> ro.setDeadlineMicros(-1));
            assertThrows(IllegalArgumentException.class, () -> ro.setIoTimeoutMicros(-1));
            assertThrows(NullPointerException.class, () -> ro.setReadTier(null));
            if (Gated.supported("rocksdb_readoptions_set_async_io", () -> ro.setAsyncIo(true))) {
                assertTrue(ro.setAsyncIo(true).asyncIo());
                assertFalse(ro.setAsyncIo(false).asyncIo());
            } else {
                Gated.supported("rocksdb_readoptions_get_async_io", ro::asyncIo);
            }
        }
    }
}
