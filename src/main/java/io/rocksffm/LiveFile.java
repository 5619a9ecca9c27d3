package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A table file of a live database, as {@link DatabaseAdmin#liveFiles()} reads it from RocksDB's
 * {@code GetLiveFilesMetaData}.
 *
 * @param name         the file's name, relative to the database directory (e.g. {@code /000012.sst})
 * @param columnFamily the name of the family the file belongs to
 * @param level        the LSM level the file is in
 * @param size         the file's size in bytes
 * @param smallestKey  the smallest user key in the file (a copy)
 * @param largestKey   the largest user key in the file (a copy)
 * @param entries      the number of entries
 * @param deletions    the number of deletion entries
 */
public record LiveFile(String name, String columnFamily, int level, long size, byte[] smallestKey, byte[] largestKey,
                       long entries, long deletions) {
    /**
     * A file's record.
     *
     * @param name         the file's name
     * @param columnFamily the family's name
     * @param level        the level
     * @param size         the size in bytes
     * @param smallestKey  the smallest key
     * @param largestKey   the largest key
     * @param entries      the number of entries
     * @param deletions    the number of deletions
     */
    public LiveFile {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(columnFamily, "columnFamily");
        smallestKey = smallestKey.clone();
        largestKey = largestKey.clone();
    }

    /** {@return a copy of the smallest key} */
    @Override
    public byte[] smallestKey() {
        return smallestKey.clone();
    }

    /** {@return a copy of the largest key} */
    @Override
    public byte[] largestKey() {
        return largestKey.clone();
    }

    /** The files of a {@code rocksdb_livefiles_t} RocksDB returned, copied; it is destroyed here. */
    static List<LiveFile> copyAll(MemorySegment files) {
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
}
