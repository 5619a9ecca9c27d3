package io.rocksffm.jmh.report;

import static io.rocksffm.jmh.report.Fixture.f;
import static io.rocksffm.jmh.report.Fixture.median;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonArray;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up tables ({@link Warmup#main}) on synthetic single-shot results: per fork, batches of
 * 1000 calls whose time per call falls from a start value towards a steady one. Every expected
 * cell is computed here from those times, as the class comment of {@link Warmup} defines it.
 */
class WarmupTest {
    static final int BATCH = 1000;
    static final int BATCHES = 120;
    /** Per fork: steady ns per call and how far above it the first batch starts. */
    static final double[][] FFM = {{50, 30}, {55, 40}, {48, 22}};
    static final double[][] JNI = {{60, 12}, {62, 18}, {58, 9}};

    @TempDir
    Path dir;

    /** ns per call of each batch of a fork: {@code steady * (1 + excess / (i + 1))}. */
    static double[] curve(double steady, double excess) {
        double[] ns = new double[BATCHES];
        for (int i = 0; i < BATCHES; i++) {
            ns[i] = steady * (1 + excess / (i + 1));
        }
        return ns;
    }

    static List<double[]> curves(double[][] forks) {
        return Arrays.stream(forks).map(f -> curve(f[0], f[1])).toList();
    }

    /** JMH single-shot JSON, in us/op: the time of one whole batch, in microseconds. */
    static Path write(Path file, String method, List<double[]> nsPerCall) throws IOException {
        List<double[]> us = nsPerCall.stream().map(ns -> Fixture.times(ns, BATCH / 1e3)).toList();
        JsonArray a = new JsonArray();
        a.add(Fixture.jmhResult("GetBenchmarks." + method, "ss", Map.of(), "us/op", median(us.get(0)), us));
        return Fixture.write(file, a);
    }

    static double steady(double[] ns) {
        return median(Arrays.copyOfRange(ns, ns.length - ns.length / 4, ns.length));
    }

    /** Batches until the median of the last five (fewer at the start) is within 25% of steady. */
    static int batchesToSteady(double[] ns) {
        double limit = 1.25 * steady(ns);
        int i = 0;
        while (i < ns.length && median(Arrays.copyOfRange(ns, Math.max(0, i - 4), i + 1)) > limit) {
            i++;
        }
        return Math.min(i + 1, ns.length);
    }

    static double msOfFirstBatches(double[] ns, int batches) {
        return Arrays.stream(ns, 0, batches).sum() * BATCH / 1e6;
    }

    static String cell(double v) {
        return f(v >= 100 ? "%,.0f" : "%.1f", v);
    }

    static double overForks(List<double[]> forks, ToDoubleFunction<double[]> f) {
        return median(forks.stream().mapToDouble(f).toArray());
    }

    @Test
    void tablesOfTheWarmUpCurvesAndFfmOverJniTimeRatios() throws IOException {
        List<double[]> ffm = curves(FFM);
        List<double[]> jni = curves(JNI);
        Path out = dir.resolve("warmup.md");
        Fixture.Printed printed = Fixture.printed(() -> Warmup.main(new String[] {"--out", out.toString(),
                "get FFM=" + write(dir.resolve("ffm.json"), "ffm_getArray", ffm),
                "get JNI=" + write(dir.resolve("jni.json"), "jni_getArray", jni)}));
        String md = Files.readString(out);
        assertEquals(md, printed.stdout());

        List<List<String>> curves = Fixture.rows(md, "| run | forks | calls 1-1000");
        List<List<String>> first = Fixture.rows(md, "| run | forks | first 1k");
        for (int side = 0; side < 2; side++) {
            List<double[]> forks = side == 0 ? ffm : jni;
            String label = side == 0 ? "get FFM" : "get JNI";
            double calls = overForks(forks, ns -> batchesToSteady(ns) * (double) BATCH);
            assertTrue(calls % BATCH == 0 && calls > BATCH, "data: forks reach steady after a few batches");
            assertEquals(List.of(label, "3",
                    cell(overForks(forks, ns -> ns[0])),
                    cell(overForks(forks, ns -> ns[(10_000 - 1) / BATCH])),
                    cell(overForks(forks, ns -> ns[(100_000 - 1) / BATCH])),
                    cell(overForks(forks, WarmupTest::steady)),
                    (long) calls / 1000 + "k",
                    cell(overForks(forks, ns -> msOfFirstBatches(ns, batchesToSteady(ns))))), curves.get(side));
            List<String> expected = new ArrayList<>(List.of(label, "3"));
            for (int n : new int[] {1, 10, 100}) {
                expected.add(cell(overForks(forks, ns -> msOfFirstBatches(ns, n))));
            }
            assertEquals(expected, first.get(side));
        }
        List<String> ratios = new ArrayList<>(List.of("get FFM/JNI"));
        for (int n : new int[] {1, 10, 100}) {
            ratios.add(f("%.2f", overForks(ffm, ns -> msOfFirstBatches(ns, n))
                    / overForks(jni, ns -> msOfFirstBatches(ns, n))));
        }
        assertEquals(List.of(ratios), Fixture.rows(md, "| time ratio"));
    }
}
