package io.rocksffm.jmh;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Point gets and puts ({@code db.get(byte[])}, {@code db.put(byte[], byte[])} on both sides) from
 * different kinds of threads, one database shared by all of them: what a server does.
 *
 * <p>Variants (one op = one get or one put):
 * <table>
 * <tr><th>variant</th><th>threads</th></tr>
 * <tr><td>get1, put1</td><td>1 platform thread (JMH's)</td></tr>
 * <tr><td>get8, put8</td><td>8 platform threads (JMH {@code @Threads(8)}), each with its own keys</td></tr>
 * <tr><td>getVirtual, putVirtual</td><td>one virtual thread per operation: every invocation submits
 *     {@value #TASKS} tasks of one op each to {@code Executors.newVirtualThreadPerTaskExecutor()}
 *     and waits for all of them (the executor's {@code close()})</td></tr>
 * </table>
 * Gets read random existing keys of a read-only dataset ({@link Datasets}, cache warm); puts write
 * random keys of {@code keyCount} into a fresh database (default options, WAL on, no sync), the
 * same value every time. A get that finds nothing fails the run.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ConcurrencyBenchmarks {
    /** Virtual-thread tasks per invocation of the *Virtual variants. */
    public static final int TASKS = 10_000;

    /** The database and inputs every thread shares. */
    @State(Scope.Benchmark)
    public abstract static class Shared {
        @Param({"100000"})
        public long keyCount;

        @Param({"12"})
        public int keySize;

        @Param({"64"})
        public int valueSize;

        Bench.KeyFormat keys;
        /** One key per task of an invocation (random, fixed): the *Virtual variants. */
        byte[][] taskKeys;
        byte[] value;
        Path dir;
        final AtomicInteger threads = new AtomicInteger();
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        void init() {
            Bench.requireSameEngine();
            keys = new Bench.KeyFormat(keySize, keyCount);
            Bench.KeyChooser chooser = new Bench.KeyChooser(Bench.KeyChooser.RANDOM, keyCount);
            taskKeys = new byte[TASKS][];
            for (int i = 0; i < TASKS; i++) {
                taskKeys[i] = keys.newKey(chooser.next());
            }
            value = Bench.value(valueSize, 1);
        }

        /** Runs {@code op} for every task key, one virtual thread each; rethrows the first failure. */
        void virtual(KeyOp op) {
            byte[][] k = taskKeys;
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < k.length; i++) {
                    byte[] key = k[i];
                    executor.execute(() -> {
                        try {
                            op.run(key);
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        }
                    });
                }
            }
            Throwable t = failure.get();
            if (t != null) {
                throw new IllegalStateException("a virtual-thread task failed", t);
            }
        }
    }

    @FunctionalInterface
    interface KeyOp {
        void run(byte[] key) throws Exception;
    }

    /** The key of one platform thread: random keys, a different sequence per thread. */
    abstract static class ThreadKey {
        Bench.KeyChooser chooser;
        byte[] key;

        void init(Shared shared) {
            chooser = new Bench.KeyChooser(Bench.KeyChooser.RANDOM, shared.keyCount);
            int skip = shared.threads.getAndIncrement() * 1009;
            for (int i = 0; i < skip; i++) {
                chooser.next();
            }
            key = shared.keys.newKey(0);
        }

        byte[] next(Shared shared) {
            shared.keys.write(key, chooser.next());
            return key;
        }
    }

    @State(Scope.Thread)
    public static class FfmKey extends ThreadKey {
        @Setup(Level.Trial)
        public void setup(Ffm shared) {
            init(shared);
        }
    }

    @State(Scope.Thread)
    public static class JniKey extends ThreadKey {
        @Setup(Level.Trial)
        public void setup(Jni shared) {
            init(shared);
        }
    }

    @State(Scope.Benchmark)
    public static class Ffm extends Shared {
        io.rocksffm.RocksDB reads;
        io.rocksffm.RocksDB writes;

        @Setup(Level.Trial)
        public void open() {
            init();
            reads = Datasets.openFfm(keyCount, keySize, valueSize);
            dir = Bench.freshDir("concurrency-ffm");
            try (io.rocksffm.Options options = new io.rocksffm.Options().setCreateIfMissing(true)) {
                writes = io.rocksffm.RocksDB.open(dir, options);
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            reads.close();
            writes.close();
            Bench.deleteTree(dir);
        }
    }

    @State(Scope.Benchmark)
    public static class Jni extends Shared {
        org.rocksdb.RocksDB reads;
        org.rocksdb.RocksDB writes;

        @Setup(Level.Trial)
        public void open() throws org.rocksdb.RocksDBException {
            init();
            reads = Datasets.openJni(keyCount, keySize, valueSize);
            dir = Bench.freshDir("concurrency-jni");
            try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true)) {
                writes = org.rocksdb.RocksDB.open(options, dir.toString());
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            reads.close();
            writes.close();
            Bench.deleteTree(dir);
        }
    }

    private static byte[] found(byte[] value) {
        if (value == null) {
            throw new IllegalStateException("key not found");
        }
        return value;
    }

    // ---- gets -----------------------------------------------------------------------------------

    @Benchmark
    @Threads(1)
    public byte[] ffm_get1(Ffm s, FfmKey t) {
        return found(s.reads.get(t.next(s)));
    }

    @Benchmark
    @Threads(1)
    public byte[] jni_get1(Jni s, JniKey t) throws org.rocksdb.RocksDBException {
        return found(s.reads.get(t.next(s)));
    }

    @Benchmark
    @Threads(8)
    public byte[] ffm_get8(Ffm s, FfmKey t) {
        return found(s.reads.get(t.next(s)));
    }

    @Benchmark
    @Threads(8)
    public byte[] jni_get8(Jni s, JniKey t) throws org.rocksdb.RocksDBException {
        return found(s.reads.get(t.next(s)));
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public void ffm_getVirtual(Ffm s) {
        io.rocksffm.RocksDB db = s.reads;
        s.virtual(key -> found(db.get(key)));
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public void jni_getVirtual(Jni s) {
        org.rocksdb.RocksDB db = s.reads;
        s.virtual(key -> found(db.get(key)));
    }

    // ---- puts -----------------------------------------------------------------------------------

    @Benchmark
    @Threads(1)
    public void ffm_put1(Ffm s, FfmKey t) {
        s.writes.put(t.next(s), s.value);
    }

    @Benchmark
    @Threads(1)
    public void jni_put1(Jni s, JniKey t) throws org.rocksdb.RocksDBException {
        s.writes.put(t.next(s), s.value);
    }

    @Benchmark
    @Threads(8)
    public void ffm_put8(Ffm s, FfmKey t) {
        s.writes.put(t.next(s), s.value);
    }

    @Benchmark
    @Threads(8)
    public void jni_put8(Jni s, JniKey t) throws org.rocksdb.RocksDBException {
        s.writes.put(t.next(s), s.value);
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public void ffm_putVirtual(Ffm s) {
        io.rocksffm.RocksDB db = s.writes;
        byte[] value = s.value;
        s.virtual(key -> db.put(key, value));
    }

    @Benchmark
    @OperationsPerInvocation(TASKS)
    public void jni_putVirtual(Jni s) {
        org.rocksdb.RocksDB db = s.writes;
        byte[] value = s.value;
        s.virtual(key -> db.put(key, value));
    }
}
