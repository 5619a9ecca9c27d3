package io.rocksffm.kafka;

import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.MultiVersionedKeyQuery;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.ResultOrder;
import org.apache.kafka.streams.query.VersionedKeyQuery;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.VersionedKeyValueStore;
import org.apache.kafka.streams.state.VersionedRecord;
import org.apache.kafka.streams.state.VersionedRecordIterator;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * A persistent Kafka Streams versioned key-value store on rocksffm: the bytes store that
 * {@link RocksffmStores#versionedKeyValueStore} supplies and Kafka's versioned store builder wraps.
 * Each key has a latest version and a history of older ones, each valid from its timestamp until
 * the next version's; {@code get(key, asOf)} answers from the version valid at {@code asOf}, for
 * any {@code asOf} within the history retention of the stream time, as Kafka's versioned store does.
 * Puts older than the history retention are refused
 * ({@link VersionedKeyValueStore#PUT_RETURN_CODE_NOT_PUT}).
 *
 * <p><b>Layout.</b> One database: a key's latest version under {@code 'L' + key} (value: timestamp,
 * a tombstone flag, the value), its older versions under {@code 'H' + segment + key length + key +
 * timestamp} (value: valid-to timestamp, tombstone flag, value), where the segment is the one of the
 * version's valid-to time, so that versions no longer valid at any time a query may ask for go in
 * one range delete as the stream time advances. Writes go to RocksDB directly; {@link #commit}
 * writes the changelog offsets and the position. Reads and writes are synchronized on the store.
 * Only the versioned operations and {@code get(key)} are supported, as in Kafka's versioned stores:
 * the key-value methods {@code put(key, value)}, {@code range}, {@code all} and the like throw
 * {@link UnsupportedOperationException}. Interactive queries: Kafka's {@link VersionedKeyQuery} and
 * {@link MultiVersionedKeyQuery}, answered as Kafka's versioned store answers them.
 */
public class RocksffmVersionedStore extends DatabaseStore implements VersionedBytesStore {
    private static final Logger LOG = LoggerFactory.getLogger(RocksffmVersionedStore.class);
    private static final byte LATEST = 'L';
    private static final byte HISTORY = 'H';
    private static final byte VALUE = 1;
    private static final byte TOMBSTONE = 0;

    private final long historyRetention;
    private final long segmentInterval;
    private final NavigableSet<Long> segments = new ConcurrentSkipListSet<>();

    private long observedStreamTime = -1;
    private long cleanedBelow = Long.MIN_VALUE;

    /** A version: its timestamp, its value (null: a tombstone) and, in the history, when it stopped being valid. */
    private record Version(long timestamp, byte[] value, long validTo) {
    }

    /**
     * A store that opens its database in {@code init}.
     *
     * @param name             the store's name
     * @param historyRetention how far behind the stream time versions stay queryable, in
     *                         milliseconds (also the grace period of late writes)
     * @param segmentInterval  the width of a history segment, in milliseconds
     */
    public RocksffmVersionedStore(String name, long historyRetention, long segmentInterval) {
        super(name, RocksffmKeyValueBytesStoreSupplier.METRICS_SCOPE);
        this.historyRetention = historyRetention;
        this.segmentInterval = segmentInterval;
    }

    @Override
    public synchronized void init(StateStoreContext context, StateStore root) {
        observedStreamTime = -1;
        super.init(context, root);
        database(); // opened now: reads go to it from the start
    }

    /** One write buffer, as Kafka's versioned store has for its latest values (its segments have theirs). */
    @Override
    int memtables() {
        return 1;
    }

    @Override
    void opened(StoreDatabase database) {
        segments.clear();
        cleanedBelow = Long.MIN_VALUE;
        database.readSegments(new byte[] {HISTORY}, segments);
    }

    private StoreDatabase validateOpen() {
        StoreDatabase database = openDatabase();
        if (!isOpen() || database == null) {
            throw new InvalidStateStoreException("rocksffm store " + name() + " is not open");
        }
        return database;
    }

    // ---- encodings ------------------------------------------------------------------------------

    private static byte[] latestKey(byte[] key) {
        byte[] out = new byte[1 + key.length];
        out[0] = LATEST;
        System.arraycopy(key, 0, out, 1, key.length);
        return out;
    }

    private static byte[] historyPrefix(long segment) {
        return ByteBuffer.allocate(9).put(HISTORY).putLong(segment ^ Long.MIN_VALUE).array();
    }

    private static byte[] historyKey(long segment, byte[] key, long timestamp) {
        return ByteBuffer.allocate(1 + 8 + 4 + key.length + 8).put(HISTORY).putLong(segment ^ Long.MIN_VALUE)
                .putInt(key.length).put(key).putLong(timestamp ^ Long.MIN_VALUE).array();
    }

    /** Whether a history key is of {@code key} in {@code segment}. */
    private static boolean isHistoryOf(byte[] raw, long segment, byte[] key) {
        byte[] prefix = historyKey(segment, key, 0);
        return raw.length == prefix.length && Arrays.equals(raw, 0, prefix.length - 8, prefix, 0, prefix.length - 8);
    }

    private static byte[] encode(long timestamp, byte[] value) {
        ByteBuffer b = ByteBuffer.allocate(9 + (value == null ? 0 : value.length)).putLong(timestamp)
                .put(value == null ? TOMBSTONE : VALUE);
        if (value != null) {
            b.put(value);
        }
        return b.array();
    }

    private static byte[] decodeValue(byte[] stored) {
        return stored[8] == TOMBSTONE ? null : Arrays.copyOfRange(stored, 9, stored.length);
    }

    /** Kafka's bytes form of a versioned record: its timestamp, then its value (null for none). */
    private static byte[] asBytes(Version version) {
        if (version == null || version.value == null) {
            return null;
        }
        return ByteBuffer.allocate(8 + version.value.length).putLong(version.timestamp).put(version.value).array();
    }

    private long segmentId(long timestamp) {
        return timestamp / segmentInterval;
    }

    // ---- reads ----------------------------------------------------------------------------------

    private Version latest(byte[] key) {
        StoreDatabase database = database();
        byte[] stored = database.db.get(database.data, latestKey(key));
        return stored == null ? null : new Version(ByteBuffer.wrap(stored).getLong(), decodeValue(stored), Long.MAX_VALUE);
    }

    /** The history version valid at {@code asOf} ({@code timestamp <= asOf < validTo}), or null. */
    private Version historyAt(byte[] key, long asOf) {
        StoreDatabase database = database();
        try (RocksIterator it = database.db.newIterator(database.data, database.readOptions)) {
            // A version valid at asOf stops being valid after it: its segment is asOf's or a later one.
            for (long segment : segments.tailSet(segmentId(asOf), true)) {
                it.seekForPrev(historyKey(segment, key, asOf));
                if (it.isValid() && isHistoryOf(it.keyBytes(), segment, key)) {
                    byte[] raw = it.keyBytes();
                    long ts = ByteBuffer.wrap(raw, raw.length - 8, 8).getLong() ^ Long.MIN_VALUE;
                    byte[] stored = it.valueBytes();
                    long validTo = ByteBuffer.wrap(stored).getLong();
                    if (validTo > asOf) {
                        return new Version(ts, decodeValue(stored), validTo);
                    }
                }
            }
        }
        return null;
    }

    /** The timestamp of the earliest history version after {@code timestamp}, or {@code Long.MAX_VALUE}. */
    private long historyAfter(byte[] key, long timestamp) {
        StoreDatabase database = database();
        long earliest = Long.MAX_VALUE;
        try (RocksIterator it = database.db.newIterator(database.data, database.readOptions)) {
            for (long segment : segments.tailSet(segmentId(timestamp), true)) {
                it.seek(historyKey(segment, key, timestamp + 1));
                if (it.isValid() && isHistoryOf(it.keyBytes(), segment, key)) {
                    byte[] raw = it.keyBytes();
                    earliest = Math.min(earliest, ByteBuffer.wrap(raw, raw.length - 8, 8).getLong() ^ Long.MIN_VALUE);
                }
            }
        }
        return earliest;
    }

    /** The version valid at {@code asOf}: the latest if it is, else one of the history unless that is beyond the retention. */
    private Version versionAt(byte[] key, long asOf) {
        Version latest = latest(key);
        if (latest == null) {
            return null;
        }
        if (latest.timestamp <= asOf) {
            return latest;
        }
        if (asOf < observedStreamTime - historyRetention) {
            LOG.warn("Returning null for expired get.");
            return null;
        }
        return historyAt(key, asOf);
    }

    /** {@return the latest version in Kafka's bytes form (timestamp, value), or null if there is none or it is a delete} */
    @Override
    public synchronized byte[] get(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        validateOpen();
        try {
            return asBytes(latest(key.get()));
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error reading from rocksffm store " + name(), e);
        }
    }

    /**
     * {@return the version valid at {@code asOfTimestamp} in Kafka's bytes form, or null (also when
     * it is an older version and {@code asOfTimestamp} is beyond the history retention)}
     */
    @Override
    public synchronized byte[] get(Bytes key, long asOfTimestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        validateOpen();
        try {
            return asBytes(versionAt(key.get(), asOfTimestamp));
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error reading from rocksffm store " + name(), e);
        }
    }

    // ---- writes ---------------------------------------------------------------------------------

    @Override
    public synchronized long put(Bytes key, byte[] value, long timestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        validateOpen();
        if (timestamp < observedStreamTime - historyRetention) {
            recordExpired();
            return VersionedKeyValueStore.PUT_RETURN_CODE_NOT_PUT;
        }
        observedStreamTime = Math.max(observedStreamTime, timestamp);
        long validTo = write(key.get(), value, timestamp);
        updatePosition();
        return validTo;
    }

    @Override
    public synchronized byte[] delete(Bytes key, long timestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        validateOpen();
        if (timestamp < observedStreamTime - historyRetention) {
            recordExpired();
            return null;
        }
        byte[] existing = get(key, timestamp);
        observedStreamTime = Math.max(observedStreamTime, timestamp);
        write(key.get(), null, timestamp);
        updatePosition();
        return existing;
    }

    private void putHistory(byte[] key, long timestamp, byte[] value, long validTo) {
        StoreDatabase database = database();
        long segment = segmentId(validTo);
        segments.add(segment);
        database.db.put(database.data, database.writeOptions, historyKey(segment, key, timestamp), encode(validTo, value));
    }

    /** Writes a version; returns when it stops being valid, or {@code PUT_RETURN_CODE_VALID_TO_UNDEFINED} if it is the latest. */
    private long write(byte[] key, byte[] value, long timestamp) {
        StoreDatabase database = database();
        try {
            Version latest = latest(key);
            long validTo;
            if (latest == null || timestamp >= latest.timestamp) {
                if (latest != null && timestamp > latest.timestamp) {
                    putHistory(key, latest.timestamp, latest.value, timestamp);
                }
                database.db.put(database.data, database.writeOptions, latestKey(key), encode(timestamp, value));
                validTo = VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED;
            } else {
                Version previous = historyAt(key, timestamp);
                if (previous != null && previous.timestamp == timestamp) {
                    validTo = previous.validTo; // the same version, replaced
                } else if (previous != null) {
                    // The version valid at this time now ends here; the new one ends where it ended.
                    validTo = previous.validTo;
                    database.db.delete(database.data, database.writeOptions,
                            historyKey(segmentId(previous.validTo), key, previous.timestamp));
                    putHistory(key, previous.timestamp, previous.value, timestamp);
                } else {
                    validTo = Math.min(latest.timestamp, historyAfter(key, timestamp));
                }
                putHistory(key, timestamp, value, validTo);
            }
            dropExpired();
            return validTo;
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error writing to rocksffm store " + name(), e);
        }
    }

    /** Deletes, in one range delete, the history segments no query within the retention can reach. */
    private void dropExpired() {
        StoreDatabase database = database();
        long minLive = segmentId(observedStreamTime - historyRetention);
        if (minLive > cleanedBelow) {
            database.db.deleteRange(database.data, database.writeOptions, historyPrefix(Long.MIN_VALUE), historyPrefix(minLive));
            segments.headSet(minLive, false).clear();
            cleanedBelow = minLive;
        }
    }

    /** Restores changelog records: each is a version at its record timestamp. */
    @Override
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        synchronized (this) {
            validateOpen();
            for (ConsumerRecord<byte[], byte[]> record : records) {
                applyChangelogPosition(record);
                if (record.timestamp() < observedStreamTime - historyRetention) {
                    continue;
                }
                observedStreamTime = Math.max(observedStreamTime, record.timestamp());
                write(record.key(), record.value(), record.timestamp());
            }
        }
    }

    // ---- queries, close -------------------------------------------------------------------------

    /** The versions of {@code key} valid at some time in {@code [fromTime, toTime]}, tombstones left out, oldest first. */
    private List<VersionedRecord<byte[]>> versionsBetween(byte[] key, long fromTime, long toTime) {
        List<VersionedRecord<byte[]>> found = new ArrayList<>();
        if (toTime >= observedStreamTime - historyRetention) { // else only the latest version, which never expires
            StoreDatabase database = database();
            try (RocksIterator it = database.db.newIterator(database.data, database.readOptions)) {
                for (long segment : segments) {
                    for (it.seek(historyKey(segment, key, Long.MIN_VALUE)); it.isValid() && isHistoryOf(it.keyBytes(), segment, key);
                            it.next()) {
                        byte[] raw = it.keyBytes();
                        long ts = ByteBuffer.wrap(raw, raw.length - 8, 8).getLong() ^ Long.MIN_VALUE;
                        byte[] stored = it.valueBytes();
                        long validTo = ByteBuffer.wrap(stored).getLong();
                        byte[] value = decodeValue(stored);
                        if (value != null && ts <= toTime && validTo > fromTime) {
                            found.add(new VersionedRecord<>(value, ts, validTo));
                        }
                    }
                }
            }
        }
        Version latest = latest(key);
        if (latest != null && latest.value != null && latest.timestamp <= toTime) {
            found.add(new VersionedRecord<>(latest.value, latest.timestamp));
        }
        found.sort(Comparator.comparingLong(VersionedRecord::timestamp));
        return found;
    }

    /** The version of {@code key} valid at {@code asOf} as Kafka's versioned store returns it (the latest one has no valid-to time). */
    private VersionedRecord<byte[]> recordAt(byte[] key, long asOf) {
        Version version = versionAt(key, asOf);
        if (version == null || version.value == null) {
            return null;
        }
        return version.validTo == Long.MAX_VALUE ? new VersionedRecord<>(version.value, version.timestamp)
                : new VersionedRecord<>(version.value, version.timestamp, version.validTo);
    }

    /**
     * Answers Kafka's versioned interactive queries as Kafka's versioned store does:
     * {@link VersionedKeyQuery} (the latest version, or the one valid at the query's time, with
     * its valid-to time when it is not the latest) and {@link MultiVersionedKeyQuery} (every
     * version valid at some time between the query's bounds, in the query's order), with position
     * bounds. Reads see every write, as the store's own reads do (writes go to RocksDB as they come).
     * A multi-version query's versions are read when the query runs; its iterator holds no native
     * resources. Other queries get an unknown-query result.
     *
     * @param query         the query (its key in Kafka's bytes form)
     * @param positionBound how far the store must have read its input partition
     * @param config        whether to collect execution information
     * @return the query's result, with the store's position
     */
    @Override
    @SuppressWarnings("unchecked")
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        long start = System.nanoTime();
        QueryResult<R> result;
        Position position;
        synchronized (this) {
            position = getPosition().copy();
            StateStoreContext context = context();
            Integer partition = context == null ? null : context.taskId().partition();
            if (!StoreQueries.isPermitted(position, positionBound, partition)) {
                return QueryResult.notUpToBound(position, positionBound, partition);
            }
            try {
                if (query instanceof VersionedKeyQuery<?, ?> versioned) {
                    validateOpen();
                    byte[] key = ((Bytes) versioned.key()).get();
                    result = QueryResult.forResult((R) (versioned.asOfTimestamp().isPresent()
                            ? recordAt(key, versioned.asOfTimestamp().get().toEpochMilli())
                            : recordAt(key, Long.MAX_VALUE)));
                } else if (query instanceof MultiVersionedKeyQuery<?, ?> multi) {
                    validateOpen();
                    List<VersionedRecord<byte[]>> versions = versionsBetween(((Bytes) multi.key()).get(),
                            multi.fromTime().map(Instant::toEpochMilli).orElse(Long.MIN_VALUE),
                            multi.toTime().map(Instant::toEpochMilli).orElse(Long.MAX_VALUE));
                    if (multi.resultOrder() == ResultOrder.DESCENDING) {
                        versions = versions.reversed();
                    }
                    result = QueryResult.forResult((R) new VersionList(versions.iterator()));
                } else {
                    result = QueryResult.forUnknownQueryType(query, this);
                }
            } catch (RuntimeException e) {
                result = QueryResult.forFailure(FailureReason.STORE_EXCEPTION,
                        "rocksffm store " + name() + " failed the query " + query + ": " + e);
            }
        }
        if (config.isCollectExecutionInfo()) {
            result.addExecutionInfo("Handled in " + getClass() + " " + name() + " in " + (System.nanoTime() - start) + "ns");
        }
        result.setPosition(position);
        return result;
    }

    /** A multi-version query's answer: versions already read. */
    private record VersionList(Iterator<VersionedRecord<byte[]>> versions) implements VersionedRecordIterator<byte[]> {
        @Override
        public boolean hasNext() {
            return versions.hasNext();
        }

        @Override
        public VersionedRecord<byte[]> next() {
            return versions.next();
        }

        @Override
        public void close() {
        }
    }

    @Override
    public synchronized long approximateNumEntries() {
        StoreDatabase database = validateOpen();
        return database.db.getLongProperty(database.data, "rocksdb.estimate-num-keys").orElse(0);
    }

    @Override
    public synchronized void close() {
        if (markClosed()) {
            closeDatabase();
        }
    }

    // ---- key-value methods a versioned store does not have --------------------------------------

    private static UnsupportedOperationException unsupported() {
        return new UnsupportedOperationException("Versioned key-value stores are accessed through put(key, value, timestamp), "
                + "get(key), get(key, asOfTimestamp) and delete(key, timestamp)");
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public void put(Bytes key, byte[] value) {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public byte[] putIfAbsent(Bytes key, byte[] value) {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public byte[] delete(Bytes key) {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        throw unsupported();
    }

    /** @throws UnsupportedOperationException always */
    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        throw unsupported();
    }
}
