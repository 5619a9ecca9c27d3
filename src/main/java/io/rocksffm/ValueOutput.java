package io.rocksffm;

import io.rocksffm.internal.Native;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.lang.foreign.Arena;

/**
 * Where Java code called by RocksDB writes a value (a {@link MergeOperator}'s result, a
 * {@link CompactionFilter}'s new value): native memory rocksffm provides and reuses, which RocksDB
 * copies when the call returns. Either {@link #allocate} a segment of the value's size and fill
 * it, or {@link #set} the bytes; the last call wins. Valid only during the call, on its thread;
 * nothing to close.
 */
public final class ValueOutput {
    /** Bytes before the data: the pool slot of this buffer, or -1 for a temporary one. */
    static final long HEADER = 8;
    final int slot;
    private MemorySegment block; // C heap: header + capacity
    private long length = -1;
    private boolean open;
    /**
     * The arena segments handed out belong to, which dies with the call: the caller's (a merge's,
     * which it closes), or one made on the first {@link #allocate} of a call and closed by
     * {@link #end} (a compaction filter's: most of its calls allocate nothing, and then no arena
     * is made).
     */
    private Arena call;
    /** Whether {@link #call} was made here (closed by {@link #end}). */
    private boolean ownArena;

    ValueOutput(int slot, long capacity) {
        this.slot = slot;
        this.block = Native.malloc(HEADER + capacity);
        block.set(ValueLayout.JAVA_LONG, 0, slot);
    }

    /**
     * A writable segment of exactly {@code size} bytes to fill with the result (its contents are
     * undefined until written); valid until the call returns: using it afterwards (keeping it and
     * writing from another thread, say) throws {@link IllegalStateException} or
     * {@link WrongThreadException}, never reaches the buffer rocksffm reuses for later calls.
     *
     * @param size the result's length in bytes
     * @return the segment
     * @throws IllegalArgumentException if {@code size} is negative
     * @throws IllegalStateException outside the call
     */
    public MemorySegment allocate(long size) {
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        if (!open) {
            throw new IllegalStateException("the value output is only usable during the call that received it");
        }
        if (HEADER + size > block.byteSize()) {
            MemorySegment bigger = Native.malloc(Math.max(HEADER + size, 2 * block.byteSize()));
            bigger.set(ValueLayout.JAVA_LONG, 0, slot);
            Native.free(block);
            block = bigger;
        }
        length = size;
        if (call == null) {
            call = Arena.ofConfined();
            ownArena = true;
        }
        return block.asSlice(HEADER, size).reinterpret(call, null);
    }

    /**
     * Sets the result to a copy of {@code value}.
     *
     * @param value the bytes (any segment the caller can read)
     * @throws IllegalStateException outside the call
     */
    public void set(MemorySegment value) {
        Objects.requireNonNull(value, "value");
        MemorySegment.copy(value, 0, allocate(value.byteSize()), 0, value.byteSize());
    }

    /**
     * Sets the result to a copy of {@code value}.
     *
     * @param value the bytes
     * @throws IllegalStateException outside the call
     */
    public void set(byte[] value) {
        set(MemorySegment.ofArray(Objects.requireNonNull(value, "value")));
    }

    /**
     * Starts a call whose segments belong to {@code call} (closed by the caller when the call
     * ends), or, if null, to an arena made when needed and closed by {@link #end}.
     */
    void begin(Arena call) {
        this.call = call;
        length = -1;
        open = true;
    }

    /** Ends a merge call: the result's length, or -1 if none was set. */
    long end() {
        open = false;
        if (ownArena) {
            ownArena = false;
            call.close();
        }
        call = null;
        return length;
    }

    /** The address of the data (what RocksDB receives and gives back to delete_value). */
    MemorySegment data() {
        return block.asSlice(HEADER);
    }

    void free() {
        Native.free(block);
    }
}
