package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.Options;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.Snapshot;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;
import io.rocksffm.reliability.ApiTableSupport.Ctx;
import io.rocksffm.reliability.ApiTableSupport.Table;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database handle shared by threads: each thread owns a disjoint key range and keeps its own
 * model of it; for a fixed time every thread writes (put, delete, batches with range deletions)
 * and reads back (get, getPinned, multiGet, bounded iteration with and without prefetch, reads
 * through snapshots) and checks every read against its model, while flushes and compactions run
 * underneath (a small memtable). At the end the whole database, and the database reopened,
 * equal the union of the models. CI: 3 s; heavy: 30 s. Also: iterators and pinned values are
 * confined to their creating thread.
 */
class ConcurrencyTest {
    private static final int THREADS = 4;

    @TempDir
    Path dir;

    @Test
    void sharedDatabaseEndsEqualToThePerThreadModels() throws Exception {
        long millis = scale(3_000L, 30_000L);
        long seed = seed(7);
        Path path = dir.resolve("db");
        AtomicLong ops = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        TreeMap<byte[], byte[]> union = model();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(128 << 10);
             RocksDB db = RocksDB.open(path, o)) {
            long deadline = System.nanoTime() + millis * 1_000_000;
            List<Future<TreeMap<byte[], byte[]>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int id = t;
                results.add(pool.submit(() -> worker(db, id, new Random(seed * 31 + id), deadline, ops, reads)));
            }
            for (Future<TreeMap<byte[], byte[]>> f : results) {
                union.putAll(f.get(millis + 60_000, TimeUnit.MILLISECONDS));
            }
            assertModelEquals(union, scan(db), "the whole database against the union of the threads' models");
        } finally {
            pool.shutdownNow();
        }
        try (RocksDB db = open(path)) {
            assertModelEquals(union, scan(db), "after reopen");
        }
        report("concurrency: %d threads for %d ms: %d operations, %d reads checked against the models, %d keys at the end, seed %d",
                THREADS, millis, ops.get(), reads.get(), union.size(), seed);
    }

    private static void assertModelEquals(TreeMap<byte[], byte[]> expected, TreeMap<byte[], byte[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": key count");
        var e = expected.entrySet().iterator();
        var a = actual.entrySet().iterator();
        while (e.hasNext()) {
            Map.Entry<byte[], byte[]> x = e.next();
            Map.Entry<byte[], byte[]> y = a.next();
            assertArrayEquals(x.getKey(), y.getKey(), what);
            assertArrayEquals(x.getValue(), y.getValue(), what + ": value of " + hex(x.getKey()));
        }
    }

    static TreeMap<byte[], byte[]> scan(RocksDB db) {
        TreeMap<byte[], byte[]> all = model();
        try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                all.put(it.keyBytes(), it.valueBytes());
            }
        }
        return all;
    }

    private static byte[] key(byte[] prefix, int n) {
        byte[] k = Arrays.copyOf(prefix, prefix.length + 2);
        k[prefix.length] = (byte) (n * 37);      // spans 0x00..0xFF: unsigned order matters
        k[prefix.length + 1] = (byte) (n >> 8);
        return k;
    }

    private static byte[] value(Random r) {
        byte[] v = new byte[r.nextInt(8) == 0 ? r.nextInt(4000) : r.nextInt(40)];
        r.nextBytes(v);
        return v;
    }

    private static TreeMap<byte[], byte[]> worker(RocksDB db, int id, Random r, long deadline, AtomicLong ops,
                                                  AtomicLong reads) {
        byte[] prefix = bytes("t" + id + "/");
        byte[] end = prefix.clone();
        end[end.length - 1]++;
        TreeMap<byte[], byte[]> mine = model();
        MemorySegment out = MemorySegment.ofArray(new byte[4096]);
        try (ReadOptions bounded = new ReadOptions()
                     .setIterateLowerBound(MemorySegment.ofArray(prefix))
                     .setIterateUpperBound(MemorySegment.ofArray(end));
             ReadOptions plain = new ReadOptions();
             WriteOptions wo = new WriteOptions();
             WriteBatch batch = new WriteBatch()) {
            while (System.nanoTime() < deadline) {
                byte[] k = key(prefix, r.nextInt(600));
                MemorySegment ks = MemorySegment.ofArray(k);
                switch (r.nextInt(10)) {
                    case 0, 1 -> {
                        byte[] v = value(r);
                        if (r.nextBoolean()) {
                            db.put(k, v);
                        } else {
                            db.put(wo, ks, MemorySegment.ofArray(v));
                        }
                        mine.put(k, v);
                    }
                    case 2 -> {
                        db.delete(k);
                        mine.remove(k);
                    }
                    case 3 -> {
                        batch.clear();
                        TreeMap<byte[], byte[]> next = new TreeMap<>(mine);
                        for (int i = r.nextInt(10); i >= 0; i--) {
                            byte[] bk = key(prefix, r.nextInt(600));
                            switch (r.nextInt(20)) {
                                case 0, 1, 2, 3, 4 -> {
                                    batch.delete(bk);
                                    next.remove(bk);
                                }
                                case 5 -> {
                                    byte[] e = key(prefix, r.nextInt(600));
                                    if (Arrays.compareUnsigned(bk, e) > 0) {
                                        byte[] t = bk;
                                        bk = e;
                                        e = t;
                                    }
                                    batch.deleteRange(bk, e);
                                    next.subMap(bk, true, e, false).clear();
                                }
                                default -> {
                                    byte[] v = value(r);
                                    batch.put(bk, v);
                                    next.put(bk, v);
                                }
                            }
                        }
                        db.write(wo, batch);
                        mine = next;
                    }
                    case 4 -> {
                        assertArrayEquals(mine.get(k), db.get(k), () -> "get " + hex(k));
                        long n = db.get(plain, ks, out);
                        byte[] expected = mine.get(k);
                        assertEquals(expected == null ? -1 : expected.length, n);
                        reads.incrementAndGet();
                    }
                    case 5 -> {
                        try (PinnedValue pv = db.getPinned(plain, ks)) {
                            byte[] expected = mine.get(k);
                            assertArrayEquals(expected, pv == null ? null : pv.segment().toArray(ValueLayout.JAVA_BYTE));
                        }
                        reads.incrementAndGet();
                    }
                    case 6 -> {
                        List<byte[]> keys = new ArrayList<>();
                        for (int i = r.nextInt(20); i >= 0; i--) {
                            keys.add(key(prefix, r.nextInt(600)));
                        }
                        List<byte[]> values = db.multiGetAsList(keys);
                        for (int i = 0; i < keys.size(); i++) {
                            assertArrayEquals(mine.get(keys.get(i)), values.get(i));
                        }
                        reads.addAndGet(keys.size());
                    }
                    case 7 -> {
                        assertModelEquals(mine, iterate(db, bounded, r.nextBoolean() ? 0 : 1 + r.nextInt(8192)), "iteration");
                        reads.addAndGet(mine.size());
                    }
                    case 8 -> {
                        // a snapshot keeps seeing the state it was taken in while this thread writes on
                        TreeMap<byte[], byte[]> then = new TreeMap<>(mine);
                        try (Snapshot s = db.getSnapshot();
                             ReadOptions at = new ReadOptions().setSnapshot(s)
                                     .setIterateLowerBound(MemorySegment.ofArray(prefix))
                                     .setIterateUpperBound(MemorySegment.ofArray(end))) {
                            for (int i = 0; i < 5; i++) {
                                byte[] wk = key(prefix, r.nextInt(600));
                                byte[] v = value(r);
                                db.put(wk, v);
                                mine.put(wk, v);
                            }
                            assertModelEquals(then, iterate(db, at, 0), "snapshot iteration");
                            long n = db.get(at, ks, out);
                            assertEquals(then.containsKey(k) ? then.get(k).length : -1, n);
                            at.setSnapshot(null);
                        }
                        reads.addAndGet(then.size());
                    }
                    default -> {
                        // walk backwards from a random key: the model's view of the same walk
                        try (RocksIterator it = db.newIterator(bounded)) {
                            it.seekForPrev(k);
                            NavigableMap<byte[], byte[]> before = mine.headMap(k, true).descendingMap();
                            int steps = 0;
                            for (Map.Entry<byte[], byte[]> e : before.entrySet()) {
                                if (steps++ == 10) {
                                    break;
                                }
                                assertTrue(it.isValid());
                                assertArrayEquals(e.getKey(), it.keyBytes());
                                assertArrayEquals(e.getValue(), it.valueBytes());
                                it.prev();
                            }
                            if (steps <= 10 && steps == before.size()) {
                                assertFalse(it.isValid());
                            }
                        }
                        reads.incrementAndGet();
                    }
                }
                ops.incrementAndGet();
            }
        }
        return mine;
    }

    private static TreeMap<byte[], byte[]> iterate(RocksDB db, ReadOptions ro, long prefetch) {
        TreeMap<byte[], byte[]> seen = model();
        try (RocksIterator it = db.newIterator(ro.setPrefetchBytes(prefetch))) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                seen.put(it.keyBytes(), it.valueBytes());
            }
        }
        return seen;
    }

    // ---- confinement ------------------------------------------------------------------------------

    private static Throwable onOtherThread(Runnable r) {
        try {
            CompletableFuture.runAsync(r).get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Every public method of an open iterator, called from another thread, throws WrongThreadException. */
    @Test
    void iteratorsAreConfinedToTheirThread() {
        Table<RocksIterator> table = ApiTables.iterator();
        table.assertCoversPublicApi();
        try (RocksDB db = open(dir.resolve("db")); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"));
            Ctx ctx = new Ctx(dir);
            try (RocksIterator it = db.newIterator(ro.setPrefetchBytes(1024))) {
                it.seekToFirst();
                MemorySegment view = it.key();
                int refused = 0;
                for (Map.Entry<String, BiConsumer<RocksIterator, Ctx>> e : table.guarded.entrySet()) {
                    Throwable t = onOtherThread(() -> e.getValue().accept(it, ctx));
                    assertInstanceOf(WrongThreadException.class, t, "RocksIterator." + e.getKey() + " from another thread");
                    refused++;
                }
                assertInstanceOf(WrongThreadException.class, onOtherThread(it::close), "close() from another thread");
                assertNull(onOtherThread(it::isClosed));
                assertInstanceOf(WrongThreadException.class, onOtherThread(() -> view.get(ValueLayout.JAVA_BYTE, 0)),
                        "a key view read from another thread");
                // untouched on its own thread
                assertFalse(it.isClosed());
                assertArrayEquals(bytes("a"), it.keyBytes());
                it.next();
                assertArrayEquals(bytes("b"), it.keyBytes());
                report("confinement: RocksIterator: %d methods + close() + key view refused on another thread "
                        + "with WrongThreadException", refused);
            } finally {
                ctx.arena.close();
            }
        }
    }

    /**
     * A pinned value's bytes are readable only on the reading thread; close() too. (segment() and
     * byteSize() merely hand out the confined segment and its size: they do not read.)
     */
    @Test
    void pinnedValuesAreConfinedToTheirThread() {
        try (RocksDB db = open(dir.resolve("db")); ReadOptions ro = new ReadOptions()) {
            db.put(bytes("k"), bytes("pinned"));
            try (PinnedValue pv = db.getPinned(ro, MemorySegment.ofArray(bytes("k")))) {
                assertInstanceOf(WrongThreadException.class, onOtherThread(pv::toByteArray));
                assertInstanceOf(WrongThreadException.class, onOtherThread(() -> pv.segment().get(ValueLayout.JAVA_BYTE, 0)));
                assertInstanceOf(WrongThreadException.class, onOtherThread(pv::close));
                assertNull(onOtherThread(pv::byteSize));
                assertFalse(pv.isClosed());
                assertEquals("pinned", string(pv.toByteArray()));
            }
            // and the database closes: the refused close() on the other thread left no pin behind
        }
    }
}
