package io.rocksffm.kafka.conformance;

import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.AbstractKeyValueStoreTest;

/**
 * Kafka's key-value store conformance tests ({@code AbstractKeyValueStoreTest}, kafka-streams
 * 4.3.1's test jar) against rocksffm's timestamped key-value store with headers, built as
 * {@link RocksffmKeyValueStoreConformanceTest} builds the plain one.
 */
class RocksffmKeyValueStoreWithHeadersConformanceTest extends AbstractKeyValueStoreTest {
    @Override
    @SuppressWarnings("unchecked")
    protected <K, V> KeyValueStore<K, V> createKeyValueStore(StateStoreContext context) {
        KeyValueStore<K, V> store = Stores.keyValueStoreBuilder(
                RocksffmStores.timestampedKeyValueStoreWithHeaders("my-store"),
                (Serde<K>) context.keySerde(),
                (Serde<V>) context.valueSerde()).build();
        store.init(context, store);
        return store;
    }
}
