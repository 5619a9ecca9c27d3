package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

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

    @Test
    void aConfinedObjectRefusesOtherThreads() throws Exception {
        Lifecycle c = Lifecycle.confined("W");
        c.check();
        CompletableFuture<Throwable> other = CompletableFuture.supplyAsync(() -> {
            try {
                c.check();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertInstanceOf(WrongThreadException.class, other.get());
        Throwable close = CompletableFuture.supplyAsync(() -> {
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
        assertNull(CompletableFuture.supplyAsync(() -> {
            c.close(() -> fail("closed once"));
            return null;
        }).get(), "closing a closed object is harmless on any thread");
    }

    @Test
    void closeWaitsForCallsInFlight() throws InterruptedException, ExecutionException {
        Lifecycle l = new Lifecycle("S");
        l.enter();
        AtomicInteger destroyed = new AtomicInteger();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(() -> l.close(destroyed::incrementAndGet));
        Thread.sleep(50);
        assertEquals(0, destroyed.get(), "destroy waits for the call in flight");
        assertThrows(IllegalStateException.class, l::enter, "no new calls once closing");
        l.exit();
        closing.get();
        assertEquals(1, destroyed.get());
    }
}
