package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The non-transactional writes of a database straight through its engine handle
 * ({@link Database#db}, the {@code rocksdb_t}): {@link RocksDB}'s writes, and an
 * {@link OptimisticTransactionDB}'s writes outside a transaction (through its base database). Each
 * checks its arguments, enters the database, family and options, copies heap inputs into scratch
 * memory and makes one downcall.
 */
final class BaseWrites {
    private BaseWrites() {}

    /** The shape of rocksdb_put_cf, _merge_cf and _delete_range_cf: a write of two slices. */
    @FunctionalInterface
    interface TwoSliceWrite {
        void call(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment a, long aLength,
                  MemorySegment b, long bLength, MemorySegment errptr);
    }

    /** {@code rocksdb_put_cf}. */
    static void put(Database d, ColumnFamilyHandle family, WriteOptions options, MemorySegment key,
                    MemorySegment value) {
        Limits.checkKeyValue(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        write(d, family, options, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"),
                false, RocksDBC::rocksdb_put_cf);
    }

    /** {@code rocksdb_merge_cf}, refused for a family without a merge operator. */
    static void merge(Database d, ColumnFamilyHandle family, WriteOptions options, MemorySegment key,
                      MemorySegment value) {
        Limits.checkKeyValue(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        write(d, family, options, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"),
                true, RocksDBC::rocksdb_merge_cf);
    }

    /** {@code rocksdb_delete_range_cf}; {@code begin} must not sort after {@code end} in the family's order. */
    static void deleteRange(Database d, ColumnFamilyHandle family, WriteOptions options, MemorySegment begin,
                            MemorySegment end) {
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        d.guard.checkFamily(family);
        Limits.checkRange(begin, end); // before RocksDB copies them into a batch of their size
        d.families.checkRangeOrder(family.id(), begin, end, "deleteRange"); // its comparator, built-in or Java
        write(d, family, options, begin, end, false, RocksDBC::rocksdb_delete_range_cf);
    }

    /** The shape of rocksdb_delete_cf and _singledelete_cf: a write of one slice. */
    @FunctionalInterface
    interface OneSliceWrite {
        void call(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment key, long keyLength,
                  MemorySegment errptr);
    }

    /** {@code rocksdb_delete_cf}. */
    static void delete(Database d, ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        write(d, family, options, key, RocksDBC::rocksdb_delete_cf);
    }

    /** {@code rocksdb_singledelete_cf}. */
    static void singleDelete(Database d, ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        write(d, family, options, key, RocksDBC::rocksdb_singledelete_cf);
    }

    /** Runs a one-slice write guarded against close ({@code write} is a constant method reference). */
    private static void write(Database d, ColumnFamilyHandle family, WriteOptions options, MemorySegment key,
                              OneSliceWrite write) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        Limits.checkKey(key);
        try (Scratch s = d.guard.begin(options, family)) {
            d.families.refuseTimestamped(family);
            write.call(d.db, options.ptr, family.ptr, s.first(key), key.byteSize(), s.errptr);
            d.checkWrite(s.errptr);
        }
    }

    /** Runs a two-slice write guarded against close ({@code write} is a constant method reference). */
    private static void write(Database d, ColumnFamilyHandle family, WriteOptions options, MemorySegment a,
                              MemorySegment b, boolean merge, TwoSliceWrite write) {
        Objects.requireNonNull(options, "options");
        try (Scratch s = d.guard.begin(options, family)) { // closed database, family or options first
            d.families.refuseTimestamped(family);
            if (merge) {
                d.requireMergeOperator(family);
            }
            write.call(d.db, options.ptr, family.ptr, s.first(a), a.byteSize(), s.second(b), b.byteSize(), s.errptr);
            d.checkWrite(s.errptr);
        }
    }
}
