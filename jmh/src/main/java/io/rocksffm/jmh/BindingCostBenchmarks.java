package io.rocksffm.jmh;

import io.rocksffm.PinnedValue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
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
 * What the binding itself costs: rocksffm's public API ({@code ffm_}) against the very C calls it
 * makes, made raw through FFM ({@code raw_}: a {@link MethodHandle} per C function from
 * {@code Linker.nativeLinker().downcallHandle(SymbolLookup.loaderLookup().find(...))}, pointers
 * passed as prebuilt segments or {@code long} addresses; no lifecycle checks, no scratch memory,
 * no exceptions beyond a failed check), in the same benchmark JVM, on the same dataset as
 * {@link GetBenchmarks} (read-only, fully cached). API/raw is then the wrapper's cost; raw/C
 * (capi_bench) would be the JVM's downcall cost.
 *
 * <p>The raw side opens the dataset itself through the C API (defaults plus the same block cache)
 * and reads the default column family through {@code rocksdb_get_default_column_family_handle}.
 * Each raw downcall is linked as rocksffm links it: {@link Linker.Option#critical} for the
 * accessors rocksffm makes critical ({@code rocksdb_pinnableslice_value}/{@code _destroy}, and
 * the v2 handle's {@code get_value}/{@code destroy} alike), plain otherwise. Several functions are
 * RocksDB 10.x only: on an engine without them the raw setup fails, naming the function.
 *
 * <table>
 * <tr><th>variant</th><th>{@code ffm_} (rocksffm API)</th><th>{@code raw_} (bare downcalls)</th></tr>
 * <tr><td>getInto</td><td>{@code db.get(ro, nativeKey, nativeValue)}</td>
 *     <td>{@code rocksdb_get_into_buffer_cf} into the native value segment</td></tr>
 * <tr><td>getIntoAutoSlots</td><td>none</td><td>raw getInto with the {@code size_t}, found and
 *     errptr out-slots in an automatic arena, as rocksffm's per-thread scratch has them: compared
 *     with raw getInto, the cost of passing segments of a shared arena to a downcall</td></tr>
 * <tr><td>getArray</td><td>{@code db.get(byte[])}: new array</td><td>key array copied into a native
 *     segment, {@code rocksdb_get_into_buffer_cf} into a native buffer, new array of the value's
 *     length copied from it (what the API does on 10.x)</td></tr>
 * <tr><td>getPinned</td><td>{@code db.getPinned(ro, key)}, first byte, closed</td>
 *     <td>{@code rocksdb_get_pinned_cf} + {@code rocksdb_pinnableslice_value}, first byte,
 *     {@code rocksdb_pinnableslice_destroy}</td></tr>
 * <tr><td>getPinnedV2</td><td>none</td><td>{@code rocksdb_get_pinned_cf_v2} +
 *     {@code rocksdb_pinnable_handle_get_value}, first byte, {@code rocksdb_pinnable_handle_destroy}
 *     (10.x): raw_getPinnedV2 / raw_getPinned says whether rocksffm should switch</td></tr>
 * <tr><td>multiGet</td><td>{@code db.multiGet(cf, ro, MemorySegment[] keys, MemorySegment[] values,
 *     lengths, errors, false)}: {@code batchSize} random keys, values copied into native segments</td>
 *     <td>{@code rocksdb_batched_multi_get_cf} on prebuilt key pointer and size arrays, then per
 *     key {@code rocksdb_pinnableslice_value}, copy into the value segment,
 *     {@code rocksdb_pinnableslice_destroy}</td></tr>
 * <tr><td>multiGetSlice</td><td>none</td><td>the same with {@code rocksdb_batched_multi_get_cf_slice}
 *     on a prebuilt {@code rocksdb_slice_t} array (10.x): raw_multiGetSlice / raw_multiGet says
 *     whether rocksffm should switch</td></tr>
 * </table>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class BindingCostBenchmarks {
    static final int SETS = 64;

    /** The dataset: the same parameters, and so the same files, as {@link GetBenchmarks}. */
    @State(Scope.Thread)
    public abstract static class Dataset {
        @Param({"100000"})
        public long keyCount;

        @Param({"12"})
        public int keySize;

        @Param({"64"})
        public int valueSize;

        Bench.KeyFormat keys;
        Arena arena;

        void init() {
            Bench.requireSameEngine();
            keys = new Bench.KeyFormat(keySize, keyCount);
            arena = Arena.ofConfined();
        }
    }

    /** Point reads: one key per op, chosen by {@code keyOrder}. */
    public abstract static class Point extends Dataset {
        /** roundRobin, random, or single (the same key every op). */
        @Param({"roundRobin", "single"})
        public String keyOrder;

        Bench.KeyChooser chooser;
        byte[] keyArray;
        MemorySegment key;
        MemorySegment value;

        void initPoint() {
            init();
            chooser = new Bench.KeyChooser(keyOrder, keyCount);
            long first = chooser.single() ? chooser.singleKey() : 0;
            keyArray = keys.newKey(first);
            key = arena.allocate(keySize);
            keys.init(key, first);
            value = arena.allocate(valueSize);
        }
    }

    /** Batched reads: {@code batchSize} random keys per op, from {@value #SETS} sets drawn in setup. */
    public abstract static class Multi extends Dataset {
        @Param({"100"})
        public int batchSize;

        MemorySegment[][] keySets;
        MemorySegment[] values;
        int next;

        void initMulti() {
            init();
            SplittableRandom r = new SplittableRandom(42);
            keySets = new MemorySegment[SETS][batchSize];
            for (MemorySegment[] set : keySets) {
                for (int i = 0; i < batchSize; i++) {
                    set[i] = arena.allocate(keySize);
                    keys.init(set[i], r.nextLong(keyCount));
                }
            }
            values = new MemorySegment[batchSize];
            for (int i = 0; i < batchSize; i++) {
                values[i] = arena.allocate(valueSize);
            }
        }

        int nextSet() {
            int s = next;
            next = (s + 1) % SETS;
            return s;
        }
    }

    // ---- rocksffm's API ---------------------------------------------------------------------------

    @State(Scope.Thread)
    public static class FfmPoint extends Point {
        io.rocksffm.RocksDB db;
        io.rocksffm.ReadOptions read;

        @Setup(Level.Trial)
        public void open() {
            initPoint();
            db = Datasets.openFfm(keyCount, keySize, valueSize);
            read = new io.rocksffm.ReadOptions();
        }

        @TearDown(Level.Trial)
        public void close() {
            read.close();
            db.close();
            arena.close();
        }
    }

    @State(Scope.Thread)
    public static class FfmMulti extends Multi {
        io.rocksffm.RocksDB db;
        io.rocksffm.ReadOptions read;
        io.rocksffm.ColumnFamilyHandle family;
        long[] lengths;
        io.rocksffm.RocksDBException[] errors;

        @Setup(Level.Trial)
        public void open() {
            initMulti();
            db = Datasets.openFfm(keyCount, keySize, valueSize);
            read = new io.rocksffm.ReadOptions();
            family = db.defaultColumnFamily();
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

    // ---- bare downcalls ---------------------------------------------------------------------------

    /**
     * The C functions, linked as rocksffm links them; pointers that come back are {@code long}s.
     * Static final, like rocksffm's handles, so the JIT sees constant handles and inlines the
     * downcall stubs. Initialised on first use, after the setup has loaded the engine.
     */
    static final class C {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final ValueLayout.OfLong SIZE_T = ValueLayout.JAVA_LONG;
        private static final ValueLayout P = ValueLayout.ADDRESS;
        private static final ValueLayout.OfLong LP = ValueLayout.JAVA_LONG; // a pointer as a long

        static final MethodHandle GET_INTO_BUFFER_CF = plain("rocksdb_get_into_buffer_cf", FunctionDescriptor.of(
                ValueLayout.JAVA_BYTE, P, P, P, P, SIZE_T, P, SIZE_T, P, P, P));
        static final MethodHandle GET_PINNED_CF = plain("rocksdb_get_pinned_cf",
                FunctionDescriptor.of(LP, P, P, P, P, SIZE_T, P));
        static final MethodHandle PINNABLESLICE_VALUE = critical("rocksdb_pinnableslice_value",
                FunctionDescriptor.of(LP, LP, P));
        static final MethodHandle PINNABLESLICE_DESTROY = critical("rocksdb_pinnableslice_destroy",
                FunctionDescriptor.ofVoid(LP));
        static final MethodHandle GET_PINNED_CF_V2 = plain("rocksdb_get_pinned_cf_v2",
                FunctionDescriptor.of(LP, P, P, P, P, SIZE_T, P));
        static final MethodHandle PINNABLE_HANDLE_GET_VALUE = critical("rocksdb_pinnable_handle_get_value",
                FunctionDescriptor.of(LP, LP, P));
        static final MethodHandle PINNABLE_HANDLE_DESTROY = critical("rocksdb_pinnable_handle_destroy",
                FunctionDescriptor.ofVoid(LP));
        static final MethodHandle BATCHED_MULTI_GET_CF = plain("rocksdb_batched_multi_get_cf", FunctionDescriptor.ofVoid(
                P, P, P, SIZE_T, P, P, P, P, ValueLayout.JAVA_BOOLEAN));
        static final MethodHandle BATCHED_MULTI_GET_CF_SLICE = plain("rocksdb_batched_multi_get_cf_slice",
                FunctionDescriptor.ofVoid(P, P, P, SIZE_T, P, P, P, ValueLayout.JAVA_BOOLEAN));
        // setup only
        static final MethodHandle OPTIONS_CREATE = plain("rocksdb_options_create", FunctionDescriptor.of(P));
        static final MethodHandle OPTIONS_DESTROY = plain("rocksdb_options_destroy", FunctionDescriptor.ofVoid(P));
        static final MethodHandle TABLE_CREATE = plain("rocksdb_block_based_options_create", FunctionDescriptor.of(P));
        static final MethodHandle TABLE_DESTROY = plain("rocksdb_block_based_options_destroy", FunctionDescriptor.ofVoid(P));
        static final MethodHandle CACHE_CREATE_LRU = plain("rocksdb_cache_create_lru", FunctionDescriptor.of(P, SIZE_T));
        static final MethodHandle CACHE_DESTROY = plain("rocksdb_cache_destroy", FunctionDescriptor.ofVoid(P));
        static final MethodHandle TABLE_SET_CACHE = plain("rocksdb_block_based_options_set_block_cache",
                FunctionDescriptor.ofVoid(P, P));
        static final MethodHandle OPTIONS_SET_TABLE = plain("rocksdb_options_set_block_based_table_factory",
                FunctionDescriptor.ofVoid(P, P));
        static final MethodHandle OPEN_FOR_READ_ONLY = plain("rocksdb_open_for_read_only",
                FunctionDescriptor.of(P, P, P, ValueLayout.JAVA_BYTE, P));
        static final MethodHandle CLOSE = plain("rocksdb_close", FunctionDescriptor.ofVoid(P));
        static final MethodHandle READOPTIONS_CREATE = plain("rocksdb_readoptions_create", FunctionDescriptor.of(P));
        static final MethodHandle READOPTIONS_DESTROY = plain("rocksdb_readoptions_destroy", FunctionDescriptor.ofVoid(P));
        static final MethodHandle DEFAULT_FAMILY = plain("rocksdb_get_default_column_family_handle",
                FunctionDescriptor.of(P, P));
        static final MethodHandle FAMILY_DESTROY = plain("rocksdb_column_family_handle_destroy",
                FunctionDescriptor.ofVoid(P));

        private static MemorySegment find(String name) {
            return SymbolLookup.loaderLookup().find(name).orElseThrow(() -> new IllegalStateException(
                    "the engine does not export " + name + " (BindingCostBenchmarks needs RocksDB 10.9+)"));
        }

        private static MethodHandle plain(String name, FunctionDescriptor d) {
            return LINKER.downcallHandle(find(name), d);
        }

        private static MethodHandle critical(String name, FunctionDescriptor d) {
            return LINKER.downcallHandle(find(name), d, Linker.Option.critical(true));
        }
    }

    /** All of memory: reading a value at a raw address without making a segment per op. */
    static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** The dataset opened through the bare C API, the handles the raw calls take, and their out-slots. */
    static final class RawDb {
        MemorySegment db;
        MemorySegment read;
        MemorySegment family;
        MemorySegment options;
        MemorySegment cache;
        /** size_t out-slot (vallen), unsigned char out-slot (found), char* out-slot (errptr). */
        MemorySegment size;
        MemorySegment found;
        MemorySegment err;

        void openRaw(Arena arena, long keyCount, int keySize, int valueSize) throws Throwable {
            String dir = Datasets.prepare(keyCount, keySize, valueSize).toAbsolutePath().toString();
            options = (MemorySegment) C.OPTIONS_CREATE.invokeExact();
            MemorySegment table = (MemorySegment) C.TABLE_CREATE.invokeExact();
            cache = (MemorySegment) C.CACHE_CREATE_LRU.invokeExact(Bench.blockCacheBytes(keyCount, keySize, valueSize));
            C.TABLE_SET_CACHE.invokeExact(table, cache);
            C.OPTIONS_SET_TABLE.invokeExact(options, table);
            C.TABLE_DESTROY.invokeExact(table);
            size = arena.allocate(ValueLayout.JAVA_LONG);
            found = arena.allocate(ValueLayout.JAVA_LONG);
            err = arena.allocate(ValueLayout.ADDRESS);
            db = (MemorySegment) C.OPEN_FOR_READ_ONLY.invokeExact(options, arena.allocateFrom(dir), (byte) 0, err);
            checkError();
            read = (MemorySegment) C.READOPTIONS_CREATE.invokeExact();
            family = (MemorySegment) C.DEFAULT_FAMILY.invokeExact(db);
        }

        void closeRaw() throws Throwable {
            C.FAMILY_DESTROY.invokeExact(family);
            C.READOPTIONS_DESTROY.invokeExact(read);
            C.CLOSE.invokeExact(db);
            C.OPTIONS_DESTROY.invokeExact(options);
            C.CACHE_DESTROY.invokeExact(cache);
        }

        /** Fails if the errptr slot holds an error (left there: a benchmark stops at the first). */
        final void checkError() {
            if (err.get(ValueLayout.JAVA_LONG, 0) != 0) {
                throw new IllegalStateException("RocksDB error: "
                        + err.get(ValueLayout.ADDRESS, 0).reinterpret(1024).getString(0));
            }
        }

        /** Warms this handle's block cache: every key once, by the pinned path. */
        void warm(Bench.KeyFormat keys, long keyCount, MemorySegment key) throws Throwable {
            for (long i = 0; i < keyCount; i++) {
                keys.write(key, i);
                long slice = (long) C.GET_PINNED_CF.invokeExact(db, read, family, key, key.byteSize(), err);
                checkError();
                if (slice == 0) {
                    throw new IllegalStateException("dataset key " + i + " not found (raw)");
                }
                C.PINNABLESLICE_DESTROY.invokeExact(slice);
            }
        }
    }

    @State(Scope.Thread)
    public static class RawPoint extends Point {
        final RawDb raw = new RawDb();
        MemorySegment scratch;
        /** The size, found and errptr out-slots again, from an automatic arena (as rocksffm's scratch). */
        MemorySegment autoSize;
        MemorySegment autoFound;
        MemorySegment autoErr;

        @Setup(Level.Trial)
        public void open() throws Throwable {
            initPoint();
            raw.openRaw(arena, keyCount, keySize, valueSize);
            MemorySegment k = arena.allocate(keySize);
            keys.init(k, 0);
            raw.warm(keys, keyCount, k);
            scratch = arena.allocate(Math.max(valueSize, 64));
            Arena auto = Arena.ofAuto();
            autoSize = auto.allocate(ValueLayout.JAVA_LONG);
            autoFound = auto.allocate(ValueLayout.JAVA_LONG);
            autoErr = auto.allocate(ValueLayout.ADDRESS);
        }

        @TearDown(Level.Trial)
        public void close() throws Throwable {
            raw.closeRaw();
            arena.close();
        }
    }

    @State(Scope.Thread)
    public static class RawMulti extends Multi {
        final RawDb raw = new RawDb();
        /** Per set: key pointers and sizes (rocksdb_batched_multi_get_cf), rocksdb_slice_t array (_slice). */
        MemorySegment[] pointers;
        MemorySegment[] sizes;
        MemorySegment[] slices;
        /** rocksdb_pinnableslice_t* and char* (error) out-arrays of batchSize slots. */
        MemorySegment slots;
        MemorySegment errs;

        @Setup(Level.Trial)
        public void open() throws Throwable {
            initMulti();
            raw.openRaw(arena, keyCount, keySize, valueSize);
            MemorySegment k = arena.allocate(keySize);
            keys.init(k, 0);
            raw.warm(keys, keyCount, k);
            pointers = new MemorySegment[SETS];
            sizes = new MemorySegment[SETS];
            slices = new MemorySegment[SETS];
            for (int s = 0; s < SETS; s++) {
                // the keys of a set side by side, as rocksffm's multiGet copies them before the call
                MemorySegment bytes = arena.allocate((long) keySize * batchSize);
                pointers[s] = arena.allocate(8L * batchSize);
                sizes[s] = arena.allocate(8L * batchSize);
                slices[s] = arena.allocate(16L * batchSize); // {const char* data; size_t size;}
                for (int i = 0; i < batchSize; i++) {
                    MemorySegment key = bytes.asSlice((long) keySize * i, keySize).copyFrom(keySets[s][i]);
                    pointers[s].setAtIndex(ValueLayout.JAVA_LONG, i, key.address());
                    sizes[s].setAtIndex(ValueLayout.JAVA_LONG, i, key.byteSize());
                    slices[s].set(ValueLayout.JAVA_LONG, 16L * i, key.address());
                    slices[s].set(ValueLayout.JAVA_LONG, 16L * i + 8, key.byteSize());
                }
            }
            slots = arena.allocate(8L * batchSize);
            errs = arena.allocate(8L * batchSize);
        }

        @TearDown(Level.Trial)
        public void close() throws Throwable {
            raw.closeRaw();
            arena.close();
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

    // ---- getInto --------------------------------------------------------------------------------

    @Benchmark
    public long ffm_getInto(FfmPoint s) {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        return found(s.db.get(s.read, s.key, s.value));
    }

    @Benchmark
    public long raw_getInto(RawPoint s) throws Throwable {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        RawDb r = s.raw;
        byte fits = (byte) C.GET_INTO_BUFFER_CF.invokeExact(r.db, r.read, r.family, s.key, s.key.byteSize(),
                s.value, s.value.byteSize(), r.size, r.found, r.err);
        r.checkError();
        if (r.found.get(ValueLayout.JAVA_BYTE, 0) == 0 || fits == 0) {
            throw new IllegalStateException("key not found, or value larger than valueSize");
        }
        return r.size.get(ValueLayout.JAVA_LONG, 0);
    }

    /**
     * raw_getInto with its three out-slots in an automatic arena instead of a confined one, as
     * rocksffm's per-thread scratch has them: a downcall keeps each segment argument's arena alive
     * for the call, which costs a shared arena an atomic increment and decrement, a confined one a
     * thread check.
     */
    @Benchmark
    public long raw_getIntoAutoSlots(RawPoint s) throws Throwable {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        RawDb r = s.raw;
        byte fits = (byte) C.GET_INTO_BUFFER_CF.invokeExact(r.db, r.read, r.family, s.key, s.key.byteSize(),
                s.value, s.value.byteSize(), s.autoSize, s.autoFound, s.autoErr);
        if (s.autoErr.get(ValueLayout.JAVA_LONG, 0) != 0) {
            throw new IllegalStateException("RocksDB error");
        }
        if (s.autoFound.get(ValueLayout.JAVA_BYTE, 0) == 0 || fits == 0) {
            throw new IllegalStateException("key not found, or value larger than valueSize");
        }
        return s.autoSize.get(ValueLayout.JAVA_LONG, 0);
    }

    // ---- getArray -------------------------------------------------------------------------------

    @Benchmark
    public byte[] ffm_getArray(FfmPoint s) {
        if (!s.chooser.single()) {
            s.keys.write(s.keyArray, s.chooser.next());
        }
        return found(s.db.get(s.keyArray));
    }

    @Benchmark
    public byte[] raw_getArray(RawPoint s) throws Throwable {
        if (!s.chooser.single()) {
            s.keys.write(s.keyArray, s.chooser.next());
        }
        RawDb r = s.raw;
        MemorySegment.copy(s.keyArray, 0, s.key, ValueLayout.JAVA_BYTE, 0, s.keyArray.length);
        byte fits = (byte) C.GET_INTO_BUFFER_CF.invokeExact(r.db, r.read, r.family, s.key, (long) s.keyArray.length,
                s.scratch, s.scratch.byteSize(), r.size, r.found, r.err);
        r.checkError();
        if (r.found.get(ValueLayout.JAVA_BYTE, 0) == 0 || fits == 0) {
            throw new IllegalStateException("key not found, or value larger than the scratch buffer");
        }
        int length = (int) r.size.get(ValueLayout.JAVA_LONG, 0);
        byte[] out = new byte[length];
        MemorySegment.copy(s.scratch, ValueLayout.JAVA_BYTE, 0, out, 0, length);
        return out;
    }

    // ---- getPinned ------------------------------------------------------------------------------

    @Benchmark
    public byte ffm_getPinned(FfmPoint s) {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        try (PinnedValue pinned = found(s.db.getPinned(s.read, s.key))) {
            return pinned.segment().get(ValueLayout.JAVA_BYTE, 0);
        }
    }

    @Benchmark
    public byte raw_getPinned(RawPoint s) throws Throwable {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        RawDb r = s.raw;
        long slice = (long) C.GET_PINNED_CF.invokeExact(r.db, r.read, r.family, s.key, s.key.byteSize(), r.err);
        if (slice == 0) {
            r.checkError();
            throw new IllegalStateException("key not found");
        }
        long value = (long) C.PINNABLESLICE_VALUE.invokeExact(slice, r.size);
        byte first = r.size.get(ValueLayout.JAVA_LONG, 0) > 0 ? EVERYTHING.get(ValueLayout.JAVA_BYTE, value) : 0;
        C.PINNABLESLICE_DESTROY.invokeExact(slice);
        return first;
    }

    // ---- getPinnedV2 ----------------------------------------------------------------------------

    @Benchmark
    public byte raw_getPinnedV2(RawPoint s) throws Throwable {
        if (!s.chooser.single()) {
            s.keys.write(s.key, s.chooser.next());
        }
        RawDb r = s.raw;
        long handle = (long) C.GET_PINNED_CF_V2.invokeExact(r.db, r.read, r.family, s.key, s.key.byteSize(), r.err);
        if (handle == 0) {
            r.checkError();
            throw new IllegalStateException("key not found");
        }
        long value = (long) C.PINNABLE_HANDLE_GET_VALUE.invokeExact(handle, r.size);
        byte first = r.size.get(ValueLayout.JAVA_LONG, 0) > 0 ? EVERYTHING.get(ValueLayout.JAVA_BYTE, value) : 0;
        C.PINNABLE_HANDLE_DESTROY.invokeExact(handle);
        return first;
    }

    // ---- multiGet -------------------------------------------------------------------------------

    @Benchmark
    public int ffm_multiGet(FfmMulti s) {
        int found = s.db.multiGet(s.family, s.read, s.keySets[s.nextSet()], s.values, s.lengths, s.errors, false);
        if (found != s.batchSize) {
            throw new IllegalStateException("found " + found + " of " + s.batchSize + " keys");
        }
        return found;
    }

    @Benchmark
    public int raw_multiGet(RawMulti s) throws Throwable {
        int set = s.nextSet();
        RawDb r = s.raw;
        C.BATCHED_MULTI_GET_CF.invokeExact(r.db, r.read, r.family, (long) s.batchSize, s.pointers[set], s.sizes[set],
                s.slots, s.errs, false);
        return copyValues(s);
    }

    @Benchmark
    public int raw_multiGetSlice(RawMulti s) throws Throwable {
        int set = s.nextSet();
        RawDb r = s.raw;
        C.BATCHED_MULTI_GET_CF_SLICE.invokeExact(r.db, r.read, r.family, (long) s.batchSize, s.slices[set], s.slots,
                s.errs, false);
        return copyValues(s);
    }

    /** What rocksffm's multiGet does with the results: copy each value into its segment, release it. */
    private static int copyValues(RawMulti s) throws Throwable {
        RawDb r = s.raw;
        int found = 0;
        for (int i = 0; i < s.batchSize; i++) {
            if (s.errs.getAtIndex(ValueLayout.JAVA_LONG, i) != 0) {
                throw new IllegalStateException("multiGet error at key " + i);
            }
            long slice = s.slots.getAtIndex(ValueLayout.JAVA_LONG, i);
            if (slice != 0) {
                long value = (long) C.PINNABLESLICE_VALUE.invokeExact(slice, r.size);
                long length = r.size.get(ValueLayout.JAVA_LONG, 0);
                MemorySegment out = s.values[i];
                MemorySegment.copy(EVERYTHING, value, out, 0, Math.min(length, out.byteSize()));
                C.PINNABLESLICE_DESTROY.invokeExact(slice);
                found++;
            }
        }
        if (found != s.batchSize) {
            throw new IllegalStateException("found " + found + " of " + s.batchSize + " keys");
        }
        return found;
    }
}
