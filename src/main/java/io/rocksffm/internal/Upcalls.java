package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The plumbing of Java code that RocksDB calls: merge operators, comparators, compaction filters,
 * prefix extractors (and, later, event listeners). The C API takes such objects as a
 * {@code void* state} plus function pointers, and calls {@code destructor(state)} when it lets go
 * of the object.
 *
 * <p><b>Stubs.</b> Each kind of callback has ONE upcall stub for the whole process
 * ({@link #stub}), allocated in the global arena: an upcall stub is expensive to make (it is
 * generated code), and a stub must outlive every native object that points at it, which for a
 * stub in the global arena is trivially true. (Freeing a stub from inside {@code destructor},
 * itself an upcall, would free code that is still running.) The stub finds its Java object
 * through {@code state}.
 *
 * <p><b>Registry.</b> {@code state} is not an address but a small integer handle from
 * {@link #register}: the index of an {@link Entry} in a table. The entry holds the Java object
 * strongly (so nothing the engine still uses can be collected), the object's name as a C string,
 * and an arena for the object's own native memory (result buffers, ...). The generic
 * {@link #DESTRUCTOR} stub removes the entry, runs its release action and closes its arena: that
 * is the only way an entry goes, so the Java object lives exactly as long as RocksDB holds the
 * native object, whatever the caller closes in between (options, databases). A lookup is a plain
 * read of a volatile array.
 *
 * <p><b>Failures.</b> An exception escaping an upcall aborts the JVM. Every stub made here wraps
 * its target in a handler that catches every {@link Throwable}, records it ({@link #failed}) and
 * returns the stub's fallback value (what each kind documents as its outcome on failure). Targets
 * that must tell RocksDB of a failure (a merge's {@code success} flag) catch their exceptions
 * themselves first and record them the same way. A recorded failure is counted
 * ({@link #failureCount}), kept as the entry's {@link Entry#lastFailure}, and kept per thread
 * ({@link #takeFailure}) so the thread that receives the resulting RocksDB error can attach the
 * Java exception to it ({@link Native#check} does).
 */
public final class Upcalls {
    private Upcalls() {}

    /*
     * Exit. A RocksDB background thread that ran an upcall is attached to the JVM, and detaches in
     * a thread-local destructor when it ends. At process exit the engine's static destructors join
     * the default environment's pool threads while the JVM, exiting, holds the lock a detaching
     * thread needs: the process hangs (seen with librocksdb 7.8.3 under surefire: VM thread in
     * ThreadPoolImpl::JoinThreads, pool thread in jni_DetachCurrentThread). So, once any Java
     * object has been handed to RocksDB, a shutdown hook shrinks the default environment's pools
     * to zero threads while the JVM still runs: idle threads end (and detach) at once, busy ones
     * after their job, and the hook waits for them (at most EXIT_WAIT_MILLIS, watching the
     * threads' names). Work scheduled after that never runs (the JVM is exiting): close databases
     * before exit, or from a hook that runs first; a database's close unschedules its queued jobs.
     */
    private static final long EXIT_WAIT_MILLIS = 5_000;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Upcalls::releaseBackgroundThreads, "rocksffm-rocksdb-threads"));
    }

    private static void releaseBackgroundThreads() {
        try {
            MemorySegment env = RocksDBC.rocksdb_create_default_env();
            try {
                RocksDBC.rocksdb_env_set_background_threads(env, 0);
                RocksDBC.rocksdb_env_set_high_priority_background_threads(env, 0);
                if (Capabilities.callable("rocksdb_env_set_bottom_priority_background_threads")) {
                    RocksDBC.rocksdb_env_set_bottom_priority_background_threads(env, 0);
                }
            } finally {
                RocksDBC.rocksdb_env_destroy(env);
            }
            long deadline = System.nanoTime() + EXIT_WAIT_MILLIS * 1_000_000;
            while (poolThreads() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } catch (Throwable t) {
            // exiting anyway
        }
    }

    /*
     * Halt. Runtime.halt runs no shutdown hook: the engine's exit-time destructors join pool threads
     * that ran upcalls, which block detaching from the exiting JVM . So, when a
     * database whose families run Java code closes, its callbacks have all returned, and the pool
     * threads that ran them are made to end while the JVM runs: the default environment's pools
     * shrink to zero threads (idle threads end at once, and detach), rocksffm waits for them (at
     * most RECYCLE_WAIT_MILLIS: a thread busy with another database's job ends after it), and the
     * pools grow back to their sizes with fresh, unattached threads. Queued jobs of other open
     * databases wait meanwhile (a few milliseconds). A database still open at halt, or a pool
     * thread that stayed busy past the wait, can still hang halt: close databases first.
     */
    private static final long RECYCLE_WAIT_MILLIS = 2_000;
    private static final Object RECYCLE_LOCK = new Object();

    /**
     * Replaces RocksDB's default pool threads with fresh ones that never ran Java code (see above);
     * for after a database that ran Java callbacks closed. Never throws.
     */
    public static void recyclePoolThreads() {
        synchronized (RECYCLE_LOCK) {
            try {
                if (!Capabilities.callable("rocksdb_env_get_background_threads")
                        || !Capabilities.callable("rocksdb_env_get_high_priority_background_threads")) {
                    return;
                }
                boolean bottom = Capabilities.callable("rocksdb_env_get_bottom_priority_background_threads")
                        && Capabilities.callable("rocksdb_env_set_bottom_priority_background_threads");
                MemorySegment env = RocksDBC.rocksdb_create_default_env();
                try {
                    int low = RocksDBC.rocksdb_env_get_background_threads(env);
                    int high = RocksDBC.rocksdb_env_get_high_priority_background_threads(env);
                    int bottomThreads = bottom ? RocksDBC.rocksdb_env_get_bottom_priority_background_threads(env) : 0;
                    RocksDBC.rocksdb_env_set_background_threads(env, 0);
                    RocksDBC.rocksdb_env_set_high_priority_background_threads(env, 0);
                    if (bottom) {
                        RocksDBC.rocksdb_env_set_bottom_priority_background_threads(env, 0);
                    }
                    long deadline = System.nanoTime() + RECYCLE_WAIT_MILLIS * 1_000_000;
                    while (poolThreads() > 0 && System.nanoTime() < deadline) {
                        Thread.sleep(1);
                    }
                    RocksDBC.rocksdb_env_set_background_threads(env, low);
                    RocksDBC.rocksdb_env_set_high_priority_background_threads(env, high);
                    if (bottom) {
                        RocksDBC.rocksdb_env_set_bottom_priority_background_threads(env, bottomThreads);
                    }
                } finally {
                    RocksDBC.rocksdb_env_destroy(env);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable t) {
                // best effort: the pools keep their threads
            }
        }
    }

    /** RocksDB's pool threads alive in this process ("rocksdb:low/high/bottom"), 0 if unknown. */
    static int poolThreads() {
        int n = 0;
        try (DirectoryStream<Path> tasks =
                     Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    String name = Files.readString(t.resolve("comm")).strip();
                    n += name.equals("rocksdb:low") || name.equals("rocksdb:high") || name.equals("rocksdb:bottom") ? 1 : 0;
                } catch (IOException gone) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return n;
    }

    /** One registered Java object behind a native callback object. */
    public static final class Entry {
        private final Object target;
        private final MemorySegment name;
        private final Arena arena;
        private final Runnable onRelease;
        private volatile Throwable lastFailure;
        private volatile int index;

        private Entry(Object target, String name, Runnable onRelease) {
            this.target = target;
            this.arena = Arena.ofShared();
            this.name = arena.allocateFrom(name);
            this.onRelease = onRelease;
        }

        /** {@return the name given at registration} */
        public String name() {
            return name.getString(0);
        }

        /** {@return the Java object} */
        public Object target() {
            return target;
        }

        /** {@return the arena of the object's native memory, closed when RocksDB lets go of it} */
        public Arena arena() {
            return arena;
        }

        /** {@return the {@code state} pointer to give RocksDB} */
        public MemorySegment state() {
            return MemorySegment.ofAddress(index);
        }

        /** {@return the last exception the object threw inside an upcall, or null} */
        public Throwable lastFailure() {
            return lastFailure;
        }

        /** {@return whether RocksDB has released the object (its destructor ran)} */
        public boolean isReleased() {
            return index == 0;
        }
    }

    private static final Object LOCK = new Object();
    /** Index 0 is never used: a NULL state is no object. */
    private static volatile Entry[] table = new Entry[64];
    private static int[] free = new int[0];
    private static int freeCount;
    private static int next = 1;
    private static final AtomicLong FAILURES = new AtomicLong();
    /** The last failure per thread, until the thread's caller takes it; bounded. */
    private static final ConcurrentHashMap<Thread, Throwable> BY_THREAD = new ConcurrentHashMap<>();
    private static final int MAX_THREADS_KEPT = 256;

    /**
     * Registers {@code target} under a new handle.
     *
     * @param target    the Java object the callbacks reach
     * @param name      the name RocksDB asks for (no NUL characters)
     * @param onRelease run when RocksDB calls the destructor (may be null); must not throw
     * @return the entry, whose {@link Entry#state()} is the {@code state} to give RocksDB
     */
    public static Entry register(Object target, String name, Runnable onRelease) {
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("name contains a NUL character");
        }
        Entry e = new Entry(target, name, onRelease);
        synchronized (LOCK) {
            int i;
            if (freeCount > 0) {
                i = free[--freeCount];
            } else {
                i = next++;
                if (i >= table.length) {
                    table = Arrays.copyOf(table, table.length * 2);
                }
            }
            e.index = i;
            table[i] = e;
        }
        return e;
    }

    /**
     * Unregisters the entry of {@code state} (what the destructor stub does; also for a native
     * object that could not be made, before RocksDB ever saw the state). Idempotent.
     *
     * @param state the state handle
     */
    public static void release(long state) {
        Entry e;
        synchronized (LOCK) {
            if (state <= 0 || state >= table.length || table[(int) state] == null) {
                return;
            }
            e = table[(int) state];
            table[(int) state] = null;
            e.index = 0;
            if (freeCount == free.length) {
                free = Arrays.copyOf(free, Math.max(16, free.length * 2));
            }
            free[freeCount++] = (int) state;
        }
        try {
            if (e.onRelease != null) {
                e.onRelease.run();
            }
        } finally {
            e.arena.close();
        }
    }

    /**
     * The entry behind {@code state}.
     *
     * @param state the state RocksDB passed
     * @return the entry
     * @throws IllegalStateException if no object is registered there (a bug: RocksDB called an
     *         object after its destructor)
     */
    public static Entry entry(MemorySegment state) {
        return entry(state.address());
    }

    /**
     * The entry behind {@code state}, given as the number a stub with {@link #addressesAsLongs}
     * receives.
     *
     * @param i the state RocksDB passed
     * @return the entry
     * @throws IllegalStateException if no object is registered there
     */
    public static Entry entry(long i) {
        Entry[] t = table;
        Entry e = i > 0 && i < t.length ? t[(int) i] : null;
        if (e == null) {
            throw new IllegalStateException("no Java object registered for state " + i);
        }
        return e;
    }

    /** {@return the number of live registered objects} */
    public static int liveCount() {
        int n = 0;
        for (Entry e : table) {
            n += e == null ? 0 : 1;
        }
        return n;
    }

    // ---- failures ---------------------------------------------------------------------------------

    /**
     * Records an exception thrown by Java code inside an upcall. Never throws.
     *
     * @param state the state of the object that threw (or NULL if unknown)
     * @param t     the exception
     */
    public static void failed(MemorySegment state, Throwable t) {
        record(state == null ? 0 : state.address(), t, false);
    }

    /**
     * {@link #failed(MemorySegment, Throwable)} for a stub that receives {@code state} as a number
     * ({@link #addressesAsLongs}). Never throws.
     *
     * @param state the state of the object that threw (0 if unknown)
     * @param t     the exception
     */
    public static void failed(long state, Throwable t) {
        record(state, t, false);
    }

    /**
     * Records an exception whose consequence is an error returned to the thread that made the
     * call (a failed merge during a read): kept for that thread, whose {@link Native#check} attaches
     * it to the RocksDB error. Never throws.
     *
     * @param state the state of the object that threw
     * @param t     the exception
     */
    public static void failedForCaller(MemorySegment state, Throwable t) {
        record(state == null ? 0 : state.address(), t, true);
    }

    private static void record(long i, Throwable t, boolean forCaller) {
        try {
            FAILURES.incrementAndGet();
            Entry[] tab = table;
            if (i > 0 && i < tab.length && tab[(int) i] != null) {
                tab[(int) i].lastFailure = t;
            }
            if (forCaller) {
                if (BY_THREAD.size() >= MAX_THREADS_KEPT) {
                    BY_THREAD.clear(); // failures of threads whose callers never looked (background threads)
                }
                BY_THREAD.put(Thread.currentThread(), t);
            }
        } catch (Throwable ignored) {
            // nothing may escape an upcall; losing the record is the lesser evil
        }
    }

    /**
     * Takes the last failure recorded on the current thread (and forgets it).
     *
     * @return the exception, or null
     */
    public static Throwable takeFailure() {
        return BY_THREAD.isEmpty() ? null : BY_THREAD.remove(Thread.currentThread());
    }

    /** {@return the number of exceptions caught at stubs since the process started} */
    public static long failureCount() {
        return FAILURES.get();
    }

    // ---- stubs ---------------------------------------------------------------------------------

    /**
     * An upcall stub in the global arena for the static method {@code name} of {@code owner}
     * (found with {@code lookup}), whose Java signature is {@code descriptor}'s. The method's first
     * parameter is the {@code state} pointer. Every {@link Throwable} is caught: it is recorded
     * against the state and {@code fallback} is returned (null for a void function).
     *
     * @param lookup     a lookup that can see the method
     * @param owner      the class declaring it
     * @param name       the method's name
     * @param descriptor the C function pointer's descriptor
     * @param fallback   the value returned when the method throws (boxed; a MemorySegment for
     *                   pointers; null for void)
     * @return the stub's address
     */
    public static MemorySegment stub(MethodHandles.Lookup lookup, Class<?> owner, String name,
                                     FunctionDescriptor descriptor, Object fallback) {
        MethodType type = descriptor.toMethodType();
        try {
            MethodHandle target = lookup.findStatic(owner, name, type);
            MethodHandle handler = MethodHandles.lookup().findStatic(Upcalls.class, "failedAt",
                    MethodType.methodType(void.class, Throwable.class, type.parameterType(0)));
            // (Throwable, state, other args...) -> record, then return the fallback
            handler = MethodHandles.dropArguments(handler, 2, type.parameterList().subList(1, type.parameterCount()));
            if (type.returnType() != void.class) {
                MethodHandle constant = MethodHandles.constant(type.returnType(), fallback);
                handler = MethodHandles.foldArguments(MethodHandles.dropArguments(constant, 0, handler.type().parameterList()),
                        handler);
            }
            MethodHandle safe = MethodHandles.catchException(target, Throwable.class, handler);
            return Linker.nativeLinker().upcallStub(safe, descriptor, Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("upcall target " + owner.getName() + "." + name, e);
        }
    }

    private static void failedAt(Throwable t, MemorySegment state) {
        failed(state, t);
    }

    private static void failedAt(Throwable t, long state) {
        failed(state, t);
    }

    /**
     * {@code descriptor} with every pointer (argument or result) passed as a {@code long}: the
     * same calling convention on the platforms the JDK's linker supports (a pointer and a 64-bit
     * integer travel in the same registers), but the stub then wraps no pointer in a
     * {@link MemorySegment}. For the hottest callbacks (a comparator runs for every key
     * comparison), whose views are made with {@link #view} instead.
     *
     * @param descriptor a C function pointer's descriptor
     * @return the same function with {@code JAVA_LONG} for every {@link AddressLayout}
     */
    public static FunctionDescriptor addressesAsLongs(FunctionDescriptor descriptor) {
        MemoryLayout[] args = descriptor.argumentLayouts().stream().map(Upcalls::longIfAddress).toArray(MemoryLayout[]::new);
        return descriptor.returnLayout()
                .map(r -> FunctionDescriptor.of(longIfAddress(r), args))
                .orElseGet(() -> FunctionDescriptor.ofVoid(args));
    }

    private static MemoryLayout longIfAddress(MemoryLayout layout) {
        return layout instanceof AddressLayout ? ValueLayout.JAVA_LONG : layout;
    }

    /** All memory, read-only: {@link #view}s are slices of it. */
    private static final MemorySegment READ_ONLY_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE).asReadOnly();

    /**
     * A read-only view of the {@code length} bytes at {@code address}, which RocksDB passed to a
     * callback: one object (a slice of all memory), where wrapping the pointer, sizing it and
     * making it read-only would make three. Valid only during the callback, like every view
     * rocksffm hands to user code; nothing checks that (as for views of the stub's own pointer
     * arguments).
     *
     * @param address the address
     * @param length  the number of bytes
     * @return the view
     */
    public static MemorySegment view(long address, long length) {
        return READ_ONLY_MEMORY.asSlice(address, length);
    }

    /**
     * A read-only view of the {@code length} bytes at {@code address} that belongs to {@code call},
     * the arena of one callback invocation: once the callback returns and closes it, the view
     * throws {@link IllegalStateException} (and {@link WrongThreadException} on another thread
     * meanwhile), so a view the user kept never reads memory RocksDB has reused.
     *
     * @param address the address
     * @param length  the number of bytes
     * @param call    the arena of the call
     * @return the view
     */
    public static MemorySegment view(long address, long length, Arena call) {
        return READ_ONLY_MEMORY.asSlice(address, length).reinterpret(call, null);
    }

    /** {@code void destructor(void* state)}: releases the state's entry. */
    public static final MemorySegment DESTRUCTOR = stub(MethodHandles.lookup(), Upcalls.class, "destructor",
            FunctionDescriptor.ofVoid(ValueLayout.ADDRESS), null);
    /** {@code const char* name(void* state)}: the entry's name, valid until the destructor. */
    public static final MemorySegment NAME = stub(MethodHandles.lookup(), Upcalls.class, "name",
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS),
            MemorySegment.NULL);

    private static void destructor(MemorySegment state) {
        release(state.address());
    }

    private static MemorySegment name(MemorySegment state) {
        return entry(state).name;
    }
}
