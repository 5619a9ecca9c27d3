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
 * Building write batches, and optionally writing them. One op is one {@code put} into the batch;
 * every {@code numOpsPerBatch} puts the batch is written to the database (if {@code writeToDB})
 * and cleared, so the score is puts per second either way. Keys are round-robin over
 * {@code keyCount} (16-byte counters by default), the value bytes are the same every put. The
 * batch is created once per trial with {@code writeBatchAllocation} bytes of initial capacity
 * ({@code auto}: enough for a whole batch, {@code (keySize + valueSize + 8) * numOpsPerBatch + 64})
 * and reused (cleared) across batches, on both sides. The database is fresh, default options.
 *
 * <p>Pairs (same params):
 * <table>
 * <tr><th>variant</th><th>{@code ffm_} (rocksffm)</th><th>{@code jni_} (rocksdbjni)</th></tr>
 * <tr><td>putBatchArray</td><td>Java-built {@code io.rocksffm.WriteBatch.put(byte[], byte[])};
 *     {@code db.write(wo, batch)}</td><td>{@code org.rocksdb.WriteBatch.put(byte[], byte[])};
 *     {@code db.write(wo, batch)}</td></tr>
 * <tr><td>putBatchNative</td><td>{@code WriteBatch.put(MemorySegment, MemorySegment)}, native
 *     segments</td><td>{@code WriteBatch.put(ByteBuffer, ByteBuffer)}, direct buffers (positions
 *     reset after the call consumed them)</td></tr>
 * </table>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WriteBatchBenchmarks {

    @State(Scope.Thread)
    public abstract static class Params extends WriteInputs {
        @Param({"100000"})
        public long keyCount;

        @Param({"16"})
        public int keySize;

        @Param({"32", "128", "1024", "16384"})
        public int valueSize;

        @Param({"1", "20", "100", "1000"})
        public int numOpsPerBatch;

        /** Initial batch capacity in bytes, or {@code auto} (a whole batch fits). */
        @Param({"auto"})
        public String writeBatchAllocation;

        @Param({"false", "true"})
        public boolean writeToDB;

        int inBatch;

        void init() {
            initInputs(keySize, keyCount, valueSize, "batch");
        }

        long allocation() {
            if ("auto".equals(writeBatchAllocation)) {
                return (keySize + valueSize + 8L) * numOpsPerBatch + 64;
            }
            return Long.parseLong(writeBatchAllocation);
        }

        /** Counts one put; true when the batch is full and must be written/cleared. */
        boolean full() {
            if (++inBatch == numOpsPerBatch) {
                inBatch = 0;
                return true;
            }
            return false;
        }

    }

    @State(Scope.Thread)
    public static class Ffm extends Params {
        io.rocksffm.RocksDB db;
        io.rocksffm.WriteOptions write;
        io.rocksffm.WriteBatch batch;

        @Setup(Level.Trial)
        public void open() {
            init();
            try (io.rocksffm.Options options = new io.rocksffm.Options().setCreateIfMissing(true)) {
                db = io.rocksffm.RocksDB.open(dir, options);
            }
            write = new io.rocksffm.WriteOptions();
            batch = new io.rocksffm.WriteBatch(allocation());
        }

        void flush() {
            if (writeToDB) {
                db.write(write, batch);
            }
            batch.clear();
        }

        @TearDown(Level.Trial)
        public void close() {
            batch.close();
            write.close();
            db.close();
            cleanup();
        }
    }

    @State(Scope.Thread)
    public static class Jni extends Params {
        org.rocksdb.RocksDB db;
        org.rocksdb.WriteOptions write;
        org.rocksdb.WriteBatch batch;

        @Setup(Level.Trial)
        public void open() throws org.rocksdb.RocksDBException {
            init();
            try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true)) {
                db = org.rocksdb.RocksDB.open(options, dir.toString());
            }
            write = new org.rocksdb.WriteOptions();
            batch = new org.rocksdb.WriteBatch(Math.toIntExact(allocation()));
        }

        void flush() throws org.rocksdb.RocksDBException {
            if (writeToDB) {
                db.write(write, batch);
            }
            batch.clear();
        }

        @TearDown(Level.Trial)
        public void close() {
            batch.close();
            write.close();
            db.close();
            cleanup();
        }
    }

    // ---- putBatchArray --------------------------------------------------------------------------

    @Benchmark
    public void ffm_putBatchArray(Ffm s) {
        s.keys.write(s.keyArray, s.chooser.next());
        s.batch.put(s.keyArray, s.valueArray);
        if (s.full()) {
            s.flush();
        }
    }

    @Benchmark
    public void jni_putBatchArray(Jni s) throws org.rocksdb.RocksDBException {
        s.keys.write(s.keyArray, s.chooser.next());
        s.batch.put(s.keyArray, s.valueArray);
        if (s.full()) {
            s.flush();
        }
    }

    // ---- putBatchNative -------------------------------------------------------------------------

    @Benchmark
    public void ffm_putBatchNative(Ffm s) {
        s.keys.write(s.keySegment, s.chooser.next());
        s.batch.put(s.keySegment, s.valueSegment);
        if (s.full()) {
            s.flush();
        }
    }

    @Benchmark
    public void jni_putBatchNative(Jni s) throws org.rocksdb.RocksDBException {
        s.keys.write(s.keyDirect, s.chooser.next());
        s.batch.put(s.keyDirect, s.valueDirect);
        s.keyDirect.clear();   // put(...) advanced both positions to the limit
        s.valueDirect.clear();
        if (s.full()) {
            s.flush();
        }
    }
}
