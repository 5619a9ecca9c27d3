package io.rocksffm.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * An iterator's prefetch run: consecutive entries copied from the native iterator, in one tight
 * loop, into one reused native buffer, so that {@code next()}, {@code key()} and {@code value()}
 * on them are reads of Java-visible memory instead of downcalls.
 *
 * <p>Each entry is stored as {@code int keyLength, int valueLength, key bytes, value bytes}.
 *
 * <p><b>When runs are filled</b> is {@link PrefetchPolicy}'s decision: only where they are
 * measured to pay. The first run after a seek holds at most {@value #FIRST_RUN} bytes and each next
 * one twice as many, up to the buffer's size, so a scan that stops early wastes little; an entry
 * larger than the buffer is served directly.
 */
public final class PrefetchRun {
    private static final long HEADER = 8;
    /** Bytes of the first run after a seek. */
    public static final long FIRST_RUN = 2048;

    private final MemorySegment buf;
    private final long base;
    private final long cap;
    private final MemorySegment size;
    private final long sizeAddress;

    private long pos;
    private long end;
    private long budget;

    /** When to fill runs. */
    private final PrefetchPolicy policy = new PrefetchPolicy(System::nanoTime);

    /**
     * A run over {@code buf}, reading lengths through the size_t slot {@code size}.
     *
     * @param buf  the run buffer (native, at least 1 byte, 8-aligned)
     * @param size a native size_t slot
     */
    public PrefetchRun(MemorySegment buf, MemorySegment size) {
        this.buf = buf;
        this.base = buf.address();
        this.cap = buf.byteSize();
        this.size = size;
        this.sizeAddress = size.address();
        reset();
    }

    /** Drops the run and starts over as after a seek. */
    public void reset() {
        pos = 0;
        end = 0;
        budget = Math.min(FIRST_RUN, cap);
        policy.seek();
    }

    /**
     * Called after each entry the native iterator moved to (served directly), and when a run is
     * used up; {@return whether a run should be filled now}
     */
    public boolean due() {
        return policy.due();
    }

    /**
     * Moves to the run's next entry; {@return false if the run is used up (it is then empty)}
     */
    public boolean advance() {
        pos += HEADER + keyLength() + valueLength();
        if (pos < end) {
            return true;
        }
        pos = 0;
        end = 0;
        return false;
    }

    /** {@return whether the run holds entries} */
    public boolean isEmpty() {
        return end == 0;
    }

    /** {@return the current entry's key length} */
    public long keyLength() {
        return buf.get(ValueLayout.JAVA_INT_UNALIGNED, pos) & 0xFFFF_FFFFL;
    }

    /** {@return the current entry's value length} */
    public long valueLength() {
        return buf.get(ValueLayout.JAVA_INT_UNALIGNED, pos + 4) & 0xFFFF_FFFFL;
    }

    /** {@return the current entry's key offset in the buffer} */
    public long keyOffset() {
        return pos + HEADER;
    }

    /** {@return the current entry's value offset in the buffer} */
    public long valueOffset() {
        return pos + HEADER + keyLength();
    }

    /** {@return the buffer's address} */
    public long address() {
        return base;
    }

    /** {@return the buffer} */
    public MemorySegment buffer() {
        return buf;
    }

    /**
     * Fills the run with the entries from the native iterator's current one on (it must be on an
     * entry), moving it past them; an entry larger than the buffer is left for direct serving.
     *
     * @param it       the native iterator's address
     * @param critical whether the moves may be linked critically (see {@link IteratorCalls})
     * @return whether the native iterator is on an entry afterwards
     */
    public boolean fill(long it, boolean critical) {
        long p = 0;
        long limit = budget;
        long entries = 0;
        boolean valid = true;
        while (true) {
            long k = IteratorCalls.key(it, sizeAddress);
            long kl = size.get(ValueLayout.JAVA_LONG, 0);
            long v = IteratorCalls.value(it, sizeAddress);
            long vl = size.get(ValueLayout.JAVA_LONG, 0);
            long n = HEADER + kl + vl;
            if ((p + n > limit && (p > 0 || n > cap)) || ((kl | vl) >>> 31) != 0) {
                break;
            }
            buf.set(ValueLayout.JAVA_INT_UNALIGNED, p, (int) kl);
            buf.set(ValueLayout.JAVA_INT_UNALIGNED, p + 4, (int) vl);
            Copies.fromAddress(k, buf, p + HEADER, kl);
            Copies.fromAddress(v, buf, p + HEADER + kl, vl);
            p += n;
            entries++;
            IteratorCalls.next(it, critical);
            if (!IteratorCalls.valid(it)) {
                valid = false;
                break;
            }
        }
        pos = 0;
        end = p;
        budget = Math.min(cap, budget << 1);
        policy.filled(entries);
        return valid;
    }
}
