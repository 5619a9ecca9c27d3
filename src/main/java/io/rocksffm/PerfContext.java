package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Lifecycle;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * RocksDB's performance counters of the calling thread ({@code rocksdb_perfcontext_t}): how many
 * keys a get compared, whether it was served by the memtable, how many blocks it read, how long
 * each step took. RocksDB counts per operating-system thread, into a thread-local context, at the
 * level the same thread set with {@link #setPerfLevel} (off by default).
 *
 * {@snippet id="PerfContext" :
 * // on a platform thread: the level and the counters are this OS thread's
 * PerfContext.setPerfLevel(PerfLevel.ENABLE_COUNT);
 * try (PerfContext perf = PerfContext.create()) {
 *     perf.reset();
 *     db.get("k".getBytes(UTF_8));
 *     db.get("absent".getBytes(UTF_8));
 *     long fromMemtable = perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT);   // 2
 *     String report = perf.report(true);   // the counters that moved: "get_from_memtable_count = 2, ..."
 * }
 * }
 *
 * <p><b>Threads.</b> Both the level and the counters belong to the OS thread that runs the
 * RocksDB calls. A {@code PerfContext} reads the counters of the thread that created it, so it is
 * confined to that thread (another thread gets {@link WrongThreadException}; {@link #close()}
 * works from any thread once that thread has ended). A <em>virtual</em> thread may run each call on a different carrier
 * (OS) thread: the level it set, the calls it made and the counters it reads could belong to
 * three different carriers. So {@link #setPerfLevel} and {@link #create} refuse virtual threads
 * with {@link IllegalStateException}: measure on a platform thread (for instance hand the
 * measured work to a dedicated platform thread, {@code Thread.ofPlatform()}). See
 * {@code docs/virtual-threads.md}.
 *
 * <p>Typical use: set the level, create the context, {@link #reset()}, run the operations to
 * measure on the same thread, then read {@link #metric} or {@link #report}. Owned by the caller,
 * who closes it; closing frees the C wrapper only (the counters themselves are the thread's).
 */
public final class PerfContext extends NativeObject {
    private PerfContext(MemorySegment context) {
        super(Lifecycle.confined("PerfContext"), "PerfContext", context);
    }

    /**
     * Sets what RocksDB counts in the calling thread's perf context from now on
     * ({@code rocksdb_set_perf_level}); other threads keep their own level.
     *
     * @param level the level, e.g. {@link PerfLevel#ENABLE_COUNT}
     * @throws NullPointerException if {@code level} is null
     * @throws IllegalStateException on a virtual thread (see the class comment)
     */
    public static void setPerfLevel(PerfLevel level) {
        Objects.requireNonNull(level, "level");
        refuseVirtual("PerfContext.setPerfLevel");
        rocksdb_set_perf_level(level.id);
    }

    /**
     * The calling thread's perf context ({@code rocksdb_perfcontext_create}).
     *
     * @return a context reading this thread's counters, confined to it, owned by the caller
     * @throws IllegalStateException on a virtual thread (see the class comment)
     */
    public static PerfContext create() {
        refuseVirtual("PerfContext.create");
        return new PerfContext(rocksdb_perfcontext_create());
    }

    private static void refuseVirtual(String what) {
        if (Thread.currentThread().isVirtual()) {
            throw new IllegalStateException(what + " called on a virtual thread: RocksDB's perf context belongs to "
                    + "the OS thread running each call, and a virtual thread may change carriers between calls; "
                    + "measure on a platform thread");
        }
    }

    @Override
    void destroy(MemorySegment context) {
        rocksdb_perfcontext_destroy(context);
    }

    /**
     * Sets every counter of the thread back to zero.
     *
     * @throws IllegalStateException if closed
     * @throws WrongThreadException if called on another thread than the creator
     */
    public void reset() {
        lifecycle.check();
        rocksdb_perfcontext_reset(ptr);
    }

    /**
     * One counter of the thread.
     *
     * @param metric the counter, e.g. {@link PerfMetric#GET_FROM_MEMTABLE_COUNT}
     * @return its value (nanoseconds for the {@code *_TIME} and {@code *_NANOS} ones, counts or
     *         bytes otherwise)
     * @throws NullPointerException if {@code metric} is null
     * @throws IllegalStateException if closed
     * @throws WrongThreadException if called on another thread than the creator
     * @throws UnsupportedOperationException if the engine does not know the metric
     *         ({@link PerfMetric#isAvailable()})
     */
    public long metric(PerfMetric metric) {
        Objects.requireNonNull(metric, "metric");
        lifecycle.check();
        return rocksdb_perfcontext_metric(ptr, metric.id());
    }

    /**
     * RocksDB's text report of the thread's counters ({@code name = value} pairs, comma
     * separated).
     *
     * @param excludeZeroCounters whether to leave out the counters that are 0
     * @return the report
     * @throws IllegalStateException if closed
     * @throws WrongThreadException if called on another thread than the creator
     */
    public String report(boolean excludeZeroCounters) {
        lifecycle.check();
        return CStrings.take(rocksdb_perfcontext_report(ptr, flag(excludeZeroCounters)));
    }
}
