package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.OptimisticTransactionDB;
import io.rocksffm.OptimisticTransactionOptions;
import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.TransactionOptions;
import io.rocksffm.reliability.ApiTableSupport.Table;

import java.lang.foreign.MemorySegment;
import java.util.List;
import io.rocksffm.RocksDB;
import io.rocksffm.WriteBatchWithIndex;
import java.util.Map;

/** The use-after-close tables ({@link ApiTables}) of the transaction types. */
final class TransactionTables {
    private TransactionTables() {}

    /** Options the tables' calls use (never closed). */
    static final TransactionOptions TX_OPTIONS = new TransactionOptions();
    static final OptimisticTransactionOptions OPT_OPTIONS = new OptimisticTransactionOptions();

    static Table<TransactionDB> transactionDB() {
        return WriteTables.issue31(AdminTables.issue30(new Table<>(TransactionDB.class)))
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
                .guarded("merge(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)", (db, c) -> ApiTableSupport.mergeOrRefused(() -> db.merge(c.cf, c.wo, c.key, c.value)))
                .guarded("merge(byte[],byte[])", (db, c) -> ApiTableSupport.mergeOrRefused(() -> db.merge(bytes("k"), bytes("v"))))
                .guarded("merge(ColumnFamilyHandle,byte[],byte[])", (db, c) -> ApiTableSupport.mergeOrRefused(() -> db.merge(c.cf, bytes("k"), bytes("v"))))
                .guarded("delete(ColumnFamilyHandle,WriteOptions,MemorySegment)", (db, c) -> db.delete(c.cf, c.wo, c.key))
                .guarded("delete(WriteOptions,MemorySegment)", (db, c) -> db.delete(c.wo, c.key))
                .guarded("delete(byte[])", (db, c) -> db.delete(bytes("k")))
                .guarded("delete(ColumnFamilyHandle,byte[])", (db, c) -> db.delete(c.cf, bytes("k")))
                .guarded("deleteRange(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)", (db, c) -> ApiTableSupport.rangeRefused(() -> db.deleteRange(c.cf, c.wo, c.key, c.value)))
                .guarded("deleteRange(WriteOptions,MemorySegment,MemorySegment)", (db, c) -> ApiTableSupport.rangeRefused(() -> db.deleteRange(c.wo, c.key, c.value)))
                .guarded("deleteRange(byte[],byte[])", (db, c) -> ApiTableSupport.rangeRefused(() -> db.deleteRange(bytes("a"), bytes("b"))))
                .guarded("write(WriteOptions,WriteBatch)", (db, c) -> db.write(c.wo, c.batch))
                .guarded("get(ColumnFamilyHandle,ReadOptions,MemorySegment,MemorySegment)", (db, c) -> db.get(c.cf, c.ro, c.key, c.out))
                .guarded("get(ReadOptions,MemorySegment,MemorySegment)", (db, c) -> db.get(c.ro, c.key, c.out))
                .guarded("get(byte[])", (db, c) -> db.get(bytes("k")))
                .guarded("get(ColumnFamilyHandle,byte[])", (db, c) -> db.get(c.cf, bytes("k")))
                .guarded("get(ReadOptions,byte[])", (db, c) -> db.get(c.ro, bytes("k")))
                .guarded("get(ColumnFamilyHandle,ReadOptions,byte[])", (db, c) -> db.get(c.cf, c.ro, bytes("k")))
                .guarded("getPinned(ColumnFamilyHandle,ReadOptions,MemorySegment)", (db, c) -> ApiTableSupport.closeQuietly(db.getPinned(c.cf, c.ro, c.key)))
                .guarded("getPinned(ReadOptions,MemorySegment)", (db, c) -> ApiTableSupport.closeQuietly(db.getPinned(c.ro, c.key)))
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
                .guarded("compactRange(ColumnFamilyHandle)", (db, c) -> db.compactRange(db.defaultColumnFamily()))
                .guarded("flush(List,FlushOptions)", (db, c) -> db.flush(List.of(c.cf), c.flush))
                .guarded("dropColumnFamilies(List)", (db, c) -> db.dropColumnFamilies(List.of(c.otherCf)))
                .guarded("getProperty(ColumnFamilyHandle,String)", (db, c) -> db.getProperty(c.cf, "rocksdb.stats"))
                .guarded("getProperty(String)", (db, c) -> db.getProperty("rocksdb.stats"))
                .guarded("getLongProperty(ColumnFamilyHandle,String)", (db, c) -> db.getLongProperty(c.cf, "rocksdb.estimate-num-keys"))
                .guarded("getLongProperty(String)", (db, c) -> db.getLongProperty("rocksdb.estimate-num-keys"))
                .guarded("approximateSizes(ColumnFamilyHandle,MemorySegment[],MemorySegment[])",
                        (db, c) -> db.approximateSizes(c.cf, new MemorySegment[] {c.key}, new MemorySegment[] {c.value}))
                .guarded("createCheckpoint(Path)", (db, c) -> db.createCheckpoint(c.dir.resolve("checkpoint-" + System.nanoTime())))
                .guarded("ingestExternalFile(ColumnFamilyHandle,List,IngestExternalFileOptions)",
                        (db, c) -> db.ingestExternalFile(c.cf, List.of(c.dir.resolve("none.sst")), c.ingest))
                .guarded("ingestExternalFile(List,IngestExternalFileOptions)",
                        (db, c) -> db.ingestExternalFile(List.of(c.dir.resolve("none.sst")), c.ingest))
                .guarded("setOptions(ColumnFamilyHandle,Map)", (db, c) -> db.setOptions(c.cf, Map.of("write_buffer_size", "4194304")))
                .guarded("setOptions(Map)", (db, c) -> db.setOptions(Map.of("write_buffer_size", "4194304")))
                .guarded("beginTransaction(WriteOptions)", (db, c) -> db.beginTransaction(c.wo).close())
                .guarded("beginTransaction(WriteOptions,TransactionOptions)",
                        (db, c) -> db.beginTransaction(c.wo, TransactionTables.TX_OPTIONS).close())
                .guarded("beginTransaction(WriteOptions,TransactionOptions,Transaction)",
                        (db, c) -> db.beginTransaction(c.wo, TransactionTables.TX_OPTIONS, null).close())
                .guarded("getPreparedTransactions()", (db, c) -> db.getPreparedTransactions());
    }

    static Table<OptimisticTransactionDB> optimisticTransactionDB() {
        return WriteTables.issue31(AdminTables.issue30(new Table<>(OptimisticTransactionDB.class)))
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
                .guarded("merge(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)", (db, c) -> ApiTableSupport.mergeOrRefused(() -> db.merge(c.cf, c.wo, c.key, c.value)))
                .guarded("merge(byte[],byte[])", (db, c) -> ApiTableSupport.mergeOrRefused(() -> db.merge(bytes("k"), bytes("v"))))
                .guarded("merge(ColumnFamilyHandle,byte[],byte[])", (db, c) -> ApiTableSupport.mergeOrRefused(() -> db.merge(c.cf, bytes("k"), bytes("v"))))
                .guarded("delete(ColumnFamilyHandle,WriteOptions,MemorySegment)", (db, c) -> db.delete(c.cf, c.wo, c.key))
                .guarded("delete(WriteOptions,MemorySegment)", (db, c) -> db.delete(c.wo, c.key))
                .guarded("delete(byte[])", (db, c) -> db.delete(bytes("k")))
                .guarded("delete(ColumnFamilyHandle,byte[])", (db, c) -> db.delete(c.cf, bytes("k")))
                .guarded("deleteRange(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)", (db, c) -> db.deleteRange(c.cf, c.wo, c.key, c.value))
                .guarded("deleteRange(WriteOptions,MemorySegment,MemorySegment)", (db, c) -> db.deleteRange(c.wo, c.key, c.value))
                .guarded("deleteRange(byte[],byte[])", (db, c) -> db.deleteRange(bytes("a"), bytes("b")))
                .guarded("write(WriteOptions,WriteBatch)", (db, c) -> db.write(c.wo, c.batch))
                .guarded("get(ColumnFamilyHandle,ReadOptions,MemorySegment,MemorySegment)", (db, c) -> db.get(c.cf, c.ro, c.key, c.out))
                .guarded("get(ReadOptions,MemorySegment,MemorySegment)", (db, c) -> db.get(c.ro, c.key, c.out))
                .guarded("get(byte[])", (db, c) -> db.get(bytes("k")))
                .guarded("get(ColumnFamilyHandle,byte[])", (db, c) -> db.get(c.cf, bytes("k")))
                .guarded("get(ReadOptions,byte[])", (db, c) -> db.get(c.ro, bytes("k")))
                .guarded("get(ColumnFamilyHandle,ReadOptions,byte[])", (db, c) -> db.get(c.cf, c.ro, bytes("k")))
                .guarded("getPinned(ColumnFamilyHandle,ReadOptions,MemorySegment)", (db, c) -> ApiTableSupport.closeQuietly(db.getPinned(c.cf, c.ro, c.key)))
                .guarded("getPinned(ReadOptions,MemorySegment)", (db, c) -> ApiTableSupport.closeQuietly(db.getPinned(c.ro, c.key)))
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
                .guarded("compactRange(ColumnFamilyHandle)", (db, c) -> db.compactRange(db.defaultColumnFamily()))
                .guarded("flush(List,FlushOptions)", (db, c) -> db.flush(List.of(c.cf), c.flush))
                .guarded("dropColumnFamilies(List)", (db, c) -> db.dropColumnFamilies(List.of(c.otherCf)))
                .guarded("getProperty(ColumnFamilyHandle,String)", (db, c) -> db.getProperty(c.cf, "rocksdb.stats"))
                .guarded("getProperty(String)", (db, c) -> db.getProperty("rocksdb.stats"))
                .guarded("getLongProperty(ColumnFamilyHandle,String)", (db, c) -> db.getLongProperty(c.cf, "rocksdb.estimate-num-keys"))
                .guarded("getLongProperty(String)", (db, c) -> db.getLongProperty("rocksdb.estimate-num-keys"))
                .guarded("approximateSizes(ColumnFamilyHandle,MemorySegment[],MemorySegment[])",
                        (db, c) -> db.approximateSizes(c.cf, new MemorySegment[] {c.key}, new MemorySegment[] {c.value}))
                .guarded("createCheckpoint(Path)", (db, c) -> db.createCheckpoint(c.dir.resolve("checkpoint-" + System.nanoTime())))
                .guarded("ingestExternalFile(ColumnFamilyHandle,List,IngestExternalFileOptions)",
                        (db, c) -> db.ingestExternalFile(c.cf, List.of(c.dir.resolve("none.sst")), c.ingest))
                .guarded("ingestExternalFile(List,IngestExternalFileOptions)",
                        (db, c) -> db.ingestExternalFile(List.of(c.dir.resolve("none.sst")), c.ingest))
                .guarded("setOptions(ColumnFamilyHandle,Map)", (db, c) -> db.setOptions(c.cf, Map.of("write_buffer_size", "4194304")))
                .guarded("setOptions(Map)", (db, c) -> db.setOptions(Map.of("write_buffer_size", "4194304")))
                .guarded("beginTransaction(WriteOptions)", (db, c) -> db.beginTransaction(c.wo).close())
                .guarded("beginTransaction(WriteOptions,OptimisticTransactionOptions)",
                        (db, c) -> db.beginTransaction(c.wo, TransactionTables.OPT_OPTIONS).close())
                .guarded("beginTransaction(WriteOptions,OptimisticTransactionOptions,Transaction)",
                        (db, c) -> db.beginTransaction(c.wo, TransactionTables.OPT_OPTIONS, null).close());
    }

    static Table<Transaction> transaction() {
        return new Table<>(Transaction.class)
                .plain("close()", (t, c) -> t.close())
                .plain("isClosed()", (t, c) -> assertTrue(t.isClosed()))
                .plain("isOptimistic()", (t, c) -> t.isOptimistic())
                .plain("toString()", (t, c) -> assertNotNull(t.toString()))
                .plain("database()", (t, c) -> assertNotNull(t.database()))
                .guarded("state()", (t, c) -> t.state())
                .guarded("defaultColumnFamily()", (t, c) -> t.defaultColumnFamily())
                .guarded("put(ColumnFamilyHandle,MemorySegment,MemorySegment)", (t, c) -> t.put(c.cf, c.key, c.value))
                .guarded("merge(ColumnFamilyHandle,MemorySegment,MemorySegment)", (t, c) -> ApiTableSupport.mergeOrRefused(() -> t.merge(c.cf, c.key, c.value)))
                .guarded("put(byte[],byte[])", (t, c) -> t.put(bytes("k"), bytes("v")))
                .guarded("delete(ColumnFamilyHandle,MemorySegment)", (t, c) -> t.delete(c.cf, c.key))
                .guarded("delete(byte[])", (t, c) -> t.delete(bytes("k")))
                .guarded("put(MemorySegment,MemorySegment)", (t, c) -> t.put(c.key, c.value))
                .guarded("put(ColumnFamilyHandle,byte[],byte[])", (t, c) -> t.put(c.cf, bytes("k"), bytes("v")))
                .guarded("merge(MemorySegment,MemorySegment)", (t, c) -> ApiTableSupport.mergeOrRefused(() -> t.merge(c.key, c.value)))
                .guarded("merge(byte[],byte[])", (t, c) -> ApiTableSupport.mergeOrRefused(() -> t.merge(bytes("k"), bytes("v"))))
                .guarded("merge(ColumnFamilyHandle,byte[],byte[])", (t, c) -> ApiTableSupport.mergeOrRefused(() -> t.merge(c.cf, bytes("k"), bytes("v"))))
                .guarded("delete(MemorySegment)", (t, c) -> t.delete(c.key))
                .guarded("delete(ColumnFamilyHandle,byte[])", (t, c) -> t.delete(c.cf, bytes("k")))
                .guarded("singleDelete(ColumnFamilyHandle,MemorySegment)", (t, c) -> ApiTableSupport.singleDeleteRefused(() -> t.singleDelete(c.cf, c.key)))
                .guarded("singleDelete(MemorySegment)", (t, c) -> ApiTableSupport.singleDeleteRefused(() -> t.singleDelete(c.key)))
                .guarded("singleDelete(ColumnFamilyHandle,byte[])", (t, c) -> ApiTableSupport.singleDeleteRefused(() -> t.singleDelete(c.cf, bytes("k"))))
                .guarded("singleDelete(byte[])", (t, c) -> ApiTableSupport.singleDeleteRefused(() -> t.singleDelete(bytes("k"))))
                .guarded("deleteRange(ColumnFamilyHandle,MemorySegment,MemorySegment)", (t, c) -> ApiTableSupport.rangeRefused(() -> t.deleteRange(c.cf, c.key, c.value)))
                .guarded("deleteRange(MemorySegment,MemorySegment)", (t, c) -> ApiTableSupport.rangeRefused(() -> t.deleteRange(c.key, c.value)))
                .guarded("deleteRange(ColumnFamilyHandle,byte[],byte[])", (t, c) -> ApiTableSupport.rangeRefused(() -> t.deleteRange(c.cf, bytes("a"), bytes("b"))))
                .guarded("deleteRange(byte[],byte[])", (t, c) -> ApiTableSupport.rangeRefused(() -> t.deleteRange(bytes("a"), bytes("b"))))
                .guarded("get(ColumnFamilyHandle,ReadOptions,MemorySegment,MemorySegment)", (t, c) -> t.get(c.cf, c.ro, c.key, c.out))
                .guarded("keyMayExist(ColumnFamilyHandle,ReadOptions,byte[])", (t, c) -> t.keyMayExist(c.cf, c.ro, bytes("k")))
                .guarded("get(ReadOptions,MemorySegment,MemorySegment)", (t, c) -> t.get(c.ro, c.key, c.out))
                .guarded("get(byte[])", (t, c) -> t.get(bytes("k")))
                .guarded("get(ColumnFamilyHandle,byte[])", (t, c) -> t.get(c.cf, bytes("k")))
                .guarded("get(ReadOptions,byte[])", (t, c) -> t.get(c.ro, bytes("k")))
                .guarded("get(ColumnFamilyHandle,ReadOptions,byte[])", (t, c) -> t.get(c.cf, c.ro, bytes("k")))
                .guarded("getForUpdate(ColumnFamilyHandle,ReadOptions,MemorySegment,MemorySegment,boolean)",
                        (t, c) -> t.getForUpdate(c.cf, c.ro, c.key, c.out, true))
                .guarded("getForUpdate(ColumnFamilyHandle,ReadOptions,byte[],boolean)",
                        (t, c) -> t.getForUpdate(c.cf, c.ro, bytes("k"), true))
                .guarded("getForUpdate(byte[])", (t, c) -> t.getForUpdate(bytes("k")))
                .guarded("getForUpdate(ColumnFamilyHandle,ReadOptions,byte[])", (t, c) -> t.getForUpdate(c.cf, c.ro, bytes("k")))
                .guarded("getForUpdate(ColumnFamilyHandle,byte[])", (t, c) -> t.getForUpdate(c.cf, bytes("k")))
                .guarded("getForUpdate(ReadOptions,byte[])", (t, c) -> t.getForUpdate(c.ro, bytes("k")))
                .guarded("getPinned(ColumnFamilyHandle,ReadOptions,MemorySegment)", (t, c) -> t.getPinned(c.cf, c.ro, c.key))
                .guarded("getPinned(ReadOptions,MemorySegment)", (t, c) -> t.getPinned(c.ro, c.key))
                .guarded("multiGet(ColumnFamilyHandle,ReadOptions,MemorySegment[],MemorySegment[],long[],RocksDBException[],boolean)",
                        (t, c) -> t.multiGet(c.cf, c.ro, new MemorySegment[] {c.key}, new MemorySegment[] {c.out},
                                new long[1], new RocksDBException[1], false))
                .guarded("multiGetAsList(List)", (t, c) -> t.multiGetAsList(List.of(bytes("k"))))
                .guarded("multiGetAsList(ColumnFamilyHandle,ReadOptions,List)",
                        (t, c) -> t.multiGetAsList(c.cf, c.ro, List.of(bytes("k"))))
                .guarded("multiGetForUpdateAsList(ColumnFamilyHandle,ReadOptions,List)",
                        (t, c) -> t.multiGetForUpdateAsList(c.cf, c.ro, List.of(bytes("k"))))
                .guarded("newIterator(ReadOptions)", (t, c) -> t.newIterator(c.ro).close())
                .guarded("newIterator(ColumnFamilyHandle,ReadOptions)", (t, c) -> t.newIterator(c.cf, c.ro).close())
                .guarded("forEach(ReadOptions,BiConsumer)", (t, c) -> t.forEach(c.ro, (k, v) -> {}))
                .guarded("stream(ReadOptions)", (t, c) -> {
                    try (var s = t.stream(c.ro)) {
                        s.count();
                    }
                })
                .guarded("getSnapshot()", (t, c) -> t.getSnapshot())
                .guarded("setSavePoint()", (t, c) -> t.setSavePoint())
                .guarded("rollbackToSavePoint()", (t, c) -> t.rollbackToSavePoint())
                .guarded("putLogData(MemorySegment)", (t, c) -> t.putLogData(c.value))
                .guarded("putLogData(byte[])", (t, c) -> t.putLogData(bytes("blob")))
                .guarded("getWriteBatch()", (t, c) -> t.getWriteBatch().close())
                .guarded("setName(String)", (t, c) -> t.setName("n"))
                .guarded("getName()", (t, c) -> t.getName())
                .guarded("prepare()", (t, c) -> t.prepare())
                .guarded("commit()", (t, c) -> t.commit())
                .guarded("rollback()", (t, c) -> t.rollback());
    }

    static Table<TransactionDBOptions> transactionDBOptions() {
        return SettingsTables.transactionDBOptions(new Table<>(TransactionDBOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<TransactionOptions> transactionOptions() {
        return SettingsTables.transactionOptions(new Table<>(TransactionOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<OptimisticTransactionOptions> optimisticTransactionOptions() {
        return SettingsTables.optimisticTransactionOptions(new Table<>(OptimisticTransactionOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<WriteBatchWithIndex> writeBatchWithIndex(RocksDB db) {
        return new Table<>(WriteBatchWithIndex.class)
                .plain("close()", (b, c) -> b.close())
                .plain("isClosed()", (b, c) -> assertTrue(b.isClosed()))
                .guarded("put(ColumnFamilyHandle,MemorySegment,MemorySegment)", (b, c) -> b.put(c.cf, c.key, c.value))
                .guarded("put(byte[],byte[])", (b, c) -> b.put(bytes("k"), bytes("v")))
                .guarded("delete(ColumnFamilyHandle,MemorySegment)", (b, c) -> b.delete(c.cf, c.key))
                .guarded("delete(byte[])", (b, c) -> b.delete(bytes("k")))
                .guarded("put(MemorySegment,MemorySegment)", (b, c) -> b.put(c.key, c.value))
                .guarded("put(ColumnFamilyHandle,byte[],byte[])", (b, c) -> b.put(c.cf, bytes("k"), bytes("v")))
                .guarded("merge(ColumnFamilyHandle,MemorySegment,MemorySegment)", (b, c) -> b.merge(c.cf, c.key, c.value))
                .guarded("merge(MemorySegment,MemorySegment)", (b, c) -> b.merge(c.key, c.value))
                .guarded("merge(byte[],byte[])", (b, c) -> b.merge(bytes("k"), bytes("v")))
                .guarded("merge(ColumnFamilyHandle,byte[],byte[])", (b, c) -> b.merge(c.cf, bytes("k"), bytes("v")))
                .guarded("putLogData(MemorySegment)", (b, c) -> b.putLogData(c.value))
                .guarded("putLogData(byte[])", (b, c) -> b.putLogData(bytes("blob")))
                .guarded("delete(MemorySegment)", (b, c) -> b.delete(c.key))
                .guarded("delete(ColumnFamilyHandle,byte[])", (b, c) -> b.delete(c.cf, bytes("k")))
                .guarded("singleDelete(ColumnFamilyHandle,MemorySegment)", (b, c) -> b.singleDelete(c.cf, c.key))
                .guarded("singleDelete(MemorySegment)", (b, c) -> b.singleDelete(c.key))
                .guarded("singleDelete(ColumnFamilyHandle,byte[])", (b, c) -> b.singleDelete(c.cf, bytes("k")))
                .guarded("singleDelete(byte[])", (b, c) -> b.singleDelete(bytes("k")))
                .guarded("deleteRange(ColumnFamilyHandle,MemorySegment,MemorySegment)", (b, c) -> ApiTableSupport.rangeRefused(() -> b.deleteRange(c.cf, c.key, c.value)))
                .guarded("deleteRange(MemorySegment,MemorySegment)", (b, c) -> ApiTableSupport.rangeRefused(() -> b.deleteRange(c.key, c.value)))
                .guarded("deleteRange(ColumnFamilyHandle,byte[],byte[])", (b, c) -> ApiTableSupport.rangeRefused(() -> b.deleteRange(c.cf, bytes("a"), bytes("b"))))
                .guarded("deleteRange(byte[],byte[])", (b, c) -> ApiTableSupport.rangeRefused(() -> b.deleteRange(bytes("a"), bytes("b"))))
                .guarded("count()", (b, c) -> b.count())
                .guarded("clear()", (b, c) -> b.clear())
                .guarded("setSavePoint()", (b, c) -> b.setSavePoint())
                .guarded("rollbackToSavePoint()", (b, c) -> b.setSavePoint().rollbackToSavePoint())
                .guarded("getFromBatch(Options,byte[])", (b, c) -> b.getFromBatch(c.options, bytes("k")))
                .guarded("getFromBatch(ColumnFamilyHandle,Options,byte[])", (b, c) -> b.getFromBatch(c.cf, c.options, bytes("k")))
                .guarded("getFromBatch(byte[])", (b, c) -> b.getFromBatch(bytes("k")))
                .guarded("getFromBatch(ColumnFamilyHandle,byte[])", (b, c) -> b.getFromBatch(c.cf, bytes("k")))
                .guarded("getFromBatch(Options,MemorySegment,MemorySegment)", (b, c) -> b.getFromBatch(c.options, c.key, c.out))
                .guarded("getFromBatch(ColumnFamilyHandle,Options,MemorySegment,MemorySegment)",
                        (b, c) -> b.getFromBatch(c.cf, c.options, c.key, c.out))
                .guarded("getFromBatchAndDB(Database,ColumnFamilyHandle,ReadOptions,byte[])",
                        (b, c) -> b.getFromBatchAndDB(db, c.cf, c.ro, bytes("k")))
                .guarded("getFromBatchAndDB(Database,ColumnFamilyHandle,byte[])", (b, c) -> b.getFromBatchAndDB(db, c.cf, bytes("k")))
                .guarded("getFromBatchAndDB(Database,ReadOptions,byte[])", (b, c) -> b.getFromBatchAndDB(db, c.ro, bytes("k")))
                .guarded("getFromBatchAndDB(Database,byte[])", (b, c) -> b.getFromBatchAndDB(db, bytes("k")))
                .guarded("getFromBatchAndDB(Database,ColumnFamilyHandle,ReadOptions,MemorySegment,MemorySegment)",
                        (b, c) -> b.getFromBatchAndDB(db, c.cf, c.ro, c.key, c.out))
                .guarded("getFromBatchAndDB(Database,ReadOptions,MemorySegment,MemorySegment)",
                        (b, c) -> b.getFromBatchAndDB(db, c.ro, c.key, c.out))
                .guarded("getPinnedFromBatchAndDB(Database,ColumnFamilyHandle,ReadOptions,MemorySegment)",
                        (b, c) -> b.getPinnedFromBatchAndDB(db, c.cf, c.ro, c.key))
                .guarded("getPinnedFromBatchAndDB(Database,ReadOptions,MemorySegment)",
                        (b, c) -> b.getPinnedFromBatchAndDB(db, c.ro, c.key))
                .guarded("newIteratorWithBase(Database,ColumnFamilyHandle,ReadOptions)",
                        (b, c) -> b.newIteratorWithBase(db, c.cf, c.ro).close())
                .guarded("newIteratorWithBase(Database,ReadOptions)", (b, c) -> b.newIteratorWithBase(db, c.ro).close());
    }
}
