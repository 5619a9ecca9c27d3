package io.rocksffm.kafka;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * The timestamped variant of {@link RocksffmKeyValueStore}: the same store, marked as holding
 * values in Kafka's timestamped format (an 8-byte timestamp before the value), so that Kafka's
 * timestamped store builders use it as it is. Supplied by
 * {@link RocksffmStores#timestampedKeyValueStore(String)}.
 */
public class RocksffmTimestampedKeyValueStore extends RocksffmKeyValueStore implements TimestampedBytesStore {
    /**
     * A store that opens its database in {@code init}.
     *
     * @param name the store's name
     */
    public RocksffmTimestampedKeyValueStore(String name) {
        super(name);
    }
}
