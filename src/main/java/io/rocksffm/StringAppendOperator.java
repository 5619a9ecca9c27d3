package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Appends each operand to the value, with a delimiter between them: the existing value (if any),
 * then every operand, oldest first. Written in Java; produces the same bytes as RocksDB's C++
 * {@code StringAppendOperator} (name {@code "StringAppendOperator"}). Immutable and thread-safe.
 *
 * {@snippet id="StringAppendOperator" :
 * try (Options options = new Options().setCreateIfMissing(true)
 *              .setMergeOperator(new StringAppendOperator(","));
 *      RocksDB db = RocksDB.open(path, options)) {
 *     db.merge("tags".getBytes(UTF_8), "red".getBytes(UTF_8));
 *     db.merge("tags".getBytes(UTF_8), "blue".getBytes(UTF_8));
 *     byte[] tags = db.get("tags".getBytes(UTF_8));   // "red,blue"
 * }
 * }
 */
public final class StringAppendOperator implements MergeOperator {
    private final byte[] delimiter;

    /** An operator with RocksDB's default delimiter, a comma. */
    public StringAppendOperator() {
        this(",");
    }

    /**
     * An operator with {@code delimiter} (UTF-8; may be empty, like RocksDB's).
     *
     * @param delimiter the delimiter
     */
    public StringAppendOperator(String delimiter) {
        this.delimiter = Objects.requireNonNull(delimiter, "delimiter").getBytes(StandardCharsets.UTF_8);
    }

    /** {@return {@code "StringAppendOperator"}, the name of RocksDB's own} */
    @Override
    public String name() {
        return "StringAppendOperator";
    }

    /**
     * Writes the existing value and the operands, separated by the delimiter.
     *
     * @param key      the key (unused)
     * @param existing the existing value, or null
     * @param operands the operands
     * @param result   receives the joined bytes
     */
    @Override
    public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands operands, ValueOutput result) {
        join(existing, operands, result);
    }

    /**
     * Joins the operands (RocksDB's operator is associative, so this is always possible).
     *
     * @param key      the key (unused)
     * @param operands the operands
     * @param result   receives the joined operand
     * @return true
     */
    @Override
    public boolean partialMerge(MemorySegment key, MergeOperands operands, ValueOutput result) {
        join(null, operands, result);
        return true;
    }

    private void join(MemorySegment existing, MergeOperands operands, ValueOutput result) {
        int n = operands.size();
        long size = existing == null ? 0 : existing.byteSize() + delimiter.length;
        for (int i = 0; i < n; i++) {
            size += operands.byteSize(i);
        }
        size += (long) delimiter.length * (n - 1);
        MemorySegment out = result.allocate(size);
        long p = 0;
        if (existing != null) {
            MemorySegment.copy(existing, 0, out, p, existing.byteSize());
            p += existing.byteSize();
            p = delimit(out, p);
        }
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                p = delimit(out, p);
            }
            MemorySegment op = operands.get(i);
            MemorySegment.copy(op, 0, out, p, op.byteSize());
            p += op.byteSize();
        }
    }

    private long delimit(MemorySegment out, long p) {
        MemorySegment.copy(MemorySegment.ofArray(delimiter), 0, out, p, delimiter.length);
        return p + delimiter.length;
    }
}
