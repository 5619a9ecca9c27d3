package io.rocksffm.kafka;

import io.rocksffm.RocksDBException;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ChangelogRecordDeserializationHelper;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.internals.metrics.StreamsMetricsImpl;
import org.apache.kafka.streams.processor.internals.metrics.TaskMetrics;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.HeadersBytesStore;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.util.Collection;
import java.util.Map;
import java.util.Set;

/**
 * What the window, session and versioned stores share: a {@link StoreDatabase} opened when first
 * needed (at {@code init} if one is on disk), the position and the committed changelog offsets, the
 * restore callback, Kafka's dropped-records sensor for writes too late to keep, and Kafka's RocksDB
 * metrics ({@link RocksffmMetrics}), added when the database first opens, as Kafka's segmented
 * stores add theirs when their first segment opens. Writes go to
 * RocksDB as they come; {@link #commit(Map)} writes the changelog offsets and the position, which
 * {@link #committedOffset} reads back after a restart ({@link #managesOffsets()} is true). As the
 * key-value store does when it writes straight to RocksDB, the database is marked open while the
 * store has it and closed when it closes cleanly; under exactly-once a database found still marked
 * open (its data may be ahead of its offsets after a crash) makes the task corrupted, and Kafka
 * wipes the store and restores it from the changelog.
 */
abstract class DatabaseStore implements StateStore {
    private static final Logger LOG = LoggerFactory.getLogger(DatabaseStore.class);
    private static final String CONSISTENCY_CONFIG = "__iq.consistency.offset.vector.enabled__";

    private final String name;
    private volatile boolean open;
    private StoreDatabase database;
    private StateStoreContext context;
    private Sensor expiredRecordSensor;
    private boolean consistencyEnabled;
    private Position position = Position.emptyPosition();
    /** One per store, opened with each database: the metrics registry keeps the gauges of the first open. */
    private final RocksffmMetrics metrics;

    /**
     * @param name         the store's name
     * @param metricsScope the scope of its metrics (the store tag is {@code <scope>-state-id})
     */
    DatabaseStore(String name, String metricsScope) {
        this.name = name;
        this.metrics = new RocksffmMetrics(metricsScope, name);
    }

    /** Called with a database just opened, before anything reads or writes it (to read what the store keeps in memory). */
    abstract void opened(StoreDatabase database);

    /** {@return how many of Kafka's write buffers the database's write buffer is} */
    abstract int memtables();

    /** Restores a batch of changelog records; {@link #applyChangelogPosition} takes each one's position. */
    abstract void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records);

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

    @Override
    public synchronized void init(StateStoreContext context, StateStore root) {
        if (open) {
            throw new IllegalStateException("rocksffm store " + name + " is already open");
        }
        this.context = context;
        position = Position.emptyPosition();
        if (Files.exists(context.stateDir().toPath().resolve("rocksffm").resolve(name).resolve("CURRENT"))) {
            position = database().position;
        }
        if (context.metrics() instanceof StreamsMetricsImpl metrics) {
            expiredRecordSensor = TaskMetrics.droppedRecordsSensor(Thread.currentThread().getName(),
                    context.taskId().toString(), metrics);
        }
        Object consistency = context.appConfigs().get(CONSISTENCY_CONFIG);
        consistencyEnabled = consistency instanceof Boolean b ? b : Boolean.parseBoolean(String.valueOf(consistency));
        open = true;
        context.register(root, (RecordBatchingStateRestoreCallback) this::restoreBatch);
    }

    /**
     * The database, opened when first needed: like Kafka's segmented stores, a store opens no
     * database before it has something to hold, and a restore after {@code close} opens it again.
     */
    final synchronized StoreDatabase database() {
        if (database == null) {
            if (context == null) {
                throw new InvalidStateStoreException("rocksffm store " + name + " has not been initialised");
            }
            StoreDatabase opened = StoreDatabase.open(name, context.stateDir().toPath(), context.appConfigs(), memtables(),
                    this instanceof HeadersBytesStore);
            try {
                boolean exactlyOnce = StreamsConfig.EXACTLY_ONCE_V2.equals(
                        String.valueOf(context.appConfigs().get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)));
                if (exactlyOnce && opened.leftOpen()) {
                    throw new TaskCorruptedException(Set.of(context.taskId()), new ProcessorStateException("rocksffm store "
                            + name + " was not closed cleanly: under exactly-once its data may be ahead of its committed offsets"));
                }
                opened.markOpen(true);
                opened(opened);
                metrics.open(context, opened.db, opened.statistics());
            } catch (RuntimeException e) {
                metrics.close();
                opened.close();
                throw e;
            }
            database = opened;
        }
        return database;
    }

    /** {@return the database if it is open, else null} */
    final synchronized StoreDatabase openDatabase() {
        return database;
    }

    /** Takes a changelog record's position from its headers (restore). */
    final void applyChangelogPosition(ConsumerRecord<byte[], byte[]> record) {
        ChangelogRecordDeserializationHelper.applyChecksAndUpdatePosition(record, consistencyEnabled, position);
    }

    /** Advances the position to the record being processed. */
    final void updatePosition() {
        context.recordMetadata().ifPresent(m -> {
            if (m.offset() >= 0 && m.topic() != null) {
                position.withComponent(m.topic(), m.partition(), m.offset());
            }
        });
    }

    /** Counts a write dropped for being older than the store keeps, as Kafka's stores do. */
    final void recordExpired() {
        if (expiredRecordSensor != null) {
            expiredRecordSensor.record();
        }
        LOG.warn("Skipping record for expired segment.");
    }

    final StateStoreContext context() {
        return context;
    }

    @Override
    public boolean managesOffsets() {
        return true;
    }

    @Override
    public synchronized Long committedOffset(TopicPartition partition) {
        return database == null ? null : database.committedOffset(partition);
    }

    /**
     * Writes the changelog offsets and the position (the data is already in RocksDB).
     *
     * @param changelogOffsets the offsets the data covers (a null offset forgets a partition's)
     */
    @Override
    public synchronized void commit(Map<TopicPartition, Long> changelogOffsets) {
        try {
            database().commit(changelogOffsets, position);
        } catch (RocksDBException e) {
            throw new ProcessorStateException("Error committing rocksffm store " + name, e);
        }
    }

    /** Nothing is held back: {@code 0}. */
    @Override
    public long approximateNumUncommittedBytes() {
        return 0;
    }

    /** Nothing to do: writes are in RocksDB already. */
    @Override
    public void flush() {
    }

    @Override
    public Position getPosition() {
        return position;
    }

    /** Marks the store closed; false if it was not open. */
    final boolean markClosed() {
        if (!open) {
            return false;
        }
        open = false;
        return true;
    }

    /**
     * Closes the database as a process that died would leave it: not marked closed (RocksDB still
     * flushes its memtables as it closes, as it may have before a crash). For tests.
     */
    final synchronized void closeAsIfCrashed() {
        markClosed();
        metrics.close();
        if (database != null) {
            database.close();
            database = null;
        }
    }

    /** Closes the database, if it is open, marked cleanly closed. */
    final synchronized void closeDatabase() {
        if (database == null) {
            return;
        }
        metrics.close();
        try (StoreDatabase closing = database) {
            closing.markOpen(false);
        } catch (RuntimeException e) {
            throw new ProcessorStateException("Error closing rocksffm store " + name, e);
        } finally {
            database = null;
        }
    }
}
