package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Getters read back the setters; FIFO compaction deletes the oldest files past the size limit. */
class FifoCompactionOptionsTest {
    @TempDir
    Path dir;

    @Test
    void gettersReadTheSetters() {
        try (FifoCompactionOptions f = new FifoCompactionOptions()) {
            assertEquals(1L << 30, f.maxTableFilesSize());
            assertEquals(1L << 20, f.setMaxTableFilesSize(1 << 20).maxTableFilesSize());
            if (Gated.supported("rocksdb_fifo_compaction_options_set_allow_compaction", () -> f.setAllowCompaction(true))) {
                assertTrue(f.setAllowCompaction(true).allowCompaction());
                assertFalse(f.setAllowCompaction(false).allowCompaction());
            } else {
                Gated.supported("rocksdb_fifo_compaction_options_get_allow_compaction", f::allowCompaction);
            }
        }
    }

    /** RocksDB applies the limit: after many flushes, the oldest keys are gone and the files stay under it. */
    @Test
    void oldestFilesAreDropped() {
        try (FifoCompactionOptions f = new FifoCompactionOptions().setMaxTableFilesSize(200 << 10);
             Options o = new Options().setCreateIfMissing(true).setCompression(Compression.NONE)
                     .setCompactionStyle(CompactionStyle.FIFO).setFifoCompactionOptions(f);
             RocksDB db = RocksDB.open(dir, o)) {
            f.close(); // the options hold a copy
            for (int flush = 0; flush < 20; flush++) {
                for (int i = 0; i < 50; i++) {
                    db.put(bytes("k" + flush + "-" + i), new byte[1000]);
                }
                db.flush(true);
            }
            db.compactRange();
            assertNull(db.get(bytes("k0-0")), "the oldest file was deleted");
            assertNotNull(db.get(bytes("k19-0")), "the newest file stays");
        }
    }

    @Test
    void badValuesAndClosedUseAreRefused() {
        FifoCompactionOptions f = new FifoCompactionOptions();
        assertThrows(IllegalArgumentException.class, () -> f.setMaxTableFilesSize(0));
        f.close();
        f.close();
        assertThrows(IllegalStateException.class, f::maxTableFilesSize);
        assertThrows(IllegalStateException.class, () -> f.setAllowCompaction(true));
        try (Options o = new Options()) {
            assertThrows(IllegalStateException.class, () -> o.setFifoCompactionOptions(f));
        }
    }
}
