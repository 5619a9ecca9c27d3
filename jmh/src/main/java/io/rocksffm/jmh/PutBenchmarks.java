package io.rocksffm.jmh;

import java.lang.foreign.MemorySegment;
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
 * Single puts into a fresh database (default options, default write options: WAL on, no sync),
 * keys round-robin over {@code keyCount} (so the data set stays bounded and later passes
 * overwrite), the same value bytes every time.
 *
 * <p>Pairs (same params, one put per op):
 * <table>
 * <tr><th>variant</th><th>{@code ffm_} (rocksffm)</th><th>{@code jni_} (rocksdbjni)</th></tr>
 * <tr><td>putArray</td><td>{@code db.put(byte[], byte[])}</td><td>{@code db.put(byte[], byte[])}</td></tr>
 * <tr><td>putDirect</td><td>direct {@code ByteBuffer}s through
 *     {@code db.put(wo, MemorySegment.ofBuffer(k), MemorySegment.ofBuffer(v))} (rocksffm has no
 *     ByteBuffer overload)</td><td>{@code db.put(wo, ByteBuffer, ByteBuffer)} (direct; positions
 *     reset after the call consumed them)</td></tr>
 * <tr><td>putSegment</td><td>{@code db.put(wo, MemorySegment, MemorySegment)}, native segments</td>
 *     <td>the same native segments handed over as {@code segment.asByteBuffer()} views to
 *     {@code db.put(wo, ByteBuffer, ByteBuffer)}: what a JNI caller holding segments does</td></tr>
 * </table>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PutBenchmarks {

    @State(Scope.Thread)
    public abstract static class Params extends WriteInputs {
        @Param({"100000"})
        public long keyCount;

        @Param({"16"})
        public int keySize;

        @Param({"64", "1024", "4096"})
        public int valueSize;


        void init() {
            initInputs(keySize, keyCount, valueSize, "put");
        }

    }

    @State(Scope.Thread)
    public static class Ffm extends Params {
        io.rocksffm.RocksDB db;
        io.rocksffm.WriteOptions write;

        @Setup(Level.Trial)
        public void open() {
            init();
            try (io.rocksffm.Options options = new io.rocksffm.Options().setCreateIfMissing(true)) {
                db = io.rocksffm.RocksDB.open(dir, options);
            }
            write = new io.rocksffm.WriteOptions();
        }

        @TearDown(Level.Trial)
        public void close() {
            write.close();
            db.close();
            cleanup();
        }
    }

    @State(Scope.Thread)
    public static class Jni extends Params {
        org.rocksdb.RocksDB db;
        org.rocksdb.WriteOptions write;

        @Setup(Level.Trial)
        public void open() throws org.rocksdb.RocksDBException {
            init();
            try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true)) {
                db = org.rocksdb.RocksDB.open(options, dir.toString());
            }
            write = new org.rocksdb.WriteOptions();
        }

        @TearDown(Level.Trial)
        public void close() {
            write.close();
            db.close();
            cleanup();
        }
    }

    // ---- putArray -------------------------------------------------------------------------------

    @Benchmark
    public void ffm_putArray(Ffm s) {
        s.keys.write(s.keyArray, s.chooser.next());
        s.db.put(s.keyArray, s.valueArray);
    }

    @Benchmark
    public void jni_putArray(Jni s) throws org.rocksdb.RocksDBException {
        s.keys.write(s.keyArray, s.chooser.next());
        s.db.put(s.keyArray, s.valueArray);
    }

    // ---- putDirect ------------------------------------------------------------------------------

    @Benchmark
    public void ffm_putDirect(Ffm s) {
        s.keys.write(s.keyDirect, s.chooser.next());
        s.db.put(s.write, MemorySegment.ofBuffer(s.keyDirect), MemorySegment.ofBuffer(s.valueDirect));
    }

    @Benchmark
    public void jni_putDirect(Jni s) throws org.rocksdb.RocksDBException {
        s.keys.write(s.keyDirect, s.chooser.next());
        s.db.put(s.write, s.keyDirect, s.valueDirect);
        s.keyDirect.clear();   // put(...) advanced both positions to the limit
        s.valueDirect.clear();
    }

    // ---- putSegment -----------------------------------------------------------------------------

    @Benchmark
    public void ffm_putSegment(Ffm s) {
        s.keys.write(s.keySegment, s.chooser.next());
        s.db.put(s.write, s.keySegment, s.valueSegment);
    }

    @Benchmark
    public void jni_putSegment(Jni s) throws org.rocksdb.RocksDBException {
        s.keys.write(s.keySegment, s.chooser.next());
        s.db.put(s.write, s.keySegment.asByteBuffer(), s.valueSegment.asByteBuffer());
    }
}
