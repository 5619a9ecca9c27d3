package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The vector-state clear: active exactly on x86-64, and a harmless call from any thread. What it
 * buys is measured by the benchmarks (see {@link VectorState}), not observable from Java.
 */
class VectorStateTest {

    @Test
    void itIsActiveExactlyOnX8664() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        assertEquals(arch.equals("amd64") || arch.equals("x86_64"), VectorState.X86_64, arch);
    }

    @Test
    void clearingFromManyThreadsAtOnceChangesNothing() throws Exception {
        Native.engine();
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
             ExecutorService platform = Executors.newFixedThreadPool(4)) {
            List<Future<?>> done = new ArrayList<>();
            for (ExecutorService pool : List.of(virtual, platform)) {
                for (int t = 0; t < 8; t++) {
                    done.add(pool.submit(() -> {
                        for (int i = 0; i < 10_000; i++) {
                            VectorState.clear();
                        }
                        // the C heap is intact: a malloc and free after the clears still work
                        Native.free(Native.malloc(64));
                    }));
                }
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }
}
