package io.rocksffm;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The operands RocksDB passes to a {@link MergeOperator}, oldest first: zero-copy read-only views
 * of RocksDB's memory, valid only during the call (afterwards they throw
 * {@link IllegalStateException}). Confined to the thread of the call; nothing to close.
 */
public final class MergeOperands {
    private final MemorySegment pointers;
    private final MemorySegment lengths;
    private final int count;
    private final Arena scope;

    MergeOperands(MemorySegment pointers, MemorySegment lengths, int count, Arena scope) {
        this.pointers = pointers.reinterpret(8L * count);
        this.lengths = lengths.reinterpret(8L * count);
        this.count = count;
        this.scope = scope;
    }

    /** {@return the number of operands} */
    public int size() {
        return count;
    }

    /**
     * The operand at {@code index}.
     *
     * @param index 0 for the oldest operand
     * @return a read-only view, valid during the merge call
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, size())}
     */
    public MemorySegment get(int index) {
        Objects.checkIndex(index, count);
        return MemorySegment.ofAddress(pointers.getAtIndex(JAVA_LONG, index))
                .reinterpret(lengths.getAtIndex(JAVA_LONG, index), scope, null).asReadOnly();
    }

    /**
     * The length of the operand at {@code index}, without making a view.
     *
     * @param index 0 for the oldest operand
     * @return its length in bytes
     * @throws IndexOutOfBoundsException if {@code index} is not in {@code [0, size())}
     */
    public long byteSize(int index) {
        Objects.checkIndex(index, count);
        return lengths.getAtIndex(JAVA_LONG, index);
    }
}
