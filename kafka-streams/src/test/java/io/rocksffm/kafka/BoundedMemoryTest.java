package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocksffm.Options;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * The store's memory stays bounded under exactly-once in both of Kafka 4.4's modes, driven as a
 * stream thread drives it: many transactions of writes, with {@code commit} after each
 * transaction and early when the store's uncommitted bytes pass Kafka's limit
 * ({@code statestore.uncommitted.max.bytes}) only when {@code enable.transactional.statestores}
 * is true; when it is false Kafka does not commit the store between transactions, and the store
 * must hold nothing. Small memtables make RocksDB flush, so the data shows in SST files.
 */
class BoundedMemoryTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);
    private static final int TRANSACTIONS = 100;
    private static final int WRITES_PER_TRANSACTION = 1_000;
    private static final int KEYS = 50_000;
    private static final long LIMIT = 64 << 10;

    @TempDir
    Path dir;

    /** Memtables of 64 KiB, so that a few thousand writes reach SST files. */
    public static final class SmallMemtables implements RocksffmConfigSetter {
        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.setWriteBufferSize(64 << 10);
        }
    }

    private record Run(long maxBuffered, List<Long> samples, long sstFiles, long commits) {
    }

    private static Bytes key(int k) {
        return Bytes.wrap(ByteBuffer.allocate(12).putInt(0x6b657900).putLong(k).array());
    }

    private static long sstFiles(Path db) throws IOException {
        try (Stream<Path> files = Files.list(db)) {
            return files.filter(f -> f.toString().endsWith(".sst")).count();
        }
    }

    /**
     * Runs {@link #TRANSACTIONS} transactions on a store, committing it as Kafka 4.4's stream
     * thread does in the mode; returns the store's uncommitted bytes sampled every 10
     * transactions (before their commit), their maximum, and the SST files before the store closes.
     */
    private Run run(boolean transactional) throws IOException {
        Map<String, Object> configs = new HashMap<>();
        configs.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        configs.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, transactional);
        configs.put(RocksffmConfigSetter.CONFIG, SmallMemtables.class);
        TestContext context = new TestContext(dir.resolve(transactional ? "transactional" : "direct").toFile(), configs);
        RocksffmKeyValueStore store = (RocksffmKeyValueStore) RocksffmStores.keyValueStore("counts").get();
        store.init(context, store);
        SplittableRandom random = new SplittableRandom(44);
        List<Long> samples = new ArrayList<>();
        long max = 0;
        long commits = 0;
        long offset = 0;
        Map<Integer, byte[]> model = new HashMap<>();
        try {
            for (int t = 0; t < TRANSACTIONS; t++) {
                for (int w = 0; w < WRITES_PER_TRANSACTION; w++) {
                    int k = random.nextInt(KEYS);
                    byte[] value = new byte[100];
                    random.nextBytes(value);
                    context.setRecord("input", 0, offset++);
                    store.put(key(k), value);
                    model.put(k, value);
                    max = Math.max(max, store.approximateNumUncommittedBytes());
                    if (transactional && store.approximateNumUncommittedBytes() > LIMIT) {
                        store.commit(Map.of(CHANGELOG, offset)); // Kafka's early commit
                        commits++;
                    }
                }
                if (t % 10 == 9) {
                    samples.add(store.approximateNumUncommittedBytes());
                }
                if (transactional) {
                    store.commit(Map.of(CHANGELOG, offset)); // after each transaction
                    commits++;
                }
            }
            long sst = sstFiles(store.directory());
            for (Map.Entry<Integer, byte[]> e : model.entrySet()) {
                assertArrayEquals(e.getValue(), store.get(key(e.getKey())));
            }
            store.commit(Map.of(CHANGELOG, offset)); // at close
            return new Run(max, samples, sst, commits);
        } finally {
            store.close();
        }
    }

    @Test
    void withoutTransactionalStoresTheStoreHoldsNothingAndTheDataReachesSstFiles() throws IOException {
        Run run = run(false);
        System.out.printf("not transactional: buffered bytes every 10 transactions %s, max %d, SST files %d%n",
                run.samples(), run.maxBuffered(), run.sstFiles());
        assertEquals(0, run.maxBuffered(), "bytes held in the heap");
        assertTrue(run.sstFiles() > 0, "SST files: " + run.sstFiles());
    }

    @Test
    void withTransactionalStoresKafkasEarlyCommitBoundsTheBuffer() throws IOException {
        Run run = run(true);
        System.out.printf("transactional: buffered bytes every 10 transactions %s, max %d, commits %d, SST files %d%n",
                run.samples(), run.maxBuffered(), run.commits(), run.sstFiles());
        long onePut = 12 + 100 + UncommittedWrites.ENTRY_OVERHEAD;
        assertTrue(run.maxBuffered() <= LIMIT + onePut, "max buffered " + run.maxBuffered());
        assertTrue(run.sstFiles() > 0, "SST files: " + run.sstFiles());
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** What the store reports is the heap its buffer takes (within a factor that noise allows), not just the data. */
    @Test
    void uncommittedBytesAreTheHeapTheBufferTakes() {
        Map<String, Object> configs = Map.of(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, true);
        TestContext context = new TestContext(dir.toFile(), configs);
        KeyValueStore<Bytes, byte[]> store = RocksffmStores.keyValueStore("store").get();
        store.init(context, store);
        try {
            long before = usedHeapAfterGc();
            for (int k = 0; k < 200_000; k++) {
                store.put(key(k), new byte[16]);
            }
            long used = usedHeapAfterGc() - before;
            long reported = store.approximateNumUncommittedBytes();
            System.out.printf("200,000 uncommitted writes of 12-byte keys and 16-byte values: reported %,d bytes, "
                    + "heap grew %,d bytes (keys and values alone: %,d)%n", reported, used, 200_000L * 28);
            assertTrue(reported > used * 0.6 && reported < used * 1.6, "reported " + reported + ", heap " + used);
            store.commit(Map.of(CHANGELOG, 1L));
            assertEquals(0, store.approximateNumUncommittedBytes());
        } finally {
            store.close();
        }
    }
}
