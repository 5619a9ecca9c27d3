package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.OptionsFileText;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PlainTableConfig} and {@link Options#setTableFormat(PlainTableConfig)} (issue 32): a round
 * trip through PlainTable files (put, flush, get every key of a model, prefix scans forward, seekToLast refused), the
 * OPTIONS file naming the format, and the settings' checks. Gated on 7.8.3, whose
 * {@code rocksdb_options_set_plain_table_factory} has the older signature.
 */
class PlainTableConfigTest {
    @TempDir
    Path dir;

    @Test
    void aRoundTripThroughPlainTableFiles() {
        TreeMap<String, String> model = new TreeMap<>();
        try (Options options = new Options().setCreateIfMissing(true).setAllowMmapReads(true)
                .setPrefixExtractor(PrefixExtractor.fixed(3))) {
            if (!Gated.supported("rocksdb_options_set_plain_table_factory",
                    () -> options.setTableFormat(PlainTableConfig.defaults()))) {
                return;
            }
            assertTrue(options.allowMmapReads());
            options.setTableFormat(PlainTableConfig.defaults().withStoreIndexInFile(true));
            try (RocksDB db = RocksDB.open(dir, options)) {
                for (String prefix : List.of("aaa", "bbb", "ccc")) {
                    for (int i = 0; i < 30; i++) {
                        String k = prefix + i;
                        model.put(k, "value of " + k);
                        db.put(bytes(k), bytes(model.get(k)));
                    }
                }
                db.flush(true);
                assertEquals("0", db.getProperty("rocksdb.num-entries-active-mem-table"));
                assertEquals(1, db.liveFiles().size());
                for (var e : model.entrySet()) {
                    assertEquals(e.getValue(), string(db.get(bytes(e.getKey()))));
                }
                assertNull(db.get(bytes("bbb99")));
                assertNull(db.get(bytes("zzz1")));
                try (ReadOptions ro = new ReadOptions().setPrefixSameAsStart(true);
                     RocksIterator it = db.newIterator(ro)) {
                    List<String> scanned = new ArrayList<>();
                    for (it.seek(MemorySegment.ofArray(bytes("bbb"))); it.isValid(); it.next()) {
                        scanned.add(string(it.keyBytes()));
                    }
                    assertEquals(new ArrayList<>(model.subMap("bbb", "bbc").keySet()), scanned);
                    RocksDBException backwards = assertThrows(RocksDBException.class, () -> { // forward only
                        it.seekToLast();
                        it.status();
                    });
                    assertEquals(RocksDBException.Code.NOT_SUPPORTED, backwards.code(), backwards.getMessage());
                }
            }
            assertEquals("PlainTable", OptionsFileText.latest(dir).get("default").get("table_factory"));
        }
    }

    @Test
    void settingsAreChecked() {
        PlainTableConfig d = PlainTableConfig.defaults();
        assertEquals(new PlainTableConfig(0, 10, 0.75, 16, 0, PlainTableConfig.Encoding.PLAIN, false, false), d);
        assertEquals(8, d.withUserKeyLength(8).userKeyLength());
        assertEquals(PlainTableConfig.Encoding.PREFIX, d.withEncoding(PlainTableConfig.Encoding.PREFIX).encoding());
        assertThrows(IllegalArgumentException.class, () -> d.withUserKeyLength(-1));
        assertThrows(IllegalArgumentException.class, () -> new PlainTableConfig(0, 10, 1.5, 16, 0,
                PlainTableConfig.Encoding.PLAIN, false, false));
        assertThrows(IllegalArgumentException.class, () -> new PlainTableConfig(0, 10, Double.NaN, 16, 0,
                PlainTableConfig.Encoding.PLAIN, false, false));
        assertThrows(NullPointerException.class, () -> d.withEncoding(null));
        try (Options options = new Options()) {
            assertThrows(NullPointerException.class, () -> options.setTableFormat((PlainTableConfig) null));
        }
    }
}
