package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

/**
 * The rocksffm versioned store and Kafka's own ({@code Stores.persistentVersionedKeyValueStore}, on
 * the same engine in this process) given the same random versioned operations: puts and deletes at
 * timestamps that mostly advance but also go back (into and beyond the history retention), with
 * every answer compared: what each put returns (until when the version is valid, or that it was
 * not put), what each delete returns, the latest value and the value as of times around the
 * stream time, after every step.
 */
class VersionedStoreComparisonTest {
    @TempDir
    Path dir;

    private static Bytes key(Random random) {
        byte[] k = new byte[1 + random.nextInt(2)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (random.nextInt(4) * 85); // includes 0x00 and 0xFF; keys that prefix others
        }
        return Bytes.wrap(k);
    }

    private static byte[] value(Random random) {
        byte[] v = new byte[1 + random.nextInt(4)];
        random.nextBytes(v);
        return v;
    }

    /** A processor that does nothing: the stores hang off it. */
    private static final class NoOp implements Processor<Object, Object, Object, Object> {
        @Override
        public void process(Record<Object, Object> record) {
        }
    }

    /** The two stores, in one topology run by a {@link TopologyTestDriver} (Kafka's store needs a task's context). */
    private static TopologyTestDriver driver(Path stateDir, long retention, long segmentInterval) {
        Topology topology = new Topology();
        topology.addSource("in", "in");
        topology.addProcessor("noop", NoOp::new, "in");
        topology.addStateStore(Stores.versionedKeyValueStoreBuilder(
                new RocksffmVersionedBytesStoreSupplier("ours", retention, segmentInterval),
                Serdes.Bytes(), Serdes.ByteArray()), "noop");
        topology.addStateStore(Stores.versionedKeyValueStoreBuilder(
                Stores.persistentVersionedKeyValueStore("kafka", Duration.ofMillis(retention), Duration.ofMillis(segmentInterval)),
                Serdes.Bytes(), Serdes.ByteArray()), "noop");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "versioned");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        return new TopologyTestDriver(topology, props);
    }

    private static String show(VersionedRecord<byte[]> record) {
        return record == null ? "null" : Bytes.wrap(record.value()) + "@" + record.timestamp();
    }

    @ParameterizedTest(name = "history retention {0} ms, segments of {1} ms")
    @CsvSource({"1000, 100", "1000, 2000", "50, 20"})
    void sameAnswersAsKafkasVersionedStoreUnderRandomOperations(long retention, long segmentInterval) {
        try (TopologyTestDriver driver = driver(dir, retention, segmentInterval)) {
            VersionedKeyValueStore<Bytes, byte[]> ours = driver.getVersionedKeyValueStore("ours");
            VersionedKeyValueStore<Bytes, byte[]> kafka = driver.getVersionedKeyValueStore("kafka");
            assertTrue(TopologyTest.innermost(ours) instanceof RocksffmVersionedStore, TopologyTest.innermost(ours).getClass().getName());
            Random random = new Random(44 + retention + segmentInterval);
            long time = 2 * retention; // timestamps are never negative in Kafka
            int notPut = 0;
            int older = 0;
            for (int step = 0; step < 800; step++) {
                Bytes k = key(random);
                long ts = Math.max(0, random.nextInt(4) == 0 ? time - random.nextInt((int) (retention * 3 / 2) + 1)
                        : time + random.nextInt(20));
                time = Math.max(time, ts);
                if (random.nextInt(6) == 0) {
                    assertEquals(show(kafka.delete(k, ts)), show(ours.delete(k, ts)), step + " delete " + k + " at " + ts);
                } else {
                    byte[] v = value(random);
                    long expected = kafka.put(k, v, ts);
                    assertEquals(expected, ours.put(k, v, ts), step + " put " + k + " at " + ts);
                    notPut += expected == VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT ? 1 : 0;
                    older += expected >= 0 ? 1 : 0;
                }
                for (int i = 0; i < 4; i++) {
                    Bytes q = key(random);
                    assertEquals(show(kafka.get(q)), show(ours.get(q)), step + " get " + q);
                    long asOf = Math.max(0, time - random.nextInt((int) (retention * 3 / 2) + 2));
                    assertEquals(show(kafka.get(q, asOf)), show(ours.get(q, asOf)), step + " get " + q + " as of " + asOf);
                }
            }
            // The random walk reached every case: late puts refused, and puts into the history.
            assertTrue(notPut > 10 && older > 10, notPut + " not put, " + older + " into the history");
        }
    }

    @Test
    void keyValueMethodsAreUnsupportedAsInKafkasVersionedStores() {
        VersionedBytesStore ours = (VersionedBytesStore) RocksffmStores.versionedKeyValueStore("v", Duration.ofMinutes(1)).get();
        ours.init(new TestContext(dir.toFile(), Map.of()), ours);
        try {
            assertThrows(UnsupportedOperationException.class, () -> ours.put(Bytes.wrap(new byte[] {1}), new byte[] {1}));
            assertThrows(UnsupportedOperationException.class, () -> ours.all());
            assertThrows(UnsupportedOperationException.class, () -> ours.delete(Bytes.wrap(new byte[] {1})));
        } finally {
            ours.close();
        }
    }
}
