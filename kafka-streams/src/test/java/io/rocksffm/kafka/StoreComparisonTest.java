package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Arrays;

/**
 * The rocksffm store and Kafka's own RocksDB store ({@code Stores.persistentKeyValueStore}, on
 * the same engine in this process) given the same random operations, compared after each step
 * through every read the interface has: get, range, reverseRange, all, reverseAll, prefixScan,
 * and the read-only views.
 */
class StoreComparisonTest {
    @TempDir
    Path dir;
    private KeyValueStore<Bytes, byte[]> ours;
    private KeyValueStore<Bytes, byte[]> kafka;

    @BeforeEach
    void open() {
        ours = RocksffmStores.keyValueStore("store").get();
        ours.init(new TestContext(dir.resolve("ours").toFile(), Map.of()), ours);
        kafka = Stores.persistentKeyValueStore("store").get();
        kafka.init(new TestContext(dir.resolve("kafka").toFile(), Map.of()), kafka);
    }

    @AfterEach
    void close() {
        ours.close();
        kafka.close();
    }

    private static Bytes key(Random random) {
        byte[] k = new byte[1 + random.nextInt(3)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (random.nextInt(6) * 51); // includes 0x00 and 0xFF
        }
        return Bytes.wrap(k);
    }

    private static byte[] value(Random random) {
        if (random.nextInt(10) == 0) {
            return null; // a put of null deletes
        }
        byte[] v = new byte[random.nextInt(5)];
        random.nextBytes(v);
        return v;
    }

    private static List<String> drain(KeyValueIterator<Bytes, byte[]> it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue<Bytes, byte[]> kv = it.next();
                out.add(kv.key + "=" + Bytes.wrap(kv.value));
            }
        }
        return out;
    }

    private static void compareReads(ReadOnlyKeyValueStore<Bytes, byte[]> a, ReadOnlyKeyValueStore<Bytes, byte[]> b,
                                     Random random, String step) {
        assertEquals(drain(b.all()), drain(a.all()), step + " all");
        assertEquals(drain(b.reverseAll()), drain(a.reverseAll()), step + " reverseAll");
        for (int i = 0; i < 5; i++) {
            Bytes k = key(random);
            assertArrayEquals(b.get(k), a.get(k), step + " get " + k);
            Bytes from = random.nextInt(5) == 0 ? null : key(random);
            Bytes to = random.nextInt(5) == 0 ? null : key(random);
            assertEquals(drain(b.range(from, to)), drain(a.range(from, to)), step + " range " + from + " " + to);
            assertEquals(drain(b.reverseRange(from, to)), drain(a.reverseRange(from, to)),
                    step + " reverseRange " + from + " " + to);
            byte[] prefix = k.get().length > 1 ? Arrays.copyOf(k.get(), 1) : k.get();
            assertEquals(drain(b.prefixScan(prefix, Serdes.ByteArray().serializer())),
                    drain(a.prefixScan(prefix, Serdes.ByteArray().serializer())), step + " prefixScan " + Bytes.wrap(prefix));
        }
    }

    @Test
    void sameAnswersAsKafkasRocksDBStoreUnderRandomOperations() {
        Random random = new Random(33);
        for (int step = 0; step < 300; step++) {
            Bytes k = key(random);
            switch (random.nextInt(6)) {
                case 0, 1 -> {
                    byte[] v = value(random);
                    ours.put(k, v);
                    kafka.put(k, v);
                }
                case 2 -> assertArrayEquals(kafka.delete(k), ours.delete(k), "delete " + k);
                case 3 -> {
                    byte[] v = value(random);
                    assertArrayEquals(kafka.putIfAbsent(k, v), ours.putIfAbsent(k, v), "putIfAbsent " + k);
                }
                case 4 -> {
                    List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
                    for (int i = random.nextInt(6); i > 0; i--) {
                        batch.add(KeyValue.pair(key(random), value(random)));
                    }
                    ours.putAll(batch);
                    kafka.putAll(batch);
                }
                default -> {
                    ours.commit(Map.of());
                    kafka.commit(Map.of());
                }
            }
            compareReads(ours, kafka, random, "step " + step);
        }
        assertEquals(drain(kafka.all()).size(), drain(ours.all()).size());
    }
}
