package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.Capabilities;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SstFileManagerTest {
    @TempDir
    Path dir;

    /** On engines without the C functions (7.8.3), creating one and setting one report the function. */
    private static boolean supported() {
        boolean create = Gated.supported("rocksdb_sst_file_manager_create", SstFileManager::create);
        assertEquals(create, Capabilities.callable("rocksdb_options_set_sst_file_manager"));
        return create;
    }

    @Test
    void settingsAreWhatWasSet() {
        assumeTrue(supported(), "the engine has no SST file manager");
        try (SstFileManager sfm = SstFileManager.create()) {
            assertEquals(0, sfm.totalSize());
            assertEquals(0, sfm.totalTrashSize());
            assertFalse(sfm.isMaxAllowedSpaceReached());
            assertFalse(sfm.isMaxAllowedSpaceReachedIncludingCompactions());
            assertSame(sfm, sfm.setDeleteRateBytesPerSecond(1 << 20).setMaxTrashDbRatio(0.5)
                    .setCompactionBufferSize(1 << 10).setMaxAllowedSpaceUsage(0));
            assertEquals(1 << 20, sfm.deleteRateBytesPerSecond());
            assertEquals(0.5, sfm.maxTrashDbRatio());
            assertThrows(IllegalArgumentException.class, () -> sfm.setMaxAllowedSpaceUsage(-1));
            assertThrows(IllegalArgumentException.class, () -> sfm.setCompactionBufferSize(-1));
            assertThrows(IllegalArgumentException.class, () -> sfm.setDeleteRateBytesPerSecond(-1));
            assertThrows(IllegalArgumentException.class, () -> sfm.setMaxTrashDbRatio(-0.1));
            assertThrows(IllegalArgumentException.class, () -> sfm.setMaxTrashDbRatio(Double.NaN));
        }
        SstFileManager closed = SstFileManager.create();
        closed.close();
        closed.close();
        assertThrows(IllegalStateException.class, closed::totalSize);
        try (Options options = new Options()) {
            assertThrows(IllegalStateException.class, () -> options.setSstFileManager(closed));
            assertThrows(NullPointerException.class, () -> options.setSstFileManager(null));
        }
    }

    @Test
    void totalSizeIsTheSumOfTheLiveFiles() {
        assumeTrue(supported(), "the engine has no SST file manager");
        // --- readme:sstFileManager begin
        try (SstFileManager sfm = SstFileManager.create();
             Options options = new Options().setCreateIfMissing(true).setSstFileManager(sfm);
             RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 1000; i++) {
                    db.put(bytes("k" + round + "-" + i), new byte[100]);
                }
                db.flush(true);
            }
            long tracked = sfm.totalSize(); // bytes of table files, across the databases using sfm
            // --- readme:sstFileManager end
            long live = db.liveFiles().stream().mapToLong(LiveFile::size).sum();
            assertEquals(3, db.liveFiles().size());
            assertTrue(live > 3 * 1000, "live " + live);
            assertEquals(live, tracked);
            // the manager outlives the Java object: closing it early leaves the database tracked
        }
    }

    @Test
    void theSpaceLimitStopsWrites() {
        assumeTrue(supported(), "the engine has no SST file manager");
        SstFileManager sfm = SstFileManager.create();
        try (Options options = new Options().setCreateIfMissing(true).setSstFileManager(sfm)) {
            sfm.close(); // RocksDB keeps its own reference
            try (RocksDB db = RocksDB.open(dir.resolve("db"), options);
                 SstFileManager shared = SstFileManager.create();
                 Options limited = new Options().setCreateIfMissing(true).setSstFileManager(shared);
                 RocksDB full = RocksDB.open(dir.resolve("full"), limited)) {
                db.put(bytes("a"), bytes("b"));
                db.flush(true);
                shared.setMaxAllowedSpaceUsage(1); // one byte: the first table file passes it
                full.put(bytes("k"), new byte[1000]);
                try {
                    full.flush(true);
                } catch (RocksDBException e) {
                    assertEquals(RocksDBException.Code.IO_ERROR, e.code(), e.getMessage());
                }
                assertTrue(shared.isMaxAllowedSpaceReached());
                RocksDBException e = assertThrows(RocksDBException.class, () -> full.put(bytes("k2"), bytes("v")));
                assertEquals(RocksDBException.Code.IO_ERROR, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("Max allowed space was reached"), e.getMessage());
                // reads still work, and the other database (another manager) is unaffected
                assertEquals(1000, full.get(bytes("k")).length);
                db.put(bytes("c"), bytes("d"));
                // lifting the limit does not resume writes: the error stays until a reopen, as
                // the exception says
                shared.setMaxAllowedSpaceUsage(0);
                assertFalse(shared.isMaxAllowedSpaceReached());
                RocksDBException stays = assertThrows(RocksDBException.class, () -> full.put(bytes("k3"), bytes("v")));
                assertEquals(RocksDBException.Code.IO_ERROR, stays.code(), stays.getMessage());
                assertTrue(stays.getMessage().contains("reopened"), stays.getMessage());
            }
            try (SstFileManager unlimited = SstFileManager.create();
                 Options reopened = new Options().setSstFileManager(unlimited);
                 RocksDB full = RocksDB.open(dir.resolve("full"), reopened)) {
                full.put(bytes("k3"), bytes("v"));
                full.flush(true);
                assertEquals(1000, full.get(bytes("k")).length, "the write that passed the limit was kept");
            }
        }
    }
}
