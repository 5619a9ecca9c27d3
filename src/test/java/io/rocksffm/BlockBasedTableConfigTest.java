package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockBasedTableConfigTest {
    @TempDir
    Path dir;

    /** The settings reach the database: RocksDB's OPTIONS file records them. */
    @Test
    void settingsReachTheDatabase() throws IOException {
        try (BlockBasedTableConfig table = new BlockBasedTableConfig()
                     .setBlockSize(16 * 1024)
                     .setCacheIndexAndFilterBlocks(true)
                     .setWholeKeyFiltering(false)
                     .setFilterPolicy(FilterPolicy.bloom(10));
             Options options = new Options().setCreateIfMissing(true).setTableFormat(table)) {
            table.close(); // the options hold a copy
            try (RocksDB db = RocksDB.open(dir, options)) {
                db.put(bytes("k"), bytes("v"));
                assertEquals("v", string(db.get(bytes("k"))));
            }
        }
        String written = FilterPolicyTest.optionsFile(dir);
        assertTrue(written.contains("block_size=16384"), written);
        assertTrue(written.contains("cache_index_and_filter_blocks=true"), written);
        assertTrue(written.contains("whole_key_filtering=false"), written);
    }

    @Test
    void noBlockCache() throws IOException {
        try (BlockBasedTableConfig table = new BlockBasedTableConfig().setNoBlockCache(true);
             Options options = new Options().setCreateIfMissing(true).setTableFormat(table);
             RocksDB db = RocksDB.open(dir, options)) {
            db.put(bytes("k"), bytes("v"));
            db.flush(true);
            assertEquals("v", string(db.get(bytes("k"))));
        }
        assertTrue(FilterPolicyTest.optionsFile(dir).contains("no_block_cache=true"));
    }

    @Test
    void badValuesAreRefused() {
        try (BlockBasedTableConfig table = new BlockBasedTableConfig()) {
            assertThrows(IllegalArgumentException.class, () -> table.setBlockSize(0));
            assertThrows(NullPointerException.class, () -> table.setBlockCache(null));
            assertThrows(NullPointerException.class, () -> table.setFilterPolicy(null));
            Cache closed = Cache.newLRUCache(1024);
            closed.close();
            assertThrows(IllegalStateException.class, () -> table.setBlockCache(closed));
        }
    }

    /** rocksffm does not lock the caller's configuration (issue 31): its setters run while the caller holds its monitor. */
    @Test
    void aCallerHoldingItsMonitorDoesNotBlockTheSetters() throws Exception {
        try (BlockBasedTableConfig table = new BlockBasedTableConfig()) {
            synchronized (table) {
                CompletableFuture<Void> other = CompletableFuture.runAsync(() -> table
                        .setIndexType(BlockBasedTableConfig.IndexType.BINARY_SEARCH)
                        .setBlockRestartInterval(8).setFormatVersion(5).setBlockSize(8192));
                other.get(30, TimeUnit.SECONDS);
            }
            try (Options o = new Options().setCreateIfMissing(true).setTableFormat(table);
                 RocksDB db = RocksDB.open(dir, o)) {
                db.put(bytes("k"), bytes("v"));
            }
        }
        String written = FilterPolicyTest.optionsFile(dir);
        assertTrue(written.contains("block_restart_interval=8"), written);
        assertTrue(written.contains("format_version=5"), written);
        assertTrue(written.contains("block_size=8192"), written);
    }
}
