package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Optional;
import java.util.HashMap;
import java.time.Duration;
import java.io.IOException;

/**
 * End to end on kafka-streams 4.4 with {@code TopologyTestDriver}: a word count and a
 * stream-table join, on rocksffm stores (one setting: {@code dsl.store.suppliers.class}) and on
 * Kafka's built-in RocksDB stores, compared record by record; and a crash: the state directory is
 * lost after the first half of the input, each store is restored from its changelog through its
 * restore callback, and the second half gives the same answers as an uninterrupted run.
 */
class TopologyTest {
    static final String APP = "wordcount-join";
    static final String[] STORES = {"counts", "customers"};

    @TempDir
    Path dir;

    /** The application: counts of words in "text"; "orders" joined with the table "customers". */
    static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("text", Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
                .filter((k, word) -> !word.isEmpty())
                .groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"))
                .toStream()
                .to("word-counts", Produced.with(Serdes.String(), Serdes.Long()));
        KTable<String, String> customers = builder.table("customers", Consumed.with(Serdes.String(), Serdes.String()),
                Materialized.as("customers"));
        builder.stream("orders", Consumed.with(Serdes.String(), Serdes.String()))
                .join(customers, (order, customer) -> order + " for " + customer)
                .to("enriched", Produced.with(Serdes.String(), Serdes.String()));
        return builder.build();
    }

    static Properties props(File stateDir, boolean rocksffm) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APP);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.getAbsolutePath());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        if (rocksffm) {
            props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
        }
        return props;
    }

    /** The input, deterministic: lines of text, customer updates and orders, interleaved. */
    static List<Runnable> input(TopologyTestDriver driver, int records) {
        TestInputTopic<String, String> text = driver.createInputTopic("text", Serdes.String().serializer(),
                Serdes.String().serializer(), Instant.ofEpochMilli(0), Duration.ofMillis(10));
        TestInputTopic<String, String> customers = driver.createInputTopic("customers", Serdes.String().serializer(),
                Serdes.String().serializer(), Instant.ofEpochMilli(0), Duration.ofMillis(10));
        TestInputTopic<String, String> orders = driver.createInputTopic("orders", Serdes.String().serializer(),
                Serdes.String().serializer(), Instant.ofEpochMilli(0), Duration.ofMillis(10));
        String[] words = "the quick brown fox jumps over the lazy dog and the cat sat on the mat".split(" ");
        List<Runnable> steps = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            int n = i;
            steps.add(switch (n % 3) {
                case 0 -> () -> text.pipeInput("line" + n, words[n % words.length] + " " + words[(n * 7) % words.length]
                        + " " + words[(n * 13 + 1) % words.length]);
                case 1 -> () -> customers.pipeInput("c" + (n % 17), n % 29 == 0 ? null : "customer-" + n);
                default -> () -> orders.pipeInput("c" + (n % 13), "order-" + n);
            });
        }
        return steps;
    }

    record Outputs(List<TestRecord<String, Long>> counts, List<TestRecord<String, String>> enriched) {
        void add(Outputs more) {
            counts.addAll(more.counts);
            enriched.addAll(more.enriched);
        }
    }

    static Outputs read(TopologyTestDriver driver) {
        return new Outputs(
                new ArrayList<>(driver.createOutputTopic("word-counts", Serdes.String().deserializer(),
                        Serdes.Long().deserializer()).readRecordsToList()),
                new ArrayList<>(driver.createOutputTopic("enriched", Serdes.String().deserializer(),
                        Serdes.String().deserializer()).readRecordsToList()));
    }

    static StateStore innermost(StateStore store) {
        while (store instanceof WrappedStateStore<?, ?, ?> wrapped) {
            store = wrapped.wrapped();
        }
        return store;
    }

    /** Runs the whole input through one driver. */
    private Outputs run(boolean rocksffm, String sub, int records) {
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(), props(dir.resolve(sub).toFile(), rocksffm))) {
            input(driver, records).forEach(Runnable::run);
            for (String name : STORES) {
                StateStore inner = innermost(driver.getAllStateStores().get(name));
                // The DSL's stores are timestamped: the timestamped variant, not an adapter over the plain one.
                assertEquals(rocksffm, inner instanceof RocksffmTimestampedKeyValueStore, name + " is " + inner.getClass());
            }
            return read(driver);
        }
    }

    @Test
    void wordCountAndJoinGiveTheSameRecordsOnRocksffmAsOnKafkasRocksDBStores() {
        Outputs ours = run(true, "ours", 600);
        Outputs kafka = run(false, "kafka", 600);
        assertTrue(ours.counts().size() > 500 && ours.enriched().size() > 100, ours.counts().size() + " " + ours.enriched().size());
        assertEquals(kafka.counts(), ours.counts());
        assertEquals(kafka.enriched(), ours.enriched());
        // "the" appears in every third line at least once: its final count is in the output.
        assertTrue(ours.counts().stream().anyMatch(r -> r.key().equals("the") && r.value() > 50));
    }

    /**
     * First half through one driver, whose changelogs are kept; the state directory is then lost,
     * each store rebuilt from its changelog through the callback it registers, and the second half
     * runs on a new driver over the restored state.
     */
    private Outputs crashAndRestore(boolean rocksffm, String sub, int records) throws IOException {
        File stateDir = dir.resolve(sub).toFile();
        Outputs outputs;
        Map<String, List<TestRecord<byte[], byte[]>>> changelogs = new HashMap<>();
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(), props(stateDir, rocksffm))) {
            input(driver, records).subList(0, records / 2).forEach(Runnable::run);
            outputs = read(driver);
            for (String name : STORES) {
                String topic = APP + "-" + name + "-changelog";
                assertTrue(driver.producedTopicNames().contains(topic), topic + " in " + driver.producedTopicNames());
                changelogs.put(name, driver.createOutputTopic(topic, Serdes.ByteArray().deserializer(),
                        Serdes.ByteArray().deserializer()).readRecordsToList());
            }
        }
        // The crash: nothing on disk survives.
        org.apache.kafka.common.utils.Utils.delete(stateDir);
        assertFalse(stateDir.exists());
        File taskDir = new File(stateDir, APP + "/0_0");
        DslStoreSuppliers suppliers = rocksffm ? new RocksffmDslStoreSuppliers() : new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers();
        for (String name : STORES) {
            KeyValueStore<Bytes, byte[]> store = suppliers.keyValueStore(new DslKeyValueParams(name, true)).get();
            TestContext context = new TestContext(taskDir, Map.of());
            store.init(context, store);
            try {
                List<ConsumerRecord<byte[], byte[]>> records2 = new ArrayList<>();
                List<TestRecord<byte[], byte[]>> log = changelogs.get(name);
                TopicPartition changelog = new TopicPartition(APP + "-" + name + "-changelog", 0);
                // As Kafka's state manager does for a timestamped store: the record's timestamp goes
                // before the value.
                var toTimestamped = org.apache.kafka.streams.state.internals.RecordConverters.rawValueToTimestampedValue();
                for (int offset = 0; offset < log.size(); offset++) {
                    TestRecord<byte[], byte[]> r = log.get(offset);
                    records2.add(toTimestamped.convert(new ConsumerRecord<>(changelog.topic(), 0, offset, r.timestamp(),
                            org.apache.kafka.common.record.TimestampType.CREATE_TIME, -1, -1, r.key(), r.value(), r.headers(),
                            Optional.empty())));
                }
                var callback = (RecordBatchingStateRestoreCallback) context.restoreCallback(name);
                for (int from = 0; from < records2.size(); from += 100) {
                    callback.restoreBatch(records2.subList(from, Math.min(records2.size(), from + 100)));
                }
                store.commit(Map.of(changelog, (long) log.size() - 1));
            } finally {
                store.close();
            }
        }
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(), props(stateDir, rocksffm))) {
            List<Runnable> steps = input(driver, records);
            // The input topics' timestamps continue where the first driver left off.
            steps.subList(0, records / 2).clear();
            steps.forEach(Runnable::run);
            outputs.add(read(driver));
        }
        return outputs;
    }

    @Test
    void afterACrashTheStoresRestoredFromTheirChangelogsGiveTheSameAnswers() throws IOException {
        int records = 300;
        Outputs uninterrupted = run(true, "uninterrupted", records);
        Outputs ours = crashAndRestore(true, "ours", records);
        Outputs kafka = crashAndRestore(false, "kafka", records);
        assertEquals(uninterrupted.counts().stream().map(TopologyTest::kv).toList(), ours.counts().stream().map(TopologyTest::kv).toList());
        assertEquals(uninterrupted.enriched().stream().map(TopologyTest::kv).toList(), ours.enriched().stream().map(TopologyTest::kv).toList());
        assertEquals(kafka.counts(), ours.counts());
        assertEquals(kafka.enriched(), ours.enriched());
    }

    private static KeyValue<String, Object> kv(TestRecord<String, ?> r) {
        return KeyValue.pair(r.key(), r.value());
    }
}
