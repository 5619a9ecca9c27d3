package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prepares, on a background thread, what nearly every program's first open, get and put go
 * through, while the calling thread finds and loads the engine.
 *
 * <p>In a fresh JVM the first downcall handle costs some 150 ms (the JDK bootstraps its linker and
 * spins classes), each new shape tens of milliseconds more, and the first use of each kind of
 * segment access a few milliseconds (the JDK builds its var handles). This thread does that work
 * on a spare core while the engine loads (rocksdbjni extracts and loads a large file), in three
 * steps:
 * <ol>
 *   <li>links the downcall shapes of the first calls (the JDK caches linked shapes by function
 *       descriptor and options, so the calls that need them find them ready) and uses each kind of
 *       segment access once on memory of its own;</li>
 *   <li>waits until the engine is loaded (or failed to load);</li>
 *   <li>initialises the generated bindings' holder classes of the first calls (each looks its
 *       symbol up and binds its handle), in the reverse of the order the first calls need them, so
 *       that the calling thread, going forwards, meets them half way; a holder whose symbol the
 *       engine lacks is left alone.</li>
 * </ol>
 * It initialises no class of rocksffm's own (only the JDK's and the generated bindings', which
 * depend on nothing of rocksffm's), so it cannot hold up, or deadlock with, the thread that opens
 * the first database; a failure here is ignored and shows, where it matters, on first use.
 *
 * <p>{@code -Drocksffm.prelink=false} turns it off.
 */
final class Prelink implements Runnable {
    private Prelink() {}

    /** Whether {@link #start} starts the thread ({@code -Drocksffm.prelink}, default true). */
    static final boolean ENABLED = !"false".equals(System.getProperty("rocksffm.prelink"));

    /** How long the thread waits for the engine before it gives up step 3. */
    private static final long ENGINE_WAIT_MILLIS = 60_000;

    /**
     * The shapes, each under one C function that has it (what {@code PrelinkTest} checks against
     * the generated bindings); several functions share most of them (every {@code *_create} has
     * the first, every {@code *_destroy} the second).
     */
    static Map<String, FunctionDescriptor> shapes() {
        var p = RocksDBC.C_POINTER;
        var l = RocksDBC.C_LONG;
        // in the order the first open, get and put need them
        Map<String, FunctionDescriptor> shapes = new LinkedHashMap<>();
        shapes.put("rocksdb_options_create", FunctionDescriptor.of(p));
        shapes.put("rocksdb_options_set_create_if_missing", FunctionDescriptor.ofVoid(p, RocksDBC.C_CHAR));
        shapes.put("rocksdb_open_column_families", FunctionDescriptor.of(p, p, p, RocksDBC.C_INT, p, p, p, p));
        shapes.put("rocksdb_column_family_handle_get_id", FunctionDescriptor.of(RocksDBC.C_INT, p));
        shapes.put("rocksdb_get_into_buffer_cf", FunctionDescriptor.of(RocksDBC.C_CHAR, p, p, p, p, l, p, l, p, p, p));
        shapes.put("rocksdb_put_cf", FunctionDescriptor.ofVoid(p, p, p, p, l, p, l, p));
        shapes.put("rocksdb_options_destroy", FunctionDescriptor.ofVoid(p));
        shapes.put("rocksdb_get_pinned_cf", FunctionDescriptor.of(p, p, p, p, p, l, p));
        return shapes;
    }

    /** C's {@code void* malloc(size_t)}: {@code Native} links its handle with this descriptor. */
    static FunctionDescriptor malloc() {
        return FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG);
    }

    /** C's {@code void free(void*)}: {@code Native} links its handle with this descriptor. */
    static FunctionDescriptor free() {
        return FunctionDescriptor.ofVoid(ValueLayout.ADDRESS);
    }

    /** C's malloc and free ({@code Native}'s handles): the scratch buffers' first allocation. */
    static List<FunctionDescriptor> heapShapes() {
        return List.of(malloc(), free());
    }

    private static boolean started;
    /** 0 while the engine loads, 1 once loaded, -1 if loading failed: guarded by {@code ENGINE}. */
    private static int engineState;
    private static final Object ENGINE = new Object();

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
            // a class rather than a lambda: the first lambda of a fresh JVM spins classes on the
            // calling thread, the one this thread is here to spare
            Thread t = new Thread(null, new Prelink(), "rocksffm-prelink", 0, false);
            t.setDaemon(true);
            t.start();
            return t;
        } catch (Throwable t) { // e.g. a thread limit: only a head start is lost
            return null;
        }
    }

    /** Called by {@link NativeLibrary#load} when the engine is loaded ({@code ok}) or failed to. */
    static void engineLoaded(boolean ok) {
        synchronized (ENGINE) {
            engineState = ok ? 1 : -1;
            ENGINE.notifyAll();
        }
    }

    @Override
    public void run() {
        run(true);
    }

    /** The steps (step 3 only if {@code holders}); never throws. */
    static void run(boolean holders) {
        try {
            linkShapes();
            touchSegments();
            if (holders && awaitEngine()) {
                initHolders();
            }
        } catch (Throwable t) {
            // only a head start: whatever failed here fails again, and is reported, on first use
        }
    }

    /** Links the shapes of the first calls (but the pinned get's) and initialises the generated classes. */
    static void linkShapes() throws ClassNotFoundException {
        // the generated bindings' classes are large: verifying and initialising them takes a fresh
        // JVM some 10 ms; their initialisers look up no symbol (the holders do)
        Class.forName(RocksDBC.class.getName(), true, Prelink.class.getClassLoader());
        Linker linker = Linker.nativeLinker();
        for (FunctionDescriptor d : heapShapes()) {
            linker.downcallHandle(d);
        }
        for (Map.Entry<String, FunctionDescriptor> e : shapes().entrySet()) {
            // the pinned get is only for engines before 10.9, known once the engine is loaded
            if (!e.getKey().equals("rocksdb_get_pinned_cf")) {
                linker.downcallHandle(e.getValue());
            }
        }
    }

    /** Uses once each kind of segment access the first calls make, on memory of its own. */
    static void touchSegments() {
        byte[] bytes = new byte[16];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(64, 8);
            s.set(ValueLayout.JAVA_LONG, 0, 1L);
            s.set(ValueLayout.ADDRESS, 8, MemorySegment.NULL);
            s.setAtIndex(ValueLayout.ADDRESS, 2, s);
            s.setAtIndex(ValueLayout.JAVA_LONG, 3, 2L);
            s.setAtIndex(ValueLayout.JAVA_INT, 8, 3);
            s.set(ValueLayout.JAVA_INT, 36, 4);
            s.set(ValueLayout.JAVA_BYTE, 40, (byte) 5);
            long sum = s.get(ValueLayout.JAVA_LONG, 0) + s.get(ValueLayout.ADDRESS, 8).address()
                    + s.getAtIndex(ValueLayout.ADDRESS, 2).address() + s.getAtIndex(ValueLayout.JAVA_LONG, 3)
                    + s.getAtIndex(ValueLayout.JAVA_INT, 8) + s.get(ValueLayout.JAVA_INT, 36)
                    + s.get(ValueLayout.JAVA_BYTE, 40);
            MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 48, bytes.length);
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, 48, bytes, 0, bytes.length);
            MemorySegment.copy(s, 0, s, 32, 8);
            MemorySegment c = arena.allocateFrom("rocksffm");
            sum += c.getString(0).length() + s.asSlice(8, 8).reinterpret(16).byteSize();
            s.fill((byte) 0);
            sum += MemorySegment.ofArray(bytes).byteSize() + s.asSlice(0, 8).toArray(ValueLayout.JAVA_BYTE).length;
            if (sum == 42) {
                Thread.onSpinWait(); // uses the result, so that nothing above is dead code
            }
        }
        Arena.ofShared().close();
    }

    private static boolean awaitEngine() throws InterruptedException {
        long deadline = System.nanoTime() + ENGINE_WAIT_MILLIS * 1_000_000L;
        synchronized (ENGINE) {
            while (engineState == 0) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    return false;
                }
                ENGINE.wait(left);
            }
            return engineState > 0;
        }
    }

    /**
     * Initialises the holder classes of the first open's, get's and put's functions, the last
     * needed first; each only if the engine exports its symbol (a holder of a missing symbol
     * fails to initialise, for good).
     */
    private static void initHolders() {
        SymbolLookup engine = SymbolLookup.loaderLookup();
        if (engine.find("rocksdb_put_cf").isPresent()) {
            RocksDBC.rocksdb_put_cf$handle();
        }
        if (engine.find("rocksdb_writeoptions_create").isPresent()) {
            RocksDBC.rocksdb_writeoptions_create$handle();
        }
        if (engine.find("rocksdb_get_into_buffer_cf").isPresent()) {
            RocksDBC.rocksdb_get_into_buffer_cf$handle();
        } else if (engine.find("rocksdb_get_pinned_cf").isPresent()) {
            RocksDBC.rocksdb_get_pinned_cf$handle();
        }
        if (engine.find("rocksdb_readoptions_create").isPresent()) {
            RocksDBC.rocksdb_readoptions_create$handle();
        }
        if (engine.find("rocksdb_column_family_handle_get_id").isPresent()) {
            RocksDBC.rocksdb_column_family_handle_get_id$handle();
        }
        if (engine.find("rocksdb_open_column_families").isPresent()) {
            RocksDBC.rocksdb_open_column_families$handle();
        }
        if (engine.find("rocksdb_options_set_create_if_missing").isPresent()) {
            RocksDBC.rocksdb_options_set_create_if_missing$handle();
        }
    }
}
