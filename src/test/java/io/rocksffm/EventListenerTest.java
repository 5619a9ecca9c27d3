package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.EventListener.BackgroundError;
import io.rocksffm.EventListener.CompactionJobInfo;
import io.rocksffm.EventListener.ExternalFileIngestionInfo;
import io.rocksffm.EventListener.FlushJobInfo;
import io.rocksffm.EventListener.MemTableInfo;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Upcalls;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.Random;

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
                try (RocksIterator it = db.newIterator(cf, ReadOptions.DEFAULT)) {
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
        Random random = new Random(16);
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

    /** A merge operator whose full merges fail (counted), so that a flush meeting a put and a merge fails. */
    static final class FailingMerge implements MergeOperator {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public String name() {
            return "events.FailingMerge";
        }

        @Override
        public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands operands, ValueOutput result) {
            calls.incrementAndGet();
            throw new IllegalStateException("merge failure (expected by the test)");
        }
    }

    /**
     * A background error through the C API: a flush meets a put and a merge of one key, its full
     * merge fails (the operator throws), the flush fails with Corruption (RocksDB's default
     * failure scope of a merge, kTryMerge, fails the whole flush), and RocksDB reports it as a
     * background error of reason 5 (a flush's table file: kFlushNoWAL), unrecoverable with
     * paranoid checks (the default): later writes are refused. (The C API offers no other
     * reliable trigger: no custom or fault-injecting Env, no full-disk simulation.)
     */
    @Test
    void listenersSeeBackgroundErrors() throws Exception {
        assumeTrue(supported(), "the engine has no event listeners");
        List<BackgroundError> errors = new CopyOnWriteArrayList<>();
        List<FlushJobInfo> flushes = new CopyOnWriteArrayList<>();
        EventListener listener = new EventListener() {
            @Override
            public void onBackgroundError(BackgroundError error) {
                errors.add(error);
            }

            @Override
            public void onFlushCompleted(FlushJobInfo info) {
                flushes.add(info);
            }
        };
        FailingMerge merge = new FailingMerge();
        try (Options options = new Options().setCreateIfMissing(true).setMergeOperator(merge).addEventListener(listener);
             RocksDB db = RocksDB.open(dir.resolve("bgerror"), options)) {
            db.put(bytes("a"), bytes("fine"));
            db.flush(true);
            assertEquals(List.of(), errors, "a good flush is no error");
            assertEquals(1, flushes.size());
            db.put(bytes("k"), bytes("base"));
            db.merge(bytes("k"), bytes("operand"));
            RocksDBException flushError = assertThrows(RocksDBException.class, () -> db.flush(true));
            awaitAtLeast(errors, 1);
            assertEquals(1, errors.size(), errors.toString());
            BackgroundError error = errors.get(0);
            // RocksDB 10.10.1 (FlushMemTableToOutputFile) reports a failed table file write
            // whose WAL sync succeeded as kFlushNoWAL (5), whatever the WAL's size
            assertEquals(5, error.reason(), "BackgroundErrorReason::kFlushNoWAL");
            assertNotNull(error.status());
            assertEquals(RocksDBException.Code.CORRUPTION, error.status().code(), error.status().getMessage());
            assertTrue(merge.calls.get() >= 1, "the flush ran the failing merge");
            assertEquals(1, flushes.size(), "the failed flush completed nothing");
            RocksDBException refused = assertThrows(RocksDBException.class, () -> db.put(bytes("x"), bytes("y")));
            assertEquals("fine", string(db.get(bytes("a"))), "reads go on");
            System.out.println("[rocksffm] background error " + error + "; flush(): " + flushError.getMessage()
                    + "; a later put: " + refused.getMessage());
        }
    }

    /**
     * A 64 KiB write buffer on a family written with 400 puts of 1 KiB and 40 deletes: RocksDB
     * seals its memtables as they fill (and at the last, manual, flush), and the sealed
     * memtables' entries, deletes and sequence numbers add up to exactly what was written.
     */
    @Test
    void listenersSeeSealedMemTables() throws InterruptedException {
        assumeTrue(supported(), "the engine has no event listeners");
        Recorder recorder = new Recorder();
        try (Options options = new Options().setCreateIfMissing(true).addEventListener(recorder);
             Options small = new Options().setWriteBufferSize(64 << 10).setCompression(Compression.NONE);
             RocksDB db = RocksDB.open(dir.resolve("sealed"), options)) {
            ColumnFamilyHandle cf = db.createColumnFamily("small", small);
            byte[] value = new byte[1024];
            int puts = 0;
            int deletes = 0;
            for (int i = 0; i < 400; i++) {
                db.put(cf, bytes("key" + i), value);
                puts++;
                if (i % 10 == 9) {
                    db.delete(cf, bytes("key" + (i - 5)));
                    deletes++;
                }
            }
            int sealedByWrites = recorder.sealed.size();
            db.flush(cf, true);
            List<MemTableInfo> sealed = new ArrayList<>(recorder.sealed);
            System.out.println("[rocksffm] sealed memtables: " + sealed);
            assertTrue(sealedByWrites >= 4, "440 KiB through a 64 KiB buffer sealed " + sealedByWrites);
            assertEquals(sealedByWrites + 1, sealed.size(), "the manual flush sealed the last one");
            long entries = 0;
            long deleted = 0;
            long nextSeqno = sealed.get(0).firstSeqno();
            assertEquals(1, nextSeqno, "the first write of a new database has sequence number 1");
            for (MemTableInfo m : sealed) {
                assertEquals("small", m.columnFamily());
                assertEquals(nextSeqno, m.firstSeqno(), "one family written: memtables follow each other");
                assertTrue(m.earliestSeqno() <= m.firstSeqno(), m.toString());
                assertTrue(m.numEntries() > 0);
                nextSeqno += m.numEntries();
                entries += m.numEntries();
                deleted += m.numDeletes();
            }
            assertEquals(puts + deletes, entries);
            assertEquals(deletes, deleted);
            long deadline = System.nanoTime() + 10_000_000_000L; // (flushes may report after their install)
            while (recorder.flushes.stream().noneMatch(f -> f.reason() == 0x06) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(recorder.flushes.stream().anyMatch(f -> f.reason() == 0x06 && f.columnFamily().equals("small")),
                    "a full write buffer flushed (FlushReason::kWriteBufferFull): " + recorder.flushes);
            cf.close();
        }
    }

    /**
     * Two table files written with {@link SstFileWriter} and ingested into a family in one call
     * (copied): one callback per file, naming the family and a table file inside the database
     * with the source file's size; the keys then read back.
     */
    @Test
    void listenersSeeIngestedFiles() throws Exception {
        assumeTrue(supported(), "the engine has no event listeners");
        List<ExternalFileIngestionInfo> ingested = new CopyOnWriteArrayList<>();
        EventListener listener = new EventListener() {
            @Override
            public void onExternalFileIngested(ExternalFileIngestionInfo info) {
                ingested.add(info);
            }
        };
        Path dbPath = dir.resolve("ingest");
        List<Path> files = List.of(dir.resolve("one.sst"), dir.resolve("two.sst"));
        try (Options options = new Options().setCreateIfMissing(true).addEventListener(listener);
             RocksDB db = RocksDB.open(dbPath, options);
             IngestExternalFileOptions copy = new IngestExternalFileOptions()) {
            ColumnFamilyHandle cf = db.createColumnFamily("bulk", options);
            for (int f = 0; f < files.size(); f++) {
                try (SstFileWriter w = SstFileWriter.open(options, files.get(f))) {
                    for (int i = 0; i < 50; i++) {
                        w.put(bytes("f" + f + "k" + (10 + i)), bytes("v" + f + i));
                    }
                    w.finish();
                }
            }
            db.ingestExternalFile(cf, files, copy);
            assertEquals(2, ingested.size(), "one callback per file, before the call returns: " + ingested);
            List<Long> sizes = new ArrayList<>();
            for (ExternalFileIngestionInfo info : ingested) {
                assertEquals("bulk", info.columnFamily());
                Path internal = Path.of(info.internalFilePath());
                assertTrue(Files.isRegularFile(internal), internal.toString());
                assertEquals(dbPath.toRealPath(), internal.getParent().toRealPath(), "inside the database");
                assertTrue(internal.getFileName().toString().endsWith(".sst"), internal.toString());
                sizes.add(Files.size(internal));
            }
            assertNotEquals(ingested.get(0).internalFilePath(), ingested.get(1).internalFilePath());
            assertEquals(List.of(Files.size(files.get(0)), Files.size(files.get(1))).stream().sorted().toList(),
                    sizes.stream().sorted().toList(), "the copies have the written files' sizes");
            assertTrue(Files.exists(files.get(0)) && Files.exists(files.get(1)), "copied, not moved");
            assertEquals("v149", string(db.get(cf, bytes("f1k59"))));
            assertNull(db.get(bytes("f1k59")), "not in the default family");
            System.out.println("[rocksffm] ingested " + ingested);
            cf.close();
        }
    }

    /**
     * Listeners that throw on an ingested file and on a background error: the ingestion and the
     * failing flush report as without the listener, and every failure (the listener's and the
     * failing merge's) is counted.
     */
    @Test
    void aListenerThrowingOnIngestionAndBackgroundErrorDoesNotCrash() throws Exception {
        assumeTrue(supported(), "the engine has no event listeners");
        AtomicInteger calls = new AtomicInteger();
        EventListener bad = new EventListener() {
            @Override
            public void onExternalFileIngested(ExternalFileIngestionInfo info) {
                calls.incrementAndGet();
                throw new IllegalStateException("listener failure (expected by the test)");
            }

            @Override
            public void onBackgroundError(BackgroundError error) {
                calls.incrementAndGet();
                throw new AssertionError("listener failure (expected by the test)");
            }
        };
        FailingMerge merge = new FailingMerge();
        long failures = Upcalls.failureCount();
        Path sst = dir.resolve("bad.sst");
        try (Options options = new Options().setCreateIfMissing(true).setMergeOperator(merge).addEventListener(bad);
             RocksDB db = RocksDB.open(dir.resolve("badlistener"), options);
             IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            try (SstFileWriter w = SstFileWriter.open(options, sst)) {
                w.put(bytes("i"), bytes("ingested")).finish();
            }
            db.ingestExternalFile(List.of(sst), ingest);
            assertEquals(1, calls.get());
            assertEquals("ingested", string(db.get(bytes("i"))));
            db.put(bytes("k"), bytes("base"));
            db.merge(bytes("k"), bytes("operand"));
            assertThrows(RocksDBException.class, () -> db.flush(true));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (calls.get() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(2, calls.get(), "the background error reached the listener");
        }
        assertEquals(calls.get() + merge.calls.get(), Upcalls.failureCount() - failures,
                "the listener's 2 failures and the merge operator's are counted");
    }

    /** Waits up to 10 s for {@code list} to hold {@code n} elements (for callbacks on other threads). */
    private static void awaitAtLeast(List<?> list, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (list.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }
}
