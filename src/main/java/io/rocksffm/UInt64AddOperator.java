package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Counters: values and operands are 64-bit unsigned integers, 8 bytes little-endian, and a merge
 * adds them (wrapping around at 2<sup>64</sup>). Written in Java; produces the same bytes as
 * RocksDB's C++ {@code UInt64AddOperator} (name {@code "UInt64AddOperator"}), including its
 * treatment of malformed input: a value or operand that is not 8 bytes long counts as 0.
 * Stateless and thread-safe.
 *
 * {@snippet id="UInt64AddOperator" :
 * try (Options options = new Options().setCreateIfMissing(true)
 *              .setMergeOperator(new UInt64AddOperator());   // 8-byte little-endian sums
 *      RocksDB db = RocksDB.open(path, options)) {
 *     byte[] one = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(1).array();
 *     db.merge("hits".getBytes(UTF_8), one);
 *     db.merge("hits".getBytes(UTF_8), one);
 *     long hits = ByteBuffer.wrap(db.get("hits".getBytes(UTF_8)))
 *             .order(ByteOrder.LITTLE_ENDIAN).getLong();   // 2
 * }
 * }
 */
public final class UInt64AddOperator implements MergeOperator {
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** The operator (stateless: one instance may serve any number of databases). */
    public UInt64AddOperator() {}

    /** {@return {@code "UInt64AddOperator"}, the name of RocksDB's own} */
    @Override
    public String name() {
        return "UInt64AddOperator";
    }

    /**
     * Writes the sum of the existing value (0 if none) and the operands.
     *
     * @param key      the key (unused)
     * @param existing the existing value, or null
     * @param operands the operands
     * @param result   receives the 8-byte sum
     */
    @Override
    public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands operands, ValueOutput result) {
        long sum = existing == null ? 0 : decode(existing);
        for (int i = 0, n = operands.size(); i < n; i++) {
            sum += decode(operands.get(i));
        }
        result.allocate(8).set(LE, 0, sum);
    }

    /**
     * Adds the operands into one.
     *
     * @param key      the key (unused)
     * @param operands the operands
     * @param result   receives the 8-byte sum
     * @return true
     */
    @Override
    public boolean partialMerge(MemorySegment key, MergeOperands operands, ValueOutput result) {
        long sum = 0;
        for (int i = 0, n = operands.size(); i < n; i++) {
            sum += decode(operands.get(i));
        }
        result.allocate(8).set(LE, 0, sum);
        return true;
    }

    /**
     * Decodes one value as RocksDB's operator does: 8 bytes little-endian, anything else 0.
     *
     * @param value the bytes
     * @return the number
     */
    static long decode(MemorySegment value) {
        return value.byteSize() == 8 ? value.get(LE, 0) : 0;
    }
}
