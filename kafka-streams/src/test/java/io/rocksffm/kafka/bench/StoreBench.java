package io.rocksffm.kafka.bench;

import io.rocksffm.kafka.RocksffmDslStoreSuppliers;
import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.function.Supplier;

/**
 * A small benchmark (not a test): put, get and range through the store interface, and a word
 * count through TopologyTestDriver, on rocksffm stores and on Kafka's built-in RocksDB stores, in
 * one process on one engine (the rocksdbjni on the class path). Each measurement is repeated,
 * alternating the two, and the best round of each is reported. Run by {@code kafka-streams/bench.sh}.
 */
public final class StoreBench {
    private static final int KEYS = Integer.getInteger("bench.keys", 200_000);
    private static final int GETS = Integer.getInteger("bench.gets", 400_000);
    private static final int RANGES = Integer.getInteger("bench.ranges", 4_000);
    private static final int LINES = Integer.getInteger("bench.lines", 20_000);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    private static final int COMMIT_EVERY = 10_000;
    private static final TopicPartition CHANGELOG = new TopicPartition("bench-changelog", 0);

    private StoreBench() {
    }

    private static Bytes key(int i) {
        return Bytes.wrap(ByteBuffer.allocate(16).putLong(0x6b6579L).putLong(i).array());
    }

    private static KeyValueStore<Bytes, byte[]> open(boolean rocksffm, File dir) {
        KeyValueStore<Bytes, byte[]> store = rocksffm ? RocksffmStores.keyValueStore("bench").get()
                : Stores.persistentKeyValueStore("bench").get();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        store.init(new MockProcessorContext<>(props, new TaskId(0, 0), dir).getStateStoreContext(), store);
        return store;
    }

    /** ops/s of put, get and range (entries/s) for one store. */
    private static double[] storeRound(boolean rocksffm) throws Exception {
        File dir = Files.createTempDirectory("store-bench").toFile();
        KeyValueStore<Bytes, byte[]> store = open(rocksffm, dir);
        try {
            int[] order = new int[KEYS];
            Arrays.setAll(order, i -> i);
            Random random = new Random(42);
            for (int i = KEYS - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            byte[] value = new byte[100];
            random.nextBytes(value);
            long start = System.nanoTime();
            for (int i = 0; i < KEYS; i++) {
                store.put(key(order[i]), value);
                if ((i + 1) % COMMIT_EVERY == 0) {
                    store.commit(Map.of(CHANGELOG, (long) i));
                }
            }
            store.commit(Map.of(CHANGELOG, (long) KEYS));
            double puts = KEYS / ((System.nanoTime() - start) / 1e9);

            long found = 0;
            start = System.nanoTime();
            for (int i = 0; i < GETS; i++) {
                found += store.get(key(random.nextInt(KEYS))).length;
            }
            double gets = GETS / ((System.nanoTime() - start) / 1e9);
            if (found != (long) GETS * value.length) {
                throw new AssertionError("gets found " + found);
            }

            long entries = 0;
            start = System.nanoTime();
            for (int i = 0; i < RANGES; i++) {
                int from = random.nextInt(KEYS - 100);
                try (KeyValueIterator<Bytes, byte[]> it = store.range(key(from), key(from + 99))) {
                    while (it.hasNext()) {
                        entries += it.next().value.length > 0 ? 1 : 0;
                    }
                }
            }
            double ranges = entries / ((System.nanoTime() - start) / 1e9);
            if (entries != RANGES * 100L) {
                throw new AssertionError("ranges found " + entries);
            }
            return new double[] {puts, gets, ranges};
        } finally {
            store.close();
            Utils.delete(dir);
        }
    }

    /** Lines per second through a word count (record cache off, so every update reaches the store). */
    private static double topologyRound(boolean rocksffm) throws Exception {
        File dir = Files.createTempDirectory("topology-bench").toFile();
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream("text")
                .flatMapValues(line -> Arrays.asList(line.split(" ")))
                .groupBy((k, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"))
                .toStream().to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "wordcount-bench");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.getAbsolutePath());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        if (rocksffm) {
            props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
        }
        Random random = new Random(7);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < LINES; i++) {
            StringBuilder line = new StringBuilder();
            for (int w = 0; w < 8; w++) {
                line.append(w == 0 ? "" : " ").append("word").append(random.nextInt(5_000));
            }
            lines.add(line.toString());
        }
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, String> text = driver.createInputTopic("text", Serdes.String().serializer(),
                    Serdes.String().serializer());
            long start = System.nanoTime();
            for (String line : lines) {
                text.pipeInput(null, line);
            }
            double rate = LINES / ((System.nanoTime() - start) / 1e9);
            driver.createOutputTopic("counts-out", Serdes.String().deserializer(), Serdes.Long().deserializer())
                    .readKeyValuesToMap();
            return rate;
        } finally {
            Utils.delete(dir);
        }
    }

    private static double[] best(Supplier<double[]> round, double[] best) {
        double[] r = round.get();
        for (int i = 0; i < r.length; i++) {
            best[i] = Math.max(best[i], r[i]);
        }
        return best;
    }

    private static Supplier<double[]> unchecked(java.util.concurrent.Callable<double[]> c) {
        return () -> {
            try {
                return c.call();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        };
    }

    public static void main(String[] args) {
        System.out.printf("engine: rocksffm %s, rocksdbjni %s%n", io.rocksffm.RocksDB.engine().version(),
                org.rocksdb.RocksDB.rocksdbVersion());
        System.out.printf("store: %,d keys (16 B keys, 100 B values, commit every %,d), %,d gets, %,d ranges of 100; "
                + "topology: %,d lines of 8 words; best of %d rounds%n", KEYS, COMMIT_EVERY, GETS, RANGES, LINES, ROUNDS);
        double[] ours = new double[4];
        double[] kafka = new double[4];
        // A warm-up round of each, not counted.
        unchecked(() -> storeRound(true)).get();
        unchecked(() -> storeRound(false)).get();
        for (int round = 0; round < ROUNDS; round++) {
            boolean oursFirst = round % 2 == 0;
            for (boolean rocksffm : oursFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                double[] r = unchecked(() -> {
                    double[] s = storeRound(rocksffm);
                    return new double[] {s[0], s[1], s[2], topologyRound(rocksffm)};
                }).get();
                best(() -> r, rocksffm ? ours : kafka);
            }
        }
        String[] names = {"put (ops/s)", "get (ops/s)", "range (entries/s)", "word count (lines/s)"};
        System.out.printf("%-22s %14s %14s %8s%n", "", "rocksffm", "Kafka RocksDB", "ratio");
        for (int i = 0; i < names.length; i++) {
            System.out.printf("%-22s %,14.0f %,14.0f %7.2fx%n", names[i], ours[i], kafka[i], ours[i] / kafka[i]);
        }
    }
}
