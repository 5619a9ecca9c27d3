package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

/** Which supplier the DSL gets for each store format and emit strategy: rocksffm's, each time. */
class RocksffmDslStoreSuppliersTest {
    private final RocksffmDslStoreSuppliers suppliers = new RocksffmDslStoreSuppliers();

    @Test
    void everyKeyValueStoreFormatIsRocksffms() {
        KeyValueBytesStoreSupplier plain = suppliers.keyValueStore(new DslKeyValueParams("plain", DslStoreFormat.PLAIN));
        KeyValueBytesStoreSupplier timestamped = suppliers.keyValueStore(new DslKeyValueParams("ts", DslStoreFormat.TIMESTAMPED));
        KeyValueBytesStoreSupplier headers = suppliers.keyValueStore(new DslKeyValueParams("h", DslStoreFormat.HEADERS));
        KeyValueBytesStoreSupplier kafkaHeaders = new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers()
                .keyValueStore(new DslKeyValueParams("h", DslStoreFormat.HEADERS));

        assertEquals("plain", plain.name());
        assertEquals(RocksffmKeyValueStore.class, plain.get().getClass());
        assertEquals(RocksffmTimestampedKeyValueStore.class, timestamped.get().getClass());
        assertEquals("rocksffm", timestamped.metricsScope());
        assertEquals(RocksffmTimestampedKeyValueStoreWithHeaders.class, headers.get().getClass());
        assertEquals("h", headers.name());
        // Kafka's DSL picks its headers-aware builder by this marker, as it does for its own headers supplier.
        assertTrue(headers instanceof HeadersBytesStoreSupplier);
        assertTrue(kafkaHeaders instanceof HeadersBytesStoreSupplier);
        assertFalse(timestamped instanceof HeadersBytesStoreSupplier);
        assertTrue(new DslKeyValueParams("ts", true).isTimestamped());
        assertEquals(RocksffmTimestampedKeyValueStore.class,
                suppliers.keyValueStore(new DslKeyValueParams("ts", true)).get().getClass());
    }

    @Test
    void everyWindowStoreIsRocksffmsInEveryFormatAndEmitStrategy() {
        Duration retention = Duration.ofMinutes(10);
        Duration size = Duration.ofMinutes(1);
        WindowBytesStoreSupplier plain = suppliers.windowStore(new DslWindowParams("w", retention, size, false,
                EmitStrategy.onWindowUpdate(), false, DslStoreFormat.PLAIN));
        WindowBytesStoreSupplier timestamped = suppliers.windowStore(new DslWindowParams("wt", retention, size, true,
                EmitStrategy.onWindowUpdate(), false, DslStoreFormat.TIMESTAMPED));
        WindowBytesStoreSupplier unnamed = suppliers.windowStore(new DslWindowParams("wn", retention, size, false,
                EmitStrategy.onWindowUpdate(), false, (DslStoreFormat) null));
        WindowBytesStoreSupplier headers = suppliers.windowStore(new DslWindowParams("wh", retention, size, false,
                EmitStrategy.onWindowUpdate(), false, DslStoreFormat.HEADERS));
        WindowBytesStoreSupplier onClose = suppliers.windowStore(new DslWindowParams("wc", retention, size, false,
                EmitStrategy.onWindowClose(), false, DslStoreFormat.TIMESTAMPED));

        assertEquals(RocksffmWindowStore.class, plain.get().getClass());
        assertEquals(RocksffmTimestampedWindowStore.class, timestamped.get().getClass());
        assertEquals(RocksffmTimestampedWindowStore.class, unnamed.get().getClass());
        assertEquals("w", plain.name());
        assertEquals(retention.toMillis(), plain.retentionPeriod());
        assertEquals(size.toMillis(), plain.windowSize());
        assertTrue(timestamped.retainDuplicates());
        // Kafka's own segment interval for these settings
        assertEquals(Stores.persistentWindowStore("k", retention, size, false).segmentIntervalMs(), plain.segmentIntervalMs());
        assertEquals(RocksffmTimestampedWindowStoreWithHeaders.class, headers.get().getClass());
        assertTrue(headers instanceof HeadersBytesStoreSupplier);
        assertEquals(List.of("wh", retention.toMillis(), size.toMillis(), false, plain.segmentIntervalMs()),
                List.of(headers.name(), headers.retentionPeriod(), headers.windowSize(), headers.retainDuplicates(),
                        headers.segmentIntervalMs()));
        assertEquals(RocksffmTimestampedWindowStore.class, onClose.get().getClass());
        WindowBytesStoreSupplier headersOnClose = suppliers.windowStore(new DslWindowParams("whc", retention, size, false,
                EmitStrategy.onWindowClose(), true, DslStoreFormat.HEADERS));
        assertEquals(RocksffmTimestampedWindowStoreWithHeaders.class, headersOnClose.get().getClass());
    }

    @Test
    void everySessionStoreIsRocksffmsInEveryFormatAndEmitStrategy() {
        Duration retention = Duration.ofMinutes(10);
        SessionBytesStoreSupplier plain = suppliers.sessionStore(new DslSessionParams("s", retention,
                EmitStrategy.onWindowUpdate()));
        SessionBytesStoreSupplier headers = suppliers.sessionStore(new DslSessionParams("sh", retention,
                EmitStrategy.onWindowUpdate(), DslStoreFormat.HEADERS));
        SessionBytesStoreSupplier onClose = suppliers.sessionStore(new DslSessionParams("sc", retention,
                EmitStrategy.onWindowClose()));

        assertEquals(RocksffmSessionStore.class, plain.get().getClass());
        assertEquals("s", plain.name());
        assertEquals(retention.toMillis(), plain.retentionPeriod());
        assertEquals(Stores.persistentSessionStore("k", retention).segmentIntervalMs(), plain.segmentIntervalMs());
        assertEquals(RocksffmSessionStoreWithHeaders.class, headers.get().getClass());
        assertTrue(headers instanceof HeadersBytesStoreSupplier);
        assertEquals(List.of("sh", retention.toMillis(), plain.segmentIntervalMs()),
                List.of(headers.name(), headers.retentionPeriod(), headers.segmentIntervalMs()));
        assertEquals(RocksffmSessionStore.class, onClose.get().getClass());
        SessionBytesStoreSupplier headersOnClose = suppliers.sessionStore(new DslSessionParams("shc", retention,
                EmitStrategy.onWindowClose(), DslStoreFormat.HEADERS));
        assertEquals(RocksffmSessionStoreWithHeaders.class, headersOnClose.get().getClass());
    }

    @Test
    void windowSuppliersRejectWhatKafkasReject() {
        assertThrows(IllegalArgumentException.class,
                () -> RocksffmStores.windowStore("w", Duration.ofMillis(5), Duration.ofMillis(10), false));
        assertThrows(IllegalArgumentException.class,
                () -> RocksffmStores.windowStore("w", Duration.ofMillis(-1), Duration.ofMillis(0), false));
        assertThrows(IllegalArgumentException.class,
                () -> RocksffmStores.sessionStore("s", Duration.ofMillis(-1)));
        assertThrows(NullPointerException.class,
                () -> RocksffmStores.sessionStore(null, Duration.ofMillis(1)));
    }
}
