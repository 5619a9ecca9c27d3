package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.Upcalls;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * CreateBackupOptions and the backups made with them (BackupEngine.createBackup with options,
 * stopBackup, BackupEngineOptions' callback interval), checked against what RocksDB reports of
 * the backups.
 */
class CreateBackupOptionsTest {
    @TempDir
    Path dir;

    private static boolean supported() {
        return Gated.since11("rocksdb_create_backup_options_create", CreateBackupOptions::new);
    }

    /** A database of about 1 MiB of incompressible data in table files. */
    private RocksDB filled() {
        RocksDB db = open(dir.resolve("db"));
        CompactionOptionsTest.write(db, 0, 8000);
        db.flush(true);
        return db;
    }

    private BackupEngineOptions engineOptions(long interval) {
        return new BackupEngineOptions(dir.resolve("backups")).setSync(false).setCallbackTriggerIntervalSize(interval);
    }

    @Test
    void settingsAreWhatWasSet() {
        try (BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("b"))) {
            assertEquals(4 << 20, beo.callbackTriggerIntervalSize()); // RocksDB's default, on every engine
            assertEquals(1 << 16, beo.setCallbackTriggerIntervalSize(1 << 16).callbackTriggerIntervalSize());
            assertThrows(IllegalArgumentException.class, () -> beo.setCallbackTriggerIntervalSize(0));
        }
        assumeTrue(supported(), "the engine has no backup options");
        int live = Upcalls.liveCount();
        try (CreateBackupOptions o = new CreateBackupOptions()) {
            assertFalse(o.flushBeforeBackup());
            assertFalse(o.atomicFlush());
            assertFalse(o.hasProgressCallback());
            assertSame(o, o.setFlushBeforeBackup(true).setAtomicFlush(true).setProgressCallback(() -> {}));
            assertTrue(o.flushBeforeBackup());
            assertTrue(o.atomicFlush());
            assertTrue(o.hasProgressCallback());
            assertEquals(live + 1, Upcalls.liveCount());
            o.setProgressCallback(() -> {}); // the first one is released
            assertEquals(live + 1, Upcalls.liveCount());
            assertFalse(o.setProgressCallback(null).hasProgressCallback());
            assertEquals(live, Upcalls.liveCount());
            o.setProgressCallback(() -> {});
            assertFalse(o.decreaseBackgroundThreadCpuPriority());
            assertEquals(CreateBackupOptions.CpuPriority.NORMAL, o.backgroundThreadCpuPriority());
            for (CreateBackupOptions.CpuPriority p : CreateBackupOptions.CpuPriority.values()) {
                assertEquals(p, o.setBackgroundThreadCpuPriority(p).backgroundThreadCpuPriority());
            }
            assertTrue(o.setDecreaseBackgroundThreadCpuPriority(true).decreaseBackgroundThreadCpuPriority());
            assertThrows(NullPointerException.class, () -> o.setBackgroundThreadCpuPriority(null));
        }
        assertEquals(live, Upcalls.liveCount()); // close released the callback
        CreateBackupOptions closed = new CreateBackupOptions();
        closed.close();
        closed.close();
        assertThrows(IllegalStateException.class, closed::flushBeforeBackup);
        assertThrows(IllegalStateException.class, () -> closed.setProgressCallback(() -> {}));
    }

    /**
     * With one copying thread the callback runs once per interval of bytes copied from the
     * database's files: RocksDB's backup size (less the few bytes of the CURRENT file it writes
     * rather than copies) divided by the interval.
     */
    @Test
    void theProgressCallbackRunsPerIntervalCopied() {
        try (RocksDB db = filled();
             BackupEngineOptions beo = engineOptions(64 << 10);
             BackupEngine engine = BackupEngine.open(beo)) {
            if (!supported()) {
                Gated.supported("rocksdb_backup_engine_stop_backup", engine::stopBackup);
                engine.createBackup(db); // the engine itself works
                return;
            }
            AtomicInteger calls = new AtomicInteger();
            db.put(bytes("unflushed"), bytes("x"));
            try (CreateBackupOptions o = new CreateBackupOptions().setFlushBeforeBackup(true)
                    .setProgressCallback(calls::incrementAndGet)) {
                int id = engine.createBackup(db, o);
                assertEquals(1, id);
                BackupInfo info = engine.backups().get(0);
                assertEquals(id, info.id());
                long expected = info.size() / (64 << 10);
                assertTrue(calls.get() >= expected - 1 && calls.get() <= expected,
                        calls.get() + " calls for " + info.size() + " bytes");
                assertTrue(calls.get() > 5, calls.get() + " calls");
                // the options cannot change while in use, but can again afterwards
                o.setFlushBeforeBackup(false);
                assertEquals(2, engine.createBackup(db, o));
            }
            engine.verify(1);
            Path restored = dir.resolve("restored");
            engine.restore(1, restored);
            try (RocksDB r = open(restored)) {
                assertEquals("x", string(r.get(bytes("unflushed")))); // flushed first, so in the table files
            }
        }
    }

    /** A callback that throws does not stop the backup; the failure is counted, and the options stay usable. */
    @Test
    void aThrowingCallbackIsContained() {
        assumeTrue(supported(), "the engine has no backup options");
        long failures = Upcalls.failureCount();
        try (RocksDB db = filled();
             BackupEngineOptions beo = engineOptions(64 << 10);
             BackupEngine engine = BackupEngine.open(beo);
             CreateBackupOptions o = new CreateBackupOptions().setProgressCallback(() -> {
                 throw new IllegalStateException("callback failure");
             })) {
            int id = engine.createBackup(db, o);
            engine.verify(id);
            assertTrue(Upcalls.failureCount() > failures);
        }
    }

    /** stopBackup from the callback: the backup fails Incomplete, leaves no backup, and the engine stays stopped. */
    @Test
    void stopBackupFromTheCallbackFailsTheBackup() {
        assumeTrue(supported(), "the engine has no backup options");
        try (RocksDB db = filled(); BackupEngineOptions beo = engineOptions(64 << 10)) {
            try (BackupEngine engine = BackupEngine.open(beo);
                 CreateBackupOptions o = new CreateBackupOptions()) {
                AtomicInteger calls = new AtomicInteger();
                o.setProgressCallback(() -> {
                    calls.incrementAndGet();
                    engine.stopBackup();
                });
                RocksDBException e = assertThrows(RocksDBException.class, () -> engine.createBackup(db, o));
                assertEquals(RocksDBException.Code.INCOMPLETE, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("Backup stopped"), e.getMessage());
                assertTrue(calls.get() >= 1); // RocksDB checks the stop before each read of a file
                assertEquals(List.of(), engine.backups());
                try (CreateBackupOptions plain = new CreateBackupOptions()) {
                    e = assertThrows(RocksDBException.class, () -> engine.createBackup(db, plain));
                    assertEquals(RocksDBException.Code.INCOMPLETE, e.code(), e.getMessage());
                }
            }
            try (BackupEngine fresh = BackupEngine.open(beo); CreateBackupOptions o = new CreateBackupOptions()) {
                assertEquals(List.of(), fresh.backups());
                int id = fresh.createBackup(db, o);
                fresh.verify(id);
                assertEquals(1, fresh.backups().size());
            }
        }
    }

    /** stopBackup from another thread while a rate-limited backup runs. */
    @Test
    void stopBackupFromAnotherThreadFailsTheRunningBackup() throws Exception {
        assumeTrue(supported(), "the engine has no backup options");
        try (RocksDB db = filled();
             BackupEngineOptions beo = engineOptions(16 << 10).setBackupRateLimit(256 << 10);
             BackupEngine engine = BackupEngine.open(beo)) {
            CountDownLatch started = new CountDownLatch(1);
            try (CreateBackupOptions o = new CreateBackupOptions().setProgressCallback(started::countDown)) {
                CompletableFuture<Integer> backup = CompletableFuture.supplyAsync(() -> engine.createBackup(db, o));
                assertTrue(started.await(30, TimeUnit.SECONDS));
                assertThrows(IllegalStateException.class, () -> o.setFlushBeforeBackup(true)); // in use
                engine.stopBackup();
                ExecutionException e = assertThrows(ExecutionException.class, () -> backup.get(30, TimeUnit.SECONDS));
                RocksDBException cause = assertInstanceOf(RocksDBException.class, e.getCause());
                assertEquals(RocksDBException.Code.INCOMPLETE, cause.code(), cause.getMessage());
                assertEquals(List.of(), engine.backups());
            }
        }
    }

    /** The options keep the callback reachable while set (the caller holds no reference), and let go of it on close. */
    @Test
    void theCallbackLivesAsLongAsTheOptionsHoldIt() throws Exception {
        assumeTrue(supported(), "the engine has no backup options");
        AtomicInteger calls = new AtomicInteger();
        try (RocksDB db = filled();
             BackupEngineOptions beo = engineOptions(64 << 10);
             BackupEngine engine = BackupEngine.open(beo)) {
            CreateBackupOptions o = new CreateBackupOptions();
            WeakReference<Runnable> weak = setCounter(o, calls);
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            assertNotNull(weak.get());
            engine.createBackup(db, o);
            assertTrue(calls.get() > 0);
            o.close();
            for (int i = 0; i < 50 && weak.get() != null; i++) {
                System.gc();
                Thread.sleep(10);
            }
            assertNull(weak.get(), "the closed options let go of the callback");
        }
    }

    /** Sets a new counting callback on {@code o} and returns only a weak reference to it. */
    private static WeakReference<Runnable> setCounter(CreateBackupOptions o, AtomicInteger calls) {
        Runnable callback = new Runnable() {
            @Override
            public void run() {
                calls.incrementAndGet();
            }
        };
        o.setProgressCallback(callback);
        return new WeakReference<>(callback);
    }

    /** Closing the options while a backup runs with them waits for the backup, which completes. */
    @Test
    void closingTheOptionsWaitsForTheBackupUsingThem() throws Exception {
        assumeTrue(supported(), "the engine has no backup options");
        try (RocksDB db = filled();
             BackupEngineOptions beo = engineOptions(16 << 10).setBackupRateLimit(512 << 10);
             BackupEngine engine = BackupEngine.open(beo)) {
            CountDownLatch started = new CountDownLatch(1);
            CreateBackupOptions o = new CreateBackupOptions().setProgressCallback(started::countDown);
            CompletableFuture<Integer> backup = CompletableFuture.supplyAsync(() -> engine.createBackup(db, o));
            assertTrue(started.await(30, TimeUnit.SECONDS));
            CompletableFuture<Void> close = CompletableFuture.runAsync(o::close);
            Thread.sleep(100);
            assertFalse(backup.isDone(), "the rate-limited backup takes about 2 s");
            assertFalse(close.isDone(), "close waits for the backup");
            int id = backup.get(60, TimeUnit.SECONDS);
            close.get(30, TimeUnit.SECONDS);
            assertTrue(o.isClosed());
            engine.verify(id);
        }
    }

    /**
     * A lowered priority reaches the copying thread: the progress callback runs on it, and Linux
     * reports its nice value (RocksDB sets 19 for LOW).
     */
    @Test
    void aLoweredPriorityReachesTheCopyingThread() {
        assumeTrue(supported(), "the engine has no backup options");
        assumeTrue(Files.exists(Path.of("/proc/thread-self/stat")), "Linux only");
        Set<Integer> nice = ConcurrentHashMap.newKeySet();
        try (RocksDB db = filled();
             BackupEngineOptions beo = engineOptions(64 << 10);
             BackupEngine engine = BackupEngine.open(beo);
             CreateBackupOptions o = new CreateBackupOptions().setDecreaseBackgroundThreadCpuPriority(true)
                     .setBackgroundThreadCpuPriority(CreateBackupOptions.CpuPriority.LOW)
                     .setProgressCallback(() -> nice.add(threadNice()))) {
            engine.verify(engine.createBackup(db, o));
        }
        assertEquals(Set.of(19), nice);
    }

    /** The nice value of the calling thread, from Linux's /proc/thread-self/stat (field 19). */
    private static int threadNice() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(fields[16]); // fields from the state (3rd), so nice (19th) is 16 on
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void badArgumentsAreRefused() {
        assumeTrue(supported(), "the engine has no backup options");
        try (RocksDB db = filled();
             BackupEngineOptions beo = engineOptions(1 << 20);
             BackupEngine engine = BackupEngine.open(beo);
             CreateBackupOptions o = new CreateBackupOptions()) {
            assertThrows(NullPointerException.class, () -> engine.createBackup(null, o));
            assertThrows(NullPointerException.class, () -> engine.createBackup(db, (CreateBackupOptions) null));
            CreateBackupOptions closed = new CreateBackupOptions();
            closed.close();
            assertThrows(IllegalStateException.class, () -> engine.createBackup(db, closed));
            assertEquals(List.of(), engine.backups());
        }
    }
}
