package org.apache.kafka.streams.state.internals;

import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;

import java.time.Duration;

/**
 * Kafka's own session store conformance tests ({@code AbstractSessionBytesStoreTest} from the
 * kafka-streams test jar, run by the {@code kafka-conformance} surefire execution on kafka-streams
 * 4.3.1) against a rocksffm session store built as Kafka builds its own: wrapped by
 * {@code Stores.sessionStoreBuilder}. The test builds its store in a package-private method chosen
 * by a store type; this class overrides that method and answers the type of Kafka's own persistent
 * session store (key-ordered, segmented), whose expectations rocksffm's store meets.
 */
class RocksffmSessionStoreConformanceTest extends AbstractSessionBytesStoreTest {
    @Override
    StoreType storeType() {
        return StoreType.RocksDBSessionStore;
    }

    @Override
    <K, V> SessionStore<K, V> buildSessionStore(long retentionPeriod, Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.sessionStoreBuilder(
                RocksffmStores.sessionStore("rocksffm-session", Duration.ofMillis(retentionPeriod)),
                keySerde, valueSerde).build();
    }
}
