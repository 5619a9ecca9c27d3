package io.rocksffm.internal;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The open/closed state of one native object, safe against close racing live calls.
 *
 * <p>One atomic word holds a closed bit, the number of calls in flight (each {@link #enter()}
 * is paired with an {@link #exit()}), and the number of open children (iterators, pinned values,
 * snapshots) that keep the object alive between calls. {@link #close(Runnable)} refuses while
 * children are open, stops new calls, waits for the calls in flight to leave, then runs the
 * native destroy exactly once. A call on a closed object throws {@link IllegalStateException};
 * nothing ever reaches native code with a freed pointer.
 */
public final class Lifecycle {
    private static final long CLOSED = Long.MIN_VALUE;
    private static final long CHILD = 1L << 32;
    private static final long CALLS = CHILD - 1;
    private static final long CHILDREN = ~CLOSED & ~CALLS;

    private final AtomicLong state = new AtomicLong();
    private final String what;

    /** @param what the object's name in error messages, e.g. "RocksDB" */
    public Lifecycle(String what) {
        this.what = what;
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

    /** Registers a child that keeps this object open; throws IllegalStateException if closed. */
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
     * Closes: idempotent; throws IllegalStateException (and stays open) while children are open.
     *
     * @param destroy frees the native object; runs once, after every call in flight has left
     * @param childNames what the children are, for the error message
     */
    public void close(Runnable destroy, String childNames) {
        long s = state.get();
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
        destroy.run();
    }

    /** Closes an object that has no children. */
    public void close(Runnable destroy) {
        close(destroy, "children");
    }

    private IllegalStateException closed() {
        return new IllegalStateException(what + " is closed");
    }
}
