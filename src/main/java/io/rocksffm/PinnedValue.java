package io.rocksffm;

import io.rocksffm.internal.Native;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A value read without copying: a read-only view of memory RocksDB keeps pinned (a memtable entry
 * or a block-cache block) until this object is closed.
 *
 * <p>Returned by {@link RocksDB#getPinned}; the caller owns it and must close it, which releases
 * the pin. The {@link #segment()} is valid until then; after close, accessing it throws
 * {@link IllegalStateException}. A pinned value is confined to the thread that read it (its
 * segment belongs to a confined arena). The database cannot be closed while pinned values
 * from it are open.
 */
public final class PinnedValue implements AutoCloseable {
    private final RocksDB db;
    private final MemorySegment slice;
    private final Arena arena;
    private final MemorySegment value;

    PinnedValue(RocksDB db, MemorySegment slice, MemorySegment raw) {
        this.db = db;
        this.slice = slice;
        this.arena = Arena.ofConfined();
        this.value = raw.reinterpret(arena, null).asReadOnly();
    }

    /** {@return the value: read-only, valid until {@link #close()}, usable only on the reading thread} */
    public MemorySegment segment() {
        ensureOpen();
        return value;
    }

    /** {@return the value's length in bytes} */
    public long byteSize() {
        ensureOpen();
        return value.byteSize();
    }

    /** {@return a copy of the value} */
    public byte[] toByteArray() {
        ensureOpen();
        return value.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }

    /** {@return whether {@link #close()} has been called} */
    public boolean isClosed() {
        return !arena.scope().isAlive();
    }

    private void ensureOpen() {
        if (isClosed()) {
            throw new IllegalStateException("PinnedValue is closed");
        }
    }

    /**
     * Releases the pin. Idempotent; must be called on the reading thread.
     */
    @Override
    public void close() {
        if (isClosed()) {
            return;
        }
        arena.close();
        Native.pinnableDestroy(slice);
        db.lifecycle.removeChild();
    }
}
