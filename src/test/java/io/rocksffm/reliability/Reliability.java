package io.rocksffm.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocksffm.RocksDB;

import java.io.File;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.lang.foreign.SegmentAllocator;

/**
 * Shared switches and helpers of the reliability suite. Only rocksffm's public API is used here.
 *
 * <p>Switches (system properties of the test JVM; pass them with
 * {@code scripts/test.sh -Drocksffm.test.extraArgs="-Drocksffm.heavy=true"}):
 * <ul>
 *   <li>{@code rocksffm.heavy=true}: longer runs, more cycles;</li>
 *   <li>{@code rocksffm.heavy.cycles=N}: the cycles of each leak workload whose cycles read or
 *       write files, with the heavy flag (default 100,000);</li>
 *   <li>{@code rocksffm.heavy.seconds=S}: with the heavy flag, fewer of those cycles where a
 *       measured cycle says they would take more than S seconds (the report says how many);</li>
 *   <li>{@code rocksffm.heavy.only=REGEX}: only the leak workloads whose names match;</li>
 *   <li>{@code rocksffm.seed=N}: the seed of the randomised tests (else a fixed one).</li>
 * </ul>
 */
public final class Reliability {
    private Reliability() {}

    /** Whether the long-running variants are asked for. */
    static final boolean HEAVY = Boolean.getBoolean("rocksffm.heavy");

    /**
     * The cycles the heavy variant runs of each create/use/close workload (issue 16: 100,000);
     * -Drocksffm.heavy.cycles=N changes it.
     */
    static final int HEAVY_CYCLES = Integer.getInteger("rocksffm.heavy.cycles", 100_000);

    /** {@code ci} normally, {@code heavy} with -Drocksffm.heavy=true. */
    static int scale(int ci, int heavy) {
        return HEAVY ? heavy : ci;
    }

    /** {@code ci} normally, {@code heavy} with -Drocksffm.heavy=true. */
    static long scale(long ci, long heavy) {
        return HEAVY ? heavy : ci;
    }

    /** The seed given with -Drocksffm.seed, else {@code fixed}. */
    static long seed(long fixed) {
        String s = System.getProperty("rocksffm.seed");
        return s == null || s.isBlank() ? fixed : Long.parseLong(s.trim());
    }

    /** Prints one result line, prefixed with "[reliability]" and the engine. */
    static void report(String format, Object... args) {
        System.out.println("[reliability] (" + RocksDB.engine().source() + ") " + String.format(format, args));
        System.out.flush();
    }

    /** An empty model ordered like RocksDB's default comparator (unsigned bytewise). */
    static TreeMap<byte[], byte[]> model() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    static String hex(byte[] b) {
        if (b == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder(b.length * 2);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
        }
        return sb.toString();
    }

    /** Waits up to {@code millis} for {@code t}; fails the test (with its stack) if it is still running. */
    static void join(Thread t, long millis) throws InterruptedException {
        t.join(millis);
        if (t.isAlive()) {
            StringBuilder sb = new StringBuilder("thread " + t.getName() + " still running after " + millis + " ms (hang):");
            for (StackTraceElement e : t.getStackTrace()) {
                sb.append("\n\tat ").append(e);
            }
            throw new AssertionError(sb.toString());
        }
    }

    // ---- memory measurement ---------------------------------------------------------------------

    /** This process's resident set size in bytes (VmRSS of /proc/self/status). */
    static long rssBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    return Long.parseLong(f[0]) * 1024;
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot read /proc/self/status", e);
        }
        throw new AssertionError("no VmRSS in /proc/self/status");
    }

    private static final StructLayout MALLINFO2 = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("arena"), ValueLayout.JAVA_LONG.withName("ordblks"),
            ValueLayout.JAVA_LONG.withName("smblks"), ValueLayout.JAVA_LONG.withName("hblks"),
            ValueLayout.JAVA_LONG.withName("hblkhd"), ValueLayout.JAVA_LONG.withName("usmblks"),
            ValueLayout.JAVA_LONG.withName("fsmblks"), ValueLayout.JAVA_LONG.withName("uordblks"),
            ValueLayout.JAVA_LONG.withName("fordblks"), ValueLayout.JAVA_LONG.withName("keepcost"));
    private static final MethodHandle MALLINFO2_HANDLE = mallinfo2();

    @SuppressWarnings("restricted") // a downcall to libc's mallinfo2; the test module has native access
    private static MethodHandle mallinfo2() {
        return Linker.nativeLinker().defaultLookup().find("mallinfo2")
                .map(a -> Linker.nativeLinker().downcallHandle(a, FunctionDescriptor.of(MALLINFO2)))
                .orElse(null);
    }

    /**
     * Bytes glibc's malloc has handed out and not had back (mallinfo2: uordblks + hblkhd), over
     * all arenas; -1 where mallinfo2 is missing (not glibc). Both engines allocate with glibc's
     * malloc here (neither links jemalloc as its allocator), and so do the JDK's arenas, so this
     * sees every native leak without the noise of the Java heap that RSS carries.
     */
    public static long mallocInUse() {
        if (MALLINFO2_HANDLE == null) {
            return -1;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = (MemorySegment) MALLINFO2_HANDLE.invokeExact((SegmentAllocator) arena);
            return info.get(ValueLayout.JAVA_LONG, 7 * 8) + info.get(ValueLayout.JAVA_LONG, 4 * 8);
        } catch (Throwable t) {
            throw new AssertionError("mallinfo2 failed", t);
        }
    }

    static String mib(long bytes) {
        return String.format("%.1f MiB", bytes / (1024.0 * 1024.0));
    }

    // ---- child JVMs -----------------------------------------------------------------------------

    /**
     * A command running {@code main} in a new JVM with the same java binary and the same classes
     * (module path and class path of this JVM, both put on the child's class path, so the child
     * also sees rocksdbjni in the rocksdbjni execution and not in the system one).
     */
    static List<String> javaCommand(Class<?> main, String... args) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cp = new ArrayList<>();
        for (String prop : new String[] {"jdk.module.path", "java.class.path"}) {
            String v = System.getProperty(prop);
            if (v != null) {
                for (String e : v.split(File.pathSeparator)) {
                    if (!e.isBlank() && !cp.contains(e)) {
                        cp.add(e);
                    }
                }
            }
        }
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", String.join(File.pathSeparator, cp),
                "--enable-native-access=ALL-UNNAMED", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        for (String prop : new String[] {"rocksffm.library.path", "rocksffm.test.expectedEngine"}) {
            Optional.ofNullable(System.getProperty(prop)).ifPresent(v -> cmd.add("-D" + prop + "=" + v));
        }
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        return cmd;
    }

    /**
     * Runs {@code main} in a child JVM ({@link #javaCommand}) and returns what it printed (standard
     * output and error, read as it comes), after checking it ended within 120 seconds (a hung child
     * is killed) and exited 0: a crash or a hang fails the calling test, not the suite.
     */
    static String runChild(Class<?> main, String... args) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(javaCommand(main, args)).redirectErrorStream(true).start();
        byte[][] out = new byte[1][];
        Thread reader = Thread.ofPlatform().start(() -> {
            try {
                out[0] = p.getInputStream().readAllBytes();
            } catch (IOException e) {
                out[0] = new byte[0];
            }
        });
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        reader.join(10_000);
        String text = out[0] == null ? "" : new String(out[0], StandardCharsets.UTF_8);
        assertTrue(ended, "child JVM hung: " + String.join(" ", args) + ": " + text);
        assertEquals(0, p.exitValue(), "child JVM died: " + String.join(" ", args) + ": " + text);
        return text;
    }

    /** {@link #runChild} of {@code main} with {@code scenario} and {@code dir}, which must print {@code last}. */
    static String childOutput(Class<?> main, String scenario, Path dir, String last) throws Exception {
        String text = runChild(main, scenario, dir.toString());
        assertTrue(text.contains(last), text);
        return text;
    }

    /** Deletes a directory tree (best effort). */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
