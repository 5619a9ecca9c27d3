package io.rocksffm;

import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.VectorState;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import io.rocksffm.internal.Copies;

/**
 * A value read without copying: a read-only view of memory RocksDB keeps pinned (a memtable entry
 * or a block-cache block) until this object is closed.
 *
 * {@snippet id="PinnedValue" :
 * try (ReadOptions read = new ReadOptions();
 *      PinnedValue pinned = db.getPinned(read, MemorySegment.ofArray("user:2".getBytes(UTF_8)))) {
 *     if (pinned != null) {                   // null when absent
 *         MemorySegment value = pinned.segment();   // RocksDB's memory, read-only, no copy
 *         long length = value.byteSize();           // valid until pinned.close()
 *     }
 * }
 * }
 *
 * <p>Returned by {@link RocksDB#getPinned}; the caller owns it and must close it, which releases
 * the pin. The {@link #segment()} is valid until then; after close, accessing it throws
 * {@link IllegalStateException}. A pinned value is confined to the thread that read it (its
 * segment belongs to a confined arena). The database cannot be closed while pinned values
 * from it are open.
 */
public final class PinnedValue implements AutoCloseable {
    private final Lifecycle lifecycle;
    private final MemorySegment slice;
    /** The value's scope: closing it makes every view of the value unusable. */
    private final Arena arena;
    private final MemorySegment value;

    private PinnedValue(Lifecycle lifecycle, MemorySegment slice, MemorySegment raw) {
        this.lifecycle = lifecycle;
        this.slice = slice;
        this.arena = Arena.ofConfined();
        this.value = raw.reinterpret(arena, null).asReadOnly();
    }

    /**
     * Wraps a pinnable slice read from a database or transaction whose lifecycle is {@code owner}
     * (the caller has entered it), or destroys the slice if that fails. {@code sizeSlot} is a
     * scratch {@code size_t}.
     */
    static PinnedValue of(Lifecycle owner, MemorySegment slice, MemorySegment sizeSlot) {
        try {
            return Lifecycle.buildChild("PinnedValue", true, lifecycle -> {
                PinnedValue value = new PinnedValue(lifecycle, slice, Native.pinnableValue(slice, sizeSlot));
                VectorState.clear(); // the allocations above leave vector state that slows the engine's next call
                return value;
            }, owner);
        } catch (RuntimeException | Error e) {
            Native.pinnableDestroy(slice); // the child, if made, was abandoned first
            throw e;
        }
    }

    /**
     * The value: a read-only view of RocksDB's memory.
     *
     * @return the view, valid until {@link #close()}, usable only on the reading thread
     * @throws IllegalStateException if closed
     * @throws WrongThreadException on another thread than the reading one
     */
    public MemorySegment segment() {
        lifecycle.check();
        return value;
    }

    /**
     * The value's length in bytes (readable from any thread).
     *
     * @return the length
     * @throws IllegalStateException if closed
     */
    public long byteSize() {
        lifecycle.ensureOpen();
        return value.byteSize();
    }

    /**
     * A copy of the value.
     *
     * @return a new array
     * @throws IllegalStateException if closed
     * @throws WrongThreadException on another thread than the reading one
     * @throws UnsupportedOperationException if the value is larger than a {@code byte[]} can hold
     *         (2 GiB less 8 bytes): read it through {@link #segment()}
     */
    public byte[] toByteArray() {
        lifecycle.check();
        return Copies.toArray(value);
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    /**
     * Releases the pin; views of the value become unusable. Idempotent. Once the reading thread
     * has ended, any thread may close it (a pinned value it left open would otherwise keep its
     * database from closing).
     *
     * @throws WrongThreadException on another thread than the reading one while that thread lives
     *         (unless already closed)
     */
    @Override
    public void close() {
        lifecycle.close(() -> {
            try {
                if (lifecycle.onOwnerThread()) { // the views' scope, a confined arena holding no memory
                    arena.close();
                    VectorState.clear(); // the caller may have allocated since the read: see VectorState
                }
            } finally {
                Native.pinnableDestroy(slice);
            }
        });
    }
}
