package io.rocksffm.kafka;

import static io.rocksffm.kafka.TestContext.b;
import static io.rocksffm.kafka.TestContext.v;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocksffm.Options;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.Optional;

/**
 * What Kafka Streams 4.4 asks of a store beyond Kafka's 4.3.1 conformance tests: committed
 * offsets kept with the data, restore, read-only views by isolation level, uncommitted bytes,
 * iterators closed with the store, IQv2 with position bounds, the options hook. Where Kafka's own
 * RocksDB store has the behaviour (transactional, {@code enable.transactional.statestores}), the
 * two are run side by side and compared.
 */
class RocksffmKeyValueStoreTest {
    private static final String TRANSACTIONAL = "enable.transactional.statestores";
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);

    @TempDir
    Path dir;

    private static Map<String, String> contents(ReadOnlyKeyValueStore<Bytes, byte[]> store) {
        Map<String, String> out = new TreeMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
            it.forEachRemaining(kv -> out.put(new String(kv.key.get(), StandardCharsets.UTF_8),
                    new String(kv.value, StandardCharsets.UTF_8)));
        }
        return out;
    }

    private record Opened(KeyValueStore<Bytes, byte[]> store, TestContext context) {
    }

    private Opened open(boolean ours, String sub) {
        TestContext context = new TestContext(dir.resolve(sub).toFile(), Map.of(TRANSACTIONAL, true));
        KeyValueStore<Bytes, byte[]> store = ours ? RocksffmStores.keyValueStore("store").get()
                : Stores.persistentKeyValueStore("store").get();
        store.init(context, store);
        return new Opened(store, context);
    }

    /** Writes, commits at changelog offset 2, writes more, and closes without a commit (a crash). */
    private static void writeCommitAndCrash(Opened o) {
        o.context().setRecord("input", 0, 7);
        o.store().put(b("a"), v("1"));
        o.store().put(b("b"), v("2"));
        o.store().put(b("c"), v("3"));
        o.store().commit(Map.of(CHANGELOG, 2L));
        o.store().put(b("a"), v("changed"));
        o.store().delete(b("b"));
        o.store().put(b("d"), v("new"));
        o.store().close();
    }

    @Test
    void committedOffsetsAreStoredWithTheDataTheyCoverAndSurviveACrash() {
        Map<String, Map<String, String>> after = new TreeMap<>();
        for (boolean ours : new boolean[] {true, false}) {
            Opened first = open(ours, ours ? "ours" : "kafka");
            assertTrue(first.store().managesOffsets());
            assertNull(first.store().committedOffset(CHANGELOG));
            writeCommitAndCrash(first);
            if (ours) {
                // The same store object opens again (as Kafka may re-initialise a store) and reads its offsets anew.
                first.store().init(first.context(), first.store());
                assertEquals(2L, first.store().committedOffset(CHANGELOG));
                first.store().close();
            }

            Opened reopened = open(ours, ours ? "ours" : "kafka");
            try {
                assertEquals(2L, reopened.store().committedOffset(CHANGELOG), ours ? "rocksffm" : "kafka");
                after.put(ours ? "rocksffm" : "kafka", contents(reopened.store()));
                if (ours) {
                    assertEquals(Position.emptyPosition().withComponent("input", 0, 7), reopened.store().getPosition());
                }
            } finally {
                reopened.store().close();
            }
        }
        assertEquals(Map.of("a", "1", "b", "2", "c", "3"), after.get("rocksffm"));
        assertEquals(after.get("kafka"), after.get("rocksffm"));
    }

    @Test
    void restoreReplaysTheChangelogAfterTheCommittedOffsetInBatches() {
        Map<String, Map<String, String>> restored = new TreeMap<>();
        for (boolean ours : new boolean[] {true, false}) {
            Opened first = open(ours, ours ? "ours" : "kafka");
            writeCommitAndCrash(first);
            Opened reopened = open(ours, ours ? "ours" : "kafka");
            try {
                long from = reopened.store().committedOffset(CHANGELOG) + 1;
                List<ConsumerRecord<byte[], byte[]>> changelog = List.of(
                        new ConsumerRecord<>(CHANGELOG.topic(), 0, from, v("a"), v("changed")),
                        new ConsumerRecord<>(CHANGELOG.topic(), 0, from + 1, v("b"), null),
                        new ConsumerRecord<>(CHANGELOG.topic(), 0, from + 2, v("d"), v("new")));
                var callback = reopened.context().restoreCallback("store");
                assertInstanceOf(RecordBatchingStateRestoreCallback.class, callback);
                ((RecordBatchingStateRestoreCallback) callback).restoreBatch(changelog.subList(0, 2));
                ((RecordBatchingStateRestoreCallback) callback).restoreBatch(changelog.subList(2, 3));
                restored.put(ours ? "rocksffm" : "kafka", contents(reopened.store()));
            } finally {
                reopened.store().close();
            }
        }
        assertEquals(Map.of("a", "changed", "c", "3", "d", "new"), restored.get("rocksffm"));
        assertEquals(restored.get("kafka"), restored.get("rocksffm"));
    }

    @Test
    void restoreTakesThePositionFromTheChangelogHeadersAsKafkasStoreDoes() {
        Map<String, Position> positions = new TreeMap<>();
        for (boolean ours : new boolean[] {true, false}) {
            TestContext context = new TestContext(dir.resolve(ours ? "ours" : "kafka").toFile(),
                    Map.of("__iq.consistency.offset.vector.enabled__", true));
            KeyValueStore<Bytes, byte[]> store = ours ? RocksffmStores.keyValueStore("store").get()
                    : Stores.persistentKeyValueStore("store").get();
            store.init(context, store);
            try {
                List<ConsumerRecord<byte[], byte[]>> changelog = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    var headers = new org.apache.kafka.common.header.internals.RecordHeaders();
                    headers.add(org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper
                            .CHANGELOG_VERSION_HEADER_RECORD_CONSISTENCY);
                    headers.add("c", org.apache.kafka.streams.state.internals.PositionSerde.serialize(
                            Position.emptyPosition().withComponent("input", 0, 100 + i)).array());
                    changelog.add(new ConsumerRecord<>(CHANGELOG.topic(), 0, i, 0L,
                            org.apache.kafka.common.record.TimestampType.CREATE_TIME, -1, -1, v("k" + i), v("v" + i), headers,
                            Optional.empty()));
                }
                ((RecordBatchingStateRestoreCallback) context.restoreCallback("store")).restoreBatch(changelog);
                positions.put(ours ? "rocksffm" : "kafka", store.getPosition().copy());
                assertEquals(3, contents(store).size());
            } finally {
                store.close();
            }
        }
        assertEquals(Position.emptyPosition().withComponent("input", 0, 102), positions.get("rocksffm"));
        assertEquals(positions.get("kafka"), positions.get("rocksffm"));
    }

    @Test
    void readOnlyViewsSeeUncommittedWritesOnlyWhenReadUncommitted() {
        Map<String, List<Map<String, String>>> views = new TreeMap<>();
        for (boolean ours : new boolean[] {true, false}) {
            Opened o = open(ours, ours ? "ours" : "kafka");
            try {
                KeyValueStore<Bytes, byte[]> store = o.store();
                store.put(b("a"), v("1"));
                store.put(b("b"), v("2"));
                store.commit(Map.of(CHANGELOG, 1L));
                store.put(b("a"), v("uncommitted"));
                store.delete(b("b"));
                store.put(b("c"), v("3"));
                ReadOnlyKeyValueStore<Bytes, byte[]> committed = store.readOnly(IsolationLevel.READ_COMMITTED);
                ReadOnlyKeyValueStore<Bytes, byte[]> uncommitted = store.readOnly(IsolationLevel.READ_UNCOMMITTED);
                List<Map<String, String>> seen = new ArrayList<>();
                seen.add(contents(committed));
                seen.add(contents(uncommitted));
                assertArrayEquals(v("1"), committed.get(b("a")));
                assertArrayEquals(v("uncommitted"), uncommitted.get(b("a")));
                store.commit(Map.of(CHANGELOG, 4L));
                seen.add(contents(committed));
                views.put(ours ? "rocksffm" : "kafka", seen);
            } finally {
                o.store().close();
            }
        }
        assertEquals(List.of(Map.of("a", "1", "b", "2"), Map.of("a", "uncommitted", "c", "3"),
                Map.of("a", "uncommitted", "c", "3")), views.get("rocksffm"));
        assertEquals(views.get("kafka"), views.get("rocksffm"));
    }

    @Test
    void approximateNumUncommittedBytesCountsWritesSinceTheLastCommit() {
        Opened o = open(true, "ours");
        KeyValueStore<Bytes, byte[]> store = o.store();
        try {
            assertEquals(0, store.approximateNumUncommittedBytes());
            store.put(b("key"), new byte[100]);
            long one = store.approximateNumUncommittedBytes();
            assertTrue(one >= 103, "at least key and value: " + one);
            store.putAll(List.of(KeyValue.pair(b("k2"), new byte[50]), KeyValue.pair(b("k3"), new byte[50])));
            assertTrue(store.approximateNumUncommittedBytes() >= one + 104);
            store.commit(Map.of(CHANGELOG, 3L));
            assertEquals(0, store.approximateNumUncommittedBytes());
            assertEquals(3, contents(store).size());
        } finally {
            store.close();
        }
    }

    @Test
    void iteratorsStillOpenAreClosedWithTheStore() throws Exception {
        Opened o = open(true, "ours");
        RocksffmKeyValueStore store = (RocksffmKeyValueStore) o.store();
        store.put(b("a"), v("1"));
        store.commit(Map.of());
        store.put(b("b"), v("2"));
        KeyValueIterator<Bytes, byte[]> range = store.range(b("a"), b("z"));
        KeyValueIterator<Bytes, byte[]> prefix = store.prefixScan("a", org.apache.kafka.common.serialization.Serdes.String().serializer());
        KeyValueIterator<Bytes, byte[]> all = store.reverseAll();
        assertTrue(range.hasNext());
        all.close();
        assertEquals(2, store.openIterators());
        store.close();
        assertEquals(0, store.openIterators());
        assertThrows(InvalidStateStoreException.class, range::hasNext);
        assertThrows(InvalidStateStoreException.class, prefix::next);
        assertFalse(store.isOpen());
        // The database is closed: its directory opens again.
        Opened again = open(true, "ours");
        try {
            assertEquals(Map.of("a", "1"), contents(again.store()));
        } finally {
            again.store().close();
        }
        assertTrue(Files.isDirectory(dir.resolve("ours/rocksffm/store")));
    }

    @Test
    void anIteratorOfAnotherThreadClosesAtItsNextUseAndTheDatabaseWithIt() throws Exception {
        Opened o = open(true, "ours");
        RocksffmKeyValueStore store = (RocksffmKeyValueStore) o.store();
        store.put(b("a"), v("1"));
        store.commit(Map.of());
        var executor = Executors.newSingleThreadExecutor();
        try {
            KeyValueIterator<Bytes, byte[]> query = executor.submit(() -> {
                KeyValueIterator<Bytes, byte[]> it = store.all();
                assertTrue(it.hasNext());
                return it;
            }).get();
            store.close();
            assertFalse(store.isOpen());
            assertEquals(1, store.openIterators());
            assertThrows(ExecutionException.class, () -> executor.submit(query::hasNext).get());
            assertEquals(0, store.openIterators());
        } finally {
            executor.shutdown();
        }
        // The database closed with the iterator: its directory opens again.
        Opened again = open(true, "ours");
        try {
            assertEquals(Map.of("a", "1"), contents(again.store()));
        } finally {
            again.store().close();
        }
    }

    @Test
    void interactiveQueriesAnswerKeyAndRangeQueriesWithinPositionBounds() {
        Opened o = open(true, "ours");
        KeyValueStore<Bytes, byte[]> store = o.store();
        try {
            o.context().setRecord("input", 0, 41);
            store.put(b("a"), v("1"));
            store.put(b("b"), v("2"));
            o.context().setRecord("input", 0, 42);
            store.put(b("c"), v("3"));
            Position at42 = Position.emptyPosition().withComponent("input", 0, 42);
            assertEquals(at42, store.getPosition());

            QueryResult<byte[]> key = store.query(KeyQuery.withKey(b("b")), PositionBound.at(at42), new QueryConfig(true));
            assertTrue(key.isSuccess());
            assertArrayEquals(v("2"), key.getResult());
            assertEquals(at42, key.getPosition());
            assertFalse(key.getExecutionInfo().isEmpty());

            QueryResult<KeyValueIterator<Bytes, byte[]>> range = store.query(
                    RangeQuery.<Bytes, byte[]>withRange(b("b"), b("c")).withDescendingKeys(), PositionBound.unbounded(),
                    new QueryConfig(false));
            List<String> keys = new ArrayList<>();
            try (KeyValueIterator<Bytes, byte[]> it = range.getResult()) {
                it.forEachRemaining(kv -> keys.add(new String(kv.key.get(), StandardCharsets.UTF_8)));
            }
            assertEquals(List.of("c", "b"), keys);

            QueryResult<byte[]> ahead = store.query(KeyQuery.withKey(b("a")),
                    PositionBound.at(Position.emptyPosition().withComponent("input", 0, 43)), new QueryConfig(false));
            assertFalse(ahead.isSuccess());
            assertEquals(FailureReason.NOT_UP_TO_BOUND, ahead.getFailureReason());
        } finally {
            store.close();
        }
    }

    /** Records its calls (the hook of {@link #theOptionsHookSeesEveryStoreOpenAndClose}). */
    public static final class RecordingSetter implements RocksffmConfigSetter {
        static final List<String> CALLS = new CopyOnWriteArrayList<>();

        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.setWriteBufferSize(1 << 20);
            CALLS.add("set " + storeName + " " + options.writeBufferSize() + " " + configs.get(RocksffmConfigSetter.CONFIG));
        }

        @Override
        public void close(String storeName, Options options) {
            CALLS.add("close " + storeName);
        }
    }

    @Test
    void theOptionsHookSeesEveryStoreOpenAndClose() {
        RecordingSetter.CALLS.clear();
        TestContext context = new TestContext(dir.toFile(), Map.of(RocksffmConfigSetter.CONFIG, RecordingSetter.class.getName()));
        KeyValueStore<Bytes, byte[]> store = RocksffmStores.timestampedKeyValueStore("ts").get();
        store.init(context, store);
        assertInstanceOf(org.apache.kafka.streams.state.TimestampedBytesStore.class, store);
        store.close();
        assertEquals(List.of("set ts 1048576 " + RecordingSetter.class.getName(), "close ts"), RecordingSetter.CALLS);
    }
}
