package io.rocksffm.jmh;

import io.rocksffm.PinnedValue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
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
 * Point reads of existing keys, after the data was flushed and compacted (see {@link Datasets}):
 * every op reads one key chosen by {@code keyOrder} (round-robin, random, or {@code single}: the
 * same key every time, which isolates the per-call cost of each API) and checks it was found.
 *
 * <p>Pairs (same params, one op each):
 * <table>
 * <tr><th>variant</th><th>{@code ffm_} (rocksffm)</th><th>{@code jni_} (rocksdbjni)</th></tr>
 * <tr><td>getArray</td><td>{@code db.get(byte[])}: new array</td><td>{@code db.get(byte[])}: new array</td></tr>
 * <tr><td>getIntoArray</td><td>{@code db.get(ro, ofArray(key), ofArray(value))}: copy into a
 *     preallocated array</td><td>{@code db.get(ro, byte[], byte[])}: copy into a preallocated array</td></tr>
 * <tr><td>getPreallocated</td><td>{@code db.get(ro, MemorySegment, MemorySegment)}: native key,
 *     copy into a preallocated native segment</td><td>{@code db.get(ro, ByteBuffer, ByteBuffer)}:
 *     direct buffers, copy into a preallocated one</td></tr>
 * <tr><td>getPinned</td><td>{@code db.getPinned(ro, key)}: zero-copy view, closed every op</td>
 *     <td>JNI has no zero-copy read; its closest (and fastest native-memory) path, the same call
 *     as getPreallocated</td></tr>
 * </table>
 * Both sides return (to JMH's blackhole) the value array, the length, or the first value byte.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class GetBenchmarks {

    /** Parameters shared by both bindings' states. */
    @State(Scope.Thread)
    public abstract static class Params {
        @Param({"100000"})
        public long keyCount;

        @Param({"12", "1024"})
        public int keySize;

        @Param({"64", "2048", "65536"})
        public int valueSize;

        /** roundRobin, random, or single (the same key every op: per-call overhead). */
        @Param({"random", "roundRobin", "single"})
        public String keyOrder;

        Bench.KeyFormat keys;
        Bench.KeyChooser chooser;

        void init() {
            Bench.requireSameEngine();
            keys = new Bench.KeyFormat(keySize, keyCount);
            chooser = new Bench.KeyChooser(keyOrder, keyCount);
        }

        long first() {
            return chooser.single() ? chooser.singleKey() : 0;
        }
    }

    @State(Scope.Thread)
    public static class Ffm extends Params {
        io.rocksffm.RocksDB db;
        io.rocksffm.ReadOptions read;
        Arena arena;
        byte[] keyArray;
        byte[] valueArray;
        MemorySegment key;
        MemorySegment value;

        @Setup(Level.Trial)
        public void open() {
            init();
            db = Datasets.openFfm(keyCount, keySize, valueSize);
            read = new io.rocksffm.ReadOptions();
            arena = Arena.ofConfined();
            keyArray = keys.newKey(first());
            valueArray = new byte[valueSize];
            key = arena.allocate(keySize);
            keys.init(key, first());
            value = arena.allocate(valueSize);
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
        byte[] keyArray;
        byte[] valueArray;
        ByteBuffer key;
        ByteBuffer value;

        @Setup(Level.Trial)
        public void open() throws org.rocksdb.RocksDBException {
            init();
            db = Datasets.openJni(keyCount, keySize, valueSize);
            read = new org.rocksdb.ReadOptions();
            keyArray = keys.newKey(first());
            valueArray = new byte[valueSize];
            key = ByteBuffer.allocateDirect(keySize);
            keys.init(key, first());
            value = ByteBuffer.allocateDirect(valueSize);
        }

        @TearDown(Level.Trial)
        public void close() {
            read.close();
            db.close();
        }
    }

    private static long found(long length) {
        if (length < 0) {
            throw new IllegalStateException("key not found");
        }
        return length;
    }

    private static <T> T found(T value) {
        if (value == null) {
            throw new IllegalStateException("key not found");
        }
        return value;
    }

    // ---- getArray -------------------------------------------------------------------------------

    @Benchmark
    public byte[] ffm_getArray(Ffm s) {
        if (!s.chooser.single()) {
            s.keys.write(s.keyArray, s.chooser.next());
        }
        return found(s.db.get(s.keyArray));
    }

    @Benchmark
    public byte[] jni_getArray(Jni s) throws org.rocksdb.RocksDBException {
        if (!s.chooser.single()) {
            s.keys.write(s.keyArray, s.chooser.next());
        }
        return found(s.db.get(s.keyArray));
    }

    // ---- getIntoArray ---------------------------------------------------------------------------

    @Benchmark
    public long ffm_getIntoArray(Ffm s) {
        if (!s.chooser.single()) {
            s.keys.write(s.keyArray, s.chooser.next());
        }
        return found(s.db.get(s.read, MemorySegment.ofArray(s.keyArray), MemorySegment.ofArray(s.valueArray)));
    }

    @Benchmark
    public long jni_getIntoArray(Jni s) throws org.rocksdb.RocksDBException {
        if (!s.chooser.single()) {
            s.keys.write(s.keyArray, s.chooser.next());
        }
        return found(s.db.get(s.read, s.keyArray, s.valueArray));
    }

    // ---- getPreallocated ------------------------------------------------------------------------

    @Benchmark
    public long ffm_getPreallocated(Ffm s) {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        return found(s.db.get(s.read, s.key, s.value));
    }

    @Benchmark
    public long jni_getPreallocated(Jni s) throws org.rocksdb.RocksDBException {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        s.key.clear();   // get(...) consumes the key buffer and limits the value buffer
        s.value.clear();
        return found(s.db.get(s.read, s.key, s.value));
    }

    // ---- getPinned ------------------------------------------------------------------------------

    @Benchmark
    public byte ffm_getPinned(Ffm s) {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        try (PinnedValue pinned = found(s.db.getPinned(s.read, s.key))) {
            return pinned.segment().get(ValueLayout.JAVA_BYTE, 0);
        }
    }

    @Benchmark
    public byte jni_getPinned(Jni s) throws org.rocksdb.RocksDBException {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        s.key.clear();
        s.value.clear();
        found(s.db.get(s.read, s.key, s.value));
        return s.value.get(0);
    }
}
