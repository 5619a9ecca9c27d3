package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.KeyRanges;
import io.rocksffm.internal.OlderShapes;
import io.rocksffm.internal.Scratch;


import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import io.rocksffm.internal.Native;
import java.lang.foreign.Arena;

/**
 * Compactions with options and the live file list, a part of the database object
 * reached through {@link DatabaseAdmin}'s default methods.
 */
final class FileAdmin {
    private FileAdmin() {}

    static void compactRange(Database db, ColumnFamilyHandle family, CompactRangeOptions options, MemorySegment begin,
                             MemorySegment end) {
        Objects.requireNonNull(options, "options");
        Callbacks.refuseWaiting("compactRange");
        Maintenance.refuseWhilePaused(db, "compactRange", "continue it first");
        db.guard.callFamily(family, s -> {
            options.use(o -> {
                MemorySegment b = begin == null ? MemorySegment.NULL : s.first(begin);
                MemorySegment e = end == null ? MemorySegment.NULL : s.second(end);
                rocksdb_compact_range_cf_opt(db.adminDb(), family.ptr, o, b, begin == null ? 0 : begin.byteSize(), e,
                        end == null ? 0 : end.byteSize());
            });
            return null;
        });
    }

    static void dropColumnFamilies(Database db, List<ColumnFamilyHandle> families) {
        List<ColumnFamilyHandle> all = List.copyOf(Objects.requireNonNull(families, "families"));
        db.lifecycle.ensureOpen();
        for (ColumnFamilyHandle f : all) {
            db.guard.checkFamily(f);
            if (f.isDefault()) {
                throw new IllegalArgumentException("the default column family cannot be dropped");
            }
        }
        if (new java.util.HashSet<>(all).size() != all.size()) { // fully qualified: one use
            throw new IllegalArgumentException("a family is listed twice: " + all);
        }
        for (ColumnFamilyHandle f : all) {
            db.dropColumnFamily(f);
        }
    }

    static void flush(Database db, List<ColumnFamilyHandle> families, FlushOptions options) {
        Objects.requireNonNull(options, "options");
        List<ColumnFamilyHandle> all = List.copyOf(Objects.requireNonNull(families, "families"));
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no families to flush");
        }
        Callbacks.refuseWaiting("flush");
        Maintenance.refuseWhilePaused(db, "flush", "continue it first");
        try (Scratch s = db.guard.begin(options, all.get(0)); Arena arena = Arena.ofConfined()) {
            MemorySegment handles = arena.allocate(ValueLayout.ADDRESS, all.size());
            for (int i = 0; i < all.size(); i++) {
                if (i > 0) {
                    db.guard.enterOtherFamily(s, all.get(i));
                }
                handles.setAtIndex(ValueLayout.ADDRESS, i, all.get(i).ptr);
            }
            Capabilities.require("DatabaseAdmin.flush(List, FlushOptions)", "rocksdb_flush_cfs");
            rocksdb_flush_cfs(db.adminDb(), options.ptr, handles, all.size(), s.errptr);
            db.checkWrite(s.errptr);
        }
    }

    static List<LiveFile> liveFiles(Database db) {
        try (Scratch s = db.guard.begin()) {
            return copy(rocksdb_livefiles(db.adminDb()));
        }
    }

    /** The files of a {@code rocksdb_livefiles_t} RocksDB returned, copied; it is destroyed here. */
    static List<LiveFile> copy(MemorySegment files) {
        if (files.address() == 0) {
            throw new IllegalStateException("RocksDB returned NULL listing the live files");
        }
        try (Scratch s = Scratch.acquire()) {
            int n = rocksdb_livefiles_count(files);
            List<LiveFile> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] smallest = key(rocksdb_livefiles_smallestkey(files, i, s.size), s.size);
                byte[] largest = key(rocksdb_livefiles_largestkey(files, i, s.size), s.size);
                out.add(new LiveFile(string(rocksdb_livefiles_name(files, i)),
                        string(rocksdb_livefiles_column_family_name(files, i)), rocksdb_livefiles_level(files, i),
                        rocksdb_livefiles_size(files, i), smallest, largest, rocksdb_livefiles_entries(files, i),
                        rocksdb_livefiles_deletions(files, i)));
            }
            return List.copyOf(out);
        } finally {
            rocksdb_livefiles_destroy(files);
        }
    }

    private static String string(MemorySegment s) {
        return s.reinterpret(Long.MAX_VALUE).getString(0);
    }

    private static byte[] key(MemorySegment k, MemorySegment size) {
        long n = size.get(ValueLayout.JAVA_LONG, 0);
        return n == 0 ? new byte[0] : k.reinterpret(n).toArray(ValueLayout.JAVA_BYTE);
    }

    static boolean keyMayExist(Database db, ColumnFamilyHandle family, ReadOptions options, byte[] key) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(key, "key");
        try (Scratch s = db.guard.beginRead(options, family); Arena arena = Arena.ofConfined()) {
            MemorySegment k = arena.allocateFrom(ValueLayout.JAVA_BYTE, key);
            // no value wanted: RocksDB allocates nothing (value_found NULL)
            return rocksdb_key_may_exist_cf(db.adminDb(), options.ptr, family.ptr, k, key.length, MemorySegment.NULL,
                    MemorySegment.NULL, MemorySegment.NULL, 0, MemorySegment.NULL) != 0;
        }
    }

    static void deleteFilesInRange(Database db, ColumnFamilyHandle family, MemorySegment begin, MemorySegment end) {
        db.guard.callFamily(family, s -> {
            MemorySegment b = begin == null ? MemorySegment.NULL : s.first(begin);
            MemorySegment e = end == null ? MemorySegment.NULL : s.second(end);
            rocksdb_delete_file_in_range_cf(db.adminDb(), family.ptr, b, begin == null ? 0 : begin.byteSize(), e,
                    end == null ? 0 : end.byteSize(), s.errptr);
            Native.check(s.errptr);
            return null;
        });
    }

    static long[] approximateSizes(Database db, ColumnFamilyHandle family, MemorySegment[] starts,
                                   MemorySegment[] limits, boolean includeMemtables, boolean includeFiles) {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(starts, "starts");
        Objects.requireNonNull(limits, "limits");
        if (starts.length != limits.length) {
            throw new IllegalArgumentException("starts and limits must have the same length");
        }
        if (!includeMemtables && !includeFiles) {
            throw new IllegalArgumentException("count the memtables, the table files, or both");
        }
        try (Scratch s = db.guard.begin(family)) {
            Capabilities.require("rocksdb_approximate_sizes_cf_with_flags");
            return KeyRanges.approximateSizes(db.adminDb(), family.ptr, starts, limits,
                    (includeMemtables ? KeyRanges.INCLUDE_MEMTABLES : 0) | (includeFiles ? KeyRanges.INCLUDE_FILES : 0));
        }
    }

    /** {@code rocksdb_enable_file_deletions} (through its pre-9.0 shape where the engine has that) or disable. */
    static void fileDeletions(Database db, boolean enable) {
        db.guard.call(s -> {
            if (!enable) {
                rocksdb_disable_file_deletions(db.adminDb(), s.errptr);
            } else if (Capabilities.callable("rocksdb_enable_file_deletions")) {
                rocksdb_enable_file_deletions(db.adminDb(), s.errptr);
            } else {
                OlderShapes.enableFileDeletions(db.adminDb(), s.errptr);
            }
            Native.check(s.errptr);
            return null;
        });
    }
}
