package io.rocksffm.jmh;

import io.rocksffm.RocksIterator;

import java.lang.foreign.Arena;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Forward iteration over a flushed, compacted dataset opened read-only (see {@link Datasets}).
 * The scans' op is one <em>full</em> scan: new iterator, {@code seekToFirst}, visit every entry,
 * close; each checks it saw {@code keyCount} entries. {@code seekScan}'s op is one seek to a
 * random key followed by reading up to {@value #SEEK_SCAN_LENGTH} entries, on an iterator kept
 * open for the whole measurement iteration.
 *
 * <p>{@code prefetch} is rocksffm's run buffer ({@code ReadOptions.setPrefetchBytes}; 0 = none).
 * rocksdbjni has no such option, so the parameter exists only in the {@code ffm_} benchmarks'
 * state, and the report pairs every {@code prefetch} value of an {@code ffm_} result with the
 * {@code jni_} result of the other parameters.
 *
 * <p>Pairs (same params):
 * <table>
 * <tr><th>variant</th><th>{@code ffm_} (rocksffm)</th><th>{@code jni_} (rocksdbjni)</th></tr>
 * <tr><td>scan</td><td>{@code key()} and {@code value()}: zero-copy views</td><td>{@code key()}
 *     and {@code value()}: new arrays</td></tr>
 * <tr><td>keyScan</td><td>{@code key()} view only</td><td>{@code key()} array only</td></tr>
 * <tr><td>valueScan</td><td>{@code value()} view only</td><td>{@code value()} array only</td></tr>
 * <tr><td>scanCopy</td><td>{@code key(MemorySegment)}, {@code value(MemorySegment)}: copies into
 *     preallocated native segments</td><td>{@code key(ByteBuffer)}, {@code value(ByteBuffer)}:
 *     copies into preallocated direct buffers</td></tr>
 * <tr><td>seekScan</td><td>{@code seek(MemorySegment)}, then views</td><td>{@code seek(byte[])},
 *     then arrays</td></tr>
 * </table>
 * Views and arrays go to JMH's blackhole; reading the bytes behind a view is not part of the
 * zero-copy variants (the copying variants measure moving the bytes).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class IteratorBenchmarks {
    /** Entries read after each seek in {@code seekScan}. */
    public static final int SEEK_SCAN_LENGTH = 100;

    @State(Scope.Thread)
    public abstract static class Params {
        @Param({"10000", "1000000"})
        public long keyCount;

        @Param({"16"})
        public int keySize;

        @Param({"64", "1024"})
        public int valueSize;

        Bench.KeyFormat keys;
        Bench.KeyChooser chooser;

        void init() {
            Bench.requireSameEngine();
            keys = new Bench.KeyFormat(keySize, keyCount);
            chooser = new Bench.KeyChooser(Bench.KeyChooser.RANDOM, keyCount);
        }

        long expect(long seen) {
            if (seen != keyCount) {
                throw new IllegalStateException("scan saw " + seen + " entries, expected " + keyCount);
            }
            return seen;
        }
    }

    @State(Scope.Thread)
    public static class Ffm extends Params {
        /** rocksffm's prefetch run buffer in bytes (0 = none). An FFM-only parameter. */
        @Param({"0", "4096", "16384"})
        public long prefetch;

        io.rocksffm.RocksDB db;
        io.rocksffm.ReadOptions read;
        /** {@link #read} with the prefetch size, for the iterators. */
        io.rocksffm.ReadOptions scanRead;
        Arena arena;
        MemorySegment keyBuffer;
        MemorySegment valueBuffer;
        MemorySegment seekKey;
        RocksIterator seekIterator;

        @Setup(Level.Trial)
        public void open() {
            init();
            db = Datasets.openFfm(keyCount, keySize, valueSize);
            read = new io.rocksffm.ReadOptions();
            scanRead = new io.rocksffm.ReadOptions().setPrefetchBytes(prefetch);
            arena = Arena.ofConfined();
            keyBuffer = arena.allocate(keySize);
            valueBuffer = arena.allocate(valueSize);
            seekKey = arena.allocate(keySize);
            keys.init(seekKey, 0);
        }

        RocksIterator iterator() {
            return db.newIterator(scanRead);
        }

        @Setup(Level.Iteration)
        public void openSeekIterator() {
            seekIterator = iterator();
        }

        @TearDown(Level.Iteration)
        public void closeSeekIterator() {
            seekIterator.close();
        }

        @TearDown(Level.Trial)
        public void close() {
            scanRead.close();
            read.close();
            db.close();
            arena.close();
        }
    }

    @State(Scope.Thread)
    public static class Jni extends Params {
        org.rocksdb.RocksDB db;
        org.rocksdb.ReadOptions read;
        ByteBuffer keyBuffer;
        ByteBuffer valueBuffer;
        byte[] seekKey;
        org.rocksdb.RocksIterator seekIterator;

        @Setup(Level.Trial)
        public void open() throws org.rocksdb.RocksDBException {
            init();
            db = Datasets.openJni(keyCount, keySize, valueSize);
            read = new org.rocksdb.ReadOptions();
            keyBuffer = ByteBuffer.allocateDirect(keySize);
            valueBuffer = ByteBuffer.allocateDirect(valueSize);
            seekKey = keys.newKey(0);
        }

        @Setup(Level.Iteration)
        public void openSeekIterator() {
            seekIterator = db.newIterator(read);
        }

        @TearDown(Level.Iteration)
        public void closeSeekIterator() {
            seekIterator.close();
        }

        @TearDown(Level.Trial)
        public void close() {
            read.close();
            db.close();
        }
    }

    // ---- scan: keys and values ------------------------------------------------------------------

    @Benchmark
    public long ffm_scan(Ffm s, Blackhole bh) {
        long n = 0;
        try (RocksIterator it = s.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bh.consume(it.key());
                bh.consume(it.value());
                n++;
            }
        }
        return s.expect(n);
    }

    @Benchmark
    public long jni_scan(Jni s, Blackhole bh) {
        long n = 0;
        try (org.rocksdb.RocksIterator it = s.db.newIterator(s.read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bh.consume(it.key());
                bh.consume(it.value());
                n++;
            }
        }
        return s.expect(n);
    }

    // ---- keyScan --------------------------------------------------------------------------------

    @Benchmark
    public long ffm_keyScan(Ffm s, Blackhole bh) {
        long n = 0;
        try (RocksIterator it = s.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bh.consume(it.key());
                n++;
            }
        }
        return s.expect(n);
    }

    @Benchmark
    public long jni_keyScan(Jni s, Blackhole bh) {
        long n = 0;
        try (org.rocksdb.RocksIterator it = s.db.newIterator(s.read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bh.consume(it.key());
                n++;
            }
        }
        return s.expect(n);
    }

    // ---- valueScan ------------------------------------------------------------------------------

    @Benchmark
    public long ffm_valueScan(Ffm s, Blackhole bh) {
        long n = 0;
        try (RocksIterator it = s.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bh.consume(it.value());
                n++;
            }
        }
        return s.expect(n);
    }

    @Benchmark
    public long jni_valueScan(Jni s, Blackhole bh) {
        long n = 0;
        try (org.rocksdb.RocksIterator it = s.db.newIterator(s.read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bh.consume(it.value());
                n++;
            }
        }
        return s.expect(n);
    }

    // ---- scanCopy -------------------------------------------------------------------------------

    @Benchmark
    public long ffm_scanCopy(Ffm s, Blackhole bh) {
        long n = 0;
        try (RocksIterator it = s.iterator()) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                bh.consume(it.key(s.keyBuffer));
                bh.consume(it.value(s.valueBuffer));
                n++;
            }
        }
        return s.expect(n);
    }

    @Benchmark
    public long jni_scanCopy(Jni s, Blackhole bh) {
        long n = 0;
        try (org.rocksdb.RocksIterator it = s.db.newIterator(s.read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                s.keyBuffer.clear();
                bh.consume(it.key(s.keyBuffer));
                s.valueBuffer.clear();
                bh.consume(it.value(s.valueBuffer));
                n++;
            }
        }
        return s.expect(n);
    }

    // ---- seekScan -------------------------------------------------------------------------------

    @Benchmark
    public int ffm_seekScan(Ffm s, Blackhole bh) {
        s.keys.write(s.seekKey, s.chooser.next());
        RocksIterator it = s.seekIterator;
        int n = 0;
        for (it.seek(s.seekKey); n < SEEK_SCAN_LENGTH && it.isValid(); it.next()) {
            bh.consume(it.key());
            bh.consume(it.value());
            n++;
        }
        return n;
    }

    @Benchmark
    public int jni_seekScan(Jni s, Blackhole bh) {
        s.keys.write(s.seekKey, s.chooser.next());
        org.rocksdb.RocksIterator it = s.seekIterator;
        int n = 0;
        for (it.seek(s.seekKey); n < SEEK_SCAN_LENGTH && it.isValid(); it.next()) {
            bh.consume(it.key());
            bh.consume(it.value());
            n++;
        }
        return n;
    }
}
