package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Native;

import java.lang.foreign.MemorySegment;

/**
 * A native {@code rocksdb_writebatch_t}, made by {@link WriteBatch#toNative()}: the escape hatch
 * for code that calls RocksDB's C API itself and needs a real batch.
 *
 * <p>The caller owns it and closes it; {@link #handle()} is valid until then. Closing is
 * idempotent and waits for calls in flight; use after close throws
 * {@link IllegalStateException}. To read a native batch back into Java memory, use
 * {@link WriteBatch#fromNative(MemorySegment)}.
 */
public final class NativeWriteBatch extends NativeObject {
    NativeWriteBatch(MemorySegment batch) {
        super("NativeWriteBatch", batch);
    }

    @Override
    void destroy(MemorySegment p) {
        Native.writebatchDestroy(p);
    }

    /** {@return the {@code rocksdb_writebatch_t*}, valid until {@link #close()}; do not destroy it yourself} */
    public MemorySegment handle() {
        lifecycle.ensureOpen();
        return ptr;
    }

    /** {@return the number of records, as RocksDB counts them ({@code rocksdb_writebatch_count})} */
    public int count() {
        return (int) read(p -> rocksdb_writebatch_count(p));
    }
}
