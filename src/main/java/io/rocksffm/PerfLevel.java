package io.rocksffm;

/**
 * How much RocksDB counts in the calling thread's {@link PerfContext}
 * ({@link PerfContext#setPerfLevel}). Ids follow RocksDB's {@code PerfLevel} (the C API's
 * {@code rocksdb_disable} ... {@code rocksdb_enable_time}).
 *
 * {@snippet id="PerfLevel" :
 * PerfContext.setPerfLevel(PerfLevel.ENABLE_TIME);   // counts and times: costlier than ENABLE_COUNT
 * for (int i = 0; i < 100; i++) {
 *     db.get(("k" + i).getBytes(UTF_8));
 * }
 * long nanos = perf.metric(PerfMetric.GET_FROM_MEMTABLE_TIME);
 * PerfContext.setPerfLevel(PerfLevel.DISABLE);       // the default: nothing is counted
 * }
 */
public enum PerfLevel {
    /** Nothing is counted (RocksDB's default). */
    DISABLE(1),
    /** Counters only, no timing. */
    ENABLE_COUNT(2),
    /** Counters and timings, except the time spent waiting for mutexes. */
    ENABLE_TIME_EXCEPT_FOR_MUTEX(3),
    /** Counters and every timing (the most expensive). */
    ENABLE_TIME(4);

    final int id;

    PerfLevel(int id) {
        this.id = id;
    }
}
