package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A column family's table files by level, as
 * {@link ColumnFamilyAdmin#getColumnFamilyMetaData(ColumnFamilyHandle)} copies them out of
 * RocksDB's {@code GetColumnFamilyMetaData} ({@code rocksdb_column_family_metadata_t} and its
 * level and file metadata). A snapshot in Java memory: it holds nothing native and does not change
 * when the database does. Immutable and thread-safe.
 *
 * {@snippet id="ColumnFamilyMetaData" :
 * ColumnFamilyMetaData meta = db.getColumnFamilyMetaData();   // the default family's, a snapshot
 * for (ColumnFamilyMetaData.Level level : meta.levels()) {    // level 0 first, empty ones too
 *     for (ColumnFamilyMetaData.SstFile file : level.files()) {
 *         listed.add(level.level() + " " + file.relativeName() + " " + file.size());   // level, name, bytes
 *     }
 * }
 * }
 *
 * @param name      the family's name
 * @param size      the total size of its table files in bytes
 * @param fileCount the number of its table files
 * @param levels    its levels, level 0 first (every level of the LSM tree, empty ones too)
 */
public record ColumnFamilyMetaData(String name, long size, long fileCount, List<Level> levels) {
    /**
     * A family's metadata.
     *
     * @param name      the family's name
     * @param size      the total size in bytes
     * @param fileCount the number of files
     * @param levels    the levels (copied)
     */
    public ColumnFamilyMetaData {
        Objects.requireNonNull(name, "name");
        levels = List.copyOf(levels);
    }

    /**
     * One level of a family.
     *
     * @param level the level's number (0 is the newest)
     * @param size  the total size of its files in bytes
     * @param files its files
     */
    public record Level(int level, long size, List<SstFile> files) {
        /**
         * A level's metadata.
         *
         * @param level the level's number
         * @param size  the total size in bytes
         * @param files the files (copied)
         */
        public Level {
            files = List.copyOf(files);
        }
    }

    /**
     * One table file of a level.
     *
     * @param relativeName the file's name relative to its directory (e.g. {@code /000012.sst}, or
     *                     {@code 000012.sst} on some engines)
     * @param directory    the directory that holds it (empty on engines before RocksDB 8.x, whose C
     *                     API lacks {@code rocksdb_sst_file_metadata_get_directory})
     * @param size         its size in bytes
     * @param smallestKey  the smallest user key in it (a copy)
     * @param largestKey   the largest user key in it (a copy)
     */
    public record SstFile(String relativeName, String directory, long size, byte[] smallestKey, byte[] largestKey) {
        /**
         * A file's metadata.
         *
         * @param relativeName the name
         * @param directory    the directory
         * @param size         the size in bytes
         * @param smallestKey  the smallest key (copied)
         * @param largestKey   the largest key (copied)
         */
        public SstFile {
            Objects.requireNonNull(relativeName, "relativeName");
            Objects.requireNonNull(directory, "directory");
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
    }

    /**
     * Copies the metadata RocksDB returned ({@code rocksdb_get_column_family_metadata_cf}),
     * freeing it and its levels, files and strings.
     */
    static ColumnFamilyMetaData copy(MemorySegment meta) {
        if (meta.address() == 0) {
            throw new IllegalStateException("RocksDB returned NULL reading the column family metadata");
        }
        try (Scratch s = Scratch.acquire()) {
            String name = owned(rocksdb_column_family_metadata_get_name(meta));
            long levelCount = rocksdb_column_family_metadata_get_level_count(meta);
            List<Level> levels = new ArrayList<>((int) levelCount);
            for (long i = 0; i < levelCount; i++) {
                MemorySegment level = rocksdb_column_family_metadata_get_level_metadata(meta, i);
                if (level.address() == 0) {
                    continue; // out of range: cannot happen below the count
                }
                try {
                    levels.add(level(level, s));
                } finally {
                    rocksdb_level_metadata_destroy(level);
                }
            }
            return new ColumnFamilyMetaData(name, rocksdb_column_family_metadata_get_size(meta),
                    rocksdb_column_family_metadata_get_file_count(meta), levels);
        } finally {
            rocksdb_column_family_metadata_destroy(meta);
        }
    }

    private static Level level(MemorySegment level, Scratch s) {
        long n = rocksdb_level_metadata_get_file_count(level);
        List<SstFile> files = new ArrayList<>((int) n);
        boolean directories = Capabilities.callable("rocksdb_sst_file_metadata_get_directory");
        for (long i = 0; i < n; i++) {
            MemorySegment file = rocksdb_level_metadata_get_sst_file_metadata(level, i);
            if (file.address() == 0) {
                continue;
            }
            try {
                String relative = owned(rocksdb_sst_file_metadata_get_relative_filename(file));
                String directory = directories ? owned(rocksdb_sst_file_metadata_get_directory(file)) : "";
                byte[] smallest = ownedKey(rocksdb_sst_file_metadata_get_smallestkey(file, s.size), s.size);
                byte[] largest = ownedKey(rocksdb_sst_file_metadata_get_largestkey(file, s.size), s.size);
                files.add(new SstFile(relative, directory, rocksdb_sst_file_metadata_get_size(file), smallest, largest));
            } finally {
                rocksdb_sst_file_metadata_destroy(file);
            }
        }
        return new Level(rocksdb_level_metadata_get_level(level), rocksdb_level_metadata_get_size(level), files);
    }

    /** A string RocksDB allocated with malloc, copied and freed ("" for NULL). */
    private static String owned(MemorySegment p) {
        String text = CStrings.take(p);
        return text == null ? "" : text;
    }

    /** A key RocksDB allocated with malloc ({@code size} holds its length), copied and freed. */
    private static byte[] ownedKey(MemorySegment p, MemorySegment size) {
        long n = size.get(ValueLayout.JAVA_LONG, 0);
        if (p.address() == 0) {
            return new byte[0];
        }
        try {
            return n == 0 ? new byte[0] : p.reinterpret(n).toArray(ValueLayout.JAVA_BYTE);
        } finally {
            Native.rocksdbFree(p);
        }
    }
}
