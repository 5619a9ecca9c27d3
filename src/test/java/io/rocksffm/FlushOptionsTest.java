package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushOptionsTest {
    @TempDir
    Path dir;

    @Test
    void waitIsTrueByDefaultAndCanBeTurnedOff() {
        try (FlushOptions options = new FlushOptions()) {
            assertTrue(options.waitForFlush());
            assertSame(options, options.setWait(false));
            assertFalse(options.waitForFlush());
        }
    }

    @Test
    void aWaitingFlushLeavesATableFileAndAnEmptyMemtable() {
        try (RocksDB db = open(dir); FlushOptions options = new FlushOptions().setWait(true)) {
            db.put(bytes("k"), bytes("v"));
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0"));
            db.flush(db.defaultColumnFamily(), options);
            assertEquals("1", db.getProperty("rocksdb.num-files-at-level0"));
            assertEquals(0L, db.getLongProperty("rocksdb.num-entries-active-mem-table").orElseThrow());
            assertEquals("v", string(db.get(bytes("k"))));
        }
    }
}
