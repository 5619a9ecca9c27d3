package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.Capabilities;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteBufferManagerTest {
    @TempDir
    Path dir;

    /** On engines without the C functions (7.8.3), creation reports which one is missing. */
    private static boolean supported() {
        if (Capabilities.callable("rocksdb_write_buffer_manager_create")) {
            return true;
        }
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> WriteBufferManager.create(1 << 20, false));
        assertTrue(e.getMessage().contains("rocksdb_write_buffer_manager_create"), e.getMessage());
        try (Cache cache = Cache.newLRUCache(1 << 20)) {
            e = assertThrows(UnsupportedOperationException.class, () -> WriteBufferManager.create(1 << 20, cache, false));
            assertTrue(e.getMessage().contains("rocksdb_write_buffer_manager_create_with_cache"), e.getMessage());
        }
        System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": " + e.getMessage());
        return false;
    }

    @Test
    void settingsAreWhatWasSet() {
        assertThrows(IllegalArgumentException.class, () -> WriteBufferManager.create(-1, false));
        assumeTrue(supported(), "the engine has no write buffer manager");
        try (WriteBufferManager wbm = WriteBufferManager.create(4 << 20, true)) {
            assertTrue(wbm.enabled());
            assertFalse(wbm.costToCache());
            assertEquals(4 << 20, wbm.bufferSize());
            assertEquals(0, wbm.memoryUsage());
            assertEquals(0, wbm.dummyEntriesInCacheUsage());
            assertSame(wbm, wbm.setBufferSize(8 << 20).setAllowStall(false));
            assertEquals(8 << 20, wbm.bufferSize());
            assertThrows(IllegalArgumentException.class, () -> wbm.setBufferSize(0));
        }
        try (WriteBufferManager disabled = WriteBufferManager.create(0, false)) {
            assertFalse(disabled.enabled());
            assertThrows(IllegalStateException.class, () -> disabled.setBufferSize(1 << 20));
        }
        WriteBufferManager closed = WriteBufferManager.create(1 << 20, false);
        closed.close();
        closed.close();
        assertThrows(IllegalStateException.class, closed::memoryUsage);
        try (Options options = new Options()) {
            assertThrows(IllegalStateException.class, () -> options.setWriteBufferManager(closed));
            assertThrows(NullPointerException.class, () -> options.setWriteBufferManager(null));
        }
    }

    /**
     * Two databases share one block cache and one write buffer manager charging the cache: the
     * manager counts both databases' memtables, the cache holds the charge and both databases'
     * blocks.
     */
    @Test
    void twoDatabasesShareOneCacheAndOneManager() {
        assumeTrue(supported(), "the engine has no write buffer manager");
        Cache cache = Cache.newLRUCache(64 << 20);
        WriteBufferManager wbm = WriteBufferManager.create(32 << 20, cache, false);
        try (BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
             Options options = new Options().setCreateIfMissing(true).setTableFormat(table)
                     .setWriteBufferManager(wbm);
             RocksDB a = RocksDB.open(dir.resolve("a"), options);
             RocksDB b = RocksDB.open(dir.resolve("b"), options)) {
            assertTrue(wbm.costToCache());
            long empty = wbm.memoryUsage();
            for (int i = 0; i < 2000; i++) {
                a.put(bytes("key" + i), new byte[200]);
            }
            long afterA = wbm.memoryUsage();
            assertTrue(afterA > empty, "a's memtable is counted: " + empty + " -> " + afterA);
            for (int i = 0; i < 2000; i++) {
                b.put(bytes("key" + i), new byte[200]);
            }
            long afterB = wbm.memoryUsage();
            assertTrue(afterB > afterA, "b's memtable is counted too: " + afterA + " -> " + afterB);
            assertTrue(wbm.mutableMemtableMemoryUsage() <= afterB);
            assertTrue(wbm.dummyEntriesInCacheUsage() > 0, "memtables are charged to the cache");
            assertTrue(cache.usage() >= wbm.dummyEntriesInCacheUsage(),
                    cache.usage() + " >= " + wbm.dummyEntriesInCacheUsage());
            long usageBefore = wbm.memoryUsage();
            a.flush(true);
            b.flush(true);
            assertTrue(wbm.memoryUsage() < usageBefore, "flushes free memtable memory: " + usageBefore + " -> "
                    + wbm.memoryUsage());
            System.out.printf("[rocksffm] shared manager: %d bytes of memtables after writes to both, %d after "
                    + "flushes; cache usage %d (dummy entries %d)%n", afterB, wbm.memoryUsage(), cache.usage(),
                    wbm.dummyEntriesInCacheUsage());
            cache.close(); // the databases and the manager keep their own references
            wbm.close();
            assertEquals(200, a.get(bytes("key5")).length);
            assertEquals(200, b.get(bytes("key6")).length);
        }
    }

    /** A small budget flushes a database whose own write buffer is far larger. */
    @Test
    void aSmallBudgetFlushes() throws IOException, InterruptedException {
        assumeTrue(supported(), "the engine has no write buffer manager");
        try (WriteBufferManager wbm = WriteBufferManager.create(1 << 20, false);
             Options options = new Options().setCreateIfMissing(true).setWriteBufferSize(256 << 20)
                     .setWriteBufferManager(wbm);
             RocksDB db = RocksDB.open(dir.resolve("small"), options)) {
            for (int i = 0; i < 8000; i++) {
                db.put(bytes("key" + i), new byte[512]);
            }
            // The manager acts only when a write arrives: a write that finds the memtables over budget switches the
            // memtable unless a flush is already pending, and then the memtable keeps growing past the budget (on a
            // slow machine most of the 4 MiB can land there while the first flush runs). So keep writing one small
            // entry at a time until the flushes have brought the memtables back under 2 MiB: one memtable of about
            // 1 MiB (one arena block) is left. Without the manager all 4 MiB would stay in the memtable.
            long deadline = System.nanoTime() + 30_000_000_000L;
            int extra = 0;
            while ((tableFiles(dir.resolve("small")) == 0 || wbm.memoryUsage() >= 2L << 20)
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
                db.put(bytes("extra" + extra++), new byte[1]);
            }
            System.out.printf("[rocksffm] 1 MiB budget: %d table files, %d bytes of memtables after 4 MiB of writes "
                    + "and %d small ones%n", tableFiles(dir.resolve("small")), wbm.memoryUsage(), extra);
            assertTrue(tableFiles(dir.resolve("small")) > 0, "the manager's budget made RocksDB flush");
            assertTrue(wbm.memoryUsage() < 2L << 20, "memtables brought back near the 1 MiB budget (4 MiB were "
                    + "written; the database's own write buffer is 256 MiB): " + wbm.memoryUsage());
            for (int i = 0; i < 8000; i += 997) {
                assertEquals(512, db.get(bytes("key" + i)).length, "nothing lost in the flushes");
            }
        }
    }

    private static long tableFiles(Path path) throws IOException {
        try (Stream<Path> files = Files.list(path)) {
            return files.filter(f -> f.toString().endsWith(".sst")).count();
        }
    }
}
