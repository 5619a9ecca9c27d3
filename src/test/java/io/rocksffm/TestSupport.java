package io.rocksffm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Small helpers shared by the tests. */
final class TestSupport {
    private TestSupport() {}

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Opens (creating) a database under {@code dir}. */
    static RocksDB open(Path dir) {
        try (Options o = new Options().setCreateIfMissing(true)) {
            return RocksDB.open(dir, o);
        }
    }
}
