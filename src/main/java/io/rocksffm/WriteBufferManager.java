package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A write buffer manager ({@code rocksdb_write_buffer_manager_t}): one memory budget for the
 * memtables of every column family and database whose {@link Options} name it
 * ({@link Options#setWriteBufferManager}); when their memtables together pass it, RocksDB
 * flushes (and, with {@code allowStall}, stalls writers until memory is freed). Its memory may
 * also be charged to a block {@link Cache}, so one budget covers memtables and table blocks.
 *
 * {@snippet id="WriteBufferManager" :
 * // 64 MiB of memtables for two databases together, charged to their block cache
 * try (Cache cache = Cache.newLRUCache(256L << 20);
 *      WriteBufferManager memtables = WriteBufferManager.create(64L << 20, cache, false);
 *      Options options = new Options().setCreateIfMissing(true).setWriteBufferManager(memtables);
 *      RocksDB a = RocksDB.open(dir.resolve("a"), options);
 *      RocksDB b = RocksDB.open(dir.resolve("b"), options)) {
 *     long used = memtables.memoryUsage();
 * }
 * }
 *
 * <p>The C functions {@code rocksdb_write_buffer_manager_*} are in recent engines (10.x) but not
 * in older ones such as 7.8.3: there {@link #create} throws {@link UnsupportedOperationException}
 * naming the function.
 *
 * <p>The caller owns it and closes it. RocksDB keeps its own reference from each options object
 * (and so each database) it was given to, so closing this object only drops the Java side's
 * reference: the databases keep using it. Safe to share across threads; using a closed manager
 * throws {@link IllegalStateException}.
 */
public final class WriteBufferManager extends NativeObject {
    private WriteBufferManager(MemorySegment wbm) {
        super("WriteBufferManager", wbm);
    }

    /**
     * A manager of {@code bufferSizeBytes} for memtables ({@code rocksdb_write_buffer_manager_create}).
     *
     * @param bufferSizeBytes the memtable budget in bytes; 0 disables the manager (nothing is counted)
     * @param allowStall      whether writers stall while memtables use more than the budget
     * @return a new manager, owned by the caller
     * @throws IllegalArgumentException if {@code bufferSizeBytes < 0}
     * @throws UnsupportedOperationException if the engine lacks the function
     */
    public static WriteBufferManager create(long bufferSizeBytes, boolean allowStall) {
        checkSize(bufferSizeBytes);
        Capabilities.require("rocksdb_write_buffer_manager_create");
        return new WriteBufferManager(rocksdb_write_buffer_manager_create(bufferSizeBytes, allowStall));
    }

    /**
     * A manager of {@code bufferSizeBytes} that charges the memtables' memory to {@code cache}
     * (as dummy entries), so the cache's capacity bounds memtables and blocks together
     * ({@code rocksdb_write_buffer_manager_create_with_cache}). The manager keeps its own
     * reference to the cache.
     *
     * @param bufferSizeBytes the memtable budget in bytes; 0 disables the limit
     * @param cache           the block cache to charge
     * @param allowStall      whether writers stall while memtables use more than the budget
     * @return a new manager, owned by the caller
     * @throws IllegalArgumentException if {@code bufferSizeBytes < 0}
     * @throws IllegalStateException if {@code cache} is closed
     * @throws UnsupportedOperationException if the engine lacks the function
     */
    public static WriteBufferManager create(long bufferSizeBytes, Cache cache, boolean allowStall) {
        checkSize(bufferSizeBytes);
        Objects.requireNonNull(cache, "cache");
        Capabilities.require("rocksdb_write_buffer_manager_create_with_cache");
        return cache.apply(c -> new WriteBufferManager(
                rocksdb_write_buffer_manager_create_with_cache(bufferSizeBytes, c, allowStall)));
    }

    private static void checkSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("buffer size must be >= 0: " + bytes);
        }
    }

    @Override
    void destroy(MemorySegment wbm) {
        rocksdb_write_buffer_manager_destroy(wbm);
    }

    /**
     * Whether a budget is in force (the buffer size is above 0).
     *
     * @return whether the manager limits memtable memory
     * @throws IllegalStateException if closed
     */
    public boolean enabled() {
        return apply(w -> rocksdb_write_buffer_manager_enabled(w));
    }

    /**
     * Whether memtable memory is charged to a block cache.
     *
     * @return whether a cache was given at creation
     * @throws IllegalStateException if closed
     */
    public boolean costToCache() {
        return apply(w -> rocksdb_write_buffer_manager_cost_to_cache(w));
    }

    /**
     * The bytes the memtables of every database using this manager take now.
     *
     * @return the memory usage in bytes
     * @throws IllegalStateException if closed
     */
    public long memoryUsage() {
        return read(w -> rocksdb_write_buffer_manager_memory_usage(w));
    }

    /**
     * The bytes of the memtables still taking writes (not yet being flushed).
     *
     * @return the mutable memtables' usage in bytes
     * @throws IllegalStateException if closed
     */
    public long mutableMemtableMemoryUsage() {
        return read(w -> rocksdb_write_buffer_manager_mutable_memtable_memory_usage(w));
    }

    /**
     * The bytes charged to the block cache as dummy entries (0 without a cache).
     *
     * @return the cache charge in bytes
     * @throws IllegalStateException if closed
     */
    public long dummyEntriesInCacheUsage() {
        return read(w -> rocksdb_write_buffer_manager_dummy_entries_in_cache_usage(w));
    }

    /**
     * The budget in bytes.
     *
     * @return the buffer size
     * @throws IllegalStateException if closed
     */
    public long bufferSize() {
        return read(w -> rocksdb_write_buffer_manager_buffer_size(w));
    }

    /**
     * Changes the budget; every database using the manager sees the new one.
     *
     * @param bufferSizeBytes the new budget in bytes, above 0
     * @return this manager
     * @throws IllegalArgumentException if {@code bufferSizeBytes <= 0}
     * @throws IllegalStateException if closed, or if the manager was created disabled (size 0,
     *         no cache): it has counted nothing, so enabling it would make its usage wrong
     */
    public WriteBufferManager setBufferSize(long bufferSizeBytes) {
        if (bufferSizeBytes <= 0) {
            throw new IllegalArgumentException("buffer size must be > 0: " + bufferSizeBytes);
        }
        use(w -> {
            if (!rocksdb_write_buffer_manager_enabled(w) && !rocksdb_write_buffer_manager_cost_to_cache(w)) {
                throw new IllegalStateException("a write buffer manager created with size 0 cannot be enabled");
            }
            rocksdb_write_buffer_manager_set_buffer_size(w, bufferSizeBytes);
        });
        return this;
    }

    /**
     * Whether writers stall while memtables use more than the budget.
     *
     * @param allowStall the new setting
     * @return this manager
     * @throws IllegalStateException if closed
     */
    public WriteBufferManager setAllowStall(boolean allowStall) {
        use(w -> rocksdb_write_buffer_manager_set_allow_stall(w, allowStall));
        return this;
    }
}
