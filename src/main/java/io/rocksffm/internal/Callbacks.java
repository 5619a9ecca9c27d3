package io.rocksffm.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Which Java callback, if any, the current thread is running inside: the marker that lets a
 * database refuse a call made from inside one of the callbacks RocksDB runs (a merge operator
 * reading its own family during a get crashes RocksDB; closing a database from inside its
 * comparator, or flushing it and waiting from inside its listener, deadlocks).
 *
 * <p><b>How.</b> Every upcall that runs user code brackets it with {@link #enter} and
 * {@link #exit}. The mark is a kind stored in a slot of a fixed table chosen by the thread's id
 * (one slot per cache line, so threads on different cores write different lines), next to the
 * thread that owns the slot. A thread claims a free slot once, with one compare-and-set, and
 * keeps it while it lives (a slot whose owner has ended is claimed anew the same way): after
 * that its marks are plain stores to its own slot, an enter and an exit cost a few nanoseconds
 * (measured on the comparator, the hottest callback). A thread finding its slot owned by another
 * live thread (ids that collide) is marked in a map instead, which {@link #current} consults only
 * while it is not empty. A nested callback (a listener's read that runs a merge) replaces the
 * kind and puts it back on exit. No thread-local variable: nothing is kept per thread but the
 * table's bounded references, whatever the number of (virtual) threads.
 *
 * <p>{@link #current} is a few plain reads: a slot names the calling thread only if that thread
 * claimed it, and only its owner writes its kind, so a stale or racing value of another thread is
 * never mistaken for a mark. Databases whose families run no Java code never even look
 * ({@link Lifecycle#guardCallbacks}).
 */
public final class Callbacks {
    private Callbacks() {}

    /** A kind of Java callback, named in the refusal's message. */
    public enum Kind {
        /** {@code MergeOperator.fullMerge}/{@code partialMerge}. */
        MERGE_OPERATOR("merge operator"),
        /** {@code Comparator.compare}. */
        COMPARATOR("comparator"),
        /** {@code CompactionFilter.filter} and {@code CompactionFilterFactory.create}. */
        COMPACTION_FILTER("compaction filter"),
        /** {@code PrefixExtractor.prefixLength}/{@code inDomain}. */
        PREFIX_EXTRACTOR("prefix extractor"),
        /** {@code EventListener} methods. */
        EVENT_LISTENER("event listener"),
        /** An {@code InfoLogger}'s Java sink. */
        INFO_LOGGER("Java info logger"),
        /** A backup's progress callback ({@code CreateBackupOptions.setProgressCallback}). */
        BACKUP_PROGRESS("backup progress callback");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }

        /** {@return the label with its article, e.g. "an event listener"} */
        String withArticle() {
            return ("aeiou".indexOf(label.charAt(0)) >= 0 ? "an " : "a ") + label;
        }
    }

    private static final Kind[] KINDS = Kind.values();
    private static final int SLOT_BITS = 10;
    /** References per slot: 16 span a cache line (64 bytes) with compressed references, 8 without. */
    private static final int STRIDE = 16;
    private static final Thread[] THREADS = new Thread[(1 << SLOT_BITS) * STRIDE];
    /** The kind of each slot's callback, null outside callbacks; written only by the slot's owner. */
    private static final Kind[] SLOT_KINDS = new Kind[(1 << SLOT_BITS) * STRIDE];
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Thread[].class);
    private static final ConcurrentHashMap<Thread, Kind> OVERFLOW = new ConcurrentHashMap<>();
    private static final AtomicInteger OVERFLOWING = new AtomicInteger();

    private static int slot(Thread t) {
        return (int) ((t.threadId() * 0x9E3779B97F4A7C15L) >>> (64 - SLOT_BITS)) * STRIDE;
    }

    /**
     * Marks the current thread as running a callback of {@code kind}; pair with {@link #exit} in
     * a finally block, with the token returned. Never throws.
     *
     * @param kind the callback's kind
     * @return the token to give {@link #exit}
     */
    public static int enter(Kind kind) {
        Thread t = Thread.currentThread();
        int i = slot(t);
        Thread owner = THREADS[i];
        if (owner == t || claim(i, owner, t)) {
            Kind outer = SLOT_KINDS[i];
            SLOT_KINDS[i] = kind;
            return (i << 3) | (outer == null ? NONE : outer.ordinal());
        }
        OVERFLOWING.incrementAndGet();
        Kind outer = OVERFLOW.put(t, kind);
        return -1 - (outer == null ? 0 : outer.ordinal() + 1);
    }

    /** The token code of "no outer callback": a token keeps a kind's ordinal in 3 bits, so at most 7 kinds. */
    private static final int NONE = 7;

    static {
        if (KINDS.length > NONE) {
            throw new AssertionError("a callback token holds at most " + NONE + " kinds");
        }
    }

    /** Claims slot {@code i}, free or owned by an ended thread, for {@code t}. */
    private static boolean claim(int i, Thread owner, Thread t) {
        return (owner == null || !owner.isAlive()) && SLOT.compareAndSet(THREADS, i, owner, t);
    }

    /**
     * Ends the callback {@link #enter} started, on the same thread. Never throws.
     *
     * @param token what {@code enter} returned
     */
    public static void exit(int token) {
        if (token >= 0) {
            int code = token & 7;
            SLOT_KINDS[token >>> 3] = code == NONE ? null : KINDS[code];
        } else {
            Thread t = Thread.currentThread();
            if (token == -1) {
                OVERFLOW.remove(t);
            } else {
                OVERFLOW.put(t, KINDS[-token - 2]);
            }
            OVERFLOWING.decrementAndGet();
        }
    }

    /** {@return the kind of callback the current thread is running inside, or null} */
    public static Kind current() {
        Thread t = Thread.currentThread();
        int i = slot(t);
        if (THREADS[i] == t) {
            return SLOT_KINDS[i];
        }
        return OVERFLOWING.get() == 0 ? null : OVERFLOW.get(t);
    }

    /**
     * Refuses a call of {@code what} made from inside a Java callback, other than an event
     * listener (whose calls RocksDB allows, except the ones that wait for background work:
     * {@link #refuseWaiting}).
     *
     * @param what the object called, e.g. "RocksDB"
     * @throws IllegalStateException from inside a merge operator, comparator, compaction filter or
     *         prefix extractor
     */
    public static void refuseReentry(String what) {
        Kind k = current();
        if (k != null && k != Kind.EVENT_LISTENER) {
            throw new IllegalStateException(what + " called from inside " + k.withArticle() + ": a database that runs Java "
                    + "callbacks cannot be called from inside one (RocksDB would crash or deadlock)");
        }
    }

    /**
     * Refuses, from inside any Java callback (event listeners too), a call that waits for the
     * database's background work (close, flush with wait, compaction): the callback may be that work.
     *
     * @param what the call, e.g. "RocksDB.flush"
     * @throws IllegalStateException from inside a callback
     */
    public static void refuseWaiting(String what) {
        Kind k = current();
        if (k != null) {
            throw new IllegalStateException(what + " called from inside " + k.withArticle() + ": it would wait for the "
                    + "background work the callback is part of (a deadlock)");
        }
    }
}
