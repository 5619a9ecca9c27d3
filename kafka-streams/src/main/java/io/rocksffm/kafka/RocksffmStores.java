package io.rocksffm.kafka;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

import java.time.Duration;

/**
 * Store suppliers on rocksffm, the counterparts of Kafka's {@code Stores.persistentKeyValueStore},
 * {@code Stores.persistentTimestampedKeyValueStore}, {@code Stores.persistentWindowStore},
 * {@code Stores.persistentTimestampedWindowStore}, {@code Stores.persistentSessionStore},
 * {@code Stores.persistentVersionedKeyValueStore} and the headers variants
 * ({@code Stores.persistentTimestampedKeyValueStoreWithHeaders},
 * {@code Stores.persistentTimestampedWindowStoreWithHeaders},
 * {@code Stores.persistentSessionStoreWithHeaders}):
 *
 * <pre>{@code
 * StoreBuilder<KeyValueStore<String, Long>> counts = Stores.keyValueStoreBuilder(
 *         RocksffmStores.keyValueStore("counts"), Serdes.String(), Serdes.Long());
 * builder.stream("words").groupByKey()
 *        .count(Materialized.as(RocksffmStores.timestampedKeyValueStore("word-counts")));
 * }</pre>
 *
 * To put every store of a DSL application on rocksffm instead, set
 * {@code dsl.store.suppliers.class} to {@link RocksffmDslStoreSuppliers}.
 */
public final class RocksffmStores {
    private RocksffmStores() {
    }

    /**
     * A persistent key-value store on rocksffm.
     *
     * @param name the store's name
     * @return its supplier
     */
    public static KeyValueBytesStoreSupplier keyValueStore(String name) {
        return new RocksffmKeyValueBytesStoreSupplier(name, false);
    }

    /**
     * A persistent timestamped key-value store on rocksffm (values carry their timestamps, as
     * Kafka's DSL stores do).
     *
     * @param name the store's name
     * @return its supplier
     */
    public static KeyValueBytesStoreSupplier timestampedKeyValueStore(String name) {
        return new RocksffmKeyValueBytesStoreSupplier(name, true);
    }

    /**
     * A persistent timestamped key-value store with headers on rocksffm, the counterpart of Kafka's
     * {@code Stores.persistentTimestampedKeyValueStoreWithHeaders}: values carry the record's
     * headers and timestamp in Kafka's headers format, for {@code Stores.timestampedKeyValueStoreWithHeadersBuilder}
     * or a DSL operator materialized in that format.
     *
     * @param name the store's name
     * @return its supplier (a {@code HeadersBytesStoreSupplier})
     */
    public static KeyValueBytesStoreSupplier timestampedKeyValueStoreWithHeaders(String name) {
        return new HeadersSuppliers.KeyValue(name);
    }

    /**
     * A persistent window store on rocksffm, segmented as Kafka's {@code Stores.persistentWindowStore}
     * (segments of half the retention period, at least a minute).
     *
     * @param name             the store's name
     * @param retentionPeriod  how long windows are kept (at least the window size)
     * @param windowSize       the windows' size
     * @param retainDuplicates whether every put is kept rather than replacing the window's value
     *                         (stream-stream joins)
     * @return its supplier
     * @throws IllegalArgumentException if a duration is negative or too large for milliseconds, or the
     *                                  retention period is smaller than the window size
     */
    public static WindowBytesStoreSupplier windowStore(String name, Duration retentionPeriod, Duration windowSize,
                                                       boolean retainDuplicates) {
        return window(name, retentionPeriod, windowSize, retainDuplicates, false);
    }

    /**
     * A persistent timestamped window store on rocksffm (values carry their timestamps, as Kafka's
     * DSL window stores do), segmented as {@link #windowStore}.
     *
     * @param name             the store's name
     * @param retentionPeriod  how long windows are kept (at least the window size)
     * @param windowSize       the windows' size
     * @param retainDuplicates whether every put is kept rather than replacing the window's value
     * @return its supplier
     * @throws IllegalArgumentException if a duration is negative or too large for milliseconds, or the
     *                                  retention period is smaller than the window size
     */
    public static WindowBytesStoreSupplier timestampedWindowStore(String name, Duration retentionPeriod,
                                                                  Duration windowSize, boolean retainDuplicates) {
        return window(name, retentionPeriod, windowSize, retainDuplicates, true);
    }

    /**
     * A persistent timestamped window store with headers on rocksffm, the counterpart of Kafka's
     * {@code Stores.persistentTimestampedWindowStoreWithHeaders} (values in Kafka's headers
     * format), segmented as {@link #windowStore}.
     *
     * @param name             the store's name
     * @param retentionPeriod  how long windows are kept (at least the window size)
     * @param windowSize       the windows' size
     * @param retainDuplicates whether every put is kept rather than replacing the window's value
     * @return its supplier (a {@code HeadersBytesStoreSupplier})
     * @throws IllegalArgumentException if a duration is negative or too large for milliseconds, or the
     *                                  retention period is smaller than the window size
     */
    public static WindowBytesStoreSupplier timestampedWindowStoreWithHeaders(String name, Duration retentionPeriod,
                                                                             Duration windowSize, boolean retainDuplicates) {
        return new HeadersSuppliers.Window(window(name, retentionPeriod, windowSize, retainDuplicates, true));
    }

    private static RocksffmWindowBytesStoreSupplier window(String name, Duration retentionPeriod, Duration windowSize,
                                                   boolean retainDuplicates, boolean timestamped) {
        long retention = millis(retentionPeriod, "retentionPeriod");
        return new RocksffmWindowBytesStoreSupplier(name, retention, segmentInterval(retention),
                millis(windowSize, "windowSize"), retainDuplicates, timestamped);
    }

    /**
     * A persistent session store on rocksffm, segmented as Kafka's {@code Stores.persistentSessionStore}.
     *
     * @param name            the store's name
     * @param retentionPeriod how long sessions are kept after they end (at least the inactivity gap
     *                        plus the grace period)
     * @return its supplier
     * @throws IllegalArgumentException if the duration is negative or too large for milliseconds
     */
    public static SessionBytesStoreSupplier sessionStore(String name, Duration retentionPeriod) {
        return session(name, retentionPeriod, false);
    }

    private static RocksffmSessionBytesStoreSupplier session(String name, Duration retentionPeriod, boolean findsByEndTime) {
        long retention = millis(retentionPeriod, "retentionPeriod");
        return new RocksffmSessionBytesStoreSupplier(name, retention, segmentInterval(retention), findsByEndTime);
    }

    /**
     * A persistent session store with headers on rocksffm, the counterpart of Kafka's
     * {@code Stores.persistentSessionStoreWithHeaders} (aggregates in Kafka's headers format),
     * segmented as {@link #sessionStore}.
     *
     * @param name            the store's name
     * @param retentionPeriod how long sessions are kept after they end
     * @return its supplier (a {@code HeadersBytesStoreSupplier})
     * @throws IllegalArgumentException if the duration is negative or too large for milliseconds
     */
    public static SessionBytesStoreSupplier sessionStoreWithHeaders(String name, Duration retentionPeriod) {
        return new HeadersSuppliers.Session(session(name, retentionPeriod, false));
    }

    /** The session store of a session-windowed aggregation that emits on window close, with or without headers. */
    static SessionBytesStoreSupplier emitOnCloseSessionStore(String name, Duration retentionPeriod, boolean headers) {
        return headers ? sessionStoreWithHeaders(name, retentionPeriod) : session(name, retentionPeriod, true);
    }

    /**
     * A persistent versioned key-value store on rocksffm, for {@code Stores.versionedKeyValueStoreBuilder}
     * or {@code Materialized.as} (a versioned table), with Kafka's default segment interval for the
     * history retention.
     *
     * @param name             the store's name
     * @param historyRetention how far behind the stream time versions stay queryable (also the
     *                         grace period of late writes)
     * @return its supplier
     * @throws IllegalArgumentException if the duration is negative or too large for milliseconds
     */
    public static VersionedBytesStoreSupplier versionedKeyValueStore(String name, Duration historyRetention) {
        long retention = millis(historyRetention, "historyRetention");
        return new RocksffmVersionedBytesStoreSupplier(name, retention, versionedSegmentInterval(retention));
    }

    /** Kafka's default segment interval of versioned stores: a fraction of the history retention that grows with it. */
    static long versionedSegmentInterval(long historyRetention) {
        if (historyRetention <= 60_000L) {
            return Math.max(historyRetention / 3, 2_000L);
        } else if (historyRetention <= 300_000L) {
            return Math.max(historyRetention / 5, 20_000L);
        } else if (historyRetention <= 3_600_000L) {
            return Math.max(historyRetention / 12, 60_000L);
        }
        return Math.max(historyRetention / 24, 300_000L);
    }

    /** Kafka's default segment interval: half the retention period, at least a minute. */
    static long segmentInterval(long retentionPeriod) {
        return Math.max(retentionPeriod / 2, 60_000L);
    }

    private static long millis(Duration duration, String what) {
        if (duration == null) {
            throw new IllegalArgumentException(what + " cannot be null");
        }
        try {
            return duration.toMillis();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " is too large: " + duration, e);
        }
    }
}
