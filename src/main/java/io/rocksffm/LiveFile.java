package io.rocksffm;

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
}
