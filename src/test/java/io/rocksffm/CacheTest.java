package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheTest {
    @TempDir
    Path dir;

    @Test
    void capacityIsWhatWasSet() {
        try (Cache cache = Cache.newLRUCache(1 << 20)) {
            assertEquals(1 << 20, cache.capacity());
            assertEquals(0, cache.usage());
            assertEquals(0, cache.pinnedUsage());
            assertSame(cache, cache.setCapacity(2 << 20));
            assertEquals(2 << 20, cache.capacity());
        }
        assertThrows(IllegalArgumentException.class, () -> Cache.newLRUCache(-1));
        try (Cache cache = Cache.newLRUCache(0)) {
            assertThrows(IllegalArgumentException.class, () -> cache.setCapacity(-1));
        }
    }

    /** One cache serves two databases; RocksDB reports its capacity and fills it from both. */
    @Test
    void oneCacheIsSharedByTwoDatabasesAndOutlivesItsJavaObject() {
        Cache cache = Cache.newLRUCache(8 << 20);
        try (BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
             Options options = new Options().setCreateIfMissing(true).setTableFormat(table);
             RocksDB a = RocksDB.open(dir.resolve("a"), options);
             RocksDB b = RocksDB.open(dir.resolve("b"), options)) {
            assertEquals(String.valueOf(8 << 20), a.getProperty("rocksdb.block-cache-capacity"));
            assertEquals(String.valueOf(8 << 20), b.getProperty("rocksdb.block-cache-capacity"));
            for (RocksDB db : new RocksDB[] {a, b}) {
                for (int i = 0; i < 1000; i++) {
                    db.put(bytes("key" + i), new byte[100]);
                }
                db.flush(true);
            }
            long before = cache.usage();
            for (int i = 0; i < 1000; i += 10) {
                assertNotNull(a.get(bytes("key" + i)));
            }
            long afterA = cache.usage();
            assertTrue(afterA > before, "reads of a fill the shared cache: " + before + " -> " + afterA);
            for (int i = 0; i < 1000; i += 10) {
                assertNotNull(b.get(bytes("key" + i)));
            }
            assertTrue(cache.usage() > afterA, "reads of b fill the same cache: " + afterA + " -> " + cache.usage());
            cache.setCapacity(16 << 20);
            assertEquals(String.valueOf(16 << 20), b.getProperty("rocksdb.block-cache-capacity"));
            cache.close(); // the databases keep their own references
            assertNotNull(a.get(bytes("key5")));
            assertEquals(String.valueOf(16 << 20), a.getProperty("rocksdb.block-cache-capacity"));
        }
    }

    /** Issue 32: a HyperClockCache serves as a block cache and reports its capacity and usage (not on 7.8.3). */
    @Test
    void hyperClockCacheServesAsBlockCache(@TempDir Path hcc) {
        if (!Gated.supported("rocksdb_cache_create_hyper_clock", () -> Cache.newHyperClockCache(1 << 20, 4096).close())) {
            return;
        }
        assertThrows(IllegalArgumentException.class, () -> Cache.newHyperClockCache(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> Cache.newHyperClockCache(1 << 20, -1));
        try (Cache cache = Cache.newHyperClockCache(8 << 20, 4096);
             BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
             Options o = new Options().setCreateIfMissing(true).setTableFormat(table);
             RocksDB db = RocksDB.open(hcc, o)) {
            assertEquals(8 << 20, cache.capacity());
            for (int i = 0; i < 2000; i++) {
                db.put(TestSupport.bytes("k" + i), new byte[100]);
            }
            db.flush(true);
            for (int i = 0; i < 2000; i += 100) {
                assertEquals(100, db.get(TestSupport.bytes("k" + i)).length);
            }
            assertTrue(cache.usage() > 0, "the database's blocks are in this cache");
        }
    }
}
