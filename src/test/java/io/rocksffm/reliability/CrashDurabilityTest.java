package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Nothing acknowledged is lost on kill -9: a child JVM ({@link CrashChild}) writes and prints
 * each key once its write has returned; this test kills it with SIGKILL at a random moment
 * (every fifth cycle while it is still opening, i.e. during WAL recovery), reopens the database
 * and checks that it opens, that a full checksummed scan succeeds, that every acknowledged key
 * of every cycle so far is there with its value, that every key present has the right value, and
 * that each batch is there completely or not at all.
 *
 * <p>The child opens the database through a different spelling of its path in each cycle (its
 * path, a symbolic link to it, {@code sub/../db}, {@code db/.}) and checks that no second handle
 * opens it through yet another one; this test reopens it by its path.
 *
 * <p>Modes: {@code sync} (every write {@code sync=true}) and {@code walflush} (default write
 * options, then {@code flushWal(true)} after each group of writes, before acknowledging them).
 * CI: 20 kill cycles per mode; heavy: 150.
 */
class CrashDurabilityTest {
    private static final Pattern BATCH_KEY = Pattern.compile("c(\\d+)-b(\\d+)-(\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "walflush"})
    void acknowledgedWritesSurviveKill9(String mode) throws Exception {
        int cycles = scale(20, 150);
        long seed = seed(0x5EEDL);
        Random random = new Random(seed);
        Path db = dir.resolve("db");
        // the child opens the database through another spelling of its path in each cycle
        Files.createDirectories(dir.resolve("sub"));
        Path link = Files.createSymbolicLink(dir.resolve("link"), db.getFileName());
        List<Path> spellings = List.of(db, link, dir.resolve("sub").resolve("..").resolve("db"), db.resolve("."));
        Set<String> acked = new HashSet<>();
        int killedWhileOpening = 0;
        long started = System.nanoTime();
        for (int cycle = 0; cycle < cycles; cycle++) {
            Path err = dir.resolve("child-" + cycle + ".err");
            Process child = new ProcessBuilder(javaCommand(CrashChild.class,
                    spellings.get(cycle % spellings.size()).toString(), mode,
                    String.valueOf(cycle), String.valueOf(random.nextLong())))
                    .redirectError(err.toFile())
                    .start();
            Output out = new Output(child.getInputStream());
            boolean whileOpening = cycle % 5 == 4;
            CountDownLatch awaited = whileOpening ? out.opening : out.ready;
            long waitStart = System.nanoTime();
            while (!awaited.await(50, TimeUnit.MILLISECONDS)) {
                if (!child.isAlive() || System.nanoTime() - waitStart > 60_000_000_000L) {
                    child.destroyForcibly();
                    fail("child did not get " + (whileOpening ? "to open" : "ready") + " (exit "
                            + (child.isAlive() ? "-" : child.exitValue()) + "): " + readQuietly(err));
                }
            }
            Thread.sleep(whileOpening ? random.nextInt(40) : random.nextInt(scale(300, 600)));
            boolean stillOpening = out.ready.getCount() > 0;
            assertTrue(child.isAlive(), () -> "child exited on its own: " + readQuietly(err));
            child.destroyForcibly(); // SIGKILL on Linux
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "killed child did not die");
            assertEquals(128 + 9, child.exitValue(), "exit status of a SIGKILLed process");
            out.thread.join(30_000);
            if (whileOpening && stillOpening) {
                killedWhileOpening++;
            }
            List<String> acks = out.acks();
            acked.addAll(acks);
            verify(db, acked, cycle);
        }
        report("crash durability [%s]: kill cycles: %d (%d while opening), acknowledged writes: %d, %.1f s, seed %d",
                mode, cycles, killedWhileOpening, acked.size(), (System.nanoTime() - started) / 1e9, seed);
        assertTrue(acked.size() > cycles, "the children acknowledged writes before being killed");
    }

    /** Opens the killed database and checks it against what was acknowledged. */
    private static void verify(Path path, Set<String> acked, int cycle) {
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(path, o);
             ReadOptions ro = new ReadOptions().setVerifyChecksums(true)) {
            Map<String, Integer> batches = new HashMap<>();
            Set<String> present = new HashSet<>();
            try (RocksIterator it = db.newIterator(ro)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    String key = new String(it.keyBytes(), StandardCharsets.UTF_8);
                    assertArrayEquals(CrashChild.value(key), it.valueBytes(), () -> "value of " + key + " after cycle " + cycle);
                    present.add(key);
                    Matcher m = BATCH_KEY.matcher(key);
                    if (m.matches()) {
                        batches.merge(m.group(1) + "-" + m.group(2), 1, Integer::sum);
                    }
                }
                it.status();
            }
            for (String key : acked) {
                assertTrue(present.contains(key), () -> "acknowledged key " + key + " lost after kill cycle " + cycle);
            }
            for (Map.Entry<String, Integer> b : batches.entrySet()) {
                long n = Long.parseLong(b.getKey().substring(b.getKey().indexOf('-') + 1));
                assertEquals(CrashChild.batchSize(n), b.getValue(), () -> "batch " + b.getKey() + " is partly there after cycle " + cycle);
            }
        }
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Collects the child's stdout; only newline-terminated lines count. */
    private static final class Output {
        final CountDownLatch opening = new CountDownLatch(1);
        final CountDownLatch ready = new CountDownLatch(1);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final Thread thread;

        Output(InputStream in) {
            thread = Thread.ofPlatform().daemon().name("crash-child-stdout").start(() -> {
                byte[] buf = new byte[8192];
                try (in) {
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        synchronized (bytes) {
                            bytes.write(buf, 0, n);
                            if (opening.getCount() > 0 || ready.getCount() > 0) {
                                String s = bytes.toString(StandardCharsets.UTF_8);
                                if (s.contains("OPENING\n")) {
                                    opening.countDown();
                                }
                                if (s.contains("READY\n")) {
                                    ready.countDown();
                                }
                            }
                        }
                    }
                } catch (IOException e) {
                    // the pipe breaks when the child dies
                }
            });
        }

        List<String> acks() {
            String s;
            synchronized (bytes) {
                s = bytes.toString(StandardCharsets.UTF_8);
            }
            List<String> keys = new ArrayList<>();
            int start = 0;
            for (int nl = s.indexOf('\n'); nl >= 0; start = nl + 1, nl = s.indexOf('\n', start)) {
                String line = s.substring(start, nl);
                if (line.startsWith("ACK ")) {
                    keys.add(line.substring(4));
                } else {
                    assertTrue(line.equals("OPENING") || line.equals("READY"), () -> "unexpected child output: " + line);
                }
            }
            return keys;
        }
    }
}
