package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.Cache;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.FlushOptions;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RestoreOptions;
import io.rocksffm.Snapshot;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.stream.Collectors;
import io.rocksffm.CompactionOptions;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.Env;
import io.rocksffm.InfoLogger;
import io.rocksffm.SstFileManager;
import io.rocksffm.WaitForCompactOptions;
import io.rocksffm.ImportColumnFamilyOptions;
import io.rocksffm.ExportImportFilesMetaData;
import io.rocksffm.CuckooTableConfig;
import io.rocksffm.CreateBackupOptions;
import io.rocksffm.FifoCompactionOptions;
import io.rocksffm.UniversalCompactionOptions;
import io.rocksffm.RateLimiter;
import io.rocksffm.WriteBufferManager;

/**
 * What the use-after-close tables ({@link ApiTables}, {@link TransactionTables}) are made of: the
 * arguments their calls use ({@link Ctx}), one type's table of public methods ({@link Table},
 * whose {@link Table#assertCoversPublicApi()} checks by reflection that it lists them all), and
 * the helpers the calls share.
 */
final class ApiTableSupport {
    private ApiTableSupport() {}

    /** The arguments the calls use; a test swaps one of the closeable ones for a closed one. */
    static final class Ctx {
        final Arena arena = Arena.ofConfined();
        final Path dir;
        ReadOptions ro;
        WriteOptions wo;
        WriteBatch batch;
        Options options;
        Snapshot snapshot;
        ColumnFamilyHandle cf;
        /** A family other than the default one (dropColumnFamily refuses the default family first). */
        ColumnFamilyHandle otherCf;
        FlushOptions flush;
        BlockBasedTableConfig table;
        Cache cache;
        RateLimiter limiter;
        /** Null on engines without write buffer managers (7.8.3). */
        WriteBufferManager wbm;
        IngestExternalFileOptions ingest;
        RestoreOptions restore;
        /** Null on engines without them (before RocksDB 11). */
        CompactionOptions compaction;
        /** Null on engines without them (before RocksDB 11). */
        CreateBackupOptions createBackup;
        UniversalCompactionOptions universal;
        FifoCompactionOptions fifo;
        CompactRangeOptions compactRange;
        Env env;
        /** Null on engines without them (7.8.3). */
        SstFileManager sfm;
        /** Null on engines without them (7.8.3). */
        InfoLogger logger;
        /** Null on engines without them (7.8.3). */
        WaitForCompactOptions waitForCompact;
        /** Null on engines without them (7.8.3), and where a test sets none. */
        ImportColumnFamilyOptions importOptions;
        /** An export of a live family: null on engines without exports (7.8.3), and where a test sets none. */
        ExportImportFilesMetaData exported;
        CuckooTableConfig cuckoo;
        final MemorySegment key;
        final MemorySegment value;
        final MemorySegment out;

        Ctx(Path dir) {
            this.dir = dir;
            key = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("key"));
            value = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("value"));
            out = arena.allocate(64);
        }

        /** A shallow copy, to replace one argument. */
        Ctx copy() {
            Ctx c = new Ctx(dir);
            c.ro = ro;
            c.wo = wo;
            c.batch = batch;
            c.options = options;
            c.snapshot = snapshot;
            c.cf = cf;
            c.otherCf = otherCf;
            c.flush = flush;
            c.table = table;
            c.cache = cache;
            c.limiter = limiter;
            c.wbm = wbm;
            c.ingest = ingest;
            c.restore = restore;
            c.compaction = compaction;
            c.createBackup = createBackup;
            c.universal = universal;
            c.fifo = fifo;
            c.compactRange = compactRange;
            c.env = env;
            c.sfm = sfm;
            c.logger = logger;
            c.waitForCompact = waitForCompact;
            c.importOptions = importOptions;
            c.exported = exported;
            c.cuckoo = cuckoo;
            return c;
        }

        /** This context with the argument of type {@code type} replaced by {@code closed}. */
        Ctx with(Class<?> type, Object closed) {
            Ctx c = copy();
            if (type == ReadOptions.class) {
                c.ro = (ReadOptions) closed;
            } else if (type == WriteOptions.class) {
                c.wo = (WriteOptions) closed;
            } else if (type == WriteBatch.class) {
                c.batch = (WriteBatch) closed;
            } else if (type == Options.class) {
                c.options = (Options) closed;
            } else if (type == Snapshot.class) {
                c.snapshot = (Snapshot) closed;
            } else if (type == ColumnFamilyHandle.class) {
                c.cf = (ColumnFamilyHandle) closed;
                c.otherCf = (ColumnFamilyHandle) closed;
            } else if (type == FlushOptions.class) {
                c.flush = (FlushOptions) closed;
            } else if (type == BlockBasedTableConfig.class) {
                c.table = (BlockBasedTableConfig) closed;
            } else if (type == Cache.class) {
                c.cache = (Cache) closed;
            } else if (type == RateLimiter.class) {
                c.limiter = (RateLimiter) closed;
            } else if (type == WriteBufferManager.class) {
                c.wbm = (WriteBufferManager) closed;
            } else if (type == IngestExternalFileOptions.class) {
                c.ingest = (IngestExternalFileOptions) closed;
            } else if (type == RestoreOptions.class) {
                c.restore = (RestoreOptions) closed;
            } else if (type == CompactionOptions.class) {
                c.compaction = (CompactionOptions) closed;
            } else if (type == CreateBackupOptions.class) {
                c.createBackup = (CreateBackupOptions) closed;
            } else if (type == UniversalCompactionOptions.class) {
                c.universal = (UniversalCompactionOptions) closed;
            } else if (type == FifoCompactionOptions.class) {
                c.fifo = (FifoCompactionOptions) closed;
            } else if (type == CompactRangeOptions.class) {
                c.compactRange = (CompactRangeOptions) closed;
            } else if (type == Env.class) {
                c.env = (Env) closed;
            } else if (type == SstFileManager.class) {
                c.sfm = (SstFileManager) closed;
            } else if (type == InfoLogger.class) {
                c.logger = (InfoLogger) closed;
            } else if (type == WaitForCompactOptions.class) {
                c.waitForCompact = (WaitForCompactOptions) closed;
            } else if (type == ImportColumnFamilyOptions.class) {
                c.importOptions = (ImportColumnFamilyOptions) closed;
            } else if (type == ExportImportFilesMetaData.class) {
                c.exported = (ExportImportFilesMetaData) closed;
            } else if (type == CuckooTableConfig.class) {
                c.cuckoo = (CuckooTableConfig) closed;
            } else {
                throw new IllegalArgumentException(type.getName());
            }
            return c;
        }
    }

    /** The closeable types that appear as arguments of public methods. */
    static final List<Class<?>> CLOSEABLE_ARGUMENTS = List.of(ReadOptions.class, WriteOptions.class, WriteBatch.class,
            Options.class, Snapshot.class, ColumnFamilyHandle.class, FlushOptions.class, BlockBasedTableConfig.class,
            Cache.class, RateLimiter.class, WriteBufferManager.class,
            IngestExternalFileOptions.class, RestoreOptions.class, CompactionOptions.class,
            CreateBackupOptions.class, UniversalCompactionOptions.class,
            FifoCompactionOptions.class, CompactRangeOptions.class, Env.class, SstFileManager.class, InfoLogger.class,
            WaitForCompactOptions.class, ImportColumnFamilyOptions.class, ExportImportFilesMetaData.class, CuckooTableConfig.class);

    /** A method's signature as the tables spell it: {@code name(SimpleType,...)}. */
    static String signature(Method m) {
        return m.getName() + Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(",", "(", ")"));
    }

    static final class Table<T> {
        final Class<T> type;
        /** Methods that must refuse a closed receiver with IllegalStateException. */
        final Map<String, BiConsumer<T, Ctx>> guarded = new LinkedHashMap<>();
        /** Methods that read plain Java state and stay usable after close (close, isClosed, names). */
        final Map<String, BiConsumer<T, Ctx>> plain = new LinkedHashMap<>();

        Table(Class<T> type) {
            this.type = type;
        }

        Table<T> guarded(String signature, BiConsumer<T, Ctx> call) {
            add(guarded, signature, call);
            return this;
        }

        Table<T> plain(String signature, BiConsumer<T, Ctx> call) {
            add(plain, signature, call);
            return this;
        }

        private void add(Map<String, BiConsumer<T, Ctx>> map, String signature, BiConsumer<T, Ctx> call) {
            if (guarded.containsKey(signature) || plain.containsKey(signature)) {
                throw new IllegalArgumentException("listed twice: " + signature);
            }
            map.put(signature, call);
        }

        /** The public instance methods of the type (inherited ones included, Object's excluded). */
        Map<String, Method> publicApi() {
            Map<String, Method> api = new LinkedHashMap<>();
            for (Method m : type.getMethods()) {
                if (!Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass() != Object.class) {
                    api.putIfAbsent(signature(m), m);
                }
            }
            return api;
        }

        void assertCoversPublicApi() {
            Set<String> api = new TreeSet<>(publicApi().keySet());
            Set<String> listed = new TreeSet<>(guarded.keySet());
            listed.addAll(plain.keySet());
            Set<String> missing = new TreeSet<>(api);
            missing.removeAll(listed);
            Set<String> stale = new TreeSet<>(listed);
            stale.removeAll(api);
            assertTrue(missing.isEmpty() && stale.isEmpty(), type.getSimpleName()
                    + ": the table must list every public method; missing " + missing + ", no longer in the API " + stale);
        }

        /** The closeable argument types of a listed method. */
        List<Class<?>> closeableParameters(String signature) {
            Method m = publicApi().get(signature);
            return Arrays.stream(m.getParameterTypes()).filter(CLOSEABLE_ARGUMENTS::contains).distinct()
                    .<Class<?>>map(c -> c).toList();
        }
    }

    /** A merge on a database without a merge operator: refused with IllegalArgumentException once past the guards. */
    static void mergeOrRefused(Runnable merge) {
        try {
            merge.run();
        } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().contains("no merge operator"), e.getMessage());
        }
    }

    /** Runs a range deletion a surface refuses ({@link UnsupportedOperationException}) once its checks pass. */
    static void rangeRefused(Runnable deleteRange) {
        try {
            deleteRange.run();
        } catch (UnsupportedOperationException e) {
            assertTrue(e.getMessage().contains("range deletion"), e.getMessage());
        }
    }

    static void singleDeleteRefused(Runnable singleDelete) {
        try {
            singleDelete.run();
        } catch (UnsupportedOperationException e) {
            assertTrue(e.getMessage().contains("single deletion"), e.getMessage());
        }
    }

    static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }
}
