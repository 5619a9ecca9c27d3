package io.rocksffm;

import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * Base of rocksffm's closeable native objects: one native pointer, its {@link Lifecycle}, and the
 * destroy that runs once on close. Not part of the API.
 */
abstract class NativeObject implements AutoCloseable {
    static {
        Native.engine();
    }

    final Lifecycle lifecycle;
    final MemorySegment ptr;

    NativeObject(String what, MemorySegment ptr) {
        this(new Lifecycle(what), what, ptr);
    }

    /** An object with a lifecycle made by the caller (e.g. a child that keeps its owners open). */
    NativeObject(Lifecycle lifecycle, String what, MemorySegment ptr) {
        if (ptr.address() == 0) {
            throw new IllegalStateException("RocksDB returned NULL creating " + what);
        }
        this.lifecycle = lifecycle;
        this.ptr = ptr;
    }

    /** Frees the native object; called once, with no call in flight. */
    abstract void destroy(MemorySegment ptr);

    /** Runs {@code action} with the pointer while the object is guaranteed open. */
    final void use(Consumer<MemorySegment> action) {
        try (Scratch s = Scratch.enterFirst(lifecycle)) {
            action.accept(ptr);
        }
    }

    /** Computes a value from the pointer while the object is guaranteed open. */
    final <T> T apply(Function<MemorySegment, T> function) {
        try (Scratch s = Scratch.enterFirst(lifecycle)) {
            return function.apply(ptr);
        }
    }

    /** Reads a primitive with the pointer while the object is guaranteed open. */
    final long read(ToLongFunction<MemorySegment> getter) {
        return apply(p -> getter.applyAsLong(p));
    }

    /** Reads a {@code double} with the pointer while the object is guaranteed open. */
    final double readDouble(ToDoubleFunction<MemorySegment> getter) {
        return apply(p -> getter.applyAsDouble(p));
    }

    /** {@return whether {@link #close()} has been called} */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    /**
     * Frees the native object. Idempotent; waits for calls in flight on other threads to finish.
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr));
    }

    static long atLeast(String what, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be >= " + min + ": " + value);
        }
        return value;
    }

    static int atLeast(String what, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be >= " + min + ": " + value);
        }
        return value;
    }

    static byte flag(boolean b) {
        return (byte) (b ? 1 : 0);
    }
}
