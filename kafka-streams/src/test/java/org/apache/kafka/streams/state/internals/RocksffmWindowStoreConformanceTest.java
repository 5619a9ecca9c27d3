package org.apache.kafka.streams.state.internals;

import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;

import java.time.Duration;

/**
 * Kafka's own window store conformance tests ({@code AbstractWindowBytesStoreTest} from the
 * kafka-streams test jar, run by the {@code kafka-conformance} surefire execution on kafka-streams
 * 4.3.1) against a rocksffm window store built as Kafka builds its own: wrapped by
 * {@code Stores.windowStoreBuilder} (change logging, metering, serdes). In Kafka's package because
 * the test's store factory is package-private.
 */
class RocksffmWindowStoreConformanceTest extends AbstractWindowBytesStoreTest {
    @Override
    <K, V> WindowStore<K, V> buildWindowStore(long retentionPeriod, long windowSize, boolean retainDuplicates,
                                              Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.windowStoreBuilder(
                RocksffmStores.windowStore("rocksffm-window", Duration.ofMillis(retentionPeriod),
                        Duration.ofMillis(windowSize), retainDuplicates),
                keySerde, valueSerde).build();
    }
}
