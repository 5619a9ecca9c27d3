package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.reliability.ApiTableSupport.closeQuietly;
import static io.rocksffm.reliability.ApiTableSupport.mergeOrRefused;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BackupEngine;
import io.rocksffm.BackupEngineOptions;
import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.EnvOptions;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.LatestOptions;
import io.rocksffm.RestoreOptions;
import io.rocksffm.SstFileWriter;
import io.rocksffm.StatisticsLevel;
import io.rocksffm.Cache;
import io.rocksffm.Checkpoint;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.FilterPolicy;
import io.rocksffm.FlushOptions;
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
import io.rocksffm.reliability.ApiTableSupport.Table;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import io.rocksffm.CompactionFilter;
import io.rocksffm.CompactionFilterFactory;
import io.rocksffm.Comparator;
import io.rocksffm.EventListener;
import io.rocksffm.PrefixExtractor;
import io.rocksffm.RateLimiter;
import io.rocksffm.UInt64AddOperator;
import io.rocksffm.WriteBufferManager;

/**
 * One table per closeable type: every public instance method, with a call of it that is valid
 * apart from the state of the receiver (closed, or used from another thread) or of one closeable
 * argument. {@link Table#assertCoversPublicApi()} checks by reflection that a table lists every
 * public method of its type, so a method added later fails the suite until it is added here.
 * What the tables are built of (the calls' arguments, {@link Table}, shared helpers) is in
 * {@link ApiTableSupport}.
 */
final class ApiTables {
    private ApiTables() {}

    static Table<RocksDB> rocksDB() {
        return WriteTables.issue31(AdminTables.issue30(new Table<>(RocksDB.class)))
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
                .guarded("merge(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)", (db, c) -> mergeOrRefused(() -> db.merge(c.cf, c.wo, c.key, c.value)))
                .guarded("merge(byte[],byte[])", (db, c) -> mergeOrRefused(() -> db.merge(bytes("k"), bytes("v"))))
                .guarded("merge(ColumnFamilyHandle,byte[],byte[])", (db, c) -> mergeOrRefused(() -> db.merge(c.cf, bytes("k"), bytes("v"))))
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
                .guarded("newIterator(ColumnFamilyHandle,ReadOptions)", (db, c) -> db.newIterator(c.cf, c.ro).close())
                .guarded("newIterators(List,ReadOptions)", (db, c) -> db.newIterators(List.of(c.cf), c.ro).forEach(RocksIterator::close))
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
                .guarded("compactRange(byte[],byte[])", (db, c) -> db.compactRange(bytes("a"), bytes("b")))
                .guarded("compactRange(ColumnFamilyHandle)", (db, c) -> db.compactRange(c.cf))
                .guarded("flush(List,FlushOptions)", (db, c) -> db.flush(List.of(c.cf), c.flush))
                .guarded("dropColumnFamilies(List)", (db, c) -> db.dropColumnFamilies(List.of(c.otherCf)))
                .guarded("createColumnFamilyWithTtl(String,Options,int)",
                        (db, c) -> db.createColumnFamilyWithTtl("ttl", c.options, 1))
                .guarded("getProperty(ColumnFamilyHandle,String)", (db, c) -> db.getProperty(c.cf, "rocksdb.stats"))
                .guarded("getProperty(String)", (db, c) -> db.getProperty("rocksdb.stats"))
                .guarded("getLongProperty(ColumnFamilyHandle,String)", (db, c) -> db.getLongProperty(c.cf, "rocksdb.estimate-num-keys"))
                .guarded("getLongProperty(String)", (db, c) -> db.getLongProperty("rocksdb.estimate-num-keys"))
                .guarded("approximateSizes(ColumnFamilyHandle,MemorySegment[],MemorySegment[])",
                        (db, c) -> db.approximateSizes(c.cf, new MemorySegment[] {c.key}, new MemorySegment[] {c.value}))
                .guarded("createCheckpoint(Path)", (db, c) -> db.createCheckpoint(c.dir.resolve("checkpoint-" + System.nanoTime())))
                .guarded("tryCatchUpWithPrimary()", (db, c) -> db.tryCatchUpWithPrimary())
                // issue 16
                .guarded("ingestExternalFile(ColumnFamilyHandle,List,IngestExternalFileOptions)",
                        (db, c) -> db.ingestExternalFile(c.cf, List.of(c.dir.resolve("none.sst")), c.ingest))
                .guarded("ingestExternalFile(List,IngestExternalFileOptions)",
                        (db, c) -> db.ingestExternalFile(List.of(c.dir.resolve("none.sst")), c.ingest))
                .guarded("setOptions(ColumnFamilyHandle,Map)", (db, c) -> db.setOptions(c.cf, Map.of("write_buffer_size", "4194304")))
                .guarded("setOptions(Map)", (db, c) -> db.setOptions(Map.of("write_buffer_size", "4194304")));
    }

    static Table<Options> options() {
        return ObservabilityTables.environment(OptionsTables.issue32(SettingsTables.options(new Table<>(Options.class))))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setParallelism(int)", (o, c) -> o.setParallelism(2))
                .guarded("setDbLogDir(Path)", (o, c) -> o.setDbLogDir(c.dir))
                .guarded("dbLogDir()", (o, c) -> o.dbLogDir())
                .guarded("setRowCache(Cache)", (o, c) -> o.setRowCache(c.cache))
                .guarded("optimizeForPointLookup(long)", (o, c) -> o.optimizeForPointLookup(8))
                .guarded("optimizeLevelStyleCompaction()", (o, c) -> o.optimizeLevelStyleCompaction())
                .guarded("optimizeLevelStyleCompaction(long)", (o, c) -> o.optimizeLevelStyleCompaction(1 << 20))
                .guarded("optimizeUniversalStyleCompaction()", (o, c) -> o.optimizeUniversalStyleCompaction())
                .guarded("optimizeUniversalStyleCompaction(long)", (o, c) -> o.optimizeUniversalStyleCompaction(1 << 20))
                .guarded("prepareForBulkLoad()", (o, c) -> o.prepareForBulkLoad())
                .guarded("setBlockCacheSize(long)", (o, c) -> o.setBlockCacheSize(1 << 20))
                .guarded("blockCacheSize()", (o, c) -> o.blockCacheSize())
                .guarded("setBloomFilter(double)", (o, c) -> o.setBloomFilter(10))
                .guarded("bloomFilterBitsPerKey()", (o, c) -> o.bloomFilterBitsPerKey())
                .guarded("setTableFormat(BlockBasedTableConfig)", (o, c) -> o.setTableFormat(c.table))
                .guarded("setMergeOperator(MergeOperator)", (o, c) -> o.setMergeOperator(new UInt64AddOperator()))
                .guarded("setMergeOperatorName(String)", (o, c) -> o.setMergeOperatorName("uint64add"))
                .guarded("mergeOperator()", (o, c) -> o.mergeOperator())
                .guarded("setComparator(Comparator)", (o, c) -> o.setComparator(new Comparator() {
                    @Override
                    public String name() {
                        return "tables";
                    }

                    @Override
                    public int compare(MemorySegment a, MemorySegment b) {
                        return 0;
                    }
                }))
                .guarded("comparator()", (o, c) -> o.comparator())
                .guarded("setCompactionFilter(CompactionFilter)", (o, c) -> o.setCompactionFilter((l, k, v, out) -> null))
                .guarded("setCompactionFilterFactory(CompactionFilterFactory)", (o, c) -> o.setCompactionFilterFactory(
                        new CompactionFilterFactory() {
                            @Override
                            public String name() {
                                return "tables";
                            }

                            @Override
                            public CompactionFilter create(Context context) {
                                return null;
                            }
                        }))
                .guarded("setPrefixExtractor(PrefixExtractor)", (o, c) -> o.setPrefixExtractor(PrefixExtractor.capped(2)))
                .guarded("setRateLimiter(RateLimiter)", (o, c) -> o.setRateLimiter(c.limiter))
                .guarded("setWriteBufferManager(WriteBufferManager)", (o, c) -> {
                    if (c.wbm == null) { // 7.8.3: no manager can exist, so there is nothing to pass
                        throw new IllegalStateException("no write buffer manager on this engine");
                    }
                    o.setWriteBufferManager(c.wbm);
                })
                .guarded("addEventListener(EventListener)", (o, c) -> o.addEventListener(new EventListener() {}))
                // issue 16
                .guarded("enableStatistics()", (o, c) -> o.enableStatistics())
                .guarded("statistics()", (o, c) -> o.statistics())
                .guarded("setStatisticsLevel(StatisticsLevel)", (o, c) -> o.setStatisticsLevel(StatisticsLevel.ALL))
                .guarded("statisticsLevel()", (o, c) -> o.statisticsLevel());
    }

    static Table<ReadOptions> readOptions() {
        return TimestampTables.readOptions(SettingsTables.readOptions(new Table<>(ReadOptions.class)))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setPrefetchBytes(long)", (o, c) -> o.setPrefetchBytes(4096))
                .guarded("prefetchBytes()", (o, c) -> o.prefetchBytes())
                .guarded("setIterateLowerBound(MemorySegment)", (o, c) -> o.setIterateLowerBound(c.key))
                .guarded("setIterateUpperBound(MemorySegment)", (o, c) -> o.setIterateUpperBound(c.value))
                .guarded("setSnapshot(Snapshot)", (o, c) -> o.setSnapshot(c.snapshot))
                .guarded("snapshot()", (o, c) -> o.snapshot());
    }

    static Table<WriteOptions> writeOptions() {
        return SettingsTables.writeOptions(new Table<>(WriteOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
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
                .guarded("merge(ColumnFamilyHandle,MemorySegment,MemorySegment)", (b, c) -> b.merge(c.cf, c.key, c.value))
                .guarded("merge(MemorySegment,MemorySegment)", (b, c) -> b.merge(c.key, c.value))
                .guarded("merge(byte[],byte[])", (b, c) -> b.merge(bytes("k"), bytes("v")))
                .guarded("put(ColumnFamilyHandle,byte[],byte[])", (b, c) -> b.put(c.cf, bytes("k"), bytes("v")))
                .guarded("delete(ColumnFamilyHandle,byte[])", (b, c) -> b.delete(c.cf, bytes("k")))
                .guarded("singleDelete(ColumnFamilyHandle,byte[])", (b, c) -> b.singleDelete(c.cf, bytes("k")))
                .guarded("deleteRange(ColumnFamilyHandle,byte[],byte[])", (b, c) -> b.deleteRange(c.cf, bytes("a"), bytes("b")))
                .guarded("merge(ColumnFamilyHandle,byte[],byte[])", (b, c) -> b.merge(c.cf, bytes("k"), bytes("v")))
                .guarded("count()", (b, c) -> b.count())
                .guarded("dataSize()", (b, c) -> b.dataSize())
                .guarded("capacity()", (b, c) -> b.capacity())
                .guarded("clear()", (b, c) -> b.clear())
                .guarded("data()", (b, c) -> b.data())
                .guarded("toNative()", (b, c) -> b.toNative().close())
                .guarded("setSavePoint()", (b, c) -> b.setSavePoint())
                .guarded("rollbackToSavePoint()", (b, c) -> b.setSavePoint().rollbackToSavePoint())
                .guarded("popSavePoint()", (b, c) -> b.setSavePoint().popSavePoint())
                .guarded("putLogData(MemorySegment)", (b, c) -> b.putLogData(c.value))
                .guarded("putLogData(byte[])", (b, c) -> b.putLogData(bytes("blob")))
                .guarded("iterate(Handler)", (b, c) -> b.iterate(new WriteBatch.Handler() {}));
    }

    static Table<NativeWriteBatch> nativeWriteBatch() {
        return new Table<>(NativeWriteBatch.class)
                .plain("close()", (b, c) -> b.close())
                .plain("isClosed()", (b, c) -> assertTrue(b.isClosed()))
                .guarded("handle()", (b, c) -> b.handle())
                .guarded("count()", (b, c) -> b.count());
    }

    static Table<RocksIterator> iterator() {
        return TimestampTables.iterator(new Table<>(RocksIterator.class))
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
                .guarded("refresh()", (it, c) -> it.refresh())
                .guarded("key()", (it, c) -> it.key())
                .guarded("value()", (it, c) -> it.value())
                .guarded("key(MemorySegment)", (it, c) -> it.key(MemorySegment.ofArray(new byte[16])))
                .guarded("value(MemorySegment)", (it, c) -> it.value(MemorySegment.ofArray(new byte[16])))
                .guarded("keyBytes()", (it, c) -> it.keyBytes())
                .guarded("valueBytes()", (it, c) -> it.valueBytes())
                .guarded("uncheckedKey()", (it, c) -> it.uncheckedKey())
                .guarded("uncheckedValue()", (it, c) -> it.uncheckedValue());
    }

    static Table<Snapshot> snapshot() {
        return new Table<>(Snapshot.class)
                .plain("close()", (s, c) -> s.close())
                .plain("isClosed()", (s, c) -> assertTrue(s.isClosed()))
                .plain("database()", (s, c) -> assertNotNull(s.database()))
                .guarded("sequenceNumber()", (s, c) -> s.sequenceNumber());
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
        return SettingsTables.flushOptions(new Table<>(FlushOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
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

    static Table<RateLimiter> rateLimiter() {
        return new Table<>(RateLimiter.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<WriteBufferManager> writeBufferManager() {
        return new Table<>(WriteBufferManager.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("enabled()", (o, c) -> o.enabled())
                .guarded("costToCache()", (o, c) -> o.costToCache())
                .guarded("memoryUsage()", (o, c) -> o.memoryUsage())
                .guarded("mutableMemtableMemoryUsage()", (o, c) -> o.mutableMemtableMemoryUsage())
                .guarded("dummyEntriesInCacheUsage()", (o, c) -> o.dummyEntriesInCacheUsage())
                .guarded("bufferSize()", (o, c) -> o.bufferSize())
                .guarded("setBufferSize(long)", (o, c) -> o.setBufferSize(1 << 20))
                .guarded("setAllowStall(boolean)", (o, c) -> o.setAllowStall(true));
    }

    static Table<BlockBasedTableConfig> blockBasedTableConfig() {
        return OptionsTables.blockBasedIssue32(SettingsTables.blockBasedTableConfig(new Table<>(BlockBasedTableConfig.class)))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setBlockCache(Cache)", (o, c) -> o.setBlockCache(c.cache))
                .guarded("setFilterPolicy(FilterPolicy)", (o, c) -> o.setFilterPolicy(FilterPolicy.bloom(10)));
    }

    static Table<Checkpoint> checkpoint() {
        return new Table<>(Checkpoint.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("createCheckpoint(Path)", (o, c) -> o.createCheckpoint(c.dir.resolve("cp-" + System.nanoTime())))
                .guarded("createCheckpoint(Path,long)",
                        (o, c) -> o.createCheckpoint(c.dir.resolve("cp-" + System.nanoTime()), 1 << 20))
                .guarded("exportColumnFamily(ColumnFamilyHandle,Path)",
                        (o, c) -> o.exportColumnFamily(c.cf, c.dir.resolve("export-" + System.nanoTime())).close());
    }

    // ---- issue 16: backups, table files and ingestion, options files ----------------------------------

    static Table<BackupEngineOptions> backupEngineOptions() {
        return SettingsTables.backupEngineOptions(new Table<>(BackupEngineOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<RestoreOptions> restoreOptions() {
        return SettingsTables.restoreOptions(new Table<>(RestoreOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    /** Restores go to fresh directories under {@code c.dir} (a live engine would restore there). */
    static Table<BackupEngine> backupEngine(RocksDB db) {
        return new Table<>(BackupEngine.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("createBackup(Database)", (o, c) -> o.createBackup(db))
                .guarded("createBackup(Database,boolean)", (o, c) -> o.createBackup(db, false))
                .guarded("backups()", (o, c) -> o.backups())
                .guarded("verify(int)", (o, c) -> o.verify(1))
                .guarded("restoreLatest(Path)", (o, c) -> o.restoreLatest(c.dir.resolve("r-" + System.nanoTime())))
                .guarded("restoreLatest(Path,Path,RestoreOptions)", (o, c) -> {
                    Path p = c.dir.resolve("r-" + System.nanoTime());
                    o.restoreLatest(p, p, c.restore);
                })
                .guarded("restore(int,Path)", (o, c) -> o.restore(1, c.dir.resolve("r-" + System.nanoTime())))
                .guarded("restore(int,Path,Path,RestoreOptions)", (o, c) -> {
                    Path p = c.dir.resolve("r-" + System.nanoTime());
                    o.restore(1, p, p, c.restore);
                })
                .guarded("purgeOldBackups(int)", (o, c) -> o.purgeOldBackups(5))
                // issue 30
                .guarded("createBackup(Database,CreateBackupOptions)",
                        (o, c) -> AdminTables.withCreateBackupOptions(c, b -> o.createBackup(db, b)))
                .guarded("stopBackup()", (o, c) -> o.stopBackup())
                .guarded("createBackupWithMetadata(Database,CreateBackupOptions,String)",
                        (o, c) -> AdminTables.withCreateBackupOptions(c, b -> o.createBackupWithMetadata(db, b, "m")));
    }

    static Table<SstFileWriter> sstFileWriter() {
        return new Table<>(SstFileWriter.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("put(MemorySegment,MemorySegment)", (o, c) -> o.put(c.key, c.value))
                .guarded("put(byte[],byte[])", (o, c) -> o.put(bytes("zz"), bytes("v")))
                .guarded("merge(MemorySegment,MemorySegment)", (o, c) -> o.merge(c.key, c.value))
                .guarded("merge(byte[],byte[])", (o, c) -> o.merge(bytes("zzzz"), bytes("v")))
                .guarded("delete(MemorySegment)", (o, c) -> o.delete(c.key))
                .guarded("delete(byte[])", (o, c) -> o.delete(bytes("zzz")))
                .guarded("deleteRange(MemorySegment,MemorySegment)", (o, c) -> o.deleteRange(c.key, c.value))
                .guarded("deleteRange(byte[],byte[])", (o, c) -> o.deleteRange(bytes("a"), bytes("b")))
                .guarded("finish()", (o, c) -> o.finish())
                .guarded("fileSize()", (o, c) -> o.fileSize());
    }

    static Table<EnvOptions> envOptions() {
        return SettingsTables.envOptions(new Table<>(EnvOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<IngestExternalFileOptions> ingestExternalFileOptions() {
        return SettingsTables.ingestExternalFileOptions(new Table<>(IngestExternalFileOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    /** LatestOptions holds Options: after close every accessor still answers, and the options it returns are closed. */
    static Table<LatestOptions> latestOptions() {
        return new Table<>(LatestOptions.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .plain("dbOptions()", (o, c) -> assertTrue(o.dbOptions().isClosed()))
                .plain("columnFamilies()", (o, c) -> assertTrue(o.columnFamilies().stream().allMatch(d -> d.options().isClosed())));
    }
}
