package io.rocksffm.kafka;

import io.rocksffm.HistogramData;
import io.rocksffm.HistogramType;
import io.rocksffm.RocksDB;
import io.rocksffm.Statistics;
import io.rocksffm.TickerType;

import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.Sensor.RecordingLevel;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.state.internals.metrics.RocksDBMetrics;
import org.apache.kafka.streams.state.internals.metrics.RocksDBMetrics.RocksDBMetricContext;
import org.apache.kafka.streams.state.internals.metrics.RocksDBMetricsRecorder;
import org.apache.kafka.streams.state.internals.metrics.RocksDBMetricsRecordingTrigger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigInteger;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Kafka's RocksDB metrics for one rocksffm store: the metrics Kafka's own RocksDB stores report,
 * made by Kafka's own {@link RocksDBMetrics} (so the names, the group
 * {@code stream-state-metrics}, the tags and the recording levels are Kafka's; the store tag is
 * {@code rocksffm-state-id}, after the stores' metrics scope), fed from rocksffm instead of
 * rocksdbjni:
 *
 * <ul>
 * <li>the gauges ({@code INFO} level: {@code estimate-num-keys}, {@code block-cache-usage},
 *     {@code estimate-pending-compaction-bytes}, {@code cur-size-all-mem-tables}, ...) read the
 *     database's properties of the same names when they are read, as Kafka's do;</li>
 * <li>the statistics-based sensors ({@code DEBUG} level: {@code bytes-written-rate},
 *     {@code memtable-hit-ratio}, {@code block-cache-data-hit-ratio},
 *     {@code compaction-time-avg}, {@code memtable-flush-time-max}, ...) are recorded when
 *     {@code metrics.recording.level} is {@code DEBUG}: the store then enables the engine's
 *     statistics, and this recorder joins Kafka's RocksDB metrics recording trigger, which
 *     Kafka Streams runs once a minute. Each run records what the tickers counted since the
 *     last, and the flush and compaction time histograms, as Kafka's recorder does.
 *     {@code number-open-files} is -1, as Kafka reports it (RocksDB no longer counts file
 *     opens).</li>
 * </ul>
 *
 * <p>A subclass of Kafka's recorder only so that Kafka's trigger can run it; none of the
 * superclass's state is used. Thread-safe: the trigger and metrics reporters read it on their
 * threads, and {@link #close()} (before the database closes) stops both.
 */
final class RocksffmMetrics extends RocksDBMetricsRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(RocksffmMetrics.class);

    /** The sensors fed from statistics, in the order {@link #record} records them. */
    private enum Recorded {
        BYTES_WRITTEN(RocksDBMetrics::bytesWrittenToDatabaseSensor),
        BYTES_READ(RocksDBMetrics::bytesReadFromDatabaseSensor),
        MEMTABLE_BYTES_FLUSHED(RocksDBMetrics::memtableBytesFlushedSensor),
        MEMTABLE_HIT_RATIO(RocksDBMetrics::memtableHitRatioSensor),
        MEMTABLE_FLUSH_TIME_AVG(RocksDBMetrics::memtableAvgFlushTimeSensor),
        MEMTABLE_FLUSH_TIME_MIN(RocksDBMetrics::memtableMinFlushTimeSensor),
        MEMTABLE_FLUSH_TIME_MAX(RocksDBMetrics::memtableMaxFlushTimeSensor),
        WRITE_STALL_DURATION(RocksDBMetrics::writeStallDurationSensor),
        BLOCK_CACHE_DATA_HIT_RATIO(RocksDBMetrics::blockCacheDataHitRatioSensor),
        BLOCK_CACHE_INDEX_HIT_RATIO(RocksDBMetrics::blockCacheIndexHitRatioSensor),
        BLOCK_CACHE_FILTER_HIT_RATIO(RocksDBMetrics::blockCacheFilterHitRatioSensor),
        BYTES_READ_COMPACTION(RocksDBMetrics::bytesReadDuringCompactionSensor),
        BYTES_WRITTEN_COMPACTION(RocksDBMetrics::bytesWrittenDuringCompactionSensor),
        COMPACTION_TIME_AVG(RocksDBMetrics::compactionTimeAvgSensor),
        COMPACTION_TIME_MIN(RocksDBMetrics::compactionTimeMinSensor),
        COMPACTION_TIME_MAX(RocksDBMetrics::compactionTimeMaxSensor),
        NUMBER_OPEN_FILES(RocksDBMetrics::numberOfOpenFilesSensor),
        NUMBER_FILE_ERRORS(RocksDBMetrics::numberOfFileErrorsSensor);

        private final SensorFactory factory;

        Recorded(SensorFactory factory) {
            this.factory = factory;
        }
    }

    @FunctionalInterface
    private interface SensorFactory {
        Sensor create(StreamsMetricsImpl metrics, RocksDBMetricContext context);
    }

    /** The tickers read at each recording (the counts are recorded as differences). */
    private static final TickerType[] TICKERS = {
        TickerType.BYTES_WRITTEN, TickerType.BYTES_READ, TickerType.FLUSH_WRITE_BYTES, TickerType.MEMTABLE_HIT,
        TickerType.MEMTABLE_MISS, TickerType.BLOCK_CACHE_DATA_HIT, TickerType.BLOCK_CACHE_DATA_MISS,
        TickerType.BLOCK_CACHE_INDEX_HIT, TickerType.BLOCK_CACHE_INDEX_MISS, TickerType.BLOCK_CACHE_FILTER_HIT,
        TickerType.BLOCK_CACHE_FILTER_MISS, TickerType.STALL_MICROS, TickerType.COMPACT_WRITE_BYTES,
        TickerType.COMPACT_READ_BYTES, TickerType.NO_FILE_ERRORS,
    };

    private final String scope;
    private final String storeName;
    private final Map<Recorded, Sensor> sensors = new EnumMap<>(Recorded.class);
    private final Map<TickerType, Long> lastCounts = new EnumMap<>(TickerType.class);
    private TaskId taskId;
    private RocksDBMetricsRecordingTrigger trigger;
    private RocksDB db;
    private Statistics statistics;

    /**
     * @param scope     the stores' metrics scope (the store tag is {@code <scope>-state-id})
     * @param storeName the store's name
     */
    RocksffmMetrics(String scope, String storeName) {
        super(scope, storeName);
        this.scope = scope;
        this.storeName = storeName;
    }

    /** {@return whether the application records DEBUG metrics, the level of the statistics-based ones} */
    static boolean recordsStatistics(Map<String, Object> configs) {
        Object level = configs.get(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG);
        return level != null && RecordingLevel.forName(level.toString()) == RecordingLevel.DEBUG;
    }

    /**
     * Adds the metrics of a store whose database just opened.
     *
     * @param context    the store's context (metrics of another kind than Kafka's own add none)
     * @param db         the open database
     * @param statistics its statistics, or null (then only the gauges)
     */
    synchronized void open(StateStoreContext context, RocksDB db, Statistics statistics) {
        if (!(context.metrics() instanceof StreamsMetricsImpl metrics)) {
            return;
        }
        this.db = db;
        this.taskId = context.taskId();
        RocksDBMetricContext metricContext = new RocksDBMetricContext(taskId.toString(), scope, storeName);
        addGauges(metrics, metricContext);
        for (Recorded r : Recorded.values()) {
            sensors.put(r, r.factory.create(metrics, metricContext));
        }
        RocksDBMetricsRecordingTrigger recordingTrigger = metrics.rocksDBMetricsRecordingTrigger();
        if (statistics == null || recordingTrigger == null) {
            return;
        }
        this.statistics = statistics;
        readCounts(); // counting starts now
        recordingTrigger.addMetricsRecorder(this);
        trigger = recordingTrigger;
    }

    private void addGauges(StreamsMetricsImpl metrics, RocksDBMetricContext context) {
        gauge(metrics, context, "num-immutable-mem-table", RocksDBMetrics::addNumImmutableMemTableMetric);
        gauge(metrics, context, "cur-size-active-mem-table", RocksDBMetrics::addCurSizeActiveMemTable);
        gauge(metrics, context, "cur-size-all-mem-tables", RocksDBMetrics::addCurSizeAllMemTables);
        gauge(metrics, context, "size-all-mem-tables", RocksDBMetrics::addSizeAllMemTables);
        gauge(metrics, context, "num-entries-active-mem-table", RocksDBMetrics::addNumEntriesActiveMemTableMetric);
        gauge(metrics, context, "num-deletes-active-mem-table", RocksDBMetrics::addNumDeletesActiveMemTableMetric);
        gauge(metrics, context, "num-entries-imm-mem-tables", RocksDBMetrics::addNumEntriesImmMemTablesMetric);
        gauge(metrics, context, "num-deletes-imm-mem-tables", RocksDBMetrics::addNumDeletesImmMemTablesMetric);
        gauge(metrics, context, "mem-table-flush-pending", RocksDBMetrics::addMemTableFlushPending);
        gauge(metrics, context, "num-running-flushes", RocksDBMetrics::addNumRunningFlushesMetric);
        gauge(metrics, context, "compaction-pending", RocksDBMetrics::addCompactionPendingMetric);
        gauge(metrics, context, "num-running-compactions", RocksDBMetrics::addNumRunningCompactionsMetric);
        gauge(metrics, context, "estimate-pending-compaction-bytes", RocksDBMetrics::addEstimatePendingCompactionBytesMetric);
        gauge(metrics, context, "total-sst-files-size", RocksDBMetrics::addTotalSstFilesSizeMetric);
        gauge(metrics, context, "live-sst-files-size", RocksDBMetrics::addLiveSstFilesSizeMetric);
        gauge(metrics, context, "num-live-versions", RocksDBMetrics::addNumLiveVersionMetric);
        gauge(metrics, context, "estimate-num-keys", RocksDBMetrics::addEstimateNumKeysMetric);
        gauge(metrics, context, "estimate-table-readers-mem", RocksDBMetrics::addEstimateTableReadersMemMetric);
        gauge(metrics, context, "background-errors", RocksDBMetrics::addBackgroundErrorsMetric);
        // The block cache is the database's, not a family's: read once, not summed over families.
        cacheGauge(metrics, context, "block-cache-capacity", RocksDBMetrics::addBlockCacheCapacityMetric);
        cacheGauge(metrics, context, "block-cache-usage", RocksDBMetrics::addBlockCacheUsageMetric);
        cacheGauge(metrics, context, "block-cache-pinned-usage", RocksDBMetrics::addBlockCachePinnedUsageMetric);
    }

    @FunctionalInterface
    private interface GaugeAdder {
        void add(StreamsMetricsImpl metrics, RocksDBMetricContext context, Gauge<BigInteger> gauge);
    }

    /** A gauge of the database's property {@code rocksdb.<name>}, summed over its column families. */
    private void gauge(StreamsMetricsImpl metrics, RocksDBMetricContext context, String name, GaugeAdder adder) {
        String property = "rocksdb." + name;
        adder.add(metrics, context, (config, now) -> property(property, true));
    }

    private void cacheGauge(StreamsMetricsImpl metrics, RocksDBMetricContext context, String name, GaugeAdder adder) {
        String property = "rocksdb." + name;
        adder.add(metrics, context, (config, now) -> property(property, false));
    }

    /** The property's value as Kafka's gauges give it (unsigned), 0 once the store is closed. */
    private synchronized BigInteger property(String property, boolean aggregated) {
        if (db == null) {
            return BigInteger.ZERO;
        }
        OptionalLong value = aggregated ? db.getAggregatedLongProperty(property) : db.getLongProperty(property);
        long v = value.orElse(0);
        return v >= 0 ? BigInteger.valueOf(v) : BigInteger.valueOf(v).add(BigInteger.ONE.shiftLeft(64));
    }

    /** The counts of {@link #TICKERS} since the last reading (and remembers this one). */
    private long[] readCounts() {
        Map<String, Long> counts = statistics.tickers();
        long[] deltas = new long[TICKERS.length];
        for (int i = 0; i < TICKERS.length; i++) {
            long now = counts.getOrDefault(TICKERS[i].engineName(), 0L);
            Long before = lastCounts.put(TICKERS[i], now);
            deltas[i] = before == null ? now : now - before;
        }
        return deltas;
    }

    private HistogramData histogram(HistogramType type) {
        try {
            return statistics.histogram(type);
        } catch (UnsupportedOperationException e) {
            return null; // an engine before RocksDB 8.6: no typed histogram reads
        }
    }

    /**
     * Records the statistics since the last recording into Kafka's sensors (called by Kafka's
     * recording trigger).
     *
     * @param now the time of the recording, in milliseconds
     */
    @Override
    public synchronized void record(long now) {
        if (statistics == null) {
            return;
        }
        long[] d = readCounts();
        record(Recorded.BYTES_WRITTEN, d[0], now);
        record(Recorded.BYTES_READ, d[1], now);
        record(Recorded.MEMTABLE_BYTES_FLUSHED, d[2], now);
        record(Recorded.MEMTABLE_HIT_RATIO, hitRatio(d[3], d[4]), now);
        HistogramData flush = histogram(HistogramType.FLUSH_TIME);
        if (flush != null) {
            record(Recorded.MEMTABLE_FLUSH_TIME_AVG, average(flush), now);
            record(Recorded.MEMTABLE_FLUSH_TIME_MIN, flush.min(), now);
            record(Recorded.MEMTABLE_FLUSH_TIME_MAX, flush.max(), now);
        }
        record(Recorded.BLOCK_CACHE_DATA_HIT_RATIO, hitRatio(d[5], d[6]), now);
        record(Recorded.BLOCK_CACHE_INDEX_HIT_RATIO, hitRatio(d[7], d[8]), now);
        record(Recorded.BLOCK_CACHE_FILTER_HIT_RATIO, hitRatio(d[9], d[10]), now);
        record(Recorded.WRITE_STALL_DURATION, d[11], now);
        record(Recorded.BYTES_WRITTEN_COMPACTION, d[12], now);
        record(Recorded.BYTES_READ_COMPACTION, d[13], now);
        HistogramData compaction = histogram(HistogramType.COMPACTION_TIME);
        if (compaction != null) {
            record(Recorded.COMPACTION_TIME_AVG, average(compaction), now);
            record(Recorded.COMPACTION_TIME_MIN, compaction.min(), now);
            record(Recorded.COMPACTION_TIME_MAX, compaction.max(), now);
        }
        record(Recorded.NUMBER_OPEN_FILES, -1, now);
        record(Recorded.NUMBER_FILE_ERRORS, d[14], now);
        LOG.debug("Recorded the RocksDB metrics of rocksffm store {} of task {}", storeName, taskId);
    }

    private void record(Recorded sensor, double value, long now) {
        sensors.get(sensor).record(value, now);
    }

    private static double hitRatio(long hits, long misses) {
        return hits == 0 ? 0 : (double) hits / (hits + misses);
    }

    private static double average(HistogramData h) {
        return h.count() == 0 ? 0 : (double) h.sum() / h.count();
    }

    /** Stops recording and reading the database (before it closes); the metrics stay until the store's are removed. */
    synchronized void close() {
        if (trigger != null) {
            trigger.removeMetricsRecorder(this);
            trigger = null;
        }
        statistics = null;
        db = null;
    }

    @Override
    public String storeName() {
        return storeName;
    }

    @Override
    public TaskId taskId() {
        return taskId;
    }

    /** Not used: {@link #open} adds this recorder's metrics. */
    @Override
    public void init(StreamsMetricsImpl metrics, TaskId taskId) {
        throw new UnsupportedOperationException("rocksffm's metrics recorder is opened with its store");
    }
}
