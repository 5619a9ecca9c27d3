package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.Snapshot;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * close() racing live calls: worker threads hammer a shared database (get, put, write, getPinned
 * and close, iterate and close, snapshot reads, multiGet, deletes, flushWal, properties) while
 * another thread closes it. The closer retries while RocksDB.close() refuses because iterators,
 * pinned values or snapshots are open. Checked: no crash, no hang (every thread has a deadline),
 * every call either completes or throws IllegalStateException, and close() eventually succeeds
 * (so no refused call leaked a child). CI: ~3 s per test; heavy: 60 s.
 */
class CloseRaceTest {
    private static final int WORKERS = 3;
    private static final long CLOSE_PATIENCE_MS = 10_000;

    @TempDir
    Path dir;

    @Test
    void closingTheDatabaseRacesLiveCalls() throws Exception {
        run(false);
    }

    @Test
    void closingReadOptionsAndTheDatabaseRacesLiveCalls() throws Exception {
        run(true);
    }

    private void run(boolean closeReadOptionsFirst) throws Exception {
        long millis = scale(3_000L, 60_000L);
        long deadline = System.nanoTime() + millis * 1_000_000;
        Random seeds = new Random(seed(42));
        AtomicLong completed = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong closeRetries = new AtomicLong();
        int rounds = 0;
        do {
            round(dir.resolve("db" + rounds), seeds.nextLong(), closeReadOptionsFirst, completed, refused, closeRetries);
            rounds++;
        } while (System.nanoTime() < deadline);
        report("close race%s: rounds: %d, calls completed: %d, calls refused with IllegalStateException: %d, "
                        + "close() refusals while children were open: %d",
                closeReadOptionsFirst ? " (read options closed too)" : "", rounds, completed.get(), refused.get(),
                closeRetries.get());
        assertTrue(refused.get() > 0, "some calls raced the close");
    }

    private static void round(Path path, long seed, boolean closeReadOptionsFirst, AtomicLong completed,
                              AtomicLong refused, AtomicLong closeRetries) throws Exception {
        RocksDB db = open(path);
        ReadOptions sharedRead = new ReadOptions();
        WriteOptions sharedWrite = new WriteOptions();
        for (int i = 0; i < 100; i++) {
            db.put(bytes("k" + i), bytes("v" + i));
        }
        db.put(bytes("sentinel"), bytes("untouched"));
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        Random random = new Random(seed);
        for (int w = 0; w < WORKERS; w++) {
            long workerSeed = random.nextLong();
            workers.add(Thread.ofPlatform().name("racer-" + w).start(() -> {
                try {
                    start.await();
                    work(db, sharedRead, sharedWrite, new Random(workerSeed), stop, completed, refused);
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        long closeDelayNanos = random.nextInt(10_000_000);
        Thread closer = Thread.ofPlatform().name("closer").start(() -> {
            try {
                start.await();
                long t0 = System.nanoTime();
                while (System.nanoTime() - t0 < closeDelayNanos) {
                    Thread.onSpinWait();
                }
                if (closeReadOptionsFirst) {
                    closeRetries.addAndGet(closeRetrying(sharedRead, "ReadOptions"));
                }
                closeRetries.addAndGet(closeRetrying(db, "RocksDB"));
            } catch (Throwable t) {
                failures.add(t);
            } finally {
                stop.set(true); // workers also stop by themselves when they see the database closed
            }
        });
        start.countDown();
        join(closer, CLOSE_PATIENCE_MS + 30_000);
        for (Thread w : workers) {
            join(w, 30_000);
        }
        if (!db.isClosed() || !failures.isEmpty()) {
            AssertionError e = new AssertionError(db.isClosed() ? "failures in a close race"
                    : "RocksDB.close() still refuses after every worker has closed its iterators, pinned values "
                    + "and snapshots: a refused call leaked a child");
            failures.forEach(e::addSuppressed);
            try {
                db.close();
            } catch (IllegalStateException still) {
                e.addSuppressed(still);
            }
            throw e;
        }
        sharedRead.close();
        sharedWrite.close();
        // the database closed cleanly: it reopens with its data
        try (RocksDB again = open(path)) {
            assertEquals("untouched", string(again.get(bytes("sentinel"))));
        }
    }

    /** Closes, retrying while children are open; returns the number of refusals. */
    private static long closeRetrying(AutoCloseable c, String what) throws Exception {
        long refusals = 0;
        long t0 = System.nanoTime();
        while (true) {
            try {
                c.close();
                return refusals;
            } catch (IllegalStateException e) {
                refusals++;
                if (System.nanoTime() - t0 > CLOSE_PATIENCE_MS * 1_000_000) {
                    throw new AssertionError(what + ".close() refused for " + CLOSE_PATIENCE_MS + " ms", e);
                }
                Thread.yield();
            }
        }
    }

    /** Random calls until the database is closed; every IllegalStateException must be explained by a close. */
    private static void work(RocksDB db, ReadOptions sharedRead, WriteOptions sharedWrite, Random r,
                             AtomicBoolean stop, AtomicLong completed, AtomicLong refused) {
        MemorySegment out = MemorySegment.ofArray(new byte[64]);
        try (WriteBatch batch = new WriteBatch(); ReadOptions mine = new ReadOptions()) {
            while (!stop.get()) {
                String k = "k" + r.nextInt(120);
                MemorySegment key = MemorySegment.ofArray(bytes(k));
                try {
                    switch (r.nextInt(12)) {
                        case 0 -> db.get(bytes(k));
                        case 1 -> db.put(bytes(k), bytes("v" + r.nextInt(1000)));
                        case 2 -> db.get(sharedRead, key, out);
                        case 3 -> {
                            batch.clear().put(bytes(k), bytes("b")).delete(bytes("k" + r.nextInt(120)));
                            db.write(sharedWrite, batch);
                        }
                        case 4 -> {
                            PinnedValue pv = db.getPinned(sharedRead, key);
                            if (pv != null) {
                                try (pv) {
                                    pv.toByteArray();
                                }
                            }
                        }
                        case 5, 6 -> {
                            try (RocksIterator it = db.newIterator(sharedRead.setPrefetchBytes(r.nextBoolean() ? 0 : 512))) {
                                it.seekToFirst();
                                for (int i = 0; i < 20 && it.isValid(); i++) {
                                    it.keyBytes();
                                    it.value();
                                    it.next();
                                }
                            }
                        }
                        case 7 -> {
                            try (Snapshot s = db.getSnapshot()) {
                                mine.setSnapshot(s);
                                try {
                                    db.get(mine, key, out);
                                    try (RocksIterator it = db.newIterator(mine)) {
                                        it.seek(key);
                                    }
                                } finally {
                                    mine.setSnapshot(null);
                                }
                            }
                        }
                        case 8 -> db.multiGetAsList(List.of(bytes(k), bytes("k" + r.nextInt(120))));
                        case 9 -> db.put(sharedWrite, key, MemorySegment.ofArray(bytes("p")));
                        case 10 -> db.deleteRange(bytes("k1"), bytes("k10"));
                        default -> {
                            if (r.nextBoolean()) {
                                db.flushWal(false);
                            } else {
                                db.getProperty("rocksdb.num-running-flushes");
                            }
                        }
                    }
                    completed.incrementAndGet();
                } catch (IllegalStateException e) {
                    refused.incrementAndGet();
                    if (db.isClosed()) {
                        return;
                    }
                    if (!sharedRead.isClosed()) {
                        throw new AssertionError("IllegalStateException while nothing was closed", e);
                    }
                }
            }
        }
    }
}
