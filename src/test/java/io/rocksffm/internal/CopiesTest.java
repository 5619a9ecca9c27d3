package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The inline short copies and the long ones, into native and heap segments, at every length around the switch. */
class CopiesTest {
    private static final int MAX = Copies.INLINE * 2 + 9;

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void fromAddressIntoSegmentsCopiesExactlyTheBytes() {
        try (Arena arena = Arena.ofConfined()) {
            byte[] source = random(MAX + 16, 1);
            MemorySegment src = arena.allocate(source.length);
            MemorySegment.copy(source, 0, src, ValueLayout.JAVA_BYTE, 0, source.length);
            for (int n = 0; n <= MAX; n++) {
                for (int srcOffset : new int[] {0, 1, 7}) {
                    for (int dstOffset : new int[] {0, 3}) {
                        // native and heap destinations, with guard bytes on both sides
                        for (MemorySegment dst : new MemorySegment[] {arena.allocate(n + 8), MemorySegment.ofArray(new byte[n + 8])}) {
                            dst.fill((byte) 0x5A);
                            Copies.fromAddress(src.address() + srcOffset, dst, dstOffset, n);
                            byte[] expected = new byte[n + 8];
                            Arrays.fill(expected, (byte) 0x5A);
                            System.arraycopy(source, srcOffset, expected, dstOffset, n);
                            assertArrayEquals(expected, dst.toArray(ValueLayout.JAVA_BYTE), "n=" + n + " src+" + srcOffset + " dst+" + dstOffset);
                        }
                    }
                }
            }
        }
    }

    @Test
    void toArrayCopiesExactlyTheBytes() {
        try (Arena arena = Arena.ofConfined()) {
            for (int n : new int[] {0, 1, 7, 8, 64, Copies.INLINE, MAX}) {
                byte[] source = random(n, n);
                MemorySegment src = arena.allocate(Math.max(1, n));
                MemorySegment.copy(source, 0, src, ValueLayout.JAVA_BYTE, 0, n);
                assertArrayEquals(source, Copies.toArray(src.address(), n), "n=" + n);
            }
            assertThrows(UnsupportedOperationException.class, () -> Copies.toArray(0, Integer.MAX_VALUE)); // not the closed-object type
        }
    }

    @Test
    void destinationsAreCheckedOnBothPaths() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(MAX);
            for (int n : new int[] {5, 16, Copies.INLINE - 1, Copies.INLINE, MAX}) {
                MemorySegment small = arena.allocate(n - 1);
                assertThrows(IndexOutOfBoundsException.class, () -> Copies.fromAddress(src.address(), small, 0, n), "n=" + n);
                MemorySegment exact = arena.allocate(n);
                assertThrows(IndexOutOfBoundsException.class, () -> Copies.fromAddress(src.address(), exact, 1, n), "n=" + n);
                assertThrows(IllegalArgumentException.class,
                        () -> Copies.fromAddress(src.address(), exact.asReadOnly(), 0, n), "n=" + n);
                MemorySegment heap = MemorySegment.ofArray(new byte[n - 1]);
                assertThrows(IndexOutOfBoundsException.class, () -> Copies.fromAddress(src.address(), heap, 0, n), "n=" + n);
            }
        }
    }
}
