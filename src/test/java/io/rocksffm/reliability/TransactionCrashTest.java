package io.rocksffm.reliability;

import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksIterator;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 durability of transactions: a child JVM ({@link TransactionCrashChild}) commits (sync),
 * rolls back, prepares (two-phase) and leaves open transactions, printing each outcome once it
 * is durable; this test kills it at a random moment, reopens the database and checks: every
 * acknowledged commit is there, whole; every transaction is all or nothing; nothing of a rolled
 * back or uncommitted transaction is there; every acknowledged prepared transaction is recovered
 * as prepared, invisible until resolved; a write after {@code prepare()} is refused, and the
 * transaction committed after it is there whole, without it. The test then commits half of the recovered ones and
 * rolls back the others, and later cycles check those outcomes too. CI: 8 cycles; heavy: 60.
 */
class TransactionCrashTest {
    private static final Pattern KEY = Pattern.compile("c(\\d+)-([trpuq])(\\d+)-(\\d+)");

    @TempDir
    Path dir;

    @Test
    void acknowledgedTransactionsSurviveKill9() throws Exception {
        int cycles = scale(8, 60);
        long seed = seed(0x7A5L);
        Random random = new Random(seed);
        Path db = dir.resolve("db");
        Set<String> committed = new HashSet<>(); // "c<cycle>-t<n>" / "-q<n>" acknowledged, and prepared ones we committed
        Set<String> resolvedRolledBack = new HashSet<>();
        int preparedRecovered = 0;
        int commits = 0;
        for (int cycle = 0; cycle < cycles; cycle++) {
            Path err = dir.resolve("child-" + cycle + ".err");
            Process child = new ProcessBuilder(javaCommand(TransactionCrashChild.class, db.toString(),
                    String.valueOf(cycle), String.valueOf(random.nextLong()))).redirectError(err.toFile()).start();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            InputStream in = child.getInputStream();
            Thread reader = Thread.ofPlatform().daemon().start(() -> {
                byte[] buf = new byte[8192];
                try (in) {
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        synchronized (bytes) {
                            bytes.write(buf, 0, n);
                        }
                    }
                } catch (Exception e) {
                    // the child died
                }
            });
            long start = System.nanoTime();
            while (!lines(bytes).contains("READY")) {
                if (!child.isAlive() || System.nanoTime() - start > 60_000_000_000L) {
                    child.destroyForcibly();
                    fail("child did not get ready: " + Files.readString(err));
                }
                Thread.sleep(20);
            }
            Thread.sleep(100 + random.nextInt(scale(400, 800)));
            assertTrue(child.isAlive(), () -> "child exited on its own");
            child.destroyForcibly();
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            reader.join(30_000);
            Set<String> prepared = new HashSet<>();
            for (String line : lines(bytes)) {
                if (line.startsWith("COMMIT ")) {
                    committed.add("c" + cycle + "-" + line.substring(7));
                    commits++;
                } else if (line.startsWith("PREPARED ")) {
                    prepared.add(line.substring(9));
                }
            }
            try (Options o = new Options(); TransactionDBOptions to = new TransactionDBOptions();
                 TransactionDB tdb = TransactionDB.open(db, o, to)) {
                List<Transaction> recovered = tdb.getPreparedTransactions();
                Set<String> names = new HashSet<>();
                for (Transaction tx : recovered) {
                    assertEquals(Transaction.State.PREPARED, tx.state());
                    names.add(tx.getName());
                }
                assertTrue(names.containsAll(prepared), "acknowledged prepared transactions recovered: " + prepared
                        + " in " + names);
                verify(tdb, committed, resolvedRolledBack, cycle, false);
                for (Transaction tx : recovered) {
                    String name = tx.getName();
                    if (random.nextBoolean()) {
                        tx.commit();
                        committed.add(name);
                    } else {
                        tx.rollback();
                        resolvedRolledBack.add(name);
                    }
                    tx.close();
                    preparedRecovered++;
                }
                verify(tdb, committed, resolvedRolledBack, cycle, true);
            }
        }
        report("transaction crash durability: %d kill cycles, %d acknowledged commits, %d prepared recovered and "
                + "resolved, seed %d", cycles, commits, preparedRecovered, seed);
        assertTrue(commits > cycles, "the children committed before being killed");
    }

    /** Every transaction all or nothing; committed ones there; rolled back, uncommitted, unresolved absent. */
    private static void verify(TransactionDB db, Set<String> committed, Set<String> rolledBack, int cycle,
                               boolean resolved) {
        Map<String, Integer> counts = new HashMap<>();
        try (ReadOptions ro = new ReadOptions().setVerifyChecksums(true); RocksIterator it = db.newIterator(ro)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                String key = new String(it.keyBytes(), StandardCharsets.UTF_8);
                assertArrayEquals(CrashChild.value(key), it.valueBytes(), key);
                Matcher m = KEY.matcher(key);
                assertTrue(m.matches(), key);
                String kind = m.group(2);
                String tx = "c" + m.group(1) + "-" + kind + m.group(3);
                assertFalse(kind.equals("r") || kind.equals("u"), () -> "rolled back or uncommitted " + key
                        + " visible after cycle " + cycle);
                assertFalse(rolledBack.contains(tx), () -> "rolled back prepared " + key + " visible");
                if (kind.equals("p")) {
                    assertTrue(committed.contains(tx), () -> "prepared " + key + " visible before its commit");
                }
                counts.merge(tx, 1, Integer::sum);
            }
        }
        for (Map.Entry<String, Integer> e : counts.entrySet()) {
            assertEquals(TransactionCrashChild.KEYS_PER_TX, e.getValue(), () -> "transaction " + e.getKey() + " partly there");
        }
        for (String tx : committed) {
            assertTrue(counts.containsKey(tx), () -> "committed transaction " + tx + " lost after cycle " + cycle
                    + (resolved ? " (after resolving)" : ""));
        }
    }

    /** The complete (newline-terminated) lines printed so far. */
    private static List<String> lines(ByteArrayOutputStream bytes) {
        String s;
        synchronized (bytes) {
            s = bytes.toString(StandardCharsets.UTF_8);
        }
        int end = s.lastIndexOf('\n');
        return end < 0 ? List.of() : new ArrayList<>(Arrays.asList(s.substring(0, end).split("\n")));
    }
}
