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
 * <p><b>When runs are filled.</b> A run pays only when the scan is long and its entries small
 * (the fill copies every value, read or not, and the saving per entry is the downcalls' fixed
 * cost). So, after every seek, the first {@value #START_AFTER} entries are served directly (a short
 * scan after a seek never pays for a run); the first run then holds at most {@value #FIRST_RUN}
 * bytes and each next one twice as many, up to the buffer's size, so a scan that stops early wastes
 * at most about what it read. When a run's entries average more than {@value #LARGE_ENTRY} bytes
 * (or the entry is larger than the buffer), copying them costs more than the calls it saves: runs step aside for the next
 * {@value #STEP_ASIDE} entries, then try again.
 */
public final class PrefetchRun {
    private static final long HEADER = 8;
    /** Entries served directly after a seek before the first run. */
    public static final int START_AFTER = 128;
    /** Bytes of the first run after a seek. */
    public static final long FIRST_RUN = 2048;
    /** Average entry size (header included) above which runs step aside. */
    public static final long LARGE_ENTRY = 512;
    /** Entries served directly after a run of large entries. */
    public static final int STEP_ASIDE = 4096;

    /** All of memory: the source of copies from a raw address. */
    private static final MemorySegment EVERYTHING = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final MemorySegment buf;
    private final long base;
    private final long cap;
    private final MemorySegment size;
    private final long sizeAddress;

    private long pos;
    private long end;
    private long budget;
    private int countdown;

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
        countdown = START_AFTER;
    }

    /**
     * Counts one entry served directly; {@return whether a run should be filled now}
     */
    public boolean due() {
        if (countdown > 0) {
            countdown--;
            return false;
        }
        return true;
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
            MemorySegment.copy(EVERYTHING, k, buf, p + HEADER, kl);
            MemorySegment.copy(EVERYTHING, v, buf, p + HEADER + kl, vl);
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
        if (entries == 0 || p / entries > LARGE_ENTRY) { // no entry fitted, or large ones
            countdown = STEP_ASIDE;
            budget = Math.min(FIRST_RUN, cap);
        }
        return valid;
    }
}
