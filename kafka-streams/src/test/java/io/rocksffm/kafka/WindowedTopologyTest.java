package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

/**
 * Windowed and versioned state end to end on kafka-streams 4.4 with {@code TopologyTestDriver}: a
 * tumbling-window count, a session-window aggregate, a stream-stream join (a window store that
 * keeps duplicates) and a stream-table join on a versioned table, with timestamps out of order
 * (late records within and beyond the grace period), run on rocksffm's stores (the DSL suppliers,
 * and a rocksffm versioned supplier for the table) and on Kafka's own RocksDB stores; the output
 * topics are compared record by record.
 */
class WindowedTopologyTest {
    @TempDir
    Path dir;

    static Topology topology(boolean rocksffm) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofSeconds(10), Duration.ofSeconds(5)))
                .count(Materialized.as("click-counts"))
                .toStream((window, count) -> window.key() + "@" + window.window().start())
                .to("click-counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(3), Duration.ofSeconds(4)))
                .aggregate(() -> "", (key, value, agg) -> agg + value, (key, left, right) -> left + "+" + right,
                        Materialized.as("click-sessions"))
                .toStream((window, agg) -> window.key() + "@" + window.window().start() + "-" + window.window().end())
                .to("click-sessions-out", Produced.with(Serdes.String(), Serdes.String()));
        builder.stream("clicks", Consumed.with(Serdes.String(), Serdes.String()))
                .join(builder.stream("views", Consumed.with(Serdes.String(), Serdes.String())),
                        (click, view) -> click + "/" + view,
                        JoinWindows.ofTimeDifferenceAndGrace(Duration.ofSeconds(2), Duration.ofSeconds(3)),
                        StreamJoined.as("click-view"))
                .to("click-views-out", Produced.with(Serdes.String(), Serdes.String()));
        KTable<String, String> prices = builder.table("prices", Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.<String, String>as(rocksffm
                        ? RocksffmStores.versionedKeyValueStore("prices", Duration.ofSeconds(30))
                        : Stores.persistentVersionedKeyValueStore("prices", Duration.ofSeconds(30)))
                        .withKeySerde(Serdes.String()).withValueSerde(Serdes.String()));
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
                .join(prices, (order, price) -> order + " at " + price)
                .to("priced-out", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    static Properties props(Path stateDir, boolean rocksffm) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "windowed");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        if (rocksffm) {
            props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
        }
        return props;
    }

    record Outputs(List<TestRecord<String, Long>> counts, List<TestRecord<String, String>> sessions,
                   List<TestRecord<String, String>> joined, List<TestRecord<String, String>> priced) {
    }

    private Outputs run(boolean rocksffm, String sub) {
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(rocksffm), props(dir.resolve(sub), rocksffm))) {
            TestInputTopic<String, String> clicks = driver.createInputTopic("clicks", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestInputTopic<String, String> views = driver.createInputTopic("views", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestInputTopic<String, String> prices = driver.createInputTopic("prices", Serdes.String().serializer(),
                    Serdes.String().serializer());
            TestInputTopic<String, String> orders = driver.createInputTopic("orders", Serdes.String().serializer(),
                    Serdes.String().serializer());
            Random random = new Random(45);
            long time = 0;
            for (int i = 0; i < 900; i++) {
                // Mostly forward in time, now and then back: within the grace periods and beyond them.
                time += random.nextInt(700);
                long ts = random.nextInt(8) == 0 ? Math.max(0, time - random.nextInt(12_000)) : time;
                String key = "k" + random.nextInt(6);
                Instant at = Instant.ofEpochMilli(ts);
                switch (random.nextInt(4)) {
                    case 0, 1 -> clicks.pipeInput(key, Character.toString('a' + random.nextInt(26)), at);
                    case 2 -> (random.nextBoolean() ? views : prices).pipeInput(key,
                            random.nextInt(20) == 0 ? null : "v" + i, at);
                    default -> orders.pipeInput(key, "order" + i, at);
                }
            }
            Map<String, StateStore> stores = driver.getAllStateStores();
            for (String name : List.of("click-counts", "click-sessions", "prices")) {
                StateStore inner = TopologyTest.innermost(stores.get(name));
                boolean ours = inner instanceof SegmentedStore || inner instanceof RocksffmVersionedStore;
                assertEquals(rocksffm, ours, name + " is " + inner.getClass().getName());
            }
            // The join's stores sit behind Kafka's headers adapter: their databases show where they are.
            for (String name : List.of("click-view-this-join-store", "click-view-other-join-store")) {
                assertEquals(rocksffm, Files.isDirectory(dir.resolve(sub).resolve("windowed/0_0/rocksffm").resolve(name)), name);
            }
            return new Outputs(
                    driver.createOutputTopic("click-counts-out", Serdes.String().deserializer(), Serdes.Long().deserializer())
                            .readRecordsToList(),
                    driver.createOutputTopic("click-sessions-out", Serdes.String().deserializer(), Serdes.String().deserializer())
                            .readRecordsToList(),
                    driver.createOutputTopic("click-views-out", Serdes.String().deserializer(), Serdes.String().deserializer())
                            .readRecordsToList(),
                    driver.createOutputTopic("priced-out", Serdes.String().deserializer(), Serdes.String().deserializer())
                            .readRecordsToList());
        }
    }

    @Test
    void windowedCountSessionsJoinsAndVersionedTableJoinGiveTheSameRecordsOnRocksffmAsOnKafkasStores() {
        Outputs ours = run(true, "ours");
        Outputs kafka = run(false, "kafka");
        assertTrue(ours.counts().size() > 200 && ours.sessions().size() > 200 && ours.joined().size() > 50
                && ours.priced().size() > 50, ours.counts().size() + " " + ours.sessions().size() + " "
                + ours.joined().size() + " " + ours.priced().size());
        // Merged sessions are deleted (null aggregates) and windows counted again: both paths taken.
        assertTrue(ours.sessions().stream().anyMatch(r -> r.value() == null), "no session was merged");
        assertEquals(kafka.counts(), ours.counts());
        assertEquals(kafka.sessions(), ours.sessions());
        assertEquals(kafka.joined(), ours.joined());
        assertEquals(kafka.priced(), ours.priced());
    }
}
