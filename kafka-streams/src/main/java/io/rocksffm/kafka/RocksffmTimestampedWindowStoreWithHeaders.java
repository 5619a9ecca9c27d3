package io.rocksffm.kafka;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * The headers variant of {@link RocksffmTimestampedWindowStore}: the same store, marked as holding
 * values in Kafka's headers format (the record's headers and timestamp before the value), so that
 * Kafka's headers-aware window store builders use it as it is and restore its changelog with the
 * headers. Supplied by {@link RocksffmStores#timestampedWindowStoreWithHeaders}.
 */
public class RocksffmTimestampedWindowStoreWithHeaders extends RocksffmTimestampedWindowStore
        implements HeadersBytesStore {
    /**
     * A store that opens its database in {@code init}.
     *
     * @param name             the store's name
     * @param retentionPeriod  how long windows are kept, in milliseconds, measured from their start
     * @param segmentInterval  the width of a segment, in milliseconds
     * @param windowSize       the windows' size, in milliseconds
     * @param retainDuplicates whether every put is kept rather than replacing the window's value
     */
    public RocksffmTimestampedWindowStoreWithHeaders(String name, long retentionPeriod, long segmentInterval,
                                                     long windowSize, boolean retainDuplicates) {
        super(name, retentionPeriod, segmentInterval, windowSize, retainDuplicates);
    }
}
