package io.rocksffm.kafka;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * The headers variant of {@link RocksffmSessionStore}: the same store, marked as holding
 * aggregates in Kafka's headers format (the headers before the aggregate, as Kafka's
 * {@code AggregationWithHeaders} serializes them), so that Kafka's headers-aware session store
 * builders use it as it is and restore its changelog with the headers. Like Kafka's session
 * store with headers, it also finds sessions by end time ({@link #findSessions(long, long)}).
 * Supplied by {@link RocksffmStores#sessionStoreWithHeaders}.
 */
public class RocksffmSessionStoreWithHeaders extends RocksffmSessionStore implements HeadersBytesStore {
    /**
     * A store that opens its database in {@code init}.
     *
     * @param name            the store's name
     * @param retentionPeriod how long sessions are kept, in milliseconds, measured from their end
     * @param segmentInterval the width of a segment, in milliseconds
     */
    public RocksffmSessionStoreWithHeaders(String name, long retentionPeriod, long segmentInterval) {
        super(name, retentionPeriod, segmentInterval, true);
    }
}
