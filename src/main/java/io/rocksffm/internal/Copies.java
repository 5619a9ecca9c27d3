package io.rocksffm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Copies of keys and values from raw native addresses: into native segments, with short copies
 * made inline, and into new arrays.
 *
 * <p>{@link MemorySegment#copy} makes a short copy inline only when it can prove the two segments
 * apart, and an entry's bytes reached by raw address come from a segment that spans all of memory,
 * which overlaps every native destination: every copy then went through the JVM's copy stub, whose
 * call and set-up cost about as much as the copy of a small key or value itself (5% of a full scan
 * of 16/64-byte entries, by perf). Copies shorter than {@link #INLINE} bytes into native segments
 * are therefore made here as 8-byte moves (the last one overlapping the one before it when the
 * length is not a multiple of 8) that the JIT compiles into the caller. Longer copies, and copies
 * into heap segments (where the inline moves measured 4-7% slower than the stub on gets into
 * arrays), go to {@link MemorySegment#copy}.
 *
 * <p>The source address must be readable for {@code n} bytes and stay so during the copy (the
 * callers hold what keeps it alive); destinations are bounds-checked and must be writable.
 */
public final class Copies {
    private Copies() {}

    /** Copies shorter than this many bytes are made inline. */
    static final int INLINE = 128;

    /** All of memory: the source of copies from a raw address. */
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    /**
     * Copies {@code n} bytes at native {@code src} into {@code dst} at {@code dstOffset}.
     *
     * @param src       a native address readable for {@code n} bytes
     * @param dst       the destination (native or heap, writable)
     * @param dstOffset where in {@code dst}
     * @param n         the number of bytes
     * @throws IndexOutOfBoundsException if {@code dst} has no room for them there
     * @throws IllegalArgumentException if {@code dst} is read-only
     */
    public static void fromAddress(long src, MemorySegment dst, long dstOffset, long n) {
        requireWritable(dst);
        if (n >= INLINE || !dst.isNative()) {
            MemorySegment.copy(EVERYTHING, src, dst, dstOffset, n);
            return;
        }
        Objects.checkFromIndexSize(dstOffset, n, dst.byteSize());
        if (n >= Long.BYTES) {
            long last = n - Long.BYTES;
            for (long i = 0; i < last; i += Long.BYTES) {
                dst.set(LONG, dstOffset + i, EVERYTHING.get(LONG, src + i));
            }
            dst.set(LONG, dstOffset + last, EVERYTHING.get(LONG, src + last));
        } else {
            for (long i = 0; i < n; i++) {
                dst.set(BYTE, dstOffset + i, EVERYTHING.get(BYTE, src + i));
            }
        }
    }

    /**
     * A new array holding the {@code n} bytes at native {@code src} (copied through the JVM's stub:
     * a fresh array is filled fastest that way).
     *
     * @param src a native address readable for {@code n} bytes
     * @param n   the number of bytes
     * @return the copy
     * @throws UnsupportedOperationException if {@code n} does not fit in an array
     */
    public static byte[] toArray(long src, long n) {
        checkArraySize(n);
        byte[] a = new byte[(int) n];
        MemorySegment.copy(EVERYTHING, BYTE, src, a, 0, (int) n);
        return a;
    }

    /** The largest {@code byte[]} the JVM allocates (a few bytes under {@code Integer.MAX_VALUE}). */
    public static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    /**
     * Refuses a size no {@code byte[]} can hold, before anything is allocated.
     *
     * @param n the number of bytes
     * @throws UnsupportedOperationException if {@code n} exceeds {@link #MAX_ARRAY}
     */
    public static void checkArraySize(long n) {
        if (n > MAX_ARRAY) {
            throw new UnsupportedOperationException("an entry of " + n + " bytes does not fit in a byte[] (at most "
                    + MAX_ARRAY + "): read it into a MemorySegment (get into a segment, getPinned, an iterator's views)");
        }
    }

    /**
     * The bytes of {@code segment} as a new array.
     *
     * @param segment the bytes
     * @return the copy
     * @throws UnsupportedOperationException if they do not fit in an array
     */
    public static byte[] toArray(MemorySegment segment) {
        checkArraySize(segment.byteSize());
        return segment.toArray(BYTE);
    }

    private static void requireWritable(MemorySegment dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("destination segment is read-only");
        }
    }
}
