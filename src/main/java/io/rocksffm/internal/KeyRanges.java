package io.rocksffm.internal;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** The marshalling of key ranges for {@code rocksdb_approximate_sizes_cf}. */
public final class KeyRanges {
    private KeyRanges() {}

    /**
     * Approximate sizes of the ranges {@code [starts[i], limits[i])} of a family (the caller holds
     * the database and family open). Keys are copied into native memory first.
     *
     * @throws NullPointerException if an element is null
     * @throws io.rocksffm.RocksDBException if RocksDB fails
     */
    public static long[] approximateSizes(MemorySegment db, MemorySegment family, MemorySegment[] starts,
                                          MemorySegment[] limits) {
        return approximateSizes(db, family, starts, limits, -1);
    }

    /** Include flags of {@code rocksdb_approximate_sizes_cf_with_flags} (RocksDB's {@code SizeApproximationFlags}). */
    public static final int INCLUDE_MEMTABLES = 1;
    /** See {@link #INCLUDE_MEMTABLES}. */
    public static final int INCLUDE_FILES = 2;

    /**
     * {@link #approximateSizes(MemorySegment, MemorySegment, MemorySegment[], MemorySegment[])} with
     * {@code rocksdb_approximate_sizes_cf_with_flags}'s include flags ({@link #INCLUDE_MEMTABLES},
     * {@link #INCLUDE_FILES}), or without flags when {@code flags} is negative.
     */
    public static long[] approximateSizes(MemorySegment db, MemorySegment family, MemorySegment[] starts,
                                          MemorySegment[] limits, int flags) {
        int n = starts.length;
        for (int i = 0; i < n; i++) { // before allocating room for them
            long size = Math.max(MultiGet.element(starts[i], "starts", i).byteSize(),
                    MultiGet.element(limits[i], "limits", i).byteSize());
            if (size > BatchFormat.MAX_SLICE) {
                throw Scratch.tooLarge(size);
            }
        }
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment sp = arena.allocate(ADDRESS, Math.max(1, n));
            MemorySegment sl = arena.allocate(JAVA_LONG, Math.max(1, n));
            MemorySegment lp = arena.allocate(ADDRESS, Math.max(1, n));
            MemorySegment ll = arena.allocate(JAVA_LONG, Math.max(1, n));
            MemorySegment sizes = arena.allocate(JAVA_LONG, Math.max(1, n));
            for (int i = 0; i < n; i++) {
                MemorySegment start = MultiGet.element(starts[i], "starts", i);
                MemorySegment limit = MultiGet.element(limits[i], "limits", i);
                sp.setAtIndex(ADDRESS, i, arena.allocate(start.byteSize() + 1).copyFrom(start));
                sl.setAtIndex(JAVA_LONG, i, start.byteSize());
                lp.setAtIndex(ADDRESS, i, arena.allocate(limit.byteSize() + 1).copyFrom(limit));
                ll.setAtIndex(JAVA_LONG, i, limit.byteSize());
            }
            if (flags < 0) {
                RocksDBC.rocksdb_approximate_sizes_cf(db, family, n, sp, sl, lp, ll, sizes, s.errptr);
            } else {
                RocksDBC.rocksdb_approximate_sizes_cf_with_flags(db, family, n, sp, sl, lp, ll, (byte) flags, sizes,
                        s.errptr);
            }
            Native.check(s.errptr);
            return n == 0 ? new long[0] : sizes.toArray(JAVA_LONG);
        }
    }
}
