package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.SlidingWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.Suppressed;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every kind of store the DSL makes, in both store formats (the default, and
 * {@code dsl.store.format=headers}), on rocksffm through {@link RocksffmDslStoreSuppliers} and on
 * Kafka's own RocksDB stores, run by {@code TopologyTestDriver} on the same input (records with
 * headers, time mostly forward with jumps and late records): a count and a table (key-value), a
 * windowed count emitted on update and through {@code suppress}, a windowed count, a sliding-window
 * count and a session aggregate that emit on window close, a session aggregate and a sliding-window
 * count on update and a stream-stream join. The outputs are compared record by record (headers included), and on
 * rocksffm every persistent store is checked to be rocksffm's own, in the format asked, with no
 * Kafka RocksDB store behind any wrapper and no Kafka RocksDB directory in the state directory.
 */
class DslStoreKindsTopologyTest {
    private static final String APP = "store-kinds";
    /** The output topics; the one of the windowed count on window close is compared key by key, see below. */
    private static final List<String> OUTPUTS = List.of("counts-out", "table-out", "windowed-out", "suppressed-out",
            "closed-windows-out", "sessions-out", "closed-sessions-out", "sliding-out", "closed-sliding-out", "joined-out");
    /** The outputs of windowed aggregations that emit on window close, compared key by key (see below). */
    private static final List<String> CLOSED_WINDOWS = List.of("closed-windows-out", "closed-sliding-out");

    @TempDir
    Path dir;

    static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> clicks = builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()));
        KGroupedStream<String, String> byKey = clicks.groupByKey();
        byKey.count(Materialized.as("counts")).toStream()
                .to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        builder.table("prices", Consumed.with(Serdes.String(), Serdes.String()), Materialized.as("prices")).toStream()
                .to("table-out", Produced.with(Serdes.String(), Serdes.String()));
        TimeWindows tumbling = TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(3));
        byKey.windowedBy(tumbling).count(Materialized.as("windowed")).toStream(DslStoreKindsTopologyTest::name)
                .to("windowed-out", Produced.with(Serdes.String(), Serdes.Long()));
        byKey.windowedBy(tumbling).count(Materialized.as("suppressed"))
                .suppress(Suppressed.untilWindowCloses(Suppressed.BufferConfig.unbounded()))
                .toStream(DslStoreKindsTopologyTest::name)
                .to("suppressed-out", Produced.with(Serdes.String(), Serdes.Long()));
        byKey.windowedBy(tumbling).emitStrategy(EmitStrategy.onWindowClose()).count(Materialized.as("closed-windows"))
                .toStream(DslStoreKindsTopologyTest::name)
                .to("closed-windows-out", Produced.with(Serdes.String(), Serdes.Long()));
        SessionWindows sessions = SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(3), Duration.ofSeconds(2));
        byKey.windowedBy(sessions)
                .aggregate(() -> "", (key, value, agg) -> agg + value, (key, left, right) -> left + "+" + right,
                        Materialized.as("sessions"))
                .toStream(DslStoreKindsTopologyTest::name)
                .to("sessions-out", Produced.with(Serdes.String(), Serdes.String()));
        byKey.windowedBy(sessions).emitStrategy(EmitStrategy.onWindowClose())
                .aggregate(() -> "", (key, value, agg) -> agg + value, (key, left, right) -> left + "+" + right,
                        Materialized.as("closed-sessions"))
                .toStream(DslStoreKindsTopologyTest::name)
                .to("closed-sessions-out", Produced.with(Serdes.String(), Serdes.String()));
        SlidingWindows sliding = SlidingWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(4), Duration.ofSeconds(2));
        byKey.windowedBy(sliding).count(Materialized.as("sliding")).toStream(DslStoreKindsTopologyTest::name)
                .to("sliding-out", Produced.with(Serdes.String(), Serdes.Long()));
        byKey.windowedBy(sliding).emitStrategy(EmitStrategy.onWindowClose()).count(Materialized.as("closed-sliding"))
                .toStream(DslStoreKindsTopologyTest::name)
                .to("closed-sliding-out", Produced.with(Serdes.String(), Serdes.Long()));
        clicks.join(builder.stream("views", Consumed.with(Serdes.String(), Serdes.String())),
                        (click, view) -> click + "/" + view,
                        JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(2), Duration.ofSeconds(1)),
                        StreamJoined.as("joined"))
                .to("joined-out", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    private static String name(Windowed<String> window, Object value) {
        return window.key() + "@" + window.window().start() + "-" + window.window().end();
    }

    private static Properties props(Path stateDir, boolean rocksffm, boolean headers) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        // Emit closed windows at every record, not once a second of wall-clock time (which the driver's clock never reaches).
        props.put(StreamsConfig.InternalConfig.EMIT_INTERVAL_MS_KSTREAMS_WINDOWED_AGGREGATION, 0L);
        if (headers) {
            props.put(StreamsConfig.DSL_STORE_FORMAT_CONFIG, StreamsConfig.DSL_STORE_FORMAT_HEADERS);
        }
        if (rocksffm) {
            props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
        }
        return props;
    }

    private Map<String, List<TestRecord<String, String>>> run(boolean rocksffm, boolean headers) {
        Path stateDir = dir.resolve(rocksffm ? "rocksffm" : "kafka");
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(), props(stateDir, rocksffm, headers))) {
            TestInputTopic<String, String> clicks = driver.createInputTopic("clicks", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestInputTopic<String, String> views = driver.createInputTopic("views", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestInputTopic<String, String> prices = driver.createInputTopic("prices", Serdes.String().serializer(),
                    Serdes.String().serializer());
            Random random = new Random(44);
            long time = 0;
            for (int i = 0; i < 600; i++) {
                // Mostly forward in small steps, now and then a jump past several windows, now and then late.
                time += random.nextInt(30) == 0 ? 25_000 + random.nextInt(20_000) : random.nextInt(600);
                long ts = random.nextInt(8) == 0 ? Math.max(0, time - random.nextInt(15_000)) : time;
                RecordHeaders recordHeaders = new RecordHeaders();
                recordHeaders.add("source", ("s" + random.nextInt(3)).getBytes());
                if (random.nextBoolean()) {
                    recordHeaders.add("trace", Integer.toString(i).getBytes());
                }
                String key = "k" + random.nextInt(7);
                Instant at = Instant.ofEpochMilli(ts);
                switch (random.nextInt(4)) {
                    case 0, 1 -> clicks.pipeInput(new TestRecord<>(key, Character.toString('a' + random.nextInt(26)),
                            recordHeaders, at));
                    case 2 -> views.pipeInput(new TestRecord<>(key, "v" + i, recordHeaders, at));
                    default -> prices.pipeInput(new TestRecord<>(key, random.nextInt(15) == 0 ? null : "p" + i,
                            recordHeaders, at));
                }
            }
            if (rocksffm) {
                assertAllOnRocksffm(driver.getAllStateStores(), headers, stateDir);
            }
            Map<String, List<TestRecord<String, String>>> outputs = new LinkedHashMap<>();
            for (String topic : OUTPUTS) {
                outputs.put(topic, driver.createOutputTopic(topic, Serdes.String().deserializer(),
                        Serdes.ByteArray().deserializer()).readRecordsToList().stream()
                        .map(r -> new TestRecord<>(r.key(), r.value() == null ? null : new String(r.value()),
                                r.headers(), r.getRecordTime()))
                        .toList());
            }
            return outputs;
        }
    }

    /**
     * Every persistent store of the topology is rocksffm's: its database is in the task's rocksffm
     * directory and the task directory holds no other store's; where the wrappers lead to the
     * store (all but the join stores of the default format, which Kafka puts behind a headers
     * adapter of its own on either suppliers), it is rocksffm's, in the format asked, with no Kafka
     * RocksDB store and, in the headers format, no adapter on the way.
     */
    private static void assertAllOnRocksffm(Map<String, StateStore> stores, boolean headers, Path stateDir) {
        Path taskDir = stateDir.resolve(APP).resolve("0_0");
        int persistent = 0;
        for (Map.Entry<String, StateStore> entry : stores.entrySet()) {
            if (!entry.getValue().persistent()) {
                continue; // the suppression buffer: in memory on both
            }
            persistent++;
            assertTrue(Files.isDirectory(taskDir.resolve("rocksffm").resolve(entry.getKey())), entry.getKey());
            List<String> chain = new ArrayList<>();
            StateStore store = entry.getValue();
            chain.add(store.getClass().getName());
            while (store instanceof WrappedStateStore<?, ?, ?> wrapped) {
                store = wrapped.wrapped();
                chain.add(store.getClass().getName());
            }
            String name = entry.getKey() + " is " + chain;
            assertFalse(chain.stream().anyMatch(c -> c.contains(".RocksDB") || c.contains(".RocksDb")), name);
            if (headers || !chain.getLast().contains("Adapter")) {
                assertTrue(store instanceof DatabaseStore || store instanceof RocksffmKeyValueStore, name);
                // The DSL's headers builders take a headers store as it is; an adapter would drop the headers.
                assertEquals(headers, store instanceof HeadersBytesStore, name);
            }
        }
        assertTrue(persistent >= 11, "persistent stores: " + stores.keySet());
        try (Stream<Path> files = Files.list(taskDir)) {
            List<String> others = files.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals("rocksffm")).toList();
            assertEquals(List.of(), others, "store directories beside rocksffm's in " + taskDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The records grouped by key, each key's in their order. */
    private static Map<String, List<TestRecord<String, String>>> byKey(List<TestRecord<String, String>> records) {
        Map<String, List<TestRecord<String, String>>> grouped = new TreeMap<>();
        records.forEach(r -> grouped.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        return grouped;
    }

    @ParameterizedTest(name = "headers format: {0}")
    @ValueSource(booleans = {false, true})
    void everyDslStoreKindGivesTheSameRecordsOnRocksffmAsOnKafkasStores(boolean headers) {
        Map<String, List<TestRecord<String, String>>> ours = run(true, headers);
        Map<String, List<TestRecord<String, String>>> kafka = run(false, headers);
        for (String topic : OUTPUTS) {
            assertTrue(ours.get(topic).size() > 20, topic + ": " + ours.get(topic).size() + " (Kafka: " + kafka.get(topic).size() + ")");
            if (CLOSED_WINDOWS.contains(topic)) {
                continue;
            }
            assertEquals(kafka.get(topic), ours.get(topic), topic);
        }
        assertTrue(ours.get("sessions-out").stream().anyMatch(r -> r.value() == null), "no session was merged");
        assertTrue(ours.get("counts-out").stream().anyMatch(r -> r.headers().lastHeader("trace") != null),
                "no record headers in the output");
        // Windows closing on window close: the same records; each key's in the same order; where one
        // emission holds several window starts, rocksffm's come key by key within a segment (see
        // RocksffmDslStoreSuppliers), Kafka's in order of time.
        Comparator<TestRecord<String, String>> order = Comparator.comparing(TestRecord::getRecordTime);
        for (String topic : CLOSED_WINDOWS) {
            List<TestRecord<String, String>> oursClosed = ours.get(topic);
            List<TestRecord<String, String>> kafkaClosed = kafka.get(topic);
            assertEquals(byKey(kafkaClosed), byKey(oursClosed), topic);
            assertEquals(kafkaClosed.stream().sorted(order.thenComparing(TestRecord::key)).toList(),
                    oursClosed.stream().sorted(order.thenComparing(TestRecord::key)).toList(), topic);
        }
    }
}
