package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/**
 * The prefetch policy on a simulated scan with a simulated clock: runs are kept where they are
 * cheaper per entry than direct serving, step aside (for longer after each loss) where they are not,
 * and never start within the first entries after a seek.
 */
class PrefetchPolicyTest {
    /** A scan driven like RocksIterator.next(): direct entries cost {@code direct} ns, run entries {@code run} ns. */
    static final class Scan {
        long now;
        final PrefetchPolicy policy = new PrefetchPolicy(() -> now);
        long direct = 100;
        long run = 100;
        /** Entries a fill puts in a run. */
        int runEntries = 25;
        long servedDirect;
        long servedFromRuns;
        private int left; // entries left in the current run

        void entries(long n) {
            for (long i = 0; i < n; i++) {
                if (left > 0) {
                    now += run;
                    servedFromRuns++;
                    if (--left > 0 || !policy.due()) {
                        continue;
                    }
                    fill();
                    continue;
                }
                now += direct;
                servedDirect++;
                if (policy.due()) {
                    fill();
                }
            }
        }

        private void fill() {
            policy.filled(runEntries);
            left = runEntries;
        }

        void seek() {
            left = 0;
            policy.seek();
        }

        double runShare() {
            return servedFromRuns / (double) (servedFromRuns + servedDirect);
        }
    }

    @Test
    void runsThatPayAreKept() {
        Scan s = new Scan();
        s.run = 60;
        s.entries(1_000_000);
        assertEquals(0, s.policy.trialsLost());
        // a new trial after every KEEP entries of runs, every one won
        assertTrue(s.policy.trialsWon() >= 1_000_000 / (PrefetchPolicy.KEEP + 2L * PrefetchPolicy.TRIAL),
                "won " + s.policy.trialsWon());
        assertTrue(s.runShare() > 0.95, "share of entries from runs " + s.runShare());
    }

    @Test
    void runsThatCostStepAsideLongerAfterEachLoss() {
        Scan s = new Scan();
        s.run = 120;
        long aside = PrefetchPolicy.ASIDE_MIN;
        long entries = PrefetchPolicy.START_AFTER;
        int losses = 0;
        // predict how many trials fit in the scan from the policy's own constants
        while (entries < 2_000_000) {
            entries += PrefetchPolicy.TRIAL + 2L * PrefetchPolicy.TRIAL + aside; // trial's direct, its runs (at most), the stretch aside
            aside = Math.min(PrefetchPolicy.ASIDE_MAX, aside * 2);
            losses++;
        }
        s.entries(2_000_000);
        assertEquals(0, s.policy.trialsWon());
        assertTrue(s.policy.trialsLost() >= losses - 1 && s.policy.trialsLost() <= losses + 1,
                "lost " + s.policy.trialsLost() + ", predicted about " + losses);
        // what the losing runs cost: their entries are a small share of the scan
        assertTrue(s.runShare() < 0.01, "share of entries from runs " + s.runShare());
    }

    @Test
    void equalCostIsALoss() {
        Scan s = new Scan();
        s.entries(100_000);
        assertEquals(0, s.policy.trialsWon());
        assertTrue(s.policy.trialsLost() >= 1);
    }

    @Test
    void aWinAfterLossesStartsTheStepAsideOver() {
        Scan s = new Scan();
        s.run = 150;
        s.entries(200_000);
        long lost = s.policy.trialsLost();
        assertTrue(lost >= 3, "lost " + lost);
        s.run = 50;
        s.entries(1_200_000); // longer than the longest stretch aside so far: a trial comes, and runs win it
        assertTrue(s.policy.trialsWon() >= 1);
        s.run = 150;
        long before = s.servedDirect + s.servedFromRuns;
        long lostBefore = s.policy.trialsLost();
        s.entries(PrefetchPolicy.KEEP + 3L * PrefetchPolicy.TRIAL + PrefetchPolicy.ASIDE_MIN + 1000);
        // the runs' stretch ends, the next trial is lost, the stretch aside is the shortest again and another trial follows
        assertTrue(s.policy.trialsLost() - lostBefore >= 1, "no loss after " + (s.servedDirect + s.servedFromRuns - before));
    }

    @Test
    void noRunWithinTheFirstEntriesAfterASeek() {
        Scan s = new Scan();
        s.run = 10;
        for (int i = 0; i < 1000; i++) {
            s.seek();
            s.entries(PrefetchPolicy.START_AFTER + PrefetchPolicy.TRIAL - 1);
        }
        assertEquals(0, s.servedFromRuns);
        // a trial cut short by a seek starts over: a long scan after it still finds that runs pay
        s.seek();
        s.entries(100_000);
        assertTrue(s.policy.trialsWon() >= 1);
    }

    @Test
    void aRunThatHoldsNothingIsALoss() {
        Scan s = new Scan();
        s.run = 10;
        s.runEntries = 0;
        s.entries(PrefetchPolicy.START_AFTER + PrefetchPolicy.TRIAL + 10);
        assertEquals(1, s.policy.trialsLost());
        assertEquals(0, s.servedFromRuns);
    }

    @Test
    void theVerdictCarriesOverSeeks() {
        Scan s = new Scan();
        s.run = 60;
        s.entries(10_000);
        assertEquals(1, s.policy.trialsWon());
        s.seek();
        s.entries(PrefetchPolicy.START_AFTER);
        long fromRuns = s.servedFromRuns;
        s.entries(1000);
        // straight back to runs after the seek's first entries, without a new trial
        assertEquals(1, s.policy.trialsWon());
        assertTrue(s.servedFromRuns - fromRuns > 900, "from runs " + (s.servedFromRuns - fromRuns));
    }
}
