package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Upcalls;
import io.rocksffm.internal.capi.rocksdb_mergeoperator_create$delete_value;
import io.rocksffm.internal.capi.rocksdb_mergeoperator_create$full_merge;
import io.rocksffm.internal.capi.rocksdb_mergeoperator_create$partial_merge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.Objects;

/**
 * The native side of a {@link MergeOperator}: a {@code rocksdb_mergeoperator_t} whose callbacks
 * are rocksffm's shared upcall stubs and whose state is the operator's registry entry.
 *
 * <p><b>Results.</b> The C API's merge functions return a buffer that RocksDB copies and then
 * hands back through {@code delete_value} on the same thread. Each native operator keeps a small
 * pool of {@link ValueOutput} buffers (C heap, reused, grown on demand): a merge takes a free one
 * (one compare-and-set), and {@code delete_value} finds it again through the 8-byte header in
 * front of the data (its pool slot). When every pooled buffer is busy a temporary one is made and
 * freed by {@code delete_value}. The pool is freed when RocksDB destroys the operator: nothing
 * leaks.
 */
final class NativeMergeOperator {
    private NativeMergeOperator() {}

    private static final int POOL = 8;
    private static final long INITIAL = 64;
    /** What a failed merge returns: a header saying "no buffer", then no data. */
    private static final MemorySegment EMPTY = Arena.global().allocate(16, 8);

    static {
        EMPTY.set(JAVA_LONG, 0, -2);
    }

    private static final MemorySegment FULL_MERGE = Upcalls.stub(MethodHandles.lookup(), NativeMergeOperator.class,
            "fullMerge", rocksdb_mergeoperator_create$full_merge.descriptor(), MemorySegment.NULL);
    private static final MemorySegment PARTIAL_MERGE = Upcalls.stub(MethodHandles.lookup(), NativeMergeOperator.class,
            "partialMerge", rocksdb_mergeoperator_create$partial_merge.descriptor(), MemorySegment.NULL);
    private static final MemorySegment DELETE_VALUE = Upcalls.stub(MethodHandles.lookup(), NativeMergeOperator.class,
            "deleteValue", rocksdb_mergeoperator_create$delete_value.descriptor(), null);

    /** What the registry entry holds for one native operator. */
    private static final class State {
        final MergeOperator operator;
        final ValueOutput[] results = new ValueOutput[POOL];
        final AtomicIntegerArray busy = new AtomicIntegerArray(POOL);

        State(MergeOperator operator) {
            this.operator = operator;
            for (int i = 0; i < POOL; i++) {
                results[i] = new ValueOutput(i, INITIAL);
            }
        }

        ValueOutput acquire() {
            for (int i = 0; i < POOL; i++) {
                if (busy.get(i) == 0 && busy.compareAndSet(i, 0, 1)) {
                    return results[i];
                }
            }
            return new ValueOutput(-1, INITIAL);
        }

        void free() {
            for (ValueOutput r : results) {
                r.free();
            }
        }
    }

    /**
     * A new {@code rocksdb_mergeoperator_t} for {@code operator}; ownership passes to the caller
     * (normally to options at once, which keep it in a shared pointer and destroy it, calling the
     * destructor callback, when neither options nor any database use it).
     */
    static MemorySegment create(MergeOperator operator) {
        String name = Objects.requireNonNull(operator.name(), "merge operator name");
        State state = new State(operator);
        Upcalls.Entry entry;
        try {
            entry = Upcalls.register(state, name, state::free);
        } catch (RuntimeException e) {
            state.free();
            throw e;
        }
        MemorySegment op = rocksdb_mergeoperator_create(entry.state(), Upcalls.DESTRUCTOR, FULL_MERGE, PARTIAL_MERGE,
                DELETE_VALUE, Upcalls.NAME);
        if (op.address() == 0) {
            Upcalls.release(entry.state().address());
            throw new IllegalStateException("RocksDB returned NULL creating a merge operator");
        }
        return op;
    }

    private static MemorySegment fullMerge(MemorySegment st, MemorySegment key, long keyLength, MemorySegment existing,
                                           long existingLength, MemorySegment operands, MemorySegment lengths, int n,
                                           MemorySegment success, MemorySegment newLength) {
        return merge(st, key, keyLength, existing.address() == 0 ? null : existing, existingLength, operands, lengths,
                n, success, newLength, true);
    }

    private static MemorySegment partialMerge(MemorySegment st, MemorySegment key, long keyLength,
                                              MemorySegment operands, MemorySegment lengths, int n,
                                              MemorySegment success, MemorySegment newLength) {
        return merge(st, key, keyLength, null, 0, operands, lengths, n, success, newLength, false);
    }

    private static MemorySegment merge(MemorySegment st, MemorySegment key, long keyLength, MemorySegment existing,
                                       long existingLength, MemorySegment operands, MemorySegment lengths, int n,
                                       MemorySegment success, MemorySegment newLength, boolean full) {
        MemorySegment ok = success.reinterpret(1);
        MemorySegment len = newLength.reinterpret(8);
        ok.set(JAVA_BYTE, 0, (byte) 0);
        len.set(JAVA_LONG, 0, 0);
        State state = (State) Upcalls.entry(st).target();
        ValueOutput result = state.acquire();
        boolean done = false;
        int mark = Callbacks.enter(Callbacks.Kind.MERGE_OPERATOR);
        try (Arena call = Arena.ofConfined()) {
            MemorySegment k = key.reinterpret(keyLength, call, null).asReadOnly();
            MergeOperands ops = new MergeOperands(operands, lengths, n, call);
            result.begin(call);
            if (full) {
                MemorySegment e = existing == null ? null : existing.reinterpret(existingLength, call, null).asReadOnly();
                state.operator.fullMerge(k, e, ops, result);
                done = true;
            } else {
                done = state.operator.partialMerge(k, ops, result);
            }
        } catch (Throwable t) {
            result.end();
            release(state, result);
            if (full) {
                Upcalls.failedForCaller(st, t);
            } else {
                Upcalls.failed(st, t);
            }
            return EMPTY.asSlice(8);
        } finally {
            Callbacks.exit(mark);
        }
        long length = result.end();
        if (!done || length < 0) {
            release(state, result);
            if (full) {
                Upcalls.failedForCaller(st, new IllegalStateException(
                        "merge operator " + state.operator.name() + " set no result"));
            }
            return EMPTY.asSlice(8);
        }
        ok.set(JAVA_BYTE, 0, (byte) 1);
        len.set(JAVA_LONG, 0, length);
        return result.data();
    }

    private static void release(State state, ValueOutput result) {
        if (result.slot >= 0) {
            state.busy.set(result.slot, 0);
        } else {
            result.free();
        }
    }

    private static void deleteValue(MemorySegment st, MemorySegment value, long length) {
        long header = MemorySegment.ofAddress(value.address() - ValueOutput.HEADER).reinterpret(8).get(JAVA_LONG, 0);
        if (header == -2) {
            return; // EMPTY
        }
        if (header >= 0) {
            ((State) Upcalls.entry(st).target()).busy.set((int) header, 0);
        } else {
            Native.free(MemorySegment.ofAddress(value.address() - ValueOutput.HEADER));
        }
    }
}
