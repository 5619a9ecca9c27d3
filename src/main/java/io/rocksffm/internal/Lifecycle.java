package io.rocksffm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The open/closed state of one native object: the one lifecycle mechanism every closeable type of
 * rocksffm uses.
 *
 * <p>One atomic word holds a closed bit, the number of calls in flight (each {@link #enter()} is
 * paired with an {@link #exit()}), and the number of open children (iterators, pinned values,
 * snapshots, checkpoints) that keep the object alive between calls. {@link #close(Runnable, String)}
 * refuses while children are open, stops new calls, waits for the calls in flight to leave, runs
 * the native destroy exactly once, and then releases the object's own parents. A call on a closed
 * object throws {@link IllegalStateException}; nothing reaches native code with a freed pointer.
 *
 * <p><b>Parents.</b> A child lifecycle ({@link #child}) claims its parents when it is made, all or
 * none, so they refuse to close while it is open; it releases them when it closes, or when the
 * object it was made for could not be built ({@link #abandon()}).
 *
 * <p><b>Confinement.</b> A confined lifecycle belongs to the thread that made it: its object is
 * used only there ({@link #check()}: no atomic operation, just the owner and the closed bit), and
 * other threads get {@link WrongThreadException}. Shared objects guard calls with
 * {@link #enter()}/{@link #exit()}, which lets {@code close()} on another thread wait for them.
 *
 * <p><b>Striped calls.</b> A {@link #striped} lifecycle (a database, which every call of every
 * thread enters) counts its calls in flight in cells of their own cache lines instead of in the
 * shared word, so that threads on different cores do not bounce one line between them on every
 * call. A call that holds a pooled {@link Scratch} ({@link #enter(Scratch)}) counts in the cell of
 * that scratch's pool slot: only the scratch's holder writes that cell, and a scratch passes from
 * one holder to the next with a happens-before edge, so its exit is a plain release store, and its
 * enter the one atomic instruction that orders the increment before the read of the closed bit.
 * Other calls ({@link #enter()}, or a temporary scratch) count in a cell chosen by the thread's id,
 * with an atomic increment and decrement. Either way {@code enter} increments, then reads the closed
 * bit (backing out when it is set); {@link #close} sets the closed bit and then waits for every
 * cell to read zero. Both are sequentially consistent atomic operations, so either the call sees
 * the closed bit, or close sees the call's increment and waits for it.
 */
public final class Lifecycle {
    private static final long CLOSED = Long.MIN_VALUE;
    private static final long CHILD = 1L << 32;
    private static final long CALLS = CHILD - 1;
    private static final long CHILDREN = ~CLOSED & ~CALLS;
    private static final Lifecycle[] NONE = {};

    private final AtomicLong state = new AtomicLong();
    private final String what;
    /** The owning thread of a confined object, else null. */
    private final Thread owner;
    /** Claimed at creation, released once when this closes or is abandoned. */
    private final Lifecycle[] parents;
    /**
     * Whether calls are refused from inside Java callbacks: non-zero while guarded, one for
     * {@link #guardCallbacks()} (for good) plus one per {@link #beginCallbackGuard()} not yet ended.
     * A plain field, read first by every enter; changed atomically ({@link #GUARDS}), before the
     * object is published to other threads or by the thread that configures it, or by a call that
     * then hands work to RocksDB's threads (a late store may be seen late by other threads, which
     * only ever run their own callbacks' checks later, never wrongly).
     */
    private int guards;
    /** Whether {@link #guardCallbacks()} was called. */
    private volatile boolean guardedForGood;
    private static final VarHandle GUARDS;

    static {
        try {
            GUARDS = MethodHandles.lookup().findVarHandle(Lifecycle.class, "guards", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** The calls in flight of a striped lifecycle, one cell per {@link #STRIDE} elements; else null. */
    private final AtomicLongArray calls;
    /** Whether one call at a time is allowed ({@link #exclusiveChild}). */
    private final boolean exclusive;

    /** Cells of a striped lifecycle: a power of two, at least 16 and 2 per processor, at most 64. */
    static final int STRIPES = Math.min(64, Integer.highestOneBit(
            Math.max(16, 2 * Runtime.getRuntime().availableProcessors()) * 2 - 1));
    private static final int STRIPE_SHIFT = 64 - Integer.numberOfTrailingZeros(STRIPES);
    /** Array elements per cell: 8 longs span a cache line. */
    private static final int STRIDE = 8;
    /** Cells of a striped lifecycle: {@link #STRIPES} by thread id, then one per scratch pool slot. */
    private static final int CELLS = STRIPES + Scratch.SLOTS;

    /**
     * A shared lifecycle without parents.
     *
     * @param what the object's name in error messages, e.g. "RocksDB"
     */
    public Lifecycle(String what) {
        this(what, null, NONE);
    }

    private Lifecycle(String what, Thread owner, Lifecycle[] parents) {
        this(what, owner, parents, false, false);
    }

    private Lifecycle(String what, Thread owner, Lifecycle[] parents, boolean striped, boolean exclusive) {
        this.what = what;
        this.owner = owner;
        this.parents = parents;
        this.calls = striped ? new AtomicLongArray(CELLS * STRIDE) : null;
        this.exclusive = exclusive;
    }

    /**
     * A shared lifecycle without parents whose calls in flight are counted in per-thread-striped
     * cells (about 1 KiB): for objects that many threads call at once, like a database.
     *
     * @param what the object's name in error messages
     * @return the lifecycle
     */
    public static Lifecycle striped(String what) {
        return new Lifecycle(what, null, NONE, true, false);
    }

    /** The calling thread's cell: the same for the same thread, whatever carrier it runs on. */
    private static int cell() {
        return (int) ((Thread.currentThread().threadId() * 0x9E3779B97F4A7C15L) >>> STRIPE_SHIFT) * STRIDE;
    }

    /**
     * A lifecycle confined to the current thread, without parents.
     *
     * @param what the object's name in error messages
     * @return the lifecycle
     */
    public static Lifecycle confined(String what) {
        return new Lifecycle(what, Thread.currentThread(), NONE);
    }

    /**
     * A child lifecycle: claims every parent (all, or none if one is closed or closing), so each
     * refuses to close until this one closes or is {@link #abandon() abandoned}.
     *
     * @param what     the object's name in error messages
     * @param confined whether the object is confined to the current thread
     * @param parents  the objects it keeps open
     * @return the lifecycle
     * @throws IllegalStateException if a parent is closed (the ones claimed before are released)
     */
    public static Lifecycle child(String what, boolean confined, Lifecycle... parents) {
        claim(parents);
        return new Lifecycle(what, confined ? Thread.currentThread() : null, parents.clone());
    }

    /**
     * A {@link #child} shared between threads but used by one at a time: a call entered while
     * another is in flight is refused with IllegalStateException (one compare-and-set per call,
     * the same as a shared object's), for an object whose native side is not thread-safe and whose
     * calls cannot wait (a transaction).
     *
     * @param what    the object's name in error messages
     * @param parents the objects it keeps open
     * @return the lifecycle
     * @throws IllegalStateException if a parent is closed (the ones claimed before are released)
     */
    public static Lifecycle exclusiveChild(String what, Lifecycle... parents) {
        claim(parents);
        return new Lifecycle(what, null, parents.clone(), false, true);
    }

    /** What a child lifecycle is made for: the object built with it. */
    @FunctionalInterface
    public interface Build<T> {
        /**
         * Builds the object that owns {@code child}.
         *
         * @param child the new child lifecycle
         * @return the object
         */
        T build(Lifecycle child);
    }

    /**
     * A {@link #child} and the object made for it, by construction: if {@code build} throws, the
     * child is {@link #abandon() abandoned} (its parents released) before the exception goes on,
     * as a call token exits what it entered. Native memory {@code build} allocated before it
     * failed is its own to free.
     *
     * @param what     the object's name in error messages
     * @param confined whether the object is confined to the current thread
     * @param build    makes the object that owns the child
     * @param parents  the objects it keeps open
     * @param <T>      the object's type
     * @return the object
     * @throws IllegalStateException if a parent is closed (nothing is built then)
     */
    public static <T> T buildChild(String what, boolean confined, Build<T> build, Lifecycle... parents) {
        return built(child(what, confined, parents), build);
    }

    /**
     * {@link #buildChild} with an {@link #exclusiveChild}.
     *
     * @param what    the object's name in error messages
     * @param build   makes the object that owns the child
     * @param parents the objects it keeps open
     * @param <T>     the object's type
     * @return the object
     * @throws IllegalStateException if a parent is closed (nothing is built then)
     */
    public static <T> T buildExclusiveChild(String what, Build<T> build, Lifecycle... parents) {
        return built(exclusiveChild(what, parents), build);
    }

    private static <T> T built(Lifecycle child, Build<T> build) {
        try {
            return build.build(child);
        } catch (RuntimeException | Error e) {
            child.abandon();
            throw e;
        }
    }

    /** Claims every parent, all or none. */
    private static void claim(Lifecycle[] parents) {
        int claimed = 0;
        try {
            for (Lifecycle p : parents) {
                p.addChild();
                claimed++;
            }
        } catch (RuntimeException | Error e) {
            for (int i = claimed - 1; i >= 0; i--) {
                parents[i].removeChild();
            }
            throw e;
        }
    }

    /**
     * From now on, calls ({@link #enter()}, {@link #enter(Scratch)}) and {@link #close} made from
     * inside a Java callback are refused with IllegalStateException ({@link Callbacks}): for a
     * database whose families run Java code, which such calls would crash or deadlock.
     */
    public void guardCallbacks() {
        if (!guardedForGood) {
            guardedForGood = true;
            GUARDS.getAndAdd(this, 1);
        }
    }

    /** {@return whether {@link #guardCallbacks()} was called} */
    public boolean guardsCallbacks() {
        return guardedForGood;
    }

    /**
     * Guards calls as {@link #guardCallbacks()} does until the matching {@link #endCallbackGuard()}:
     * for an object on which RocksDB runs Java code only while one call lasts (a database during a
     * backup with a progress callback). Call it before handing the work to RocksDB.
     */
    public void beginCallbackGuard() {
        GUARDS.getAndAdd(this, 1);
    }

    /** Ends what {@link #beginCallbackGuard()} began; in a finally block. */
    public void endCallbackGuard() {
        GUARDS.getAndAdd(this, -1);
    }

    /**
     * Starts a call: throws IllegalStateException if closed, or, for an {@link #exclusiveChild},
     * while another call is in flight. Pair with {@link #exit()} in finally.
     */
    public void enter() {
        if (guards != 0) {
            Callbacks.refuseReentry(what);
        }
        AtomicLongArray c = calls;
        if (c != null) {
            int i = cell();
            c.getAndIncrement(i);
            if (state.get() < 0) {
                c.getAndDecrement(i);
                throw closed();
            }
            return;
        }
        long s = state.get();
        while (true) {
            if (s < 0) {
                throw closed();
            }
            if (exclusive && (s & CALLS) != 0) {
                throw new IllegalStateException(what + " is in use by another thread (a " + what
                        + " is used by one thread at a time)");
            }
            long w = state.compareAndExchange(s, s + 1);
            if (w == s) {
                return;
            }
            s = w;
        }
    }

    /** Ends a call started by {@link #enter()}, on the thread that started it. */
    public void exit() {
        AtomicLongArray c = calls;
        if (c != null) {
            c.getAndDecrement(cell());
            return;
        }
        state.decrementAndGet();
    }

    /**
     * Starts a call made while holding {@code s}: as {@link #enter()}, but a striped lifecycle
     * counts it in the cell of the scratch's pool slot, which only the scratch's holder writes.
     * Pair with {@link #exit(Scratch)} with the same scratch, in finally, before releasing it.
     *
     * @param s the scratch the calling thread holds for this call, or null (then as {@link #enter()})
     * @throws IllegalStateException if closed
     */
    public void enter(Scratch s) {
        if (guards != 0) {
            Callbacks.refuseReentry(what);
        }
        int i = scratchCell(s);
        if (i < 0) {
            enter();
            return;
        }
        AtomicLongArray c = calls;
        c.getAndIncrement(i); // the one atomic instruction: orders the count before the read below
        if (state.get() < 0) {
            c.setRelease(i, c.getPlain(i) - 1);
            throw closed();
        }
    }

    /**
     * Ends a call started by {@link #enter(Scratch)}, with the same scratch, still held.
     *
     * @param s the scratch passed to {@code enter}
     */
    public void exit(Scratch s) {
        int i = scratchCell(s);
        if (i < 0) {
            exit();
            return;
        }
        AtomicLongArray c = calls;
        c.setRelease(i, c.getPlain(i) - 1); // only this scratch's holder writes the cell
    }

    /** The index of the cell of {@code s}'s pool slot; -1 if not striped, or no pooled scratch. */
    private int scratchCell(Scratch s) {
        int home = s == null ? -1 : s.home();
        return calls == null || home < 0 ? -1 : (STRIPES + home) * STRIDE;
    }

    /**
     * The guard of a confined object's calls: throws {@link WrongThreadException} on another
     * thread, IllegalStateException once closed. No atomic operation: only the owner changes
     * the state of a confined object.
     */
    public void check() {
        if (Thread.currentThread() != owner) {
            throw new WrongThreadException(what + " is confined to " + owner);
        }
        if (state.getPlain() < 0) {
            throw closed();
        }
    }

    /**
     * Registers a child that keeps this object open (for references that can change, like read
     * options' snapshot; children made with {@link #child} register themselves).
     *
     * @throws IllegalStateException if closed
     */
    public void addChild() {
        long s = state.get();
        while (true) {
            if (s < 0) {
                throw closed();
            }
            long w = state.compareAndExchange(s, s + CHILD);
            if (w == s) {
                return;
            }
            s = w;
        }
    }

    /** Unregisters a child added by {@link #addChild()}. */
    public void removeChild() {
        state.addAndGet(-CHILD);
    }

    /** Whether children are registered. */
    public boolean hasChildren() {
        return (state.get() & CHILDREN) != 0;
    }

    /** Whether {@link #close(Runnable)} has started. */
    public boolean isClosed() {
        return state.get() < 0;
    }

    /** Throws IllegalStateException if closed (a cheap check for Java-side state). */
    public void ensureOpen() {
        if (state.get() < 0) {
            throw closed();
        }
    }

    /**
     * Whether the calling thread owns this object's thread-confined resources (its confined
     * arenas): it is the owner, or the object is not confined. A close on another thread (allowed
     * once the owner has ended) must leave them alone: they hold no memory of their own.
     *
     * @return true on the owner thread or for a shared object
     */
    public boolean onOwnerThread() {
        return owner == null || Thread.currentThread() == owner;
    }

    /**
     * Closes: idempotent; throws IllegalStateException (and stays open) while children are open,
     * and WrongThreadException on another thread than a confined object's owner while the owner
     * lives. Once the owner thread has ended, any thread may close the object (nothing else
     * could: an iterator or pinned value left open by a finished thread would keep its database
     * from ever closing).
     *
     * @param destroy frees the native object; runs once, after every call in flight has left
     * @param childNames what the children are, for the error message
     */
    public void close(Runnable destroy, String childNames) {
        long s = state.get();
        if (guards != 0 && s >= 0) {
            Callbacks.refuseWaiting(what + ".close");
        }
        if (owner != null && s >= 0 && Thread.currentThread() != owner && owner.isAlive()) {
            throw new WrongThreadException(what + " is confined to " + owner);
        }
        while (true) {
            if (s < 0) {
                return;
            }
            if ((s & CHILDREN) != 0) {
                throw new IllegalStateException(what + " cannot be closed while " + ((s & CHILDREN) >>> 32)
                        + " " + childNames + " created from it are open; close them first");
            }
            long w = state.compareAndExchange(s, s | CLOSED);
            if (w == s) {
                break;
            }
            s = w;
        }
        for (int spins = 0; callsInFlight(); spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
        try {
            destroy.run();
        } finally {
            releaseParents();
        }
    }

    /** Closes an object that has no children. */
    public void close(Runnable destroy) {
        close(destroy, "children");
    }

    /**
     * Marks a child lifecycle closed without a destroy and releases its parents: for when the
     * object it was made for could not be built. Idempotent.
     */
    public void abandon() {
        long s = state.get();
        while (s >= 0) {
            long w = state.compareAndExchange(s, s | CLOSED);
            if (w == s) {
                releaseParents();
                return;
            }
            s = w;
        }
    }

    /**
     * Whether a call entered before the closed bit was set is still in flight. Once it is set, a
     * cell only grows for a moment (a refused enter backs out), so every cell reading zero, one
     * after the other, means every such call has left.
     */
    private boolean callsInFlight() {
        if ((state.get() & CALLS) != 0) {
            return true;
        }
        AtomicLongArray c = calls;
        if (c != null) {
            for (int i = 0; i < CELLS; i++) {
                if (c.get(i * STRIDE) != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Releases the parents in the reverse order {@link #child} claimed them: the first parent (a
     * database) may close the moment it is released, and its destroy closes later ones (its column
     * families), which must not find this child still holding them.
     */
    private void releaseParents() {
        for (int i = parents.length - 1; i >= 0; i--) {
            parents[i].removeChild();
        }
    }

    private IllegalStateException closed() {
        return new IllegalStateException(what + " is closed");
    }
}
