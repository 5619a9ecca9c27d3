package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One virtual thread per request, as a Java 21+ server runs them: every task is a new virtual
 * thread doing one operation on a shared database (get, get into a segment, multiGet, put,
 * delete, batch write, a short scan, or a write to a read-only handle that must fail), checked
 * against a model. Keys fall into {@value #LANES} lanes; a task holds its lane's lock (a
 * {@link ReentrantLock}: virtual threads wait for it without blocking a carrier) across the
 * operation and the model update, so the model of a lane is exact while lanes run in parallel.
 * At most {@value #IN_FLIGHT} tasks are alive at once (a semaphore), as a server bounds its
 * requests. At the end the whole database equals the union of the lane models.
 *
 * <p>Memory: rocksffm keeps no native state per thread, so a million threads must not cost a
 * million scratch areas. glibc's malloc in use (mallinfo2, all native allocations of the JDK and
 * of RocksDB) and the process RSS are measured after a warm-up of {@value #WARM_UP} tasks and
 * after the run, without calling {@link System#gc()} (nothing may depend on the GC to free
 * native memory): malloc in use, and RSS less the growth of the committed Java heap (which the
 * GC sizes as it likes, up to -Xmx), may each grow by at most {@link #BOUND} (64 MiB). The database is configured
 * so that its own memory is bounded well below that: 1 MiB memtables, a 4 MiB block cache.
 * CI: 300,000 tasks (after the warm-up); heavy ({@code -Drocksffm.heavy=true}): 1,000,000.
 */
class VirtualThreadTest {
    private static final int LANES = 64;
    private static final int KEYS_PER_LANE = 64;
    private static final int IN_FLIGHT = 10_000;
    private static final int WARM_UP = 50_000;
    private static final long BOUND = 64L << 20;

    @TempDir
    Path dir;

    /** The state of one lane: its lock and its model, guarded by the lock. */
    private static final class Lane {
        final ReentrantLock lock = new ReentrantLock();
        final TreeMap<byte[], byte[]> model = model();
    }

    private record Ctx(RocksDB db, RocksDB readOnly, Lane[] lanes, long seed, LongAdder checks, LongAdder virtual,
                       ConcurrentLinkedQueue<String> failures) {}

    @Test
    void aMillionVirtualThreadsKeepNativeMemoryBoundedAndResultsRight() throws Exception {
        int tasks = scale(300_000, 1_000_000);
        long seed = seed(12);
        Path readOnlyPath = dir.resolve("ro");
        try (RocksDB seedDb = open(readOnlyPath)) {
            seedDb.put(bytes("k"), bytes("v"));
        }
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(1 << 20)
                     .setBlockCacheSize(4 << 20);
             RocksDB db = RocksDB.open(dir.resolve("db"), o);
             Options ro = new Options();
             RocksDB readOnly = RocksDB.openReadOnly(readOnlyPath, ro)) {
            Lane[] lanes = new Lane[LANES];
            Arrays.setAll(lanes, i -> new Lane());
            Ctx ctx = new Ctx(db, readOnly, lanes, seed, new LongAdder(), new LongAdder(), new ConcurrentLinkedQueue<>());

            run(ctx, 0, WARM_UP);
            long rss0 = rssBytes();
            long heap0 = Runtime.getRuntime().totalMemory();
            long malloc0 = mallocInUse();
            long started = System.nanoTime();
            run(ctx, WARM_UP, WARM_UP + tasks);
            double seconds = (System.nanoTime() - started) / 1e9;
            long rss1 = rssBytes();
            long heap1 = Runtime.getRuntime().totalMemory();
            long malloc1 = mallocInUse();
            long nativeGrowth = (rss1 - rss0) - Math.max(0, heap1 - heap0);

            assertEquals(List.of(), List.copyOf(ctx.failures()), "results that differ from the model");
            assertEquals(WARM_UP + tasks, ctx.virtual().sum(), "tasks that ran on a virtual thread");
            TreeMap<byte[], byte[]> union = model();
            for (Lane lane : lanes) {
                union.putAll(lane.model);
            }
            assertEquals(union.size(), ConcurrencyTest.scan(db).size(), "keys in the database");
            assertModel(union, ConcurrencyTest.scan(db));
            report("virtual threads: %,d tasks (one virtual thread each, %,d in flight at most) in %.1f s (%,.0f/s), "
                            + "%,d results checked; RSS %s -> %s (%+.1f MiB, of which Java heap committed %+.1f MiB: "
                            + "%+.1f MiB outside the heap), malloc in use %s -> %s (%+.1f MiB); bound +%s each, no System.gc()",
                    tasks, IN_FLIGHT, seconds, tasks / seconds, ctx.checks().sum(), mib(rss0), mib(rss1),
                    (rss1 - rss0) / 1048576.0, (heap1 - heap0) / 1048576.0, nativeGrowth / 1048576.0, mib(malloc0),
                    mib(malloc1), (malloc1 - malloc0) / 1048576.0, mib(BOUND));
            assertTrue(nativeGrowth <= BOUND, "RSS outside the Java heap grew by " + mib(nativeGrowth) + " over " + tasks
                    + " virtual threads (RSS " + mib(rss0) + " -> " + mib(rss1) + ")");
            if (malloc0 >= 0) {
                assertTrue(malloc1 - malloc0 <= BOUND,
                        "malloc in use grew by " + mib(malloc1 - malloc0) + " over " + tasks + " virtual threads");
            }
        }
    }

    private static void assertModel(TreeMap<byte[], byte[]> expected, TreeMap<byte[], byte[]> actual) {
        Iterator<Map.Entry<byte[], byte[]>> a = actual.entrySet().iterator();
        for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
            Map.Entry<byte[], byte[]> x = a.next();
            assertArrayEquals(e.getKey(), x.getKey());
            assertArrayEquals(e.getValue(), x.getValue(), "value of " + hex(e.getKey()));
        }
    }

    /** Runs tasks {@code from} to {@code to - 1}, one virtual thread each, at most IN_FLIGHT at once. */
    private static void run(Ctx ctx, int from, int to) throws InterruptedException {
        Semaphore permits = new Semaphore(IN_FLIGHT);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = from; i < to; i++) {
                int task = i;
                permits.acquire();
                executor.execute(() -> {
                    try {
                        task(ctx, task);
                    } catch (Throwable t) {
                        record(ctx, "task " + task + ": " + t);
                    } finally {
                        permits.release();
                    }
                });
            }
        }
        assertTrue(permits.tryAcquire(IN_FLIGHT, 1, TimeUnit.MINUTES), "tasks still running");
    }

    private static void record(Ctx ctx, String failure) {
        if (ctx.failures().size() < 10) {
            ctx.failures().add(failure);
        }
    }

    private static byte[] key(int lane, int k) {
        byte[] key = new byte[12];
        key[0] = 'L';
        key[1] = (byte) lane;
        key[2] = (byte) (k * 5); // spans 0x00..0xFF within a lane
        Arrays.fill(key, 3, 12, (byte) ('a' + lane % 26));
        return key;
    }

    /** Mostly small values; some above the 256-byte scratch buffers; a few above the 64 KiB kept per buffer. */
    private static byte[] value(SplittableRandom r) {
        int n = r.nextInt(2000) == 0 ? 65_536 + r.nextInt(20_000) : r.nextInt(50) == 0 ? 300 + r.nextInt(4000) : r.nextInt(64);
        byte[] v = new byte[n];
        r.nextBytes(v);
        return v;
    }

    private static void check(Ctx ctx, boolean ok, int task, String what) {
        ctx.checks().increment();
        if (!ok) {
            record(ctx, "task " + task + ": " + what);
        }
    }

    private static void task(Ctx ctx, int task) {
        if (Thread.currentThread().isVirtual()) {
            ctx.virtual().increment();
        }
        SplittableRandom r = new SplittableRandom(ctx.seed() * 0x9E3779B97F4A7C15L + task);
        int laneId = r.nextInt(LANES);
        Lane lane = ctx.lanes()[laneId];
        RocksDB db = ctx.db();
        byte[] k = key(laneId, r.nextInt(KEYS_PER_LANE));
        int op = r.nextInt(100);
        lane.lock.lock();
        try {
            TreeMap<byte[], byte[]> model = lane.model;
            if (op < 30) {
                byte[] expected = model.get(k);
                check(ctx, Arrays.equals(expected, db.get(k)), task, "get(byte[]) of " + hex(k));
            } else if (op < 40) {
                byte[] expected = model.get(k);
                byte[] out = new byte[r.nextInt(100)];
                try (ReadOptions read = new ReadOptions()) {
                    long n = db.get(read, MemorySegment.ofArray(k), MemorySegment.ofArray(out));
                    boolean ok = expected == null ? n == -1 : n == expected.length
                            && Arrays.equals(expected, 0, Math.min(expected.length, out.length), out, 0, Math.min(expected.length, out.length));
                    check(ctx, ok, task, "get into a segment of " + hex(k));
                }
            } else if (op < 45) {
                List<byte[]> keys = List.of(k, key(laneId, r.nextInt(KEYS_PER_LANE)), key(laneId, r.nextInt(KEYS_PER_LANE)));
                List<byte[]> values = db.multiGetAsList(keys);
                for (int i = 0; i < keys.size(); i++) {
                    check(ctx, Arrays.equals(model.get(keys.get(i)), values.get(i)), task, "multiGet of " + hex(keys.get(i)));
                }
            } else if (op < 65) {
                byte[] v = value(r);
                db.put(k, v);
                model.put(k, v);
            } else if (op < 72) {
                db.delete(k);
                model.remove(k);
            } else if (op < 85) {
                try (WriteBatch batch = new WriteBatch(); WriteOptions write = new WriteOptions()) {
                    List<Runnable> apply = new ArrayList<>();
                    for (int i = 0, n = 1 + r.nextInt(5); i < n; i++) {
                        byte[] bk = key(laneId, r.nextInt(KEYS_PER_LANE));
                        if (r.nextInt(4) == 0) {
                            batch.delete(bk);
                            apply.add(() -> model.remove(bk));
                        } else {
                            byte[] bv = value(r);
                            batch.put(bk, bv);
                            apply.add(() -> model.put(bk, bv));
                        }
                    }
                    db.write(write, batch);
                    apply.forEach(Runnable::run);
                }
            } else if (op < 99) {
                scan(ctx, task, laneId, k, r.nextInt(6), r.nextBoolean() ? 0 : 512);
            } else {
                try {
                    ctx.readOnly().put(k, k);
                    check(ctx, false, task, "a put to a read-only database succeeded");
                } catch (RocksDBException expected) {
                    check(ctx, expected.code() == RocksDBException.Code.NOT_SUPPORTED, task, "read-only put: " + expected);
                }
            }
        } finally {
            lane.lock.unlock();
        }
    }

    /** Up to {@code limit} entries of the lane from {@code from} on, against the model. */
    private static void scan(Ctx ctx, int task, int laneId, byte[] from, int limit, long prefetch) {
        byte[] upper = {'L', (byte) (laneId + 1)};
        NavigableMap<byte[], byte[]> expected = ctx.lanes()[laneId].model.tailMap(from, true);
        try (ReadOptions read = new ReadOptions().setIterateUpperBound(MemorySegment.ofArray(upper));
             RocksIterator it = ctx.db().newIterator(read.setPrefetchBytes(prefetch))) {
            it.seek(from);
            Iterator<Map.Entry<byte[], byte[]>> e = expected.entrySet().iterator();
            for (int i = 0; i < limit; i++) {
                boolean valid = it.isValid();
                check(ctx, valid == e.hasNext(), task, "scan from " + hex(from) + ": entry " + i + " present: " + valid);
                if (!valid || !e.hasNext()) {
                    return;
                }
                Map.Entry<byte[], byte[]> x = e.next();
                check(ctx, Arrays.equals(x.getKey(), it.keyBytes()) && Arrays.equals(x.getValue(), it.valueBytes()),
                        task, "scan entry " + i + " from " + hex(from));
                it.next();
            }
        }
    }
}
