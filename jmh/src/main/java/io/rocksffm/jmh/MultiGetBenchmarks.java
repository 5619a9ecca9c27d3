package io.rocksffm.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reads of {@code batchSize} random existing keys per op (flushed, compacted, cached dataset; see
 * {@link Datasets}). The keys of an op are drawn before it is measured: the state holds
 * {@value #SETS} key sets and each op takes the next one.
 *
 * <p>Pairs (same params, one op = {@code batchSize} keys):
 * <table>
 * <tr><th>variant</th><th>{@code ffm_} (rocksffm)</th><th>{@code jni_} (rocksdbjni)</th></tr>
 * <tr><td>multiGetList</td><td>{@code db.multiGetAsList(List<byte[]>)}</td>
 *     <td>{@code db.multiGetAsList(List<byte[]>)}</td></tr>
 * <tr><td>multiGetBuffers</td><td>{@code db.multiGet(cf, ro, MemorySegment[] keys, MemorySegment[] values, ...)}:
 *     native keys, values copied into preallocated native segments, no allocation</td>
 *     <td>{@code db.multiGetByteBuffers(ro, keys, values)}: direct buffers</td></tr>
 * <tr><td>singleGets</td><td>{@code batchSize} calls of {@code db.get(ro, MemorySegment, MemorySegment)}</td>
 *     <td>{@code batchSize} calls of {@code db.get(ro, ByteBuffer, ByteBuffer)}</td></tr>
 * </table>
 * The FFM columns of multiGetBuffers and singleGets compare a batched read with as many single reads.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MultiGetBenchmarks {
    static final int SETS = 64;

    @State(Scope.Thread)
    public abstract static class Params {
        @Param({"100000"})
        public long keyCount;

        @Param({"16"})
        public int keySize;

        @Param({"64"})
        public int valueSize;

        @Param({"10", "100", "1000"})
        public int batchSize;

        Bench.KeyFormat keys;
        /** SETS sets of batchSize key indexes. */
        long[][] sets;
        int next;

        void init() {
            Bench.requireSameEngine();
            keys = new Bench.KeyFormat(keySize, keyCount);
            SplittableRandom r = new SplittableRandom(42);
            sets = new long[SETS][batchSize];
            for (long[] set : sets) {
                for (int i = 0; i < batchSize; i++) {
                    set[i] = r.nextLong(keyCount);
                }
            }
        }

        int nextSet() {
            int s = next;
            next = (s + 1) % SETS;
            return s;
        }
    }

    @State(Scope.Thread)
    public static class Ffm extends Params {
        io.rocksffm.RocksDB db;
        io.rocksffm.ReadOptions read;
        io.rocksffm.ColumnFamilyHandle family;
        Arena arena;
        List<List<byte[]>> keyLists;
        MemorySegment[][] keySegments;
        MemorySegment[] values;
        long[] lengths;
        io.rocksffm.RocksDBException[] errors;

        @Setup(Level.Trial)
        public void open() {
            init();
            db = Datasets.openFfm(keyCount, keySize, valueSize);
            read = new io.rocksffm.ReadOptions();
            family = db.defaultColumnFamily();
            arena = Arena.ofConfined();
            keyLists = new ArrayList<>();
            keySegments = new MemorySegment[SETS][batchSize];
            for (int s = 0; s < SETS; s++) {
                List<byte[]> list = new ArrayList<>();
                for (int i = 0; i < batchSize; i++) {
                    list.add(keys.newKey(sets[s][i]));
                    keySegments[s][i] = arena.allocate(keySize);
                    keys.init(keySegments[s][i], sets[s][i]);
                }
                keyLists.add(list);
            }
            values = new MemorySegment[batchSize];
            for (int i = 0; i < batchSize; i++) {
                values[i] = arena.allocate(valueSize);
            }
            lengths = new long[batchSize];
            errors = new io.rocksffm.RocksDBException[batchSize];
        }

        @TearDown(Level.Trial)
        public void close() {
            read.close();
            db.close();
            arena.close();
        }
    }

    @State(Scope.Thread)
    public static class Jni extends Params {
        org.rocksdb.RocksDB db;
        org.rocksdb.ReadOptions read;
        List<List<byte[]>> keyLists;
        List<List<ByteBuffer>> keyBuffers;
        List<ByteBuffer> values;

        @Setup(Level.Trial)
        public void open() throws org.rocksdb.RocksDBException {
            init();
            db = Datasets.openJni(keyCount, keySize, valueSize);
            read = new org.rocksdb.ReadOptions();
            keyLists = new ArrayList<>();
            keyBuffers = new ArrayList<>();
            for (int s = 0; s < SETS; s++) {
                List<byte[]> list = new ArrayList<>();
                List<ByteBuffer> buffers = new ArrayList<>();
                for (int i = 0; i < batchSize; i++) {
                    list.add(keys.newKey(sets[s][i]));
                    ByteBuffer b = ByteBuffer.allocateDirect(keySize);
                    keys.init(b, sets[s][i]);
                    buffers.add(b);
                }
                keyLists.add(list);
                keyBuffers.add(buffers);
            }
            values = new ArrayList<>();
            for (int i = 0; i < batchSize; i++) {
                values.add(ByteBuffer.allocateDirect(valueSize));
            }
        }

        @TearDown(Level.Trial)
        public void close() {
            read.close();
            db.close();
        }
    }

    private static int checkAll(int found, int expected) {
        if (found != expected) {
            throw new IllegalStateException("found " + found + " of " + expected + " keys");
        }
        return found;
    }

    // ---- multiGetList ---------------------------------------------------------------------------

    @Benchmark
    public List<byte[]> ffm_multiGetList(Ffm s) {
        return s.db.multiGetAsList(s.keyLists.get(s.nextSet()));
    }

    @Benchmark
    public List<byte[]> jni_multiGetList(Jni s) throws org.rocksdb.RocksDBException {
        return s.db.multiGetAsList(s.keyLists.get(s.nextSet()));
    }

    // ---- multiGetBuffers ------------------------------------------------------------------------

    @Benchmark
    public int ffm_multiGetBuffers(Ffm s) {
        return checkAll(s.db.multiGet(s.family, s.read, s.keySegments[s.nextSet()], s.values, s.lengths, s.errors, false),
                s.batchSize);
    }

    @Benchmark
    public Object jni_multiGetBuffers(Jni s) throws org.rocksdb.RocksDBException {
        List<ByteBuffer> keys = s.keyBuffers.get(s.nextSet());
        for (ByteBuffer k : keys) {
            k.clear();
        }
        for (ByteBuffer v : s.values) {
            v.clear();
        }
        return s.db.multiGetByteBuffers(s.read, keys, s.values);
    }

    // ---- singleGets -----------------------------------------------------------------------------

    @Benchmark
    public int ffm_singleGets(Ffm s) {
        MemorySegment[] keys = s.keySegments[s.nextSet()];
        int found = 0;
        for (MemorySegment k : keys) {
            found += s.db.get(s.read, k, s.values[0]) >= 0 ? 1 : 0;
        }
        return checkAll(found, s.batchSize);
    }

    @Benchmark
    public int jni_singleGets(Jni s) throws org.rocksdb.RocksDBException {
        List<ByteBuffer> keys = s.keyBuffers.get(s.nextSet());
        ByteBuffer value = s.values.get(0);
        int found = 0;
        for (ByteBuffer k : keys) {
            k.clear();
            value.clear();
            found += s.db.get(s.read, k, value) >= 0 ? 1 : 0;
        }
        return checkAll(found, s.batchSize);
    }
}
