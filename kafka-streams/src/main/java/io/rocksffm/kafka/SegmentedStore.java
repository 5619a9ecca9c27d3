package io.rocksffm.kafka;

import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.WriteBatch;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;

/**
 * The segmented storage under the window and session stores, laid out as Kafka lays out its own:
 * records are grouped in segments of {@code segmentInterval} milliseconds of their segment
 * timestamp (a window's start, a session's end), and whole segments expire once the stream time
 * has passed them by the retention period. Where Kafka keeps one RocksDB database per segment,
 * this store keeps one database whose keys begin with the segment (8 bytes, big-endian, sign bit
 * flipped) followed by Kafka's own store key (its changelog key: the window or session key
 * schema), so iteration order within and across segments is Kafka's; an expired segment goes in
 * one range delete.
 *
 * <p>Writes reach RocksDB directly (without the write-ahead log: the changelog is the log);
 * {@link #commit(Map)} writes the changelog offsets and the position, which
 * {@link #committedOffset} reads back after a restart. Restore writes each batch of changelog
 * records in one write batch. The segments present are kept in memory (read from the database at
 * open). Reads and writes are synchronized on the store; an iterator is confined to the thread
 * that first uses it.
 */
abstract class SegmentedStore extends DatabaseStore {
    private static final Logger LOG = LoggerFactory.getLogger(SegmentedStore.class);
    private static final byte[] FIRST_SEGMENT = segmentPrefix(Long.MIN_VALUE);
    private static final byte[] NO_PREFIX = new byte[0];

    private final long retentionPeriod;
    private final long segmentInterval;
    private final NavigableSet<Long> segments = new ConcurrentSkipListSet<>();
    private final Set<SegmentIterator<?>> openIterators = ConcurrentHashMap.newKeySet();

    private boolean closeDeferred;
    /** Counts the writes to the database: an iterator made before a write does not see it. */
    private volatile long writes;
    /** The largest segment timestamp seen (written or restored); -1 before any. */
    private long observedStreamTime = -1;
    /** Segments below this one have been deleted. */
    private long cleanedBelow = Long.MIN_VALUE;

    SegmentedStore(String name, String metricsScope, long retentionPeriod, long segmentInterval) {
        super(name, metricsScope);
        this.retentionPeriod = retentionPeriod;
        this.segmentInterval = segmentInterval;
    }

    /** The segment timestamp of a store key (a window's start, a session's end). */
    abstract long segmentTimestamp(byte[] storeKey, int offset, int length);

    @Override
    public synchronized void init(StateStoreContext context, StateStore root) {
        observedStreamTime = -1;
        super.init(context, root);
    }

    /**
     * As many write buffers as Kafka's store has live segments, each of which has its own (at
     * most four): the same memtable memory as Kafka's store.
     */
    @Override
    int memtables() {
        return (int) Math.min(4, retentionPeriod / segmentInterval + 1);
    }

    @Override
    void opened(StoreDatabase database) {
        segments.clear();
        cleanedBelow = Long.MIN_VALUE;
        database.readSegments(NO_PREFIX, segments);
    }

    static byte[] segmentPrefix(long segment) {
        return ByteBuffer.allocate(8).putLong(segment ^ Long.MIN_VALUE).array();
    }

    long segmentId(long timestamp) {
        return timestamp / segmentInterval;
    }

    /** The lowest segment still live at the current stream time. */
    long minLiveSegment() {
        return segmentId(observedStreamTime - retentionPeriod);
    }

    /** The lowest timestamp reads return (Kafka's "actual from"). */
    long actualFrom(long from) {
        return Math.max(from, observedStreamTime - retentionPeriod + 1);
    }

    private static byte[] rawKey(long segment, byte[] storeKey) {
        return ByteBuffer.allocate(8 + storeKey.length).putLong(segment ^ Long.MIN_VALUE).put(storeKey).array();
    }

    /** Logs the warning Kafka's stores give for a key range with {@code from > to} (then empty). */
    static void warnInvalidRange() {
        LOG.warn("Returning empty iterator for fetch with invalid key range: from > to. This may be due to range "
                + "arguments set in the wrong order, or serdes that don't preserve ordering when lexicographically "
                + "comparing the serialized bytes. Note that the built-in numerical serdes do not follow this for "
                + "negative numbers");
    }

    /**
     * The upper bound of the store keys of every key up to {@code keyTo} with a suffix up to
     * {@code maxSuffix}, as Kafka's key schemas compute it: a shorter key that is a prefix of
     * {@code keyTo} sorts its records by their suffix, which may come after {@code keyTo}'s own
     * bytes, so the bound keeps {@code keyTo}'s leading bytes only while they are no smaller than
     * the suffix's first byte.
     */
    static byte[] upperRange(byte[] keyTo, byte[] maxSuffix) {
        int first = maxSuffix[0] & 0xFF;
        int i = 0;
        while (i < keyTo.length && (i < 1 || (keyTo[i] & 0xFF) >= first)) {
            i++;
        }
        byte[] out = Arrays.copyOf(keyTo, i + maxSuffix.length);
        System.arraycopy(maxSuffix, 0, out, i, maxSuffix.length);
        return out;
    }

    /**
     * Writes (or, with a null value, deletes) a record under its store key, unless its segment has
     * expired (then it is dropped and counted, as Kafka's stores do).
     */
    synchronized void putStoreKey(byte[] storeKey, byte[] value) {
        StoreDatabase database = database();
        long timestamp = segmentTimestamp(storeKey, 0, storeKey.length);
        observedStreamTime = Math.max(observedStreamTime, timestamp);
        long segment = segmentId(timestamp);
        long minLive = minLiveSegment();
        if (segment < minLive) {
            recordExpired();
        } else {
            try {
                if (value == null) {
                    database.db.delete(database.data, database.writeOptions, rawKey(segment, storeKey));
                } else {
                    segments.add(segment);
                    database.db.put(database.data, database.writeOptions, rawKey(segment, storeKey), value);
                }
                writes++;
            } catch (RocksDBException e) {
                throw new ProcessorStateException("Error writing to rocksffm store " + name(), e);
            }
        }
        dropExpired(database, minLive);
        updatePosition();
    }

    /** Deletes the segments below {@code minLive} in one range delete. */
    private void dropExpired(StoreDatabase database, long minLive) {
        if (minLive > cleanedBelow) {
            database.db.deleteRange(database.data, database.writeOptions, FIRST_SEGMENT, segmentPrefix(minLive));
            segments.headSet(minLive, false).clear();
            cleanedBelow = minLive;
            writes++;
        }
    }

    /** The value under a store key, or null (also when it is older than the retention period). */
    synchronized byte[] getStoreKey(byte[] storeKey) {
        long timestamp = segmentTimestamp(storeKey, 0, storeKey.length);
        StoreDatabase database = openDatabase();
        if (database == null || timestamp < observedStreamTime - retentionPeriod) {
            return null;
        }
        try {
            return database.db.get(database.data, rawKey(segmentId(timestamp), storeKey));
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error reading from rocksffm store " + name(), e);
        }
    }

    /**
     * An iterator over the live segments from {@code fromSegment} to {@code toSegment}, each
     * between store keys {@code lower} and {@code upper} (inclusive; null: the segment's bound),
     * decoded by {@code decoder} (which skips a record by returning null).
     */
    <K> SegmentIterator<K> iterator(long fromSegment, long toSegment, byte[] lower, byte[] upper, boolean reverse,
                                    SegmentIterator.Decoder<K> decoder) {
        return iterator(fromSegment, toSegment, reverse,
                order -> new SegmentIterator<>(this::newIterator, this::writes, order, lower, upper, reverse, decoder, this::iteratorClosed));
    }

    /** {@link #iterator(long, long, byte[], byte[], boolean, SegmentIterator.Decoder)} for window start timestamps. */
    SegmentIterator.Timestamps timestamps(long fromSegment, long toSegment, byte[] lower, byte[] upper, boolean reverse,
                                          SegmentIterator.Decoder<Long> decoder) {
        return iterator(fromSegment, toSegment, reverse,
                order -> new SegmentIterator.Timestamps(this::newIterator, this::writes, order, lower, upper, reverse, decoder,
                        this::iteratorClosed));
    }

    private synchronized <I extends SegmentIterator<?>> I iterator(long fromSegment, long toSegment, boolean reverse,
                                                                  Function<Iterator<Long>, I> make) {
        long from = Math.max(fromSegment, minLiveSegment());
        List<Long> search = openDatabase() == null || from > toSegment ? List.of() : List.copyOf(reverse
                ? segments.subSet(from, true, toSegment, true).descendingSet()
                : segments.subSet(from, true, toSegment, true));
        I result = make.apply(search.iterator());
        openIterators.add(result);
        return result;
    }

    private long writes() {
        return writes;
    }

    /** A new database iterator, or null if the store has closed. */
    private synchronized RocksIterator newIterator() {
        StoreDatabase database = openDatabase();
        return database == null ? null : database.db.newIterator(database.data, database.readOptions);
    }

    /** Restores a batch of changelog records (keys in the store's key schema) in one write batch. */
    @Override
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        try (WriteBatch batch = new WriteBatch()) {
            synchronized (this) {
                StoreDatabase database = database();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    applyChangelogPosition(record);
                    byte[] key = record.key();
                    long timestamp = segmentTimestamp(key, 0, key.length);
                    observedStreamTime = Math.max(observedStreamTime, timestamp);
                    long segment = segmentId(timestamp);
                    if (segment < minLiveSegment()) {
                        continue;
                    }
                    if (record.value() == null) {
                        batch.delete(database.data, rawKey(segment, key));
                    } else {
                        segments.add(segment);
                        batch.put(database.data, rawKey(segment, key), record.value());
                    }
                }
                database.db.write(database.writeOptions, batch);
                writes++;
                dropExpired(database, minLiveSegment());
            }
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error restoring a batch into rocksffm store " + name(), e);
        }
    }

    // ---- queries and close ---------------------------------------------------------------------

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, getPosition(), context());
    }

    /**
     * Closes the open iterators (they then have no next element) and the database. Idempotent. An
     * iterator confined to another thread is marked, closes at its next use, and the database
     * closes when the last such iterator closes.
     */
    @Override
    public synchronized void close() {
        if (!markClosed() || openDatabase() == null) {
            return;
        }
        for (SegmentIterator<?> it : List.copyOf(openIterators)) {
            try {
                it.close();
            } catch (WrongThreadException e) {
                it.storeClosed();
            }
        }
        if (openIterators.isEmpty()) {
            closeDatabase();
        } else {
            closeDeferred = true;
        }
    }

    private synchronized void iteratorClosed(SegmentIterator<?> it) {
        if (openIterators.remove(it) && closeDeferred && openIterators.isEmpty()) {
            closeDeferred = false;
            closeDatabase();
        }
    }

    /** The number of records in the database, expired segments' included until they are deleted (for tests). */
    synchronized long databaseEntries() {
        long n = 0;
        StoreDatabase database = openDatabase();
        if (database != null) {
            try (RocksIterator it = database.db.newIterator(database.data, database.readOptions)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The number of iterators open on this store (for tests). */
    int openIterators() {
        return openIterators.size();
    }
}
