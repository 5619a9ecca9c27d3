package io.rocksffm.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
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
 * Java code inside RocksDB (issue 15): merge operators and comparators, rocksffm's Java ones
 * (upcalls) against rocksdbjni's (a native C++ {@code UInt64AddOperator}; a Java
 * {@code AbstractComparator} through JNI callbacks), same engine.
 *
 * <table>
 * <tr><th>variant</th><th>{@code ffm_}</th><th>{@code jni_}</th></tr>
 * <tr><td>mergeCounter</td><td>{@code merge(key, 8-byte LE 1)} with {@code UInt64AddOperator}
 *     (Java), round-robin over {@code keyCount} keys</td><td>the same with rocksdbjni's native
 *     {@code UInt64AddOperator}</td></tr>
 * <tr><td>readCounter</td><td>get of a counter holding a base value and {@code operands} merge
 *     operands in the memtable: one full merge (an upcall into Java) per read</td><td>the same;
 *     the merge runs in C++</td></tr>
 * <tr><td>putComparator</td><td>puts under a Java comparator (bytewise order written in Java):
 *     a memtable insert makes ~log2(n) comparisons, each an upcall</td><td>puts under a
 *     rocksdbjni {@code AbstractComparator} (bytewise in Java, via JNI callbacks)</td></tr>
 * <tr><td>seekComparator</td><td>iterator seek to a random key + read of the key, database of
 *     {@code keyCount} keys in one table file, Java comparator</td><td>the same with the
 *     rocksdbjni comparator</td></tr>
 * <tr><td>compactionFilter</td><td>a manual compaction of {@code keyCount} entries in one table
 *     file under a Java compaction filter that removes empty values (one upcall per entry)</td>
 *     <td>the same with rocksdbjni's native {@code RemoveEmptyValueCompactionFilter}</td></tr>
 * <tr><td>upcall</td><td>a downcall into an upcall stub of an empty static Java method
 *     {@code int f(long)}: the round trip</td><td>({@code raw_upcall}: the same downcall to libc
 *     {@code abs}, no upcall; the difference is the cost of one upcall)</td></tr>
 * </table>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class UpcallBenchmarks {

    static byte[] le(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    /** Bytewise order written in Java over segments (what rocksffm's Java comparator runs). */
    static final class FfmBytewise implements io.rocksffm.Comparator {
        @Override
        public String name() {
            return "bench.JavaBytewise";
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            long i = a.mismatch(b);
            if (i < 0) {
                return 0;
            }
            if (i == a.byteSize() || i == b.byteSize()) {
                return Long.compare(a.byteSize(), b.byteSize());
            }
            return Integer.compare(a.get(ValueLayout.JAVA_BYTE, i) & 0xFF, b.get(ValueLayout.JAVA_BYTE, i) & 0xFF);
        }
    }

    /** Bytewise order written in Java over ByteBuffers (rocksdbjni's AbstractComparator). */
    static final class JniBytewise extends org.rocksdb.AbstractComparator {
        JniBytewise(org.rocksdb.ComparatorOptions o) {
            super(o);
        }

        @Override
        public String name() {
            return "bench.JavaBytewise";
        }

        @Override
        public int compare(ByteBuffer a, ByteBuffer b) {
            int m = a.mismatch(b);
            if (m < 0) {
                return 0;
            }
            if (m >= a.remaining() || m >= b.remaining()) {
                return Integer.compare(a.remaining(), b.remaining());
            }
            return Integer.compare(a.get(a.position() + m) & 0xFF, b.get(b.position() + m) & 0xFF);
        }
    }

    @State(Scope.Thread)
    public abstract static class Params {
        @Param({"10000"})
        public int keyCount;

        @Param({"8"})
        public int operands;

        Path dir;
        byte[][] keys;
        byte[] one = le(1);
        byte[] value = new byte[64];
        int next;
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);

        void init(String name) {
            dir = Bench.freshDir(name);
            keys = new byte[keyCount][];
            for (int i = 0; i < keyCount; i++) {
                keys[i] = String.format("key%012d", i).getBytes();
            }
        }

        byte[] nextKey() {
            int i = next++;
            if (next == keyCount) {
                next = 0;
            }
            return keys[i];
        }

        byte[] randomKey() {
            return keys[random.nextInt(keyCount)];
        }
    }

    @State(Scope.Thread)
    public static class Ffm extends Params {
        io.rocksffm.RocksDB counters;
        io.rocksffm.RocksDB ordered;
        io.rocksffm.ReadOptions read;

        @Setup(Level.Trial)
        public void open() {
            init("upcall-ffm");
            read = new io.rocksffm.ReadOptions();
            try (io.rocksffm.Options o = new io.rocksffm.Options().setCreateIfMissing(true)
                    .setMergeOperator(new io.rocksffm.UInt64AddOperator()).setWriteBufferSize(256 << 20)) {
                counters = io.rocksffm.RocksDB.open(dir.resolve("counters"), o);
            }
            try (io.rocksffm.Options o = new io.rocksffm.Options().setCreateIfMissing(true)
                    .setComparator(new FfmBytewise())) {
                ordered = io.rocksffm.RocksDB.open(dir.resolve("ordered"), o);
            }
            for (byte[] k : keys) {
                counters.put(k, le(1000));
                for (int j = 0; j < operands; j++) {
                    counters.merge(k, one);
                }
                ordered.put(k, value);
            }
            ordered.flush(true);
            ordered.compactRange();
        }

        @TearDown(Level.Trial)
        public void close() {
            counters.close();
            ordered.close();
            read.close();
            Bench.deleteTree(dir);
        }
    }

    @State(Scope.Thread)
    public static class Jni extends Params {
        org.rocksdb.RocksDB counters;
        org.rocksdb.RocksDB ordered;
        org.rocksdb.ComparatorOptions copts;
        org.rocksdb.AbstractComparator comparator;
        org.rocksdb.UInt64AddOperator add;

        @Setup(Level.Trial)
        public void open() throws Exception {
            org.rocksdb.RocksDB.loadLibrary();
            init("upcall-jni");
            add = new org.rocksdb.UInt64AddOperator();
            try (org.rocksdb.Options o = new org.rocksdb.Options().setCreateIfMissing(true).setMergeOperator(add)
                    .setWriteBufferSize(256 << 20)) {
                counters = org.rocksdb.RocksDB.open(o, dir.resolve("counters").toString());
            }
            copts = new org.rocksdb.ComparatorOptions();
            comparator = new JniBytewise(copts);
            try (org.rocksdb.Options o = new org.rocksdb.Options().setCreateIfMissing(true).setComparator(comparator)) {
                ordered = org.rocksdb.RocksDB.open(o, dir.resolve("ordered").toString());
            }
            for (byte[] k : keys) {
                counters.put(k, le(1000));
                for (int j = 0; j < operands; j++) {
                    counters.merge(k, one);
                }
                ordered.put(k, value);
            }
            ordered.flush(new org.rocksdb.FlushOptions().setWaitForFlush(true));
            ordered.compactRange();
        }

        @TearDown(Level.Trial)
        public void close() {
            counters.close();
            ordered.close();
            comparator.close();
            copts.close();
            add.close();
            Bench.deleteTree(dir);
        }
    }

    // ---- merges ---------------------------------------------------------------------------------

    @Benchmark
    public void ffm_mergeCounter(Ffm s) {
        s.counters.merge(s.nextKey(), s.one);
    }

    @Benchmark
    public void jni_mergeCounter(Jni s) throws org.rocksdb.RocksDBException {
        s.counters.merge(s.nextKey(), s.one);
    }

    @Benchmark
    public byte[] ffm_readCounter(Ffm s) {
        return s.counters.get(s.randomKey());
    }

    @Benchmark
    public byte[] jni_readCounter(Jni s) throws org.rocksdb.RocksDBException {
        return s.counters.get(s.randomKey());
    }

    // ---- comparators ------------------------------------------------------------------------------

    @Benchmark
    public void ffm_putComparator(Ffm s) {
        s.ordered.put(s.randomKey(), s.value);
    }

    @Benchmark
    public void jni_putComparator(Jni s) throws org.rocksdb.RocksDBException {
        s.ordered.put(s.randomKey(), s.value);
    }

    @Benchmark
    public byte[] ffm_seekComparator(Ffm s) {
        try (io.rocksffm.RocksIterator it = s.ordered.newIterator(s.read)) {
            it.seek(s.randomKey());
            return it.keyBytes();
        }
    }

    @Benchmark
    public byte[] jni_seekComparator(Jni s) {
        try (org.rocksdb.RocksIterator it = s.ordered.newIterator()) {
            it.seek(s.randomKey());
            return it.key();
        }
    }

    // ---- compaction filter --------------------------------------------------------------------------

    interface Put {
        void put(byte[] key, byte[] value) throws Exception;
    }

    interface Get {
        byte[] get(byte[] key) throws Exception;
    }

    interface Step {
        void run() throws Exception;
    }

    /**
     * Puts {@code keyCount} keys, every tenth with an empty value, then flushes and compacts
     * ({@code flushAndCompact}); fails unless the filter removed the empty values and kept the others.
     */
    static void fillAndFilter(Params p, Put put, Step flushAndCompact, Get get) throws Exception {
        for (int i = 0; i < p.keys.length; i++) {
            put.put(p.keys[i], i % 10 == 0 ? new byte[0] : p.value);
        }
        flushAndCompact.run();
        if (get.get(p.keys[0]) != null || get.get(p.keys[1]) == null) {
            throw new IllegalStateException("the compaction filter did not remove the empty values");
        }
    }

    @State(Scope.Thread)
    public static class FfmFiltered extends Params {
        io.rocksffm.RocksDB db;

        @Setup(Level.Trial)
        public void open() throws Exception {
            init("upcall-filter-ffm");
            try (io.rocksffm.Options o = new io.rocksffm.Options().setCreateIfMissing(true)
                    .setCompactionFilter((level, key, value, newValue) -> value.byteSize() == 0
                            ? io.rocksffm.CompactionFilter.Decision.REMOVE : io.rocksffm.CompactionFilter.Decision.KEEP)) {
                db = io.rocksffm.RocksDB.open(dir.resolve("filtered"), o);
            }
            fillAndFilter(this, db::put, () -> {
                db.flush(true);
                db.compactRange();
            }, db::get);
        }

        @TearDown(Level.Trial)
        public void close() {
            db.close();
            Bench.deleteTree(dir);
        }
    }

    @State(Scope.Thread)
    public static class JniFiltered extends Params {
        org.rocksdb.RocksDB db;
        org.rocksdb.RemoveEmptyValueCompactionFilter filter;

        @Setup(Level.Trial)
        public void open() throws Exception {
            org.rocksdb.RocksDB.loadLibrary();
            init("upcall-filter-jni");
            filter = new org.rocksdb.RemoveEmptyValueCompactionFilter();
            try (org.rocksdb.Options o = new org.rocksdb.Options().setCreateIfMissing(true).setCompactionFilter(filter)) {
                db = org.rocksdb.RocksDB.open(o, dir.resolve("filtered").toString());
            }
            fillAndFilter(this, db::put, () -> {
                try (org.rocksdb.FlushOptions f = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
                    db.flush(f);
                }
                db.compactRange();
            }, db::get);
        }

        @TearDown(Level.Trial)
        public void close() {
            db.close();
            filter.close();
            Bench.deleteTree(dir);
        }
    }

    /**
     * A manual compaction of the whole database (one table file of {@code keyCount} entries): with a
     * compaction filter set, RocksDB rewrites even the bottommost level, calling the filter once per
     * entry. rocksffm's filter is Java (an upcall per entry); rocksdbjni's is its native C++
     * {@code RemoveEmptyValueCompactionFilter}, the same decision.
     */
    @Benchmark
    public void ffm_compactionFilter(FfmFiltered s) {
        s.db.compactRange();
    }

    @Benchmark
    public void jni_compactionFilter(JniFiltered s) throws org.rocksdb.RocksDBException {
        s.db.compactRange();
    }

    // ---- one upcall ---------------------------------------------------------------------------------

    @State(Scope.Benchmark)
    public static class Stub {
        /** The job's parameters (unused here; declared so the same -p flags apply). */
        @Param({"10000"})
        public int keyCount;

        @Param({"8"})
        public int operands;

        static int target(long x) {
            return (int) x;
        }

        final MethodHandle viaStub;
        final MethodHandle abs;
        long x = 7;

        public Stub() {
            try {
                Linker linker = Linker.nativeLinker();
                FunctionDescriptor d = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG);
                MemorySegment stub = linker.upcallStub(MethodHandles.lookup().findStatic(Stub.class, "target",
                        MethodType.methodType(int.class, long.class)), d, Arena.global());
                viaStub = linker.downcallHandle(stub, d);
                abs = linker.downcallHandle(linker.defaultLookup().find("labs").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Benchmark
    public int ffm_upcall(Stub s) throws Throwable {
        return (int) s.viaStub.invokeExact(s.x);
    }

    @Benchmark
    public long raw_upcall(Stub s) throws Throwable {
        return (long) s.abs.invokeExact(s.x);
    }
}
