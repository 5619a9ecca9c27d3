package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;

/**
 * The pinned point reads ({@code rocksdb_get_pinned_cf}): the path of engines without
 * {@code rocksdb_get_into_buffer_cf}, and of values too large for a one-call read's buffer. The
 * caller holds the database, family and options open and has made the key native.
 */
public final class PointReads {
    private PointReads() {}

    /**
     * rocksdb_get_pinned_cf: the slice, or NULL when absent; the caller destroys it.
     *
     * @throws io.rocksffm.RocksDBException if the read failed
     */
    public static MemorySegment slice(MemorySegment db, MemorySegment options, MemorySegment family,
                                      MemorySegment key, long keyLength, Scratch s) {
        MemorySegment slice = RocksDBC.rocksdb_get_pinned_cf(db, options, family, key, keyLength, s.errptr);
        if (slice.address() == 0) {
            Native.check(s.errptr);
        }
        return slice;
    }

    /** Copies what fits of the value into {@code value}; returns its full length, or -1 when absent. */
    public static long copy(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment key,
                            long keyLength, MemorySegment value, Scratch s) {
        return copy(slice(db, options, family, key, keyLength, s), value, s);
    }

    /** {@link #copy} of a pinned read's result ({@code slice}, NULL when absent), which it destroys. */
    public static long copy(MemorySegment slice, MemorySegment value, Scratch s) {
        if (slice.address() == 0) {
            return -1;
        }
        try {
            MemorySegment found = Native.pinnableValue(slice, s.size);
            long length = found.byteSize();
            Copies.fromAddress(found.address(), value, 0, Math.min(length, value.byteSize()));
            return length;
        } finally {
            Native.pinnableDestroy(slice);
        }
    }

    /** The value as a new array, or null when absent. */
    public static byte[] array(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment key,
                               long keyLength, Scratch s) {
        return array(slice(db, options, family, key, keyLength, s), s);
    }

    /** {@link #array} of a pinned read's result ({@code slice}, NULL when absent), which it destroys. */
    public static byte[] array(MemorySegment slice, Scratch s) {
        if (slice.address() == 0) {
            return null;
        }
        try {
            return Copies.toArray(Native.pinnableValue(slice, s.size));
        } finally {
            Native.pinnableDestroy(slice);
        }
    }
}
