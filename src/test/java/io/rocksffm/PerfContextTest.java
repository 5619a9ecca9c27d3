package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerfContextTest {
    @TempDir
    Path dir;

    @AfterEach
    void levelOff() {
        PerfContext.setPerfLevel(PerfLevel.DISABLE);
    }

    @Test
    void countersMoveAsTheGetsImply() {
        try (RocksDB db = open(dir)) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes("k" + i), bytes("v" + i));
            }
            // --- readme:perfContext begin
            // on a platform thread: the level and the counters are this OS thread's
            PerfContext.setPerfLevel(PerfLevel.ENABLE_COUNT);
            try (PerfContext perf = PerfContext.create()) {
                perf.reset();
                for (int i = 0; i < 10; i++) {
                    db.get(bytes("k" + i));
                }
                long fromMemtable = perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT); // 10
                long comparisons = perf.metric(PerfMetric.USER_KEY_COMPARISON_COUNT);
                String report = perf.report(true); // "user_key_comparison_count = ..., ..."
                // --- readme:perfContext end
                // one memtable (nothing flushed): each get looks it up once and compares keys there
                assertEquals(10, fromMemtable);
                assertTrue(comparisons >= 10, "comparisons " + comparisons);
                assertTrue(report.contains("get_from_memtable_count = 10"), report);
                assertTrue(report.contains("user_key_comparison_count = " + comparisons), report);
                assertFalse(report.contains("block_read_count"), report); // zero, excluded
                assertTrue(perf.report(false).contains("block_read_count = 0"));

                // more gets, more counts; reset starts over
                db.get(bytes("k50"));
                assertEquals(11, perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT));
                perf.reset();
                assertEquals(0, perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT));
                assertEquals(0, perf.metric(PerfMetric.USER_KEY_COMPARISON_COUNT));

                // from table files: blocks are read (or found in the block cache)
                db.flush(true);
                perf.reset();
                assertArrayEquals(bytes("v7"), db.get(bytes("k7")));
                assertTrue(perf.metric(PerfMetric.BLOCK_READ_COUNT) + perf.metric(PerfMetric.BLOCK_CACHE_HIT_COUNT) > 0,
                        perf.report(true));

                // level off: nothing counted
                PerfContext.setPerfLevel(PerfLevel.DISABLE);
                perf.reset();
                db.get(bytes("k8"));
                assertEquals(0, perf.metric(PerfMetric.USER_KEY_COMPARISON_COUNT));
                assertEquals(0, perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT));
            }
        }
    }

    @Test
    void countersArePerThread() throws Exception {
        try (RocksDB db = open(dir)) {
            db.put(bytes("a"), bytes("1"));
            PerfContext.setPerfLevel(PerfLevel.ENABLE_COUNT);
            try (PerfContext perf = PerfContext.create()) {
                perf.reset();
                // another platform thread's gets (at its own level, off) do not count here
                Thread t = Thread.ofPlatform().start(() -> db.get(bytes("a")));
                t.join();
                assertEquals(0, perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT));
                // and the context is confined to this thread
                AtomicReference<Throwable> other = new AtomicReference<>();
                Thread u = Thread.ofPlatform().start(() -> {
                    try {
                        perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT);
                    } catch (Throwable e) {
                        other.set(e);
                    }
                });
                u.join();
                assertInstanceOf(WrongThreadException.class, other.get());
                db.get(bytes("a"));
                assertEquals(1, perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT));
            }
        }
    }

    @Test
    void virtualThreadsAreRefused() throws Exception {
        CompletableFuture<Throwable[]> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            Throwable[] out = new Throwable[2];
            try {
                PerfContext.setPerfLevel(PerfLevel.ENABLE_COUNT);
            } catch (Throwable e) {
                out[0] = e;
            }
            try {
                PerfContext.create().close();
            } catch (Throwable e) {
                out[1] = e;
            }
            f.complete(out);
        });
        Throwable[] out;
        try {
            out = f.get();
        } catch (ExecutionException e) {
            throw e;
        }
        assertInstanceOf(IllegalStateException.class, out[0]);
        assertTrue(out[0].getMessage().contains("virtual thread"), out[0].getMessage());
        assertInstanceOf(IllegalStateException.class, out[1]);
    }

    @Test
    void closedAndBadInputs() {
        assertThrows(NullPointerException.class, () -> PerfContext.setPerfLevel(null));
        PerfContext perf = PerfContext.create();
        assertThrows(NullPointerException.class, () -> perf.metric(null));
        perf.close();
        perf.close();
        assertTrue(perf.isClosed());
        assertThrows(IllegalStateException.class, perf::reset);
        assertThrows(IllegalStateException.class, () -> perf.metric(PerfMetric.USER_KEY_COMPARISON_COUNT));
        assertThrows(IllegalStateException.class, () -> perf.report(true));
    }

    @Test
    void metricsTheEngineLacksAreRefused() {
        try (PerfContext perf = PerfContext.create()) {
            for (PerfMetric m : PerfMetric.values()) {
                if (m.isAvailable()) {
                    assertTrue(perf.metric(m) >= 0, m.name());
                } else {
                    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> perf.metric(m));
                    assertTrue(e.getMessage().contains(m.name()) && e.getMessage().contains(m.since()), e.getMessage());
                }
            }
            String version = RocksDB.engine().version();
            if (version != null && version.startsWith("7.")) {
                assertFalse(PerfMetric.BLOCK_READ_CPU_TIME.isAvailable());
            }
            if (version != null && version.startsWith("11.8")) {
                for (PerfMetric m : PerfMetric.values()) {
                    assertTrue(m.isAvailable(), m.name());
                }
            }
        }
    }
}
