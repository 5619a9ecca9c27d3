package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ReadOptions;
import io.rocksffm.RocksIterator;
import io.rocksffm.TimestampedDB;
import io.rocksffm.Timestamps;
import io.rocksffm.reliability.ApiTableSupport.Table;

import java.lang.foreign.MemorySegment;
import java.util.List;

/** The use-after-close tables of user-defined timestamps (issue 32): {@link TimestampedDB}, and the methods other types gained. */
final class TimestampTables {
    private TimestampTables() {}

    private static final byte[] TS = Timestamps.u64(1);

    /** {@link TimestampedDB}: a view of a database; every call refuses once the database (or an argument) is closed. */
    static Table<TimestampedDB> timestampedDB() {
        return new Table<>(TimestampedDB.class)
                .plain("database()", (t, c) -> assertNotNull(t.database()))
                .plain("toString()", (t, c) -> assertNotNull(t.toString()))
                .guarded("put(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment,MemorySegment)",
                        (t, c) -> t.put(c.cf, c.wo, c.key, MemorySegment.ofArray(TS), c.value))
                .guarded("put(ColumnFamilyHandle,byte[],byte[],byte[])", (t, c) -> t.put(c.cf, bytes("k"), TS, bytes("v")))
                .guarded("delete(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)",
                        (t, c) -> t.delete(c.cf, c.wo, c.key, MemorySegment.ofArray(TS)))
                .guarded("delete(ColumnFamilyHandle,byte[],byte[])", (t, c) -> t.delete(c.cf, bytes("k"), TS))
                .guarded("singleDelete(ColumnFamilyHandle,WriteOptions,MemorySegment,MemorySegment)",
                        (t, c) -> t.singleDelete(c.cf, c.wo, c.key, MemorySegment.ofArray(TS)))
                .guarded("singleDelete(ColumnFamilyHandle,byte[],byte[])", (t, c) -> t.singleDelete(c.cf, bytes("k"), TS))
                .guarded("get(ColumnFamilyHandle,ReadOptions,MemorySegment)", (t, c) -> t.get(c.cf, c.ro, c.key))
                .guarded("get(ColumnFamilyHandle,ReadOptions,byte[])", (t, c) -> t.get(c.cf, c.ro, bytes("k")))
                .guarded("get(ColumnFamilyHandle,ReadOptions,MemorySegment,MemorySegment,MemorySegment)",
                        (t, c) -> t.get(c.cf, c.ro, c.key, MemorySegment.ofArray(new byte[8]), MemorySegment.ofArray(new byte[8])))
                .guarded("multiGet(ReadOptions,List,List)", (t, c) -> t.multiGet(c.ro, List.of(c.cf), List.of(bytes("k"))))
                .guarded("increaseFullHistoryTsLow(ColumnFamilyHandle,byte[])", (t, c) -> t.increaseFullHistoryTsLow(c.cf, TS))
                .guarded("fullHistoryTsLow(ColumnFamilyHandle)", (t, c) -> t.fullHistoryTsLow(c.cf));
    }

    /** Adds {@link ReadOptions}' timestamps to its table. */
    static Table<ReadOptions> readOptions(Table<ReadOptions> table) {
        return table
                .guarded("setTimestamp(MemorySegment)", (o, c) -> o.setTimestamp(MemorySegment.ofArray(TS)))
                .guarded("setIterStartTimestamp(MemorySegment)", (o, c) -> o.setIterStartTimestamp(MemorySegment.ofArray(TS)));
    }

    /** Adds {@link RocksIterator#timestamp()} to its table. */
    static Table<RocksIterator> iterator(Table<RocksIterator> table) {
        return table.guarded("timestamp()", (it, c) -> it.timestamp());
    }

}
