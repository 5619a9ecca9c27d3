package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import io.rocksffm.internal.Capabilities;

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
 * threads; any call after close throws {@link IllegalStateException}. The C API has no getters
 * for these settings, so neither has this class: RocksDB's OPTIONS file of a database opened with
 * them records them ({@link LatestOptions} reads it).
 */
public final class BlockBasedTableConfig extends BlockBasedTableConfigSettings {
    /** Guards this object's state (an internal object: never the caller's, who may lock this one). */
    private final Object lock = new Object();
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
     * Turns the block cache off (every read decompresses from the file or the OS cache).
     *
     * @param value true for no block cache
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setNoBlockCache(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_no_block_cache(p, flag(value)));
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

    /**
     * The approximate size of a data block before compression (RocksDB's default: 4 KiB).
     *
     * @param bytes the block size, {@code > 0}
     * @return this configuration
     * @throws IllegalArgumentException if {@code bytes <= 0}
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setBlockSize(long bytes) {
        synchronized (lock) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("block size must be > 0: " + bytes);
            }
            use(p -> rocksdb_block_based_options_set_block_size(p, bytes));
            return this;
        }
    }

    /**
     * Whether index and filter blocks go through the block cache (counted in its budget) instead
     * of staying in memory outside it.
     *
     * @param value true to cache them
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setCacheIndexAndFilterBlocks(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_cache_index_and_filter_blocks(p, flag(value)));
            return this;
        }
    }

    /**
     * Whether filters cover whole keys (the default) rather than only prefixes.
     *
     * @param value true to filter whole keys
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setWholeKeyFiltering(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_whole_key_filtering(p, flag(value)));
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
    }

    /**
     * The kind of index of a table file's data blocks.
     *
     * @param type the index type
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setIndexType(IndexType type) {
        synchronized (lock) {
            Objects.requireNonNull(type, "type");
            use(p -> rocksdb_block_based_options_set_index_type(p, type.id));
            return this;
        }
    }

    /**
     * The kind of index inside each data block.
     *
     * @param type the data block index type
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setDataBlockIndexType(DataBlockIndexType type) {
        synchronized (lock) {
            Objects.requireNonNull(type, "type");
            use(p -> rocksdb_block_based_options_set_data_block_index_type(p, type.id));
            return this;
        }
    }

    /**
     * The hash index's utilisation ratio for {@link DataBlockIndexType#BINARY_SEARCH_AND_HASH}
     * (RocksDB's default: 0.75).
     *
     * @param ratio above 0 and at most 1
     * @return this configuration
     * @throws IllegalArgumentException if {@code ratio} is not in {@code (0, 1]}
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setDataBlockHashRatio(double ratio) {
        synchronized (lock) {
            if (!(ratio > 0 && ratio <= 1)) {
                throw new IllegalArgumentException("data block hash ratio must be in (0, 1]: " + ratio);
            }
            use(p -> rocksdb_block_based_options_set_data_block_hash_ratio(p, ratio));
            return this;
        }
    }

    /**
     * The block checksum.
     *
     * @param type the checksum type
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setChecksum(ChecksumType type) {
        synchronized (lock) {
            Objects.requireNonNull(type, "type");
            use(p -> rocksdb_block_based_options_set_checksum(p, (byte) type.id));
            return this;
        }
    }

    /**
     * The table file format version (RocksDB's default depends on the engine: 5 on 7.x and 8.x, 6
     * on 9.x and later).
     *
     * @param version the format version, 2 or later
     * @return this configuration
     * @throws IllegalArgumentException if {@code version < 2}
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setFormatVersion(int version) {
        synchronized (lock) {
            if (version < 2) {
                throw new IllegalArgumentException("format version must be >= 2: " + version);
            }
            use(p -> rocksdb_block_based_options_set_format_version(p, version));
            return this;
        }
    }

    /**
     * The number of keys between restart points of delta encoding in data blocks (RocksDB's default: 16).
     *
     * @param keys the interval, at least 1
     * @return this configuration
     * @throws IllegalArgumentException if {@code keys < 1}
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setBlockRestartInterval(int keys) {
        synchronized (lock) {
            positive("block restart interval", keys);
            use(p -> rocksdb_block_based_options_set_block_restart_interval(p, keys));
            return this;
        }
    }

    /**
     * The number of keys between restart points in index blocks (RocksDB's default: 1).
     *
     * @param keys the interval, at least 1
     * @return this configuration
     * @throws IllegalArgumentException if {@code keys < 1}
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setIndexBlockRestartInterval(int keys) {
        synchronized (lock) {
            positive("index block restart interval", keys);
            use(p -> rocksdb_block_based_options_set_index_block_restart_interval(p, keys));
            return this;
        }
    }

    /**
     * The block size of partitioned index and filter blocks (RocksDB's default: 4096).
     *
     * @param bytes the size, above 0
     * @return this configuration
     * @throws IllegalArgumentException if {@code bytes < 1}
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setMetadataBlockSize(long bytes) {
        synchronized (lock) {
            if (bytes < 1) {
                throw new IllegalArgumentException("metadata block size must be > 0: " + bytes);
            }
            use(p -> rocksdb_block_based_options_set_metadata_block_size(p, bytes));
            return this;
        }
    }

    /**
     * How far below the block size (in percent) a block may be closed early when the next entry
     * would overflow it (RocksDB's default: 10).
     *
     * @param percent from 0 to 100
     * @return this configuration
     * @throws IllegalArgumentException if {@code percent} is not in {@code [0, 100]}
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setBlockSizeDeviation(int percent) {
        synchronized (lock) {
            if (percent < 0 || percent > 100) {
                throw new IllegalArgumentException("block size deviation must be in [0, 100]: " + percent);
            }
            use(p -> rocksdb_block_based_options_set_block_size_deviation(p, percent));
            return this;
        }
    }

    /**
     * Partitions the filter like the index (with {@link IndexType#TWO_LEVEL_INDEX_SEARCH}).
     *
     * @param value whether filters are partitioned
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setPartitionFilters(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_partition_filters(p, flag(value)));
            return this;
        }
    }

    /**
     * Keeps level-0 files' index and filter blocks pinned in the block cache (with
     * {@link #setCacheIndexAndFilterBlocks}).
     *
     * @param value whether they are pinned
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setPinL0FilterAndIndexBlocksInCache(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_pin_l0_filter_and_index_blocks_in_cache(p, flag(value)));
            return this;
        }
    }

    /**
     * Keeps the top level of partitioned indexes and filters pinned in the block cache.
     *
     * @param value whether it is pinned
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setPinTopLevelIndexAndFilter(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_pin_top_level_index_and_filter(p, flag(value)));
            return this;
        }
    }

    /**
     * Caches index and filter blocks with high priority (kept longer than data blocks).
     *
     * @param value whether they have high priority
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setCacheIndexAndFilterBlocksWithHighPriority(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_cache_index_and_filter_blocks_with_high_priority(p, flag(value)));
            return this;
        }
    }

    /**
     * Delta-encodes the keys in data blocks (true by default).
     *
     * @param value whether keys are delta-encoded
     * @return this configuration
     * @throws IllegalStateException if closed
     */
    public BlockBasedTableConfig setUseDeltaEncoding(boolean value) {
        synchronized (lock) {
            use(p -> rocksdb_block_based_options_set_use_delta_encoding(p, flag(value)));
            return this;
        }
    }

    /**
     * Sizes filters to the allocator's memory blocks, saving memory (RocksDB 8.0 or later).
     *
     * @param value whether filters are sized for memory
     * @return this configuration
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_block_based_options_set_optimize_filters_for_memory} (7.8.3)
     */
    public BlockBasedTableConfig setOptimizeFiltersForMemory(boolean value) {
        synchronized (lock) {
            lifecycle.ensureOpen();
            Capabilities.require("rocksdb_block_based_options_set_optimize_filters_for_memory");
            use(p -> rocksdb_block_based_options_set_optimize_filters_for_memory(p, flag(value)));
            return this;
        }
    }

    private static void positive(String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be >= 1: " + value);
        }
    }
}
