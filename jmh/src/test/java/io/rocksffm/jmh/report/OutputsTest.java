package io.rocksffm.jmh.report;

import static io.rocksffm.jmh.report.Fixture.f;
import static io.rocksffm.jmh.report.Fixture.ffm;
import static io.rocksffm.jmh.report.Fixture.jni;
import static io.rocksffm.jmh.report.Fixture.median;
import static io.rocksffm.jmh.report.Fixture.params;
import static io.rocksffm.jmh.report.Fixture.perRound;
import static io.rocksffm.jmh.report.Fixture.ratioCell;
import static io.rocksffm.jmh.report.Fixture.raw;
import static io.rocksffm.jmh.report.Fixture.report;
import static io.rocksffm.jmh.report.Fixture.row;
import static io.rocksffm.jmh.report.Fixture.writeRounds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocksffm.jmh.report.Fixture.Run;
import io.rocksffm.jmh.report.Rows.Target;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link Outputs} makes of the rows, through the report's entry point: the binding cost
 * table (API/raw and raw vs baseline, medians of per-round ratios with their range), slower rows
 * in bold, and the targets: met or missed per row, and their roll-up.
 */
class OutputsTest {
    static final String COST = "BindingCostBenchmarks";
    static final String GET = "GetBenchmarks";

    @TempDir
    Path dir;

    @Test
    void bindingCostRatiosAreMediansOfPerRoundRatiosWithTheirRange() throws IOException {
        Map<String, String> p = params("valueSize", "64");
        double[] api = {200_000, 260_000, 150_000};
        double[] rawGetInto = {250_000, 240_000, 220_000};
        double[] rawAutoSlots = {180_000, 250_000, 240_000};
        Run run = report(dir, null, writeRounds(dir, ffm(COST, "getInto", p, api), raw(COST, "getInto", p, rawGetInto),
                raw(COST, "getIntoAutoSlots", p, rawAutoSlots), ffm(GET, "getArray", p, api), jni(GET, "getArray", p, api)));

        assertEquals("getInto", Report.RAW_BASELINE.get(COST + ".getIntoAutoSlots"));
        Map<String, List<String>> cost = run.bindingCost();
        assertEquals(2, cost.size(), cost.keySet().toString());
        double[] apiRaw = perRound(api, rawGetInto);
        List<String> getInto = cost.get(row(COST, "getInto", p));
        assertEquals(ratioCell(median(apiRaw), apiRaw), getInto.get(4), "API/raw");
        assertEquals("", getInto.get(5), "not an alternative C call");
        double[] vsBase = perRound(rawAutoSlots, rawGetInto);
        List<String> autoSlots = cost.get(row(COST, "getIntoAutoSlots", p));
        assertEquals("", autoSlots.get(4), "no API side");
        assertEquals(ratioCell(median(vsBase), vsBase) + " vs raw getInto", autoSlots.get(5));
        assertEquals(List.of(row(GET, "getArray", p)), List.copyOf(run.results().keySet()), "not in the results table");
        assertEquals(List.of(row(GET, "getArray", p)), List.copyOf(run.csv().keySet()), "not in summary.csv");
    }

    @Test
    void slowerRowsAreInBoldAndTargetsAreMetFromTheirMinimumOn() throws IOException {
        Target target = Rows.TARGETS.get(0);
        assertEquals("single-key get (per-call overhead)", target.name());
        Map<String, String> fast = params("keyOrder", "single", "keySize", "12");
        Map<String, String> atTarget = params("keyOrder", "single", "keySize", "16");
        Map<String, String> slow = params("keyOrder", "single", "keySize", "20");
        Map<String, String> noJni = params("keyOrder", "single", "keySize", "24");
        double[] jni = {100_000, 120_000, 130_000};
        Map<Map<String, String>, double[]> ffm = Map.of(
                fast, new double[] {300_000, 310_000, 280_000},
                atTarget, new double[] {150_000, target.min() * jni[1], 300_000},
                slow, new double[] {90_000, 96_000, 91_000});
        Run run = report(dir, null, writeRounds(dir,
                ffm(GET, "getArray", fast, ffm.get(fast)), jni(GET, "getArray", fast, jni),
                ffm(GET, "getArray", atTarget, ffm.get(atTarget)), jni(GET, "getArray", atTarget, jni),
                ffm(GET, "getArray", slow, ffm.get(slow)), jni(GET, "getArray", slow, jni),
                ffm(GET, "getArray", noJni, jni)));

        Map<String, List<String>> md = run.results();
        double[] medians = new double[ffm.size()];
        int i = 0;
        for (Map.Entry<Map<String, String>, double[]> e : ffm.entrySet()) {
            double[] ratios = perRound(e.getValue(), jni);
            double ratio = medians[i++] = median(ratios);
            String cell = ratioCell(ratio, ratios);
            List<String> cells = md.get(row(GET, "getArray", e.getKey()));
            assertEquals(ratio < 1 ? cell.replaceFirst("^(\\S+)", "**$1**") : cell, cells.get(4));
            assertEquals((ratio >= target.min() ? "met" : "**missed**") + " (>= " + target.min() + ")", cells.get(8));
        }
        assertEquals(target.min(), median(perRound(ffm.get(atTarget), jni)), "data: one row exactly at the target");
        assertEquals(">= " + target.min(), md.get(row(GET, "getArray", noJni)).get(8), "no ratio: the target alone");

        long met = Arrays.stream(medians).filter(x -> x >= target.min()).count();
        List<String> rollUp = Fixture.table(run.file("summary.md"), "## Targets").get(target.name() + " " + target.min());
        assertEquals(List.of(String.valueOf(medians.length), met + "/" + medians.length,
                f("%.2f", Fixture.min(medians)), f("%.2f", Fixture.max(medians))), rollUp.subList(2, 6));
        assertTrue(met > 0 && met < medians.length, "data: both met and missed");
    }
}
