package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.rocksffm.internal.BatchFormat;
import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Upcalls;
import io.rocksffm.internal.capi.rocksdb_comparator_create$compare;
import io.rocksffm.internal.capi.rocksdb_comparator_with_ts_create$compare_ts;
import io.rocksffm.internal.capi.rocksdb_comparator_with_ts_create$compare_without_ts;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Objects;

/**
 * The native side of a {@link Comparator}: a {@code rocksdb_comparator_t}. Unlike merge operators,
 * the C API does not share ownership of comparators (options and databases keep a raw pointer),
 * so this holder counts its users: the options it is set on, and every database and column family
 * opened or created with those options. The last {@link #release()} destroys the native
 * comparator (RocksDB then calls the destructor callback, which unregisters the Java object), so
 * closing the options before the databases is safe.
 */
final class NativeComparator {
    private static final MemorySegment COMPARE = Upcalls.stub(MethodHandles.lookup(), NativeComparator.class,
            "compare", Upcalls.addressesAsLongs(rocksdb_comparator_create$compare.descriptor()), 0);

    final Comparator comparator;
    final MemorySegment ptr;
    private final AtomicInteger users = new AtomicInteger(1);

    NativeComparator(Comparator comparator) {
        this.comparator = comparator;
        String name = Objects.requireNonNull(comparator.name(), "comparator name");
        int tsSize = comparator instanceof TimestampedComparator t ? WithTimestamps.size(t) : 0;
        Upcalls.Entry entry = Upcalls.register(comparator, name, null);
        MemorySegment p = tsSize == 0 ? rocksdb_comparator_create(entry.state(), Upcalls.DESTRUCTOR, COMPARE, Upcalls.NAME)
                : rocksdb_comparator_with_ts_create(entry.state(), Upcalls.DESTRUCTOR, WithTimestamps.COMPARE,
                        WithTimestamps.COMPARE_TS, WithTimestamps.COMPARE_WITHOUT_TS, Upcalls.NAME, tsSize);
        if (p.address() == 0) {
            Upcalls.release(entry.state().address());
            throw new IllegalStateException("RocksDB returned NULL creating a comparator");
        }
        this.ptr = p;
    }

    /** Adds a user (a database or family opened with it). */
    NativeComparator retain() {
        users.incrementAndGet();
        return this;
    }

    /** Removes a user; the last one destroys the native comparator. */
    void release() {
        if (users.decrementAndGet() == 0) {
            rocksdb_comparator_destroy(ptr);
        }
    }

    /**
     * The compare callback. Its pointers arrive as numbers ({@link Upcalls#addressesAsLongs}): it
     * runs for every key comparison, and each view is then one object, which the JIT removes when
     * the comparator inlines. The views are not confined to the call: an arena per call (as other
     * callbacks have) measured +5 ns per comparison when the JIT removed it and +25 to +35 ns and
     * 136 bytes when it did not, which it failed to do in about one JVM of two. The thread is
     * marked as inside a comparator ({@link Callbacks}) so that calls into the database from the
     * comparator are refused.
     *
     * <p><b>Equal keys are equal.</b> A key compared with itself answers 0 without asking the
     * comparator, and so do two keys of the same bytes the comparator calls different (recorded
     * as a failure, {@link Upcalls#failureCount}): RocksDB's iterators step back until a key
     * compares equal to the one they saved, and loop forever in native code on a comparator that
     * never answers 0 (one that always answers "less"). That check costs a byte compare only when
     * the answer is not 0, the lengths are equal and the last bytes are too.
     */
    private static int compare(long state, long a, long aLength, long b, long bLength) {
        if (a == b && aLength == bLength) {
            return 0; // a key compared with itself (RocksDB's skip list does when stepping back)
        }
        int r;
        int mark = Callbacks.enter(Callbacks.Kind.COMPARATOR);
        try {
            r = ((Comparator) Upcalls.entry(state).target()).compare(Upcalls.view(a, aLength), Upcalls.view(b, bLength));
        } catch (Throwable t) {
            Upcalls.failed(state, t);
            // views of their own: the user's views then reach no call the JIT may not inline
            return BatchFormat.compareBytewise(Upcalls.view(a, aLength), Upcalls.view(b, bLength));
        } finally {
            Callbacks.exit(mark);
        }
        if (r != 0 && aLength == bLength && sameBytes(a, b, aLength)) {
            Upcalls.failed(state, new IllegalStateException(
                    "comparator " + Upcalls.entry(state).name() + " called two equal keys different"));
            return 0;
        }
        return r;
    }

    /**
     * The callbacks of a {@link TimestampedComparator} ({@code rocksdb_comparator_with_ts_create}),
     * made when the first one is set. Its full-key compare is {@link #compare} (the same
     * checks); the other two compare timestamps, and keys without them, under the same rules.
     */
    private static final class WithTimestamps {
        static final MemorySegment COMPARE = NativeComparator.COMPARE;
        static final MemorySegment COMPARE_TS = Upcalls.stub(MethodHandles.lookup(), WithTimestamps.class, "compareTs",
                Upcalls.addressesAsLongs(rocksdb_comparator_with_ts_create$compare_ts.descriptor()), 0);
        static final MemorySegment COMPARE_WITHOUT_TS = Upcalls.stub(MethodHandles.lookup(), WithTimestamps.class,
                "compareWithoutTs", Upcalls.addressesAsLongs(rocksdb_comparator_with_ts_create$compare_without_ts.descriptor()), 0);

        /** The comparator's timestamp size, checked, on an engine that has timestamped comparators. */
        static int size(TimestampedComparator t) {
            Capabilities.require("rocksdb_comparator_with_ts_create");
            int size = t.timestampSize();
            if (size <= 0) {
                throw new IllegalArgumentException("timestamp size must be positive: " + size);
            }
            return size;
        }

        private static int compareTs(long state, long a, long aLength, long b, long bLength) {
            int mark = Callbacks.enter(Callbacks.Kind.COMPARATOR);
            try {
                return ((TimestampedComparator) Upcalls.entry(state).target())
                        .compareTimestamp(Upcalls.view(a, aLength), Upcalls.view(b, bLength));
            } catch (Throwable t) {
                Upcalls.failed(state, t);
                return BatchFormat.compareBytewise(Upcalls.view(a, aLength), Upcalls.view(b, bLength));
            } finally {
                Callbacks.exit(mark);
            }
        }

        private static int compareWithoutTs(long state, long a, long aLength, byte aHasTs, long b, long bLength, byte bHasTs) {
            TimestampedComparator c = (TimestampedComparator) Upcalls.entry(state).target();
            int ts = c.timestampSize();
            long aKey = aHasTs != 0 ? Math.max(0, aLength - ts) : aLength;
            long bKey = bHasTs != 0 ? Math.max(0, bLength - ts) : bLength;
            if (a == b && aKey == bKey) {
                return 0;
            }
            int mark = Callbacks.enter(Callbacks.Kind.COMPARATOR);
            try {
                int r = c.compareWithoutTimestamp(Upcalls.view(a, aKey), Upcalls.view(b, bKey));
                if (r != 0 && aKey == bKey && sameBytes(a, b, aKey)) {
                    Upcalls.failed(state, new IllegalStateException(
                            "comparator " + Upcalls.entry(state).name() + " called two equal keys different"));
                    return 0;
                }
                return r;
            } catch (Throwable t) {
                Upcalls.failed(state, t);
                return BatchFormat.compareBytewise(Upcalls.view(a, aKey), Upcalls.view(b, bKey));
            } finally {
                Callbacks.exit(mark);
            }
        }
    }

    /** Whether the {@code length} bytes at {@code a} and {@code b} are the same (last byte first). */
    private static boolean sameBytes(long a, long b, long length) {
        return length == 0 || Upcalls.view(a + length - 1, 1).get(JAVA_BYTE, 0) == Upcalls.view(b + length - 1, 1)
                .get(JAVA_BYTE, 0) && Upcalls.view(a, length).mismatch(Upcalls.view(b, length)) < 0;
    }
}
