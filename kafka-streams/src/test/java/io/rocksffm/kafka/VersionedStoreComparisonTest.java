package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.MultiVersionedKeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.VersionedKeyQuery;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

/**
 * The rocksffm versioned store and Kafka's own ({@code Stores.persistentVersionedKeyValueStore}, on
 * the same engine in this process) given the same random versioned operations: puts and deletes at
 * timestamps that mostly advance but also go back (into and beyond the history retention), with
 * every answer compared: what each put returns (until when the version is valid, or that it was
 * not put), what each delete returns, the latest value and the value as of times around the
 * stream time, after every step; and the same interactive queries through Kafka's metered store on
 * top of each (a versioned key query, latest or as of a time, with the valid-to time; a
 * multi-version query with or without time bounds, in either order), answers compared.
 */
class VersionedStoreComparisonTest {
    @TempDir
    Path dir;

    private static Bytes key(Random random) {
        byte[] k = new byte[1 + random.nextInt(2)];
        for (int i = 0; i < k.length; i++) {
            k[i] = (byte) (random.nextInt(4) * 85); // includes 0x00 and 0xFF; keys that prefix others
        }
        return Bytes.wrap(k);
    }

    private static byte[] value(Random random) {
        byte[] v = new byte[1 + random.nextInt(4)];
        random.nextBytes(v);
        return v;
    }

    /** A processor that does nothing: the stores hang off it. */
    private static final class NoOp implements Processor<Object, Object, Object, Object> {
        @Override
        public void process(Record<Object, Object> record) {
        }
    }

    /** The two stores, in one topology run by a {@link TopologyTestDriver} (Kafka's store needs a task's context). */
    private static TopologyTestDriver driver(Path stateDir, long retention, long segmentInterval) {
        Topology topology = new Topology();
        topology.addSource("in", "in");
        topology.addProcessor("noop", NoOp::new, "in");
        topology.addStateStore(Stores.versionedKeyValueStoreBuilder(
                new RocksffmVersionedBytesStoreSupplier("ours", retention, segmentInterval),
                Serdes.Bytes(), Serdes.ByteArray()), "noop");
        topology.addStateStore(Stores.versionedKeyValueStoreBuilder(
                Stores.persistentVersionedKeyValueStore("kafka", Duration.ofMillis(retention), Duration.ofMillis(segmentInterval)),
                Serdes.Bytes(), Serdes.ByteArray()), "noop");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "versioned");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        return new TopologyTestDriver(topology, props);
    }

    private static String show(VersionedRecord<byte[]> record) {
        return record == null ? "null" : Bytes.wrap(record.value()) + "@" + record.timestamp();
    }

    private static String showWithValidTo(VersionedRecord<byte[]> record) {
        return record == null ? "null" : show(record) + record.validTo().map(t -> " until " + t).orElse("");
    }

    /** A versioned key query's answer through the store's interactive-query path (Kafka's metered store on top). */
    private static String answer(StateStore store, VersionedKeyQuery<Bytes, byte[]> query) {
        QueryResult<VersionedRecord<byte[]>> result = store.query(query, PositionBound.unbounded(), new QueryConfig(false));
        assertTrue(result.isSuccess(), () -> store.name() + " " + result);
        VersionedRecord<byte[]> record = result.getResult();
        return showWithValidTo(record);
    }

    /** A multi-version query's answer, every version in the order given. */
    private static List<VersionedRecord<byte[]>> versions(StateStore store, MultiVersionedKeyQuery<Bytes, byte[]> query) {
        QueryResult<VersionedRecordIterator<byte[]>> result = store.query(query, PositionBound.unbounded(), new QueryConfig(false));
        assertTrue(result.isSuccess(), () -> store.name() + " " + result);
        List<VersionedRecord<byte[]>> versions = new ArrayList<>();
        try (VersionedRecordIterator<byte[]> it = result.getResult()) {
            it.forEachRemaining(versions::add);
        }
        return versions;
    }

    private static String show(List<VersionedRecord<byte[]>> versions) {
        return versions.stream().map(VersionedStoreComparisonTest::showWithValidTo).toList().toString();
    }

    @ParameterizedTest(name = "history retention {0} ms, segments of {1} ms")
    @CsvSource({"1000, 100", "1000, 2000", "50, 20"})
    void sameAnswersAsKafkasVersionedStoreUnderRandomOperations(long retention, long segmentInterval) {
        try (TopologyTestDriver driver = driver(dir, retention, segmentInterval)) {
            VersionedKeyValueStore<Bytes, byte[]> ours = driver.getVersionedKeyValueStore("ours");
            VersionedKeyValueStore<Bytes, byte[]> kafka = driver.getVersionedKeyValueStore("kafka");
            assertTrue(TopologyTest.innermost(ours) instanceof RocksffmVersionedStore, TopologyTest.innermost(ours).getClass().getName());
            Random random = new Random(44 + retention + segmentInterval);
            long time = 2 * retention; // timestamps are never negative in Kafka
            int notPut = 0;
            int older = 0;
            int found = 0;
            int several = 0;
            int missedByKafka = 0;
            for (int step = 0; step < 800; step++) {
                Bytes k = key(random);
                long ts = Math.max(0, random.nextInt(4) == 0 ? time - random.nextInt((int) (retention * 3 / 2) + 1)
                        : time + random.nextInt(20));
                time = Math.max(time, ts);
                if (random.nextInt(6) == 0) {
                    assertEquals(show(kafka.delete(k, ts)), show(ours.delete(k, ts)), step + " delete " + k + " at " + ts);
                } else {
                    byte[] v = value(random);
                    long expected = kafka.put(k, v, ts);
                    assertEquals(expected, ours.put(k, v, ts), step + " put " + k + " at " + ts);
                    notPut += expected == VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT ? 1 : 0;
                    older += expected >= 0 ? 1 : 0;
                }
                for (int i = 0; i < 4; i++) {
                    Bytes q = key(random);
                    assertEquals(show(kafka.get(q)), show(ours.get(q)), step + " get " + q);
                    long asOf = Math.max(0, time - random.nextInt((int) (retention * 3 / 2) + 2));
                    assertEquals(show(kafka.get(q, asOf)), show(ours.get(q, asOf)), step + " get " + q + " as of " + asOf);
                }
                Bytes q = key(random);
                VersionedKeyQuery<Bytes, byte[]> keyQuery = VersionedKeyQuery.withKey(q);
                if (random.nextInt(4) != 0) {
                    keyQuery = keyQuery.asOf(Instant.ofEpochMilli(Math.max(0, time - random.nextInt((int) (retention * 3 / 2) + 2))));
                }
                String kafkaAnswer = answer((StateStore) kafka, keyQuery);
                assertEquals(kafkaAnswer, answer((StateStore) ours, keyQuery), step + " " + keyQuery);
                found += kafkaAnswer.contains("until") ? 1 : 0;
                MultiVersionedKeyQuery<Bytes, byte[]> multi = MultiVersionedKeyQuery.withKey(q);
                long from = Math.max(0, time - random.nextInt((int) (retention * 2) + 2));
                if (random.nextInt(4) != 0) {
                    multi = multi.fromTime(Instant.ofEpochMilli(from));
                }
                if (random.nextInt(4) != 0) {
                    multi = multi.toTime(Instant.ofEpochMilli(from + random.nextInt((int) retention + 1)));
                }
                multi = random.nextBoolean() ? multi.withAscendingTimestamps() : multi.withDescendingTimestamps();
                List<VersionedRecord<byte[]>> kafkaVersions = versions((StateStore) kafka, multi);
                List<VersionedRecord<byte[]>> ourVersions = versions((StateStore) ours, multi);
                // Kafka's store looks for older versions only in its segments up to the one of the
                // query's upper bound, where a version sits in the segment of its valid-to time: it
                // misses a version that began by the upper bound but stopped being valid in a later
                // segment. Ours returns it; each such version must be the one Kafka's store has then.
                long toSegment = multi.toTime().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE) / segmentInterval;
                List<VersionedRecord<byte[]>> beyond = ourVersions.stream()
                        .filter(r -> r.validTo().isPresent() && r.validTo().get() / segmentInterval > toSegment).toList();
                List<VersionedRecord<byte[]>> within = new ArrayList<>(ourVersions);
                within.removeAll(beyond);
                String where = step + " versions of " + q + " from " + multi.fromTime() + " to " + multi.toTime() + " "
                        + multi.resultOrder() + ", stream time " + time;
                assertEquals(show(kafkaVersions), show(within), where);
                for (VersionedRecord<byte[]> extra : beyond) {
                    // the version Kafka's store has just before that version's end (within the history retention)
                    assertEquals(answer((StateStore) kafka, VersionedKeyQuery.<Bytes, byte[]>withKey(q)
                            .asOf(Instant.ofEpochMilli(extra.validTo().get() - 1))), showWithValidTo(extra), where);
                    assertTrue(extra.timestamp() <= multi.toTime().get().toEpochMilli()
                            && extra.validTo().get() > multi.fromTime().map(Instant::toEpochMilli).orElse(Long.MIN_VALUE), where);
                }
                missedByKafka += beyond.size();
                several += kafkaVersions.size() > 1 ? 1 : 0;
            }
            // The random walk reached every case: late puts refused, and puts into the history.
            assertTrue(notPut > 10 && older > 10, notPut + " not put, " + older + " into the history");
            // and the queries found older versions, and several versions at once.
            assertTrue(found > 10 && several > 10, found + " older versions found, " + several + " answers of several versions");
            assertTrue(missedByKafka > 0, "no version beyond the segment of a query's upper bound was asked for");
        }
    }

    @Test
    void queriesBeyondThePositionBoundFailAsOnKafkasVersionedStore() {
        try (TopologyTestDriver driver = driver(dir, 1000, 100)) {
            PositionBound ahead = PositionBound.at(Position.fromMap(Map.of("in", Map.of(0, 5L))));
            for (String name : List.of("ours", "kafka")) {
                StateStore store = (StateStore) driver.getVersionedKeyValueStore(name);
                QueryResult<VersionedRecord<byte[]>> result = store.query(VersionedKeyQuery.withKey(Bytes.wrap(new byte[] {1})),
                        ahead, new QueryConfig(true));
                assertEquals(FailureReason.NOT_UP_TO_BOUND, result.getFailureReason(), name);
                QueryResult<VersionedRecordIterator<byte[]>> multi = store.query(
                        MultiVersionedKeyQuery.withKey(Bytes.wrap(new byte[] {1})), ahead, new QueryConfig(true));
                assertEquals(FailureReason.NOT_UP_TO_BOUND, multi.getFailureReason(), name);
                assertTrue(store.query(VersionedKeyQuery.withKey(Bytes.wrap(new byte[] {1})), PositionBound.unbounded(),
                        new QueryConfig(true)).isSuccess(), name);
            }
        }
    }

    @Test
    void keyValueMethodsAreUnsupportedAsInKafkasVersionedStores() {
        VersionedBytesStore ours = (VersionedBytesStore) RocksffmStores.versionedKeyValueStore("v", Duration.ofMinutes(1)).get();
        ours.init(new TestContext(dir.toFile(), Map.of()), ours);
        try {
            assertThrows(UnsupportedOperationException.class, () -> ours.put(Bytes.wrap(new byte[] {1}), new byte[] {1}));
            assertThrows(UnsupportedOperationException.class, () -> ours.all());
            assertThrows(UnsupportedOperationException.class, () -> ours.delete(Bytes.wrap(new byte[] {1})));
        } finally {
            ours.close();
        }
    }
}
