package org.apache.kafka.streams.state.internals;

import io.rocksffm.kafka.RocksffmDslStoreSuppliers;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;

import java.time.Duration;

/**
 * Kafka's session store conformance tests ({@code AbstractSessionBytesStoreTest}, kafka-streams
 * 4.3.1's test jar) against the session store rocksffm's DSL suppliers give a session-windowed
 * aggregation that emits on window close, answering the type of the store Kafka gives it (its
 * time-ordered session store with an index): that type's tests also search sessions by end time
 * and expect them in Kafka's time order.
 */
class RocksffmEmitOnCloseSessionStoreConformanceTest extends AbstractSessionBytesStoreTest {
    @Override
    StoreType storeType() {
        return StoreType.RocksDBTimeOrderedSessionStoreWithIndex;
    }

    @Override
    <K, V> SessionStore<K, V> buildSessionStore(long retentionPeriod, Serde<K> keySerde, Serde<V> valueSerde) {
        return Stores.sessionStoreBuilder(
                new RocksffmDslStoreSuppliers().sessionStore(new DslSessionParams("rocksffm-session",
                        Duration.ofMillis(retentionPeriod), EmitStrategy.onWindowClose())),
                keySerde, valueSerde).build();
    }
}
