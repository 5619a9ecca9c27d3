package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CompressionTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Compression.class)
    void roundTripsThroughRocksDBsNumbering(Compression c) {
        try (Options o = new Options()) {
            assertEquals(c, o.setCompression(c).compression());
        }
    }

    /** The compressions both engines here are built with give a working database. */
    @ParameterizedTest
    @EnumSource(value = Compression.class, names = {"NONE", "SNAPPY", "LZ4", "ZSTD", "ZLIB"})
    void databaseWorksWithCompression(Compression c) {
        try (Options o = new Options().setCreateIfMissing(true).setCompression(c).setWriteBufferSize(64 << 10)) {
            try (RocksDB db = RocksDB.open(dir, o)) {
                for (int i = 0; i < 2000; i++) {
                    db.put(bytes("key" + i), bytes("value value value " + i));
                }
            }
            try (RocksDB db = RocksDB.open(dir, o)) {
                assertEquals("value value value 1999", string(db.get(bytes("key1999"))));
            }
        }
    }
}
