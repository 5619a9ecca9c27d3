package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyDescriptor;
import io.rocksffm.EnvOptions;
import io.rocksffm.BackupEngine;
import io.rocksffm.BackupEngineOptions;
import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.Database;
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
import io.rocksffm.TimestampedDB;
import io.rocksffm.TraceOptions;
import io.rocksffm.Timestamps;
import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.Snapshot;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import io.rocksffm.CompactionFilter;
import io.rocksffm.CompactionFilterFactory;
import io.rocksffm.CompactionOptions;
import io.rocksffm.CuckooTableConfig;
import io.rocksffm.ExportImportFilesMetaData;
import io.rocksffm.ImportColumnFamilyOptions;
import io.rocksffm.PlainTableConfig;
import io.rocksffm.WaitForCompactOptions;
import io.rocksffm.Comparator;
import io.rocksffm.CreateBackupOptions;
import io.rocksffm.MergeOperator;
import io.rocksffm.PrefixExtractor;
import io.rocksffm.RateLimiter;
import io.rocksffm.UInt64AddOperator;
import io.rocksffm.WriteBatchWithIndex;
import io.rocksffm.WriteBufferManager;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.HashMap;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.Env;
import io.rocksffm.InfoLogLevel;
import io.rocksffm.InfoLogger;
import io.rocksffm.PerfContext;
import io.rocksffm.SstFileManager;

/**
 * The bad input catalogue (docs/bad-inputs.md), general inputs: null (the reflection probe),
 * empty, huge and out-of-range inputs, misshapen arguments, and the operations of issue 16.
 * Segments, batch bytes, and opening and ownership have their own classes
 * ({@link BadSegmentInputTest}, {@link BadBatchInputTest}, {@link BadOpenAndOwnershipTest}); what
 * they share is in {@link BadInputFixture}.
 */
class BadInputTest extends BadInputFixture {
    /** The compaction settings the null probes pass (never closed: the probed calls refuse before using them). */
    private static final CompactRangeOptions COMPACT_RANGE = new CompactRangeOptions();
    /** The file I/O settings the null probes pass (never closed, like the compaction settings). */
    private static final EnvOptions ENV_OPTIONS = new EnvOptions();

    /** The batch-with-index argument of the null probes (transactions' suite). */
    private WriteBatchWithIndex wbwi;

    @BeforeEach
    void openBatchWithIndex() {
        wbwi = new WriteBatchWithIndex();
    }

    @AfterEach
    void closeBatchWithIndex() {
        wbwi.close();
    }

    // ---- null -------------------------------------------------------------------------------------

    /** Signatures (name and parameter index) documented to accept null. */
    private static final Set<String> NULLABLE = Set.of("setIterateLowerBound(MemorySegment)#0",
            "setIterateUpperBound(MemorySegment)#0", "setSnapshot(Snapshot)#0",
            "compactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#1",
            "compactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#2",
            "compactRange(byte[],byte[])#0", "compactRange(byte[],byte[])#1",
            "compactRange(ColumnFamilyHandle,CompactRangeOptions,MemorySegment,MemorySegment)#2",
            "compactRange(ColumnFamilyHandle,CompactRangeOptions,MemorySegment,MemorySegment)#3",
            "deleteFilesInRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#1",
            "deleteFilesInRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#2",
            "suggestCompactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#1",
            "suggestCompactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)#2",
            "setProgressCallback(Runnable)#0", // null removes the callback
            "setTimestamp(MemorySegment)#0", "setIterStartTimestamp(MemorySegment)#0", // null removes the timestamp
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
             IngestExternalFileOptions ingest = new IngestExternalFileOptions();
             // null before RocksDB 11 (no such objects; calls given null for one refuse it: still an NPE)
             CompactionOptions compaction = AdminTables.compactionOptionsIfSupported();
             CreateBackupOptions createBackup = AdminTables.createBackupOptionsIfSupported();
             // issue 32: null on 7.8.3 (no such objects), like the two above
             WaitForCompactOptions wait = AdminTables.waitForCompactOptionsIfSupported();
             ImportColumnFamilyOptions importOptions = AdminTables.importOptionsIfSupported();
             ExportImportFilesMetaData exported = AdminTables.exportIfSupported(db, dir.resolve("probe-export"));
             CuckooTableConfig cuckoo = new CuckooTableConfig()) {
            it.seekToFirst();
            Statistics statistics = options.enableStatistics();
            Map<Class<?>, Object> live = new HashMap<>(Map.ofEntries(Map.entry(RocksDB.class, db), Map.entry(Options.class, options),
                    Map.entry(ReadOptions.class, ro), Map.entry(WriteOptions.class, wo), Map.entry(WriteBatch.class, batch),
                    Map.entry(NativeWriteBatch.class, nativeBatch), Map.entry(Snapshot.class, snapshot),
                    Map.entry(RocksIterator.class, it), Map.entry(PinnedValue.class, pinned),
                    Map.entry(ColumnFamilyHandle.class, db.defaultColumnFamily()), Map.entry(FlushOptions.class, flush),
                    Map.entry(Cache.class, cache), Map.entry(BlockBasedTableConfig.class, table),
                    Map.entry(Checkpoint.class, checkpoint), Map.entry(Engine.class, RocksDB.engine()),
                    Map.entry(BackupEngineOptions.class, backupOptions), Map.entry(BackupEngine.class, backups),
                    Map.entry(RestoreOptions.class, restore), Map.entry(SstFileWriter.class, writer),
                    Map.entry(IngestExternalFileOptions.class, ingest), Map.entry(Statistics.class, statistics)));
            live.put(CuckooTableConfig.class, cuckoo);
            if (wait != null) {
                live.put(WaitForCompactOptions.class, wait);
                live.put(ImportColumnFamilyOptions.class, importOptions);
                live.put(ExportImportFilesMetaData.class, exported);
            }
            live.put(TimestampedDB.class, TimestampedDB.of(db)); // a plain database: null is refused before RocksDB
            if (compaction != null) {
                live.put(CompactionOptions.class, compaction);
                live.put(CreateBackupOptions.class, createBackup);
            }
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
                    RateLimiter.class, WriteBufferManager.class, PerfContext.class, InfoLogger.class, SstFileManager.class, Env.class,
                    BackupEngine.class, SstFileWriter.class, LatestOptions.class, Options.class, TimestampedDB.class, Timestamps.class)) {
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
                    String where = ApiTableSupport.signature(m) + "#" + i;
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
            assertThrows(NullPointerException.class, () -> db.multiGetAsList(Arrays.asList(bytes("a"), null)));
            assertThrows(NullPointerException.class, () -> db.multiGet(db.defaultColumnFamily(), ro,
                    new MemorySegment[] {null}, new MemorySegment[1], new long[1], new RocksDBException[1], false));
            assertThrows(NullPointerException.class, () -> db.approximateSizes(db.defaultColumnFamily(),
                    new MemorySegment[] {null}, new MemorySegment[] {heap("z")}));
            assertThrows(NullPointerException.class, () -> RocksDB.open(dir.resolve("x"), options,
                    Arrays.asList((ColumnFamilyDescriptor) null)));
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
    private static Type genericParameter(Method m, int i) {
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
        } else if (t == CompactionOptions.class || t == CreateBackupOptions.class || t == WaitForCompactOptions.class
                || t == ImportColumnFamilyOptions.class || t == ExportImportFilesMetaData.class
                || t == CuckooTableConfig.class) {
            return live.get(t); // null before RocksDB 11 (but the Cuckoo settings)
        } else if (t == PlainTableConfig.class) {
            return PlainTableConfig.defaults();
        } else if (t == CreateBackupOptions.CpuPriority.class) {
            return CreateBackupOptions.CpuPriority.LOW;
        } else if (t == Runnable.class) {
            return (Runnable) () -> {};
        } else if (t == Database.class || t == RocksDB.class) {
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
        } else if (t == MergeOperator.class) {
            return new UInt64AddOperator();
        } else if (t == Comparator.class) {
            return new Comparator() {
                @Override
                public String name() {
                    return "null-probe";
                }

                @Override
                public int compare(MemorySegment a, MemorySegment b) {
                    return 0;
                }
            };
        } else if (t == CompactionFilter.class) {
            return (CompactionFilter) (level, k, v, out) -> null;
        } else if (t == CompactionFilterFactory.class) {
            return new CompactionFilterFactory() {
                @Override
                public String name() {
                    return "null-probe";
                }

                @Override
                public CompactionFilter create(Context context) {
                    return null;
                }
            };
        } else if (t == RateLimiter.Mode.class) {
            return RateLimiter.Mode.ALL_IO;
        } else if (t == PrefixExtractor.class) {
            return PrefixExtractor.fixed(1);
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
        } else if (t == WriteBatchWithIndex.class) {
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
        if (t == CompactRangeOptions.class) {
            return COMPACT_RANGE;
        } else if (t == EnvOptions.class) {
            return ENV_OPTIONS;
        } else if (t == InfoLogLevel.class) {
            return InfoLogLevel.INFO;
        } else if (t == System.Logger.class) {
            return System.getLogger("null-probe");
        } else if (t == TraceOptions.class) {
            return new TraceOptions();
        }
        throw new AssertionError("no dummy for " + t + " in " + m);
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
        try (RocksIterator it = db.newIterator(ro.setPrefetchBytes(4096))) { // larger than the prefetch buffer: served directly
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
            List<Executable> calls = List.of(() -> new WriteBatch(-1), () -> db.newIterator(ro.setPrefetchBytes(-1)),
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

    /**
     * An indexed batch's put without a family handle of a key shorter than a timestamp, written to
     * a database whose default family has timestamps and a Bloom filter: refused before RocksDB sees
     * it (it used to be accepted, and the next flush crashed the JVM in the filter builder; without
     * a filter the key was stored under a wrong name and timestamp). In a child JVM.
     */
    @Test
    void anIndexedBatchWithoutTimestampsCannotCrashATimestampedFamily() throws Exception {
        String out = runChild(ChildProbe.class, "timestamped-indexed-batch", dir.resolve("ts-probe").toString());
        assertTrue(out.contains("REFUSED the batch holds records for column family 'default', which has 8-byte"), out);
        assertTrue(out.contains("FLUSHED") && out.contains("KEY abd 1") && out.contains("CLOSED"), out);
        assertFalse(out.contains("KEY abc"), out);
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
            ColumnFamilyHandle twice = db.createColumnFamily("twice", o);
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> db.createColumnFamily("twice", o),
                    "a family the database has, open handle or not");
            twice.close();
            assertCode(RocksDBException.Code.INVALID_ARGUMENT, () -> db.createColumnFamily("twice", o), "closed handle");
            db.dropColumnFamily(db.createColumnFamily("dropped", o));
            db.dropColumnFamily(db.createColumnFamily("dropped", o)); // a dropped name can be created again
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
