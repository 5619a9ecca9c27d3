package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import io.rocksffm.internal.Capabilities;

/**
 * A block cache ({@code rocksdb_cache_t}): memory for uncompressed table blocks, shareable by
 * every column family and database whose {@link BlockBasedTableConfig} names it, so one memory
 * budget can cover them all.
 *
 * {@snippet id="Cache" :
 * // One 256 MiB block cache for two databases, with Bloom filters
 * try (Cache cache = Cache.newLRUCache(256L << 20);
 *      BlockBasedTableConfig table = new BlockBasedTableConfig()
 *              .setBlockCache(cache).setFilterPolicy(FilterPolicy.bloom(10));
 *      Options options = new Options().setCreateIfMissing(true).setTableFormat(table);
 *      RocksDB orders = RocksDB.open(dir.resolve("orders"), options);
 *      RocksDB users = RocksDB.open(dir.resolve("users"), options)) {
 *     long used = cache.usage();   // bytes the cached blocks of both take
 * }
 * }
 *
 * <p>The caller owns it and closes it. RocksDB keeps its own reference from each table
 * configuration (and so each database) the cache was given to, so closing this object only
 * drops the Java side's reference: the databases keep using the cache. Safe to share across
 * threads; any call after close throws {@link IllegalStateException}.
 */
public final class Cache extends NativeObject {
    private Cache(MemorySegment cache) {
        super("Cache", cache);
    }

    /**
     * A least-recently-used cache of {@code capacityBytes} bytes ({@code rocksdb_cache_create_lru}).
     *
     * @param capacityBytes the capacity in bytes
     * @return a new cache, owned by the caller
     * @throws IllegalArgumentException if {@code capacityBytes < 0}
     */
    public static Cache newLRUCache(long capacityBytes) {
        checkCapacity(capacityBytes);
        return new Cache(rocksdb_cache_create_lru(capacityBytes));
    }

    /**
     * A HyperClockCache of {@code capacityBytes} bytes ({@code rocksdb_cache_create_hyper_clock}):
     * lock-free lookups, for block caches under many concurrent readers (RocksDB 8 or later).
     *
     * @param capacityBytes        the capacity in bytes
     * @param estimatedEntryCharge the expected size of an entry (about the block size), or 0 for
     *                             RocksDB to size its table automatically
     * @return a new cache, owned by the caller
     * @throws IllegalArgumentException if either argument is negative
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_cache_create_hyper_clock} (7.8.3)
     */
    public static Cache newHyperClockCache(long capacityBytes, long estimatedEntryCharge) {
        checkCapacity(capacityBytes);
        if (estimatedEntryCharge < 0) {
            throw new IllegalArgumentException("estimated entry charge must be >= 0: " + estimatedEntryCharge);
        }
        Capabilities.require("rocksdb_cache_create_hyper_clock");
        return new Cache(rocksdb_cache_create_hyper_clock(capacityBytes, estimatedEntryCharge));
    }

    private static void checkCapacity(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("cache capacity must be >= 0: " + bytes);
        }
    }

    @Override
    void destroy(MemorySegment cache) {
        rocksdb_cache_destroy(cache);
    }

    /**
     * The capacity in bytes.
     *
     * @return the capacity
     * @throws IllegalStateException if closed
     */
    public long capacity() {
        return read(c -> rocksdb_cache_get_capacity(c));
    }

    /**
     * Changes the capacity; entries beyond it are released as they are unpinned.
     *
     * @param capacityBytes the new capacity in bytes
     * @return this cache
     * @throws IllegalArgumentException if {@code capacityBytes < 0}
     * @throws IllegalStateException if closed
     */
    public Cache setCapacity(long capacityBytes) {
        checkCapacity(capacityBytes);
        use(c -> rocksdb_cache_set_capacity(c, capacityBytes));
        return this;
    }

    /**
     * The bytes the cache's entries take now.
     *
     * @return the usage in bytes
     * @throws IllegalStateException if closed
     */
    public long usage() {
        return read(c -> rocksdb_cache_get_usage(c));
    }

    /**
     * The bytes of entries in use by readers (pinned), which the cache cannot release.
     *
     * @return the pinned usage in bytes
     * @throws IllegalStateException if closed
     */
    public long pinnedUsage() {
        return read(c -> rocksdb_cache_get_pinned_usage(c));
    }
}
