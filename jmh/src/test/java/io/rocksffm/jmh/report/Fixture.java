package io.rocksffm.jmh.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Synthetic inputs for the report tests, written as bench.sh leaves them: one JMH JSON file per
 * round (an array of results in the format JMH writes with {@code -rf json}) and the C loop's
 * {@code class,variant,params,ops_per_s} lines; a run of the report's entry point
 * ({@link Report#main}) on them, with what it printed and wrote; and the arithmetic the tests
 * compute their expected values with, written here independently of the report's.
 */
final class Fixture {
    static {
        System.setProperty("java.awt.headless", "true"); // Report draws chart.png
    }

    private static final Gson GSON = new GsonBuilder().setPrettyPrinting().create();

    private Fixture() {}

    // ---- independent arithmetic -----------------------------------------------------------------

    /** The median of {@code xs}: the middle value of a sorted copy, or the mean of the middle two. */
    static double median(double... xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int h = s.length / 2;
        return s.length % 2 == 1 ? s[h] : 0.5 * (s[h - 1] + s[h]);
    }

    /** {@code a[i] / b[i]} for each round i. */
    static double[] perRound(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("rounds differ");
        }
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] / b[i];
        }
        return r;
    }

    static double min(double[] xs) {
        return Arrays.stream(xs).min().orElseThrow();
    }

    static double max(double[] xs) {
        return Arrays.stream(xs).max().orElseThrow();
    }

    /** {@code xs} times {@code k}. */
    static double[] times(double[] xs, double k) {
        return Arrays.stream(xs).map(x -> x * k).toArray();
    }

    static String f(String format, double v) {
        return String.format(Locale.ROOT, format, v);
    }

    /** A ratio cell of the report: two decimals, then " (min-max)" of the per-round ratios if there are several. */
    static String ratioCell(double ratio, double[] rounds) {
        String s = f("%.2f", ratio);
        return rounds.length < 2 ? s : s + " (" + f("%.2f", min(rounds)) + "-" + f("%.2f", max(rounds)) + ")";
    }

    // ---- inputs -----------------------------------------------------------------------------------

    /** Parameters from alternating names and values, in the (sorted) order JMH and the report keep. */
    static Map<String, String> params(String... kv) {
        Map<String, String> m = new TreeMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** One benchmark method ({@code ffm_x}, {@code jni_x}, {@code raw_x}) at one set of parameters: its score per round. */
    record Series(String cls, String method, Map<String, String> params, String unit, double[] rounds) {}

    static Series ffm(String cls, String variant, Map<String, String> params, double... rounds) {
        return new Series(cls, "ffm_" + variant, params, "ops/s", rounds);
    }

    static Series jni(String cls, String variant, Map<String, String> params, double... rounds) {
        return new Series(cls, "jni_" + variant, params, "ops/s", rounds);
    }

    static Series raw(String cls, String variant, Map<String, String> params, double... rounds) {
        return new Series(cls, "raw_" + variant, params, "ops/s", rounds);
    }

    /** A JMH result object as {@code -rf json} writes it: {@code forks} holds each fork's measurement iterations. */
    static JsonObject jmhResult(String benchmark, String mode, Map<String, String> params, String unit, double score,
                                List<double[]> forks) {
        JsonObject o = new JsonObject();
        o.addProperty("jmhVersion", "1.37");
        o.addProperty("benchmark", "io.rocksffm.jmh." + benchmark);
        o.addProperty("mode", mode);
        o.addProperty("threads", 1);
        o.addProperty("forks", forks.size());
        o.addProperty("jvm", "/usr/lib/jvm/test/bin/java");
        JsonArray jvmArgs = new JsonArray();
        jvmArgs.add("--enable-native-access=ALL-UNNAMED");
        o.add("jvmArgs", jvmArgs);
        o.addProperty("jdkVersion", "25");
        o.addProperty("vmName", "OpenJDK 64-Bit Server VM");
        o.addProperty("vmVersion", "25+36");
        o.addProperty("warmupIterations", mode.equals("ss") ? 0 : 3);
        o.addProperty("warmupTime", "1 s");
        o.addProperty("warmupBatchSize", 1);
        o.addProperty("measurementIterations", forks.get(0).length);
        o.addProperty("measurementTime", "1 s");
        o.addProperty("measurementBatchSize", mode.equals("ss") ? 1000 : 1);
        JsonObject p = new JsonObject();
        params.forEach(p::addProperty);
        o.add("params", p);
        JsonObject metric = new JsonObject();
        metric.addProperty("score", score);
        metric.addProperty("scoreError", score * 0.05);
        JsonArray confidence = new JsonArray();
        confidence.add(score * 0.95);
        confidence.add(score * 1.05);
        metric.add("scoreConfidence", confidence);
        metric.add("scorePercentiles", new JsonObject());
        metric.addProperty("scoreUnit", unit);
        JsonArray rawData = new JsonArray();
        for (double[] fork : forks) {
            JsonArray it = new JsonArray();
            Arrays.stream(fork).forEach(it::add);
            rawData.add(it);
        }
        metric.add("rawData", rawData);
        o.add("primaryMetric", metric);
        o.add("secondaryMetrics", new JsonObject());
        return o;
    }

    /** How far the iterations of {@link #thrpt} lie from its score, relative to it. */
    private static final double SPREAD = 0.02;

    /** A throughput-mode result: one fork, iterations SPREAD below, at and above the score (their mean, as in JMH). */
    static JsonObject thrpt(Series s, double score) {
        double[] iterations = {score * (1 - SPREAD), score, score * (1 + SPREAD)};
        return jmhResult(s.cls() + "." + s.method(), "thrpt", s.params(), s.unit(), score, List.of(iterations));
    }

    /**
     * Writes the series round by round as bench.sh does: one JSON file per round holding that
     * round's result of every series, named so that the shell's glob lists them in round order.
     */
    static List<Path> writeRounds(Path dir, Series... series) throws IOException {
        int rounds = Arrays.stream(series).mapToInt(s -> s.rounds().length).max().orElse(0);
        List<Path> files = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            JsonArray a = new JsonArray();
            for (Series s : series) {
                if (r < s.rounds().length) {
                    a.add(thrpt(s, s.rounds()[r]));
                }
            }
            files.add(write(dir.resolve(String.format(Locale.ROOT, "%03d-job-r%d.json", r + 1, r + 1)), a));
        }
        return files;
    }

    static Path write(Path file, JsonArray results) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, GSON.toJson(results) + "\n");
    }

    /** One line of the C loop's output: {@code class,variant,k=v;k=v,ops_per_s}. */
    static String cLine(String cls, String variant, Map<String, String> params, double opsPerSecond) {
        StringBuilder p = new StringBuilder();
        params.forEach((k, v) -> p.append(p.isEmpty() ? "" : ";").append(k).append('=').append(v));
        return cls + "," + variant + "," + p + "," + f("%.1f", opsPerSecond);
    }

    /** The C lines of every round, in run order, one per round and C run ({@code ops[i]}). */
    static List<String> cLines(String cls, String variant, Map<String, String> params, double... ops) {
        return Arrays.stream(ops).mapToObj(x -> cLine(cls, variant, params, x)).toList();
    }

    /** c-results.csv as bench.sh writes it: its header, then the lines. */
    static Path cFile(Path dir, List<String> lines) throws IOException {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve("c-results.csv"),
                "class,variant,params,ops_per_s\n" + String.join("\n", lines) + "\n");
    }

    // ---- running the report -----------------------------------------------------------------------

    /** What one run of the report printed and wrote. */
    record Run(Path out, String stdout, String stderr) {
        String file(String name) throws IOException {
            return Files.readString(out.resolve(name));
        }

        /** summary.md's results table: the cells of each row by "benchmark params". */
        Map<String, List<String>> results() throws IOException {
            return table(file("summary.md"), "## Results");
        }

        /** summary.md's binding cost table: the cells of each row by "benchmark params". */
        Map<String, List<String>> bindingCost() throws IOException {
            return table(file("summary.md"), "## Binding cost");
        }

        /** summary.csv: the fields of each row by "benchmark params". */
        Map<String, List<String>> csv() throws IOException {
            Map<String, List<String>> rows = new LinkedHashMap<>();
            List<String> lines = file("summary.csv").lines().toList();
            for (String line : lines.subList(1, lines.size())) {
                List<String> f = List.of(line.split(",", -1));
                rows.put(f.get(0) + " " + f.get(1), f);
            }
            return rows;
        }
    }

    /** The rows of the markdown table under {@code heading}, keyed by their first two cells. */
    static Map<String, List<String>> table(String markdown, String heading) {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (List<String> cells : rows(markdown, heading)) {
            rows.put(cells.get(0) + " " + cells.get(1), cells);
        }
        return rows;
    }

    /** The cells of each row of the first markdown table after the first line starting with {@code heading}. */
    static List<List<String>> rows(String markdown, String heading) {
        List<List<String>> rows = new ArrayList<>();
        List<String> lines = markdown.lines().toList();
        int i = 0;
        while (i < lines.size() && !lines.get(i).startsWith(heading)) {
            i++;
        }
        while (i < lines.size() && !lines.get(i).startsWith("|---")) {
            i++;
        }
        for (i++; i < lines.size() && lines.get(i).startsWith("| "); i++) {
            String line = lines.get(i);
            rows.add(Arrays.stream(line.substring(1, line.length() - 1).split("\\|", -1)).map(String::strip).toList());
        }
        return rows;
    }

    /** The key of a row in {@link Run#results()} and {@link Run#csv()}: "Class.variant k=v k=v". */
    static String row(String cls, String variant, Map<String, String> params) {
        StringBuilder b = new StringBuilder(cls).append('.').append(variant).append(' ');
        params.forEach((k, v) -> b.append(k).append('=').append(v).append(' '));
        return b.toString().strip();
    }

    /** Runs {@code Report --out DIR/out [--c cFile] inputs...}, capturing what it prints. */
    static Run report(Path dir, Path cFile, List<Path> inputs) throws IOException {
        List<String> args = new ArrayList<>(List.of("--out", dir.resolve("out").toString(), "--title", "test"));
        if (cFile != null) {
            args.addAll(List.of("--c", cFile.toString()));
        }
        inputs.forEach(p -> args.add(p.toString()));
        Printed p = printed(() -> Report.main(args.toArray(String[]::new)));
        return new Run(dir.resolve("out"), p.stdout(), p.stderr());
    }

    interface Action {
        void run() throws IOException;
    }

    record Printed(String stdout, String stderr) {}

    /** Runs {@code a}, capturing what it prints to System.out and System.err. */
    static Printed printed(Action a) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            a.run();
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new Printed(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
