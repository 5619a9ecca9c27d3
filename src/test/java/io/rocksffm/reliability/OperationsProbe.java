package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;

import io.rocksffm.BackupEngine;
import io.rocksffm.BackupEngineOptions;
import io.rocksffm.Checkpoint;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.CompactionOptions;
import io.rocksffm.CreateBackupOptions;
import io.rocksffm.FlushOptions;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.Options;
import io.rocksffm.RocksDB;
import io.rocksffm.SstFileWriter;
import io.rocksffm.WaitForCompactOptions;
import io.rocksffm.WriteOptions;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Set;
import java.util.HashSet;
import java.util.Random;
import io.rocksffm.EventListener;
import io.rocksffm.ExportImportFilesMetaData;
import io.rocksffm.ImportColumnFamilyOptions;
import java.util.function.Supplier;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Scenarios of {@link OperationsSafetyTest} that hung the JVM: a backup's progress callback
 * calling its engine, options or database, and calls that wait for background work while it is
 * paused. Each runs in a child JVM; prints one line per step and {@code DONE} at the end, and a
 * call still running after a few seconds prints {@code HANG} (the parent fails on it).
 *
 * <p>Arguments: scenario, directory.
 */
public final class OperationsProbe {
    private OperationsProbe() {}

    /** How long a call may take before it counts as hung. */
    private static final long PATIENCE_MS = 4_000;

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        switch (args[0]) {
            case "backup-callback-reenters" -> backupCallbackReenters(dir);
            case "paused-waits" -> pausedWaits(dir);
            case "hostile" -> hostile(dir);
            case "disk-full" -> diskFull(dir, args.length > 2 && args[2].equals("no-slowdown"));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("DONE");
        System.out.flush();
    }

    /** What a call did: OK, or the exception's simple name and message, on one line. */
    private static String outcome(Runnable call) {
        try {
            call.run();
            return "OK";
        } catch (Throwable t) {
            return t.getClass().getSimpleName() + " " + String.valueOf(t.getMessage()).replace('\n', ' ');
        }
    }

    /**
     * Runs {@code call} on another thread and prints {@code name} with its outcome, or
     * {@code name HANG} if it is still running after {@link #PATIENCE_MS} (then {@code unstick}
     * runs, to let it end before the next step).
     */
    private static void timed(String name, Runnable call, Runnable unstick) throws InterruptedException {
        AtomicReference<String> result = new AtomicReference<>();
        long start = System.nanoTime();
        Thread t = Thread.ofPlatform().daemon().start(() -> result.set(outcome(call)));
        t.join(PATIENCE_MS);
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (t.isAlive()) {
            System.out.println(name + " HANG");
            System.out.flush();
            unstick.run();
            t.join(PATIENCE_MS);
            System.out.println(name + " after unstick " + result.get());
        } else {
            System.out.println(name + " " + result.get() + " in " + ms + " ms");
        }
        System.out.flush();
    }

    private static void fill(RocksDB db, int from, int n) {
        byte[] value = new byte[1000];
        for (int i = from; i < from + n; i++) {
            db.put(bytes("key" + i), value);
        }
    }

    /**
     * A backup whose progress callback makes one call of the engine, its options or the
     * database, for each such call; prints what the call got and whether the backup completed.
     */
    private static void backupCallbackReenters(Path dir) throws Exception {
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
            fill(db, 0, 200);
            db.flush(true);
            String[] actions = {"purgeOldBackups", "createBackup", "backups", "verify", "engineClose",
                "optionsClose", "optionsSet", "dbClose", "dbGet", "dbPut", "dbFlush", "dbCheckpoint"};
            int round = 0;
            for (String action : actions) {
                round++;
                Path backups = dir.resolve("backups" + round);
                try (BackupEngineOptions beo = new BackupEngineOptions(backups).setCallbackTriggerIntervalSize(1);
                     BackupEngine engine = BackupEngine.open(beo);
                     CreateBackupOptions cbo = new CreateBackupOptions()) {
                    AtomicReference<String> got = new AtomicReference<>();
                    Consumer<String> once = r -> got.compareAndSet(null, r);
                    Runnable call = switch (action) {
                        case "purgeOldBackups" -> () -> engine.purgeOldBackups(1);
                        case "createBackup" -> () -> engine.createBackup(db, false);
                        case "backups" -> engine::backups;
                        case "verify" -> () -> engine.verify(1);
                        case "engineClose" -> engine::close;
                        case "optionsClose" -> cbo::close;
                        case "optionsSet" -> () -> cbo.setFlushBeforeBackup(true);
                        case "dbClose" -> db::close;
                        case "dbGet" -> () -> db.get(bytes("key1"));
                        case "dbPut" -> () -> db.put(bytes("x"), bytes("y"));
                        case "dbFlush" -> () -> db.flush(true);
                        case "dbCheckpoint" -> () -> db.createCheckpoint(backups.resolveSibling("cp" + action));
                        default -> throw new IllegalArgumentException(action);
                    };
                    cbo.setProgressCallback(() -> {
                        if (got.get() == null) {
                            once.accept(outcome(call));
                        }
                    });
                    String backup = outcome(() -> engine.createBackup(db, cbo));
                    System.out.println(action + " " + got.get());
                    System.out.println(action + " backup " + backup + " open " + !db.isClosed());
                    System.out.flush();
                }
            }
            System.out.println("get after " + new String(db.get(bytes("key1")) == null ? "null" : "value"));
        }
    }

    /**
     * Every call that may wait for background work, made while it is paused: each ends (refused,
     * or done, or failed by RocksDB) within {@link #PATIENCE_MS}.
     */
    private static void pausedWaits(Path dir) throws Exception {
        Path overlapping = dir.resolve("overlapping.sst");
        Path apart = dir.resolve("apart.sst");
        try (Options o = new Options().setCreateIfMissing(true)) {
            try (SstFileWriter w = SstFileWriter.open(o, overlapping)) {
                w.put(bytes("key5"), bytes("ingested"));
                w.finish();
            }
            try (SstFileWriter w = SstFileWriter.open(o, apart)) {
                w.put(bytes("zz"), bytes("ingested"));
                w.finish();
            }
        }
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(64 << 10);
             RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
            fill(db, 0, 200);
            db.flush(true);
            fill(db, 0, 10);
            db.pauseBackgroundWork();
            Runnable unstick = () -> {
                db.continueBackgroundWork();
                db.pauseBackgroundWork();
            };
            timed("flushWait", () -> db.flush(true), unstick);
            timed("flushNoWait", () -> db.flush(false), unstick);
            timed("flushFamilies", () -> {
                try (FlushOptions fo = new FlushOptions()) {
                    db.flush(List.of(db.defaultColumnFamily()), fo);
                }
            }, unstick);
            timed("compactRange", db::compactRange, unstick);
            timed("compactRangeOptions", () -> {
                try (CompactRangeOptions cro = new CompactRangeOptions()) {
                    db.compactRange(db.defaultColumnFamily(), cro, null, null);
                }
            }, unstick);
            timed("waitForCompactFlushTimeout", () -> {
                try (WaitForCompactOptions w = new WaitForCompactOptions().setFlush(true)
                        .setTimeout(Duration.ofSeconds(1))) {
                    db.waitForCompact(w);
                }
            }, unstick);
            timed("waitForCompactNoTimeout", () -> {
                try (WaitForCompactOptions w = new WaitForCompactOptions()) {
                    db.waitForCompact(w);
                }
            }, unstick);
            timed("ingestBlocking", () -> {
                try (IngestExternalFileOptions io = new IngestExternalFileOptions()) {
                    db.ingestExternalFile(List.of(overlapping), io);
                }
            }, unstick);
            timed("checkpointFlushing", () -> db.createCheckpoint(dir.resolve("cp1")), unstick);
            timed("backupFlushing", () -> {
                try (BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("backups"));
                     BackupEngine engine = BackupEngine.open(beo)) {
                    engine.createBackup(db, true);
                }
            }, unstick);
            timed("exportFamily", () -> {
                try (Checkpoint cp = Checkpoint.create(db)) {
                    cp.exportColumnFamily(db.defaultColumnFamily(), dir.resolve("export")).close();
                }
            }, unstick);
            timed("close", db::close, unstick);
            // What needs no background work runs, or RocksDB fails it at once
            timed("waitForCompactAbortOnPause", () -> {
                try (WaitForCompactOptions w = new WaitForCompactOptions().setAbortOnPause(true)) {
                    db.waitForCompact(w);
                }
            }, unstick);
            timed("ingestNonBlockingOverlapping", () -> {
                try (IngestExternalFileOptions io = new IngestExternalFileOptions().setAllowBlockingFlush(false)) {
                    db.ingestExternalFile(List.of(overlapping), io);
                }
            }, unstick);
            timed("ingestNonBlockingApart", () -> {
                try (IngestExternalFileOptions io = new IngestExternalFileOptions().setAllowBlockingFlush(false)) {
                    db.ingestExternalFile(List.of(apart), io);
                }
            }, unstick);
            timed("checkpointCopyingTheLog", () -> {
                try (Checkpoint cp = Checkpoint.create(db)) {
                    cp.createCheckpoint(dir.resolve("cp2"), Long.MAX_VALUE);
                }
            }, unstick);
            timed("backupWithoutFlush", () -> {
                try (BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("backups"));
                     BackupEngine engine = BackupEngine.open(beo)) {
                    engine.createBackup(db, false);
                }
            }, unstick);
            if (RocksDB.engine().hasFunction("rocksdb_compact_files_cf")) {
                timed("compactFiles", () -> {
                    try (CompactionOptions co = new CompactionOptions()) {
                        db.compactFiles(co, db.liveFiles().stream().map(f -> Path.of(f.name())).toList(), 6);
                    }
                }, unstick);
            }
            timed("putsNoSlowdown", () -> {
                try (WriteOptions wo = new WriteOptions().setNoSlowdown(true)) {
                    for (int i = 0; i < 5000; i++) {
                        db.put(wo, bytes("key" + i), new byte[1000]);
                    }
                }
            }, unstick);
            timed("waitForCompactTimeoutPending", () -> {
                try (WaitForCompactOptions w = new WaitForCompactOptions().setTimeout(Duration.ofSeconds(1))) {
                    db.waitForCompact(w);
                }
            }, unstick);
            db.continueBackgroundWork();
            timed("flushAfterContinue", () -> db.flush(true), () -> { });
            System.out.println("ingested " + (db.get(bytes("zz")) != null));
        }
        try (Options o = new Options(); RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
            System.out.println("reopened key199 " + (db.get(bytes("key199")) != null));
        }
    }

    /**
     * Unsynced puts into a database on a small file system until it is full (for a person to run
     * on a small tmpfs: not part of the suite). Prints each failure's kind once, and STUCK with
     * the putting thread's stack if a put has not returned for ten seconds.
     */
    private static void diskFull(Path dir, boolean noSlowdown) throws Exception {
        AtomicLong lastProgress = new AtomicLong(System.nanoTime());
        AtomicInteger count = new AtomicInteger();
        Thread putter = Thread.currentThread();
        Thread watcher = Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                if (System.nanoTime() - lastProgress.get() > 10_000_000_000L) {
                    System.out.println("STUCK at put " + count.get());
                    for (StackTraceElement e : putter.getStackTrace()) {
                        System.out.println("  at " + e);
                    }
                    System.out.flush();
                    return;
                }
            }
        });
        Set<String> seen = new HashSet<>();
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(Integer.getInteger("wb", 256 << 10));
             RocksDB db = RocksDB.open(dir.resolve("db"), o);
             WriteOptions wo = new WriteOptions().setNoSlowdown(noSlowdown)) {
            byte[] value = new byte[4000];
            new Random(1).nextBytes(value);
            for (int i = 0; i < 20_000; i++) {
                try {
                    db.put(wo, bytes("key" + i), value);
                } catch (RuntimeException e) {
                    String kind = e.getClass().getSimpleName() + " " + String.valueOf(e.getMessage());
                    if (seen.add(kind.length() > 80 ? kind.substring(0, 80) : kind)) {
                        System.out.println("put " + i + ": " + kind);
                        System.out.flush();
                    }
                }
                count.set(i);
                lastProgress.set(System.nanoTime());
            }
            System.out.println("puts ended");
        } catch (RuntimeException e) {
            System.out.println("close: " + e);
        }
        watcher.interrupt();
    }

    /**
     * A hostile user's second round on these surfaces: calls from callbacks that wait for the
     * callback's own work, and odd inputs RocksDB might not expect. Each prints its outcome.
     */
    private static void hostile(Path dir) throws Exception {
        AtomicReference<RocksDB> self = new AtomicReference<>();
        AtomicReference<String> fromListener = new AtomicReference<>();
        boolean listeners = RocksDB.engine().hasFunction("rocksdb_eventlistener_create");
        Options base = new Options().setCreateIfMissing(true);
        if (listeners) {
            base.addEventListener(new EventListener() {
                @Override
                public void onFlushCompleted(EventListener.FlushJobInfo info) {
                    fromListener.compareAndSet(null, outcome(() -> self.get().pauseBackgroundWork()) + " | "
                            + outcome(() -> {
                                try (BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("listener-backups"));
                                     BackupEngine engine = BackupEngine.open(beo)) {
                                    engine.createBackup(self.get(), false);
                                }
                            }));
                }
            });
        }
        try (Options o = base; RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
            self.set(db);
            fill(db, 0, 50);
            timed("listenerFlush", () -> db.flush(true), () -> { });
            for (int i = 0; i < 200 && listeners && fromListener.get() == null; i++) {
                Thread.sleep(10);
            }
            System.out.println("fromListener " + (listeners ? fromListener.get() : "IllegalStateException n/a | IllegalStateException n/a"));
            if (RocksDB.engine().hasFunction("rocksdb_create_backup_options_create")) {
                AtomicReference<String> got = new AtomicReference<>();
                try (BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("backups")).setCallbackTriggerIntervalSize(1);
                     BackupEngine engine = BackupEngine.open(beo);
                     CreateBackupOptions cbo = new CreateBackupOptions().setProgressCallback(
                             () -> got.compareAndSet(null, outcome(db::pauseBackgroundWork)))) {
                    timed("progressPauses", () -> engine.createBackup(db, cbo), () -> { });
                }
                System.out.println("progressPause " + got.get());
            }
            if (RocksDB.engine().hasFunction("rocksdb_compact_files_cf")) {
                fill(db, 50, 100);
                db.flush(true);
                Supplier<Path> live = () -> Path.of(db.liveFiles().get(0).name().substring(1));
                try (CompactionOptions co = new CompactionOptions()) {
                    timed("compactFilesDuplicate", () -> db.compactFiles(co, List.of(live.get(), live.get()), 1),
                            () -> { });
                    timed("compactFilesMixed", () -> db.compactFiles(co, List.of(live.get(), Path.of("")), 2),
                            () -> { });
                    timed("compactFilesAlias", () -> db.compactFiles(co,
                            List.of(dir.resolve("db").resolve(".").resolve(live.get().toString())), 2), () -> { });
                }
            }
            timed("updatesSinceMax", () -> {
                if (!db.getUpdatesSince(Long.MAX_VALUE, Integer.MAX_VALUE).isEmpty()) {
                    throw new AssertionError("not empty");
                }
            }, () -> { });
            if (RocksDB.engine().hasFunction("rocksdb_checkpoint_export_column_family")) {
                try (Checkpoint cp = Checkpoint.create(db);
                     ExportImportFilesMetaData meta = cp.exportColumnFamily(db.defaultColumnFamily(),
                             dir.resolve("export"));
                     ImportColumnFamilyOptions move = new ImportColumnFamilyOptions()
                             .setMoveFiles(true)) {
                    timed("importMoveOnce", () -> db.createColumnFamilyWithImport("m1", o, move, meta), () -> { });
                    timed("importMoveTwice", () -> db.createColumnFamilyWithImport("m2", o, move, meta), () -> { });
                }
                System.out.println("m1 " + (db.get(db.columnFamily("m1"), bytes("key1")) != null));
            }
        }
    }
}
