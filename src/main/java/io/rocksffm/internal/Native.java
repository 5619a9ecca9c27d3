package io.rocksffm.internal;

import io.rocksffm.RocksDBException;
import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Hand-written plumbing over the generated bindings: engine loading, C-heap memory,
 * {@code errptr} handling and the few downcalls linked with {@link Linker.Option#critical}.
 */
public final class Native {
    static {
        NativeLibrary.load();
    }

    private Native() {}

    /** Makes sure the engine is loaded before any generated binding initialises. */
    public static NativeLibrary.Loaded engine() {
        return NativeLibrary.load();
    }

    // ---- critical downcalls ---------------------------------------------------------------
    // Critical linkage skips the Java->native thread-state transition. It is only safe for
    // functions that return quickly, never block on I/O or long-held locks, and never call back
    // into Java. Each handle below says why its function qualifies.

    private static MethodHandle critical(MemorySegment address, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(address, descriptor, Linker.Option.critical(true));
    }

    // Each group of handles is linked in a holder class of its own, on first use: linking a
    // downcall spins classes for its shape (tens of milliseconds in a fresh JVM), and a process
    // that never uses a group (a get on a 10.9+ engine needs no pinnable slice) never pays for it.

    /** Pinnable-slice accessors. */
    private static final class Pinnable {
        /** rocksdb_pinnableslice_value: returns the slice's pointer and writes its size; a pure accessor. */
        static final MethodHandle VALUE = critical(
                RocksDBC.rocksdb_pinnableslice_value$address(), RocksDBC.rocksdb_pinnableslice_value$descriptor());
        /** rocksdb_pinnableslice_destroy: releases the pinned block (a cache unref) and frees a small object. */
        static final MethodHandle DESTROY = critical(
                RocksDBC.rocksdb_pinnableslice_destroy$address(), RocksDBC.rocksdb_pinnableslice_destroy$descriptor());
    }

    // The iterator's critical handles are in IteratorCalls.

    /** Native write batches. */
    private static final class Batches {
        /** rocksdb_writebatch_create_from: a malloc and a memcpy of the caller's bytes. */
        static final MethodHandle CREATE_FROM = critical(
                RocksDBC.rocksdb_writebatch_create_from$address(), RocksDBC.rocksdb_writebatch_create_from$descriptor());
        /** rocksdb_writebatch_destroy: frees the batch's string. */
        static final MethodHandle DESTROY = critical(
                RocksDBC.rocksdb_writebatch_destroy$address(), RocksDBC.rocksdb_writebatch_destroy$descriptor());
    }

    /** A new native batch holding a copy of {@code length} bytes of {@code rep}. */
    public static MemorySegment writebatchCreateFrom(MemorySegment rep, long length) {
        try {
            return (MemorySegment) Batches.CREATE_FROM.invokeExact(rep, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Destroys a native batch. */
    public static void writebatchDestroy(MemorySegment batch) {
        try {
            Batches.DESTROY.invokeExact(batch);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * The value of a pinnable slice as a segment of its exact length (global scope: the caller
     * confines it). {@code sizeOut} is a scratch {@code size_t} slot.
     */
    public static MemorySegment pinnableValue(MemorySegment slice, MemorySegment sizeOut) {
        return sized(Pinnable.VALUE, slice, sizeOut);
    }

    /**
     * Calls an accessor of the shape {@code const char* f(T* object, size_t* length)} and returns
     * the bytes as a segment of that length (global scope: the caller confines it).
     */
    private static MemorySegment sized(MethodHandle accessor, MemorySegment object, MemorySegment sizeOut) {
        MemorySegment p;
        try {
            p = (MemorySegment) accessor.invokeExact(object, sizeOut);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        return p.reinterpret(sizeOut.get(ValueLayout.JAVA_LONG, 0));
    }

    /** Destroys a pinnable slice. */
    public static void pinnableDestroy(MemorySegment slice) {
        try {
            Pinnable.DESTROY.invokeExact(slice);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- one-call point reads ---------------------------------------------------------------------

    /** Whether the engine has rocksdb_get_into_buffer_cf (RocksDB 10.9+): a get in one downcall. */
    public static final boolean GET_INTO_BUFFER = Capabilities.callable("rocksdb_get_into_buffer_cf");

    /**
     * Reads {@code key} with one rocksdb_get_into_buffer_cf call (only if {@link #GET_INTO_BUFFER}),
     * copying the value into native {@code buf} if it fits. Returns the value's full length (the
     * value is in {@code buf} iff that is at most {@code buf.byteSize()}), or -1 when absent.
     * The caller has made {@code key} native and keeps the database, family and options open.
     *
     * @throws io.rocksffm.RocksDBException if the read failed
     */
    public static long getIntoBuffer(MemorySegment db, MemorySegment options, MemorySegment family, MemorySegment key,
                                     long keyLength, MemorySegment buf, Scratch s) {
        byte copied = RocksDBC.rocksdb_get_into_buffer_cf(db, options, family, key, keyLength, buf, buf.byteSize(),
                s.size, s.found, s.errptr);
        if (copied != 0) { // found and copied, so no error: one slot to read
            return s.size.get(ValueLayout.JAVA_LONG, 0);
        }
        check(s.errptr);
        return s.found.get(ValueLayout.JAVA_BYTE, 0) == 0 ? -1 : s.size.get(ValueLayout.JAVA_LONG, 0);
    }

    // ---- raw addresses, for loops over arrays of C pointers ----------------------------------------
    // Reading a pointer out of an array as a MemorySegment makes an object per element; these take
    // and return the address as a long (a pointer is passed exactly like a 64-bit integer on every
    // 64-bit platform the JDK's linker supports), so a multi-get loop allocates nothing.

    static {
        if (ValueLayout.ADDRESS.byteSize() != Long.BYTES) {
            throw new ExceptionInInitializerError("rocksffm needs a 64-bit platform");
        }
    }

    /** The pinnable-slice accessors on raw addresses (multi-get loops). */
    private static final class PinnableRaw {
        static final MethodHandle VALUE = critical(RocksDBC.rocksdb_pinnableslice_value$address(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS));
        static final MethodHandle DESTROY = critical(RocksDBC.rocksdb_pinnableslice_destroy$address(),
                FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG));
    }

    /** {@link #pinnableValue} for a slice's raw address: the value's address; its length goes to {@code sizeOut}. */
    public static long pinnableValueAddress(long slice, MemorySegment sizeOut) {
        try {
            return (long) PinnableRaw.VALUE.invokeExact(slice, sizeOut);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@link #pinnableDestroy} for a slice's raw address. */
    public static void pinnableDestroy(long slice) {
        try {
            PinnableRaw.DESTROY.invokeExact(slice);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- C heap ----------------------------------------------------------------------------------

    /** The C library's malloc and free. */
    private static final class Heap {
        static final MethodHandle MALLOC = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("malloc").orElseThrow(), Prelink.malloc());
        static final MethodHandle FREE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().find("free").orElseThrow(), Prelink.free());
    }

    /**
     * A copy of {@code bytes} in C-heap memory (one spare byte, so an empty copy still has a real
     * address), for memory that only native code reads after the copy and that an owner frees with
     * {@link #free} at a moment its lifecycle makes safe. If {@code bytes} cannot be read (closed,
     * or another thread's), the copy is freed and the exception thrown.
     */
    public static MemorySegment mallocCopy(MemorySegment bytes) {
        long n = bytes.byteSize();
        MemorySegment copy = malloc(n + 1).reinterpret(n);
        try {
            MemorySegment.copy(bytes, 0, copy, 0, n);
        } catch (RuntimeException e) {
            free(copy);
            throw e;
        }
        return copy;
    }

    /**
     * {@code bytes} of C-heap memory (global scope, contents undefined), to be freed with
     * {@link #free}.
     *
     * @throws OutOfMemoryError if malloc fails
     */
    public static MemorySegment malloc(long bytes) {
        MemorySegment p;
        try {
            p = (MemorySegment) Heap.MALLOC.invokeExact(bytes);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (p.address() == 0) {
            throw new OutOfMemoryError("malloc(" + bytes + ") failed");
        }
        return p.reinterpret(bytes);
    }

    /** Frees memory from {@link #malloc} or {@link #mallocCopy}. */
    public static void free(MemorySegment p) {
        try {
            Heap.FREE.invokeExact(p);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Rethrows what a downcall threw (only unchecked exceptions can come out of one). */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AssertionError("unexpected checked exception from a downcall", t);
    }

    /** rocksdb_free: frees memory the C API allocated for the caller (strings, arrays, wrappers). */
    public static void rocksdbFree(MemorySegment p) {
        RocksDBC.rocksdb_free(p);
    }

    // ---- errors ---------------------------------------------------------------------------

    /**
     * Throws a {@link RocksDBException} if {@code errptr} holds a message, after freeing it with
     * {@code rocksdb_free} and resetting the slot to NULL (the C API never overwrites a non-NULL
     * slot without freeing it, but our invariant is: the slot is NULL between calls).
     */
    public static void check(MemorySegment errptr) {
        RocksDBException e = takeError(errptr, 0);
        if (e != null) {
            throw e;
        }
    }

    /**
     * The error in the {@code char*} slot at {@code offset} of {@code slots} as an exception (the
     * message freed, the slot reset to NULL), or null when the slot is NULL.
     */
    public static RocksDBException takeError(MemorySegment slots, long offset) {
        if (slots.get(ValueLayout.JAVA_LONG, offset) == 0) { // the common case, without a segment object
            return null;
        }
        MemorySegment msg = slots.get(ValueLayout.ADDRESS, offset);
        slots.set(ValueLayout.ADDRESS, offset, MemorySegment.NULL);
        try {
            String text = msg.reinterpret(Long.MAX_VALUE).getString(0);
            Throwable cause = Upcalls.takeFailure();
            if (cause == null) {
                return new RocksDBException(text);
            }
            // a merge operator threw on this thread during the call: say so, with its exception
            RocksDBException e = new RocksDBException(text + " (Java merge operator threw " + cause + ")");
            e.initCause(cause);
            return e;
        } finally {
            RocksDBC.rocksdb_free(msg);
        }
    }
}
