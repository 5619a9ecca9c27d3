package io.rocksffm.internal;

import java.util.concurrent.atomic.AtomicLong;
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
     * A shared lifecycle without parents.
     *
     * @param what the object's name in error messages, e.g. "RocksDB"
     */
    public Lifecycle(String what) {
        this(what, null, NONE);
    }

    private Lifecycle(String what, Thread owner, Lifecycle[] parents) {
        this.what = what;
        this.owner = owner;
        this.parents = parents;
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
        int claimed = 0;
        try {
            for (Lifecycle p : parents) {
                p.addChild();
                claimed++;
            }
        } catch (RuntimeException | Error e) {
            for (int i = 0; i < claimed; i++) {
                parents[i].removeChild();
            }
            throw e;
        }
        return new Lifecycle(what, confined ? Thread.currentThread() : null, parents.clone());
    }

    /** Starts a call: throws IllegalStateException if closed. Pair with {@link #exit()} in finally. */
    public void enter() {
        long s = state.get();
        while (true) {
            if (s < 0) {
                throw closed();
            }
            long w = state.compareAndExchange(s, s + 1);
            if (w == s) {
                return;
            }
            s = w;
        }
    }

    /** Ends a call started by {@link #enter()}. */
    public void exit() {
        state.decrementAndGet();
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
     * Closes: idempotent; throws IllegalStateException (and stays open) while children are open,
     * and WrongThreadException on another thread than a confined object's owner.
     *
     * @param destroy frees the native object; runs once, after every call in flight has left
     * @param childNames what the children are, for the error message
     */
    public void close(Runnable destroy, String childNames) {
        long s = state.get();
        if (owner != null && s >= 0 && Thread.currentThread() != owner) {
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
        for (int spins = 0; (state.get() & CALLS) != 0; spins++) {
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

    private void releaseParents() {
        for (Lifecycle p : parents) {
            p.removeChild();
        }
    }

    private IllegalStateException closed() {
        return new IllegalStateException(what + " is closed");
    }
}
