package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.junit.jupiter.api.Test;

/** Which supplier the DSL gets for each store format: rocksffm's, or Kafka's where rocksffm has none. */
class RocksffmDslStoreSuppliersTest {
    private final RocksffmDslStoreSuppliers suppliers = new RocksffmDslStoreSuppliers();

    @Test
    void plainAndTimestampedKeyValueStoresAreRocksffmsHeadersStoresKafkas() {
        KeyValueBytesStoreSupplier plain = suppliers.keyValueStore(new DslKeyValueParams("plain", DslStoreFormat.PLAIN));
        KeyValueBytesStoreSupplier timestamped = suppliers.keyValueStore(new DslKeyValueParams("ts", DslStoreFormat.TIMESTAMPED));
        KeyValueBytesStoreSupplier headers = suppliers.keyValueStore(new DslKeyValueParams("h", DslStoreFormat.HEADERS));
        KeyValueBytesStoreSupplier kafkaHeaders = new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers()
                .keyValueStore(new DslKeyValueParams("h", DslStoreFormat.HEADERS));

        assertEquals("plain", plain.name());
        assertEquals(RocksffmKeyValueStore.class, plain.get().getClass());
        assertEquals(RocksffmTimestampedKeyValueStore.class, timestamped.get().getClass());
        assertEquals("rocksffm", timestamped.metricsScope());
        assertFalse(headers.get() instanceof RocksffmKeyValueStore);
        assertEquals(kafkaHeaders.get().getClass(), headers.get().getClass());
        assertTrue(new DslKeyValueParams("ts", true).isTimestamped());
        assertEquals(RocksffmTimestampedKeyValueStore.class,
                suppliers.keyValueStore(new DslKeyValueParams("ts", true)).get().getClass());
    }
}
