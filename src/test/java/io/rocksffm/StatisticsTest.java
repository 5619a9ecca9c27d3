package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.Arrays;

/** Statistics, TickerType, HistogramType, StatisticsLevel: counters agree with what the test did. */
class StatisticsTest {
    @TempDir
    Path dir;

    private static final boolean TYPED = RocksDB.engine().hasFunction("rocksdb_options_statistics_get_ticker_count");

    /** The size of a write batch holding one put (header, tag, varint lengths, bytes): RocksDB's bytes written. */
    private static long putBatchBytes(int keyLength, int valueLength) {
        return 12 + 1 + varintLength(keyLength) + keyLength + varintLength(valueLength) + valueLength;
    }

    private static int varintLength(long v) {
        int n = 1;
        while (v >= 128) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    @Test
    void countersAgreeWithTheWorkload() {
        Random random = new Random(3);
        try (Options o = new Options().setCreateIfMissing(true)) {
            assertNull(o.statistics());
            Statistics stats = o.enableStatistics();
            assertSame(stats, o.statistics());
            if (TYPED) {
                o.setStatisticsLevel(StatisticsLevel.ALL);
                assertEquals(StatisticsLevel.ALL, o.statisticsLevel());
            } else {
                UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                        () -> o.setStatisticsLevel(StatisticsLevel.ALL));
                assertTrue(e.getMessage().contains("rocksdb_options_set_statistics_level"), e.getMessage());
                System.out.println("[rocksffm] engine " + RocksDB.engine().version() + " (statistics level): " + e.getMessage());
            }
            int puts = 500;
            int gets = 300;
            long bytesWritten = 0;
            long bytesRead = 0;
            int found = 0;
            try (RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
                for (int i = 0; i < puts; i++) {
                    byte[] value = new byte[random.nextInt(300)];
                    byte[] key = bytes(String.format("key%05d", i));
                    db.put(key, value);
                    bytesWritten += putBatchBytes(key.length, value.length);
                }
                for (int i = 0; i < gets; i++) {
                    byte[] v = db.get(bytes(String.format("key%05d", i * 2)));
                    if (v != null) {
                        found++;
                        bytesRead += v.length;
                    }
                }
                int nexts = 0;
                long iterBytes = 0;
                try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(ro)) {
                    for (it.seekToFirst(); it.isValid(); it.next()) {
                        nexts++;
                        iterBytes += it.keyBytes().length + it.valueBytes().length;
                    }
                }
                Map<String, Long> text = stats.tickers();
                assertTrue(text.size() > 150, "the engine's tickers: " + text.size());
                assertEquals(puts, text.get(TickerType.NUMBER_KEYS_WRITTEN.engineName()));
                assertEquals(bytesWritten, text.get(TickerType.BYTES_WRITTEN.engineName()));
                assertEquals(gets, text.get(TickerType.NUMBER_KEYS_READ.engineName()));
                assertEquals(bytesRead, text.get(TickerType.BYTES_READ.engineName()));
                assertEquals(found, text.get(TickerType.MEMTABLE_HIT.engineName()));
                assertEquals(gets - found, text.get(TickerType.MEMTABLE_MISS.engineName()));
                assertEquals(1, text.get(TickerType.NUMBER_DB_SEEK.engineName()));
                assertEquals(puts, nexts);
                assertEquals(nexts, text.get(TickerType.NUMBER_DB_NEXT.engineName()));
                assertEquals(iterBytes, text.get(TickerType.ITER_BYTES_READ.engineName()));
                System.out.printf("[rocksffm] engine %s statistics: %d keys written (%d bytes), %d read (%d bytes), %d next%n",
                        RocksDB.engine().version(), puts, bytesWritten, gets, bytesRead, nexts);

                if (TYPED) {
                    for (TickerType t : TickerType.values()) { // typed reads by the engine's ids agree with its text
                        long before = stats.tickerCount(t);
                        long inText = stats.tickers().get(t.engineName());
                        long after = stats.tickerCount(t);
                        assertTrue(before <= inText && inText <= after, t + ": " + before + " " + inText + " " + after);
                    }
                    assertEquals(puts, stats.tickerCount(TickerType.NUMBER_KEYS_WRITTEN));
                    assertEquals(bytesRead, stats.tickerCount(TickerType.BYTES_READ));
                    HistogramData get = stats.histogram(HistogramType.DB_GET);
                    assertEquals(gets, get.count(), get.toString());
                    assertTrue(get.max() >= get.median() && get.median() >= get.min() && get.average() > 0, get.toString());
                    HistogramData write = stats.histogram(HistogramType.DB_WRITE);
                    assertEquals(puts, write.count());
                    HistogramData perWrite = stats.histogram(HistogramType.BYTES_PER_WRITE);
                    assertEquals(puts, perWrite.count());
                    assertEquals(bytesWritten, perWrite.sum());
                } else {
                    UnsupportedOperationException t = assertThrows(UnsupportedOperationException.class,
                            () -> stats.tickerCount(TickerType.BYTES_READ));
                    assertTrue(t.getMessage().contains("rocksdb_options_statistics_get_ticker_count"), t.getMessage());
                    UnsupportedOperationException h = assertThrows(UnsupportedOperationException.class,
                            () -> stats.histogram(HistogramType.DB_GET));
                    assertTrue(h.getMessage().contains("rocksdb_options_statistics_get_histogram_data"), h.getMessage());
                    System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": typed statistics unsupported, as"
                            + " expected: " + t.getMessage() + "; " + h.getMessage() + " (the text dump is what there is)");
                }
            }
        }
    }

    @Test
    void everyEnumNameIsTheEnginesOwn() {
        try (Options o = new Options()) {
            String text = o.enableStatistics().toString();
            for (TickerType t : TickerType.values()) {
                assertTrue(text.contains("\n" + t.engineName() + " COUNT : ") || text.startsWith(t.engineName() + " COUNT : "),
                        t + " is not named " + t.engineName() + " by the engine");
            }
            for (HistogramType h : HistogramType.values()) {
                assertTrue(text.contains("\n" + h.engineName() + " P50 : "), h + " is not named " + h.engineName());
            }
            assertEquals(TickerType.values().length, Arrays.stream(TickerType.values())
                    .map(TickerType::engineName).distinct().count());
        }
    }

    @Test
    void statisticsNeedTheirOptionsOpenAndEnabled() {
        Options o = new Options();
        assertNull(o.statistics());
        assertThrows(IllegalStateException.class, () -> new Statistics(o).toString());
        if (TYPED) {
            assertEquals(StatisticsLevel.DISABLE_ALL, o.statisticsLevel());
            assertThrows(IllegalStateException.class, () -> o.setStatisticsLevel(StatisticsLevel.ALL), "not enabled");
        }
        Statistics s = o.enableStatistics();
        assertFalse(s.tickers().isEmpty());
        o.close();
        assertThrows(IllegalStateException.class, o::statistics);
        assertThrows(IllegalStateException.class, () -> new Statistics(o), "closed options make no statistics");
        assertThrows(NullPointerException.class, () -> s.tickerCount(null));
    }

    /** Statistics outlive the options that made them (rocksdbjni's applications read them after closing the options). */
    @Test
    void statisticsStayReadableAfterTheirOptionsClose() {
        Statistics s;
        try (Options o = new Options().setCreateIfMissing(true)) {
            s = o.enableStatistics();
            try (RocksDB db = RocksDB.open(dir.resolve("outlive"), o)) {
                for (int i = 0; i < 10; i++) {
                    db.put(bytes("k" + i), bytes("v"));
                }
            }
        }
        assertEquals(10L, s.tickers().get(TickerType.NUMBER_KEYS_WRITTEN.engineName()));
        assertTrue(s.toString().contains(TickerType.NUMBER_KEYS_WRITTEN.engineName()));
        if (TYPED) {
            assertEquals(10L, s.tickerCount(TickerType.NUMBER_KEYS_WRITTEN));
            assertTrue(s.histogram(HistogramType.DB_WRITE).count() >= 10);
        }
    }
}
