package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;

/**
 * Links, on a background thread, the downcall shapes that nearly every program's first open, get
 * and put go through, while the engine is still being found and loaded.
 *
 * <p>In a fresh JVM the first downcall handle costs some 150 ms (the JDK bootstraps its linker
 * and spins classes), and each new shape tens of milliseconds more. The JDK caches linked shapes
 * by function descriptor, so when the calls that need them link their own handles (jextract's
 * holder classes, {@code Native}'s malloc and free, on first use) they find these ready. On a
 * machine with a spare core the work overlaps the library's loading (rocksdbjni extracts and
 * loads a large file) and the program's own start. The cost is one short-lived thread and, on
 * each engine, one shape it does not use (the pinned get on 10.9+, the one-call get before).
 * It links shapes only: it initialises no class of rocksffm's and looks up no symbol, so it
 * cannot break a later call; a failure here is ignored and shows, where it matters, on first use.
 *
 * <p>{@code -Drocksffm.prelink=false} turns it off.
 */
final class Prelink {
    private Prelink() {}

    /** Whether {@link #start} starts the thread ({@code -Drocksffm.prelink}, default true). */
    static final boolean ENABLED = !"false".equals(System.getProperty("rocksffm.prelink"));

    /**
     * The shapes, each under one C function that has it (what {@code PrelinkTest} checks against
     * the generated bindings); several functions share most of them (every {@code *_create} has
     * the first, every {@code *_destroy} the second).
     */
    static Map<String, FunctionDescriptor> shapes() {
        var p = RocksDBC.C_POINTER;
        var l = RocksDBC.C_LONG;
        return Map.of(
                "rocksdb_options_create", FunctionDescriptor.of(p),
                "rocksdb_options_destroy", FunctionDescriptor.ofVoid(p),
                "rocksdb_options_set_create_if_missing", FunctionDescriptor.ofVoid(p, RocksDBC.C_CHAR),
                "rocksdb_open_column_families", FunctionDescriptor.of(p, p, p, RocksDBC.C_INT, p, p, p, p),
                "rocksdb_column_family_handle_get_id", FunctionDescriptor.of(RocksDBC.C_INT, p),
                "rocksdb_get_into_buffer_cf", FunctionDescriptor.of(RocksDBC.C_CHAR, p, p, p, p, l, p, l, p, p, p),
                "rocksdb_get_pinned_cf", FunctionDescriptor.of(p, p, p, p, p, l, p),
                "rocksdb_put_cf", FunctionDescriptor.ofVoid(p, p, p, p, l, p, l, p));
    }

    /** C's {@code void* malloc(size_t)}: {@code Native} links its handle with this descriptor. */
    static final FunctionDescriptor MALLOC = FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG);
    /** C's {@code void free(void*)}: {@code Native} links its handle with this descriptor. */
    static final FunctionDescriptor FREE = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS);

    /** C's malloc and free ({@code Native}'s handles): the scratch buffers' first allocation. */
    static List<FunctionDescriptor> heapShapes() {
        return List.of(MALLOC, FREE);
    }

    private static boolean started;

    /**
     * Starts the thread, the first time only ({@link NativeLibrary#load} calls it); returns it,
     * or null when turned off, already started, or when no thread could be made (then the calls
     * link their shapes themselves, as without it).
     */
    static synchronized Thread start() {
        if (!ENABLED || started) {
            return null;
        }
        started = true;
        try {
            return Thread.ofPlatform().daemon().name("rocksffm-prelink").inheritInheritableThreadLocals(false)
                    .start(Prelink::run);
        } catch (Throwable t) { // e.g. a thread limit: only a head start is lost
            return null;
        }
    }

    /** Links the shapes; never throws. */
    static void run() {
        try {
            Linker linker = Linker.nativeLinker();
            for (FunctionDescriptor d : heapShapes()) {
                linker.downcallHandle(d);
            }
            for (FunctionDescriptor d : shapes().values()) {
                linker.downcallHandle(d);
            }
        } catch (Throwable t) {
            // only a head start: whatever failed here fails again, and is reported, on first use
        }
    }
}
