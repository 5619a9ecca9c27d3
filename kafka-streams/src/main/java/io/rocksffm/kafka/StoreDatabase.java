package io.rocksffm.kafka;

import io.rocksffm.ColumnFamilyDescriptor;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Compression;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.Statistics;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.query.Position;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The database of one window, session or versioned store: opened in
 * {@code <task state dir>/rocksffm/<store name>} with Kafka's defaults and the
 * {@link RocksffmConfigSetter}, the data in the default column family, the committed changelog
 * offsets, the position and the open/closed status in {@link OffsetsFamily}. Writes skip the
 * write-ahead log (the changelog is the log), as in Kafka's own stores.
 */
final class StoreDatabase implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StoreDatabase.class);
    /** The file beside the database that names the format of its values. */
    static final String FORMAT_FILE = "rocksffm-value-format";
    private static final String HEADERS_FORMAT = "headers";
    private static final String OLDER_FORMATS = "plain-or-timestamped";

    final String name;
    final Path dir;
    final RocksDB db;
    final ColumnFamilyHandle data;
    final ReadOptions readOptions;
    final WriteOptions writeOptions;
    private final ColumnFamilyHandle offsets;
    private final Options options;
    private final RocksffmConfigSetter configSetter;
    private final Map<TopicPartition, Long> committed = new ConcurrentHashMap<>();
    private final Map<Object, MemorySegment> encodedKeys = new HashMap<>();
    /** The position read at open. */
    final Position position;

    private StoreDatabase(String name, Path dir, Options options, RocksffmConfigSetter configSetter, RocksDB db) {
        this.name = name;
        this.dir = dir;
        this.options = options;
        this.configSetter = configSetter;
        this.db = db;
        this.data = db.defaultColumnFamily();
        this.offsets = db.columnFamily(OffsetsFamily.NAME);
        this.readOptions = new ReadOptions();
        this.writeOptions = new WriteOptions().setDisableWAL(true);
        this.position = OffsetsFamily.read(db, offsets, committed);
    }

    /**
     * Opens (creating if needed) the database of store {@code name} under {@code stateDir}, with
     * {@code memtables} times the write buffer of Kafka's store (a segmented store's database holds
     * what Kafka spreads over one database per live segment, each with write buffers of its own).
     * {@code headers} says whether the store holds values in Kafka's headers format: a database
     * written in the other formats is discarded (and the other way round), so that the store starts
     * empty and restores from its changelog rather than misread values.
     *
     * @throws ProcessorStateException if it cannot be opened
     */
    static StoreDatabase open(String name, Path stateDir, Map<String, Object> configs, int memtables, boolean headers) {
        Path dir = stateDir.resolve("rocksffm").resolve(name);
        Options options = null;
        RocksffmConfigSetter setter = null;
        RocksDB db = null;
        try {
            Files.createDirectories(dir);
            matchValueFormat(name, dir, headers);
            try (Options base = new Options()) {
                // Kafka's own stores' durability design: no write-ahead log (the changelog is the
                // log), and flushes of all column families together, so that what is on disk
                // after a crash is always a point in time with the offsets of its data.
                // The rest as Kafka's RocksDBStore sets them.
                options = Options.fromString(base, "atomic_flush=true;compaction_style=kCompactionStyleUniversal;"
                        + "max_write_buffer_number=3;optimize_filters_for_hits=true;info_log_level=ERROR_LEVEL");
            }
            options.setParallelism(Math.max(Runtime.getRuntime().availableProcessors(), 2));
            options.setCreateIfMissing(true)
                    .setWriteBufferSize(memtables * (16L << 20))
                    .setBlockCacheSize(50L << 20)
                    .setBloomFilter(10)
                    .setCompression(Compression.NONE);
            setter = configSetter(configs.get(RocksffmConfigSetter.CONFIG));
            if (setter != null) {
                setter.setConfig(name, options, configs);
            }
            if (RocksffmMetrics.recordsStatistics(configs) && options.statistics() == null) {
                options.enableStatistics();
            }
            db = openDatabase(dir, options);
            return new StoreDatabase(name, dir, options, setter, db);
        } catch (IOException | RuntimeException e) {
            try (Options o = options; RocksDB d = db) {
                if (setter != null && o != null) {
                    setter.close(name, o);
                }
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new ProcessorStateException("Error opening rocksffm store " + name + " at " + dir, e);
        }
    }

    /**
     * Keeps the value format of the directory's database in a file beside it ({@value #FORMAT_FILE}:
     * {@value #HEADERS_FORMAT}, or {@value #OLDER_FORMATS} for plain and timestamped values; a
     * database without the file was written before headers-format stores existed, in the older
     * formats); deletes a database of the other format.
     */
    private static void matchValueFormat(String name, Path dir, boolean headers) throws IOException {
        String wanted = headers ? HEADERS_FORMAT : OLDER_FORMATS;
        Path file = dir.resolve(FORMAT_FILE);
        String found = Files.exists(file) ? Files.readString(file).trim()
                : Files.exists(dir.resolve("CURRENT")) ? OLDER_FORMATS : wanted;
        if (!found.equals(wanted)) {
            LOG.warn("rocksffm store {} at {} holds values in the {} format, not the {} format it is opened for: "
                    + "its local state is deleted and restored from the changelog", name, dir, found, wanted);
            Utils.delete(dir.toFile());
            Files.createDirectories(dir);
        }
        if (!found.equals(wanted) || !Files.exists(file)) {
            Files.writeString(file, wanted);
        }
    }

    private static RocksffmConfigSetter configSetter(Object setting) {
        if (setting == null) {
            return null;
        }
        try {
            Class<?> type = setting instanceof Class<?> c ? c : Class.forName(setting.toString(), true,
                    Thread.currentThread().getContextClassLoader());
            return (RocksffmConfigSetter) type.getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("Cannot create the " + RocksffmConfigSetter.CONFIG + " " + setting, e);
        }
    }

    private static RocksDB openDatabase(Path dir, Options options) {
        if (!Files.exists(dir.resolve("CURRENT"))) {
            RocksDB db = RocksDB.open(dir, options);
            try {
                db.createColumnFamily(OffsetsFamily.NAME, options);
                return db;
            } catch (RuntimeException e) {
                db.close();
                throw e;
            }
        }
        List<ColumnFamilyDescriptor> families = new ArrayList<>();
        for (String family : RocksDB.listColumnFamilies(dir, options)) {
            families.add(new ColumnFamilyDescriptor(family, options));
        }
        RocksDB db = RocksDB.open(dir, options, families);
        if (families.stream().noneMatch(f -> f.name().equals(OffsetsFamily.NAME))) {
            db.createColumnFamily(OffsetsFamily.NAME, options);
        }
        return db;
    }

    /**
     * Adds to {@code into} the segments present under {@code prefix}: keys that continue with a
     * segment (8 bytes, big-endian, sign bit flipped). One seek per segment.
     */
    void readSegments(byte[] prefix, Collection<Long> into) {
        try (RocksIterator it = db.newIterator(data, readOptions)) {
            for (it.seek(prefix); it.isValid(); ) {
                byte[] key = it.keyBytes();
                if (key.length < prefix.length + 8 || !Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length)) {
                    return;
                }
                long segment = ByteBuffer.wrap(key, prefix.length, 8).getLong() ^ Long.MIN_VALUE;
                into.add(segment);
                if (segment == Long.MAX_VALUE) {
                    return;
                }
                it.seek(ByteBuffer.allocate(prefix.length + 8).put(prefix).putLong((segment + 1) ^ Long.MIN_VALUE).array());
            }
        }
    }

    /** {@return the engine's statistics, or null if they are not enabled} */
    Statistics statistics() {
        return options.statistics();
    }

    /** {@return whether the database was left open by a store that wrote to it (not closed cleanly)} */
    boolean leftOpen() {
        return OffsetsFamily.status(db, offsets) == OffsetsFamily.OPEN;
    }

    /** Marks the database open ({@code true}: a store writes straight to it) or cleanly closed. */
    void markOpen(boolean open) {
        OffsetsFamily.writeStatus(db, offsets, writeOptions, open ? OffsetsFamily.OPEN : OffsetsFamily.CLOSED);
    }

    /** The committed offset of a changelog partition, or null. */
    Long committedOffset(TopicPartition partition) {
        return committed.get(partition);
    }

    /** Writes the changelog offsets and the position in one write batch. */
    void commit(Map<TopicPartition, Long> changelogOffsets, Position position) {
        try (WriteBatch batch = new WriteBatch()) {
            commit(batch, changelogOffsets, position);
        }
    }

    /** Writes {@code batch} (data) with the changelog offsets and the position added, in one write. */
    void commit(WriteBatch batch, Map<TopicPartition, Long> changelogOffsets, Position position) {
        OffsetsFamily.write(batch, offsets, changelogOffsets, position, encodedKeys);
        db.write(writeOptions, batch);
        for (Map.Entry<TopicPartition, Long> e : changelogOffsets.entrySet()) {
            if (e.getValue() == null) {
                committed.remove(e.getKey());
            } else {
                committed.put(e.getKey(), e.getValue());
            }
        }
    }

    @Override
    public void close() {
        try (Options o = options; ReadOptions r = readOptions; WriteOptions w = writeOptions; RocksDB d = db) {
            if (configSetter != null) {
                configSetter.close(name, o);
            }
        }
    }
}
