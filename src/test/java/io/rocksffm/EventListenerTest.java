package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.EventListener.CompactionJobInfo;
import io.rocksffm.EventListener.FlushJobInfo;
import io.rocksffm.EventListener.MemTableInfo;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Upcalls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventListenerTest {
    @TempDir
    Path dir;

    /** Whether the engine has listeners; if not, that adding one says which function is missing. */
    private static boolean supported() {
        if (Capabilities.callable("rocksdb_eventlistener_create")) {
            return true;
        }
        try (Options options = new Options()) {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> options.addEventListener(new EventListener() {}));
            assertTrue(e.getMessage().contains("rocksdb_eventlistener_create"), e.getMessage());
            System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": " + e.getMessage());
        }
        return false;
    }

    static final class Recorder implements EventListener {
        final List<FlushJobInfo> flushBegins = new CopyOnWriteArrayList<>();
        final List<FlushJobInfo> flushes = new CopyOnWriteArrayList<>();
        final List<CompactionJobInfo> compactionBegins = new CopyOnWriteArrayList<>();
        final List<CompactionJobInfo> compactions = new CopyOnWriteArrayList<>();
        final List<MemTableInfo> sealed = new CopyOnWriteArrayList<>();

        @Override
        public void onFlushBegin(FlushJobInfo info) {
            flushBegins.add(info);
        }

        @Override
        public void onFlushCompleted(FlushJobInfo info) {
            flushes.add(info);
        }

        @Override
        public void onCompactionBegin(CompactionJobInfo info) {
            compactionBegins.add(info);
        }

        @Override
        public void onCompactionCompleted(CompactionJobInfo info) {
            compactions.add(info);
        }

        @Override
        public void onMemTableSealed(MemTableInfo info) {
            sealed.add(info);
        }
    }

    @Test
    void nullIsRefused() {
        try (Options options = new Options()) {
            assertThrows(NullPointerException.class, () -> options.addEventListener(null));
        }
    }

    /** Two flushes then a manual compaction of both files: the listener sees each, with what RocksDB did. */
    @Test
    void listenersSeeFlushesAndCompactions() throws Exception {
        assumeTrue(supported(), "the engine has no event listeners");
        Recorder recorder = new Recorder();
        int registered = Upcalls.liveCount();
        try (Options options = new Options().setCreateIfMissing(true).addEventListener(recorder)) {
            assertEquals(registered + 1, Upcalls.liveCount());
            try (RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
                ColumnFamilyHandle cf = db.createColumnFamily("cf", options);
                for (int i = 0; i < 100; i++) {
                    db.put(cf, bytes("a" + i), bytes("v" + i));
                }
                db.flush(cf, true);
                assertEquals(1, recorder.flushes.size(), "flush completed is called before flush() returns");
                FlushJobInfo first = recorder.flushes.get(0);
                assertEquals("cf", first.columnFamily());
                assertTrue(Files.isRegularFile(Path.of(first.filePath())), first.filePath());
                assertEquals(FlushJobInfo.MANUAL_FLUSH, first.reason());
                assertEquals("cf", recorder.flushBegins.get(0).columnFamily());
                assertTrue(first.smallestSeqno() <= first.largestSeqno());
                assertEquals(99, first.largestSeqno() - first.smallestSeqno(), "100 puts, 100 sequence numbers");
                assertEquals(100, recorder.sealed.get(0).numEntries());
                for (int i = 0; i < 100; i++) {
                    db.put(cf, bytes("a" + i), bytes("w" + i));
                    db.delete(cf, bytes("a" + (i / 2)));
                }
                db.flush(cf, true);
                assertEquals(2, recorder.flushes.size());
                String second = recorder.flushes.get(1).filePath();
                assertTrue(recorder.flushes.get(1).smallestSeqno() > first.largestSeqno());
                db.compactRange(cf, null, null);
                assertEquals(1, recorder.compactions.size(), "compaction completed before compactRange returns");
                CompactionJobInfo c = recorder.compactions.get(0);
                assertEquals("cf", c.columnFamily());
                assertNull(c.status());
                assertEquals(List.of(first.filePath(), second).stream().sorted().toList(),
                        c.inputFiles().stream().sorted().toList());
                assertEquals(2, c.numInputFiles());
                assertEquals(1, c.outputFiles().size());
                assertTrue(Files.isRegularFile(Path.of(c.outputFiles().get(0))));
                // the second memtable flushed the newest entry of each key: 50 puts (a50..a99) and
                // 50 tombstones (a0..a49); the bottommost compaction drops the deleted keys
                assertEquals(200, c.inputRecords(), "100 entries in each input file");
                assertEquals(50, c.outputRecords(), "a50..a99 survive");
                long live = 0;
                try (RocksIterator it = db.newIterator(cf, ReadOptions.DEFAULT, 0)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        live++;
                    }
                }
                assertEquals(live, c.outputRecords(), "the output records are the live keys");
                assertEquals(CompactionJobInfo.MANUAL_COMPACTION, c.reason());
                assertTrue(c.totalInputBytes() > 0 && c.totalOutputBytes() > 0);
                assertEquals(0, c.numCorruptKeys());
                assertEquals(1, recorder.compactionBegins.size());
                assertEquals(c.inputFiles(), recorder.compactionBegins.get(0).inputFiles());
                System.out.println("[rocksffm] listener saw " + recorder.flushes + " and " + c);
                cf.close();
            }
        }
        assertEquals(registered, Upcalls.liveCount(), "RocksDB's destructor released the listener");
    }

    /**
     * Memtables filled faster than a rate-limited flush writes them stop writes (two memtables,
     * RocksDB's default limit): the listener sees the family's condition go to STOPPED and back to
     * NORMAL.
     */
    @Test
    void listenersSeeWriteStalls() {
        assumeTrue(supported(), "the engine has no event listeners");
        List<EventListener.WriteStallInfo> stalls = new CopyOnWriteArrayList<>();
        EventListener listener = new EventListener() {
            @Override
            public void onStallConditionsChanged(EventListener.WriteStallInfo info) {
                stalls.add(info);
            }
        };
        byte[] value = new byte[1024];
        java.util.Random random = new java.util.Random(16);
        try (RateLimiter limiter = RateLimiter.create(512 << 10, 10_000, 10);
             Options options = new Options().setCreateIfMissing(true).setCompression(Compression.NONE)
                     .setWriteBufferSize(64 << 10).setRateLimiter(limiter).addEventListener(listener);
             RocksDB db = RocksDB.open(dir.resolve("stalls"), options)) {
            for (int i = 0; i < 384; i++) {
                random.nextBytes(value);
                db.put(bytes("key" + i), value);
            }
            db.flush(true);
        }
        System.out.println("[rocksffm] stall changes: " + stalls);
        assertFalse(stalls.isEmpty(), "writes stalled");
        assertTrue(stalls.stream().allMatch(s -> s.columnFamily().equals("default")));
        assertTrue(stalls.stream().anyMatch(s -> s.current() == EventListener.WriteStallCondition.STOPPED
                && s.previous() == EventListener.WriteStallCondition.NORMAL), stalls.toString());
        // (RocksDB notifies outside its mutex, from several threads: the order seen may differ)
        assertTrue(stalls.stream().anyMatch(s -> s.current() == EventListener.WriteStallCondition.NORMAL
                && s.previous() == EventListener.WriteStallCondition.STOPPED), stalls.toString());
    }

    /** A listener that throws (also an Error) on every event: RocksDB goes on, the failures are counted. */
    @Test
    void aThrowingListenerDoesNotCrash() {
        assumeTrue(supported(), "the engine has no event listeners");
        AtomicInteger calls = new AtomicInteger();
        EventListener bad = new EventListener() {
            @Override
            public void onFlushCompleted(FlushJobInfo info) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener failure (expected by the test)");
            }

            @Override
            public void onCompactionCompleted(CompactionJobInfo info) {
                calls.incrementAndGet();
                throw new OutOfMemoryError("listener failure (expected by the test)");
            }

            @Override
            public void onMemTableSealed(MemTableInfo info) {
                calls.incrementAndGet();
                throw new StackOverflowError("listener failure (expected by the test)");
            }
        };
        long failures = Upcalls.failureCount();
        try (Options options = new Options().setCreateIfMissing(true).addEventListener(bad);
             RocksDB db = RocksDB.open(dir.resolve("bad"), options)) {
            for (int round = 0; round < 3; round++) {
                db.put(bytes("k" + round), bytes("v"));
                db.flush(true);
            }
            db.compactRange(db.defaultColumnFamily(), null, null);
            assertEquals("v", string(db.get(bytes("k2"))));
        }
        assertEquals(7, calls.get(), "3 seals, 3 flushes, 1 compaction");
        assertEquals(7, Upcalls.failureCount() - failures);
    }

    /** {@link EventListener#flightRecorder()}: the flushes and compactions appear in a JFR recording. */
    @Test
    void flightRecorderEvents() throws Exception {
        assumeTrue(supported(), "the engine has no event listeners");
        Path file = dir.resolve("rocks.jfr");
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable("io.rocksffm.FlushCompleted");
            recording.enable("io.rocksffm.CompactionCompleted");
            recording.start();
            try (Options options = new Options().setCreateIfMissing(true).addEventListener(EventListener.flightRecorder());
                 RocksDB db = RocksDB.open(dir.resolve("jfr"), options)) {
                for (int round = 0; round < 2; round++) {
                    for (int i = 0; i < 50; i++) {
                        db.put(bytes("k" + i), bytes("v" + round));
                    }
                    db.flush(true);
                }
                db.compactRange(db.defaultColumnFamily(), null, null);
            }
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        List<RecordedEvent> flushes = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.rocksffm.FlushCompleted")).toList();
        List<RecordedEvent> compactions = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.rocksffm.CompactionCompleted")).toList();
        assertEquals(2, flushes.size(), events.toString());
        assertEquals("default", flushes.get(0).getString("columnFamily"));
        assertEquals(1, compactions.size());
        assertEquals(100, compactions.get(0).getLong("inputRecords"));
        assertEquals(50, compactions.get(0).getLong("outputRecords"));
        assertEquals("OK", compactions.get(0).getString("status"));
        System.out.println("[rocksffm] JFR: " + flushes.get(0) + compactions.get(0));
    }
}
