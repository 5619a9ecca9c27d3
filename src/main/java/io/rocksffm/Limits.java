package io.rocksffm;

import io.rocksffm.internal.BatchFormat;

import java.lang.foreign.MemorySegment;

/**
 * RocksDB's size limits, checked before anything is copied or allocated: a key or value is at most
 * {@link BatchFormat#MAX_SLICE} bytes (the 32-bit length of a write-batch record; RocksDB would
 * first copy a larger one into a batch of its size). Only native segments can be that large, so
 * the checks cost a comparison of lengths the callers read anyway.
 */
final class Limits {
    private Limits() {}

    /** Refuses a key over RocksDB's limit. */
    static void checkKey(MemorySegment key) {
        if (key.byteSize() > BatchFormat.MAX_SLICE) {
            throw tooLarge("key", key.byteSize());
        }
    }

    /** Refuses a key or value over RocksDB's limit. */
    static void checkKeyValue(MemorySegment key, MemorySegment value) {
        if ((key.byteSize() | value.byteSize()) > BatchFormat.MAX_SLICE) {
            throw tooLarge(key.byteSize() > BatchFormat.MAX_SLICE ? "key" : "value",
                    Math.max(key.byteSize(), value.byteSize()));
        }
    }

    /** Refuses range bounds over RocksDB's limit. */
    static void checkRange(MemorySegment begin, MemorySegment end) {
        if ((begin.byteSize() | end.byteSize()) > BatchFormat.MAX_SLICE) {
            throw tooLarge("range bound", Math.max(begin.byteSize(), end.byteSize()));
        }
    }

    /** Refuses log data ({@code putLogData}) over RocksDB's limit. */
    static void checkLogData(MemorySegment blob) {
        if (blob.byteSize() > BatchFormat.MAX_SLICE) {
            throw tooLarge("log data", blob.byteSize());
        }
    }

    private static IllegalArgumentException tooLarge(String what, long size) {
        return new IllegalArgumentException(what + " of " + size + " bytes exceeds RocksDB's limit of "
                + BatchFormat.MAX_SLICE + " bytes");
    }
}
