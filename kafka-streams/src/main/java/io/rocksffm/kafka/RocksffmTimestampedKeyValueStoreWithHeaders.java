package io.rocksffm.kafka;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * The headers variant of {@link RocksffmTimestampedKeyValueStore}: the same store, marked as
 * holding values in Kafka's headers format (the record's headers and timestamp before the value,
 * as Kafka's {@code ValueTimestampHeaders} serializes them), so that Kafka's headers-aware store
 * builders use it as it is and restore its changelog with the headers. Supplied by
 * {@link RocksffmStores#timestampedKeyValueStoreWithHeaders(String)}.
 */
public class RocksffmTimestampedKeyValueStoreWithHeaders extends RocksffmTimestampedKeyValueStore
        implements HeadersBytesStore {
    /**
     * A store that opens its database in {@code init}.
     *
     * @param name the store's name
     */
    public RocksffmTimestampedKeyValueStoreWithHeaders(String name) {
        super(name);
    }
}
