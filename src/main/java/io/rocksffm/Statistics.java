package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The statistics of the databases opened with an {@link Options} on which
 * {@link Options#enableStatistics()} was called: RocksDB's counters ("tickers") and histograms,
 * shared by every database and family opened with those options.
 *
 * {@snippet id="Statistics" :
 * Statistics stats = options.enableStatistics();   // readable after options are closed too
 * try (RocksDB db = RocksDB.open(path, options)) {
 *     db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
 *     long keysWritten = stats.tickers().get(TickerType.NUMBER_KEYS_WRITTEN.engineName());   // 1
 * }
 * }
 *
 * <p>The typed reads, {@link #tickerCount} and {@link #histogram}, need RocksDB 8.6 or later (the C
 * functions {@code rocksdb_options_statistics_get_ticker_count} and
 * {@code rocksdb_options_statistics_get_histogram_data}); on older engines they throw
 * {@link UnsupportedOperationException} naming the function, and the text of
 * {@link #toString()} and the counters parsed from it, {@link #tickers()}, are what there is. The
 * C API has no reset: subtract two readings instead.
 *
 * <p>Holds its own reference to RocksDB's statistics (a copy of the options that made them, which
 * shares them): it stays readable after those options are closed, for as long as the application
 * holds it, and its native memory is released once it is unreachable (there is nothing to close).
 * Thread-safe.
 */
public final class Statistics {
    private static final String TICKER_FUNCTION = "rocksdb_options_statistics_get_ticker_count";
    private static final String HISTOGRAM_FUNCTION = "rocksdb_options_statistics_get_histogram_data";

    /** Releases the options copy once this object is unreachable (off every hot path: one per enableStatistics). */
    private static final Cleaner CLEANER = Cleaner.create();

    /** A copy of the options that made the statistics, sharing them; freed by the cleaner, never while reachable. */
    private final MemorySegment copy;

    /**
     * Statistics read through a copy of {@code options} (made now: later {@code enableStatistics} calls
     * on {@code options} do not change what this object reads).
     *
     * @throws IllegalStateException if {@code options} are closed
     */
    Statistics(Options options) {
        MemorySegment c = options.copyForStatistics();
        this.copy = c;
        CLEANER.register(this, () -> Options.destroyCopy(c));
    }

    /** Runs {@code read} on the copy, keeping this object (so the copy) alive until it returns. */
    private <T> T read(Function<MemorySegment, T> read) {
        try {
            return read.apply(copy);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** The engine's numbering of tickers and histograms: their positions in its statistics text. */
    private record Ids(Map<String, Integer> tickers, Map<String, Integer> histograms) {}

    private static volatile Ids ids;

    private Ids ids() {
        Ids i = ids;
        if (i == null) {
            Map<String, Integer> tickers = new HashMap<>();
            Map<String, Integer> histograms = new HashMap<>();
            for (String line : toString().split("\n")) {
                int space = line.indexOf(' ');
                if (space <= 0) {
                    continue;
                }
                String name = line.substring(0, space);
                if (line.startsWith(" COUNT : ", space)) {
                    tickers.put(name, tickers.size());
                } else if (line.startsWith(" P50 : ", space)) {
                    histograms.put(name, histograms.size());
                }
            }
            i = new Ids(Map.copyOf(tickers), Map.copyOf(histograms));
            ids = i;
        }
        return i;
    }

    private static int id(Map<String, Integer> ids, String name) {
        Integer id = ids.get(name);
        if (id == null) {
            throw new UnsupportedOperationException(name + " is not among the statistics of the loaded RocksDB engine");
        }
        return id;
    }

    /**
     * The current count of {@code ticker}.
     *
     * @param ticker the counter
     * @return its count since the statistics were enabled
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_options_statistics_get_ticker_count} (before RocksDB 8.6) or the ticker
     */
    public long tickerCount(TickerType ticker) {
        Objects.requireNonNull(ticker, "ticker");
        Capabilities.require(TICKER_FUNCTION);
        int id = id(ids().tickers(), ticker.engineName());
        return read(o -> rocksdb_options_statistics_get_ticker_count(o, id));
    }

    /**
     * The current summary of {@code histogram}.
     *
     * @param histogram the histogram
     * @return its summary since the statistics were enabled
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_options_statistics_get_histogram_data} (before RocksDB 8.6) or the histogram
     */
    public HistogramData histogram(HistogramType histogram) {
        Objects.requireNonNull(histogram, "histogram");
        Capabilities.require(HISTOGRAM_FUNCTION);
        int id = id(ids().histograms(), histogram.engineName());
        return read(o -> {
            MemorySegment data = rocksdb_statistics_histogram_data_create();
            try {
                rocksdb_options_statistics_get_histogram_data(o, id, data);
                return new HistogramData(rocksdb_statistics_histogram_data_get_count(data),
                        rocksdb_statistics_histogram_data_get_sum(data), rocksdb_statistics_histogram_data_get_min(data),
                        rocksdb_statistics_histogram_data_get_max(data),
                        rocksdb_statistics_histogram_data_get_average(data),
                        rocksdb_statistics_histogram_data_get_median(data), rocksdb_statistics_histogram_data_get_p95(data),
                        rocksdb_statistics_histogram_data_get_p99(data),
                        rocksdb_statistics_histogram_data_get_std_dev(data));
            } finally {
                rocksdb_statistics_histogram_data_destroy(data);
            }
        });
    }

    /**
     * Every ticker of the engine with its count, parsed from {@link #toString()} (works on every
     * engine).
     *
     * @return the engine's ticker names (e.g. {@code "rocksdb.bytes.written"}) and counts, in the
     *         engine's order (an unmodifiable map)
     * @throws IllegalStateException if statistics were not enabled on the options
     */
    public Map<String, Long> tickers() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : toString().split("\n")) {
            int at = line.indexOf(" COUNT : ");
            if (at > 0 && line.indexOf(' ') == at) {
                out.put(line.substring(0, at), Long.parseLong(line.substring(at + " COUNT : ".length()).trim()));
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * RocksDB's text of the statistics: one line per ticker ({@code name COUNT : n}), then one per
     * histogram ({@code name P50 : .. P95 : .. P99 : .. P100 : .. COUNT : .. SUM : ..}).
     *
     * @return the text
     * @throws IllegalStateException if statistics were not enabled on the options
     */
    @Override
    public String toString() {
        String text = read(o -> CStrings.take(rocksdb_options_statistics_get_string(o)));
        if (text == null) {
            throw new IllegalStateException("statistics are not enabled on these options");
        }
        return text;
    }
}
