package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.util.Map;

/**
 * Links, on a background thread, the downcall shapes that nearly every program's first open, get
 * and put go through, while the engine is still being found and loaded.
 *
 * <p>In a fresh JVM the first downcall handle costs some 150 ms (the JDK bootstraps its linker
 * and spins classes), and each new shape tens of milliseconds more. The JDK caches linked shapes
 * by function descriptor, so when the calls that need them link their own handles (jextract's
 * holder classes, on first use) they find these ready. On a machine with a spare core the
 * work overlaps the library's loading (rocksdbjni extracts and loads a large file) and the
 * program's own start; where there is none it costs nothing extra, as the same work happens on
 * first use anyway. It touches no holder class and no symbol, so it cannot fail a later call: a
 * failure here is ignored and shows, where it matters, on first use.
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

    /**
     * Starts the thread ({@link NativeLibrary#load} calls it once per process); returns it, or
     * null when turned off.
     */
    static Thread start() {
        return ENABLED ? Thread.ofPlatform().daemon().name("rocksffm-prelink").start(Prelink::run) : null;
    }

    /** Links the shapes; never throws. */
    static void run() {
        try {
            Native.Heap.link(); // malloc and free: the scratch buffers' first allocation
            Linker linker = Linker.nativeLinker();
            for (FunctionDescriptor d : shapes().values()) {
                linker.downcallHandle(d);
            }
        } catch (Throwable t) {
            // only a head start: whatever failed here fails again, and is reported, on first use
        }
    }
}
