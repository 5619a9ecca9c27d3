package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.bytes;
import static io.rocksffm.reliability.ApiTableSupport.mergeOrRefused;

import io.rocksffm.Database;
import io.rocksffm.WriteBatchWithIndex;
import io.rocksffm.reliability.ApiTableSupport.Table;

/**
 * The write methods issue 31 added to every kind of database (the one write surface of
 * {@link io.rocksffm.Writes} and the {@link io.rocksffm.WriteOptions} forms of
 * {@link io.rocksffm.KeyValueWrites}), added to each database's table.
 */
final class WriteTables {
    private WriteTables() {}

    /** Adds the issue 31 write methods to a database's table. */
    static <T extends Database> Table<T> issue31(Table<T> table) {
        return table
                .guarded("put(ColumnFamilyHandle,MemorySegment,MemorySegment)", (db, c) -> db.put(c.cf, c.key, c.value))
                .guarded("put(MemorySegment,MemorySegment)", (db, c) -> db.put(c.key, c.value))
                .guarded("put(ColumnFamilyHandle,WriteOptions,byte[],byte[])", (db, c) -> db.put(c.cf, c.wo, bytes("k"), bytes("v")))
                .guarded("put(WriteOptions,byte[],byte[])", (db, c) -> db.put(c.wo, bytes("k"), bytes("v")))
                .guarded("delete(ColumnFamilyHandle,MemorySegment)", (db, c) -> db.delete(c.cf, c.key))
                .guarded("delete(MemorySegment)", (db, c) -> db.delete(c.key))
                .guarded("delete(ColumnFamilyHandle,WriteOptions,byte[])", (db, c) -> db.delete(c.cf, c.wo, bytes("k")))
                .guarded("delete(WriteOptions,byte[])", (db, c) -> db.delete(c.wo, bytes("k")))
                .guarded("singleDelete(ColumnFamilyHandle,WriteOptions,MemorySegment)", (db, c) -> db.singleDelete(c.cf, c.wo, c.key))
                .guarded("singleDelete(WriteOptions,MemorySegment)", (db, c) -> db.singleDelete(c.wo, c.key))
                .guarded("singleDelete(ColumnFamilyHandle,WriteOptions,byte[])", (db, c) -> db.singleDelete(c.cf, c.wo, bytes("k")))
                .guarded("singleDelete(WriteOptions,byte[])", (db, c) -> db.singleDelete(c.wo, bytes("k")))
                .guarded("singleDelete(ColumnFamilyHandle,MemorySegment)", (db, c) -> db.singleDelete(c.cf, c.key))
                .guarded("singleDelete(MemorySegment)", (db, c) -> db.singleDelete(c.key))
                .guarded("singleDelete(ColumnFamilyHandle,byte[])", (db, c) -> db.singleDelete(c.cf, bytes("k")))
                .guarded("singleDelete(byte[])", (db, c) -> db.singleDelete(bytes("k")))
                .guarded("deleteRange(ColumnFamilyHandle,MemorySegment,MemorySegment)", (db, c) -> db.deleteRange(c.cf, c.key, c.value))
                .guarded("deleteRange(MemorySegment,MemorySegment)", (db, c) -> db.deleteRange(c.key, c.value))
                .guarded("deleteRange(ColumnFamilyHandle,WriteOptions,byte[],byte[])", (db, c) -> db.deleteRange(c.cf, c.wo, bytes("a"), bytes("b")))
                .guarded("deleteRange(WriteOptions,byte[],byte[])", (db, c) -> db.deleteRange(c.wo, bytes("a"), bytes("b")))
                .guarded("deleteRange(ColumnFamilyHandle,byte[],byte[])", (db, c) -> db.deleteRange(c.cf, bytes("a"), bytes("b")))
                .guarded("merge(ColumnFamilyHandle,MemorySegment,MemorySegment)", (db, c) -> mergeOrRefused(() -> db.merge(c.cf, c.key, c.value)))
                .guarded("merge(MemorySegment,MemorySegment)", (db, c) -> mergeOrRefused(() -> db.merge(c.key, c.value)))
                .guarded("merge(WriteOptions,MemorySegment,MemorySegment)", (db, c) -> mergeOrRefused(() -> db.merge(c.wo, c.key, c.value)))
                .guarded("merge(ColumnFamilyHandle,WriteOptions,byte[],byte[])", (db, c) -> mergeOrRefused(() -> db.merge(c.cf, c.wo, bytes("k"), bytes("v"))))
                .guarded("merge(WriteOptions,byte[],byte[])", (db, c) -> mergeOrRefused(() -> db.merge(c.wo, bytes("k"), bytes("v"))))
                .guarded("write(WriteBatch)", (db, c) -> db.write(c.batch))
                .guarded("write(WriteOptions,WriteBatchWithIndex)", (db, c) -> {
                    try (WriteBatchWithIndex b = new WriteBatchWithIndex()) {
                        db.write(c.wo, b);
                    }
                })
                .guarded("write(WriteBatchWithIndex)", (db, c) -> {
                    try (WriteBatchWithIndex b = new WriteBatchWithIndex()) {
                        db.write(b);
                    }
                });
    }
}
