package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.Cache;
import io.rocksffm.Checkpoint;
import io.rocksffm.ColumnFamilyHandle;
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

/**
 * One table per closeable type: every public instance method, with a call of it that is valid
 * apart from the state of the receiver (closed, or used from another thread) or of one closeable
 * argument. {@link Table#assertCoversPublicApi()} checks by reflection that a table lists every
 * public method of its type, so a method added later fails the suite until it is added here.
 */
final class ApiTables {
    private ApiTables() {}

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
            } else {
                throw new IllegalArgumentException(type.getName());
            }
            return c;
        }
    }

    /** The closeable types that appear as arguments of public methods. */
    static final List<Class<?>> CLOSEABLE_ARGUMENTS = List.of(ReadOptions.class, WriteOptions.class, WriteBatch.class,
            Options.class, Snapshot.class, ColumnFamilyHandle.class, FlushOptions.class, BlockBasedTableConfig.class,
            Cache.class);

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

    static Table<RocksDB> rocksDB() {
        return new Table<>(RocksDB.class)
                .plain("close()", (db, c) -> db.close())
                .plain("isClosed()", (db, c) -> assertTrue(db.isClosed()))
                .plain("path()", (db, c) -> assertNotNull(db.path()))
                .plain("isReadOnly()", (db, c) -> db.isReadOnly())
                .guarded("defaultColumnFamily()", (db, c) -> db.defaultColumnFamily())
                .guarded("columnFamily(String)", (db, c) -> db.columnFamily("default"))
                .guarded("columnFamilies()", (db, c) -> db.columnFamilies())
                .guarded("createColumnFamily(String,Options)", (db, c) -> db.createColumnFamily("created", c.options))
                .guarded("dropColumnFamily(ColumnFamilyHandle)", (db, c) -> db.dropColumnFamily(c.otherCf))
                .guarded("put(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)", (db, c) -> db.put(c.cf, c.wo, c.key, c.value))
                .guarded("put(WriteOptions,MemorySegment,MemorySegment)", (db, c) -> db.put(c.wo, c.key, c.value))
                .guarded("put(byte[],byte[])", (db, c) -> db.put(bytes("k"), bytes("v")))
                .guarded("put(ColumnFamilyHandle,byte[],byte[])", (db, c) -> db.put(c.cf, bytes("k"), bytes("v")))
                .guarded("delete(ColumnFamilyHandle,WriteOptions,MemorySegment)", (db, c) -> db.delete(c.cf, c.wo, c.key))
                .guarded("delete(WriteOptions,MemorySegment)", (db, c) -> db.delete(c.wo, c.key))
                .guarded("delete(byte[])", (db, c) -> db.delete(bytes("k")))
                .guarded("delete(ColumnFamilyHandle,byte[])", (db, c) -> db.delete(c.cf, bytes("k")))
                .guarded("deleteRange(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)", (db, c) -> db.deleteRange(c.cf, c.wo, c.key, c.value))
                .guarded("deleteRange(WriteOptions,MemorySegment,MemorySegment)", (db, c) -> db.deleteRange(c.wo, c.key, c.value))
                .guarded("deleteRange(byte[],byte[])", (db, c) -> db.deleteRange(bytes("a"), bytes("b")))
                .guarded("write(WriteOptions,WriteBatch)", (db, c) -> db.write(c.wo, c.batch))
                .guarded("write(WriteOptions,WriteBatchWithIndex)", (db, c) -> {
                    try (io.rocksffm.WriteBatchWithIndex b = new io.rocksffm.WriteBatchWithIndex()) {
                        db.write(c.wo, b);
                    }
                })
                .guarded("get(ColumnFamilyHandle,ReadOptions,MemorySegment,MemorySegment)", (db, c) -> db.get(c.cf, c.ro, c.key, c.out))
                .guarded("get(ReadOptions,MemorySegment,MemorySegment)", (db, c) -> db.get(c.ro, c.key, c.out))
                .guarded("get(byte[])", (db, c) -> db.get(bytes("k")))
                .guarded("get(ColumnFamilyHandle,byte[])", (db, c) -> db.get(c.cf, bytes("k")))
                .guarded("get(ReadOptions,byte[])", (db, c) -> db.get(c.ro, bytes("k")))
                .guarded("get(ColumnFamilyHandle,ReadOptions,byte[])", (db, c) -> db.get(c.cf, c.ro, bytes("k")))
                .guarded("getPinned(ColumnFamilyHandle,ReadOptions,MemorySegment)", (db, c) -> closeQuietly(db.getPinned(c.cf, c.ro, c.key)))
                .guarded("getPinned(ReadOptions,MemorySegment)", (db, c) -> closeQuietly(db.getPinned(c.ro, c.key)))
                .guarded("multiGet(ColumnFamilyHandle,ReadOptions,MemorySegment[],MemorySegment[],long[],RocksDBException[],boolean)",
                        (db, c) -> db.multiGet(c.cf, c.ro, new MemorySegment[] {c.key}, new MemorySegment[] {c.out},
                                new long[1], new RocksDBException[1], false))
                .guarded("multiGetAsList(List)", (db, c) -> db.multiGetAsList(List.of(bytes("k"))))
                .guarded("multiGetAsList(ColumnFamilyHandle,ReadOptions,List)",
                        (db, c) -> db.multiGetAsList(c.cf, c.ro, List.of(bytes("k"))))
                .guarded("newIterator(ReadOptions)", (db, c) -> db.newIterator(c.ro).close())
                .guarded("newIterator(ReadOptions,long)", (db, c) -> db.newIterator(c.ro, 1024).close())
                .guarded("newIterator(ColumnFamilyHandle,ReadOptions,long)", (db, c) -> db.newIterator(c.cf, c.ro, 0).close())
                .guarded("getSnapshot()", (db, c) -> db.getSnapshot().close())
                .guarded("forEach(ReadOptions,BiConsumer)", (db, c) -> db.forEach(c.ro, (k, v) -> {}))
                .guarded("stream(ReadOptions)", (db, c) -> {
                    try (var s = db.stream(c.ro)) {
                        s.count();
                    }
                })
                .guarded("flush(ColumnFamilyHandle,boolean)", (db, c) -> db.flush(c.cf, true))
                .guarded("flush(boolean)", (db, c) -> db.flush(true))
                .guarded("flush(ColumnFamilyHandle,FlushOptions)", (db, c) -> db.flush(c.cf, c.flush))
                .guarded("flushWal(boolean)", (db, c) -> db.flushWal(true))
                .guarded("compactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)", (db, c) -> db.compactRange(c.cf, c.key, c.value))
                .guarded("compactRange()", (db, c) -> db.compactRange())
                .guarded("getProperty(ColumnFamilyHandle,String)", (db, c) -> db.getProperty(c.cf, "rocksdb.stats"))
                .guarded("getProperty(String)", (db, c) -> db.getProperty("rocksdb.stats"))
                .guarded("getLongProperty(ColumnFamilyHandle,String)", (db, c) -> db.getLongProperty(c.cf, "rocksdb.estimate-num-keys"))
                .guarded("getLongProperty(String)", (db, c) -> db.getLongProperty("rocksdb.estimate-num-keys"))
                .guarded("approximateSizes(ColumnFamilyHandle,MemorySegment[],MemorySegment[])",
                        (db, c) -> db.approximateSizes(c.cf, new MemorySegment[] {c.key}, new MemorySegment[] {c.value}))
                .guarded("createCheckpoint(Path)", (db, c) -> db.createCheckpoint(c.dir.resolve("checkpoint-" + System.nanoTime())));
    }

    static Table<Options> options() {
        return new Table<>(Options.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setCreateIfMissing(boolean)", (o, c) -> o.setCreateIfMissing(true))
                .guarded("createIfMissing()", (o, c) -> o.createIfMissing())
                .guarded("setErrorIfExists(boolean)", (o, c) -> o.setErrorIfExists(true))
                .guarded("errorIfExists()", (o, c) -> o.errorIfExists())
                .guarded("setParallelism(int)", (o, c) -> o.setParallelism(2))
                .guarded("setWriteBufferSize(long)", (o, c) -> o.setWriteBufferSize(1 << 20))
                .guarded("writeBufferSize()", (o, c) -> o.writeBufferSize())
                .guarded("setMaxOpenFiles(int)", (o, c) -> o.setMaxOpenFiles(100))
                .guarded("maxOpenFiles()", (o, c) -> o.maxOpenFiles())
                .guarded("setCompression(Compression)", (o, c) -> o.setCompression(Compression.NONE))
                .guarded("compression()", (o, c) -> o.compression())
                .guarded("setBlockCacheSize(long)", (o, c) -> o.setBlockCacheSize(1 << 20))
                .guarded("blockCacheSize()", (o, c) -> o.blockCacheSize())
                .guarded("setBloomFilter(double)", (o, c) -> o.setBloomFilter(10))
                .guarded("bloomFilterBitsPerKey()", (o, c) -> o.bloomFilterBitsPerKey())
                .guarded("setTableFormat(BlockBasedTableConfig)", (o, c) -> o.setTableFormat(c.table));
    }

    static Table<ReadOptions> readOptions() {
        return new Table<>(ReadOptions.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setVerifyChecksums(boolean)", (o, c) -> o.setVerifyChecksums(true))
                .guarded("verifyChecksums()", (o, c) -> o.verifyChecksums())
                .guarded("setFillCache(boolean)", (o, c) -> o.setFillCache(false))
                .guarded("fillCache()", (o, c) -> o.fillCache())
                .guarded("setPrefixSameAsStart(boolean)", (o, c) -> o.setPrefixSameAsStart(true))
                .guarded("prefixSameAsStart()", (o, c) -> o.prefixSameAsStart())
                .guarded("setTotalOrderSeek(boolean)", (o, c) -> o.setTotalOrderSeek(true))
                .guarded("totalOrderSeek()", (o, c) -> o.totalOrderSeek())
                .guarded("setReadaheadSize(long)", (o, c) -> o.setReadaheadSize(4096))
                .guarded("readaheadSize()", (o, c) -> o.readaheadSize())
                .guarded("setTailing(boolean)", (o, c) -> o.setTailing(true))
                .guarded("tailing()", (o, c) -> o.tailing())
                .guarded("setIterateLowerBound(MemorySegment)", (o, c) -> o.setIterateLowerBound(c.key))
                .guarded("setIterateUpperBound(MemorySegment)", (o, c) -> o.setIterateUpperBound(c.value))
                .guarded("setSnapshot(Snapshot)", (o, c) -> o.setSnapshot(c.snapshot))
                .guarded("snapshot()", (o, c) -> o.snapshot());
    }

    static Table<WriteOptions> writeOptions() {
        return new Table<>(WriteOptions.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setSync(boolean)", (o, c) -> o.setSync(true))
                .guarded("sync()", (o, c) -> o.sync())
                .guarded("setDisableWAL(boolean)", (o, c) -> o.setDisableWAL(true))
                .guarded("disableWAL()", (o, c) -> o.disableWAL());
    }

    static Table<WriteBatch> writeBatch() {
        return new Table<>(WriteBatch.class)
                .plain("close()", (b, c) -> b.close())
                .plain("isClosed()", (b, c) -> assertTrue(b.isClosed()))
                .guarded("put(ColumnFamilyHandle,MemorySegment,MemorySegment)", (b, c) -> b.put(c.cf, c.key, c.value))
                .guarded("put(MemorySegment,MemorySegment)", (b, c) -> b.put(c.key, c.value))
                .guarded("put(byte[],byte[])", (b, c) -> b.put(bytes("k"), bytes("v")))
                .guarded("delete(ColumnFamilyHandle,MemorySegment)", (b, c) -> b.delete(c.cf, c.key))
                .guarded("delete(MemorySegment)", (b, c) -> b.delete(c.key))
                .guarded("delete(byte[])", (b, c) -> b.delete(bytes("k")))
                .guarded("singleDelete(ColumnFamilyHandle,MemorySegment)", (b, c) -> b.singleDelete(c.cf, c.key))
                .guarded("singleDelete(MemorySegment)", (b, c) -> b.singleDelete(c.key))
                .guarded("singleDelete(byte[])", (b, c) -> b.singleDelete(bytes("k")))
                .guarded("deleteRange(ColumnFamilyHandle,MemorySegment,MemorySegment)", (b, c) -> b.deleteRange(c.cf, c.key, c.value))
                .guarded("deleteRange(MemorySegment,MemorySegment)", (b, c) -> b.deleteRange(c.key, c.value))
                .guarded("deleteRange(byte[],byte[])", (b, c) -> b.deleteRange(bytes("a"), bytes("b")))
                .guarded("count()", (b, c) -> b.count())
                .guarded("dataSize()", (b, c) -> b.dataSize())
                .guarded("capacity()", (b, c) -> b.capacity())
                .guarded("clear()", (b, c) -> b.clear())
                .guarded("data()", (b, c) -> b.data())
                .guarded("toNative()", (b, c) -> b.toNative().close());
    }

    static Table<NativeWriteBatch> nativeWriteBatch() {
        return new Table<>(NativeWriteBatch.class)
                .plain("close()", (b, c) -> b.close())
                .plain("isClosed()", (b, c) -> assertTrue(b.isClosed()))
                .guarded("handle()", (b, c) -> b.handle())
                .guarded("count()", (b, c) -> b.count());
    }

    static Table<RocksIterator> iterator() {
        return new Table<>(RocksIterator.class)
                .plain("close()", (it, c) -> it.close())
                .plain("isClosed()", (it, c) -> it.isClosed())
                .guarded("seekToFirst()", (it, c) -> it.seekToFirst())
                .guarded("seekToLast()", (it, c) -> it.seekToLast())
                .guarded("seek(MemorySegment)", (it, c) -> it.seek(c.key))
                .guarded("seek(byte[])", (it, c) -> it.seek(bytes("k")))
                .guarded("seekForPrev(MemorySegment)", (it, c) -> it.seekForPrev(c.key))
                .guarded("seekForPrev(byte[])", (it, c) -> it.seekForPrev(bytes("k")))
                .guarded("next()", (it, c) -> it.next())
                .guarded("prev()", (it, c) -> it.prev())
                .guarded("isValid()", (it, c) -> it.isValid())
                .guarded("status()", (it, c) -> it.status())
                .guarded("key()", (it, c) -> it.key())
                .guarded("value()", (it, c) -> it.value())
                .guarded("key(MemorySegment)", (it, c) -> it.key(MemorySegment.ofArray(new byte[16])))
                .guarded("value(MemorySegment)", (it, c) -> it.value(MemorySegment.ofArray(new byte[16])))
                .guarded("keyBytes()", (it, c) -> it.keyBytes())
                .guarded("valueBytes()", (it, c) -> it.valueBytes());
    }

    static Table<Snapshot> snapshot() {
        return new Table<>(Snapshot.class)
                .plain("close()", (s, c) -> s.close())
                .plain("isClosed()", (s, c) -> assertTrue(s.isClosed()))
                .plain("database()", (s, c) -> assertNotNull(s.database()));
    }

    static Table<PinnedValue> pinnedValue() {
        return new Table<>(PinnedValue.class)
                .plain("close()", (p, c) -> p.close())
                .plain("isClosed()", (p, c) -> p.isClosed())
                .guarded("segment()", (p, c) -> p.segment())
                .guarded("byteSize()", (p, c) -> p.byteSize())
                .guarded("toByteArray()", (p, c) -> p.toByteArray());
    }

    static Table<ColumnFamilyHandle> columnFamilyHandle() {
        return new Table<>(ColumnFamilyHandle.class)
                .plain("close()", (h, c) -> h.close())
                .plain("isClosed()", (h, c) -> assertTrue(h.isClosed()))
                .plain("name()", (h, c) -> assertNotNull(h.name()))
                .plain("id()", (h, c) -> h.id())
                .plain("isDefault()", (h, c) -> h.isDefault())
                .plain("database()", (h, c) -> assertNotNull(h.database()))
                .plain("toString()", (h, c) -> assertNotNull(h.toString()));
    }

    static Table<FlushOptions> flushOptions() {
        return new Table<>(FlushOptions.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setWait(boolean)", (o, c) -> o.setWait(false))
                .guarded("waitForFlush()", (o, c) -> o.waitForFlush());
    }

    static Table<Cache> cache() {
        return new Table<>(Cache.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("capacity()", (o, c) -> o.capacity())
                .guarded("setCapacity(long)", (o, c) -> o.setCapacity(1 << 20))
                .guarded("usage()", (o, c) -> o.usage())
                .guarded("pinnedUsage()", (o, c) -> o.pinnedUsage());
    }

    static Table<BlockBasedTableConfig> blockBasedTableConfig() {
        return new Table<>(BlockBasedTableConfig.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setBlockCache(Cache)", (o, c) -> o.setBlockCache(c.cache))
                .guarded("setNoBlockCache(boolean)", (o, c) -> o.setNoBlockCache(true))
                .guarded("setFilterPolicy(FilterPolicy)", (o, c) -> o.setFilterPolicy(FilterPolicy.bloom(10)))
                .guarded("setBlockSize(long)", (o, c) -> o.setBlockSize(8192))
                .guarded("setCacheIndexAndFilterBlocks(boolean)", (o, c) -> o.setCacheIndexAndFilterBlocks(true))
                .guarded("setWholeKeyFiltering(boolean)", (o, c) -> o.setWholeKeyFiltering(true));
    }

    static Table<Checkpoint> checkpoint() {
        return new Table<>(Checkpoint.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("createCheckpoint(Path)", (o, c) -> o.createCheckpoint(c.dir.resolve("cp-" + System.nanoTime())))
                .guarded("createCheckpoint(Path,long)",
                        (o, c) -> o.createCheckpoint(c.dir.resolve("cp-" + System.nanoTime()), 1 << 20));
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
