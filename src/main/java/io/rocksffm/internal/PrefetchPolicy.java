package io.rocksffm.internal;

import java.util.function.LongSupplier;

/**
 * When an iterator's {@link PrefetchRun} fills runs: only where they are measured to pay.
 *
 * <p>A run makes the same C calls per entry as direct serving (RocksDB's C API has no call that
 * returns several entries), so what it can save is the per-call cost of the Java side and of the
 * thread-state transition of {@code rocksdb_iter_next} (its fill loop moves critically); what it
 * costs is a copy of every key and value, read or not. Which one wins depends on the JDK, the
 * machine, the entries' sizes and what the caller does with each entry, so each iterator measures
 * it as the scan runs:
 * <ul>
 *   <li>after every seek, the first {@value #START_AFTER} entries are served directly (a short scan
 *       after a seek never pays for a run);</li>
 *   <li>a <em>trial</em> then times {@value #TRIAL} entries served directly and at least as many
 *       served from runs, the caller's own work on each entry included;</li>
 *   <li>if runs took at most {@value #WIN_PERCENT}% of the direct time per entry, runs continue
 *       for {@value #KEEP} entries, then comes a new trial; otherwise runs step aside for
 *       {@value #ASIDE_MIN} entries, twice as many after each further loss (up to
 *       {@value #ASIDE_MAX}), then comes a new trial. A run that could hold no entry (one larger
 *       than the buffer) counts as a loss.</li>
 * </ul>
 * Where runs lose, a long scan thus pays for them on under one entry in a hundred; the verdict and
 * the step-aside count carry over seeks (a seek only restarts a trial it cut short). Not thread-safe:
 * one per iterator.
 */
public final class PrefetchPolicy {
    /** Entries served directly after a seek before anything else. */
    public static final int START_AFTER = 128;
    /** Entries a trial times on each side. */
    public static final int TRIAL = 256;
    /** Runs win a trial when their time per entry is at most this per cent of direct serving's. */
    public static final int WIN_PERCENT = 97;
    /** Entries served from runs after a won trial before the next trial. */
    public static final int KEEP = 1 << 16;
    /** Entries served directly after a first lost trial. */
    public static final int ASIDE_MIN = 4096;
    /** The most entries served directly after a lost trial. */
    public static final int ASIDE_MAX = 1 << 20;

    /** Serving directly, {@link #countdown} entries before the next trial. */
    private static final int ASIDE = 0;
    /** Timing direct serving: {@link #timed} entries since {@link #started}. */
    private static final int TIMING = 1;
    /** Timing runs: {@link #trialEntries} entries filled since {@link #started}. */
    private static final int TRIALING = 2;
    /** Filling runs, {@link #countdown} entries before the next trial. */
    private static final int RUNS = 3;

    private final LongSupplier clock;
    /** Entries still served directly after the last seek. */
    private int skip = START_AFTER;
    private int phase = TIMING;
    private long countdown;
    private int timed;
    private long trialEntries;
    private long started;
    private long directNanos;
    private long aside = ASIDE_MIN;
    private long won;
    private long lost;

    /**
     * A policy timed by {@code clock}.
     *
     * @param clock nanoseconds ({@code System::nanoTime}; tests pass their own)
     */
    public PrefetchPolicy(LongSupplier clock) {
        this.clock = clock;
    }

    /** The iterator sought: serve the next {@value #START_AFTER} entries directly; restart a trial cut short. */
    public void seek() {
        skip = START_AFTER;
        if (phase == TIMING || phase == TRIALING) {
            phase = TIMING;
            timed = 0;
        }
    }

    /**
     * Called after each entry the native iterator moved to (served directly), and when a run is
     * used up; {@return whether a run should be filled now}
     */
    public boolean due() {
        if (skip > 0) {
            skip--;
            return false;
        }
        switch (phase) {
            case ASIDE -> {
                if (--countdown <= 0) {
                    phase = TIMING;
                    timed = 0;
                }
                return false;
            }
            case TIMING -> {
                if (timed == 0) {
                    started = clock.getAsLong();
                }
                if (timed < TRIAL) {
                    timed++;
                    return false;
                }
                long now = clock.getAsLong();
                directNanos = now - started;
                phase = TRIALING;
                trialEntries = 0;
                started = now;
                return true;
            }
            case TRIALING -> {
                if (trialEntries < TRIAL) {
                    return true;
                }
                long runNanos = clock.getAsLong() - started;
                // per entry: runNanos / trialEntries against directNanos / TRIAL
                if (runNanos * TRIAL * 100 <= directNanos * trialEntries * WIN_PERCENT) {
                    won++;
                    phase = RUNS;
                    countdown = KEEP;
                    aside = ASIDE_MIN;
                    return true;
                }
                stepAside();
                return false;
            }
            default -> { // RUNS
                if (countdown > 0) {
                    return true;
                }
                phase = TIMING;
                timed = 0;
                return false;
            }
        }
    }

    /**
     * A run was filled with {@code entries} entries (0: the next entry is larger than the buffer).
     *
     * @param entries the entries in the run
     */
    public void filled(long entries) {
        if (entries == 0) {
            stepAside();
        } else if (phase == TRIALING) {
            trialEntries += entries;
        } else {
            countdown -= entries;
        }
    }

    /** A lost trial: serve directly for a while, longer after each loss. */
    private void stepAside() {
        lost++;
        phase = ASIDE;
        countdown = aside;
        aside = Math.min(ASIDE_MAX, aside << 1);
    }

    /** {@return the trials runs have won so far} */
    public long trialsWon() {
        return won;
    }

    /** {@return the trials runs have lost so far} */
    public long trialsLost() {
        return lost;
    }
}
