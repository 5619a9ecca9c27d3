package io.rocksffm.jmh.report;

import static io.rocksffm.jmh.report.Fixture.perRound;
import static io.rocksffm.jmh.report.Fixture.printed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocksffm.jmh.report.Rows.Result;
import io.rocksffm.jmh.report.Rows.Row;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The arithmetic of a row ({@link Rows.Row}, {@link Rows.Result}, {@link Rows#median}) on rows
 * built directly: what the report prints is tested through its entry point in {@link ReportTest};
 * here the cases the printed two decimals would hide.
 */
class RowsTest {
    static final double EPS = 1e-12;

    static Result result(String binding, double... rounds) {
        return new Result("GetBenchmarks", binding, "getArray", Map.of(), Fixture.median(rounds), boxed(rounds),
                boxed(rounds));
    }

    static List<Double> boxed(double... xs) {
        return Arrays.stream(xs).boxed().toList();
    }

    static Row row(double[] ffm, double[] jni, double[] c) {
        Row r = new Row("GetBenchmarks", "getArray", Map.of());
        r.ffm = ffm == null ? null : result("ffm", ffm);
        r.jni = jni == null ? null : result("jni", jni);
        if (c != null) {
            r.c = Fixture.median(c);
            r.cRounds = boxed(c);
        }
        return r;
    }

    @Test
    void medianOfOddAndEvenCountsLeavesItsInputAlone() {
        for (double[] xs : List.of(new double[] {3, 1, 2}, new double[] {5, 1, 4, 2}, new double[] {7},
                new double[] {2.5, -1, 10, 10, 0.25, 3})) {
            List<Double> in = new ArrayList<>(boxed(xs));
            assertEquals(Fixture.median(xs), Rows.median(in), EPS, Arrays.toString(xs));
            assertEquals(boxed(xs), in, "input order kept");
        }
    }

    @Test
    void ratioIsTheMedianOfThePerRoundRatios() {
        double[] ffm = {100, 340, 210, 90};
        double[] jni = {80, 200, 190, 100};
        Row r = row(ffm, jni, null);

        double[] ratios = perRound(ffm, jni);
        assertEquals(boxed(ratios), r.roundRatios());
        assertEquals(Fixture.median(ratios), r.ratio(), EPS);
        assertNotEquals(Fixture.median(ffm) / Fixture.median(jni), r.ratio(), 1e-3, "data: medians' ratio differs");
    }

    @Test
    void sidesWithDifferentRoundCountsCompareTheirMedians() {
        double[] ffm = {100, 340, 210};
        double[] jni = {80, 200};
        Row r = row(ffm, jni, null);

        assertEquals(List.of(), r.roundRatios());
        assertEquals(Fixture.median(ffm) / Fixture.median(jni), r.ratio(), EPS);
    }

    @Test
    void cRatiosPairEachCRunWithItsRound() {
        double[] ffm = {100, 340, 210, 90};
        double[] jni = {80, 200, 190, 100};
        double[] c = {300, 310, 250, 260};
        Row r = row(ffm, jni, c);

        assertEquals(Fixture.median(perRound(c, jni)), r.cOverJni(), EPS);
        assertEquals(Fixture.median(perRound(ffm, c)), r.ffmOverC(), EPS);
        assertEquals(r.cOverJni(), Chart.cLimit(r), "the chart's C tick is C/JNI");
        double[] reversed = {c[3], c[2], c[1], c[0]};
        assertNotEquals(Fixture.median(perRound(reversed, jni)), r.cOverJni(), 1e-3, "data: pairing matters");
        assertNotEquals(Fixture.median(perRound(ffm, reversed)), r.ffmOverC(), 1e-3, "data: pairing matters");
    }

    @Test
    void oneCRunForSeveralRoundsComparesMediansWithoutAWarning() throws IOException {
        double[] ffm = {100, 340, 210};
        double[] jni = {80, 200, 190};
        double[] c = {300};
        Row r = row(ffm, jni, c);

        String err = printed(() -> {
            assertEquals(c[0] / Fixture.median(jni), r.cOverJni(), EPS);
            assertEquals(Fixture.median(ffm) / c[0], r.ffmOverC(), EPS);
        }).stderr();
        assertEquals("", err);
    }

    @Test
    void severalCRunsButNotOnePerRoundCompareMediansWithAWarning() throws IOException {
        double[] ffm = {100, 340, 210};
        double[] jni = {80, 200, 190};
        double[] c = {300, 260, 280, 310};
        Row r = row(ffm, jni, c);

        String err = printed(() -> assertEquals(Fixture.median(c) / Fixture.median(jni), r.cOverJni(), EPS)).stderr();
        assertTrue(err.contains(": 4 C runs for 3 rounds: its C ratios are ratios of medians"), err);
        err = printed(() -> assertEquals(Fixture.median(ffm) / Fixture.median(c), r.ffmOverC(), EPS)).stderr();
        assertTrue(err.contains(": 4 C runs for 3 rounds"), err);
    }

    @Test
    void aMissingSideOrCLoopHasNoRatio() {
        double[] x = {100, 200};
        assertNull(row(x, null, x).ratio());
        assertNull(row(x, null, x).cOverJni());
        assertNull(row(null, x, x).ffmOverC());
        assertNull(row(x, x, null).cOverJni());
        assertNull(row(x, x, null).ffmOverC());
        assertEquals(List.of(), row(x, null, null).roundRatios());
    }

    @Test
    void rsdIsTheSampleStandardDeviationOverTheMean() {
        double[] it = {90, 100, 125, 85};
        Result r = new Result("GetBenchmarks", "ffm", "getArray", Map.of(), 100, List.of(100.0), boxed(it));

        double mean = Arrays.stream(it).sum() / it.length;
        double var = Arrays.stream(it).map(x -> (x - mean) * (x - mean)).sum() / (it.length - 1);
        assertEquals(Math.sqrt(var) / mean, r.rsd(), EPS);
        assertTrue(Double.isNaN(new Result("c", "ffm", "v", Map.of(), 1, List.of(1.0), List.of(1.0)).rsd()));
    }

    @Test
    void scoresOfRoundsMergeToTheirMedianInRunOrder() {
        double[] rounds = {100, 340, 210, 90};
        List<Result> results = new ArrayList<>();
        for (double x : rounds) {
            results.add(new Result("GetBenchmarks", "ffm", "getArray", Map.of("keySize", "12"), x, List.of(x),
                    List.of(x, x)));
        }
        results.add(new Result("GetBenchmarks", "ffm", "getArray", Map.of("keySize", "16"), 5, List.of(5.0),
                List.of(5.0)));

        List<Result> merged = Report.mergeRounds(results);
        assertEquals(2, merged.size());
        assertEquals(Fixture.median(rounds), merged.get(0).score(), EPS);
        assertEquals(boxed(rounds), merged.get(0).rounds());
        assertEquals(2 * rounds.length, merged.get(0).iterations().size());
        assertEquals(5, merged.get(1).score(), EPS);
    }
}
