package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.OptionsFileText;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CuckooTableConfig} and {@link Options#setTableFormat(CuckooTableConfig)} (issue 32): a
 * round trip through a Cuckoo table file (put, flush, get and scan every key of a model), the
 * OPTIONS file naming the format and its settings, and what breaking the format's constraint that values have
 * one length does (RocksDB drops the entry that does not fit, silently).
 */
class CuckooTableConfigTest {
    @TempDir
    Path dir;

    @Test
    void gettersReadTheSetters() {
        try (CuckooTableConfig c = new CuckooTableConfig()) {
            assertEquals(0.9, c.hashTableRatio());
            assertEquals(100, c.maxSearchDepth());
            assertEquals(5, c.cuckooBlockSize());
            assertFalse(c.identityAsFirstHash());
            assertTrue(c.useModuleHash());
            assertEquals(0.5, c.setHashTableRatio(0.5).hashTableRatio());
            assertEquals(7, c.setMaxSearchDepth(7).maxSearchDepth());
            assertEquals(3, c.setCuckooBlockSize(3).cuckooBlockSize());
            assertTrue(c.setIdentityAsFirstHash(true).identityAsFirstHash());
            assertFalse(c.setUseModuleHash(false).useModuleHash());
            assertThrows(IllegalArgumentException.class, () -> c.setHashTableRatio(0));
            assertThrows(IllegalArgumentException.class, () -> c.setHashTableRatio(1.1));
            assertThrows(IllegalArgumentException.class, () -> c.setMaxSearchDepth(0));
            assertThrows(IllegalArgumentException.class, () -> c.setCuckooBlockSize(-1));
        }
    }

    @Test
    void aRoundTripThroughACuckooTableFile() {
        TreeMap<String, String> model = new TreeMap<>();
        try (CuckooTableConfig cuckoo = new CuckooTableConfig().setHashTableRatio(0.5).setMaxSearchDepth(50);
             Options options = new Options().setCreateIfMissing(true).setAllowMmapReads(true).setTableFormat(cuckoo)) {
            cuckoo.close(); // the options copied it
            try (RocksDB db = RocksDB.open(dir, options)) {
                for (int i = 0; i < 500; i++) {
                    String k = String.format("key%05d", i * 7 % 1000); // one length
                    String v = String.format("v%07d", i); // one length
                    model.put(k, v);
                    db.put(bytes(k), bytes(v));
                }
                db.flush(true);
                assertEquals(1, db.liveFiles().size());
                for (var e : model.entrySet()) {
                    assertEquals(e.getValue(), string(db.get(bytes(e.getKey()))));
                }
                assertNull(db.get(bytes("key99999")));
                Map<String, String> scanned = new TreeMap<>();
                try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        scanned.put(string(it.keyBytes()), string(it.valueBytes()));
                    }
                }
                assertEquals(model, scanned);

                Map<String, String> written = OptionsFileText.latest(dir).get("default");
                assertEquals("CuckooTable", written.get("table_factory"));

                // values of two lengths in one file: RocksDB's builder refuses the second (NotSupported)
                // but the flush reports success, and the entry is lost: reads find the older value
                db.put(bytes("key00001"), bytes("a value of another length")).put(bytes("key00002"), bytes("short"));
                db.flush(true);
                assertEquals("a value of another length", string(db.get(bytes("key00001"))));
                assertEquals(model.get("key00002"), string(db.get(bytes("key00002"))), "the lost write");
                assertEquals("0", db.getProperty("rocksdb.background-errors"));
            }
        }
    }
}
