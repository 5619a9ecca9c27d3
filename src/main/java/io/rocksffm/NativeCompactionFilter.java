package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Upcalls;
import io.rocksffm.internal.capi.rocksdb_compactionfilter_create$filter;
import io.rocksffm.internal.capi.rocksdb_compactionfilterfactory_create$create_compaction_filter;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Objects;

/**
 * The native side of compaction filters: a {@code rocksdb_compactionfilterfactory_t} whose
 * {@code create_compaction_filter} makes a {@code rocksdb_compactionfilter_t} per compaction, each
 * with its own registry entry and {@link ValueOutput} (RocksDB copies a changed value right after
 * the call and never frees it: the buffer belongs to the filter, which serves one compaction on
 * one thread, and is freed when RocksDB deletes the filter). Options own the factory (a shared
 * pointer): its destructor callback comes when neither options nor databases use it.
 */
final class NativeCompactionFilter {
    private NativeCompactionFilter() {}

    private static final MemorySegment FILTER = Upcalls.stub(MethodHandles.lookup(), NativeCompactionFilter.class,
            "filter", Upcalls.addressesAsLongs(rocksdb_compactionfilter_create$filter.descriptor()), (byte) 0);
    private static final MemorySegment CREATE = Upcalls.stub(MethodHandles.lookup(), NativeCompactionFilter.class,
            "create", rocksdb_compactionfilterfactory_create$create_compaction_filter.descriptor(), MemorySegment.NULL);

    /** A filter made for one compaction, with its value buffer. */
    private record Instance(CompactionFilter filter, ValueOutput out) {}

    /** A new native factory for {@code factory}; ownership passes to the caller (options). */
    static MemorySegment createFactory(CompactionFilterFactory factory) {
        String name = Objects.requireNonNull(factory.name(), "compaction filter factory name");
        Upcalls.Entry entry = Upcalls.register(factory, name, null);
        MemorySegment p = rocksdb_compactionfilterfactory_create(entry.state(), Upcalls.DESTRUCTOR, CREATE, Upcalls.NAME);
        if (p.address() == 0) {
            Upcalls.release(entry.state().address());
            throw new IllegalStateException("RocksDB returned NULL creating a compaction filter factory");
        }
        return p;
    }

    /** The factory behind {@link Options#setCompactionFilter}: the same filter for every compaction. */
    record Single(CompactionFilter filter) implements CompactionFilterFactory {
        @Override
        public String name() {
            return "rocksffm.SingleCompactionFilter:" + filter.getClass().getName();
        }

        @Override
        public CompactionFilter create(Context context) {
            return filter;
        }
    }

    private static MemorySegment create(MemorySegment state, MemorySegment context) {
        CompactionFilterFactory factory = (CompactionFilterFactory) Upcalls.entry(state).target();
        CompactionFilterFactory.Context c = new CompactionFilterFactory.Context(
                rocksdb_compactionfiltercontext_is_full_compaction(context) != 0,
                rocksdb_compactionfiltercontext_is_manual_compaction(context) != 0);
        CompactionFilter filter;
        int mark = Callbacks.enter(Callbacks.Kind.COMPACTION_FILTER); // user code: no re-entry either
        try {
            filter = factory.create(c);
        } finally {
            Callbacks.exit(mark);
        }
        if (filter == null) {
            return MemorySegment.NULL; // RocksDB runs the compaction without a filter
        }
        ValueOutput out = new ValueOutput(-1, 64);
        Upcalls.Entry entry;
        try {
            entry = Upcalls.register(new Instance(filter, out), factory.name(), out::free);
        } catch (Throwable t) {
            out.free();
            throw t;
        }
        MemorySegment p = rocksdb_compactionfilter_create(entry.state(), Upcalls.DESTRUCTOR, FILTER, Upcalls.NAME);
        if (p.address() == 0) {
            Upcalls.release(entry.state().address());
        }
        return p;
    }

    /**
     * The filter callback, once per entry a compaction reads. Its pointers arrive as numbers
     * ({@link Upcalls#addressesAsLongs}); the key and value views and the value output belong to
     * an arena of the call, closed when it returns (a view or output kept and used later throws
     * {@link IllegalStateException}); the out-parameters are wrapped only when the value changes.
     */
    private static byte filter(long state, int level, long key, long keyLength, long value, long valueLength,
                               long newValue, long newValueLength, long valueChanged) {
        Instance in = (Instance) Upcalls.entry(state).target();
        CompactionFilter.Decision d;
        long length;
        int mark = Callbacks.enter(Callbacks.Kind.COMPACTION_FILTER);
        try (Arena call = Arena.ofConfined()) { // the views' (the output makes its own if it must)
            in.out.begin(null);
            try {
                d = in.filter.filter(level, Upcalls.view(key, keyLength, call), Upcalls.view(value, valueLength, call),
                        in.out);
            } finally {
                length = in.out.end();
            }
        } catch (Throwable t) {
            Upcalls.failed(state, t);
            return 0; // keep
        } finally {
            Callbacks.exit(mark);
        }
        if (d == CompactionFilter.Decision.REMOVE) {
            return 1;
        }
        if (d == CompactionFilter.Decision.CHANGE_VALUE) {
            if (length < 0) {
                Upcalls.failed(state, new IllegalStateException("compaction filter asked to change the value but set none"));
                return 0;
            }
            MemorySegment.ofAddress(newValue).reinterpret(ADDRESS.byteSize()).set(ADDRESS, 0, in.out.data());
            MemorySegment.ofAddress(newValueLength).reinterpret(8).set(JAVA_LONG, 0, length);
            MemorySegment.ofAddress(valueChanged).reinterpret(1).set(JAVA_BYTE, 0, (byte) 1);
        }
        return 0;
    }
}
