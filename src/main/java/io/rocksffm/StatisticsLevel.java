package io.rocksffm;

import io.rocksffm.internal.Ids;

/**
 * How much RocksDB's statistics measure ({@code StatsLevel}), numbered as the C API numbers them:
 * each level adds costlier measurements to the one before.
 */
public enum StatisticsLevel {
    /** Nothing is measured (also RocksDB's "except tickers"). */
    DISABLE_ALL(0),
    /** Tickers only: no histograms, no timers. */
    EXCEPT_HISTOGRAM_OR_TIMERS(1),
    /** Tickers and histograms, no timers. */
    EXCEPT_TIMERS(2),
    /** Everything but the detailed timers (RocksDB's default). */
    EXCEPT_DETAILED_TIMERS(3),
    /** Everything but the time spent waiting for mutexes. */
    EXCEPT_TIME_FOR_MUTEX(4),
    /** Everything, mutex wait times included (costly). */
    ALL(5);

    final int id;

    StatisticsLevel(int id) {
        this.id = id;
    }

    static StatisticsLevel of(int id) {
        return Ids.of(values(), v -> v.id, id, "statistics level");
    }
}
