package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ObjIntConsumer;
import java.util.function.Predicate;
import java.util.function.Function;

/**
 * Kafka's RocksDB metrics on rocksffm's store: the same metric names, group, tags (but the
 * store's own scope) and recording levels as on Kafka's RocksDB store in the same metrics
 * registry, and values that move as the store works: the statistics-based ones through Kafka's
 * recording trigger, the property-based ones when read, also through a TopologyTestDriver's
 * metrics.
 */
class RocksffmMetricsTest {
    private static final String GROUP = "stream-state-metrics";

    @TempDir
    Path dir;

    private static Bytes key(int k) {
        return Bytes.wrap(ByteBuffer.allocate(8).putLong(k).array());
    }

    /** The store's RocksDB metrics: name to value, for the stores whose tag is {@code <scope>-state-id}. */
    private static Map<String, Object> metrics(Map<MetricName, ? extends Metric> all, String scope, String store) {
        Map<String, Object> out = new TreeMap<>();
        all.forEach((name, metric) -> {
            if (name.group().equals(GROUP) && store.equals(name.tags().get(scope + "-state-id"))) {
                out.put(name.name(), metric.metricValue());
            }
        });
        return out;
    }

    private static double number(Map<String, Object> metrics, String name) {
        Object v = metrics.get(name);
        return v instanceof BigInteger b ? b.doubleValue() : ((Number) v).doubleValue();
    }

    @Test
    void theSameMetricsAsKafkasRocksDbStoreAndTheyMove() {
        TestContext context = new TestContext(dir.toFile(), Map.of(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, "DEBUG"));
        StreamsMetricsImpl registry = (StreamsMetricsImpl) context.metrics();
        // Kafka's store metrics (put-rate, ...) come from the store builders' metering layer: here only the RocksDB ones.
        KeyValueStore<Bytes, byte[]> ours = RocksffmStores.keyValueStore("ours").get();
        KeyValueStore<Bytes, byte[]> kafkas = Stores.persistentKeyValueStore("kafkas").get();
        ours.init(context, ours);
        kafkas.init(context, kafkas);
        try {
            Map<String, Object> before = metrics(registry.metrics(), "rocksffm", "ours");
            Map<String, Object> kafka = metrics(registry.metrics(), "rocksdb", "kafkas");
            assertEquals(new TreeSet<>(kafka.keySet()), new TreeSet<>(before.keySet()));
            assertTrue(before.keySet().containsAll(Set.of("bytes-written-rate", "bytes-written-total", "bytes-read-rate",
                    "memtable-hit-ratio", "block-cache-data-hit-ratio", "compaction-time-avg", "memtable-flush-time-max",
                    "number-open-files", "estimate-num-keys", "block-cache-usage", "estimate-pending-compaction-bytes",
                    "cur-size-all-mem-tables")), before.keySet().toString());
            for (MetricName name : registry.metrics().keySet()) {
                if (name.group().equals(GROUP) && "ours".equals(name.tags().get("rocksffm-state-id"))) {
                    MetricName theirs = registry.metrics().keySet().stream().filter(sameMetric(name)).findFirst().orElseThrow();
                    assertEquals(theirs.description(), name.description(), name.name());
                    assertEquals(theirs.tags().keySet().size(), name.tags().size(), name.name());
                }
            }
            for (int round = 0; round < 3; round++) {
                for (KeyValueStore<Bytes, byte[]> store : List.of(ours, kafkas)) {
                    for (int k = 0; k < 20_000; k++) {
                        store.put(key(k * 3 + round), new byte[64]);
                    }
                    for (int k = 0; k < 20_000; k += 7) {
                        store.get(key(k));
                    }
                    store.commit(Map.of());
                }
            }
            registry.rocksDBMetricsRecordingTrigger().run();
            Map<String, Object> after = metrics(registry.metrics(), "rocksffm", "ours");
            Map<String, Object> kafkaAfter = metrics(registry.metrics(), "rocksdb", "kafkas");
            System.out.println("rocksffm: " + after);
            System.out.println("kafka:    " + kafkaAfter);
            assertTrue(number(after, "bytes-written-total") > 60_000 * 64, after.toString());
            assertTrue(number(after, "bytes-written-rate") > 0);
            assertTrue(number(after, "bytes-read-total") > 0);
            assertTrue(number(after, "memtable-hit-ratio") > 0);
            assertTrue(number(after, "estimate-num-keys") > 30_000);
            assertTrue(number(after, "cur-size-all-mem-tables") > 0);
            assertEquals(50L << 20, number(after, "block-cache-capacity"));
            assertEquals(-1, number(after, "number-open-files"));
            // Both stores saw the same work: their counters agree within RocksDB's bookkeeping.
            double ratio = number(after, "bytes-written-total") / number(kafkaAfter, "bytes-written-total");
            assertTrue(ratio > 0.5 && ratio < 2, "bytes written, rocksffm / Kafka: " + ratio);
        } finally {
            ours.close();
            kafkas.close();
        }
        // Closed: the gauges read nothing more from the database; opened again, the same gauges read the new one.
        assertEquals(0.0, number(metrics(registry.metrics(), "rocksffm", "ours"), "estimate-num-keys"));
        ours.init(context, ours);
        try {
            assertTrue(number(metrics(registry.metrics(), "rocksffm", "ours"), "estimate-num-keys") > 30_000);
            registry.rocksDBMetricsRecordingTrigger().run();
        } finally {
            ours.close();
        }
    }

    /** A store kind: builders of rocksffm's and Kafka's store of that kind, their metrics scopes, and a write of record {@code k}. */
    private enum Kind {
        WINDOW("rocksffm-window", "rocksdb-window",
                name -> Stores.windowStoreBuilder(name.equals("ours")
                        ? RocksffmStores.windowStore(name, Duration.ofHours(1), Duration.ofMinutes(1), false)
                        : Stores.persistentWindowStore(name, Duration.ofHours(1), Duration.ofMinutes(1), false),
                        Serdes.Integer(), Serdes.ByteArray()),
                (store, k) -> ((WindowStore<Integer, byte[]>) store).put(k, new byte[64], (k % 50) * 60_000L)),
        SESSION("rocksffm-session", "rocksdb-session",
                name -> Stores.sessionStoreBuilder(name.equals("ours")
                        ? RocksffmStores.sessionStore(name, Duration.ofHours(1))
                        : Stores.persistentSessionStore(name, Duration.ofHours(1)), Serdes.Integer(), Serdes.ByteArray()),
                (store, k) -> ((SessionStore<Integer, byte[]>) store).put(
                        new Windowed<>(k, new SessionWindow((k % 50) * 60_000L, (k % 50) * 60_000L + 10)), new byte[64])),
        VERSIONED("rocksffm", "rocksdb",
                name -> Stores.versionedKeyValueStoreBuilder(name.equals("ours")
                        ? RocksffmStores.versionedKeyValueStore(name, Duration.ofHours(1))
                        : Stores.persistentVersionedKeyValueStore(name, Duration.ofHours(1)), Serdes.Integer(), Serdes.ByteArray()),
                (store, k) -> ((VersionedKeyValueStore<Integer, byte[]>) store).put(k, new byte[64], k % 50));

        final String ourScope;
        final String kafkaScope;
        final Function<String, StoreBuilder<?>> builder;
        final ObjIntConsumer<StateStore> write;

        Kind(String ourScope, String kafkaScope, Function<String, StoreBuilder<?>> builder, ObjIntConsumer<StateStore> write) {
            this.ourScope = ourScope;
            this.kafkaScope = kafkaScope;
            this.builder = builder;
            this.write = write;
        }
    }

    /** Writes each record's key (an int) to both stores. */
    private record WriteBoth(Kind kind) implements Processor<Integer, Integer, Void, Void> {
        private static final ThreadLocal<ProcessorContext<Void, Void>> CONTEXT = new ThreadLocal<>();

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            CONTEXT.set(context);
        }

        @Override
        public void process(Record<Integer, Integer> record) {
            kind.write.accept(CONTEXT.get().getStateStore("ours"), record.key());
            kind.write.accept(CONTEXT.get().getStateStore("kafkas"), record.key());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void windowSessionAndVersionedStoresHaveTheMetricsOfKafkasStoreOfTheirKind(Kind kind) {
        Topology topology = new Topology();
        topology.addSource("in", Serdes.Integer().deserializer(), Serdes.Integer().deserializer(), "in");
        topology.addProcessor("write", () -> new WriteBoth(kind), "in");
        for (String name : List.of("ours", "kafkas")) {
            topology.addStateStore(kind.builder.apply(name).withLoggingDisabled(), "write");
        }
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "metrics-" + kind);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        props.put(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, "DEBUG");
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, props)) {
            TestInputTopic<Integer, Integer> in = driver.createInputTopic("in", Serdes.Integer().serializer(),
                    Serdes.Integer().serializer());
            // Both add their RocksDB metrics when their database (Kafka's: its first segment) opens.
            for (int k = 0; k < 5_000; k++) {
                in.pipeInput(k, k);
            }
            Map<String, Object> ours = metrics(driver.metrics(), kind.ourScope, "ours");
            Map<String, Object> kafkas = metrics(driver.metrics(), kind.kafkaScope, "kafkas");
            System.out.println(kind + " rocksffm: " + ours);
            System.out.println(kind + " kafka:    " + kafkas);
            assertTrue(kafkas.keySet().containsAll(Set.of("bytes-written-total", "memtable-hit-ratio", "estimate-num-keys",
                    "block-cache-usage", "put-rate")), kafkas.keySet().toString());
            assertEquals(new TreeSet<>(kafkas.keySet()), new TreeSet<>(ours.keySet()));
            for (MetricName name : driver.metrics().keySet()) {
                if (name.group().equals(GROUP) && "ours".equals(name.tags().get(kind.ourScope + "-state-id"))) {
                    MetricName theirs = driver.metrics().keySet().stream()
                            .filter(m -> m.group().equals(GROUP) && m.name().equals(name.name())
                                    && "kafkas".equals(m.tags().get(kind.kafkaScope + "-state-id")))
                            .findFirst().orElseThrow();
                    assertEquals(theirs.description(), name.description(), name.name());
                    assertEquals(theirs.tags().keySet().size(), name.tags().size(), name.name());
                }
            }
            assertTrue(number(ours, "estimate-num-keys") > 0, ours.toString());
            assertTrue(number(ours, "cur-size-all-mem-tables") > 0, ours.toString());
            assertEquals(number(kafkas, "block-cache-capacity") > 0, number(ours, "block-cache-capacity") > 0);
        }
    }

    private static Predicate<MetricName> sameMetric(MetricName ours) {
        return theirs -> theirs.group().equals(GROUP) && theirs.name().equals(ours.name())
                && "kafkas".equals(theirs.tags().get("rocksdb-state-id"));
    }

    @Test
    void aTopologyTestDriverReportsTheStoresRocksDbMetrics() {
        var builder = new org.apache.kafka.streams.StreamsBuilder();
        builder.stream("words", org.apache.kafka.streams.kstream.Consumed.with(Serdes.String(), Serdes.String()))
                .groupBy((k, word) -> word, org.apache.kafka.streams.kstream.Grouped.with(Serdes.String(), Serdes.String()))
                .count(org.apache.kafka.streams.kstream.Materialized.as("counts"));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "metrics");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, String> words = driver.createInputTopic("words", Serdes.String().serializer(),
                    Serdes.String().serializer());
            for (int i = 0; i < 2_000; i++) {
                words.pipeInput("word" + i);
            }
            Map<String, Object> metrics = metrics(driver.metrics(), "rocksffm", "counts");
            System.out.println("TopologyTestDriver, INFO level: " + metrics);
            assertTrue(number(metrics, "estimate-num-keys") >= 1_000, metrics.toString());
            assertTrue(number(metrics, "cur-size-all-mem-tables") > 0);
            assertTrue(number(metrics, "block-cache-capacity") > 0);
        }
    }
}
