package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The critical downcall handles of an iterator's per-entry path, on raw addresses (a pointer is
 * passed as a 64-bit integer, see {@link Native}), so that a scan allocates no segment per call.
 *
 * <p>Critical linkage skips the Java-to-native thread-state transition: the thread stays in the
 * Java state during the call, so a safepoint (a GC) waits for the call to return, and a call back
 * into Java from inside it is not allowed. The accessors below qualify on every iterator: they
 * read fields the last move prepared. {@code rocksdb_iter_next} qualifies only conditionally:
 * it may read the next data block from storage (a blocking read) and it calls the family's
 * comparator, which may be a Java upcall. It is therefore offered in both linkages, and the
 * iterator picks one per iterator ({@link #next(long, boolean)}): critical only where the caller
 * opted in to moves that keep the thread in Java (prefetch runs: a run is filled by a bounded loop)
 * and the family has no comparator written in Java.
 */
public final class IteratorCalls {
    static {
        NativeLibrary.load();
    }

    private IteratorCalls() {}

    private static final Linker LINKER = Linker.nativeLinker();

    private static MethodHandle critical(MemorySegment address, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(address, descriptor, Linker.Option.critical(false));
    }

    /** rocksdb_iter_valid: reads a flag. */
    private static final MethodHandle VALID = critical(RocksDBC.rocksdb_iter_valid$address(),
            FunctionDescriptor.of(ValueLayout.JAVA_BYTE, ValueLayout.JAVA_LONG));
    /** rocksdb_iter_key: the current key's pointer; its length goes to the size_t slot. No I/O. */
    private static final MethodHandle KEY = critical(RocksDBC.rocksdb_iter_key$address(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    /** rocksdb_iter_value: the current value's pointer (prepared by the move); length to the slot. */
    private static final MethodHandle VALUE = critical(RocksDBC.rocksdb_iter_value$address(),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
    /** rocksdb_iter_next, critical: only for iterators whose moves may hold the thread in Java. */
    private static final MethodHandle NEXT_CRITICAL = critical(RocksDBC.rocksdb_iter_next$address(),
            FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG));
    /** rocksdb_iter_next with the ordinary transition: may block on I/O, may call a Java comparator. */
    private static final MethodHandle NEXT = LINKER.downcallHandle(RocksDBC.rocksdb_iter_next$address(),
            FunctionDescriptor.ofVoid(ValueLayout.JAVA_LONG));

    /**
     * Whether the native iterator at {@code it} is on an entry.
     *
     * @param it the iterator's address
     * @return rocksdb_iter_valid
     */
    public static boolean valid(long it) {
        try {
            return (byte) VALID.invokeExact(it) != 0;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * The current key's address; its length is written to the size_t at {@code sizeOut}.
     *
     * @param it      the iterator's address (valid)
     * @param sizeOut address of a size_t slot
     * @return the key's address, valid until the iterator moves
     */
    public static long key(long it, long sizeOut) {
        try {
            return (long) KEY.invokeExact(it, sizeOut);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * The current value's address; its length is written to the size_t at {@code sizeOut}.
     *
     * @param it      the iterator's address (valid)
     * @param sizeOut address of a size_t slot
     * @return the value's address, valid until the iterator moves
     */
    public static long value(long it, long sizeOut) {
        try {
            return (long) VALUE.invokeExact(it, sizeOut);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * Moves the native iterator to the next entry.
     *
     * @param it       the iterator's address (valid)
     * @param critical whether to link critically (see the class comment for when that is allowed)
     */
    public static void next(long it, boolean critical) {
        try {
            if (critical) {
                NEXT_CRITICAL.invokeExact(it);
            } else {
                NEXT.invokeExact(it);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }
}
