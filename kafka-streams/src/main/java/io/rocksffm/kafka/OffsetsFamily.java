package io.rocksffm.kafka;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.query.Position;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.List;

/**
 * The store's bookkeeping column family: the committed changelog offsets and the position,
 * written in the same batch as the data they cover, and the store's status. An offset's or a
 * position component's key is a kind byte ({@code 'o'} offset, {@code 'p'} position component),
 * the partition (4 bytes, big-endian) and the topic (UTF-8); its value the offset (8 bytes,
 * big-endian). The status key is the single byte {@code 's'}, its value {@link #OPEN} or
 * {@link #CLOSED}: a store that writes straight to RocksDB marks itself open while it is, so that
 * data newer than its offsets is recognised after a crash.
 */
final class OffsetsFamily {
    static final String NAME = "rocksffm.offsets";
    private static final byte OFFSET = 'o';
    private static final byte POSITION = 'p';
    private static final byte[] STATUS = {'s'};
    /** The status of a store open for direct writes. */
    static final byte OPEN = 'o';
    /** The status of a store closed cleanly. */
    static final byte CLOSED = 'c';

    private OffsetsFamily() {
    }

    private static byte[] key(byte kind, String topic, int partition) {
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(5 + t.length).put(kind).putInt(partition).put(t).array();
    }

    private static MemorySegment value(long offset) {
        return MemorySegment.ofArray(ByteBuffer.allocate(8).putLong(offset).array());
    }

    /**
     * Adds the offsets (a null offset removes the partition's) and the position to {@code batch}.
     *
     * @param keys the encoded keys made so far, reused across commits
     */
    static void write(WriteBatch batch, ColumnFamilyHandle family, Map<TopicPartition, Long> offsets, Position position,
                      Map<Object, MemorySegment> keys) {
        for (Map.Entry<TopicPartition, Long> e : offsets.entrySet()) {
            TopicPartition tp = e.getKey();
            MemorySegment key = keys.computeIfAbsent(tp,
                    t -> MemorySegment.ofArray(key(OFFSET, tp.topic(), tp.partition())));
            if (e.getValue() == null) {
                batch.delete(family, key);
            } else {
                batch.put(family, key, value(e.getValue()));
            }
        }
        for (String topic : position.getTopics()) {
            for (Map.Entry<Integer, Long> p : position.getPartitionPositions(topic).entrySet()) {
                MemorySegment key = keys.computeIfAbsent(List.of(topic, p.getKey()),
                        t -> MemorySegment.ofArray(key(POSITION, topic, p.getKey())));
                batch.put(family, key, value(p.getValue()));
            }
        }
    }

    /** {@return the status stored by {@link #writeStatus}: {@link #OPEN}, {@link #CLOSED}, or 0 if none} */
    static byte status(RocksDB db, ColumnFamilyHandle family) {
        byte[] status = db.get(family, STATUS);
        return status == null || status.length != 1 ? 0 : status[0];
    }

    /** Stores the status ({@link #OPEN} or {@link #CLOSED}). */
    static void writeStatus(RocksDB db, ColumnFamilyHandle family, WriteOptions options, byte status) {
        db.put(family, options, STATUS, new byte[] {status});
    }

    /** Reads what {@link #write} stored: the offsets into {@code offsets}; returns the position. */
    static Position read(RocksDB db, ColumnFamilyHandle family, Map<TopicPartition, Long> offsets) {
        Map<String, Map<Integer, Long>> positions = new HashMap<>();
        try (ReadOptions read = new ReadOptions(); RocksIterator it = db.newIterator(family, read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                ByteBuffer key = ByteBuffer.wrap(it.keyBytes());
                byte kind = key.get();
                if (kind != OFFSET && kind != POSITION) {
                    continue;
                }
                int partition = key.getInt();
                String topic = StandardCharsets.UTF_8.decode(key).toString();
                long value = ByteBuffer.wrap(it.valueBytes()).getLong();
                if (kind == OFFSET) {
                    offsets.put(new TopicPartition(topic, partition), value);
                } else if (kind == POSITION) {
                    positions.computeIfAbsent(topic, t -> new HashMap<>()).put(partition, value);
                }
            }
        }
        return Position.fromMap(positions);
    }
}
