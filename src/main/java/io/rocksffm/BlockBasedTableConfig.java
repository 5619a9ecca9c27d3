package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Ids;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The block-based table format's settings ({@code rocksdb_block_based_table_options_t}): block
 * cache, filter policy, block size. Applied with {@link Options#setTableFormat}, which copies
 * them, so one configuration can serve many options and be closed afterwards.
 *
 * {@snippet id="BlockBasedTableConfig" :
 * try (BlockBasedTableConfig table = new BlockBasedTableConfig()
 *              .setBlockSize(16 << 10)                      // 16 KiB blocks
 *              .setFilterPolicy(FilterPolicy.bloom(10))     // about 1% false positives
 *              .setCacheIndexAndFilterBlocks(true);         // count them against the block cache
 *      Options options = new Options().setCreateIfMissing(true).setTableFormat(table);
 *      RocksDB db = RocksDB.open(path, options)) {
 * }
 * }
 *
 * <p>The caller owns and closes it. Setters are thread-safe (an internal lock), so it is safe to share across
 * threads; any call after close throws {@link IllegalStateException}. The getters need RocksDB 11's
 * C API (older engines throw {@link UnsupportedOperationException}); there, RocksDB's OPTIONS file of
 * a database opened with them records them ({@link LatestOptions} reads it).
 */
public final class BlockBasedTableConfig extends BlockBasedTableConfigSettings {
    /** RocksDB's defaults (its own LRU block cache, no filter). */
    public BlockBasedTableConfig() {
        super("BlockBasedTableConfig", rocksdb_block_based_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_block_based_options_destroy(p);
    }

    /**
     * Uses {@code cache} for table blocks. RocksDB keeps its own reference: {@code cache} may be
     * closed afterwards, and the same cache may be given to many configurations (one memory
     * budget for several column families or databases).
     *
     * @param cache the cache
     * @return this configuration
     * @throws IllegalStateException if this or {@code cache} is closed
     */
    public BlockBasedTableConfig setBlockCache(Cache cache) {
        synchronized (lock) {
            Objects.requireNonNull(cache, "cache");
            use(p -> cache.use(c -> rocksdb_block_based_options_set_block_cache(p, c)));
            return this;
        }
    }

    /**
     * Builds table files with the filter {@code policy}; replaces a policy set before.
     *
     * @param policy the filter policy
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setFilterPolicy(FilterPolicy policy) {
        synchronized (lock) {
            Objects.requireNonNull(policy, "policy");
            // the table options take ownership of the native policy (and free one set before)
            use(p -> rocksdb_block_based_options_set_filter_policy(p, policy.newNative()));
            return this;
        }
    }

    /** The index of a table file's data blocks ({@link #setIndexType}); ids as RocksDB's {@code IndexType}. */
    public enum IndexType {
        /** A binary-searched index of the blocks' last keys (the default). */
        BINARY_SEARCH(0),
        /** A hash index over prefixes (needs a prefix extractor). */
        HASH_SEARCH(1),
        /** A partitioned, two-level index: only its top level need stay in memory. */
        TWO_LEVEL_INDEX_SEARCH(2);

        final int id;

        IndexType(int id) {
            this.id = id;
        }

        static IndexType of(int id) {
            return Ids.of(values(), v -> v.id, id, "IndexType");
        }
    }

    /** The index inside a data block ({@link #setDataBlockIndexType}); ids as RocksDB's {@code DataBlockIndexType}. */
    public enum DataBlockIndexType {
        /** Binary search over the restart points (the default). */
        BINARY_SEARCH(0),
        /** Binary search plus a hash map of the block's keys, for faster point reads. */
        BINARY_SEARCH_AND_HASH(1);

        final int id;

        DataBlockIndexType(int id) {
            this.id = id;
        }

        static DataBlockIndexType of(int id) {
            return Ids.of(values(), v -> v.id, id, "DataBlockIndexType");
        }
    }

    /**
     * How much the index shortens the separators between blocks ({@link #setIndexShortening}); ids as
     * RocksDB's {@code IndexShorteningMode}: shorter keys make a smaller index, longer ones spare some
     * seeks a block read.
     */
    public enum IndexShortening {
        /** Full keys as separators. */
        NO_SHORTENING(0),
        /** The shortest separator between two blocks (the default). */
        SHORTEN_SEPARATORS(1),
        /** Shortest separators, and the last block's key shortened to a successor. */
        SHORTEN_SEPARATORS_AND_SUCCESSOR(2);

        final int id;

        IndexShortening(int id) {
            this.id = id;
        }

        static IndexShortening of(int id) {
            return Ids.of(values(), v -> v.id, id, "IndexShortening");
        }
    }

    /** The checksum of each block ({@link #setChecksum}); ids as RocksDB's {@code ChecksumType}. */
    public enum ChecksumType {
        /** No checksum. */
        NONE(0),
        /** CRC32c. */
        CRC32C(1),
        /** xxHash (32 bits). */
        XXHASH(2),
        /** xxHash64. */
        XXHASH64(3),
        /** XXH3 (RocksDB's default since 7.x with format version 5 or later is CRC32c or XXH3 by version). */
        XXH3(4);

        final int id;

        ChecksumType(int id) {
            this.id = id;
        }

        static ChecksumType of(int id) {
            return Ids.of(values(), v -> v.id, id, "ChecksumType");
        }
    }

    private static void positive(String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be >= 1: " + value);
        }
    }
}
