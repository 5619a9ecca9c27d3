package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The block-based table format's settings ({@code rocksdb_block_based_table_options_t}): block
 * cache, filter policy, block size. Applied with {@link Options#setTableFormat}, which copies
 * them, so one configuration can serve many options and be closed afterwards.
 *
 * <p>The caller owns and closes it. Setters are thread-safe (an internal lock), so it is safe to share across
 * threads; any call after close throws {@link IllegalStateException}. The C API has no getters
 * for these settings, so neither has this class.
 */
public final class BlockBasedTableConfig extends NativeObject {
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
}
