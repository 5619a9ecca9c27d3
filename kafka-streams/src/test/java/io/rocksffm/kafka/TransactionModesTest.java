package io.rocksffm.kafka;

import static io.rocksffm.kafka.TestContext.b;
import static io.rocksffm.kafka.TestContext.v;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The store in each of Kafka 4.4's modes ({@code enable.transactional.statestores}): interactive
 * queries at each isolation level (compared with Kafka's own store), iterators left open across a
 * commit, and under exactly-once a store left open by a crash.
 */
class TransactionModesTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

    @TempDir
    Path dir;

    private static String s(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    private static Map<String, String> drain(KeyValueIterator<Bytes, byte[]> it) {
        Map<String, String> out = new TreeMap<>();
        try (it) {
            it.forEachRemaining(kv -> out.put(s(kv.key.get()), s(kv.value)));
        }
        return out;
    }

    private static Map<String, Object> configs(boolean transactional, boolean exactlyOnce) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, transactional);
        if (exactlyOnce) {
            configs.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        }
        return configs;
    }

    private KeyValueStore<Bytes, byte[]> open(boolean ours, TestContext context) {
        KeyValueStore<Bytes, byte[]> store = ours ? RocksffmStores.keyValueStore("store").get()
                : Stores.persistentKeyValueStore("store").get();
        store.init(context, store);
        return store;
    }

    @Test
    void anIteratorOpenAcrossACommitSeesEveryKeyItWasMadeWith() throws Exception {
        TestContext context = new TestContext(dir.toFile(), configs(true, true));
        KeyValueStore<Bytes, byte[]> store = open(true, context);
        ExecutorService queries = Executors.newSingleThreadExecutor();
        try {
            Map<String, String> expected = new TreeMap<>();
            for (int i = 0; i < 20; i++) {
                store.put(b("committed-" + i), v("c" + i));
                expected.put("committed-" + i, "c" + i);
            }
            store.commit(Map.of(CHANGELOG, 20L));
            for (int i = 0; i < 50; i++) {
                store.put(b("pending-" + i), v("p" + i));
                expected.put("pending-" + i, "p" + i);
            }
            store.delete(b("committed-3"));
            expected.remove("committed-3");
            // An interactive query's iterator, on its own thread, read partly before the commit.
            KeyValueIterator<Bytes, byte[]> query = queries.submit(() -> {
                QueryResult<KeyValueIterator<Bytes, byte[]>> r = store.query(RangeQuery.withNoBounds(),
                        PositionBound.unbounded(), new QueryConfig(false));
                return r.getResult();
            }).get();
            KeyValueIterator<Bytes, byte[]> all = store.all();
            Map<String, String> seen = new TreeMap<>();
            for (int i = 0; i < 5; i++) {
                var kv = all.next();
                seen.put(s(kv.key.get()), s(kv.value));
            }
            store.commit(Map.of(CHANGELOG, 71L));
            store.put(b("after-commit"), v("x"));
            seen.putAll(drain(all));
            assertEquals(expected, seen);
            assertEquals(expected, queries.submit(() -> drain(query)).get());
            expected.put("after-commit", "x");
            assertEquals(expected, drain(store.all()));
        } finally {
            queries.shutdown();
            store.close();
        }
    }

    @Test
    void interactiveQueriesReadAtTheirIsolationLevelAsOnKafkasStore() {
        Map<String, List<String>> answers = new TreeMap<>();
        for (boolean ours : new boolean[] {true, false}) {
            TestContext context = new TestContext(dir.resolve(ours ? "ours" : "kafka").toFile(), configs(true, true));
            KeyValueStore<Bytes, byte[]> store = open(ours, context);
            List<String> answer = new ArrayList<>();
            try {
                context.setRecord("input", 0, 10);
                store.put(b("a"), v("1"));
                store.put(b("b"), v("2"));
                store.commit(Map.of(CHANGELOG, 2L));
                context.setRecord("input", 0, 11);
                store.put(b("a"), v("uncommitted"));
                store.delete(b("b"));
                store.put(b("c"), v("3"));
                for (IsolationLevel level : IsolationLevel.values()) {
                    QueryConfig config = new QueryConfig(false, level);
                    QueryResult<byte[]> key = store.query(KeyQuery.withKey(b("a")), PositionBound.unbounded(), config);
                    QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(
                            RangeQuery.<Bytes, byte[]>withNoBounds().withDescendingKeys(), PositionBound.unbounded(), config);
                    QueryResult<byte[]> ahead = store.query(KeyQuery.withKey(b("a")),
                            PositionBound.at(Position.emptyPosition().withComponent("input", 0, 11)), config);
                    answer.add(level.name() + " key=" + s(key.getResult()) + " range=" + drain(range.getResult())
                            + " position=" + key.getPosition() + " upToBound=" + ahead.isSuccess());
                }
            } finally {
                store.close();
            }
            answers.put(ours ? "rocksffm" : "kafka", answer);
        }
        System.out.println(answers);
        assertEquals(List.of(
                "READ_UNCOMMITTED key=uncommitted range={a=uncommitted, c=3} position=" + pos(11) + " upToBound=true",
                "READ_COMMITTED key=1 range={a=1, b=2} position=" + pos(10) + " upToBound=false"), answers.get("rocksffm"));
        assertEquals(answers.get("kafka"), answers.get("rocksffm"));
    }

    private static Position pos(long offset) {
        return Position.emptyPosition().withComponent("input", 0, offset);
    }

    @Test
    void withoutTransactionalStoresWritesReachTheDatabaseAtOnce() {
        TestContext context = new TestContext(dir.toFile(), configs(false, true));
        RocksffmKeyValueStore store = (RocksffmKeyValueStore) open(true, context);
        try {
            store.put(b("a"), v("1"));
            store.delete(b("a"));
            store.put(b("b"), v("2"));
            assertEquals(0, store.approximateNumUncommittedBytes());
            // Nothing held: what is committed and what is not are the same.
            assertArrayEquals(v("2"), store.readOnly(IsolationLevel.READ_COMMITTED).get(b("b")));
            assertNull(store.readOnly(IsolationLevel.READ_COMMITTED).get(b("a")));
        } finally {
            store.close();
        }
    }

    /** Under exactly-once: writes a, commits at offset 1, writes b, and closes the store as a crash would. */
    private TestContext writeCommitAndCrash(Path at, boolean transactional) {
        TestContext context = new TestContext(at.toFile(), configs(transactional, true));
        RocksffmKeyValueStore store = (RocksffmKeyValueStore) open(true, context);
        store.put(b("a"), v("1"));
        store.commit(Map.of(CHANGELOG, 1L));
        store.put(b("b"), v("not covered by the offsets"));
        store.closeAsIfCrashed();
        return context;
    }

    @Test
    void underExactlyOnceAStoreThatWroteStraightToRocksDbAndDiedOpenIsCorrupt() {
        Path sub = dir.resolve("eos");
        TestContext context = writeCommitAndCrash(sub, false);

        RocksffmKeyValueStore again = (RocksffmKeyValueStore) RocksffmStores.keyValueStore("store").get();
        TaskCorruptedException e = assertThrows(TaskCorruptedException.class,
                () -> again.init(new TestContext(sub.toFile(), configs(false, true)), again));
        assertEquals(Set.of(context.taskId()), e.corruptedTasks());
        assertTrue(!again.isOpen());

        // At least once, the same database opens (replaying from the offsets is enough there).
        KeyValueStore<Bytes, byte[]> atLeastOnce = open(true, new TestContext(sub.toFile(), configs(false, false)));
        try {
            assertEquals(1L, atLeastOnce.committedOffset(CHANGELOG));
            assertEquals(Map.of("a", "1", "b", "not covered by the offsets"), drain(atLeastOnce.all()));
        } finally {
            atLeastOnce.close();
        }
        // Closed cleanly, it opens under exactly-once too.
        KeyValueStore<Bytes, byte[]> clean = open(true, new TestContext(sub.toFile(), configs(false, true)));
        clean.close();
    }

    @Test
    void aTransactionalStoreThatDiedHoldsItsLastCommitAndOpensUnderExactlyOnce() {
        writeCommitAndCrash(dir, true);
        KeyValueStore<Bytes, byte[]> again = open(true, new TestContext(dir.toFile(), configs(true, true)));
        try {
            assertEquals(1L, again.committedOffset(CHANGELOG));
            assertEquals(Map.of("a", "1"), drain(again.all()));
        } finally {
            again.close();
        }
    }
}
