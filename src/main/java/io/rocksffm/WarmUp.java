package io.rocksffm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Opt-in ({@code -Drocksffm.warmup=true}): trains the hot paths in the background once the process
 * has opened its first database, so that calls made after a pause find them compiled rather than
 * interpreted.
 *
 * <p>A fresh JVM runs a call through rocksffm interpreted until the JIT has seen it some thousands
 * of times. With the switch on, after the first open a daemon thread ({@code rocksffm-warmup})
 * opens a private database in a new temporary directory and makes the calls most programs make
 * first (puts and gets of {@code byte[]} keys and values, a write batch, a short scan) until each
 * path has run {@value #ROUNDS} times or {@value #BUDGET_MILLIS} ms have passed, whichever comes
 * first; then it closes that database and deletes the directory. It shares nothing with the
 * application's databases (its own options, no statistics, listeners or caches of theirs). A
 * shutdown hook stops it and waits for it to clean up, so no database of its own is open when the
 * JVM exits.
 *
 * <p>It is off by default because it only pays where the process has idle time between its first
 * open and its first busy calls (a server opening its stores before taking traffic): running at the
 * same time as the application's first calls, it competes with them for the processor and the JIT
 * and, on a machine with two cores, makes them slower ({@code docs/warm-up.md} has the numbers).
 */
final class WarmUp implements Runnable {
    /** Whether the first open starts the thread ({@code -Drocksffm.warmup=true}; default off). */
    static final boolean ENABLED = Boolean.getBoolean("rocksffm.warmup");
    /** Calls of each kind to make (enough for the JIT's highest tier on every path). */
    static final int ROUNDS = 20_000;
    /** The most wall time the thread runs, in milliseconds. */
    static final long BUDGET_MILLIS = 3_000;

    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile boolean stop;

    /** What the last run did, for tests: the rounds made, or -1 when it failed. */
    static volatile int roundsDone;

    private WarmUp() {}

    /** Called after every successful open: starts the thread the first time, if switched on. */
    static void afterOpen() {
        if (ENABLED && !STARTED.get()) {
            start();
        }
    }

    /**
     * Starts the thread unless it was started before in this process.
     *
     * @return the thread, or null if it was started before or could not be
     */
    static Thread start() {
        if (!STARTED.compareAndSet(false, true)) {
            return null;
        }
        try {
            Thread t = new Thread(null, new WarmUp(), "rocksffm-warmup", 0, false);
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stop = true;
                try {
                    t.join(BUDGET_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "rocksffm-warmup-stop"));
            t.start();
            return t;
        } catch (Throwable e) {
            return null; // a thread limit, or a JVM already shutting down: only a head start is lost
        }
    }

    @Override
    public void run() {
        try {
            roundsDone = train(Path.of(System.getProperty("java.io.tmpdir")), ROUNDS, BUDGET_MILLIS);
        } catch (Throwable e) {
            roundsDone = -1; // a full disk, an unwritable temporary directory: only a head start is lost
        }
    }

    /**
     * Makes the calls, up to {@code rounds} of each, for at most {@code budgetMillis} ms or until
     * the JVM shuts down, on a private database in a new directory under {@code parent}, deleted
     * afterwards.
     *
     * @return the rounds made
     */
    static int train(Path parent, int rounds, long budgetMillis) throws IOException {
        long deadline = System.nanoTime() + budgetMillis * 1_000_000L;
        Path dir = Files.createTempDirectory(parent, "rocksffm-warmup");
        int done = 0;
        try (Options options = new Options().setCreateIfMissing(true);
             WriteOptions noWal = new WriteOptions().setDisableWAL(true);
             RocksDB db = RocksDB.open(dir, options);
             ReadOptions read = new ReadOptions();
             WriteBatch batch = new WriteBatch()) {
            byte[] key = new byte[16];
            byte[] value = new byte[64];
            for (; done < rounds; done++) {
                if ((done & 255) == 0 && (stop || System.nanoTime() > deadline)) {
                    break;
                }
                int k = done & 1023;
                key[15] = (byte) k;
                key[14] = (byte) (k >>> 8);
                value[0] = (byte) done;
                db.put(noWal, key, value);
                if (db.get(key) == null) {
                    throw new IllegalStateException("warm-up: a key just written was not found");
                }
                if ((done & 15) == 0) {
                    batch.put(key, value);
                    batch.delete(value);
                    db.write(noWal, batch);
                    batch.clear();
                    try (RocksIterator it = db.newIterator(read)) {
                        int n = 0;
                        for (it.seek(key); it.isValid() && n < 8; it.next()) {
                            n += it.key().byteSize() > 0 ? 1 : 0;
                        }
                    }
                }
            }
        } finally {
            delete(dir);
        }
        return done;
    }

    private static void delete(Path dir) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                if (e != null) {
                    throw new UncheckedIOException(e);
                }
                Files.delete(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
