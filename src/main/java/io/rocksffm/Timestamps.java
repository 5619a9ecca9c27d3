package io.rocksffm;

import io.rocksffm.internal.BatchFormat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Encodings of user-defined timestamps: RocksDB's 8-byte one ({@link #u64(long)}), which
 * {@link TimestampedComparator#bytewiseU64()} orders. Stateless; thread-safe.
 *
 * {@snippet id="Timestamps" :
 * byte[] now = Timestamps.u64(System.currentTimeMillis());   // 8 bytes, little-endian: EncodeU64Ts
 * versions.put(family, key, now, "v".getBytes(UTF_8));
 * asOf.setTimestamp(MemorySegment.ofArray(now));
 * long writtenAt = Timestamps.u64(versions.get(family, asOf, key).timestamp());   // back to a number
 * }
 */
public final class Timestamps {
    private Timestamps() {}

    /** RocksDB's fixed 64-bit encoding: little-endian, unaligned. */
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The size of a {@link #u64(long)} timestamp. */
    public static final int U64_SIZE = 8;

    /**
     * Encodes {@code time} as RocksDB encodes a 64-bit timestamp ({@code EncodeU64Ts}: fixed 8
     * bytes, little-endian). Read as unsigned: {@code -1} is the newest timestamp there is, 0 the
     * oldest.
     *
     * @param time the timestamp
     * @return a new array of {@link #U64_SIZE} bytes
     */
    public static byte[] u64(long time) {
        byte[] out = new byte[U64_SIZE];
        MemorySegment.ofArray(out).set(U64, 0, time);
        return out;
    }

    /**
     * Decodes a {@link #u64(long)} timestamp.
     *
     * @param timestamp {@link #U64_SIZE} bytes
     * @return the timestamp (unsigned: compare with {@link Long#compareUnsigned})
     * @throws NullPointerException if {@code timestamp} is null
     * @throws IllegalArgumentException if it is not {@link #U64_SIZE} bytes
     */
    public static long u64(byte[] timestamp) {
        return u64(MemorySegment.ofArray(Objects.requireNonNull(timestamp, "timestamp")));
    }

    /**
     * Decodes a {@link #u64(long)} timestamp from memory.
     *
     * @param timestamp {@link #U64_SIZE} bytes (read during the call only)
     * @return the timestamp (unsigned)
     * @throws NullPointerException if {@code timestamp} is null
     * @throws IllegalArgumentException if it is not {@link #U64_SIZE} bytes
     */
    public static long u64(MemorySegment timestamp) {
        Objects.requireNonNull(timestamp, "timestamp");
        if (timestamp.byteSize() != U64_SIZE) {
            throw new IllegalArgumentException("a u64 timestamp is 8 bytes, not " + timestamp.byteSize());
        }
        return timestamp.get(U64, 0);
    }

    /** {@link TimestampedComparator#bytewiseU64()}. */
    static final TimestampedComparator BYTEWISE_U64 = new TimestampedComparator() {
        @Override
        public String name() {
            return "leveldb.BytewiseComparator.u64ts";
        }

        @Override
        public int timestampSize() {
            return U64_SIZE;
        }

        @Override
        public int compareTimestamp(MemorySegment a, MemorySegment b) {
            return Long.compareUnsigned(a.get(U64, 0), b.get(U64, 0));
        }

        @Override
        public int compareWithoutTimestamp(MemorySegment a, MemorySegment b) {
            return BatchFormat.compareBytewise(a, b);
        }

        @Override
        public String toString() {
            return name();
        }
    };
}
