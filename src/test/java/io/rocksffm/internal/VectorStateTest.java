package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector-state clear: active exactly on x86-64, and a harmless call from any thread. What it
 * buys is measured by the benchmarks (see {@link VectorState}), not observable from Java.
 */
class VectorStateTest {

    @Test
    void itIsActiveOnlyOnX8664() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        assertEquals(arch.equals("amd64") || arch.equals("x86_64"), VectorState.X86_64, arch);
        assertTrue(VectorState.X86_64 || !VectorState.ACTIVE);
    }

    @Test
    void avx512IsReadFromTheCpuFlags(@TempDir Path dir) throws Exception {
        assertTrue(VectorState.listsAvx512("flags\t\t: fpu sse2 avx2 avx512f avx512dq avx512bw"));
        assertTrue(VectorState.listsAvx512("flags : avx512f"));
        assertFalse(VectorState.listsAvx512("flags\t\t: fpu sse2 avx2 fma"));
        assertFalse(VectorState.listsAvx512("flags\t\t: avx512_vnni avx512fp16x"), "only avx512f itself counts");
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, "processor\t: 0\nmodel name\t: X\nflags\t\t: fpu avx2\n\nprocessor\t: 1\nflags\t\t: avx512f\n");
        assertFalse(VectorState.avx512(cpuinfo), "the first processor's flags decide");
        Files.writeString(cpuinfo, "processor\t: 0\nflags\t\t: fpu avx512f avx2\n");
        assertTrue(VectorState.avx512(cpuinfo));
        assertTrue(VectorState.avx512(dir.resolve("absent")), "unknown: assumed");
        // this machine: as its own /proc/cpuinfo says, read another way
        Path real = Path.of("/proc/cpuinfo");
        if (VectorState.X86_64 && Files.isReadable(real)) {
            boolean listed = Files.readAllLines(real).stream().filter(l -> l.startsWith("flags")).findFirst()
                    .map(l -> l.matches(".*[ \\t]avx512f([ \\t].*)?")).orElse(true);
            assertEquals(listed, VectorState.ACTIVE);
        }
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
