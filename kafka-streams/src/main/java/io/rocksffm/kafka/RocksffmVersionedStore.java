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
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.VersionedKeyValueStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
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
 * {@link UnsupportedOperationException}; interactive queries are not supported.
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

    /** {@return an unknown-query result: interactive queries are not supported on this store} */
    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return QueryResult.forUnknownQueryType(query, this);
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
