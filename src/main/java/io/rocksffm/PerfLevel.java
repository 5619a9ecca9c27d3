package io.rocksffm;

/**
 * How much RocksDB counts in the calling thread's {@link PerfContext}
 * ({@link PerfContext#setPerfLevel}). Ids follow RocksDB's {@code PerfLevel} (the C API's
 * {@code rocksdb_disable} ... {@code rocksdb_enable_time}).
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
