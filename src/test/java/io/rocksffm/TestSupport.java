package io.rocksffm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Small helpers shared by the tests (the reliability package too). */
public final class TestSupport {
    private TestSupport() {}

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /** Appends a merge record to {@code batch} (not public API until merge operators exist). */
    public static WriteBatch merge(WriteBatch batch, byte[] key, byte[] value) {
        return batch.merge(key, value);
    }

    /** Opens (creating) a database under {@code dir}. */
    public static RocksDB open(Path dir) {
        try (Options o = new Options().setCreateIfMissing(true)) {
            return RocksDB.open(dir, o);
        }
    }
}
