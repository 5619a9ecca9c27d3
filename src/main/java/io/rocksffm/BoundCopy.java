package io.rocksffm;

import io.rocksffm.internal.Native;

import java.lang.foreign.MemorySegment;

/**
 * A copy of a {@link ReadOptions} bound's or timestamp's bytes in C-heap memory the options own
 * until it is replaced or they close. Only RocksDB reads it, and only while no iterator is open it
 * can change.
 */
record BoundCopy(MemorySegment bytes) {
    static MemorySegment data(BoundCopy b) {
        return b == null ? MemorySegment.NULL : b.bytes;
    }

    static long length(BoundCopy b) {
        return b == null ? 0 : b.bytes.byteSize();
    }

    void free() {
        Native.free(bytes);
    }
}

