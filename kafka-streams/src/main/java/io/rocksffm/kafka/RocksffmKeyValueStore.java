package io.rocksffm.kafka;

import io.rocksffm.RocksDBException;
import io.rocksffm.RocksIterator;
import io.rocksffm.WriteBatch;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Objects;
import java.util.Arrays;
import java.lang.foreign.MemorySegment;

/**
 * A persistent Kafka Streams key-value store on rocksffm: the bytes store that
 * {@link RocksffmStores#keyValueStore(String)} supplies and Kafka's store builders wrap (with
 * logging, caching and metering).
 *
 * <p><b>Writes and commits</b> follow Kafka's {@code enable.transactional.statestores} setting,
 * read from the context's application configs in {@link #init}, as Kafka's own RocksDB store does.
 *
 * <p><i>Transactional</i> ({@code true}): writes since the last {@link #commit(Map)} are held in
 * an index in memory (readers see them: gets, iterators and queries read through it to the
 * database); a commit writes them to RocksDB in one write batch together with the committed
 * changelog offsets and the store's {@link Position}, in a column family of their own. The data
 * and the offsets that cover it are therefore always on disk together: after a crash the store
 * holds exactly what the last commit covered, {@link #committedOffset} says from where to replay
 * the changelog. Closing without a commit drops the uncommitted writes (Kafka commits before a
 * clean close). {@link #approximateNumUncommittedBytes()} reports the heap the held writes take,
 * so that Kafka's early commit at {@code statestore.uncommitted.max.bytes} bounds it;
 * {@link #readOnly(IsolationLevel)} and {@link #query} read them ({@code READ_UNCOMMITTED}) or
 * only what is committed ({@code READ_COMMITTED}).
 *
 * <p><i>Not transactional</i> ({@code false}, Kafka's default): writes go straight to RocksDB,
 * nothing is held in memory, and a commit writes the offsets and the position. The store marks
 * itself open in its offsets family while it is and closed when it closes; under exactly-once, a
 * store found open (the process died with it open, so it may hold writes newer than its offsets)
 * fails {@link #init} with a {@link TaskCorruptedException}, on which Kafka wipes it and restores
 * it from the changelog, as it does for its own store.
 *
 * <p>In both modes restore (through the callback registered in {@link #init}) writes each batch
 * of changelog records in one write batch, and {@link #managesOffsets()} is true.
 *
 * <p><b>Iterators.</b> {@code range}, {@code reverseRange}, {@code all}, {@code reverseAll} and
 * {@code prefixScan} return iterators that must be closed; the store tracks them and closes those
 * still open when it closes. Each is confined to the thread that created it (rocksffm iterators
 * are). An iterator sees the database as it was when it was created.
 *
 * <p><b>Durability.</b> As in Kafka's RocksDB stores, writes skip RocksDB's write-ahead log (the
 * changelog topic is the log) and the column families are flushed atomically, so a crash leaves
 * a transactional store at a past commit, data and offsets together, and any store with its
 * open-or-closed status as of its data; RocksDB flushes the rest when the store closes.
 *
 * <p><b>Metrics.</b> Kafka's RocksDB metrics, under the names, group ({@code stream-state-metrics})
 * and recording levels of Kafka's own RocksDB stores, with the tag {@code rocksffm-state-id}: the
 * gauges ({@code estimate-num-keys}, {@code block-cache-usage}, ...) from the database's
 * properties, and with {@code metrics.recording.level=DEBUG} the statistics-based ones
 * ({@code bytes-written-rate}, {@code memtable-hit-ratio}, ...) from the engine's statistics,
 * recorded by Kafka's RocksDB metrics trigger.
 *
 * <p><b>Options.</b> The database lives in {@code <task state dir>/rocksffm/<store name>}, opened
 * with Kafka's defaults (16 MiB write buffers, up to 3, 50 MiB block cache, Bloom filter optimised
 * for hits, universal compaction, no compression)
 * and then the {@link RocksffmConfigSetter} named by {@value RocksffmConfigSetter#CONFIG}, if any.
 */
public class RocksffmKeyValueStore implements KeyValueStore<Bytes, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(RocksffmKeyValueStore.class);
    private static final String CONSISTENCY_CONFIG = "__iq.consistency.offset.vector.enabled__";

    private final String name;
    private final UncommittedWrites pending = new UncommittedWrites();
    private final Set<StoreIterator> openIterators = ConcurrentHashMap.newKeySet();

    private volatile boolean open;
    /** Closed while iterators of other threads were open: the database closes with the last. */
    private boolean closeDeferred;
    private StateStoreContext context;
    /** The database (with its options and offsets family), from {@link #init} to the close. */
    private StoreDatabase database;
    private boolean consistencyEnabled;
    /** Whether writes are held until commit ({@code enable.transactional.statestores}). */
    private boolean transactional;
    private Position position = Position.emptyPosition();
    /** The position of the data on disk (the last commit's, when transactional). */
    private Position committedPosition = Position.emptyPosition();
    /** One per store, opened with each database: the metrics registry keeps the gauges of the first open. */
    private final RocksffmMetrics metrics;

    /**
     * A store that opens its database in {@link #init}.
     *
     * @param name the store's name
     */
    public RocksffmKeyValueStore(String name) {
        this.name = name;
        this.metrics = new RocksffmMetrics(RocksffmKeyValueBytesStoreSupplier.METRICS_SCOPE, name);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean persistent() {
        return true;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** The directory of the store's database (set by {@link #init}). */
    Path directory() {
        return database.dir;
    }

    @Override
    public synchronized void init(StateStoreContext context, StateStore root) {
        if (open) {
            throw new IllegalStateException("rocksffm store " + name + " is already open");
        }
        this.context = context;
        Map<String, Object> configs = context.appConfigs();
        transactional = flag(configs.get(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG));
        database = StoreDatabase.open(name, context.stateDir().toPath(), configs, 1, this instanceof HeadersBytesStore);
        try {
            checkStatus(StreamsConfig.EXACTLY_ONCE_V2.equals(String.valueOf(configs.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))));
            position = database.position;
            committedPosition = position.copy();
            consistencyEnabled = flag(configs.get(CONSISTENCY_CONFIG));
            metrics.open(context, database.db, database.statistics());
        } catch (RuntimeException e) {
            closeNative(); // and the metrics
            if (e instanceof TaskCorruptedException corrupted) {
                throw corrupted;
            }
            throw new ProcessorStateException("Error opening rocksffm store " + name + " at " + database.dir, e);
        }
        open = true;
        context.register(root, (RecordBatchingStateRestoreCallback) this::restoreBatch);
    }

    private static boolean flag(Object setting) {
        return setting instanceof Boolean b ? b : Boolean.parseBoolean(String.valueOf(setting));
    }

    /**
     * Under exactly-once, refuses a database left open by a store that wrote straight to it (its
     * data may be newer than its offsets: Kafka then wipes it and restores it from the
     * changelog); marks the database open when this store writes straight to it.
     */
    private void checkStatus(boolean exactlyOnce) {
        if (exactlyOnce && database.leftOpen()) {
            throw new TaskCorruptedException(Set.of(context.taskId()), new ProcessorStateException("rocksffm store "
                    + name + " was not closed cleanly: under exactly-once its data may be ahead of its committed offsets"));
        }
        if (!transactional) {
            database.markOpen(true);
        }
    }

    /** Restores a batch of changelog records in one write batch, updating the position from their headers. */
    void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records) {
        validateOpen();
        try (WriteBatch batch = new WriteBatch()) {
            synchronized (this) {
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(record, consistencyEnabled, position);
                    if (record.value() == null) {
                        batch.delete(database.data, wrap(record.key()));
                    } else {
                        batch.put(database.data, wrap(record.key()), wrap(record.value()));
                    }
                }
                database.db.write(database.writeOptions, batch);
            }
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error restoring a batch into rocksffm store " + name, e);
        }
    }

    private static MemorySegment wrap(byte[] bytes) {
        return MemorySegment.ofArray(bytes);
    }

    private void validateOpen() {
        if (!open) {
            throw new InvalidStateStoreException("rocksffm store " + name + " is not open");
        }
    }

    private void updatePosition() {
        if (context != null) {
            context.recordMetadata().ifPresent(m -> {
                if (m.offset() >= 0 && m.topic() != null) {
                    position.withComponent(m.topic(), m.partition(), m.offset());
                }
            });
        }
    }

    // ---- writes ---------------------------------------------------------------------------------

    @Override
    public synchronized void put(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        validateOpen();
        write(key, value);
        updatePosition();
    }

    private void write(Bytes key, byte[] value) {
        if (transactional) {
            if (value == null) {
                pending.delete(key);
            } else {
                pending.put(key, value);
            }
            return;
        }
        try {
            if (value == null) {
                database.db.delete(database.data, database.writeOptions, key.get());
            } else {
                database.db.put(database.data, database.writeOptions, key.get(), value);
            }
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error writing to rocksffm store " + name, e);
        }
    }

    @Override
    public synchronized byte[] putIfAbsent(Bytes key, byte[] value) {
        Objects.requireNonNull(key, "key cannot be null");
        byte[] existing = get(key);
        if (existing == null) {
            put(key, value);
        }
        return existing;
    }

    /**
     * Puts every entry: into RocksDB in one write batch, or, when transactional, into the
     * uncommitted writes (they reach RocksDB together in the next commit's write batch).
     */
    @Override
    public synchronized void putAll(List<KeyValue<Bytes, byte[]>> entries) {
        validateOpen();
        for (KeyValue<Bytes, byte[]> entry : entries) {
            Objects.requireNonNull(entry.key, "key cannot be null");
        }
        if (transactional) {
            for (KeyValue<Bytes, byte[]> entry : entries) {
                write(entry.key, entry.value);
            }
        } else {
            try (WriteBatch batch = new WriteBatch()) {
                for (KeyValue<Bytes, byte[]> entry : entries) {
                    if (entry.value == null) {
                        batch.delete(database.data, wrap(entry.key.get()));
                    } else {
                        batch.put(database.data, wrap(entry.key.get()), wrap(entry.value));
                    }
                }
                database.db.write(database.writeOptions, batch);
            } catch (RocksDBException e) {
                throw new ProcessorStateException("Error writing to rocksffm store " + name, e);
            }
        }
        updatePosition();
    }

    @Override
    public synchronized byte[] delete(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        byte[] old = get(key);
        write(key, null);
        updatePosition();
        return old;
    }

    // ---- reads ----------------------------------------------------------------------------------

    @Override
    public byte[] get(Bytes key) {
        return get(key, true);
    }

    synchronized byte[] get(Bytes key, boolean uncommitted) {
        Objects.requireNonNull(key, "key cannot be null");
        validateOpen();
        if (uncommitted) {
            byte[] value = pending.get(key);
            if (value != null) {
                return value == UncommittedWrites.DELETED ? null : value;
            }
        }
        try {
            return database.db.get(database.data, key.get()); // the shared default read options: no lifecycle to enter per call
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error reading from rocksffm store " + name, e);
        }
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
        return range(from, to, false, true);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
        return range(from, to, true, true);
    }

    KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to, boolean reverse, boolean uncommitted) {
        if (from != null && to != null && from.compareTo(to) > 0) {
            validateOpen();
            // The warning Kafka's stores give (its conformance tests look for this text).
            LOG.warn("Returning empty iterator for fetch with invalid key range: from > to. This may be due to range "
                    + "arguments set in the wrong order, or serdes that don't preserve ordering when lexicographically "
                    + "comparing the serialized bytes. Note that the built-in numerical serdes do not follow this for "
                    + "negative numbers");
            return iterator(null, null, true, reverse, uncommitted, true);
        }
        return iterator(from, to, true, reverse, uncommitted, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> all() {
        return iterator(null, null, true, false, true, false);
    }

    @Override
    public KeyValueIterator<Bytes, byte[]> reverseAll() {
        return iterator(null, null, true, true, true, false);
    }

    @Override
    public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS prefixKeySerializer) {
        return prefixScan(prefix, prefixKeySerializer, true);
    }

    <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(P prefix, PS serializer, boolean uncommitted) {
        Objects.requireNonNull(prefix, "prefix cannot be null");
        Objects.requireNonNull(serializer, "serializer cannot be null");
        Bytes lower = Bytes.wrap(serializer.serialize(null, prefix));
        return iterator(lower, increment(lower), false, false, uncommitted, false);
    }

    /** The smallest key above every key that starts with {@code prefix}, or null if there is none. */
    static Bytes increment(Bytes prefix) {
        byte[] bytes = prefix.get().clone();
        for (int i = bytes.length - 1; i >= 0; i--) {
            if (bytes[i] != (byte) 0xFF) {
                bytes[i]++;
                return Bytes.wrap(Arrays.copyOf(bytes, i + 1));
            }
        }
        return null;
    }

    private synchronized KeyValueIterator<Bytes, byte[]> iterator(Bytes lower, Bytes upper, boolean upperInclusive, boolean reverse,
                                                     boolean uncommitted, boolean empty) {
        validateOpen();
        if (empty) {
            return new EmptyIterator();
        }
        RocksIterator it = database.db.newIterator(database.data, database.readOptions);
        StoreIterator result;
        try {
            result = new StoreIterator(name, it,
                    uncommitted ? pending.range(lower, upper, upperInclusive, reverse) : Collections.emptyIterator(),
                    lower, upper, upperInclusive, reverse, this::iteratorClosed);
        } catch (RuntimeException e) {
            it.close();
            throw e;
        }
        openIterators.add(result);
        return result;
    }

    @Override
    public synchronized long approximateNumEntries() {
        validateOpen();
        long n = database.db.getLongProperty(database.data, "rocksdb.estimate-num-keys").orElse(0) + pending.size();
        return n < 0 ? Long.MAX_VALUE : n;
    }

    // ---- Kafka 4.4's transactional store methods ------------------------------------------------

    @Override
    public ReadOnlyKeyValueStore<Bytes, byte[]> readOnly(IsolationLevel isolationLevel) {
        validateOpen();
        return new ReadOnlyView(this, isolationLevel == IsolationLevel.READ_UNCOMMITTED);
    }

    /**
     * The heap the writes held since the last commit take, approximately (their keys and values
     * and the index's overhead per key); 0 when the store is not transactional (it holds none).
     */
    @Override
    public long approximateNumUncommittedBytes() {
        return pending.approximateBytes();
    }

    /** {@return whether writes are held until commit} (set by {@link #init}) */
    boolean transactional() {
        return transactional;
    }

    /** {@return the position of the committed data} */
    Position committedPosition() {
        return transactional ? committedPosition : position;
    }

    @Override
    public boolean managesOffsets() {
        return true;
    }

    @Override
    public Long committedOffset(TopicPartition partition) {
        validateOpen();
        return database.committedOffset(partition);
    }

    /**
     * Writes the uncommitted writes (when transactional), the given changelog offsets and the
     * position to RocksDB in one write batch.
     *
     * @param changelogOffsets the offsets the data covers (a null offset forgets a partition's)
     */
    @Override
    public synchronized void commit(Map<TopicPartition, Long> changelogOffsets) {
        validateOpen();
        // Writers hold this store's lock too: nothing is written between the batch and the clear.
        try (WriteBatch batch = new WriteBatch(Math.max(WriteBatch.DEFAULT_CAPACITY, pending.dataBytes() + 16L * pending.size()))) {
            for (Map.Entry<Bytes, byte[]> e : pending.entries()) {
                if (e.getValue() == UncommittedWrites.DELETED) {
                    batch.delete(database.data, wrap(e.getKey().get()));
                } else {
                    batch.put(database.data, wrap(e.getKey().get()), wrap(e.getValue()));
                }
            }
            database.commit(batch, changelogOffsets, position);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error committing rocksffm store " + name, e);
        }
        pending.clear();
        committedPosition = position.copy();
    }

    /** Nothing to do: data reaches RocksDB as it is written, or at {@link #commit(Map)} with its offsets. */
    @Override
    public void flush() {
    }

    @Override
    public Position getPosition() {
        return position;
    }

    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueries.query(this, query, positionBound, config, context == null ? null : context.taskId().partition());
    }

    // ---- close ----------------------------------------------------------------------------------

    /**
     * Closes the open iterators and the database; uncommitted writes are dropped. Idempotent. An
     * iterator confined to another thread (an interactive query's, say) cannot be closed here: it
     * is marked, throws {@link InvalidStateStoreException} at its next use, and the database
     * closes when the last such iterator is closed on its own thread.
     */
    @Override
    public synchronized void close() {
        if (!open) {
            return;
        }
        open = false;
        RuntimeException failure = null;
        for (StoreIterator it : List.copyOf(openIterators)) {
            try {
                it.close();
            } catch (WrongThreadException e) {
                it.storeClosed();
            } catch (RuntimeException e) {
                failure = e;
                openIterators.remove(it);
            }
        }
        pending.clear();
        if (!transactional) {
            try {
                database.markOpen(false);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (!openIterators.isEmpty()) {
            closeDeferred = true;
        } else {
            try {
                closeNative();
            } catch (RuntimeException e) {
                if (failure != null) {
                    e.addSuppressed(failure);
                }
                failure = e;
            }
        }
        if (failure != null) {
            throw new ProcessorStateException("Error closing rocksffm store " + name, failure);
        }
    }

    /** An iterator closed: forgotten, and the database closed if it was the last after {@link #close()}. */
    private synchronized void iteratorClosed(StoreIterator it) {
        if (openIterators.remove(it) && closeDeferred && openIterators.isEmpty()) {
            closeDeferred = false;
            closeNative();
        }
    }

    private void closeNative() {
        metrics.close();
        try (StoreDatabase closing = database) {
            database = null;
        }
    }

    /**
     * Closes the store as a process that died would leave it: uncommitted writes lost, and not
     * marked closed (RocksDB still flushes its memtables as it closes, as it may have before a
     * crash). For tests.
     */
    synchronized void closeAsIfCrashed() {
        boolean wasTransactional = transactional;
        transactional = true;
        try {
            close();
        } finally {
            transactional = wasTransactional;
        }
    }

    /** The number of iterators open on this store (for tests). */
    int openIterators() {
        return openIterators.size();
    }
}
