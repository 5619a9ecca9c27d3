package org.apache.kafka.streams.state.internals;

import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;

import java.time.Duration;

/**
 * Kafka's session store conformance tests ({@code AbstractSessionBytesStoreTest}, kafka-streams
 * 4.3.1's test jar) against rocksffm's session store with headers, answering the type of Kafka's
 * own persistent session store with headers.
 */
class RocksffmSessionStoreWithHeadersConformanceTest extends AbstractSessionBytesStoreTest {
    @Override
    StoreType storeType() {
        return StoreType.RocksDBSessionStoreWithHeaders;
    }

    @Override
    <K, V> SessionStore<K, V> buildSessionStore(long retentionPeriod, Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.sessionStoreBuilder(
                RocksffmStores.sessionStoreWithHeaders("rocksffm-session", Duration.ofMillis(retentionPeriod)),
                keySerde, valueSerde).build();
    }
}
