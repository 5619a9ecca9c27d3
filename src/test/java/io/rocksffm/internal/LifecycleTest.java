package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LifecycleTest {
    @Test
    void aChildKeepsItsParentsOpenUntilItCloses() {
        Lifecycle a = new Lifecycle("A");
        Lifecycle b = new Lifecycle("B");
        Lifecycle child = Lifecycle.child("C", false, a, b);
        assertTrue(a.hasChildren() && b.hasChildren());
        AtomicInteger destroyed = new AtomicInteger();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.close(destroyed::incrementAndGet, "cs"));
        assertTrue(e.getMessage().contains("1 cs"), e.getMessage());
        assertFalse(a.isClosed());
        child.close(destroyed::incrementAndGet);
        child.close(destroyed::incrementAndGet); // idempotent
        assertEquals(1, destroyed.get());
        assertFalse(a.hasChildren() || b.hasChildren());
        a.close(destroyed::incrementAndGet);
        assertEquals(2, destroyed.get());
    }

    @Test
    void aChildOfAClosedParentClaimsNothing() {
        Lifecycle a = new Lifecycle("A");
        Lifecycle b = new Lifecycle("B");
        b.close(() -> {});
        assertThrows(IllegalStateException.class, () -> Lifecycle.child("C", false, a, b));
        assertFalse(a.hasChildren(), "the claim on A was rolled back");
        a.close(() -> {});
    }

    @Test
    void abandonReleasesTheParentsOnce() {
        Lifecycle a = new Lifecycle("A");
        Lifecycle child = Lifecycle.child("C", true, a);
        child.abandon();
        child.abandon();
        assertTrue(child.isClosed());
        assertFalse(a.hasChildren());
        assertThrows(IllegalStateException.class, child::check);
        child.close(() -> fail("an abandoned object has nothing to destroy"));
    }

    /**
     * A child built with its object: the object is returned with the child it was built with, the
     * child claims its parents; if building throws (an exception or an error), the child is
     * abandoned, its parents released, and the same throwable goes on.
     */
    @Test
    void aBuiltChildIsAbandonedWhenItsObjectCannotBeBuilt() throws Exception {
        Lifecycle a = new Lifecycle("A");
        Lifecycle b = new Lifecycle("B");
        AtomicReference<Lifecycle> made = new AtomicReference<>();
        Object built = Lifecycle.buildChild("C", true, child -> {
            made.set(child);
            assertTrue(a.hasChildren() && b.hasChildren(), "claimed before building");
            return List.of(child);
        }, a, b);
        assertEquals(List.of(made.get()), built);
        made.get().check();
        assertInstanceOf(WrongThreadException.class, onNewThread(() -> {
            try {
                made.get().check();
                return null;
            } catch (Throwable t) {
                return t;
            }
        }).get(), "built confined");
        made.get().close(() -> { });
        assertFalse(a.hasChildren() || b.hasChildren());

        Lifecycle exclusive = Lifecycle.buildExclusiveChild("T", child -> child, a);
        assertTrue(a.hasChildren());
        exclusive.enter();
        assertThrows(IllegalStateException.class, exclusive::enter, "one call at a time");
        exclusive.exit();
        exclusive.close(() -> { });
        assertFalse(a.hasChildren());

        for (Throwable failure : List.of(new IllegalArgumentException("bad"), new LinkageError("no such symbol"))) {
            Throwable thrown = assertThrows(Throwable.class, () -> Lifecycle.buildChild("C", false, child -> {
                made.set(child);
                throw sneaky(failure);
            }, a, b));
            assertSame(failure, thrown);
            assertTrue(made.get().isClosed(), "the child is abandoned");
            assertFalse(a.hasChildren() || b.hasChildren(), "its parents are released");
            thrown = assertThrows(Throwable.class, () -> Lifecycle.buildExclusiveChild("T", child -> {
                made.set(child);
                throw sneaky(failure);
            }, a));
            assertSame(failure, thrown);
            assertTrue(made.get().isClosed(), "the exclusive child is abandoned");
            assertFalse(a.hasChildren(), "its parent is released");
        }
        b.close(() -> { });
        assertThrows(IllegalStateException.class, () -> Lifecycle.buildChild("C", false, child -> fail("built"), a, b));
        assertFalse(a.hasChildren(), "nothing claimed when a parent is closed");
        a.close(() -> { });
    }

    /** Throws {@code t}, an unchecked exception or an error; declared to return one so that a lambda can throw it. */
    private static RuntimeException sneaky(Throwable t) {
        if (t instanceof Error e) {
            throw e;
        }
        throw (RuntimeException) t;
    }

    /** ensureOpen passes on an open object, whatever it holds, and throws on a closed one. */
    @Test
    void ensureOpenRefusesOnlyAClosedObject() {
        Lifecycle l = new Lifecycle("O");
        l.ensureOpen();
        l.addChild();
        l.enter();
        l.ensureOpen();
        l.exit();
        l.removeChild();
        l.close(() -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, l::ensureOpen);
        assertEquals("O is closed", e.getMessage());
    }

    /**
     * A callback guard begun for one call (a backup with a progress callback) refuses calls from
     * inside callbacks until it ends; guards nest; a lifecycle guarded for good stays guarded after
     * a guard for one call ends.
     */
    @Test
    void aCallbackGuardForOneCallRefusesUntilItEnds() {
        Lifecycle l = Lifecycle.striped("RocksDB");
        assertCallableFromACallback(l, true);
        l.beginCallbackGuard();
        assertCallableFromACallback(l, false);
        l.beginCallbackGuard();
        l.endCallbackGuard();
        assertCallableFromACallback(l, false);
        l.endCallbackGuard();
        assertCallableFromACallback(l, true);
        assertFalse(l.guardsCallbacks(), "guarded for one call, not for good");
        l.guardCallbacks();
        l.guardCallbacks();
        l.beginCallbackGuard();
        l.endCallbackGuard();
        assertCallableFromACallback(l, false);
        assertTrue(l.guardsCallbacks());
        l.close(() -> { });
    }

    /** Asserts whether {@code l} takes a call from inside a comparator, and that it takes one outside. */
    private static void assertCallableFromACallback(Lifecycle l, boolean callable) {
        int token = Callbacks.enter(Callbacks.Kind.COMPARATOR);
        try {
            if (callable) {
                l.enter();
                l.exit();
            } else {
                assertThrows(IllegalStateException.class, l::enter);
            }
        } finally {
            Callbacks.exit(token);
        }
        l.enter(); // outside callbacks, always
        l.exit();
    }

    @Test
    void aConfinedObjectRefusesOtherThreads() throws Exception {
        Lifecycle c = Lifecycle.confined("W");
        c.check();
        CompletableFuture<Throwable> other = onNewThread(() -> {
            try {
                c.check();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertInstanceOf(WrongThreadException.class, other.get());
        Throwable close = onNewThread(() -> {
            try {
                c.close(() -> {});
                return null;
            } catch (Throwable t) {
                return t;
            }
        }).get();
        assertInstanceOf(WrongThreadException.class, close);
        assertFalse(c.isClosed());
        c.close(() -> {});
        assertThrows(IllegalStateException.class, c::check);
        assertNull(onNewThread(() -> {
            c.close(() -> fail("closed once"));
            return null;
        }).get(), "closing a closed object is harmless on any thread");
    }

    /** An exclusive child (a transaction) takes one call at a time, from any thread, and still waits on close. */
    @Test
    void anExclusiveChildRefusesASecondCallInFlight() throws Exception {
        Lifecycle parent = new Lifecycle("P");
        Lifecycle tx = Lifecycle.exclusiveChild("Transaction", parent);
        tx.enter();
        IllegalStateException busy = assertThrows(IllegalStateException.class, tx::enter, "same thread, nested");
        assertTrue(busy.getMessage().contains("in use by another thread"), busy.getMessage());
        AtomicReference<Throwable> other = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                tx.enter();
            } catch (Throwable e) {
                other.set(e);
            }
        });
        t.join();
        assertInstanceOf(IllegalStateException.class, other.get(), "another thread during the call");
        tx.exit();
        Thread t2 = Thread.ofPlatform().start(() -> {
            tx.enter(); // one call at a time, but from any thread
            tx.exit();
        });
        t2.join();
        tx.enter();
        tx.exit();
        assertThrows(IllegalStateException.class, () -> parent.close(() -> { }),
                "the child keeps its parent open");
        tx.close(() -> { });
        assertThrows(IllegalStateException.class, tx::enter, "closed");
        parent.close(() -> { });
    }

    @Test
    void closeWaitsForCallsInFlight() throws InterruptedException, ExecutionException {
        Lifecycle l = new Lifecycle("S");
        l.enter();
        AtomicInteger destroyed = new AtomicInteger();
        CompletableFuture<Void> closing = onNewThread(() -> closeVoid(l, destroyed));
        Thread.sleep(50);
        assertEquals(0, destroyed.get(), "destroy waits for the call in flight");
        assertThrows(IllegalStateException.class, l::enter, "no new calls once closing");
        l.exit();
        closing.get();
        assertEquals(1, destroyed.get());
    }

    @Test
    void aStripedLifecycleCloseWaitsForCallsInFlight() throws InterruptedException, ExecutionException {
        Lifecycle l = Lifecycle.striped("D");
        l.enter();
        l.enter(); // nested calls of one thread share its cell
        l.exit();
        AtomicInteger destroyed = new AtomicInteger();
        CompletableFuture<Void> closing = onNewThread(() -> closeVoid(l, destroyed));
        Thread.sleep(50);
        assertEquals(0, destroyed.get(), "destroy waits for the call in flight");
        assertThrows(IllegalStateException.class, l::enter, "no new calls once closing");
        assertThrows(IllegalStateException.class, l::addChild);
        l.exit();
        closing.get();
        assertEquals(1, destroyed.get());
        l.close(() -> fail("closed once"));
    }

    @Test
    void aStripedLifecycleCloseWaitsForACallCountedInItsScratchsCell() throws Exception {
        Lifecycle l = Lifecycle.striped("D");
        Scratch s = Scratch.acquire();
        assertTrue(s.home() >= 0, "a pooled scratch");
        AtomicInteger destroyed = new AtomicInteger();
        CompletableFuture<Void> closing;
        try {
            l.enter(s);
            l.enter(); // another call of this thread, in its thread's cell
            l.exit();
            closing = onNewThread(() -> closeVoid(l, destroyed));
            Thread.sleep(50);
            assertEquals(0, destroyed.get(), "destroy waits for the call counted in the scratch's cell");
            assertThrows(IllegalStateException.class, () -> l.enter(s), "no new calls once closing");
            Thread.sleep(20);
            assertEquals(0, destroyed.get(), "a refused call leaves the count as it was");
            l.exit(s);
        } finally {
            s.release();
        }
        closing.get();
        assertEquals(1, destroyed.get());
    }

    /**
     * A child releases its parents in the reverse order it claimed them, so a parent that closes
     * the moment its last child lets go never finds that child still holding a later parent (a
     * database closes its column families: an iterator claims the database, then the family).
     */
    @Test
    @Timeout(60)
    void aParentClosingAsItsLastChildClosesFindsTheLaterParentsReleased() throws Exception {
        int brokenCloses = 0;
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        for (int round = 0; round < 2000; round++) {
            Lifecycle database = new Lifecycle("D");
            Lifecycle family = new Lifecycle("F");
            Thread worker = Thread.ofPlatform().start(() -> {
                try {
                    while (true) {
                        Lifecycle child;
                        try {
                            child = Lifecycle.child("I", false, database, family);
                        } catch (IllegalStateException closed) {
                            return;
                        }
                        child.close(() -> {});
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
            while (true) {
                try {
                    database.close(() -> family.close(() -> {}, "iterators"), "iterators");
                    break;
                } catch (IllegalStateException e) {
                    if (database.isClosed()) { // refused inside destroy: the family still had the child
                        brokenCloses++;
                        break;
                    }
                    Thread.onSpinWait();
                }
            }
            worker.join();
        }
        assertEquals(List.of(), List.copyOf(failures), "the worker died on an unexpected exception");
        assertEquals(0, brokenCloses, "closes that found the family still claimed by a closed child");
    }

    @Test
    void aStripedLifecycleRefusesCloseWhileChildrenAreOpen() {
        Lifecycle l = Lifecycle.striped("D");
        Lifecycle child = Lifecycle.child("C", false, l);
        assertThrows(IllegalStateException.class, () -> l.close(() -> fail("children are open"), "cs"));
        l.enter(); // still open for calls
        l.exit();
        child.close(() -> {});
        l.close(() -> {});
        assertTrue(l.isClosed());
    }

    /**
     * Many platform and virtual threads enter and exit while another closes: no call is ever
     * inside after destroy ran, and every call after close is refused; for a striped lifecycle,
     * and for a shared one, whose close contends with the calls for its state word.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    @Timeout(120)
    void aLifecycleNeverLetsACallOverlapDestroy(boolean striped) throws Exception {
        for (int round = 0; round < 10; round++) {
            Lifecycle l = striped ? Lifecycle.striped("D") : new Lifecycle("S");
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicBoolean destroyed = new AtomicBoolean();
            // every thread starts and parks before any loops: two carriers of looping virtual threads
            // that yield would otherwise keep the others from ever starting
            CountDownLatch started = new CountDownLatch(8);
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            for (int t = 0; t < 8; t++) {
                Thread.Builder b = t % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual();
                boolean withScratch = (t & 2) != 0;
                threads.add(b.start(() -> {
                    try {
                        work(l, withScratch, started, go, inside, destroyed, overlaps);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            started.await();
            go.countDown();
            Thread.sleep(2);
            l.close(() -> {
                if (inside.get() != 0) {
                    overlaps.incrementAndGet();
                }
                destroyed.set(true);
            });
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(List.of(), List.copyOf(failures), "a thread died on an unexpected exception");
            assertEquals(0, overlaps.get(), "a call overlapped destroy");
            assertTrue(l.isClosed());
            assertThrows(IllegalStateException.class, l::enter);
        }
    }

    /**
     * A guarded lifecycle refuses calls and closes from inside a Java callback (a comparator, a
     * merge operator): RocksDB re-entered from its own callback crashes or deadlocks. An event
     * listener may call, but not close; an unguarded lifecycle refuses nothing.
     */
    @Test
    void aGuardedLifecycleRefusesCallsAndClosesFromInsideCallbacks() {
        Lifecycle guarded = Lifecycle.striped("RocksDB");
        Lifecycle plain = new Lifecycle("Plain");
        assertFalse(guarded.guardsCallbacks());
        guarded.guardCallbacks();
        assertTrue(guarded.guardsCallbacks());
        assertFalse(plain.guardsCallbacks());
        int token = Callbacks.enter(Callbacks.Kind.COMPARATOR);
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, guarded::enter);
            assertTrue(e.getMessage().contains("RocksDB called from inside a comparator"), e.getMessage());
            try (Scratch s = Scratch.acquire()) {
                assertThrows(IllegalStateException.class, () -> guarded.enter(s));
                assertThrows(IllegalStateException.class, () -> s.enter(guarded));
            }
            assertThrows(IllegalStateException.class, () -> guarded.close(() -> fail("closed from a callback")));
            assertFalse(guarded.isClosed());
            plain.enter();
            plain.exit();
        } finally {
            Callbacks.exit(token);
        }
        token = Callbacks.enter(Callbacks.Kind.EVENT_LISTENER);
        try {
            guarded.enter(); // a listener may read
            guarded.exit();
            try (Scratch s = Scratch.acquire()) {
                s.enter(guarded);
            }
            assertThrows(IllegalStateException.class, () -> guarded.close(() -> fail("closed from a listener")));
        } finally {
            Callbacks.exit(token);
        }
        // outside callbacks: calls go through, and close waits for none left behind by the refusals
        guarded.enter();
        guarded.exit();
        AtomicInteger destroyed = new AtomicInteger();
        guarded.close(destroyed::incrementAndGet);
        guarded.close(destroyed::incrementAndGet);
        assertEquals(1, destroyed.get());
        plain.close(() -> { });
    }

    /** One thread of {@link #aLifecycleNeverLetsACallOverlapDestroy}: calls until the lifecycle is closed. */
    private static void work(Lifecycle l, boolean withScratch, CountDownLatch started, CountDownLatch go,
                             AtomicInteger inside, AtomicBoolean destroyed, AtomicInteger overlaps) throws InterruptedException {
        started.countDown();
        go.await();
        while (true) {
            // half the threads count their calls in their scratch's cell
            Scratch s = withScratch ? Scratch.acquire() : null;
            try {
                try {
                    l.enter(s);
                } catch (IllegalStateException closed) {
                    return;
                }
                try {
                    inside.incrementAndGet();
                    if (destroyed.get()) {
                        overlaps.incrementAndGet();
                    }
                    inside.decrementAndGet();
                } finally {
                    l.exit(s);
                }
            } finally {
                if (s != null) {
                    s.release();
                }
            }
            Thread.yield(); // lets the other virtual threads run on the carriers
        }
    }

    /** The owner thread of a confined object owns its resources; a shared object's belong to every thread. */
    @Test
    void onlyTheOwnerOwnsAConfinedObjectsResources() throws Exception {
        Lifecycle confined = Lifecycle.confined("C");
        Lifecycle shared = new Lifecycle("S");
        assertTrue(confined.onOwnerThread());
        assertTrue(shared.onOwnerThread());
        assertFalse(onNewThread(confined::onOwnerThread).get());
        assertTrue(onNewThread(shared::onOwnerThread).get());
    }

    /**
     * A striped close waits for a call in flight whichever thread's cell counts it: 64 threads
     * each hold a call on a lifecycle of their own while it is closed from another thread.
     */
    @Test
    @Timeout(60)
    void aStripedCloseWaitsForACallCountedInAnyThreadsCell() throws Exception {
        int n = 64;
        List<Lifecycle> lifecycles = new ArrayList<>();
        CountDownLatch entered = new CountDownLatch(n);
        CountDownLatch leave = new CountDownLatch(1);
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Lifecycle l = Lifecycle.striped("D" + i);
            lifecycles.add(l);
            callers.add(holdingCalls(l, 1, entered, leave, failures));
        }
        entered.await();
        AtomicInteger destroyed = new AtomicInteger();
        List<Thread> closers = new ArrayList<>();
        for (Lifecycle l : lifecycles) {
            closers.add(Thread.ofPlatform().start(() -> l.close(destroyed::incrementAndGet)));
        }
        Thread.sleep(100);
        assertEquals(0, destroyed.get(), "destroyed while a call was in flight");
        leave.countDown();
        for (Thread t : callers) {
            t.join();
        }
        for (Thread t : closers) {
            t.join();
        }
        assertEquals(List.of(), List.copyOf(failures));
        assertEquals(n, destroyed.get());
    }

    /**
     * Threads entering and leaving a shared (not striped) lifecycle at once, their compare-and-sets
     * colliding, leave it open with no call counted: close does not wait and calls still go in.
     */
    @Test
    @Timeout(60)
    void concurrentCallsOnASharedLifecycleCountExactly() throws Exception {
        Lifecycle l = new Lifecycle("S");
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 200_000; i++) {
                        l.enter();
                        l.exit();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), List.copyOf(failures));
        assertFalse(l.isClosed());
        l.enter();
        l.exit();
        AtomicInteger destroyed = new AtomicInteger();
        l.close(destroyed::incrementAndGet);
        assertEquals(1, destroyed.get());
    }

    /**
     * Every compare-and-set loop of a shared lifecycle retries when another thread changed the
     * state between its read and its write, so no enter, child claim, close or abandon is lost: two
     * threads calling and claiming children at once leave the counts exact, and a close or abandon
     * while another thread calls still closes and releases the parent. A lost compare-and-set
     * cannot be forced from outside (but see {@link #aCloseRereadsTheStateWhenAChildIsClaimedAfterItsRead});
     * the threads repeat until they have run at the same time often (2 s at most on a loaded
     * machine, milliseconds on an idle one), so that they collide many times.
     */
    @Test
    @Timeout(60)
    void compareAndSetsThatLoseToAnotherThreadRetry() throws Exception {
        Lifecycle l = new Lifecycle("S");
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch ready = new CountDownLatch(2);
        AtomicLongArray runs = new AtomicLongArray(2 * RUNS_APART);
        AtomicLong overlaps = new AtomicLong();
        Thread claims = Thread.ofPlatform().start(() -> repeatTogether(0, runs, overlaps, ready, failures, () -> {
            l.addChild();
            l.removeChild();
        }));
        repeatTogether(1, runs, overlaps, ready, failures, () -> {
            l.enter();
            l.exit();
        });
        claims.join();
        assertEquals(List.of(), List.copyOf(failures), "an enter or a claim was lost");
        assertFalse(l.isClosed());
        assertFalse(l.hasChildren());
        AtomicInteger destroyed = new AtomicInteger();
        l.close(destroyed::incrementAndGet);
        assertEquals(1, destroyed.get());

        AtomicReference<Lifecycle> target = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong calls = new AtomicLong();
        Thread caller = Thread.ofPlatform().start(() -> {
            try {
                while (!stop.get()) {
                    Lifecycle c = target.get();
                    if (c == null) {
                        continue;
                    }
                    try {
                        c.enter();
                    } catch (IllegalStateException e) {
                        if (c.isClosed()) {
                            continue; // closed by the loop below since this call began
                        }
                        throw e;
                    }
                    c.exit();
                    calls.incrementAndGet();
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        });
        try {
            // until 50 abandons ran while the caller's count moved (in at least 20 rounds, 1 s at most)
            long end = System.nanoTime() + 1_000_000_000L;
            int overlapped = 0;
            for (int round = 0; round < 2000 && (round < 20 || overlapped < 50 && System.nanoTime() < end); round++) {
                Lifecycle parent = new Lifecycle("P");
                Lifecycle c = Lifecycle.child("C", false, parent);
                long before = calls.get();
                target.set(c);
                while (calls.get() < before + 3 && caller.isAlive()) { // the caller is calling c now
                    Thread.yield();
                }
                boolean close = round % 2 == 0;
                destroyed.set(0);
                if (close) {
                    c.close(destroyed::incrementAndGet);
                } else {
                    long seen = calls.get();
                    c.abandon();
                    if (calls.get() != seen) {
                        overlapped++;
                    }
                }
                String what = (close ? "closed" : "abandoned") + " while another thread calls it, round " + round;
                assertTrue(c.isClosed(), what);
                assertFalse(parent.hasChildren(), what);
                assertEquals(close ? 1 : 0, destroyed.get(), what);
                assertThrows(IllegalStateException.class, c::enter, what);
            }
        } finally {
            stop.set(true);
            caller.join();
        }
        assertEquals(List.of(), List.copyOf(failures), "the calling thread died on an unexpected exception");
    }

    /**
     * A close whose compare-and-set loses to a child claimed between its read of the state and its
     * write reads the state again and refuses (a child is open) instead of closing under the child.
     * The window is opened deterministically: a guarded close first asks whether the closing thread
     * is inside a callback, which, while another thread's mark has overflowed into the callback
     * marks' map, looks the closing thread up there by its {@code hashCode}; the closing thread's
     * {@code hashCode} claims the child.
     */
    @Test
    @Timeout(60)
    void aCloseRereadsTheStateWhenAChildIsClaimedAfterItsRead() throws Exception {
        CountDownLatch overflowed = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        List<Thread> markers = new ArrayList<>();
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try {
            // threads inside a callback until two share a slot of the marks' table (100 threads
            // collide among its 1024 slots 99 times in 100); a negative token is a mark kept in the map
            while (overflowed.getCount() > 0) {
                assertTrue(markers.size() < 20_000, "no callback mark overflowed into the map");
                CountDownLatch marked = new CountDownLatch(100);
                for (int i = 0; i < 100; i++) {
                    markers.add(Thread.ofVirtual().start(() -> {
                        int token = Callbacks.enter(Callbacks.Kind.EVENT_LISTENER);
                        try {
                            if (token < 0) {
                                overflowed.countDown();
                            }
                            marked.countDown();
                            end.await();
                        } catch (Throwable t) {
                            failures.add(t);
                        } finally {
                            Callbacks.exit(token);
                        }
                    }));
                }
                marked.await();
            }
            Lifecycle l = new Lifecycle("RocksDB");
            l.guardCallbacks();
            AtomicBoolean inClose = new AtomicBoolean();
            AtomicInteger claims = new AtomicInteger();
            AtomicInteger destroyed = new AtomicInteger();
            AtomicReference<Throwable> closed = new AtomicReference<>();
            Thread closer = new Thread(() -> {
                try {
                    inClose.set(true);
                    l.close(destroyed::incrementAndGet, "iterators");
                } catch (Throwable t) {
                    closed.set(t);
                }
            }) {
                @Override
                public int hashCode() {
                    if (inClose.getAndSet(false)) { // the callback check, after close read the state
                        l.addChild();
                        claims.incrementAndGet();
                    }
                    return super.hashCode();
                }
            };
            closer.start();
            closer.join();
            assertEquals(1, claims.get(), "the child was claimed inside close");
            IllegalStateException refused = assertInstanceOf(IllegalStateException.class, closed.get());
            assertTrue(refused.getMessage().contains("while 1 iterators"), refused.getMessage());
            assertFalse(l.isClosed());
            assertEquals(0, destroyed.get(), "destroyed with a child open");
            l.removeChild();
            l.close(destroyed::incrementAndGet);
            assertEquals(1, destroyed.get());
        } finally {
            end.countDown();
            for (Thread t : markers) {
                t.join();
            }
        }
        assertEquals(List.of(), List.copyOf(failures), "a marking thread died on an unexpected exception");
    }

    /** Elements between the two threads' counts in {@link #repeatTogether}: a cache line each. */
    private static final int RUNS_APART = 8;

    /**
     * One of the two threads of {@link #compareAndSetsThatLoseToAnotherThreadRetry}: waits for the
     * other, then runs {@code op} until the two have run theirs 4,000 times while the other ran
     * (its count in {@code runs} moved), 1 s at most: evidence that they ran at the same time, not
     * proof of a lost compare-and-set. A failure goes to {@code failures}.
     *
     * @param me this thread's count in {@code runs}: 0 or 1
     */
    private static void repeatTogether(int me, AtomicLongArray runs, AtomicLong overlaps, CountDownLatch ready,
                                       Queue<Throwable> failures, Runnable op) {
        try {
            ready.countDown();
            ready.await();
            int mine = me * RUNS_APART;
            int other = (1 - me) * RUNS_APART;
            long end = System.nanoTime() + 1_000_000_000L;
            for (long i = 1; overlaps.get() < 4_000; i++) {
                if ((i & 1023) == 0 && System.nanoTime() > end) {
                    break;
                }
                long seen = runs.get(other);
                op.run();
                runs.set(mine, i);
                if (runs.get(other) != seen) {
                    overlaps.incrementAndGet();
                }
            }
        } catch (Throwable t) {
            failures.add(t);
        }
    }

    /**
     * A striped lifecycle spreads the calls of different threads over cells of their own (what it
     * is striped for: a cell shared by all threads would bounce one cache line between cores on
     * every call, counting right but slowly), a thread's nested calls share its cell, and the
     * threads' cells come before the scratch slots' ones.
     */
    @Test
    @Timeout(60)
    void aStripedLifecycleSpreadsTheCallsOfThreadsOverCells() throws Exception {
        Lifecycle l = Lifecycle.striped("D");
        int n = Lifecycle.STRIPES;
        CountDownLatch entered = new CountDownLatch(n);
        CountDownLatch leave = new CountDownLatch(1);
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            threads.add(holdingCalls(l, 2, entered, leave, failures));
        }
        entered.await();
        Map<Integer, Long> counted = countedCells(l);
        leave.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), List.copyOf(failures), "a thread died on an unexpected exception");
        assertEquals(2L * n, counted.values().stream().mapToLong(Long::longValue).sum(), counted.toString());
        // n threads hashed into n cells: fewer than n / 4 distinct cells is a broken spread, not bad luck
        assertTrue(counted.size() >= n / 4, "cells used by " + n + " threads: " + counted);
        int perCell = cellLength(l);
        for (Map.Entry<Integer, Long> e : counted.entrySet()) {
            assertEquals(0, e.getKey() % perCell, "a cell starts a cache line: " + counted);
            assertTrue(e.getKey() < Lifecycle.STRIPES * perCell, "a thread's cell is one of the threads': " + counted);
            assertEquals(0, e.getValue() % 2, "a thread's two calls count in one cell: " + counted);
        }
        assertEquals(Map.of(), countedCells(l), "every call left");
        l.close(() -> { });
    }

    /**
     * A call holding a pooled scratch counts in its slot's cell (after the threads' cells, one per
     * slot), apart from every other scratch's and from the calling thread's; a call holding a
     * temporary scratch counts in the thread's cell. New threads hold scratches until one of them
     * has held the pool's first one (slot 0).
     */
    @Test
    @Timeout(60)
    void aStripedLifecycleCountsACallInItsScratchsSlotCell() throws Exception {
        Lifecycle l = Lifecycle.striped("D");
        boolean slotZero = false;
        for (int attempt = 0; !slotZero; attempt++) {
            assertTrue(attempt < 10_000, "no thread got the pool's first scratch");
            slotZero = onNewThread(() -> countInScratchCells(l)).get();
        }
        l.close(() -> { });
    }

    /**
     * One thread of {@link #aStripedLifecycleCountsACallInItsScratchsSlotCell}: holds all the
     * scratches it can get and one temporary, and enters {@code l} once plainly and once with each.
     *
     * @return whether it held the pool's first scratch
     */
    private static boolean countInScratchCells(Lifecycle l) {
        List<Scratch> held = new ArrayList<>();
        try {
            for (int i = 0; i <= Scratch.PROBES; i++) { // the last one finds every slot it probes held: temporary
                held.add(Scratch.acquire());
            }
            l.enter();
            for (Scratch s : held) {
                l.enter(s);
            }
            TreeMap<Integer, Long> counted = countedCells(l);
            int perCell = cellLength(l);
            int threadCells = Lifecycle.STRIPES * perCell;
            long temporary = held.stream().filter(s -> s.home() < 0).count();
            assertTrue(temporary >= 1, "a temporary scratch");
            Map<Integer, Long> inThreadCells = counted.headMap(threadCells);
            assertEquals(1, inThreadCells.size(), "the thread's and its temporary scratch's calls in one cell: " + counted);
            Map<Integer, Long> expected = new TreeMap<>(Map.of(inThreadCells.keySet().iterator().next(), 1 + temporary));
            for (Scratch s : held) {
                if (s.home() >= 0) {
                    expected.put(threadCells + s.home() * perCell, 1L);
                }
            }
            assertEquals(expected, counted, "homes " + held.stream().map(Scratch::home).toList());
            for (int i = held.size() - 1; i >= 0; i--) {
                l.exit(held.get(i));
            }
            l.exit();
            assertEquals(Map.of(), countedCells(l), "every call left");
            return held.stream().anyMatch(s -> s.home() == 0);
        } finally {
            for (Scratch s : held) {
                s.release();
            }
        }
    }

    /**
     * Starts a thread that makes {@code calls} nested calls on {@code l}, counts {@code entered}
     * down, and leaves them once {@code leave} opens; what it throws goes to {@code failures}.
     */
    private static Thread holdingCalls(Lifecycle l, int calls, CountDownLatch entered, CountDownLatch leave,
                                       Queue<Throwable> failures) {
        return Thread.ofPlatform().start(() -> {
            int in = 0;
            try {
                for (; in < calls; in++) {
                    l.enter();
                }
                entered.countDown();
                leave.await();
            } catch (Throwable t) {
                failures.add(t);
                entered.countDown(); // the test goes on to report it
            } finally {
                for (; in > 0; in--) {
                    l.exit();
                }
            }
        });
    }

    /** The cells of striped {@code l}: its calls in flight by array index, zeros left out. */
    private static TreeMap<Integer, Long> countedCells(Lifecycle l) {
        AtomicLongArray calls = callCells(l);
        TreeMap<Integer, Long> counted = new TreeMap<>();
        for (int i = 0; i < calls.length(); i++) {
            long c = calls.get(i);
            if (c != 0) {
                counted.put(i, c);
            }
        }
        return counted;
    }

    /** The array elements per cell of striped {@code l}: its threads' cells, then one per scratch slot. */
    private static int cellLength(Lifecycle l) {
        int length = callCells(l).length();
        int cells = Lifecycle.STRIPES + Scratch.SLOTS;
        assertEquals(0, length % cells, "whole cells");
        return length / cells;
    }

    /** Striped {@code l}'s cells, read by reflection: how the calls are spread is not observable otherwise. */
    private static AtomicLongArray callCells(Lifecycle l) {
        try {
            Field f = Lifecycle.class.getDeclaredField("calls");
            f.setAccessible(true);
            return (AtomicLongArray) f.get(l);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Runs {@code task} on a new thread of its own: not the common pool, whose one thread on a
     * small machine a task left stuck by an earlier failure would hold.
     */
    private static <T> CompletableFuture<T> onNewThread(Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }

    /** Closes {@code l} counting its destroy in {@code destroyed}. */
    private static Void closeVoid(Lifecycle l, AtomicInteger destroyed) {
        l.close(destroyed::incrementAndGet);
        return null;
    }
}
