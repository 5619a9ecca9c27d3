package io.rocksffm.kafka;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * The timestamped variant of {@link RocksffmWindowStore}: the same store, marked as holding values
 * in Kafka's timestamped format (an 8-byte timestamp before the value), so that Kafka's timestamped
 * window store builders use it as it is. Supplied by {@link RocksffmStores#timestampedWindowStore}.
 */
public class RocksffmTimestampedWindowStore extends RocksffmWindowStore implements TimestampedBytesStore {
    /**
     * A store that opens its database in {@code init}.
     *
     * @param name             the store's name
     * @param retentionPeriod  how long windows are kept, in milliseconds, measured from their start
     * @param segmentInterval  the width of a segment, in milliseconds
     * @param windowSize       the windows' size, in milliseconds
     * @param retainDuplicates whether every put is kept rather than replacing the window's value
     */
    public RocksffmTimestampedWindowStore(String name, long retentionPeriod, long segmentInterval, long windowSize,
                                          boolean retainDuplicates) {
        super(name, retentionPeriod, segmentInterval, windowSize, retainDuplicates);
    }
}
