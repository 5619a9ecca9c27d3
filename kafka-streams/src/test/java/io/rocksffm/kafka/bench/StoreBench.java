package io.rocksffm.kafka.bench;

import io.rocksffm.kafka.RocksffmDslStoreSuppliers;
import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
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
import java.util.concurrent.Callable;
import io.rocksffm.RocksDB;

/**
 * A small benchmark (not a test): put, get and range through the store interface, and a word
 * count through TopologyTestDriver, on rocksffm stores and on Kafka's built-in RocksDB stores, in
 * one process on one engine (the rocksdbjni on the class path). The store phases interleave the two
 * stores in chunks; the topologies alternate; the best of the rounds is reported. Run by {@code kafka-streams/bench.sh}.
 */
public final class StoreBench {
    private static final int KEYS = Integer.getInteger("bench.keys", 200_000);
    private static final int GETS = Integer.getInteger("bench.gets", 400_000);
    private static final int RANGES = Integer.getInteger("bench.ranges", 4_000);
    private static final int LINES = Integer.getInteger("bench.lines", 20_000);
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 3);
    /** Kafka 4.4's enable.transactional.statestores for the store phases (both stores then hold writes until commit). */
    private static final boolean TRANSACTIONAL = Boolean.getBoolean("bench.transactional");
    private static final int COMMIT_EVERY = 10_000;
    private static final TopicPartition CHANGELOG = new TopicPartition("bench-changelog", 0);

    private StoreBench() {
    }

    static Bytes key(int i) {
        return Bytes.wrap(ByteBuffer.allocate(16).putLong(0x6b6579L).putLong(i).array());
    }

    /** 0..n-1 in the order of a Fisher-Yates shuffle drawn from {@code random}. */
    static int[] shuffled(int n, Random random) {
        int[] order = new int[n];
        Arrays.setAll(order, i -> i);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    static KeyValueStore<Bytes, byte[]> open(boolean rocksffm, File dir) {
        KeyValueStore<Bytes, byte[]> store = rocksffm ? RocksffmStores.keyValueStore("bench").get()
                : Stores.persistentKeyValueStore("bench").get();
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, TRANSACTIONAL);
        store.init(new MockProcessorContext<>(props, new TaskId(0, 0), dir).getStateStoreContext(), store);
        return store;
    }

    /**
     * ops/s of put, get and range (entries/s), rocksffm's and Kafka's ([0..2] and [3..5]): both
     * stores open side by side and each phase interleaved in chunks of 1,000 operations, so that
     * the load of a shared machine falls on both alike.
     */
    private static double[] storeRound() throws Exception {
        File dir = Files.createTempDirectory("store-bench").toFile();
        List<KeyValueStore<Bytes, byte[]>> stores = List.of(open(true, new File(dir, "ours")), open(false, new File(dir, "kafka")));
        try {
            Random random = new Random(42);
            int[] order = shuffled(KEYS, random);
            byte[] value = new byte[100];
            random.nextBytes(value);
            long[] putNanos = new long[2];
            long[] getNanos = new long[2];
            long[] rangeNanos = new long[2];
            int chunk = 1_000;
            for (int from = 0; from < KEYS; from += chunk) {
                for (int s = 0; s < 2; s++) {
                    KeyValueStore<Bytes, byte[]> store = stores.get(s);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(KEYS, from + chunk); i++) {
                        store.put(key(order[i]), value);
                        if ((i + 1) % COMMIT_EVERY == 0 || i == KEYS - 1) {
                            store.commit(Map.of(CHANGELOG, (long) i));
                        }
                    }
                    putNanos[s] += System.nanoTime() - start;
                }
            }
            int[] gets = new int[GETS];
            Arrays.setAll(gets, i -> random.nextInt(KEYS));
            long[] found = new long[2];
            for (int from = 0; from < GETS; from += chunk) {
                for (int s = 0; s < 2; s++) {
                    KeyValueStore<Bytes, byte[]> store = stores.get(s);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(GETS, from + chunk); i++) {
                        found[s] += store.get(key(gets[i])).length;
                    }
                    getNanos[s] += System.nanoTime() - start;
                }
            }
            int[] ranges = new int[RANGES];
            Arrays.setAll(ranges, i -> random.nextInt(KEYS - 100));
            long[] entries = new long[2];
            int rangeChunk = 20;
            for (int from = 0; from < RANGES; from += rangeChunk) {
                for (int s = 0; s < 2; s++) {
                    KeyValueStore<Bytes, byte[]> store = stores.get(s);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(RANGES, from + rangeChunk); i++) {
                        try (KeyValueIterator<Bytes, byte[]> it = store.range(key(ranges[i]), key(ranges[i] + 99))) {
                            while (it.hasNext()) {
                                entries[s] += it.next().value.length > 0 ? 1 : 0;
                            }
                        }
                    }
                    rangeNanos[s] += System.nanoTime() - start;
                }
            }
            for (int s = 0; s < 2; s++) {
                if (found[s] != (long) GETS * value.length || entries[s] != RANGES * 100L) {
                    throw new AssertionError("store " + s + " found " + found[s] + " bytes, " + entries[s] + " entries");
                }
            }
            double[] out = new double[6];
            for (int s = 0; s < 2; s++) {
                out[3 * s] = KEYS / (putNanos[s] / 1e9);
                out[3 * s + 1] = GETS / (getNanos[s] / 1e9);
                out[3 * s + 2] = entries[s] / (rangeNanos[s] / 1e9);
            }
            return out;
        } finally {
            for (KeyValueStore<Bytes, byte[]> store : stores) {
                store.close();
            }
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

    private static Supplier<double[]> unchecked(Callable<double[]> c) {
        return () -> {
            try {
                return c.call();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        };
    }

    public static void main(String[] args) {
        System.out.printf("engine: rocksffm %s, rocksdbjni %s%n", RocksDB.engine().version(),
                org.rocksdb.RocksDB.rocksdbVersion());
        System.out.printf("store (transactional stores %b): %,d keys (16 B keys, 100 B values, commit every %,d), "
                + "%,d gets, %,d ranges of 100; topology: %,d lines of 8 words; best of %d rounds%n", TRANSACTIONAL, KEYS,
                COMMIT_EVERY, GETS, RANGES, LINES, ROUNDS);
        if (Boolean.getBoolean("bench.windowsOnly")) {
            System.out.printf("%-26s %14s %14s %8s%n", "", "rocksffm", "Kafka RocksDB", "ratio");
            windowRows();
            return;
        }
        double[] ours = new double[4];
        double[] kafka = new double[4];
        // A warm-up round, not counted.
        unchecked(StoreBench::storeRound).get();
        for (int round = 0; round < ROUNDS; round++) {
            double[] r = unchecked(StoreBench::storeRound).get();
            best(() -> new double[] {r[0], r[1], r[2], 0}, ours);
            best(() -> new double[] {r[3], r[4], r[5], 0}, kafka);
            boolean oursFirst = round % 2 == 0;
            for (boolean rocksffm : oursFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                double t = unchecked(() -> new double[] {topologyRound(rocksffm)}).get()[0];
                best(() -> new double[] {0, 0, 0, t}, rocksffm ? ours : kafka);
            }
        }
        String[] names = {"put (ops/s)", "get (ops/s)", "range (entries/s)", "word count (lines/s)"};
        System.out.printf("%-26s %14s %14s %8s%n", "", "rocksffm", "Kafka RocksDB", "ratio");
        for (int i = 0; i < names.length; i++) {
            System.out.printf("%-26s %,14.0f %,14.0f %7.2fx%n", names[i], ours[i], kafka[i], ours[i] / kafka[i]);
        }
        windowRows();
    }

    /** The window and session rows: best of the rounds, and each round's ratios (a shared machine's noise shows in them). */
    private static void windowRows() {
        String[] names = {"window put (ops/s)", "window fetch (windows/s)", "window range (windows/s)",
            "session put (ops/s)", "session find (sessions/s)", "windowed count (records/s)"};
        double[] best = new double[2 * names.length];
        List<String> perRound = new ArrayList<>();
        // Warm-up rounds, not counted.
        unchecked(WindowedStoreBench::storeRound).get();
        for (boolean rocksffm : new boolean[] {true, false}) {
            unchecked(() -> new double[] {WindowedStoreBench.windowedCountRound(rocksffm, LINES)}).get();
        }
        for (int round = 0; round < ROUNDS; round++) {
            double[] r = unchecked(WindowedStoreBench::storeRound).get();
            double[] row = Arrays.copyOf(r, best.length);
            boolean oursFirst = round % 2 == 0;
            for (boolean rocksffm : oursFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                row[rocksffm ? 10 : 11] = unchecked(() -> new double[] {
                    WindowedStoreBench.windowedCountRound(rocksffm, LINES * 4)}).get()[0];
            }
            best(() -> row, best);
            StringBuilder ratios = new StringBuilder("round " + (round + 1) + " ratios:");
            for (int i = 0; i < names.length; i++) {
                ratios.append(String.format(" %.2f", row[2 * i] / row[2 * i + 1]));
            }
            perRound.add(ratios.toString());
        }
        for (int i = 0; i < names.length; i++) {
            System.out.printf("%-26s %,14.0f %,14.0f %7.2fx%n", names[i], best[2 * i], best[2 * i + 1], best[2 * i] / best[2 * i + 1]);
        }
        perRound.forEach(System.out::println);
    }
}
