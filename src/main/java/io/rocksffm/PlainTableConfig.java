package io.rocksffm;

import java.util.Objects;

/**
 * The settings of RocksDB's PlainTable format ({@code PlainTableOptions}), for
 * {@link Options#setTableFormat(PlainTableConfig)}: a table format for data kept in memory
 * (tmpfs, page cache), with keys found through a hash of their prefix rather than a block index.
 *
 * {@snippet id="PlainTableConfig" :
 * // Keys found through a hash of their 4-byte prefix, in files kept in memory (tmpfs, page cache)
 * try (Options options = new Options().setCreateIfMissing(true)
 *              .setAllowMmapReads(true)
 *              .setPrefixExtractor(PrefixExtractor.fixed(4))
 *              .setTableFormat(PlainTableConfig.defaults().withStoreIndexInFile(true));
 *      RocksDB db = RocksDB.open(path, options);
 *      ReadOptions samePrefix = new ReadOptions().setPrefixSameAsStart(true)) {
 *     for (String k : List.of("user1", "user2", "item1")) {
 *         db.put(k.getBytes(UTF_8), "v".getBytes(UTF_8));
 *     }
 *     db.flush(true);   // a PlainTable file
 *     try (RocksIterator it = db.newIterator(samePrefix)) {   // forward only, within a prefix
 *         for (it.seek("user".getBytes(UTF_8)); it.isValid(); it.next()) {
 *             scanned.add(new String(it.keyBytes(), UTF_8));
 *         }
 *     }
 * }
 * }
 *
 * <p>Its constraints, from RocksDB's documentation and its table reader: the database should
 * read through mmap ({@link Options#setAllowMmapReads}); seeks find keys by the prefix the
 * family's {@link Options#setPrefixExtractor prefix extractor} gives (RocksDB's prefix-hash index
 * needs one; scan within a prefix with {@link ReadOptions#setPrefixSameAsStart}); iteration runs
 * forward only: {@code seekToLast} fails with {@link RocksDBException.Code#NOT_SUPPORTED} in the
 * iterator's status, and RocksDB does not support {@code prev} or {@code seekForPrev} either; the
 * files are not compressed and have no block cache. With {@link #fullScanMode()} seeks are refused
 * and only full scans work.
 *
 * <p>A plain value: the C API takes the settings as arguments, so nothing native is held and
 * nothing needs closing. Immutable and thread-safe.
 *
 * @param userKeyLength    the fixed length of every key in bytes, or 0 for keys of varying lengths
 * @param bloomBitsPerKey  bits per prefix of the Bloom filter, 0 for none
 * @param hashTableRatio   prefixes per bucket of the prefix hash (0 to 1; 0 for a binary search
 *                         over the prefixes instead of a hash)
 * @param indexSparseness  how many keys of a prefix share one index record
 * @param hugePageTlbSize  0 to allocate the hash index and filter with malloc, else the huge page size to use
 * @param encoding         how keys are written
 * @param fullScanMode     read files one record after another, without an index (full scans only)
 * @param storeIndexInFile build the index and filter while writing the file and store them in it
 */
public record PlainTableConfig(int userKeyLength, int bloomBitsPerKey, double hashTableRatio, long indexSparseness,
                               long hugePageTlbSize, Encoding encoding, boolean fullScanMode,
                               boolean storeIndexInFile) {
    /** How PlainTable writes keys ({@code EncodingType}). */
    public enum Encoding {
        /** Every key in full ({@code kPlain}). */
        PLAIN(0),
        /** Keys after the first of a prefix without the prefix ({@code kPrefix}); needs a prefix extractor. */
        PREFIX(1);

        final byte id;

        Encoding(int id) {
            this.id = (byte) id;
        }
    }

    /**
     * A configuration, checked.
     *
     * @param userKeyLength    the fixed key length, or 0 for varying
     * @param bloomBitsPerKey  Bloom bits per prefix, 0 for none
     * @param hashTableRatio   the hash utilisation, 0 to 1
     * @param indexSparseness  keys per index record
     * @param hugePageTlbSize  0 for malloc, else the huge page size
     * @param encoding         the key encoding
     * @param fullScanMode     whether files are only scanned
     * @param storeIndexInFile whether the index is stored in the file
     * @throws IllegalArgumentException if a number is negative or the ratio is above 1
     * @throws NullPointerException if {@code encoding} is null
     */
    public PlainTableConfig {
        Objects.requireNonNull(encoding, "encoding");
        if (userKeyLength < 0 || bloomBitsPerKey < 0 || indexSparseness < 0 || hugePageTlbSize < 0) {
            throw new IllegalArgumentException("PlainTable settings must not be negative: " + userKeyLength + ", "
                    + bloomBitsPerKey + ", " + indexSparseness + ", " + hugePageTlbSize);
        }
        if (!(hashTableRatio >= 0 && hashTableRatio <= 1)) {
            throw new IllegalArgumentException("hashTableRatio must be in [0, 1]: " + hashTableRatio);
        }
    }

    /**
     * RocksDB's defaults: keys of varying lengths, 10 Bloom bits per prefix, a hash ratio of 0.75,
     * an index record every 16 keys, malloc, plain encoding, indexed reads, the index built when a
     * file is opened.
     *
     * @return the defaults
     */
    public static PlainTableConfig defaults() {
        return new PlainTableConfig(0, 10, 0.75, 16, 0, Encoding.PLAIN, false, false);
    }

    /**
     * These settings with a fixed key length.
     *
     * @param length the length of every key in bytes, 0 for varying
     * @return the new settings
     * @throws IllegalArgumentException if negative
     */
    public PlainTableConfig withUserKeyLength(int length) {
        return new PlainTableConfig(length, bloomBitsPerKey, hashTableRatio, indexSparseness, hugePageTlbSize, encoding,
                fullScanMode, storeIndexInFile);
    }

    /**
     * These settings with another key encoding.
     *
     * @param value the encoding
     * @return the new settings
     */
    public PlainTableConfig withEncoding(Encoding value) {
        return new PlainTableConfig(userKeyLength, bloomBitsPerKey, hashTableRatio, indexSparseness, hugePageTlbSize,
                value, fullScanMode, storeIndexInFile);
    }

    /**
     * These settings with the index and filter stored in the files or not.
     *
     * @param value true to store them
     * @return the new settings
     */
    public PlainTableConfig withStoreIndexInFile(boolean value) {
        return new PlainTableConfig(userKeyLength, bloomBitsPerKey, hashTableRatio, indexSparseness, hugePageTlbSize,
                encoding, fullScanMode, value);
    }
}
