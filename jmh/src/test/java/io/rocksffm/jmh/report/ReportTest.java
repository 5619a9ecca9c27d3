package io.rocksffm.jmh.report;

import static io.rocksffm.jmh.report.Fixture.cFile;
import static io.rocksffm.jmh.report.Fixture.cLine;
import static io.rocksffm.jmh.report.Fixture.cLines;
import static io.rocksffm.jmh.report.Fixture.f;
import static io.rocksffm.jmh.report.Fixture.ffm;
import static io.rocksffm.jmh.report.Fixture.jni;
import static io.rocksffm.jmh.report.Fixture.median;
import static io.rocksffm.jmh.report.Fixture.params;
import static io.rocksffm.jmh.report.Fixture.perRound;
import static io.rocksffm.jmh.report.Fixture.ratioCell;
import static io.rocksffm.jmh.report.Fixture.report;
import static io.rocksffm.jmh.report.Fixture.row;
import static io.rocksffm.jmh.report.Fixture.writeRounds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;

import io.rocksffm.jmh.report.Fixture.Run;
import io.rocksffm.jmh.report.Fixture.Series;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report end to end ({@link Report#main} on JMH JSON files and C-loop lines): how it merges
 * rounds, pairs FFM with JNI results and C runs with rows, and the ratios it prints in
 * summary.md, summary.csv and summary.txt. Expected values come from the synthetic scores through
 * {@link Fixture}'s own median; where a test relies on its data telling two computations apart, it
 * says so with an assertion on the data.
 */
class ReportTest {
    static final String GET = "GetBenchmarks";
    static final Map<String, String> RANDOM = params("keyCount", "1000", "keyOrder", "random", "keySize", "12",
            "valueSize", "64");
    static final Map<String, String> SINGLE = params("keyCount", "1000", "keyOrder", "single", "keySize", "12",
            "valueSize", "64");

    // Three rounds of one pair and its C loop; per round FFM/JNI 1.2, 2.5, 0.9375, C/JNI 3.3, 3.125, 2.5.
    static final double[] FFM = {120_000, 200_000, 150_000};
    static final double[] JNI = {100_000, 80_000, 160_000};
    static final double[] C = {330_000, 250_000, 400_000};

    @TempDir
    Path dir;

    @Test
    void ffmOverJniIsTheMedianOfThePerRoundRatiosWithTheirRange() throws IOException {
        Run run = report(dir, null, writeRounds(dir, ffm(GET, "getArray", RANDOM, FFM), jni(GET, "getArray", RANDOM, JNI)));

        double[] ratios = perRound(FFM, JNI);
        double ratio = median(ratios);
        assertNotEquals(f("%.2f", median(FFM) / median(JNI)), f("%.2f", ratio), "data: medians' ratio differs");
        List<String> md = run.results().get(row(GET, "getArray", RANDOM));
        assertEquals(ratioCell(ratio, ratios), md.get(4));
        List<String> csv = run.csv().get(row(GET, "getArray", RANDOM));
        assertEquals(f("%.1f", median(FFM)), csv.get(2), "FFM score: median of rounds");
        assertEquals(f("%.1f", median(JNI)), csv.get(3), "JNI score: median of rounds");
        assertEquals(f("%.3f", ratio), csv.get(4));
        assertTrue(run.file("summary.txt").lines().anyMatch(l -> l.startsWith("Get getArray ")
                && l.contains("  " + ratioCell(ratio, ratios))), run.file("summary.txt"));
        assertTrue(run.file("summary.md").contains("Each pair ran in 3 rounds"));
    }

    @Test
    void cOverJniAndFfmOverCAreMediansOfPerRoundRatiosWithEachCRunPairedToItsRound() throws IOException {
        Run run = report(dir, cFile(dir, cLines(GET, "getArray", RANDOM, C)),
                writeRounds(dir, ffm(GET, "getArray", RANDOM, FFM), jni(GET, "getArray", RANDOM, JNI)));

        double cOverJni = median(perRound(C, JNI));
        double ffmOverC = median(perRound(FFM, C));
        double[] reversed = {C[2], C[1], C[0]};
        double[] rotated = {C[1], C[2], C[0]};
        for (double[] other : List.of(reversed, rotated)) {
            assertNotEquals(f("%.2f", ffmOverC), f("%.2f", median(perRound(FFM, other))), "data: pairing matters");
        }
        assertNotEquals(f("%.2f", cOverJni), f("%.2f", median(perRound(rotated, JNI))), "data: pairing matters");
        assertNotEquals(f("%.2f", cOverJni), f("%.2f", median(C) / median(JNI)), "data: medians' ratio differs");
        assertNotEquals(f("%.2f", ffmOverC), f("%.2f", median(FFM) / median(C)), "data: medians' ratio differs");

        List<String> md = run.results().get(row(GET, "getArray", RANDOM));
        assertEquals(f("%,.0f", median(C)), md.get(5), "C ops/s: median of the C runs");
        assertEquals(f("%.2f", cOverJni), md.get(6), "C/JNI");
        assertEquals(f("%.2f", ffmOverC), md.get(7), "FFM/C");
        assertEquals(f("%.1f", median(C)), run.csv().get(row(GET, "getArray", RANDOM)).get(5));
        assertTrue(run.file("summary.txt").lines().anyMatch(l -> l.startsWith("Get getArray ")
                && l.matches(".* " + f("%.2f", cOverJni) + " +" + f("%.2f", ffmOverC))), run.file("summary.txt"));
        assertEquals("", run.stderr(), "as many C runs as rounds: no warning");
    }

    @Test
    void rowsWithoutACLoopShowNoCColumns() throws IOException {
        Run run = report(dir, cFile(dir, cLines(GET, "getArray", RANDOM, C)), writeRounds(dir,
                ffm(GET, "getArray", RANDOM, FFM), jni(GET, "getArray", RANDOM, JNI),
                ffm(GET, "getArray", SINGLE, FFM), jni(GET, "getArray", SINGLE, JNI),
                ffm(GET, "multiGet", RANDOM, FFM), jni(GET, "multiGet", RANDOM, JNI)));

        String ratio = ratioCell(median(perRound(FFM, JNI)), perRound(FFM, JNI));
        for (Map.Entry<String, Map<String, String>> noC : Map.of("getArray", SINGLE, "multiGet", RANDOM).entrySet()) {
            String key = row(GET, noC.getKey(), noC.getValue());
            List<String> md = run.results().get(key);
            assertEquals(ratio, md.get(4), key);
            assertEquals(List.of("", "", ""), md.subList(5, 8), key + ": C ops/s, C/JNI, FFM/C");
            assertEquals("", run.csv().get(key).get(5), key + ": c_ops_per_s");
        }
        assertFalse(run.results().get(row(GET, "getArray", RANDOM)).get(5).isEmpty(), "the row with a C loop");
        // summary.txt: the last columns of a row without C are empty, so its line ends at FFM/JNI
        assertEquals(2, run.file("summary.txt").lines().filter(l -> l.endsWith("  " + ratio)).count(),
                run.file("summary.txt"));
    }

    @Test
    void aCRunJoinsTheRowsOfItsClassAndVariantThatHaveAllOfItsParameters() throws IOException {
        double[] single = {500_000, 520_000, 480_000};
        double[] other = {900_000, 910_000, 920_000};
        Map<String, String> cRandom = params("keyOrder", "random", "keySize", "12", "valueSize", "64");
        Map<String, String> cSingle = params("keyOrder", "single", "keySize", "12", "valueSize", "64");
        List<String> lines = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            lines.add(cLine(GET, "getArray", cRandom, C[round]));
            lines.add(cLine(GET, "getArray", cSingle, single[round]));
            // no row has these parameters, or this variant
            lines.add(cLine(GET, "getArray", params("keySize", "12", "valueSize", "4096"), other[round]));
            lines.add(cLine(GET, "getPinned", cRandom, other[round]));
        }
        lines.add("# a comment");
        lines.add("GetBenchmarks,getArray,not a C line");
        Run run = report(dir, cFile(dir, lines), writeRounds(dir,
                ffm(GET, "getArray", RANDOM, FFM), jni(GET, "getArray", RANDOM, JNI),
                ffm(GET, "getArray", SINGLE, FFM), jni(GET, "getArray", SINGLE, JNI)));

        assertTrue(cRandom.size() < RANDOM.size(), "data: the C lines lack keyCount, which the rows have");
        Map<String, List<String>> md = run.results();
        assertEquals(f("%,.0f", median(C)), md.get(row(GET, "getArray", RANDOM)).get(5));
        assertEquals(f("%.2f", median(perRound(C, JNI))), md.get(row(GET, "getArray", RANDOM)).get(6));
        assertEquals(f("%,.0f", median(single)), md.get(row(GET, "getArray", SINGLE)).get(5));
        assertEquals(f("%.2f", median(perRound(FFM, single))), md.get(row(GET, "getArray", SINGLE)).get(7));
        assertEquals(2, md.size(), "C lines make no rows of their own");
        assertEquals("report: ignoring C result line: GetBenchmarks,getArray,not a C line", run.stderr().strip());
    }

    @Test
    void aParameterOnlyTheFfmSideHasPairsEachValueWithTheOneJniResult() throws IOException {
        String it = "IteratorBenchmarks";
        Map<String, String> shared = params("keyCount", "1000", "valueSize", "64");
        Map<String, String> pf0 = params("keyCount", "1000", "prefetch", "0", "valueSize", "64");
        Map<String, String> pf64 = params("keyCount", "1000", "prefetch", "65536", "valueSize", "64");
        double[] ffm64 = {300_000, 260_000, 170_000};
        Run run = report(dir, cFile(dir, cLines(it, "scan", shared, C)), writeRounds(dir,
                ffm(it, "scan", pf0, FFM), ffm(it, "scan", pf64, ffm64), jni(it, "scan", shared, JNI)));

        Map<String, List<String>> md = run.results();
        assertEquals(2, md.size(), "one row per prefetch value, none for the JNI result alone: " + md.keySet());
        for (Map.Entry<Map<String, String>, double[]> e : Map.of(pf0, FFM, pf64, ffm64).entrySet()) {
            List<String> cells = md.get(row(it, "scan", e.getKey()));
            assertTrue(cells.get(3).startsWith(f("%,.0f", median(JNI)) + " ±"), "JNI: the one result without prefetch");
            assertEquals(ratioCell(median(perRound(e.getValue(), JNI)), perRound(e.getValue(), JNI)), cells.get(4));
            assertEquals(f("%.2f", median(perRound(C, JNI))), cells.get(6), "the C line (no prefetch) joins every value");
            assertEquals(f("%.2f", median(perRound(e.getValue(), C))), cells.get(7));
        }
    }

    @Test
    void warnsWhenTheCRunsAreNotOnePerRoundAndThenComparesMedians() throws IOException {
        String put = "PutBenchmarks";
        Map<String, String> p = params("keySize", "16", "valueSize", "64");
        double[] twoRuns = {330_000, 250_000};
        List<String> lines = new ArrayList<>(cLines(put, "putArray", p, twoRuns));
        lines.addAll(cLines(GET, "getArray", RANDOM, C));
        Run run = report(dir, cFile(dir, lines), writeRounds(dir, ffm(put, "putArray", p, FFM),
                jni(put, "putArray", p, JNI), ffm(GET, "getArray", RANDOM, FFM), jni(GET, "getArray", RANDOM, JNI)));

        assertTrue(run.stderr().contains("report: PutBenchmarks.putArray keySize=16 valueSize=64: 2 C runs for 3 rounds"),
                run.stderr());
        assertFalse(run.stderr().contains("GetBenchmarks"), "3 C runs for 3 rounds: no warning\n" + run.stderr());
        List<String> md = run.results().get(row(put, "putArray", p));
        assertEquals(f("%.2f", median(twoRuns) / median(JNI)), md.get(6), "C/JNI: ratio of the medians");
        assertEquals(f("%.2f", median(FFM) / median(twoRuns)), md.get(7), "FFM/C: ratio of the medians");
    }

    @Test
    void oneRoundComparesTheScoresThemselves() throws IOException {
        double[] ffm = {123_456};
        double[] jni = {98_765};
        double[] c = {150_000};
        Run run = report(dir, cFile(dir, cLines(GET, "getArray", RANDOM, c)),
                writeRounds(dir, ffm(GET, "getArray", RANDOM, ffm), jni(GET, "getArray", RANDOM, jni)));

        List<String> md = run.results().get(row(GET, "getArray", RANDOM));
        assertEquals(f("%.2f", ffm[0] / jni[0]), md.get(4), "no range with one round");
        assertEquals(f("%.2f", c[0] / jni[0]), md.get(6));
        assertEquals(f("%.2f", ffm[0] / c[0]), md.get(7));
        assertEquals(f("%.3f", ffm[0] / jni[0]), run.csv().get(row(GET, "getArray", RANDOM)).get(4));
        assertFalse(run.file("summary.md").contains("Each pair ran in"));
    }

    @Test
    void scoresInOtherThroughputUnitsAreConvertedToOpsPerSecond() throws IOException {
        double[] ffmPerMs = {120, 200, 150};
        double[] jniPerUs = {0.1, 0.08, 0.16};
        Run run = report(dir, cFile(dir, cLines(GET, "getArray", RANDOM, C)), writeRounds(dir,
                new Series(GET, "ffm_getArray", RANDOM, "ops/ms", ffmPerMs),
                new Series(GET, "jni_getArray", RANDOM, "ops/us", jniPerUs)));

        double[] ffm = Fixture.times(ffmPerMs, 1e3);
        double[] jni = Fixture.times(jniPerUs, 1e6);
        List<String> csv = run.csv().get(row(GET, "getArray", RANDOM));
        assertEquals(f("%.1f", median(ffm)), csv.get(2));
        assertEquals(f("%.1f", median(jni)), csv.get(3));
        List<String> md = run.results().get(row(GET, "getArray", RANDOM));
        assertEquals(ratioCell(median(perRound(ffm, jni)), perRound(ffm, jni)), md.get(4));
        assertEquals(f("%.2f", median(perRound(C, jni))), md.get(6), "C runs are in ops/s");
        assertEquals(f("%.2f", median(perRound(ffm, C))), md.get(7));
    }

    @Test
    void mergesAllInputsIntoOneJmhResultAndWritesEveryFile() throws IOException {
        List<Path> inputs = new ArrayList<>(writeRounds(dir, ffm(GET, "getArray", RANDOM, FFM),
                jni(GET, "getArray", RANDOM, JNI), ffm(GET, "getArray", SINGLE, FFM)));
        inputs.add(Files.createFile(dir.resolve("empty.json"))); // a run that failed before writing
        Run run = report(dir, null, inputs);

        JsonArray merged = JsonParser.parseString(run.file("jmh-result.json")).getAsJsonArray();
        assertEquals(3 * FFM.length, merged.size());
        assertEquals("report: 2 scenarios from " + merged.size() + " results -> " + run.out(), run.stdout().strip());
        List<String> onlyFfm = run.results().get(row(GET, "getArray", SINGLE));
        assertEquals(List.of("", ""), List.of(onlyFfm.get(3), onlyFfm.get(4)), "no JNI side: no ratio");
        byte[] png = Files.readAllBytes(run.out().resolve("chart.png"));
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, Arrays.copyOf(png, 4));
        assertTrue(run.file("environment.txt").contains("runs GetBenchmarks: 1 fork, warmup 3 x 1 s"));
    }
}
