package io.rocksffm.internal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Native scratch memory for one call: the {@code errptr} and {@code size_t} out-slots, and
 * buffers into which heap inputs are copied before they reach a downcall that may block (heap
 * memory may only be passed to critical downcalls), and the arrays of a multi-get.
 *
 * <p><b>Use.</b> {@code Scratch s = Scratch.acquire(); try { ... } finally { s.release(); }} (or
 * try-with-resources): a scratch belongs to the thread that acquired it until it releases it,
 * and must not be touched after that, nor released twice (release checks both). Nothing it
 * hands out (slots, buffers) may be used after release. Release frees an error message left in
 * {@link #errptr}, but callers take their errors first ({@link Native#check}).
 *
 * <p><b>The call token.</b> A scratch is also the token of the call that holds it: the call
 * enters the objects it uses through it ({@link #enter(Lifecycle)}), and release exits them in
 * reverse order before the scratch goes back. Every guarded call is thus one
 * {@code try (Scratch s = ...) { ... }}, and the order (acquire, enter; exit, release) holds by
 * construction.
 *
 * <p><b>Pool.</b> No thread keeps scratch memory between calls: that would cost native memory per
 * thread, and a server may run a virtual thread per request. A fixed pool of {@link #SLOTS}
 * scratches, made when this class loads, sits in {@link #SLOTS} slots, one per cache line; each
 * scratch has its own slot ({@link #home()}) and only ever goes back there. {@link #acquire()}
 * starts at a slot chosen by the thread's id on a platform thread (so it keeps finding the same
 * scratch, and threads on different cores touch different lines), and by the processor it runs
 * on on a virtual thread (a new thread per task would otherwise land on a random slot each time;
 * measured 2-3% on one get per virtual thread), and takes the first scratch found within
 * {@link #PROBES} slots (one compare-and-set); when there is none, it makes a temporary one.
 * {@link #release()} puts a pooled scratch back into its empty home slot with a plain release
 * store (no other thread writes a slot whose scratch is out, so no atomic instruction is needed),
 * and frees a temporary one. A pooled scratch is thus held by one thread at a time, with a
 * happens-before edge from one holder to the next: {@link Lifecycle} counts a call in the cell
 * of the scratch it holds, with one atomic instruction instead of two. The pool's native memory
 * stays bounded whatever the number of threads: {@link #SLOTS} scratches, each freeing on release
 * any buffer that grew beyond {@link #KEEP_BYTES}.
 *
 * <p><b>Memory.</b> Everything is C heap ({@code malloc}/{@code free}): usable from any thread,
 * freed exactly when rocksffm decides, never by the garbage collector.
 */
public final class Scratch implements AutoCloseable {
    /** Buffer slots (see {@link #buffer}): heap inputs, and multi-get arrays. */
    public static final int FIRST = 0;
    public static final int SECOND = 1;
    public static final int MULTI_KEYS = 2;
    public static final int MULTI_SIZES = 3;
    public static final int MULTI_VALUES = 4;
    public static final int MULTI_ERRORS = 5;
    public static final int MULTI_BYTES = 6;
    /** The value sizes and column families of a multi-get that returns C strings (transactions). */
    public static final int MULTI_VALUE_SIZES = 7;
    public static final int MULTI_FAMILIES = 8;
    private static final int BUFFERS = 9;

    /** A buffer larger than this is freed when its scratch is released. */
    public static final long KEEP_BYTES = 64 << 10;
    private static final long MIN_BUFFER = 256;

    /** Pool slots: a power of two, at least 16 and 4 per processor, at most 256. */
    static final int SLOTS = Math.min(256, Integer.highestOneBit(Math.max(16, 4 * Runtime.getRuntime().availableProcessors()) * 2 - 1));
    /** Slots looked at by one acquire or release. */
    static final int PROBES = Math.min(SLOTS, 8);
    /** Array elements per slot: 16 references span a cache line (64 bytes) or more. */
    private static final int STRIDE = 16;
    private static final AtomicReferenceArray<Scratch> POOL = new AtomicReferenceArray<>(SLOTS * STRIDE);

    /** The C block holding the out-slots: its own cache line, apart from other scratches'. */
    private final MemorySegment block;
    /** A {@code char*} slot, NULL between calls. */
    public final MemorySegment errptr;
    /** A {@code size_t} out-slot. */
    public final MemorySegment size;
    /** An {@code unsigned char} out-slot (8 bytes, zeroed when made). */
    public final MemorySegment found;
    private final MemorySegment[] buffers = new MemorySegment[BUFFERS];
    /** The pool slot this scratch lives in, or -1 for a temporary one. */
    private final int home;
    /**
     * A hint for {@code byte[]} gets: set when one through this scratch found a value too large
     * for a one-call read's buffer, cleared when one reads pinned a value that would have fitted;
     * absent keys leave it as it is, and gets of any database through this scratch share it. While
     * set, {@code byte[]} gets read pinned at once instead of wasting a read (a small value then
     * costs the pinned path's extra calls). Right or wrong it never changes a result; written only
     * by the holder.
     */
    public boolean largeValues;
    /** The thread holding this scratch, null while it is in the pool. */
    private Thread owner;
    /** Whether a buffer grew beyond {@link #KEEP_BYTES} since the last release (rare: skips a loop). */
    private boolean large;
    /** The lifecycles the holder's call entered through {@link #enter(Lifecycle)}, in order. */
    private Lifecycle[] entered = new Lifecycle[MAX_ENTERED];
    /** How many of {@link #entered} are in use. */
    private int enteredCount;
    /** The lifecycles most calls enter at most (a transaction, its database, a family, options); more grow the array. */
    private static final int MAX_ENTERED = 4;

    /** The processor the calling thread runs on (glibc's {@code sched_getcpu}), where the C library has it. */
    static final class Cpu {
        private static final MethodHandle GETCPU = Linker.nativeLinker().defaultLookup().find("sched_getcpu")
                .map(a -> Linker.nativeLinker().downcallHandle(a, FunctionDescriptor.of(ValueLayout.JAVA_INT),
                        Linker.Option.critical(false)))
                .orElse(null);
        /** Whether {@link #current()} works here. */
        static final boolean AVAILABLE = GETCPU != null;

        /** {@return the number of the processor the calling thread runs on now (0 if unknown)} */
        static int current() {
            try {
                return Math.max(0, (int) GETCPU.invokeExact());
            } catch (Throwable e) {
                throw Native.rethrow(e);
            }
        }
    }

    /** Scratches made so far (pooled or temporary), for tests. */
    private static final AtomicLong CREATED = new AtomicLong();

    static {
        for (int i = 0; i < SLOTS; i++) {
            POOL.set(i * STRIDE, new Scratch(i));
        }
    }

    private Scratch(int home) {
        this.home = home;
        CREATED.incrementAndGet();
        block = Native.malloc(128);
        MemorySegment line = block.asSlice((64 - (block.address() & 63)) & 63, 64);
        line.fill((byte) 0);
        errptr = line.asSlice(0, 8);
        size = line.asSlice(8, 8);
        found = line.asSlice(16, 8);
        Arrays.fill(buffers, MemorySegment.NULL);
    }

    /** A scratch for the calling thread, to {@link #release()} when the call is done. */
    public static Scratch acquire() {
        Thread t = Thread.currentThread();
        int start;
        if (t.isVirtual() && Cpu.AVAILABLE) {
            // a virtual thread is new for every task: its id would pick a random slot, so it
            // starts at its processor's slots, which the last call on that processor left warm
            start = Cpu.current() * PROBES;
        } else {
            start = (int) ((t.threadId() * 0x9E3779B97F4A7C15L) >>> 40);
        }
        for (int i = 0; i < PROBES; i++) {
            int slot = (start + i) & (SLOTS - 1);
            int index = slot * STRIDE;
            Scratch s = POOL.get(index);
            if (s != null && POOL.compareAndSet(index, s, null)) {
                s.owner = t;
                return s;
            }
        }
        Scratch s = new Scratch(-1);
        s.owner = t;
        return s;
    }

    /**
     * Returns this scratch to the pool (or frees it). Frees an error message still in
     * {@link #errptr} and buffers larger than {@link #KEEP_BYTES}.
     *
     * @throws IllegalStateException if the calling thread does not hold this scratch (a second
     *         release, or a release on another thread)
     */
    public void release() {
        if (owner != Thread.currentThread()) {
            throw new IllegalStateException("scratch released twice, or by a thread that does not hold it");
        }
        for (int i = enteredCount - 1; i >= 0; i--) { // the call leaves its objects before the scratch goes
            entered[i].exit(this);
        }
        enteredCount = 0; // the references stay: see enter
        owner = null;
        if (errptr.get(ValueLayout.JAVA_LONG, 0) != 0) {
            Native.takeError(errptr, 0); // a caller's bug; the message is freed, not leaked
        }
        if (large) {
            large = false;
            for (int i = 0; i < BUFFERS; i++) {
                if (buffers[i].byteSize() > KEEP_BYTES) {
                    Native.free(buffers[i]);
                    buffers[i] = MemorySegment.NULL;
                }
            }
        }
        if (home >= 0) {
            POOL.setRelease(home * STRIDE, this); // the slot stayed empty: only its holder fills it
        } else {
            destroy();
        }
    }

    /**
     * Enters {@code lifecycle} for the call holding this scratch, to be exited by {@link
     * #release()} (after the lifecycles entered later, before the scratch goes back): the scratch
     * is the call's token. A striped lifecycle counts the call in this scratch's cell ({@link
     * Lifecycle#enter(Scratch)}). If the enter fails, nothing is recorded; the caller releases the
     * scratch (a try-with-resources does), which exits what the call entered before.
     *
     * @param lifecycle the object the call uses
     * @return this scratch
     * @throws IllegalStateException if the object is closed (or refuses the call, see {@link Lifecycle#enter()})
     */
    public Scratch enter(Lifecycle lifecycle) {
        lifecycle.enter(this);
        if (enteredCount == entered.length) { // a call on many families
            entered = Arrays.copyOf(entered, 2 * enteredCount);
        }
        // A pooled scratch mostly serves calls on the same objects: storing a reference the slot
        // already holds would cost a garbage-collector write barrier (with a fence) per call, so
        // the slot is written only when it changes, and release leaves it (a released scratch
        // keeps at most a few lifecycles reachable, no native memory).
        if (entered[enteredCount] != lifecycle) {
            entered[enteredCount] = lifecycle;
        }
        enteredCount++;
        return this;
    }

    /**
     * A scratch with {@code lifecycle} entered: the token of a call on that object, to release
     * when the call ends (try-with-resources). If the enter fails, the scratch is released first.
     *
     * @param lifecycle the object the call uses
     * @return the scratch
     * @throws IllegalStateException if the object is closed (or refuses the call)
     */
    public static Scratch enterFirst(Lifecycle lifecycle) {
        Scratch s = acquire();
        try {
            return s.enter(lifecycle);
        } catch (RuntimeException | Error e) {
            s.release();
            throw e;
        }
    }

    /** {@link #release()}, for try-with-resources. */
    @Override
    public void close() {
        release();
    }

    private void destroy() {
        for (int i = 0; i < BUFFERS; i++) {
            if (buffers[i].address() != 0) {
                Native.free(buffers[i]);
                buffers[i] = MemorySegment.NULL;
            }
        }
        Native.free(block);
    }

    /**
     * The pool slot of this scratch, in {@code [0, SLOTS)}, or -1 for a temporary one (made when
     * the pool had none free). While a thread holds a pooled scratch, no other thread holds one
     * with the same home.
     *
     * @return the home slot, or -1
     */
    public int home() {
        return home;
    }

    /** The number of scratches in the pool now (for tests). */
    static int pooled() {
        int n = 0;
        for (int i = 0; i < SLOTS; i++) {
            if (POOL.get(i * STRIDE) != null) {
                n++;
            }
        }
        return n;
    }

    /** The number of scratches made so far, pooled or temporary (for tests). */
    static long created() {
        return CREATED.get();
    }

    /**
     * Buffer {@code slot}, grown (contents not kept) to at least {@code bytes}. Valid until
     * the next call that grows the same slot, and never after {@link #release()}.
     */
    public MemorySegment buffer(int slot, long bytes) {
        MemorySegment b = buffers[slot];
        if (b.byteSize() < bytes || b.address() == 0) {
            long n = Long.highestOneBit(Math.max(bytes, MIN_BUFFER) - 1) << 1;
            MemorySegment grown = Native.malloc(n);
            if (b.address() != 0) {
                Native.free(b);
            }
            buffers[slot] = grown;
            b = grown;
            large |= n > KEEP_BYTES;
        }
        return b;
    }

    /**
     * {@code s} itself when native, else its bytes copied into buffer {@code slot}. The
     * result may be longer than {@code s}: pass {@code s.byteSize()} as the length.
     *
     * @throws IllegalArgumentException if {@code s} is longer than a RocksDB key or value can be
     *         ({@link BatchFormat#MAX_SLICE}; only a native segment can be), before it is read
     */
    private MemorySegment nativeCopy(int slot, MemorySegment s) {
        if (s.isNative()) {
            if (s.byteSize() > BatchFormat.MAX_SLICE) {
                throw tooLarge(s.byteSize());
            }
            return s;
        }
        MemorySegment b = buffer(slot, s.byteSize());
        MemorySegment.copy(s, 0, b, 0, s.byteSize());
        return b;
    }

    /** The refusal of an input over RocksDB's limit for a key or value. */
    public static IllegalArgumentException tooLarge(long size) {
        return new IllegalArgumentException("a key or value of " + size + " bytes exceeds RocksDB's limit of "
                + BatchFormat.MAX_SLICE + " bytes");
    }

    /** {@link #nativeCopy} into the first input buffer. */
    public MemorySegment first(MemorySegment s) {
        return nativeCopy(FIRST, s);
    }

    /** {@link #nativeCopy} into the second input buffer (a call's second input). */
    public MemorySegment second(MemorySegment s) {
        return nativeCopy(SECOND, s);
    }

    /**
     * {@code a}'s bytes copied into buffer {@code slot}, straight from the array: no segment
     * wraps it, so nothing is allocated whatever the JIT inlines.
     */
    public MemorySegment copy(int slot, byte[] a) {
        MemorySegment b = buffer(slot, a.length);
        MemorySegment.copy(a, 0, b, ValueLayout.JAVA_BYTE, 0, a.length);
        return b;
    }
}
