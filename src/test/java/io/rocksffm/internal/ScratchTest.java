package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;
import io.rocksffm.reliability.Reliability;

/** The scratch pool: ownership checks, reuse, bounded memory, exclusive use under concurrency. */
class ScratchTest {

    @Test
    void releasingTwiceOrOnAnotherThreadIsRefused() throws Exception {
        Scratch s = Scratch.acquire();
        AtomicReference<Throwable> other = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                s.release();
            } catch (Throwable e) {
                other.set(e);
            }
        });
        t.join();
        assertInstanceOf(IllegalStateException.class, other.get(), "release on a thread that does not hold it");
        s.release();
        assertThrows(IllegalStateException.class, s::release, "second release");
    }

    /** The call token: release exits what the call entered before the scratch goes back. */
    @Test
    void releaseExitsTheEnteredLifecycles() throws Exception {
        Lifecycle parent = new Lifecycle("P");
        Lifecycle child = Lifecycle.child("C", false, parent);
        Lifecycle other = new Lifecycle("O");
        int pooled = Scratch.pooled();
        Scratch s = Scratch.enterFirst(parent).enter(child).enter(other);
        assertEquals(pooled - (s.home() >= 0 ? 1 : 0), Scratch.pooled(), "held while the call runs");
        // a close on another thread waits for the call in flight
        CountDownLatch destroyed = new CountDownLatch(1);
        Thread closer = Thread.ofPlatform().start(() -> other.close(destroyed::countDown));
        assertFalse(destroyed.await(200, TimeUnit.MILLISECONDS), "destroyed during a call");
        s.release();
        assertTrue(destroyed.await(10, TimeUnit.SECONDS), "the release let the close through");
        closer.join();
        child.close(() -> { });
        parent.close(() -> { });
        assertEquals(pooled, Scratch.pooled(), "the scratch went back");
    }

    /** A failing enter leaves the call's earlier enters to the release; enterFirst releases by itself. */
    @Test
    void aRefusedEnterIsUndoneByTheRelease() {
        Lifecycle open = new Lifecycle("Open");
        Lifecycle closed = new Lifecycle("Closed");
        closed.close(() -> { });
        int pooled = Scratch.pooled();
        assertThrows(IllegalStateException.class, () -> Scratch.enterFirst(closed));
        assertEquals(pooled, Scratch.pooled(), "enterFirst released the scratch it took");
        Scratch s = Scratch.enterFirst(open);
        assertThrows(IllegalStateException.class, () -> s.enter(closed));
        s.release();
        open.close(() -> { }); // would wait forever if the release had not exited it
        assertTrue(open.isClosed());
        assertEquals(pooled, Scratch.pooled());
    }

    /** A call entering more objects than the usual four (a read of many families) grows its record. */
    @Test
    void aCallMayEnterManyObjects() {
        List<Lifecycle> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add(new Lifecycle("L" + i));
        }
        Scratch s = Scratch.acquire();
        for (Lifecycle l : many) {
            s.enter(l);
        }
        s.release();
        for (Lifecycle l : many) {
            l.close(() -> { }); // each would wait forever with a call still counted
            assertTrue(l.isClosed());
        }
    }

    @Test
    void aPlatformThreadGetsItsScratchBack() {
        Scratch first = Scratch.acquire();
        first.release();
        for (int i = 0; i < 100; i++) {
            Scratch again = Scratch.acquire();
            try {
                assertSame(first, again, "acquire " + i);
            } finally {
                again.release();
            }
        }
    }

    @Test
    void aPooledScratchHasOneSlotAndGoesBackThere() {
        // this thread holds every scratch within its probe window, then one more: a temporary
        List<Scratch> held = new ArrayList<>();
        try {
            for (int i = 0; i <= Scratch.PROBES; i++) {
                held.add(Scratch.acquire());
            }
            long homes = held.stream().mapToInt(Scratch::home).filter(h -> h >= 0).distinct().count();
            assertEquals(Scratch.PROBES, homes, "distinct pooled homes: " + held.stream().map(Scratch::home).toList());
            assertEquals(-1, held.get(Scratch.PROBES).home(), "the one beyond the window is temporary");
        } finally {
            held.forEach(Scratch::release);
        }
        assertEquals(Scratch.SLOTS, Scratch.pooled(), "every pooled scratch is back, the temporary is not");
        for (Scratch s : held.subList(0, Scratch.PROBES)) {
            Scratch again = Scratch.acquire();
            try {
                assertSame(held.get(0), again, "the first slot of the window again");
                assertTrue(s.home() >= 0 && s.home() < Scratch.SLOTS);
            } finally {
                again.release();
            }
        }
    }

    @Test
    void buffersGrowAndLargeOnesAreFreedOnRelease() {
        Scratch s = Scratch.acquire();
        MemorySegment big;
        try {
            MemorySegment small = s.buffer(Scratch.FIRST, 10);
            assertTrue(small.byteSize() >= 10 && small.address() != 0);
            big = s.buffer(Scratch.MULTI_BYTES, Scratch.KEEP_BYTES + 1);
            assertTrue(big.byteSize() > Scratch.KEEP_BYTES);
            big.fill((byte) 1); // writable over its whole length
            assertSame(small, s.buffer(Scratch.FIRST, small.byteSize()), "no growth when it fits");
            MemorySegment heap = MemorySegment.ofArray(new byte[] {1, 2, 3});
            MemorySegment copy = s.first(heap);
            assertTrue(copy.isNative());
            assertEquals(3, copy.get(ValueLayout.JAVA_BYTE, 2));
            MemorySegment nativeInput = s.buffer(Scratch.SECOND, 4);
            assertSame(nativeInput, s.second(nativeInput), "native inputs are passed as they are");
        } finally {
            s.release();
        }
        Scratch again = Scratch.acquire(); // this thread's pooled scratch: the same one
        try {
            assertSame(s, again);
            assertTrue(again.buffer(Scratch.MULTI_BYTES, 0).byteSize() <= Scratch.KEEP_BYTES,
                    "a buffer above KEEP_BYTES is not kept in the pool");
        } finally {
            again.release();
        }
    }

    @Test
    void anErrorLeftInTheSlotIsFreedOnRelease() {
        Scratch s = Scratch.acquire();
        MemorySegment message = Native.mallocCopy(MemorySegment.ofArray("left behind\0".getBytes()));
        s.errptr.set(ValueLayout.ADDRESS, 0, message); // rocksdb_free is free(): a malloc'd message will do
        s.release();
        Scratch again = Scratch.acquire();
        try {
            assertSame(s, again);
            assertEquals(0, again.errptr.get(ValueLayout.JAVA_LONG, 0), "the slot is NULL again");
        } finally {
            again.release();
        }
    }

    @Test
    void manyThreadsNeverShareAScratchAndThePoolStaysBounded() throws Exception {
        int threads = 4 * Scratch.SLOTS;
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long mark = 0x5C7A7C4000000000L | t;
            Thread.Builder builder = t % 2 == 0 ? Thread.ofVirtual() : Thread.ofPlatform();
            started.add(builder.start(() -> {
                try {
                    start.await();
                    for (int i = 0; i < 2_000; i++) {
                        Scratch s = Scratch.acquire();
                        try {
                            s.size.set(ValueLayout.JAVA_LONG, 0, mark);
                            MemorySegment b = s.buffer(Scratch.FIRST, 8 + (i % 3) * 200);
                            b.set(ValueLayout.JAVA_LONG, 0, mark);
                            Thread.yield(); // let others run while this one holds it
                            if (s.size.get(ValueLayout.JAVA_LONG, 0) != mark || b.get(ValueLayout.JAVA_LONG, 0) != mark) {
                                failures.add("a scratch was used by two threads at once");
                            }
                        } finally {
                            s.release();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e.toString());
                }
            }));
        }
        start.countDown();
        for (Thread t : started) {
            t.join();
        }
        assertEquals(List.of(), List.copyOf(failures));
        assertTrue(Scratch.pooled() <= Scratch.SLOTS, "pooled: " + Scratch.pooled());
        assertTrue(Scratch.pooled() > 0, "released scratches went back to the pool");
    }

    /**
     * Virtual threads, one after the other, find the scratch their processor's last call left:
     * at most one per processor (with slots by thread id, each new thread lands on a random slot).
     */
    @Test
    void virtualThreadsOneAfterTheOtherFindTheirProcessorsScratch() throws Exception {
        Assumptions.assumeTrue(Scratch.Cpu.AVAILABLE, "no sched_getcpu here");
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        Set<Integer> processors = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 2_000; i++) {
            Thread.ofVirtual().start(() -> {
                processors.add(Scratch.Cpu.current());
                Scratch s = Scratch.acquire();
                seen.add(System.identityHashCode(s));
                s.release();
                processors.add(Scratch.Cpu.current());
            }).join();
        }
        assertTrue(seen.size() <= processors.size(), seen.size() + " scratches for " + processors.size() + " processors");
    }

    @Test
    void virtualThreadsReuseThePool() throws Exception {
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 10_000; i++) {
                executor.execute(() -> Scratch.acquire().release());
            }
        }
        long created = Scratch.created();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 10_000; i++) {
                executor.execute(() -> Scratch.acquire().release());
            }
        }
        assertTrue(Scratch.created() - created < 1_000,
                "10,000 virtual threads made " + (Scratch.created() - created) + " scratches: the pool is not reused");
    }

    /** Bytes malloc holds after {@code rounds} runs of {@code work}, less those it held before (glibc only). */
    private static long mallocGrowth(int rounds, Runnable work) {
        work.run(); // the first round may leave buffers that later rounds reuse
        long before = Reliability.mallocInUse();
        for (int i = 0; i < rounds; i++) {
            work.run();
        }
        return Reliability.mallocInUse() - before;
    }

    /** A bound far below what a missed free of the workloads below would leak, far above noise. */
    private static final long LEAK_BOUND = 16L << 20;

    /**
     * Every buffer a scratch lets go of is freed: the smaller one a growing buffer replaces, one
     * over {@link Scratch#KEEP_BYTES} at release, and everything of a temporary scratch (its
     * buffers and its block). Each workload below would leak hundreds of MiB with one free missing.
     */
    @Test
    void everyBufferAndBlockAScratchLetsGoOfIsFreed() {
        Assumptions.assumeTrue(Reliability.mallocInUse() >= 0, "mallinfo2 is glibc's");
        long grown = mallocGrowth(20, () -> {
            Scratch s = Scratch.acquire();
            try {
                for (long n = 512; n <= (8 << 20); n <<= 1) {
                    s.buffer(Scratch.SECOND, n).set(ValueLayout.JAVA_BYTE, n - 1, (byte) 1);
                }
            } finally {
                s.release();
            }
        });
        assertTrue(grown < LEAK_BOUND, "buffers replaced while growing: malloc grew by " + grown);
        long released = mallocGrowth(100, () -> {
            Scratch s = Scratch.acquire();
            try {
                s.buffer(Scratch.MULTI_BYTES, 4 << 20).fill((byte) 1);
            } finally {
                s.release();
            }
        });
        assertTrue(released < LEAK_BOUND, "large buffers at release: malloc grew by " + released);
        // a buffer a release keeps (not over KEEP_BYTES), which only the temporary's destroy frees
        long temporary = mallocGrowth(1_000, () -> withTemporary(t -> t.buffer(Scratch.FIRST, Scratch.KEEP_BYTES).fill((byte) 1)));
        assertTrue(temporary < LEAK_BOUND, "temporary scratches' buffers: malloc grew by " + temporary);
        long blocks = mallocGrowth(200_000, () -> withTemporary(t -> { }));
        assertTrue(blocks < LEAK_BOUND, "temporary scratches' blocks: malloc grew by " + blocks);
    }

    /** Runs {@code use} on a temporary scratch (this thread holding every pooled one in its window), then releases it. */
    private static void withTemporary(Consumer<Scratch> use) {
        List<Scratch> held = new ArrayList<>();
        try {
            Scratch t;
            while ((t = Scratch.acquire()).home() >= 0) {
                held.add(t);
            }
            held.add(t);
            use.accept(t);
        } finally {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).release();
            }
        }
    }

    /**
     * A buffer of {@link Scratch#KEEP_BYTES} stays with its scratch through a release that frees a
     * larger one; a temporary scratch counts as made.
     */
    @Test
    void aBufferOfKeepBytesIsKeptAndTemporariesAreCounted() {
        Scratch s = Scratch.acquire();
        MemorySegment kept;
        try {
            kept = s.buffer(Scratch.FIRST, Scratch.KEEP_BYTES);
            s.buffer(Scratch.MULTI_BYTES, Scratch.KEEP_BYTES + 1);
        } finally {
            s.release();
        }
        Scratch again = Scratch.acquire();
        try {
            assertSame(s, again);
            assertSame(kept, again.buffer(Scratch.FIRST, Scratch.KEEP_BYTES), "the buffer was kept");
        } finally {
            again.release();
        }
        long created = Scratch.created();
        withTemporary(t -> assertEquals(-1, t.home()));
        assertEquals(created + 1, Scratch.created(), "one temporary scratch made");
    }

    /** A native input longer than RocksDB's limit for a key or value is refused before it is read. */
    @Test
    void aNativeInputOverTheLimitIsRefused() {
        MemorySegment huge = MemorySegment.NULL.reinterpret(BatchFormat.MAX_SLICE + 1);
        try (Scratch s = Scratch.acquire()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.first(huge));
            assertTrue(e.getMessage().contains((BatchFormat.MAX_SLICE + 1) + " bytes exceeds"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> s.second(huge));
            MemorySegment largest = MemorySegment.NULL.reinterpret(BatchFormat.MAX_SLICE);
            assertSame(largest, s.first(largest), "the largest allowed is passed as it is, unread");
        }
    }

    /** A refused first enter gives the scratch back: the thread gets the same one next. */
    @Test
    void aRefusedFirstEnterGivesTheScratchBack() {
        Lifecycle closed = new Lifecycle("Closed");
        closed.close(() -> { });
        Scratch first = Scratch.acquire();
        first.release();
        assertTrue(first.home() >= 0);
        assertThrows(IllegalStateException.class, () -> Scratch.enterFirst(closed));
        Scratch again = Scratch.acquire();
        try {
            assertSame(first, again, "the scratch enterFirst took is back in its slot");
        } finally {
            again.release();
        }
    }
}
