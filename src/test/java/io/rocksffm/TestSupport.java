package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

    /**
     * The records of the batches {@code db} logged from {@code sequence} on, as change capture reads
     * them back from its write-ahead log: one string each, {@code "put KEY VALUE"},
     * {@code "delete KEY"} or {@code "log BLOB"}.
     */
    public static List<String> loggedRecords(Database db, long sequence) {
        List<WalUpdate> updates = db.getUpdatesSince(sequence, 100);
        List<String> out = new ArrayList<>();
        try {
            for (WalUpdate u : updates) {
                u.batch().iterate(new WriteBatch.Handler() {
                    @Override
                    public void put(int family, MemorySegment key, MemorySegment value) {
                        out.add("put " + text(key) + " " + text(value));
                    }

                    @Override
                    public void delete(int family, MemorySegment key) {
                        out.add("delete " + text(key));
                    }

                    @Override
                    public void logData(MemorySegment blob) {
                        out.add("log " + text(blob));
                    }
                });
            }
        } finally {
            updates.forEach(u -> u.batch().close());
        }
        return out;
    }

    private static String text(MemorySegment s) {
        return string(s.toArray(ValueLayout.JAVA_BYTE));
    }
}
