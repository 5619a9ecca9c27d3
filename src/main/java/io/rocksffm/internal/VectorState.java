package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.io.BufferedReader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Leaves the x86-64 vector registers clean after Java code of rocksffm's that allocates, before
 * the engine runs again.
 *
 * <p><b>Why.</b> On a CPU with AVX-512, HotSpot's compiled code evidently leaves the upper halves
 * of the vector registers dirty after allocating a small object (its zeroing uses wide vector
 * stores), and its downcall stub clears them only after the native call, not before. RocksDB is
 * built for SSE: the first SSE instruction it runs with the upper halves dirty pays an AVX-SSE
 * transition. Measured on this project's machine (a Xeon with AVX-512, JDK 25): a pinned read
 * that allocates its {@code PinnedValue} ran at 1.02M reads/s, the same C calls with no Java
 * allocation at 1.44M, and the one with a single {@code new long[4]} between them at 1.11M; the
 * cost sits at the first SSE instruction of the block cache's release ({@code LRU_Insert}: 14% of
 * the samples), and it vanishes with {@code -XX:MaxVectorSize=16} or {@code -XX:UseAVX=2}.
 *
 * <p><b>How.</b> A downcall that is not critical clears the upper halves on its way back to Java
 * (the thread-state transition does). {@link #clear()} is such a downcall of a function that does
 * nothing ({@code rocksdb_free(NULL)}, which runs no vector instruction): about 10 ns. rocksffm
 * calls it only where a benchmark shows the gain: a {@code PinnedValue} clears after the objects
 * it allocates and again before its close releases the pin (a critical downcall, so nothing else
 * clears before it runs, and the caller may have allocated since the read). A pinned read of
 * 64 B values went from 0.78 to 1.0 of rocksdbjni's copying read; with an allocation of the
 * caller's between read and close, from 1.02M to 1.32M reads/s. No other benchmark row changes
 * under {@code -XX:MaxVectorSize=16} (iterators, multi-gets, transactions, puts, copying gets), so
 * their paths are left alone. Code outside rocksffm that allocates between two calls leaves the
 * same state; the JVM options above avoid it for a whole process.
 *
 * <p>On other architectures, and on x86-64 CPUs without AVX-512, {@link #clear()} does nothing.
 */
public final class VectorState {
    private VectorState() {}

    /** Whether the JVM runs on x86-64, where the upper halves exist. */
    static final boolean X86_64 = switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
        case "amd64", "x86_64" -> true;
        default -> false;
    };

    /**
     * Whether {@link #clear()} clears: on x86-64 with AVX-512 (the flags of Linux's
     * {@code /proc/cpuinfo}; where they cannot be read, assumed, at about 10 ns a clear).
     */
    static final boolean ACTIVE = X86_64 && avx512(Path.of("/proc/cpuinfo"));

    /** Clears the upper halves of the vector registers (x86-64 with AVX-512), with one downcall that does nothing. */
    public static void clear() {
        if (ACTIVE) {
            RocksDBC.rocksdb_free(MemorySegment.NULL);
        }
    }

    /** Whether the first {@code flags} line of {@code cpuinfo} lists AVX-512; true when it cannot tell. */
    static boolean avx512(Path cpuinfo) {
        try (BufferedReader r = Files.newBufferedReader(cpuinfo, StandardCharsets.ISO_8859_1)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("flags")) {
                    return listsAvx512(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: assume
        }
        return true;
    }

    /** Whether a {@code flags : ...} line of {@code /proc/cpuinfo} names {@code avx512f}. */
    static boolean listsAvx512(String flagsLine) {
        for (String flag : flagsLine.substring(flagsLine.indexOf(':') + 1).trim().split("\\s+")) {
            if (flag.equals("avx512f")) {
                return true;
            }
        }
        return false;
    }
}
