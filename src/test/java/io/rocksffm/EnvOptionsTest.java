package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** EnvOptions: the file I/O settings of a table-file writer, through to a file RocksDB ingests. */
class EnvOptionsTest {
    @TempDir
    Path dir;

    private static boolean hasSettings() {
        return RocksDB.engine().hasFunction("rocksdb_envoptions_set_writable_file_max_buffer_size");
    }

    @Test
    void aWriterWithEnvOptionsWritesAFileTheDatabaseIngests() {
        Path file = dir.resolve("a.sst");
        try (Options o = new Options().setCreateIfMissing(true); EnvOptions env = new EnvOptions()) {
            if (hasSettings()) {
                env.setWritableFileMaxBufferSize(64 * 1024).setBytesPerSync(4096).setStrictBytesPerSync(true)
                        .setAllowFallocate(false);
                assertEquals(64 * 1024, env.writableFileMaxBufferSize());
                assertEquals(4096, env.bytesPerSync());
                assertTrue(env.strictBytesPerSync());
                assertFalse(env.allowFallocate());
            } else {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> env.setBytesPerSync(4096));
                assertTrue(e.getMessage().contains("EnvOptions.setBytesPerSync"), e.getMessage());
                assertTrue(e.getMessage().contains("rocksdb_envoptions_set_bytes_per_sync"), e.getMessage());
            }
            try (SstFileWriter w = SstFileWriter.open(o, env, file)) {
                for (int i = 0; i < 1000; i++) {
                    w.put(bytes(String.format("k%04d", i)), bytes("v" + i));
                }
                assertTrue(w.finish() > 0);
            }
            env.close(); // the writer copied it
            try (RocksDB db = RocksDB.open(dir.resolve("db"), o); IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
                db.ingestExternalFile(List.of(file), ingest);
                assertArrayEquals(bytes("v0"), db.get(bytes("k0000")));
                assertArrayEquals(bytes("v999"), db.get(bytes("k0999")));
            }
        }
    }

    @Test
    void badValuesAndClosedOptionsAreRefused() {
        try (Options o = new Options()) {
            EnvOptions env = new EnvOptions();
            assertThrows(IllegalArgumentException.class, () -> env.setBytesPerSync(-1));
            assertThrows(IllegalArgumentException.class, () -> env.setWritableFileMaxBufferSize(-1));
            env.close();
            env.close(); // harmless
            Path file = dir.resolve("b.sst");
            assertThrows(IllegalStateException.class, () -> SstFileWriter.open(o, env, file));
            assertThrows(NullPointerException.class, () -> SstFileWriter.open(o, null, file));
            assertFalse(Files.exists(file));
        }
    }
}
