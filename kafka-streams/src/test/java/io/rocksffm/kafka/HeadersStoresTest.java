package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The headers-format stores ({@link RocksffmTimestampedKeyValueStoreWithHeaders},
 * {@link RocksffmTimestampedWindowStoreWithHeaders}, {@link RocksffmSessionStoreWithHeaders}):
 * marked as Kafka marks its own (so its builders and restore take them as they are), they keep
 * headers-format values as they are given, and a store opened on a database written in the other
 * value formats (or the other way round) starts empty, with no committed offset, so that Kafka
 * restores it from its changelog instead of it misreading the values.
 */
class HeadersStoresTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-s-changelog", 0);

    @TempDir
    Path dir;

    private static <S extends StateStore> S open(Supplier<S> make, File stateDir) {
        S store = make.get();
        store.init(new TestContext(stateDir, Map.of()), store);
        return store;
    }

    /** A value in Kafka's headers format: an empty header set, a timestamp, the value. */
    private static byte[] headersValue(String value) {
        return HeadersBytesStore.convertToHeaderFormat(
                ByteBuffer.allocate(8 + value.length()).putLong(7).put(TestContext.v(value)).array());
    }

    @Test
    void theHeadersStoresAreMarkedAsKafkasAre() {
        assertTrue(RocksffmStores.timestampedKeyValueStoreWithHeaders("kv").get() instanceof HeadersBytesStore);
        assertTrue(RocksffmStores.timestampedKeyValueStoreWithHeaders("kv").get() instanceof TimestampedBytesStore);
        WindowStore<Bytes, byte[]> window = RocksffmStores.timestampedWindowStoreWithHeaders("w", Duration.ofMinutes(2),
                Duration.ofSeconds(10), false).get();
        assertTrue(window instanceof HeadersBytesStore && window instanceof TimestampedBytesStore);
        SessionStore<Bytes, byte[]> session = RocksffmStores.sessionStoreWithHeaders("s", Duration.ofMinutes(2)).get();
        assertTrue(session instanceof HeadersBytesStore);
        assertTrue(!(RocksffmStores.timestampedKeyValueStore("kv").get() instanceof HeadersBytesStore));
    }

    @Test
    void aKeyValueStoreOfTheOtherFormatStartsEmptyAndOneOfTheSameFormatKeepsItsData() {
        File stateDir = dir.toFile();
        Supplier<KeyValueStore<Bytes, byte[]>> timestamped = () -> RocksffmStores.timestampedKeyValueStore("s").get();
        Supplier<KeyValueStore<Bytes, byte[]>> headers = () -> RocksffmStores.timestampedKeyValueStoreWithHeaders("s").get();

        KeyValueStore<Bytes, byte[]> store = open(timestamped, stateDir);
        store.put(TestContext.b("a"), TestContext.v("12345678old"));
        store.commit(Map.of(CHANGELOG, 5L));
        store.close();

        store = open(headers, stateDir);
        assertNull(store.committedOffset(CHANGELOG));
        assertNull(store.get(TestContext.b("a")));
        byte[] value = headersValue("new");
        store.put(TestContext.b("a"), value);
        store.commit(Map.of(CHANGELOG, 9L));
        store.close();

        store = open(headers, stateDir);
        assertEquals(9L, store.committedOffset(CHANGELOG));
        assertArrayEquals(value, store.get(TestContext.b("a")));
        store.close();

        store = open(timestamped, stateDir);
        assertNull(store.committedOffset(CHANGELOG));
        assertNull(store.get(TestContext.b("a")));
        store.close();
    }

    @Test
    void windowAndSessionStoresOfTheOtherFormatStartEmpty() {
        File stateDir = dir.toFile();
        Supplier<WindowStore<Bytes, byte[]>> timestamped = () -> RocksffmStores.timestampedWindowStore("w",
                Duration.ofMinutes(2), Duration.ofSeconds(10), false).get();
        Supplier<WindowStore<Bytes, byte[]>> headers = () -> RocksffmStores.timestampedWindowStoreWithHeaders("w",
                Duration.ofMinutes(2), Duration.ofSeconds(10), false).get();
        WindowStore<Bytes, byte[]> windows = open(timestamped, stateDir);
        windows.put(TestContext.b("a"), TestContext.v("12345678old"), 10_000);
        windows.commit(Map.of(CHANGELOG, 5L));
        windows.close();
        windows = open(headers, stateDir);
        assertNull(windows.fetch(TestContext.b("a"), 10_000));
        byte[] value = headersValue("new");
        windows.put(TestContext.b("a"), value, 10_000);
        windows.commit(Map.of(CHANGELOG, 6L));
        windows.close();
        windows = open(headers, stateDir);
        assertEquals(6L, windows.committedOffset(CHANGELOG));
        assertArrayEquals(value, windows.fetch(TestContext.b("a"), 10_000));
        windows.close();

        Supplier<SessionStore<Bytes, byte[]>> plain = () -> RocksffmStores.sessionStore("s", Duration.ofMinutes(2)).get();
        Supplier<SessionStore<Bytes, byte[]>> withHeaders = () -> RocksffmStores.sessionStoreWithHeaders("s",
                Duration.ofMinutes(2)).get();
        Windowed<Bytes> session = new Windowed<>(TestContext.b("a"), new SessionWindow(1_000, 2_000));
        SessionStore<Bytes, byte[]> sessions = open(plain, stateDir);
        sessions.put(session, TestContext.v("old"));
        sessions.commit(Map.of(CHANGELOG, 5L));
        sessions.close();
        sessions = open(withHeaders, stateDir);
        assertNull(sessions.fetchSession(TestContext.b("a"), 1_000, 2_000));
        byte[] aggregate = HeadersBytesStore.convertFromPlainToHeaderFormat(TestContext.v("new"));
        sessions.put(session, aggregate);
        sessions.commit(Map.of(CHANGELOG, 6L));
        sessions.close();
        sessions = open(withHeaders, stateDir);
        assertArrayEquals(aggregate, sessions.fetchSession(TestContext.b("a"), 1_000, 2_000));
        sessions.close();
        sessions = open(plain, stateDir);
        assertNull(sessions.fetchSession(TestContext.b("a"), 1_000, 2_000));
        sessions.close();
    }
}
