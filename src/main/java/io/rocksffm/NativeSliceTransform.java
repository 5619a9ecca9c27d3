package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.OlderShapes;
import io.rocksffm.internal.Upcalls;
import io.rocksffm.internal.capi.rocksdb_slicetransform_create$in_domain;
import io.rocksffm.internal.capi.rocksdb_slicetransform_create$transform;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Objects;

/**
 * The native side of a {@link PrefixExtractor}: a {@code rocksdb_slicetransform_t}, RocksDB's own
 * for the built-ins, else one whose callbacks are upcalls. Options own it (a shared pointer).
 */
final class NativeSliceTransform {
    private NativeSliceTransform() {}

    private static final MemorySegment TRANSFORM = Upcalls.stub(MethodHandles.lookup(), NativeSliceTransform.class,
            "transform", rocksdb_slicetransform_create$transform.descriptor(), MemorySegment.NULL);
    private static final MemorySegment IN_DOMAIN = Upcalls.stub(MethodHandles.lookup(), NativeSliceTransform.class,
            "inDomain", rocksdb_slicetransform_create$in_domain.descriptor(), (byte) 0);

    /**
     * The {@code in_range} callback that engines before RocksDB 11.0 take (and never call: it was
     * deprecated long before it was removed); made only when such an engine needs it.
     */
    private static final class InRange {
        static final MemorySegment STUB = Upcalls.stub(MethodHandles.lookup(), NativeSliceTransform.class,
                "inRange", OlderShapes.SLICETRANSFORM_IN_RANGE, (byte) 0);
    }

    /** Whether the engine has the bindings' signature of rocksdb_slicetransform_create (11.0 on). */
    private static final class Shape {
        static final boolean CURRENT = Capabilities.callable(OlderShapes.SLICETRANSFORM_CREATE);
    }

    /** RocksDB's fixed prefix. */
    record Fixed(int length) implements PrefixExtractor {
        Fixed {
            if (length < 1) {
                throw new IllegalArgumentException("prefix length must be >= 1: " + length);
            }
        }

        @Override
        public String name() {
            return "rocksdb.FixedPrefix." + length;
        }

        @Override
        public boolean inDomain(MemorySegment key) {
            return key.byteSize() >= length;
        }

        @Override
        public long prefixLength(MemorySegment key) {
            return length;
        }
    }

    /** RocksDB's no-op transform. */
    record Noop() implements PrefixExtractor {
        static final Noop INSTANCE = new Noop();

        @Override
        public String name() {
            return "rocksdb.Noop";
        }

        @Override
        public boolean inDomain(MemorySegment key) {
            return true;
        }

        @Override
        public long prefixLength(MemorySegment key) {
            return key.byteSize();
        }
    }

    /** A capped prefix, in Java. */
    record Capped(int length) implements PrefixExtractor {
        Capped {
            if (length < 1) {
                throw new IllegalArgumentException("prefix length must be >= 1: " + length);
            }
        }

        @Override
        public String name() {
            return "rocksdb.CappedPrefix." + length;
        }

        @Override
        public boolean inDomain(MemorySegment key) {
            return true;
        }

        @Override
        public long prefixLength(MemorySegment key) {
            return Math.min(length, key.byteSize());
        }
    }

    /** Whether {@code extractor} runs Java code (not one of RocksDB's built-in transforms). */
    static boolean callsJava(PrefixExtractor extractor) {
        return !(extractor instanceof Fixed) && !(extractor instanceof Noop);
    }

    /** A new native transform for {@code extractor}; ownership passes to the caller (options). */
    static MemorySegment create(PrefixExtractor extractor) {
        if (extractor instanceof Fixed f) {
            return rocksdb_slicetransform_create_fixed_prefix(f.length());
        }
        if (extractor instanceof Noop) {
            return rocksdb_slicetransform_create_noop();
        }
        String name = Objects.requireNonNull(extractor.name(), "prefix extractor name");
        Upcalls.Entry entry = Upcalls.register(extractor, name, null);
        // The signature lost its in_range callback in RocksDB 11.0: each engine is called through its own.
        MemorySegment p = Shape.CURRENT
                ? rocksdb_slicetransform_create(entry.state(), Upcalls.DESTRUCTOR, TRANSFORM, IN_DOMAIN, Upcalls.NAME)
                : OlderShapes.slicetransformCreate(entry.state(), Upcalls.DESTRUCTOR, TRANSFORM, IN_DOMAIN,
                        InRange.STUB, Upcalls.NAME);
        if (p.address() == 0) {
            Upcalls.release(entry.state().address());
            throw new IllegalStateException("RocksDB returned NULL creating a prefix extractor");
        }
        return p;
    }

    private static MemorySegment transform(MemorySegment state, MemorySegment key, long length, MemorySegment dstLength) {
        long n;
        int mark = Callbacks.enter(Callbacks.Kind.PREFIX_EXTRACTOR);
        try (Arena call = Arena.ofConfined()) { // the view dies with the call
            n = ((PrefixExtractor) Upcalls.entry(state).target()).prefixLength(Upcalls.view(key.address(), length, call));
        } catch (Throwable t) {
            Upcalls.failed(state, t);
            n = length;
        } finally {
            Callbacks.exit(mark);
        }
        dstLength.reinterpret(8).set(JAVA_LONG, 0, Math.max(0, Math.min(n, length)));
        return key;
    }

    private static byte inDomain(MemorySegment state, MemorySegment key, long length) {
        int mark = Callbacks.enter(Callbacks.Kind.PREFIX_EXTRACTOR);
        try (Arena call = Arena.ofConfined()) { // the view dies with the call
            return ((PrefixExtractor) Upcalls.entry(state).target()).inDomain(Upcalls.view(key.address(), length, call))
                    ? (byte) 1 : (byte) 0;
        } finally {
            Callbacks.exit(mark);
        }
    }

    private static byte inRange(MemorySegment state, MemorySegment key, long length) {
        return 0; // deprecated, never called, removed in RocksDB 11.0
    }
}
