package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.WindowKeyQuery;
import org.apache.kafka.streams.query.WindowRangeQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What Kafka's conformance tests leave out of rocksffm's window and session stores: committed
 * offsets and data across a reopen, a crash under exactly-once, expired segments gone from the
 * database, and interactive queries through Kafka's window and session query handler.
 */
class RocksffmWindowStoreTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-w-changelog", 0);

    @TempDir
    Path dir;

    private static Bytes key(int i) {
        return Bytes.wrap(new byte[] {(byte) i});
    }

    private WindowStore<Bytes, byte[]> openWindows(File stateDir) {
        WindowStore<Bytes, byte[]> store = RocksffmStores.windowStore("w", Duration.ofMinutes(2), Duration.ofSeconds(10), false).get();
        store.init(new TestContext(stateDir, Map.of()), store);
        return store;
    }

    private static List<Long> times(WindowStoreIterator<byte[]> it) {
        List<Long> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(kv -> out.add(kv.key));
        }
        return out;
    }

    @Test
    void dataAndCommittedOffsetsSurviveAReopen() {
        File stateDir = dir.toFile();
        WindowStore<Bytes, byte[]> store = openWindows(stateDir);
        store.put(key(1), new byte[] {1}, 10_000);
        store.put(key(1), new byte[] {2}, 20_000);
        store.commit(Map.of(CHANGELOG, 41L));
        store.close();

        store = openWindows(stateDir);
        try {
            assertEquals(41L, store.committedOffset(CHANGELOG));
            assertEquals(List.of(10_000L, 20_000L), times(store.fetch(key(1), 0, 60_000)));
            assertArrayEquals(new byte[] {2}, store.fetch(key(1), 20_000));
        } finally {
            store.close();
        }
    }

    @Test
    void underExactlyOnceAStoreNotClosedCleanlyIsCorruptedAndOneClosedCleanlyOpens() {
        Map<String, Object> eos = Map.of(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        File stateDir = dir.toFile();
        WindowStore<Bytes, byte[]> store = RocksffmStores.windowStore("w", Duration.ofMinutes(2), Duration.ofSeconds(10), false).get();
        store.init(new TestContext(stateDir, eos), store);
        store.put(key(1), new byte[] {1}, 10_000);
        store.commit(Map.of(CHANGELOG, 1L));
        store.put(key(1), new byte[] {2}, 20_000); // after the commit: ahead of the committed offset
        ((SegmentedStore) store).closeAsIfCrashed();

        WindowStore<Bytes, byte[]> reopened = RocksffmStores.windowStore("w", Duration.ofMinutes(2), Duration.ofSeconds(10), false).get();
        assertThrows(TaskCorruptedException.class, () -> reopened.init(new TestContext(stateDir, eos), reopened));
        // At least once, the same database opens (replaying the changelog from the offset is enough).
        WindowStore<Bytes, byte[]> atLeastOnce = openWindows(stateDir);
        atLeastOnce.close();
        // Closed cleanly: it opens under exactly-once too.
        WindowStore<Bytes, byte[]> clean = RocksffmStores.windowStore("w", Duration.ofMinutes(2), Duration.ofSeconds(10), false).get();
        clean.init(new TestContext(stateDir, eos), clean);
        try {
            assertEquals(1L, clean.committedOffset(CHANGELOG));
        } finally {
            clean.close();
        }
    }

    @Test
    void expiredSegmentsLeaveTheDatabase() {
        WindowStore<Bytes, byte[]> store = openWindows(dir.toFile());
        try {
            for (int i = 0; i < 50; i++) {
                store.put(key(i), new byte[100], 0);
            }
            SegmentedStore segmented = (SegmentedStore) store;
            // Ten minutes later: the first segments (a minute each) are past the two-minute retention.
            store.put(key(1), new byte[] {9}, 600_000);
            assertNull(store.fetch(key(1), 0));
            try (KeyValueIterator<Windowed<Bytes>, byte[]> all = store.all()) {
                assertEquals(600_000L, all.next().key.window().start());
                assertFalse(all.hasNext());
            }
            // Physically gone: a raw scan of the database from the first key finds only the new record.
            assertEquals(1, segmented.databaseEntries());
        } finally {
            store.close();
        }
    }

    @Test
    void interactiveQueriesGoThroughKafkasWindowAndSessionHandlers() {
        WindowStore<Bytes, byte[]> windows = openWindows(dir.resolve("w").toFile());
        SessionStore<Bytes, byte[]> sessions = RocksffmStores.sessionStore("s", Duration.ofMinutes(2)).get();
        sessions.init(new TestContext(dir.resolve("s").toFile(), Map.of()), sessions);
        try {
            windows.put(key(1), new byte[] {1}, 10_000);
            windows.put(key(1), new byte[] {2}, 20_000);
            windows.put(key(2), new byte[] {3}, 20_000);
            QueryResult<WindowStoreIterator<byte[]>> byKey = windows.query(
                    WindowKeyQuery.withKeyAndWindowStartRange(key(1), Instant.ofEpochMilli(0), Instant.ofEpochMilli(15_000)),
                    PositionBound.unbounded(), new QueryConfig(false));
            assertTrue(byKey.isSuccess(), byKey.toString());
            assertEquals(List.of(10_000L), times(byKey.getResult()));

            sessions.put(new Windowed<>(key(1), new SessionWindow(0, 5_000)), new byte[] {1});
            sessions.put(new Windowed<>(key(2), new SessionWindow(1_000, 2_000)), new byte[] {2});
            QueryResult<KeyValueIterator<Windowed<Bytes>, byte[]>> byRange = sessions.query(
                    WindowRangeQuery.withKey(key(1)), PositionBound.unbounded(), new QueryConfig(false));
            assertTrue(byRange.isSuccess(), byRange.toString());
            try (KeyValueIterator<Windowed<Bytes>, byte[]> it = byRange.getResult()) {
                assertEquals(new SessionWindow(0, 5_000), it.next().key.window());
                assertFalse(it.hasNext());
            }
        } finally {
            windows.close();
            sessions.close();
        }
    }
}
