package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A rate limiter ({@code rocksdb_ratelimiter_t}): a budget of bytes per second for the file I/O
 * of flushes and compactions, shareable by every database whose {@link Options} name it
 * ({@link Options#setRateLimiter}), so one budget can cover several databases.
 *
 * {@snippet id="RateLimiter" :
 * try (RateLimiter limiter = RateLimiter.create(16L << 20);   // 16 MiB/s of flush and compaction I/O
 *      Options options = new Options().setCreateIfMissing(true).setRateLimiter(limiter);
 *      RocksDB db = RocksDB.open(dir.resolve("limited"), options)) {
 *     db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
 *     db.flush(true);                                          // paced by the limiter
 * }
 * }
 *
 * <p>The caller owns it and closes it. RocksDB keeps its own reference from each options object
 * (and so each database) it was given to, so closing this object only drops the Java side's
 * reference: the databases keep using the limiter. Safe to share across threads; using a closed
 * limiter throws {@link IllegalStateException}.
 */
public final class RateLimiter extends NativeObject {
    /** RocksDB's default refill period: 100 ms. */
    public static final long DEFAULT_REFILL_PERIOD_MICROS = 100_000;
    /** RocksDB's default fairness: low-priority requests go first once in 10 times. */
    public static final int DEFAULT_FAIRNESS = 10;

    /** Which I/O the limiter charges ({@code RateLimiter::Mode}). */
    public enum Mode {
        /** Only reads (compaction inputs). */
        READS_ONLY,
        /** Only writes (flush and compaction outputs): RocksDB's default. */
        WRITES_ONLY,
        /** Reads and writes. */
        ALL_IO
    }

    private RateLimiter(MemorySegment limiter) {
        super("RateLimiter", limiter);
    }

    /**
     * A limiter of {@code bytesPerSecond} for writes, with RocksDB's default refill period and
     * fairness ({@code rocksdb_ratelimiter_create}).
     *
     * @param bytesPerSecond the budget in bytes per second, above 0
     * @return a new limiter, owned by the caller
     * @throws IllegalArgumentException if {@code bytesPerSecond <= 0}
     */
    public static RateLimiter create(long bytesPerSecond) {
        return create(bytesPerSecond, DEFAULT_REFILL_PERIOD_MICROS, DEFAULT_FAIRNESS);
    }

    /**
     * A limiter of {@code bytesPerSecond} for writes ({@code rocksdb_ratelimiter_create}).
     *
     * @param bytesPerSecond     the budget in bytes per second, above 0
     * @param refillPeriodMicros how often the budget is refilled, in microseconds, above 0
     * @param fairness           1 in {@code fairness} times, low-priority requests go before
     *                           high-priority ones; above 0
     * @return a new limiter, owned by the caller
     * @throws IllegalArgumentException if an argument is not above 0
     */
    public static RateLimiter create(long bytesPerSecond, long refillPeriodMicros, int fairness) {
        check(bytesPerSecond, refillPeriodMicros, fairness);
        return new RateLimiter(rocksdb_ratelimiter_create(bytesPerSecond, refillPeriodMicros, fairness));
    }

    /**
     * A limiter charging the I/O of {@code mode}, optionally auto-tuned: RocksDB then adjusts the
     * rate within {@code [bytesPerSecond / 20, bytesPerSecond]} to the demand
     * ({@code rocksdb_ratelimiter_create_with_mode}, RocksDB 9.0 and later).
     *
     * @param bytesPerSecond     the budget (with auto-tuning, the largest) in bytes per second, above 0
     * @param refillPeriodMicros how often the budget is refilled, in microseconds, above 0
     * @param fairness           as in {@link #create(long, long, int)}, above 0
     * @param mode               which I/O is charged
     * @param autoTuned          whether RocksDB tunes the rate to the demand
     * @return a new limiter, owned by the caller
     * @throws IllegalArgumentException if a number is not above 0
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_ratelimiter_create_with_mode}
     */
    public static RateLimiter create(long bytesPerSecond, long refillPeriodMicros, int fairness, Mode mode,
                                     boolean autoTuned) {
        Objects.requireNonNull(mode, "mode");
        check(bytesPerSecond, refillPeriodMicros, fairness);
        Capabilities.require("rocksdb_ratelimiter_create_with_mode");
        return new RateLimiter(rocksdb_ratelimiter_create_with_mode(bytesPerSecond, refillPeriodMicros, fairness,
                mode.ordinal(), autoTuned));
    }

    private static void check(long bytesPerSecond, long refillPeriodMicros, int fairness) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("bytes per second must be > 0: " + bytesPerSecond);
        }
        if (refillPeriodMicros <= 0) {
            throw new IllegalArgumentException("refill period must be > 0 microseconds: " + refillPeriodMicros);
        }
        if (fairness <= 0) {
            throw new IllegalArgumentException("fairness must be > 0: " + fairness);
        }
    }

    @Override
    void destroy(MemorySegment limiter) {
        rocksdb_ratelimiter_destroy(limiter);
    }
}
