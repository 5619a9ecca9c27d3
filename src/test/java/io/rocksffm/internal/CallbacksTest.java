package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Callbacks.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The per-thread callback marks: nesting, refusals, and many threads at once (slot collisions). */
class CallbacksTest {
    @Test
    void marksNestAndEnd() {
        assertNull(Callbacks.current());
        int outer = Callbacks.enter(Kind.EVENT_LISTENER);
        try {
            assertEquals(Kind.EVENT_LISTENER, Callbacks.current());
            Callbacks.refuseReentry("RocksDB"); // listeners may call databases
            IllegalStateException waiting = assertThrows(IllegalStateException.class,
                    () -> Callbacks.refuseWaiting("flush"));
            assertTrue(waiting.getMessage().contains("event listener"), waiting.getMessage());
            int inner = Callbacks.enter(Kind.MERGE_OPERATOR);
            try {
                assertEquals(Kind.MERGE_OPERATOR, Callbacks.current());
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> Callbacks.refuseReentry("RocksDB"));
                assertTrue(e.getMessage().contains("merge operator"), e.getMessage());
            } finally {
                Callbacks.exit(inner);
            }
            assertEquals(Kind.EVENT_LISTENER, Callbacks.current());
        } finally {
            Callbacks.exit(outer);
        }
        assertNull(Callbacks.current());
        Callbacks.refuseReentry("RocksDB");
        Callbacks.refuseWaiting("flush");
    }

    @Test
    void manyThreadsInsideAtOnceEachSeeTheirOwnMark() throws Exception {
        int n = 3000; // more than the table's slots: collisions go to the map
        CountDownLatch inside = new CountDownLatch(n);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger wrong = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Kind kind = Kind.values()[i % Kind.values().length];
            threads.add(Thread.ofVirtual().start(() -> {
                if (Callbacks.current() != null) {
                    wrong.incrementAndGet();
                }
                int token = Callbacks.enter(kind);
                try {
                    inside.countDown();
                    release.await();
                    if (Callbacks.current() != kind) {
                        wrong.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    wrong.incrementAndGet();
                } finally {
                    Callbacks.exit(token);
                }
                if (Callbacks.current() != null) {
                    wrong.incrementAndGet();
                }
            }));
        }
        inside.await();
        assertNull(Callbacks.current(), "this thread is in no callback");
        release.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, wrong.get());
    }
}
