package io.rocksffm.reliability;

import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.OptimisticTransactionDB;
import io.rocksffm.Options;
import io.rocksffm.RocksDBException;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.TransactionOptions;
import io.rocksffm.WriteOptions;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.rocksffm.KeyValueReads;
import io.rocksffm.KeyValueWrites;
import io.rocksffm.OptimisticTransactionOptions;
import java.util.Arrays;

/**
 * The bank-transfer model on both kinds of transaction database: N threads move random amounts
 * between random accounts (getForUpdate both, read-modify-write, commit; a failed attempt is
 * rolled back and retried). Checked against the model: the total is conserved, every committed
 * transfer is visible (each account's final balance is its start plus the committed transfers
 * that touched it), and no failed attempt left a trace. Conflicts, timeouts and retries are
 * counted and printed.
 */
class TransactionConcurrencyTest {
    private static final int ACCOUNTS = 16;
    private static final long START = 1_000;

    @TempDir
    Path dir;

    private static byte[] account(int i) {
        return ("acct-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static long amount(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    record Transfer(int from, int to, long amount) {}

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void transfersConserveTheTotal(boolean optimistic) throws Exception {
        int threads = 4;
        long millis = HEAVY ? 15_000 : 1_500;
        AtomicLong commits = new AtomicLong();
        AtomicLong conflicts = new AtomicLong();
        AtomicLong timeouts = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        ConcurrentLinkedQueue<Transfer> committed = new ConcurrentLinkedQueue<>();
        try (Options o = new Options().setCreateIfMissing(true); TransactionDBOptions tdo = new TransactionDBOptions();
             TransactionOptions to = new TransactionOptions().setLockTimeout(5).setDeadlockDetect(true);
             WriteOptions wo = new WriteOptions()) {
            TransactionDB pdb = optimistic ? null : TransactionDB.open(dir, o, tdo);
            OptimisticTransactionDB odb = optimistic ? OptimisticTransactionDB.open(dir, o) : null;
            Supplier<Transaction> begin = optimistic ? () -> odb.beginTransaction(wo) : () -> pdb.beginTransaction(wo, to);
            KeyValueWrites writes = optimistic ? odb : pdb;
            KeyValueReads reads = optimistic ? odb : pdb;
            try {
                for (int i = 0; i < ACCOUNTS; i++) {
                    writes.put(account(i), amount(START));
                }
                long deadline = System.nanoTime() + millis * 1_000_000;
                List<Thread> workers = new ArrayList<>();
                ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
                for (int t = 0; t < threads; t++) {
                    long seed = seed(14) + t;
                    workers.add(Thread.ofPlatform().start(() -> {
                        Random r = new Random(seed);
                        Transaction tx = null;
                        try {
                            while (System.nanoTime() < deadline) {
                                int from = r.nextInt(ACCOUNTS);
                                int to2 = (from + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                                long amt = 1 + r.nextInt(50);
                                while (true) {
                                    tx = tx == null ? begin.get() : reuse(tx, optimistic, odb, pdb, wo, to);
                                    try {
                                        long a = amount(tx.getForUpdate(account(from)));
                                        long b = amount(tx.getForUpdate(account(to2)));
                                        if (a < amt) {
                                            tx.rollback();
                                            break;
                                        }
                                        tx.put(account(from), amount(a - amt));
                                        tx.put(account(to2), amount(b + amt));
                                        tx.commit();
                                        commits.incrementAndGet();
                                        committed.add(new Transfer(from, to2, amt));
                                        break;
                                    } catch (RocksDBException e) {
                                        switch (e.code()) {
                                            case TIMED_OUT -> timeouts.incrementAndGet();
                                            case BUSY, TRY_AGAIN -> conflicts.incrementAndGet();
                                            default -> throw e;
                                        }
                                        tx.rollback();
                                        retries.incrementAndGet();
                                    }
                                }
                            }
                        } catch (Throwable e) {
                            errors.add(e);
                        } finally {
                            if (tx != null) {
                                tx.close();
                            }
                        }
                    }));
                }
                for (Thread w : workers) {
                    w.join();
                }
                assertTrue(errors.isEmpty(), () -> "worker failed: " + errors.peek());
                long[] model = new long[ACCOUNTS];
                Arrays.fill(model, START);
                for (Transfer tr : committed) {
                    model[tr.from()] -= tr.amount();
                    model[tr.to()] += tr.amount();
                }
                long total = 0;
                for (int i = 0; i < ACCOUNTS; i++) {
                    long actual = amount(reads.get(account(i)));
                    assertEquals(model[i], actual, "account " + i + ": start plus committed transfers");
                    assertTrue(actual >= 0);
                    total += actual;
                }
                assertEquals(START * ACCOUNTS, total, "total conserved");
                assertTrue(commits.get() > 0);
                report("transfers (%s, %d threads, %d ms): %d committed, %d conflicts, %d lock timeouts, %d retries",
                        optimistic ? "optimistic" : "pessimistic", threads, millis, commits.get(), conflicts.get(),
                        timeouts.get(), retries.get());
            } finally {
                if (pdb != null) {
                    pdb.close();
                }
                if (odb != null) {
                    odb.close();
                }
            }
        }
    }

    /** Begins {@code tx} again (it is finished), reusing its native object. */
    private static Transaction reuse(Transaction tx, boolean optimistic, OptimisticTransactionDB odb, TransactionDB pdb,
                                     WriteOptions wo, TransactionOptions to) {
        return optimistic ? odb.beginTransaction(wo, new OptimisticTransactionOptionsHolder().get(), tx)
                : pdb.beginTransaction(wo, to, tx);
    }

    /** One shared optimistic options object (never closed: the defaults). */
    private static final class OptimisticTransactionOptionsHolder {
        private static final OptimisticTransactionOptions OPTIONS = new OptimisticTransactionOptions();

        OptimisticTransactionOptions get() {
            return OPTIONS;
        }
    }
}
