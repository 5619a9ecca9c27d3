package io.rocksffm.kafka.bench;

import io.rocksffm.kafka.RocksffmDslStoreSuppliers;
import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;

/**
 * The window and session rows of the Kafka Streams benchmark ({@link StoreBench} runs them): put,
 * fetch of one key and fetch of a key range through the window bytes store, put and find through
 * the session bytes store, and a windowed count through TopologyTestDriver, on rocksffm stores and
 * on Kafka's built-in RocksDB stores. The stores are the innermost bytes stores, opened by a
 * TopologyTestDriver (Kafka's segmented stores need a task's context), logging off; the two are
 * interleaved in chunks so that the load of a shared machine falls on both alike.
 */
final class WindowedStoreBench {
    private static final int PUTS = Integer.getInteger("bench.windowPuts", 200_000);
    private static final int KEYS = 2_000;
    private static final int FETCHES = Integer.getInteger("bench.windowFetches", 40_000);
    private static final int RANGES = Integer.getInteger("bench.windowRanges", 2_000);
    private static final long STEP_MS = 10;
    private static final long WINDOW_MS = 10_000;
    private static final Duration RETENTION = Duration.ofMinutes(10);
    private static final int CHUNK = 1_000;

    private WindowedStoreBench() {
    }

    /** A processor that does nothing: the stores hang off it. */
    private static final class NoOp implements Processor<Object, Object, Object, Object> {
        @Override
        public void process(Record<Object, Object> record) {
        }
    }

    private static Properties props(File dir, String app) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, dir.getAbsolutePath());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        return props;
    }

    /** The innermost store of the given type: Kafka's window and session stores wrap a segmented store of another type. */
    private static StateStore innermost(StateStore store, Class<?> type) {
        while (store instanceof WrappedStateStore<?, ?, ?> wrapped && type.isInstance(wrapped.wrapped())) {
            store = wrapped.wrapped();
        }
        return store;
    }

    private static Bytes key(int i) {
        return Bytes.wrap(ByteBuffer.allocate(12).putInt(0x6b6579).putLong(i).array());
    }

    private static long rate(long ops, long nanos) {
        return Math.round(ops / (nanos / 1e9));
    }

    /**
     * ops/s of window put, fetch (windows/s) and range fetch (windows/s), then session put and find
     * (sessions/s): rocksffm's at even indexes, Kafka's at odd ones.
     */
    @SuppressWarnings("unchecked")
    static double[] storeRound() throws Exception {
        File dir = Files.createTempDirectory("window-bench").toFile();
        Topology topology = new Topology();
        topology.addSource("in", "in");
        topology.addProcessor("noop", NoOp::new, "in");
        Duration size = Duration.ofMillis(WINDOW_MS);
        topology.addStateStore(Stores.windowStoreBuilder(RocksffmStores.windowStore("w-ours", RETENTION, size, false),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled(), "noop");
        topology.addStateStore(Stores.windowStoreBuilder(Stores.persistentWindowStore("w-kafka", RETENTION, size, false),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled(), "noop");
        topology.addStateStore(Stores.sessionStoreBuilder(RocksffmStores.sessionStore("s-ours", RETENTION),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled(), "noop");
        topology.addStateStore(Stores.sessionStoreBuilder(Stores.persistentSessionStore("s-kafka", RETENTION),
                Serdes.Bytes(), Serdes.ByteArray()).withLoggingDisabled(), "noop");
        try (TopologyTestDriver driver = new TopologyTestDriver(topology, props(dir, "window-bench"))) {
            List<WindowStore<Bytes, byte[]>> windows = List.of(
                    (WindowStore<Bytes, byte[]>) innermost(driver.getAllStateStores().get("w-ours"), WindowStore.class),
                    (WindowStore<Bytes, byte[]>) innermost(driver.getAllStateStores().get("w-kafka"), WindowStore.class));
            List<SessionStore<Bytes, byte[]>> sessions = List.of(
                    (SessionStore<Bytes, byte[]>) innermost(driver.getAllStateStores().get("s-ours"), SessionStore.class),
                    (SessionStore<Bytes, byte[]>) innermost(driver.getAllStateStores().get("s-kafka"), SessionStore.class));
            Random random = new Random(11);
            byte[] value = new byte[100];
            random.nextBytes(value);
            long[] nanos = new long[10];
            long[] counts = new long[10];
            // Window puts: stream time advances 10 ms a put, so segments open and expire as they go.
            for (int from = 0; from < PUTS; from += CHUNK) {
                for (int s = 0; s < 2; s++) {
                    WindowStore<Bytes, byte[]> store = windows.get(s);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(PUTS, from + CHUNK); i++) {
                        long ts = i * STEP_MS;
                        store.put(key(i % KEYS), value, ts - ts % WINDOW_MS);
                    }
                    nanos[s] += System.nanoTime() - start;
                    counts[s] += Math.min(PUTS, from + CHUNK) - from;
                }
            }
            long now = (PUTS - 1) * STEP_MS;
            // Fetches of one key over the last five minutes; range fetches of 20 keys over one minute.
            for (int from = 0; from < FETCHES; from += CHUNK) {
                for (int s = 0; s < 2; s++) {
                    WindowStore<Bytes, byte[]> store = windows.get(s);
                    Random r = new Random(from);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(FETCHES, from + CHUNK); i++) {
                        try (WindowStoreIterator<byte[]> it = store.fetch(key(r.nextInt(KEYS)), now - 300_000, now)) {
                            while (it.hasNext()) {
                                counts[2 + s] += it.next().value.length > 0 ? 1 : 0;
                            }
                        }
                    }
                    nanos[2 + s] += System.nanoTime() - start;
                }
            }
            for (int from = 0; from < RANGES; from += 100) {
                for (int s = 0; s < 2; s++) {
                    WindowStore<Bytes, byte[]> store = windows.get(s);
                    Random r = new Random(from);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(RANGES, from + 100); i++) {
                        int k = r.nextInt(KEYS - 20);
                        try (KeyValueIterator<Windowed<Bytes>, byte[]> it = store.fetch(key(k), key(k + 19), now - 60_000, now)) {
                            while (it.hasNext()) {
                                counts[4 + s] += it.next().value.length > 0 ? 1 : 0;
                            }
                        }
                    }
                    nanos[4 + s] += System.nanoTime() - start;
                }
            }
            // Sessions: each key's session grows (the old one removed, the merged one put), as a
            // session aggregation does; then finds of one key's sessions over the last minutes.
            int[] sessionKey = new int[PUTS];
            long[] sessionStart = new long[PUTS];
            long[] removedEnd = new long[PUTS];
            long[] lastStart = new long[KEYS];
            long[] lastEnd = new long[KEYS];
            for (int i = 0; i < PUTS; i++) {
                int k = random.nextInt(KEYS);
                long ts = i * STEP_MS;
                sessionKey[i] = k;
                boolean merge = lastEnd[k] > 0 && ts - lastEnd[k] <= 30_000;
                removedEnd[i] = merge ? lastEnd[k] : -1;
                sessionStart[i] = merge ? lastStart[k] : ts;
                lastStart[k] = sessionStart[i];
                lastEnd[k] = ts;
            }
            for (int from = 0; from < PUTS; from += CHUNK) {
                for (int s = 0; s < 2; s++) {
                    SessionStore<Bytes, byte[]> store = sessions.get(s);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(PUTS, from + CHUNK); i++) {
                        Bytes key = key(sessionKey[i]);
                        if (removedEnd[i] >= 0) {
                            store.remove(new Windowed<>(key, new SessionWindow(sessionStart[i], removedEnd[i])));
                        }
                        store.put(new Windowed<>(key, new SessionWindow(sessionStart[i], i * STEP_MS)), value);
                    }
                    nanos[6 + s] += System.nanoTime() - start;
                    counts[6 + s] += Math.min(PUTS, from + CHUNK) - from;
                }
            }
            for (int from = 0; from < FETCHES; from += CHUNK) {
                for (int s = 0; s < 2; s++) {
                    SessionStore<Bytes, byte[]> store = sessions.get(s);
                    Random r = new Random(from);
                    long start = System.nanoTime();
                    for (int i = from; i < Math.min(FETCHES, from + CHUNK); i++) {
                        try (KeyValueIterator<Windowed<Bytes>, byte[]> it =
                                     store.findSessions(key(r.nextInt(KEYS)), now - 300_000, now)) {
                            while (it.hasNext()) {
                                counts[8 + s] += it.next().value.length > 0 ? 1 : 0;
                            }
                        }
                    }
                    nanos[8 + s] += System.nanoTime() - start;
                }
            }
            for (int row = 0; row < 5; row++) {
                if (counts[2 * row] != counts[2 * row + 1]) {
                    throw new AssertionError("row " + row + ": rocksffm " + counts[2 * row] + ", Kafka " + counts[2 * row + 1]);
                }
            }
            double[] out = new double[10];
            for (int i = 0; i < 10; i++) {
                out[i] = rate(counts[i], nanos[i]);
            }
            return out;
        } finally {
            Utils.delete(dir);
        }
    }

    /** Records per second through a tumbling-window count (record cache off: every update reaches the store). */
    static double windowedCountRound(boolean rocksffm, int records) throws Exception {
        File dir = Files.createTempDirectory("windowed-count-bench").toFile();
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream("clicks")
                .groupBy((k, page) -> page, Grouped.with(Serdes.String(), Serdes.String()))
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMinutes(1), Duration.ofSeconds(30)))
                .count(Materialized.as("page-counts"))
                .toStream().foreach((window, count) -> { });
        Properties props = props(dir, "windowed-count-bench");
        if (rocksffm) {
            props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
        }
        Random random = new Random(5);
        List<KeyValue<String, String>> input = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            input.add(KeyValue.pair(null, "page" + random.nextInt(2_000)));
        }
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), props)) {
            TestInputTopic<String, String> clicks = driver.createInputTopic("clicks", Serdes.String().serializer(),
                    Serdes.String().serializer(), Instant.ofEpochMilli(0), Duration.ofMillis(20));
            long start = System.nanoTime();
            for (KeyValue<String, String> kv : input) {
                clicks.pipeInput(kv.key, kv.value);
            }
            return records / ((System.nanoTime() - start) / 1e9);
        } finally {
            Utils.delete(dir);
        }
    }
}
