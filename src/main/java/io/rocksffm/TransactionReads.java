package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.ListMultiGet;
import io.rocksffm.internal.MultiGet;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.PointReads;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.capi.RocksDBC;


import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import io.rocksffm.internal.BatchFormat;

/**
 * The reads of a {@link Transaction}: point reads (optionally locking, for update), multi-gets,
 * pinned values, iterators over its writes and the database, its snapshot and its write batch.
 */
final class TransactionReads {
    private TransactionReads() {}

    /** The pinned read of {@code key}: the slice or NULL; the caller destroys it. */
    static MemorySegment slice(Transaction tx, ReadOptions options, ColumnFamilyHandle family, MemorySegment key, long keyLength,
                                boolean forUpdate, boolean exclusive, Scratch s) {
        MemorySegment slice = forUpdate
                ? rocksdb_transaction_get_pinned_for_update_cf(tx.ptr, options.ptr, family.ptr, key, keyLength,
                        NativeObject.flag(exclusive), s.errptr)
                : rocksdb_transaction_get_pinned_cf(tx.ptr, options.ptr, family.ptr, key, keyLength, s.errptr);
        if (slice.address() == 0) {
            Native.check(s.errptr);
        }
        return slice;
    }

    static long get(Transaction tx, ColumnFamilyHandle family, ReadOptions options, MemorySegment key, MemorySegment value,
                     boolean forUpdate, boolean exclusive) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (value.isReadOnly()) {
            throw new IllegalArgumentException("value segment is read-only");
        }
        try (Scratch s = tx.beginRead(options, family, forUpdate)) {
            return PointReads.copy(slice(tx, options, family, s.first(key), key.byteSize(), forUpdate, exclusive, s),
                    value, s);
        }
    }

    static byte[] get(Transaction tx, ColumnFamilyHandle family, ReadOptions options, byte[] key, boolean forUpdate,
                       boolean exclusive) {
        Objects.requireNonNull(key, "key");
        try (Scratch s = tx.beginRead(options, family, forUpdate)) {
            return PointReads.array(slice(tx, options, family, s.copy(Scratch.FIRST, key), key.length, forUpdate,
                    exclusive, s), s);
        }
    }

    static int multiGet(Transaction tx, ColumnFamilyHandle family, ReadOptions options, MemorySegment[] keys,
                        MemorySegment[] values, long[] lengths, RocksDBException[] errors, boolean sortedInput) {
        Objects.requireNonNull(family, "family");
        MultiGet.checkArguments(keys, values, lengths, errors);
        if (sortedInput) {
            for (int i = 1; i < keys.length; i++) {
                if (BatchFormat.compareBytewise(MultiGet.element(keys[i - 1], "keys", i - 1),
                        MultiGet.element(keys[i], "keys", i)) > 0) {
                    throw new IllegalArgumentException("sortedInput, but keys[" + i + "] sorts before keys[" + (i - 1)
                            + "]");
                }
            }
        }
        try (Scratch s = tx.beginRead(options, family)) {
            ListMultiGet.call(RocksDBC::rocksdb_transaction_multi_get_cf, tx.ptr, options.ptr, family.ptr, keys, s);
            return ListMultiGet.intoSegments(s, values, lengths, errors);
        }
    }

    static List<byte[]> multiGetAsList(Transaction tx, ColumnFamilyHandle family, ReadOptions options, List<byte[]> keys,
                                        boolean forUpdate) {
        Objects.requireNonNull(keys, "keys");
        MemorySegment[] segments = new MemorySegment[keys.size()];
        for (int i = 0; i < segments.length; i++) {
            segments[i] = MemorySegment.ofArray(MultiGet.element(keys.get(i), "keys", i));
        }
        try (Scratch s = tx.beginRead(options, family, forUpdate)) {
            ListMultiGet.call(forUpdate ? RocksDBC::rocksdb_transaction_multi_get_for_update_cf
                    : RocksDBC::rocksdb_transaction_multi_get_cf, tx.ptr, options.ptr, family.ptr, segments, s);
            return ListMultiGet.asArrays(s, segments.length);
        }
    }

    static WriteBatch writeBatch(Transaction tx) {
        try (Scratch s = tx.beginActive()) {
            MemorySegment wi = rocksdb_transaction_get_writebatch_wi(tx.ptr);
            try {
                return WriteBatch.fromBytes(WriteBatchWithIndex.records(wi, s));
            } finally {
                Native.rocksdbFree(wi);
            }
        }
    }

    static Snapshot snapshot(Transaction tx) {
        try (Scratch s = tx.beginActive()) {
            if (!tx.hasSnapshot()) {
                return null; // (the C API would return a wrapper holding NULL, which is opaque to us)
            }
            MemorySegment wrapper = rocksdb_transaction_get_snapshot(tx.ptr);
            return Snapshot.adopt(tx.db, tx.lifecycle, wrapper, Native::rocksdbFree);
        }
    }

    /** The body of {@link Transaction#getPinned(ColumnFamilyHandle, ReadOptions, MemorySegment)}. */
    static PinnedValue pinned(Transaction tx, ColumnFamilyHandle family, ReadOptions options, MemorySegment key) {
        Objects.requireNonNull(key, "key");
        try (Scratch s = tx.beginRead(options, family)) {
            MemorySegment slice = slice(tx, options, family, s.first(key), key.byteSize(), false, false, s);
            return slice.address() == 0 ? null : PinnedValue.of(tx.db.lifecycle, slice, s.size);
        }
    }

    /** The body of {@link Transaction#multiGetForUpdateAsList}. */
    static List<byte[]> multiGetForUpdateAsList(Transaction tx, ColumnFamilyHandle family, ReadOptions options,
                                                List<byte[]> keys) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(keys, "keys");
        tx.lifecycle.ensureOpen();
        Capabilities.require("rocksdb_transaction_multi_get_for_update_cf");
        return multiGetAsList(tx, family, options, keys, true);
    }

    /** The body of {@link Transaction#newIterator(ColumnFamilyHandle, ReadOptions)}. */
    static RocksIterator iterator(Transaction tx, ColumnFamilyHandle family, ReadOptions options) {
        try (Scratch s = tx.beginRead(options, family)) {
            synchronized (options.lock) {
                return RocksIterator.create(tx.lifecycle, family, options, options.prefetchBytes,
                        (o, f) -> rocksdb_transaction_create_iterator_cf(tx.ptr, o, f)).overBatch();
            }
        }
    }
}
