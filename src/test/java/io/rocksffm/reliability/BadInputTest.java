package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyDescriptor;
import io.rocksffm.BackupEngine;
import io.rocksffm.BackupEngineOptions;
import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.DatabaseAdmin;
import io.rocksffm.HistogramType;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.LatestOptions;
import io.rocksffm.RestoreOptions;
import io.rocksffm.SstFileWriter;
import io.rocksffm.Statistics;
import io.rocksffm.StatisticsLevel;
import io.rocksffm.TickerType;
import io.rocksffm.Cache;
import io.rocksffm.Checkpoint;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Engine;
import io.rocksffm.FilterPolicy;
import io.rocksffm.FlushOptions;
import io.rocksffm.Compression;
import io.rocksffm.NativeWriteBatch;
import io.rocksffm.Options;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.Snapshot;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bad input catalogue (docs/bad-inputs.md): each test tries one family of bad inputs and
 * checks the exception it gets, and that the objects involved are still usable (or cleanly
 * closed) afterwards; the database of each test must still close at the end (no child leaked).
 */
class BadInputTest {
    @TempDir
    Path dir;

    private RocksDB db;
    private ReadOptions ro;
    private WriteOptions wo;
    private Arena arena;
    /** The batch-with-index argument of the null probes (transactions' suite). */
    private io.rocksffm.WriteBatchWithIndex wbwi;

    @BeforeEach
    void openDatabase() {
        db = open(dir.resolve("db"));
        db.put(bytes("a"), bytes("1"));
        db.put(bytes("b"), bytes("2"));
        ro = new ReadOptions();
        wo = new WriteOptions();
        arena = Arena.ofConfined();
        wbwi = new io.rocksffm.WriteBatchWithIndex();
    }

    @AfterEach
    void closeDatabase() {
        wbwi.close();
        arena.close();
        ro.close();
        wo.close();
        db.close(); // throws if a refused call left an iterator, pinned value or snapshot registered
    }

    private MemorySegment seg(String s) {
        return arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes(s));
    }

    private static MemorySegment heap(String s) {
        return MemorySegment.ofArray(bytes(s));
    }

    private void assertWritable() {
        db.put(bytes("still-writable"), bytes("yes"));
        assertEquals("yes", string(db.get(bytes("still-writable"))));
    }

    // ---- null -------------------------------------------------------------------------------------

    /** Signatures (name and parameter index) documented to accept null. */
    private static final Set<String> NULLABLE = Set.of("setIterateLowerBound(MemorySegment)#0",
            "setIterateUpperBound(MemorySegment)#0", "setSnapshot(Snapshot)#0",
            "compactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#1",
            "compactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#2",
            "equals(Object)#0"); // Object's contract: false for null

    /**
     * Every public method and factory, for every reference parameter not documented as nullable,
     * refuses null with NullPointerException (found by reflection: new methods are covered).
     */
    @Test
    void nullArgumentsThrowNullPointerException() throws Exception {
        try (Options options = new Options();
             WriteBatch batch = new WriteBatch().put(bytes("k"), bytes("v"));
             NativeWriteBatch nativeBatch = batch.toNative();
             Snapshot snapshot = db.getSnapshot();
             RocksIterator it = db.newIterator(ro);
             PinnedValue pinned = db.getPinned(ro, heap("a"));
             FlushOptions flush = new FlushOptions();
             Cache cache = Cache.newLRUCache(1 << 20);
             BlockBasedTableConfig table = new BlockBasedTableConfig();
             Checkpoint checkpoint = Checkpoint.create(db);
             BackupEngineOptions backupOptions = new BackupEngineOptions(dir.resolve("backups"));
             BackupEngine backups = BackupEngine.open(backupOptions);
             RestoreOptions restore = new RestoreOptions();
             SstFileWriter writer = SstFileWriter.open(options, dir.resolve("probe.sst"));
             IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            it.seekToFirst();
            Statistics statistics = options.enableStatistics();
            Map<Class<?>, Object> live = Map.ofEntries(Map.entry(RocksDB.class, db), Map.entry(Options.class, options),
                    Map.entry(ReadOptions.class, ro), Map.entry(WriteOptions.class, wo), Map.entry(WriteBatch.class, batch),
                    Map.entry(NativeWriteBatch.class, nativeBatch), Map.entry(Snapshot.class, snapshot),
                    Map.entry(RocksIterator.class, it), Map.entry(PinnedValue.class, pinned),
                    Map.entry(ColumnFamilyHandle.class, db.defaultColumnFamily()), Map.entry(FlushOptions.class, flush),
                    Map.entry(Cache.class, cache), Map.entry(BlockBasedTableConfig.class, table),
                    Map.entry(Checkpoint.class, checkpoint), Map.entry(Engine.class, RocksDB.engine()),
                    Map.entry(BackupEngineOptions.class, backupOptions), Map.entry(BackupEngine.class, backups),
                    Map.entry(RestoreOptions.class, restore), Map.entry(SstFileWriter.class, writer),
                    Map.entry(IngestExternalFileOptions.class, ingest), Map.entry(Statistics.class, statistics));
            int calls = 0;
            Set<String> unnamed = new TreeSet<>();
            List<Object[]> targets = new ArrayList<>(); // {method, receiver or null}
            for (Map.Entry<Class<?>, Object> e : live.entrySet()) {
                for (Method m : e.getKey().getMethods()) {
                    if (!Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() != Object.class) {
                        targets.add(new Object[] {m, e.getValue()});
                    }
                }
            }
            for (Class<?> factory : List.of(RocksDB.class, WriteBatch.class, Cache.class, FilterPolicy.class, Checkpoint.class,
                    io.rocksffm.RateLimiter.class, io.rocksffm.WriteBufferManager.class,
                    BackupEngine.class, SstFileWriter.class, LatestOptions.class, Options.class)) {
                for (Method m : factory.getMethods()) {
                    if (Modifier.isStatic(m.getModifiers())) {
                        targets.add(new Object[] {m, null});
                    }
                }
            }
            for (Object[] t : targets) {
                Method m = (Method) t[0];
                Class<?>[] types = m.getParameterTypes();
                for (int i = 0; i < types.length; i++) {
                    String where = ApiTables.signature(m) + "#" + i;
                    if (types[i].isPrimitive() || NULLABLE.contains(where)) {
                        continue;
                    }
                    Object[] args = new Object[types.length];
                    for (int j = 0; j < types.length; j++) {
                        args[j] = j == i ? null : dummy(m, j, options, batch, snapshot, live);
                    }
                    try {
                        m.invoke(t[1], args);
                        fail(m.getDeclaringClass().getSimpleName() + "." + where + ": null accepted");
                    } catch (InvocationTargetException ex) {
                        Throwable cause = ex.getCause();
                        assertInstanceOf(NullPointerException.class, cause, m.getDeclaringClass().getSimpleName() + "." + where);
                        if (cause.getMessage() == null || cause.getMessage().startsWith("Cannot ")) {
                            unnamed.add(m.getDeclaringClass().getSimpleName() + "." + where);
                        }
                    }
                    calls++;
                }
            }
            // null elements inside arrays and lists
            assertThrows(NullPointerException.class, () -> db.multiGetAsList(java.util.Arrays.asList(bytes("a"), null)));
            assertThrows(NullPointerException.class, () -> db.multiGet(db.defaultColumnFamily(), ro,
                    new MemorySegment[] {null}, new MemorySegment[1], new long[1], new RocksDBException[1], false));
            assertThrows(NullPointerException.class, () -> db.approximateSizes(db.defaultColumnFamily(),
                    new MemorySegment[] {null}, new MemorySegment[] {heap("z")}));
            assertThrows(NullPointerException.class, () -> RocksDB.open(dir.resolve("x"), options,
                    java.util.Arrays.asList((ColumnFamilyDescriptor) null)));
            assertThrows(NullPointerException.class, () -> new ColumnFamilyDescriptor(null, options));
            report("bad input: null: %d calls with one null argument threw NullPointerException; without the "
                    + "parameter's name in the message: %s", calls, unnamed);
        }
        assertWritable();
    }

    /**
     * A parameter's generic type; for a bridge javac adds to a public class for a public method of
     * its package-private superclass (erased), the type declared on the superclass's method.
     */
    private static java.lang.reflect.Type genericParameter(Method m, int i) {
        for (Class<?> c = m.getDeclaringClass(); c != null; c = c.getSuperclass()) {
            try {
                var t = c.getDeclaredMethod(m.getName(), m.getParameterTypes()).getGenericParameterTypes()[i];
                if (t instanceof ParameterizedType) {
                    return t;
                }
            } catch (NoSuchMethodException e) {
                // not declared here: look further up
            }
        }
        return m.getGenericParameterTypes()[i];
    }

    private Object dummy(Method m, int i, Options options, WriteBatch batch, Snapshot snapshot, Map<Class<?>, Object> live) {
        Class<?> t = m.getParameterTypes()[i];
        if (t == FlushOptions.class || t == Cache.class || t == BlockBasedTableConfig.class
                || t == IngestExternalFileOptions.class || t == RestoreOptions.class || t == BackupEngineOptions.class) {
            return live.get(t);
        } else if (t == DatabaseAdmin.class) {
            return db;
        } else if (t == Map.class) {
            return Map.of("write_buffer_size", "4194304");
        } else if (t == TickerType.class) {
            return TickerType.BYTES_READ;
        } else if (t == HistogramType.class) {
            return HistogramType.DB_GET;
        } else if (t == StatisticsLevel.class) {
            return StatisticsLevel.ALL;
        } else if (t == FilterPolicy.class) {
            return FilterPolicy.bloom(10);
        } else if (t == io.rocksffm.MergeOperator.class) {
            return new io.rocksffm.UInt64AddOperator();
        } else if (t == io.rocksffm.Comparator.class) {
            return new io.rocksffm.Comparator() {
                @Override
                public String name() {
                    return "null-probe";
                }

                @Override
                public int compare(MemorySegment a, MemorySegment b) {
                    return 0;
                }
            };
        } else if (t == io.rocksffm.CompactionFilter.class) {
            return (io.rocksffm.CompactionFilter) (level, k, v, out) -> null;
        } else if (t == io.rocksffm.CompactionFilterFactory.class) {
            return new io.rocksffm.CompactionFilterFactory() {
                @Override
                public String name() {
                    return "null-probe";
                }

                @Override
                public io.rocksffm.CompactionFilter create(Context context) {
                    return null;
                }
            };
        } else if (t == io.rocksffm.RateLimiter.Mode.class) {
            return io.rocksffm.RateLimiter.Mode.ALL_IO;
        } else if (t == io.rocksffm.PrefixExtractor.class) {
            return io.rocksffm.PrefixExtractor.fixed(1);
        } else if (t == MemorySegment.class) {
            return heap("k");
        } else if (t == byte[].class) {
            return bytes("k");
        } else if (t == MemorySegment[].class) {
            return new MemorySegment[] {heap("k")};
        } else if (t == long[].class) {
            return new long[1];
        } else if (t == RocksDBException[].class) {
            return new RocksDBException[1];
        } else if (t == ReadOptions.class) {
            return ro;
        } else if (t == WriteOptions.class) {
            return wo;
        } else if (t == WriteBatch.class) {
            return batch;
        } else if (t == io.rocksffm.WriteBatchWithIndex.class) {
            return wbwi;
        } else if (t == Options.class) {
            return options;
        } else if (t == Snapshot.class) {
            return snapshot;
        } else if (t == ColumnFamilyHandle.class) {
            return db.defaultColumnFamily();
        } else if (t == String.class) {
            return "rocksdb.stats";
        } else if (t == Path.class) {
            return dir.resolve("null-probe");
        } else if (t == Compression.class) {
            return Compression.NONE;
        } else if (t == BiConsumer.class) {
            return (BiConsumer<Object, Object>) (a, b) -> {};
        } else if (t == List.class) {
            var element = ((ParameterizedType) genericParameter(m, i)).getActualTypeArguments()[0];
            return element == byte[].class ? List.of(bytes("k")) : List.of();
        } else if (t == boolean.class) {
            return false;
        } else if (t == int.class) {
            return 1;
        } else if (t == long.class) {
            return 0L;
        } else if (t == double.class) {
            return 1.0;
        }
        throw new AssertionError("no dummy for " + t + " in " + m);
    }

    // ---- open modes and shared resources (issue 16) ------------------------------------------------

    /**
     * Writes to a secondary instance, catching up on a primary, a negative TTL, a secondary of a
     * missing database, bad rate limiter and write buffer manager settings: clear errors, and the
     * databases involved stay usable.
     */
    @Test
    void openModesAndSharedResourcesRefuseBadInputs() {
        Path primaryPath = dir.resolve("db");
        try (Options options = new Options();
             RocksDB secondary = RocksDB.openAsSecondary(primaryPath, dir.resolve("secondary"), options);
             WriteBatch batch = new WriteBatch().put(bytes("x"), bytes("1"))) {
            for (Executable write : List.<Executable>of(() -> secondary.put(bytes("a"), bytes("x")),
                    () -> secondary.delete(bytes("a")), () -> secondary.deleteRange(bytes("a"), bytes("b")),
                    () -> secondary.write(wo, batch), () -> secondary.createColumnFamily("cf", options),
                    () -> secondary.flush(true))) {
                RocksDBException e = assertThrows(RocksDBException.class, write);
                assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code(), e.getMessage());
            }
            assertEquals("1", string(secondary.get(bytes("a"))));
            RocksDBException e = assertThrows(RocksDBException.class, db::tryCatchUpWithPrimary);
            assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code());
            report("bad input: writes to a secondary: %s; catch up on a primary: %s",
                    assertThrows(RocksDBException.class, () -> secondary.put(bytes("a"), bytes("x"))).getMessage(),
                    e.getMessage());
            RocksDBException missing = assertThrows(RocksDBException.class,
                    () -> RocksDB.openAsSecondary(dir.resolve("missing"), dir.resolve("s2"), options));
            report("bad input: secondary of a missing database: %s", missing.getMessage());
            assertThrows(IllegalArgumentException.class, () -> RocksDB.openWithTtl(dir.resolve("ttl"), options, -1));
            assertThrows(IllegalArgumentException.class,
                    () -> RocksDB.openWithTtl(dir.resolve("ttl"), options, List.of(), Integer.MIN_VALUE));
            assertFalse(Files.exists(dir.resolve("ttl")), "nothing was created");
        }
        assertThrows(IllegalArgumentException.class, () -> io.rocksffm.RateLimiter.create(0));
        assertThrows(IllegalArgumentException.class, () -> io.rocksffm.RateLimiter.create(1, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> io.rocksffm.RateLimiter.create(1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> io.rocksffm.WriteBufferManager.create(-1, false));
        if (io.rocksffm.internal.Capabilities.callable("rocksdb_write_buffer_manager_create")) {
            try (io.rocksffm.WriteBufferManager w = io.rocksffm.WriteBufferManager.create(0, false)) {
                assertThrows(IllegalStateException.class, () -> w.setBufferSize(1 << 20));
                assertThrows(IllegalArgumentException.class, () -> w.setBufferSize(0));
            }
        } else {
            try (Options options = new Options()) {
                assertThrows(UnsupportedOperationException.class,
                        () -> options.addEventListener(new io.rocksffm.EventListener() {}));
            }
            assertThrows(UnsupportedOperationException.class, () -> io.rocksffm.WriteBufferManager.create(1, false));
        }
        assertWritable();
    }

    // ---- empty ------------------------------------------------------------------------------------

    /** Empty keys, values, batches, key lists and bounds are data, not errors; an empty byte string is not a batch. */
    @Test
    void emptyInputsAreData() {
        db.put(new byte[0], new byte[0]);
        assertArrayEquals(new byte[0], db.get(new byte[0]));
        db.put(wo, MemorySegment.NULL, MemorySegment.NULL); // zero-length segment at address 0
        assertEquals(0, db.get(ro, arena.allocate(0), arena.allocate(0)));
        try (PinnedValue pv = db.getPinned(ro, MemorySegment.NULL)) {
            assertEquals(0, pv.byteSize());
        }
        try (RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            assertEquals(0, it.key().byteSize(), "the empty key sorts first");
        }
        try (WriteBatch empty = new WriteBatch(0)) {
            db.write(wo, empty);
            assertEquals(0, empty.count());
        }
        assertEquals(0, db.multiGet(db.defaultColumnFamily(), ro, new MemorySegment[0], new MemorySegment[0], new long[0],
                new RocksDBException[0], true));
        assertEquals(List.of(), db.multiGetAsList(List.of()));
        assertArrayEquals(new long[0], db.approximateSizes(db.defaultColumnFamily(), new MemorySegment[0], new MemorySegment[0]));
        db.deleteRange(bytes("a"), bytes("a")); // empty range: a no-op
        assertEquals("1", string(db.get(bytes("a"))));
        try (ReadOptions bounded = new ReadOptions().setIterateLowerBound(MemorySegment.NULL)
                .setIterateUpperBound(arena.allocate(0))) {
            try (RocksIterator it = db.newIterator(bounded)) {
                it.seekToFirst();
                assertFalse(it.isValid(), "upper bound \"\" excludes everything");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.NULL));
        db.delete(new byte[0]);
        assertNull(db.get(new byte[0]));
        report("bad input: empty keys/values/batches/lists/bounds: accepted as data");
    }

    // ---- huge and out-of-range sizes ----------------------------------------------------------------

    /**
     * Keys and values over RocksDB's 4 GiB record limit are refused by WriteBatch before a byte
     * is read (the 5 GiB segments here are fake: reading them would crash).
     */
    @Test
    @SuppressWarnings("restricted") // a fake segment, never read
    void oversizedBatchRecordsAreRefusedBeforeTheyAreRead() {
        MemorySegment fake = arena.allocate(1).reinterpret(5L << 30); // never read
        MemorySegment k = heap("k");
        try (WriteBatch b = new WriteBatch().put(k, k)) {
            long size = b.dataSize();
            List<Executable> calls = List.of(() -> b.put(fake, k), () -> b.put(k, fake), () -> b.delete(fake),
                    () -> b.singleDelete(fake), () -> b.deleteRange(k, fake),
                    () -> b.put(db.defaultColumnFamily(), fake, k));
            for (Executable call : calls) {
                assertThrows(IllegalArgumentException.class, call);
            }
            assertEquals(1, b.count());
            assertEquals(size, b.dataSize());
            db.write(wo, b);
            report("bad input: huge: %d WriteBatch calls with a 5 GiB key or value refused with IllegalArgumentException",
                    calls.size());
        }
        // absurd capacities fail to allocate, leaving nothing behind
        assertThrows(OutOfMemoryError.class, () -> new WriteBatch(1L << 50));
    }

    /** Large but real keys and values (a 1 MiB key, a 64 MiB value) work on every path. */
    @Test
    void largeKeysAndValuesWork() {
        byte[] key = new byte[1 << 20];
        byte[] value = new byte[64 << 20];
        new Random(1).nextBytes(key);
        new Random(2).nextBytes(value);
        db.put(key, value);
        assertArrayEquals(value, db.get(key));
        MemorySegment small = arena.allocate(16);
        assertEquals(value.length, db.get(ro, MemorySegment.ofArray(key), small), "a too small buffer gets the full length");
        try (PinnedValue pv = db.getPinned(ro, MemorySegment.ofArray(key))) {
            assertEquals(value.length, pv.byteSize());
        }
        try (RocksIterator it = db.newIterator(ro, 4096)) { // larger than the prefetch buffer: served directly
            it.seek(key);
            assertArrayEquals(key, it.keyBytes());
            assertEquals(value.length, it.value().byteSize());
        }
        try (WriteBatch b = new WriteBatch().put(key, value).delete(bytes("a"))) {
            db.write(wo, b);
        }
        db.flush(true);
        assertArrayEquals(value, db.get(key));
        report("bad input: large: a 1 MiB key with a 64 MiB value works through put/get/getPinned/iterator/batch/flush");
    }

    /** Negative or otherwise impossible sizes and counts are refused with IllegalArgumentException. */
    @Test
    void outOfRangeNumbersAreRefused() {
        try (Options o = new Options()) {
            List<Executable> calls = List.of(() -> new WriteBatch(-1), () -> db.newIterator(ro, -1),
                    () -> o.setWriteBufferSize(0), () -> o.setWriteBufferSize(-1), () -> o.setParallelism(0),
                    () -> o.setMaxOpenFiles(-2), () -> o.setBlockCacheSize(-1), () -> o.setBloomFilter(-1),
                    () -> o.setBloomFilter(Double.NaN), () -> o.setBloomFilter(Double.POSITIVE_INFINITY),
                    () -> ro.setReadaheadSize(-1));
            for (Executable call : calls) {
                assertThrows(IllegalArgumentException.class, call);
            }
            report("bad input: out-of-range numbers: %d calls refused with IllegalArgumentException", calls.size());
        }
    }

    @Test
    void unallocatablePrefetchLeavesNothingBehind() throws Exception {
        Process p = new ProcessBuilder(javaCommand(ChildProbe.class, "huge-prefetch", dir.resolve("probe").toString()))
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child hung");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "child JVM died: " + out);
        assertTrue(out.contains("CLOSED"), out);
    }

    // ---- read-only segments -------------------------------------------------------------------------

    /** Read-only segments are refused where rocksffm would write into them, accepted as inputs. */
    @Test
    void readOnlySegmentsAreRefusedAsOutputsAndAcceptedAsInputs() {
        MemorySegment roNative = seg("ro-key").asReadOnly();
        MemorySegment roHeap = heap("ro-value").asReadOnly();
        MemorySegment roOut = arena.allocate(16).asReadOnly();
        // inputs
        db.put(wo, roNative, roHeap);
        assertEquals(8, db.get(ro, roNative, arena.allocate(16)));
        try (WriteBatch b = new WriteBatch().put(roNative, roHeap).delete(roHeap).deleteRange(roHeap, roHeap)) {
            db.write(wo, b);
            try (WriteBatch copy = WriteBatch.fromBytes(b.data())) { // data() is itself read-only
                assertTrue(b.data().isReadOnly());
                db.write(wo, copy);
            }
        }
        try (ReadOptions bounded = new ReadOptions().setIterateLowerBound(roNative).setIterateUpperBound(roHeap)) {
            try (RocksIterator it = db.newIterator(bounded)) {
                it.seek(roNative);
                assertTrue(it.isValid());
            }
        }
        // outputs
        assertThrows(IllegalArgumentException.class, () -> db.get(ro, roNative, roOut));
        assertThrows(IllegalArgumentException.class, () -> db.multiGet(db.defaultColumnFamily(), ro,
                new MemorySegment[] {roNative}, new MemorySegment[] {roOut}, new long[1], new RocksDBException[1], false));
        try (RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            assertThrows(IllegalArgumentException.class, () -> it.key(roOut));
            assertThrows(IllegalArgumentException.class, () -> it.value(roOut));
            assertThrows(IllegalArgumentException.class, () -> it.key().set(ValueLayout.JAVA_BYTE, 0, (byte) 1),
                    "iterator views are read-only");
        }
        try (PinnedValue pv = db.getPinned(ro, roNative)) {
            assertThrows(IllegalArgumentException.class, () -> pv.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) 1),
                    "pinned values are read-only");
        }
        try (WriteBatch b = new WriteBatch().put(bytes("k"), bytes("v"))) {
            assertThrows(IllegalArgumentException.class, () -> b.data().set(ValueLayout.JAVA_BYTE, 0, (byte) 1));
        }
        report("bad input: read-only segments: 3 output parameters refuse them (IllegalArgumentException), 3 views "
                + "refuse writes (IllegalArgumentException from the JDK), inputs accept them");
    }

    // ---- segments of closed arenas, of other threads' arenas ------------------------------------------

    /** Every call given a segment of a closed arena throws IllegalStateException, and leaves its objects usable. */
    @Test
    void segmentsOfClosedArenasAreRefused() {
        Arena dead = Arena.ofConfined();
        MemorySegment gone = dead.allocate(32); // 32 bytes: long enough to be taken for a batch
        dead.close();
        int n = refuseForeignSegments(gone, IllegalStateException.class);
        report("bad input: segments of closed arenas: %d calls refused with IllegalStateException", n);
    }

    /** Every call given a segment of another thread's confined arena throws WrongThreadException. */
    @Test
    void segmentsOfAnotherThreadsArenaAreRefused() throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        CompletableFuture<MemorySegment> foreign = new CompletableFuture<>();
        Thread owner = Thread.ofPlatform().start(() -> {
            try (Arena a = Arena.ofConfined()) {
                foreign.complete(a.allocate(32));
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            int n = refuseForeignSegments(foreign.get(10, TimeUnit.SECONDS), WrongThreadException.class);
            report("bad input: segments of another thread's confined arena: %d calls refused with WrongThreadException", n);
        } finally {
            done.countDown();
            owner.join();
        }
    }

    private int refuseForeignSegments(MemorySegment bad, Class<? extends Throwable> expected) {
        MemorySegment k = heap("a");
        MemorySegment out = arena.allocate(16);
        ColumnFamilyHandle cf = db.defaultColumnFamily();
        int n = 0;
        try (WriteBatch batch = new WriteBatch().put(k, k); RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            long batchSize = batch.dataSize();
            List<Executable> calls = List.of(
                    () -> db.put(wo, bad, k), () -> db.put(wo, k, bad), () -> db.get(ro, bad, out), () -> db.get(ro, k, bad),
                    () -> db.delete(wo, bad), () -> db.deleteRange(wo, bad, k), () -> db.deleteRange(wo, k, bad),
                    () -> db.getPinned(ro, bad),
                    () -> db.multiGet(cf, ro, new MemorySegment[] {bad}, new MemorySegment[] {out}, new long[1], new RocksDBException[1], false),
                    () -> db.multiGet(cf, ro, new MemorySegment[] {k}, new MemorySegment[] {bad}, new long[1], new RocksDBException[1], false),
                    () -> db.compactRange(cf, bad, null), () -> db.compactRange(cf, null, bad),
                    () -> db.approximateSizes(cf, new MemorySegment[] {bad}, new MemorySegment[] {k}),
                    () -> it.seek(bad), () -> it.seekForPrev(bad), () -> it.key(bad), () -> it.value(bad),
                    () -> batch.put(bad, k), () -> batch.put(k, bad), () -> batch.delete(bad), () -> batch.singleDelete(bad),
                    () -> batch.deleteRange(bad, bad), () -> WriteBatch.fromBytes(bad));
            for (Executable call : calls) {
                assertThrows(expected, call, "call #" + n);
                n++;
            }
            assertEquals(1, batch.count());
            assertEquals(batchSize, batch.dataSize());
            db.write(wo, batch);
            assertTrue(it.isValid());
            it.next();
        }
        assertWritable();
        return n;
    }

    @Test
    void unreadableBoundLeavesTheReadOptionsIntact() {
        Arena dead = Arena.ofConfined();
        MemorySegment gone = dead.allocate(8);
        dead.close();
        ReadOptions bounded = new ReadOptions().setIterateUpperBound(heap("b"));
        try {
            assertThrows(IllegalStateException.class, () -> bounded.setIterateUpperBound(gone));
            assertThrows(IllegalStateException.class, () -> bounded.setIterateLowerBound(gone)); // no bound before: fine
            try (RocksIterator it = db.newIterator(bounded)) {
                it.seekToFirst();
                assertArrayEquals(bytes("a"), it.keyBytes());
                it.next();
                assertFalse(it.isValid(), "the upper bound \"b\" still applies");
            }
        } finally {
            bounded.close(); // must not throw
        }
    }

    /** Views handed out by iterators, pinned values, batches and forEach die with their owner. */
    @Test
    void viewsDieWithTheirOwner() {
        MemorySegment key;
        MemorySegment value;
        MemorySegment unchecked;
        try (RocksIterator it = db.newIterator(ro)) {
            it.seekToFirst();
            key = it.key();
            value = it.value();
            unchecked = it.uncheckedValue();
            assertArrayEquals(value.toArray(ValueLayout.JAVA_BYTE), unchecked.toArray(ValueLayout.JAVA_BYTE));
            assertArrayEquals(key.toArray(ValueLayout.JAVA_BYTE), it.uncheckedKey().toArray(ValueLayout.JAVA_BYTE));
        }
        assertThrows(IllegalStateException.class, () -> key.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> value.get(ValueLayout.JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> unchecked.get(ValueLayout.JAVA_BYTE, 0));
        MemorySegment pinned;
        try (PinnedValue pv = db.getPinned(ro, heap("a"))) {
            pinned = pv.segment();
        }
        assertThrows(IllegalStateException.class, () -> pinned.get(ValueLayout.JAVA_BYTE, 0));
        MemorySegment data;
        MemorySegment beforeGrowth;
        try (WriteBatch b = new WriteBatch(16)) {
            beforeGrowth = b.data();
            for (int i = 0; i < 100; i++) {
                b.put(bytes("key" + i), bytes("value" + i));
            }
            assertThrows(IllegalStateException.class, () -> beforeGrowth.get(ValueLayout.JAVA_BYTE, 0),
                    "a view of the buffer before it grew");
            data = b.data();
        }
        assertThrows(IllegalStateException.class, () -> data.get(ValueLayout.JAVA_BYTE, 0));
        MemorySegment[] kept = new MemorySegment[1];
        db.forEach(ro, (k, v) -> kept[0] = k);
        assertThrows(IllegalStateException.class, () -> kept[0].get(ValueLayout.JAVA_BYTE, 0));
        report("bad input: views used after their owner closed (iterator key/value, pinned value, batch data before "
                + "growth and after close, forEach key): IllegalStateException");
    }

    /**
     * A key()/value() view used after its iterator moved (every kind of move, served directly and
     * from a prefetch run, forward past the end too) throws IllegalStateException; the view of the
     * new entry works, and copies taken before the move keep their bytes.
     */
    @Test
    void viewsDieWhenTheirIteratorMoves() {
        // a prefetch trial's runs start START_AFTER + TRIAL entries after a seek and hold at least TRIAL entries
        int inRun = io.rocksffm.internal.PrefetchPolicy.START_AFTER + io.rocksffm.internal.PrefetchPolicy.TRIAL + 50;
        for (int i = 0; i < inRun + 300; i++) {
            db.put(bytes(String.format("m%04d", i)), bytes("value" + i));
        }
        Map<String, java.util.function.Consumer<RocksIterator>> moves = new java.util.LinkedHashMap<>();
        moves.put("next", RocksIterator::next);
        moves.put("prev", RocksIterator::prev);
        moves.put("seek", it -> it.seek(bytes("m0100")));
        moves.put("seekForPrev", it -> it.seekForPrev(bytes("m0100")));
        moves.put("seekToFirst", RocksIterator::seekToFirst);
        moves.put("seekToLast", RocksIterator::seekToLast);
        int checked = 0;
        for (long prefetch : new long[] {0, 64, 4096}) {
            for (int walk : new int[] {0, 1, inRun}) { // entries walked after the seek: direct, then in a run
                for (Map.Entry<String, java.util.function.Consumer<RocksIterator>> move : moves.entrySet()) {
                    try (RocksIterator it = db.newIterator(ro, prefetch)) {
                        it.seek(bytes("m0000"));
                        for (int i = 0; i < walk; i++) {
                            it.next();
                        }
                        MemorySegment key = it.key();
                        MemorySegment value = it.value();
                        MemorySegment keyAgain = it.key();
                        byte[] keyCopy = it.keyBytes();
                        assertArrayEquals(keyCopy, key.toArray(ValueLayout.JAVA_BYTE));
                        assertArrayEquals(keyCopy, keyAgain.toArray(ValueLayout.JAVA_BYTE));
                        String where = move.getKey() + " after " + walk + " entries, prefetch " + prefetch;
                        move.getValue().accept(it);
                        assertThrows(IllegalStateException.class, () -> key.get(ValueLayout.JAVA_BYTE, 0), where);
                        assertThrows(IllegalStateException.class, () -> value.get(ValueLayout.JAVA_BYTE, 0), where);
                        assertThrows(IllegalStateException.class, () -> keyAgain.toArray(ValueLayout.JAVA_BYTE),
                                where);
                        assertEquals(String.format("m%04d", walk), string(keyCopy), where);
                        if (it.isValid()) {
                            assertArrayEquals(it.keyBytes(), it.key().toArray(ValueLayout.JAVA_BYTE), where);
                        }
                        checked++;
                    }
                }
            }
        }
        try (RocksIterator it = db.newIterator(ro, 4096)) { // walking off the end
            it.seekToLast();
            MemorySegment last = it.value();
            it.next();
            assertFalse(it.isValid());
            assertThrows(IllegalStateException.class, () -> last.get(ValueLayout.JAVA_BYTE, 0));
        }
        report("bad input: iterator key()/value() views used after the iterator moved (" + checked
                + " move/position/prefetch cases, and past the end): IllegalStateException");
    }

    // ---- corrupt batch bytes ----------------------------------------------------------------------

    private static byte[] batch(int count, int... body) {
        byte[] b = new byte[12 + body.length];
        b[8] = (byte) count;
        for (int i = 0; i < body.length; i++) {
            b[12 + i] = (byte) body[i];
        }
        return b;
    }

    /** Malformed RocksDB batch bytes are refused by WriteBatch.fromBytes with IllegalArgumentException. */
    @Test
    void corruptBatchBytesAreRefused() {
        Map<String, byte[]> corrupt = new java.util.LinkedHashMap<>();
        corrupt.put("0 bytes", new byte[0]);
        corrupt.put("11 bytes (short header)", new byte[11]);
        corrupt.put("count 1, no record", batch(1));
        corrupt.put("count 0, one record", batch(0, 0x1, 1, 'k', 1, 'v'));
        corrupt.put("count 2, one record", batch(2, 0x1, 1, 'k', 1, 'v'));
        corrupt.put("count 2^32-1", batch(0xFF, 0x1, 1, 'k', 1, 'v'));
        corrupt.put("key length past the end", batch(1, 0x1, 5, 'k'));
        corrupt.put("value length past the end", batch(1, 0x1, 1, 'k', 9, 'v'));
        corrupt.put("truncated varint", batch(1, 0x1, 0x80));
        corrupt.put("varint over 32 bits", batch(1, 0x1, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F));
        corrupt.put("missing value", batch(1, 0x1, 1, 'k'));
        corrupt.put("column-family record without id", batch(1, 0x5));
        for (int tag : new int[] {0x3 /* log data */, 0x9, 0xA, 0xB, 0xC /* 2PC markers */, 0x10, 0x11 /* blob index */,
                0x12, 0x13, 0x14, 0x15, 0x16 /* wide columns */, 0x7F, 0x80, 0xFF}) {
            corrupt.put(String.format("tag 0x%02x", tag), batch(1, tag, 1, 'k', 1, 'v'));
        }
        for (Map.Entry<String, byte[]> e : corrupt.entrySet()) {
            assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.ofArray(e.getValue())),
                    e.getKey());
        }
        // what is well-formed is accepted: a no-op marker is not counted
        try (WriteBatch ok = WriteBatch.fromBytes(MemorySegment.ofArray(batch(1, 0xD, 0x1, 1, 'k', 1, 'v')))) {
            assertEquals(1, ok.count());
            db.write(wo, ok);
            assertEquals("v", string(db.get(bytes("k"))));
        }
        assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromNative(MemorySegment.NULL));
        report("bad input: corrupt batch bytes: %d malformed batches refused with IllegalArgumentException (%s)",
                corrupt.size(), corrupt.keySet());
    }

    /**
     * Random mutations of valid batches (bit flips, truncation, extension, byte insertion): each
     * is refused with IllegalArgumentException, or accepted and then written without harm (a
     * RocksDBException at most, after which the scratch database is reopened: see the poisoning
     * rows of the catalogue).
     */
    @Test
    void fuzzedBatchBytesNeverCrash() {
        int rounds = scale(20_000, 400_000);
        Random r = new Random(seed(99));
        int refused = 0;
        int written = 0;
        int failedWrites = 0;
        Path scratch = dir.resolve("scratch");
        RocksDB target = open(scratch);
        try {
            for (int i = 0; i < rounds; i++) {
                byte[] bytes;
                try (WriteBatch b = new WriteBatch()) {
                    for (int j = r.nextInt(5); j >= 0; j--) {
                        byte[] k = new byte[r.nextInt(4)];
                        r.nextBytes(k);
                        switch (r.nextInt(4)) {
                            case 0 -> b.delete(k);
                            case 1 -> b.deleteRange(k, k);
                            case 2 -> b.put(db.defaultColumnFamily(), MemorySegment.ofArray(k), MemorySegment.ofArray(k));
                            default -> b.put(k, new byte[r.nextInt(200)]);
                        }
                    }
                    bytes = b.data().toArray(ValueLayout.JAVA_BYTE);
                }
                byte[] mutated = switch (r.nextInt(4)) {
                    case 0 -> {
                        byte[] m = bytes.clone();
                        for (int f = 1 + r.nextInt(3); f > 0; f--) {
                            m[r.nextInt(m.length)] ^= (byte) (1 << r.nextInt(8));
                        }
                        yield m;
                    }
                    case 1 -> java.util.Arrays.copyOf(bytes, r.nextInt(bytes.length));
                    case 2 -> java.util.Arrays.copyOf(bytes, bytes.length + 1 + r.nextInt(8));
                    default -> {
                        byte[] m = new byte[bytes.length + 1];
                        int at = r.nextInt(m.length);
                        System.arraycopy(bytes, 0, m, 0, at);
                        m[at] = (byte) r.nextInt(256);
                        System.arraycopy(bytes, at, m, at + 1, bytes.length - at);
                        yield m;
                    }
                };
                WriteBatch parsed;
                try {
                    parsed = WriteBatch.fromBytes(MemorySegment.ofArray(mutated));
                } catch (IllegalArgumentException e) {
                    refused++;
                    continue;
                }
                try (parsed) {
                    assertEquals(mutated.length, parsed.dataSize());
                    target.write(wo, parsed);
                    written++;
                } catch (IllegalArgumentException e) {
                    refused++; // well-formed, but names a family the target lacks: refused before RocksDB sees it
                } catch (RocksDBException e) {
                    failedWrites++;
                    target.close(); // the failure may have poisoned the handle: start afresh
                    target = open(scratch);
                }
            }
        } finally {
            target.close();
        }
        report("bad input: fuzzed batch bytes: %d mutations: %d refused (IllegalArgumentException), %d written, "
                + "%d accepted but failed in RocksDB (RocksDBException)", rounds, refused, written, failedWrites);
        assertTrue(refused > 0 && written > 0);
    }

    // ---- writes RocksDB fails after its WAL write: they poison the handle ---------------------------

    @Test
    void reversedDeleteRangeLeavesTheDatabaseWritable() {
        assertThrows(RuntimeException.class, () -> db.deleteRange(bytes("z"), bytes("a")));
        assertWritable();
    }

    @Test
    void reversedRangeInBatchBytesIsRefused() {
        byte[] reversed = batch(1, 0xF, 1, 'z', 1, 'a');
        assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.ofArray(reversed)).close());
        assertWritable();
    }

    @Test
    void batchForAnUnknownFamilyLeavesTheDatabaseWritableAndUnchanged() {
        byte[] bytes = batch(2, 0x1, 1, 'p', 1, '1', 0x5, 9, 1, 'k', 1, 'v'); // put p=1; put k=v in family 9
        try (WriteBatch b = WriteBatch.fromBytes(MemorySegment.ofArray(bytes))) {
            assertThrows(RuntimeException.class, () -> db.write(wo, b));
        }
        assertNull(db.get(bytes("p")), "nothing of a refused batch is applied");
        assertWritable();
    }

    @Test
    void mergeWithoutAMergeOperatorLeavesTheDatabaseWritableAndUnchanged() {
        try (WriteBatch b = merge(new WriteBatch().put(bytes("m1"), bytes("x")), bytes("m2"), bytes("y"))) {
            assertThrows(RuntimeException.class, () -> db.write(wo, b));
        }
        assertNull(db.get(bytes("m1")), "nothing of a refused batch is applied");
        assertWritable();
    }

    // ---- paths and locks ------------------------------------------------------------------------------

    /** Paths that cannot hold a database: RocksDBException with RocksDB's code, or IllegalArgumentException. */
    @Test
    void badPathsAreRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        try (Options create = new Options().setCreateIfMissing(true); Options plain = new Options()) {
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> RocksDB.open(dir.resolve("missing"), plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.openReadOnly(dir.resolve("missing"), plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.open(file, create));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.open(file.resolve("db"), create));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.open(dir.resolve("n".repeat(300)), create));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.listColumnFamilies(file, plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> RocksDB.listColumnFamilies(dir.resolve("missing"), plain));
            assertCode(RocksDBException.Code.IO_ERROR, () -> db.createCheckpoint(file.resolve("cp")));
            assertThrows(RocksDBException.class, () -> db.createCheckpoint(dir.resolve("db"))); // exists
            assertThrows(IllegalArgumentException.class, () -> RocksDB.open(Path.of("bad\0name"), create));
            open(dir.resolve("existing")).close();
            try (Options exclusive = new Options().setErrorIfExists(true)) {
                assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> RocksDB.open(dir.resolve("existing"), exclusive));
            }
            // not bad: a name in any script works
            try (RocksDB unicode = RocksDB.open(dir.resolve("données-データ-🙂"), create)) {
                unicode.put(bytes("k"), bytes("v"));
            }
        }
        report("bad input: bad paths (missing, a file, under a file, too long, NUL, existing with error-if-exists, "
                + "checkpoint target existing or under a file): refused");
    }

    /** A database locked by this process or by another one: IO_ERROR; read-only opens still work. */
    @Test
    void lockedDatabasesAreRefused() throws Exception {
        RocksDBException e = assertCode(RocksDBException.Code.IO_ERROR, () -> open(dir.resolve("db")));
        assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("lock"), e.getMessage());
        Path other = dir.resolve("held");
        Process holder = new ProcessBuilder(javaCommand(ChildProbe.class, "hold-lock", other.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            var lines = holder.inputReader(StandardCharsets.UTF_8);
            assertEquals("READY", lines.readLine());
            RocksDBException byOther = assertCode(RocksDBException.Code.IO_ERROR, () -> open(other));
            assertTrue(byOther.getMessage().toLowerCase(java.util.Locale.ROOT).contains("lock"), byOther.getMessage());
            try (Options o = new Options(); RocksDB reader = RocksDB.openReadOnly(other, o)) {
                assertEquals("yes", string(reader.get(bytes("held"))));
            }
            holder.getOutputStream().close(); // let it close its database
            assertEquals("CLOSED", lines.readLine());
            assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        } finally {
            holder.destroyForcibly();
        }
        try (RocksDB mine = open(other)) {
            assertEquals("yes", string(mine.get(bytes("held"))));
        }
        report("bad input: locked database (by this process, by another process): IO_ERROR; read-only open works");
    }

    // ---- read-only databases ----------------------------------------------------------------------------

    /** Writes to a read-only database are refused with NOT_SUPPORTED; reads work. */
    @Test
    void writesToAReadOnlyDatabaseAreRefused() {
        try (Options o = new Options(); RocksDB readOnly = RocksDB.openReadOnly(dir.resolve("db"), o);
             WriteBatch b = new WriteBatch().put(bytes("k"), bytes("v"))) {
            assertTrue(readOnly.isReadOnly());
            List<Executable> calls = List.of(() -> readOnly.put(bytes("k"), bytes("v")), () -> readOnly.delete(bytes("a")),
                    () -> readOnly.deleteRange(bytes("a"), bytes("z")), () -> readOnly.write(wo, b),
                    () -> readOnly.flush(true), () -> readOnly.flushWal(true));
            for (Executable call : calls) {
                assertCode(RocksDBException.Code.NOT_SUPPORTED, call);
            }
            assertEquals("1", string(readOnly.get(bytes("a"))));
            readOnly.compactRange(); // RocksDB's C API drops this status: a silent no-op
            report("bad input: writes to a read-only database: %d calls refused with NOT_SUPPORTED; compactRange is "
                    + "silently ignored", calls.size());
        }
    }

    @Test
    void createColumnFamilyOnAReadOnlyDatabaseIsRefused() {
        try (Options o = new Options(); RocksDB readOnly = RocksDB.openReadOnly(dir.resolve("db"), o)) {
            assertThrows(RuntimeException.class, () -> readOnly.createColumnFamily("new", o));
        }
    }

    // ---- lifetimes, ownership, threads -------------------------------------------------------------------

    /** Owners refuse to close while what depends on them is open, and stay usable. */
    @Test
    void closingOwnersWithOpenChildrenIsRefused() {
        try (Options o = new Options()) {
            ColumnFamilyHandle family = db.createColumnFamily("f", o);
            RocksIterator onFamily = db.newIterator(family, ro, 0);
            assertThrows(IllegalStateException.class, family::close);
            assertThrows(IllegalStateException.class, () -> db.dropColumnFamily(family));
            onFamily.close();
            Snapshot s = db.getSnapshot();
            ReadOptions at = new ReadOptions().setSnapshot(s);
            RocksIterator it = db.newIterator(at);
            PinnedValue pv = db.getPinned(ro, heap("a"));
            assertThrows(IllegalStateException.class, db::close);
            assertThrows(IllegalStateException.class, at::close);
            assertThrows(IllegalStateException.class, s::close);
            assertThrows(IllegalStateException.class, () -> at.setIterateUpperBound(heap("z")));
            it.close();
            assertThrows(IllegalStateException.class, s::close, "the read options still use it");
            assertThrows(IllegalStateException.class, db::close, "snapshot and pinned value open");
            at.close();
            s.close();
            assertThrows(IllegalStateException.class, db::close, "pinned value open");
            assertEquals("1", string(pv.toByteArray()));
            pv.close();
            assertFalse(db.isClosed());
            assertWritable();
            db.dropColumnFamily(family);
            assertTrue(family.isClosed());
            assertThrows(IllegalStateException.class, () -> db.dropColumnFamily(family));
            assertThrows(IllegalStateException.class, () -> db.put(family, wo, heap("k"), heap("v")));
        }
        report("bad input: closing a database/options/snapshot/family with open children: IllegalStateException, "
                + "objects stay usable");
    }

    /** Objects of another database are refused with IllegalArgumentException. */
    @Test
    void objectsOfAnotherDatabaseAreRefused() {
        try (RocksDB other = open(dir.resolve("other")); Snapshot foreign = other.getSnapshot();
             ReadOptions at = new ReadOptions().setSnapshot(foreign)) {
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            ColumnFamilyHandle otherCf = other.defaultColumnFamily();
            List<Executable> calls = List.of(() -> db.get(at, heap("a"), arena.allocate(8)), () -> db.getPinned(at, heap("a")),
                    () -> db.newIterator(at).close(), () -> db.multiGet(cf, at, new MemorySegment[] {heap("a")},
                            new MemorySegment[1], new long[1], new RocksDBException[1], false),
                    () -> db.put(otherCf, wo, heap("k"), heap("v")), () -> db.get(otherCf, ro, heap("a"), arena.allocate(8)),
                    () -> db.newIterator(otherCf, ro, 0).close(), () -> db.flush(otherCf, true),
                    () -> db.dropColumnFamily(otherCf), () -> db.getProperty(otherCf, "rocksdb.stats"));
            for (Executable call : calls) {
                assertThrows(IllegalArgumentException.class, call);
            }
            assertThrows(IllegalArgumentException.class, () -> db.dropColumnFamily(cf), "the default family");
            at.setSnapshot(null);
            report("bad input: snapshots and family handles of another database: %d calls refused with "
                    + "IllegalArgumentException; dropping the default family too", calls.size());
        }
    }

    /** Iterator moves and reads without a current entry throw IllegalStateException. */
    @Test
    void iteratorWithoutAnEntryRefusesReads() {
        try (RocksIterator it = db.newIterator(ro)) {
            List<Executable> calls = List.of(it::next, it::prev, it::key, it::value, it::keyBytes, it::valueBytes,
                    () -> it.key(arena.allocate(8)), it::uncheckedKey, it::uncheckedValue);
            for (Executable call : calls) {
                assertThrows(IllegalStateException.class, call, "not positioned yet");
            }
            it.seekToLast();
            it.next();
            assertFalse(it.isValid());
            for (Executable call : calls) {
                assertThrows(IllegalStateException.class, call, "past the end");
            }
            it.status();
            it.seekToFirst();
            assertArrayEquals(bytes("a"), it.keyBytes());
        }
        report("bad input: iterator moves/reads without a current entry: IllegalStateException");
    }

    /** Streams and forEach misused: wrong thread, left open, a throwing or closing action. */
    @Test
    void streamAndForEachMisuse() throws Exception {
        Stream<Map.Entry<byte[], byte[]>> stream = db.stream(ro);
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> CompletableFuture.supplyAsync(stream::count).get(30, TimeUnit.SECONDS));
        assertInstanceOf(WrongThreadException.class, e.getCause());
        assertThrows(IllegalStateException.class, db::close, "an open stream holds an iterator");
        stream.close();
        RuntimeException boom = new RuntimeException("boom");
        assertSame(boom, assertThrows(RuntimeException.class, () -> db.forEach(ro, (k, v) -> {
            throw boom;
        })));
        assertThrows(IllegalStateException.class, () -> db.forEach(ro, (k, v) -> db.close()));
        assertFalse(db.isClosed());
        report("bad input: stream on another thread: WrongThreadException; unclosed stream blocks close; forEach "
                + "action throwing or closing the database: propagated / IllegalStateException, iterator closed");
    }

    /** Options the engine cannot honour are refused when the database opens. */
    @Test
    void unsupportedCompressionIsRefusedAtOpen() {
        try (Options o = new Options().setCreateIfMissing(true).setCompression(Compression.XPRESS)) {
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> RocksDB.open(dir.resolve("xpress"), o));
        }
        report("bad input: XPRESS compression (Windows only): INVALID_ARGUMENT at open");
    }

    /** Misshapen arguments of the multi-key calls and properties. */
    @Test
    void misshapenArgumentsAreRefused() {
        ColumnFamilyHandle cf = db.defaultColumnFamily();
        MemorySegment a = heap("a");
        MemorySegment b = heap("b");
        assertThrows(IllegalArgumentException.class, () -> db.multiGet(cf, ro, new MemorySegment[] {a, b},
                new MemorySegment[1], new long[2], new RocksDBException[2], false));
        assertThrows(IllegalArgumentException.class, () -> db.multiGet(cf, ro, new MemorySegment[] {b, a},
                new MemorySegment[2], new long[2], new RocksDBException[2], true), "sortedInput with unsorted keys");
        assertThrows(IllegalArgumentException.class, () -> db.approximateSizes(cf, new MemorySegment[] {a},
                new MemorySegment[0]));
        assertThrows(IllegalArgumentException.class, () -> new ColumnFamilyDescriptor("nul\0name", new Options()));
        try (Options o = new Options().setCreateIfMissing(true)) {
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> db.createColumnFamily("default", o));
            try (RocksDB withFamily = RocksDB.open(dir.resolve("families"), o)) {
                withFamily.createColumnFamily("extra", o);
            }
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> RocksDB.open(dir.resolve("families"), o),
                    "opening without listing every family");
        }
        assertNull(db.getProperty("no.such.property"));
        assertTrue(db.getLongProperty("rocksdb.stats").isEmpty(), "a text property is not a number");
        report("bad input: multiGet/approximateSizes with mismatched arrays or unsorted 'sorted' keys, NUL in a family "
                + "name: IllegalArgumentException; an existing family name, a family left out at open: INVALID_ARGUMENT; "
                + "unknown property: null");
    }

    private static RocksDBException assertCode(RocksDBException.Code code, Executable call) {
        return assertCode(code, call, "");
    }

    private static RocksDBException assertCode(RocksDBException.Code code, Executable call, String what) {
        RocksDBException e = assertThrows(RocksDBException.class, call, what);
        assertEquals(code, e.code(), what + ": " + e.getMessage());
        return e;
    }

    // ---- issue 16: backups, table files and ingestion, options ----------------------------------------

    /**
     * Restores into an open database, unknown backup ids, unsorted keys for a table file, ingestion
     * of missing or overlapping files, unknown option names: each refused with a clear error, and
     * the database (the open one restored into above all) is unharmed.
     */
    @Test
    void operationsRefuseBadInputsAndLeaveTheDatabaseIntact() {
        try (BackupEngineOptions o = new BackupEngineOptions(dir.resolve("backups"));
             BackupEngine engine = BackupEngine.open(o)) {
            RocksDBException none = assertThrows(RocksDBException.class, () -> engine.restoreLatest(dir.resolve("r0")));
            report("bad input: restore without backups: %s", none.getMessage());
            engine.createBackup(db);
            IllegalStateException open = assertThrows(IllegalStateException.class, () -> engine.restoreLatest(db.path()));
            assertTrue(open.getMessage().contains("open"), open.getMessage());
            // the same directory named another way
            assertThrows(IllegalStateException.class,
                    () -> engine.restoreLatest(db.path().resolve("..").resolve(db.path().getFileName())));
            assertCode(RocksDBException.Code.NOT_FOUND, () -> engine.verify(42));
            assertCode(RocksDBException.Code.NOT_FOUND, () -> engine.restore(42, dir.resolve("r1")));
            assertThrows(IllegalArgumentException.class, () -> engine.restore(-1, dir.resolve("r1")));
            assertThrows(IllegalArgumentException.class, () -> engine.purgeOldBackups(-1));
            report("bad input: restore into an open database: %s", open.getMessage());
        }
        assertEquals("1", string(db.get(bytes("a"))));
        try (Options o = new Options(); SstFileWriter w = SstFileWriter.open(o, dir.resolve("u.sst"))) {
            w.put(bytes("m"), bytes("1"));
            RocksDBException unsorted = assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> w.put(bytes("a"), bytes("2")));
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> w.delete(bytes("m")));
            w.put(bytes("n"), bytes("3")).finish();
            report("bad input: unsorted keys to SstFileWriter: %s", unsorted.getMessage());
        }
        try (IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            RocksDBException missing = assertThrows(RocksDBException.class,
                    () -> db.ingestExternalFile(List.of(dir.resolve("missing.sst")), ingest));
            RocksDBException behind = assertThrows(RocksDBException.class,
                    () -> db.ingestExternalFile(List.of(dir.resolve("u.sst")), ingest.setIngestBehind(true)));
            report("bad input: ingest a missing file: %s; behind without allow_ingest_behind: %s", missing.getMessage(),
                    behind.getMessage());
        }
        RocksDBException unknown = assertCode(RocksDBException.Code.INVALID_ARGUMENT,
                () -> db.setOptions(Map.of("no_such_option", "1")));
        try (Options base = new Options()) {
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> Options.fromString(base, "no_such_option=1"));
        }
        report("bad input: unknown option name: %s", unknown.getMessage());
        assertWritable();
        assertEquals("1", string(db.get(bytes("a"))));
    }
}
