package org.apache.kafka.streams.state.internals;

import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

import java.time.Duration;

/**
 * Kafka's window store conformance tests ({@code AbstractWindowBytesStoreTest}, kafka-streams
 * 4.3.1's test jar) against rocksffm's timestamped window store with headers.
 */
class RocksffmWindowStoreWithHeadersConformanceTest extends AbstractWindowBytesStoreTest {
    @Override
    <K, V> WindowStore<K, V> buildWindowStore(long retentionPeriod, long windowSize, boolean retainDuplicates,
                                              Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.windowStoreBuilder(
                RocksffmStores.timestampedWindowStoreWithHeaders("rocksffm-window", Duration.ofMillis(retentionPeriod),
                        Duration.ofMillis(windowSize), retainDuplicates),
                keySerde, valueSerde).build();
    }
}
