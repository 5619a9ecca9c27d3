package io.rocksffm.kafka.conformance;

import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.AbstractKeyValueStoreTest;

/**
 * Kafka's own key-value store conformance tests ({@code AbstractKeyValueStoreTest} from the
 * kafka-streams test jar, run by the {@code kafka-conformance} surefire execution on kafka-streams
 * 4.3.1) against a rocksffm store built as Kafka builds its own: wrapped by
 * {@code Stores.keyValueStoreBuilder} (metering, serdes) and initialised with the test's context.
 */
class RocksffmKeyValueStoreConformanceTest extends AbstractKeyValueStoreTest {
    @Override
    @SuppressWarnings("unchecked")
    protected <K, V> KeyValueStore<K, V> createKeyValueStore(StateStoreContext context) {
        StoreBuilder<KeyValueStore<K, V>> builder = Stores.keyValueStoreBuilder(
                RocksffmStores.keyValueStore("my-store"),
                (Serde<K>) context.keySerde(),
                (Serde<V>) context.valueSerde());
        KeyValueStore<K, V> store = builder.build();
        store.init(context, store);
        return store;
    }
}
