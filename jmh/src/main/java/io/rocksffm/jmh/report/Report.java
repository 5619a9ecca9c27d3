package io.rocksffm.jmh.report;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.text.DecimalFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.CategoryItemLabelGenerator;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.CategoryDataset;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * Turns JMH JSON results (and the C loop's results) into the comparison report.
 *
 * <p>Pairing is mechanical: a result of {@code <Class>.ffm_<variant>} pairs with
 * {@code <Class>.jni_<variant>} with the same parameters; the row is the scenario
 * {@code <Class>.<variant>} with those parameters, and {@code ratio = ffm / jni} (throughput, so
 * above 1 means rocksffm is faster). The one exception is a parameter only the FFM side has
 * ({@link #FFM_ONLY}: the iterator's {@code prefetch}): the JNI result with the other parameters
 * pairs with the FFM results for every value of it. A C result ({@code class,variant,params,ops_per_s}, with
 * {@code params} as {@code k=v;k=v}) joins every row of that class and variant whose parameters
 * include all of its own.
 *
 * <p>A third side, {@code <Class>.raw_<variant>} (BindingCostBenchmarks: the C calls rocksffm
 * makes, made through bare FFM downcalls), joins the row of the same scenario; such rows go to
 * their own table, "Binding cost" (API/raw = ffm / raw), not to the FFM/JNI table, csv or chart.
 * A raw variant with no API side compares with the raw side of its baseline ({@link #RAW_BASELINE}).
 *
 * <p>Rounds: results of the same benchmark at the same parameters (bench.sh {@code --rounds N}
 * runs every pair N times, alternating) merge into one whose score is the median; the ratio is
 * then the median of the per-round ratios, and C results likewise merge to their median.
 *
 * <p>Usage: {@code Report --out DIR [--env FILE] [--c FILE] [--title TEXT] result.json...}. Writes
 * {@code jmh-result.json} (all inputs merged), {@code summary.csv}, {@code summary.md},
 * {@code summary.txt} (the table as plain text, for a terminal), {@code chart.png} and
 * {@code environment.txt} into DIR.
 */
public final class Report {
    /** Parameters only the rocksffm side has, per benchmark class: ignored when pairing. */
    static final Map<String, Set<String>> FFM_ONLY = Map.of("IteratorBenchmarks", Set.of("prefetch"));

    static final List<String> CLASS_ORDER = List.of("GetBenchmarks", "PutBenchmarks", "WriteBatchBenchmarks",
            "IteratorBenchmarks", "MultiGetBenchmarks", "ConcurrencyBenchmarks");

    /**
     * Raw variants that are alternatives to another variant's C calls (same class): the binding
     * cost table shows raw / raw of the baseline, to tell whether rocksffm should switch.
     */
    static final Map<String, String> RAW_BASELINE = Map.of(
            "BindingCostBenchmarks.getIntoAutoSlots", "getInto",
            "BindingCostBenchmarks.getPinnedV2", "getPinned",
            "BindingCostBenchmarks.multiGetSlice", "multiGet");

    /** Variants in display order, with what each side calls. */
    static final Map<String, String[]> VARIANTS = new LinkedHashMap<>();

    static {
        v("GetBenchmarks.getArray", "db.get(byte[]) -> new byte[]", "db.get(byte[]) -> new byte[]");
        v("GetBenchmarks.getIntoArray", "db.get(ro, ofArray(key), ofArray(buf)) into preallocated byte[]",
                "db.get(ro, byte[], byte[]) into preallocated byte[]");
        v("GetBenchmarks.getPreallocated", "db.get(ro, MemorySegment, MemorySegment), native segments",
                "db.get(ro, ByteBuffer, ByteBuffer), direct buffers");
        v("GetBenchmarks.getPinned", "db.getPinned(ro, key): zero-copy view, closed each op",
                "no zero-copy read: same call as getPreallocated (direct buffers)");
        v("PutBenchmarks.putArray", "db.put(byte[], byte[])", "db.put(byte[], byte[])");
        v("PutBenchmarks.putDirect", "db.put(wo, MemorySegment.ofBuffer(direct), MemorySegment.ofBuffer(direct))",
                "db.put(wo, ByteBuffer, ByteBuffer), direct");
        v("PutBenchmarks.putSegment", "db.put(wo, MemorySegment, MemorySegment), native",
                "db.put(wo, seg.asByteBuffer(), seg.asByteBuffer())");
        v("WriteBatchBenchmarks.putBatchArray", "Java-built WriteBatch.put(byte[], byte[]); db.write",
                "WriteBatch.put(byte[], byte[]); db.write");
        v("WriteBatchBenchmarks.putBatchNative", "Java-built WriteBatch.put(MemorySegment, MemorySegment); db.write",
                "WriteBatch.put(ByteBuffer, ByteBuffer), direct; db.write");
        v("IteratorBenchmarks.scan", "full scan, key() + value() zero-copy views", "full scan, key() + value() new byte[]");
        v("IteratorBenchmarks.keyScan", "full scan, key() view", "full scan, key() new byte[]");
        v("IteratorBenchmarks.valueScan", "full scan, value() view", "full scan, value() new byte[]");
        v("IteratorBenchmarks.scanCopy", "full scan, key(seg) + value(seg) copies into native segments",
                "full scan, key(ByteBuffer) + value(ByteBuffer) copies into direct buffers");
        v("IteratorBenchmarks.seekScan", "seek(MemorySegment) to a random key + 100 entries as views",
                "seek(byte[]) to a random key + 100 entries as byte[]");
        v("MultiGetBenchmarks.multiGetList", "db.multiGetAsList(List<byte[]>)", "db.multiGetAsList(List<byte[]>)");
        v("MultiGetBenchmarks.multiGetBuffers", "db.multiGet(cf, ro, MemorySegment[] keys, MemorySegment[] values, ...)",
                "db.multiGetByteBuffers(ro, keys, values), direct buffers");
        v("MultiGetBenchmarks.singleGets", "batchSize x db.get(ro, MemorySegment, MemorySegment)",
                "batchSize x db.get(ro, ByteBuffer, ByteBuffer)");
        for (String op : List.of("get", "put")) {
            String call = op.equals("get") ? "db.get(byte[])" : "db.put(byte[], byte[])";
            v("ConcurrencyBenchmarks." + op + "1", call + ", 1 platform thread", call + ", 1 platform thread");
            v("ConcurrencyBenchmarks." + op + "8", call + ", 8 platform threads, one database", call + ", 8 platform threads, one database");
            v("ConcurrencyBenchmarks." + op + "Virtual", call + ", one virtual thread per op (10,000 per invocation)",
                    call + ", one virtual thread per op (10,000 per invocation)");
        }
    }

    private static void v(String name, String ffm, String jni) {
        VARIANTS.put(name, new String[] {ffm, jni});
    }

    /** The goals set for rocksffm (issue 4); a row counts under the first target that covers it. */
    record Target(String name, double min, Predicate<Row> covers) {}

    static final List<Target> TARGETS = List.of(
            new Target("single-key get (per-call overhead)", 2.0,
                    r -> r.cls.equals("GetBenchmarks") && "single".equals(r.params.get("keyOrder"))),
            new Target("values >= 4 KiB", 1.0, r -> r.intParam("valueSize") >= 4096),
            new Target("get, small values", 1.1, r -> r.cls.equals("GetBenchmarks")),
            new Target("batch build, 1000 ops", 5.0, r -> r.cls.equals("WriteBatchBenchmarks")
                    && r.intParam("numOpsPerBatch") == 1000 && "false".equals(r.params.get("writeToDB"))),
            new Target("batch write", 1.25, r -> r.cls.equals("WriteBatchBenchmarks")
                    && "true".equals(r.params.get("writeToDB"))),
            new Target("full scan, zero-copy", 2.0, r -> r.cls.equals("IteratorBenchmarks")
                    && Set.of("scan", "keyScan", "valueScan").contains(r.variant)),
            new Target("scan, copies", 1.5, r -> r.cls.equals("IteratorBenchmarks") && r.variant.equals("scanCopy")),
            new Target("multiGet of 100 keys", 1.3, r -> r.cls.equals("MultiGetBenchmarks")
                    && !r.variant.equals("singleGets") && r.intParam("batchSize") == 100),
            new Target("8 threads, a virtual thread per op", 1.0, r -> r.cls.equals("ConcurrencyBenchmarks")
                    && !r.variant.endsWith("1")));

    /**
     * One benchmark at one set of parameters: its score (ops/s; with several rounds, the median of
     * the rounds' JMH scores), the scores of the rounds in run order, and the scores of all their
     * measurement iterations (any unit: only their spread is used).
     */
    record Result(String cls, String binding, String variant, Map<String, String> params, double score,
                  List<Double> rounds, List<Double> iterations) {

        /** Relative sample standard deviation of the measurement iterations (NaN with fewer than two). */
        double rsd() {
            if (iterations.size() < 2) {
                return Double.NaN;
            }
            double mean = iterations.stream().mapToDouble(x -> x).average().orElse(0);
            double ss = iterations.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
            return mean == 0 ? Double.NaN : Math.sqrt(ss / (iterations.size() - 1)) / mean;
        }
    }

    /** One scenario: both sides (either may be missing) and the C loop where measured. */
    static final class Row {
        final String cls;
        final String variant;
        final Map<String, String> params;
        Result ffm;
        Result jni;
        Result raw;
        /** The C loop's throughput: the median of its runs (or null). */
        Double c;
        /** The C loop's runs in run order: one per round when bench.sh ran it right after this pair. */
        List<Double> cRounds = List.of();

        Row(String cls, String variant, Map<String, String> params) {
            this.cls = cls;
            this.variant = variant;
            this.params = params;
        }

        String benchmark() {
            return cls + "." + variant;
        }

        String paramString() {
            StringBuilder b = new StringBuilder();
            params.forEach((k, v) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(v));
            return b.toString();
        }

        /**
         * FFM / JNI. With several rounds on both sides, the median of the per-round ratios: each
         * round ran the two sides minutes apart, so this cancels most of the machine's drift.
         */
        Double ratio() {
            List<Double> r = roundRatios();
            if (r.size() > 1) {
                return median(r);
            }
            return ffm != null && jni != null && jni.score > 0 ? ffm.score / jni.score : null;
        }

        /** The ratio of each round (empty unless both sides ran the same number of rounds). */
        List<Double> roundRatios() {
            return roundRatios(ffm, jni);
        }

        /** a / b per round (empty unless both ran the same number of rounds). */
        static List<Double> roundRatios(Result a, Result b) {
            if (a == null || b == null || a.rounds.size() != b.rounds.size()) {
                return List.of();
            }
            List<Double> r = new ArrayList<>();
            for (int i = 0; i < a.rounds.size(); i++) {
                r.add(a.rounds.get(i) / b.rounds.get(i));
            }
            return r;
        }

        /**
         * FFM / C. When the C loop ran once per round (bench.sh runs it right after each pair), the
         * median of the per-round ratios, like {@link #ratio()}: each C run is paired with the FFM
         * run minutes before it, so the machine's drift cancels; else the medians' ratio.
         */
        Double ffmOverC() {
            return overC(ffm, false);
        }

        /** C / JNI, paired per round like {@link #ffmOverC()}. */
        Double cOverJni() {
            return overC(jni, true);
        }

        private Double overC(Result side, boolean inverse) {
            if (c == null || side == null || side.score <= 0) {
                return null;
            }
            if (cRounds.size() > 1 && cRounds.size() != side.rounds.size()) {
                System.err.println("report: " + benchmark() + " " + paramString() + ": " + cRounds.size()
                        + " C runs for " + side.rounds.size() + " rounds: its C ratios are ratios of medians");
            }
            if (cRounds.size() > 1 && cRounds.size() == side.rounds.size()) {
                List<Double> r = new ArrayList<>();
                for (int i = 0; i < cRounds.size(); i++) {
                    r.add(inverse ? cRounds.get(i) / side.rounds.get(i) : side.rounds.get(i) / cRounds.get(i));
                }
                return median(r);
            }
            return inverse ? c / side.score : side.score / c;
        }

        int intParam(String name) {
            String v = params.get(name);
            try {
                return v == null ? -1 : Integer.parseInt(v);
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        Target target() {
            for (Target t : TARGETS) {
                if (t.covers.test(this)) {
                    return t;
                }
            }
            return null;
        }

        String label() {
            StringBuilder b = new StringBuilder(cls.replace("Benchmarks", "")).append(' ').append(variant);
            params.forEach((k, v) -> {
                String s = switch (k) {
                    case "keyCount" -> "n=" + count(v);
                    case "keySize" -> "k=" + size(v);
                    case "valueSize" -> "v=" + size(v);
                    case "keyOrder" -> v;
                    case "numOpsPerBatch" -> v + "/batch";
                    case "writeBatchAllocation" -> "auto".equals(v) ? null : "alloc=" + size(v);
                    case "writeToDB" -> "true".equals(v) ? "+write" : "build";
                    case "prefetch" -> "pf=" + size(v);
                    default -> k + "=" + v;
                };
                if (s != null) {
                    b.append(' ').append(s);
                }
            });
            return b.toString();
        }
    }

    private static String count(String v) {
        try {
            long n = Long.parseLong(v);
            if (n >= 1_000_000 && n % 1_000_000 == 0) {
                return n / 1_000_000 + "M";
            }
            if (n >= 1000 && n % 1000 == 0) {
                return n / 1000 + "k";
            }
        } catch (NumberFormatException ignored) {
            // not a number: as is
        }
        return v;
    }

    private static String size(String v) {
        try {
            long n = Long.parseLong(v);
            if (n >= 1024 && n % 1024 == 0) {
                return n / 1024 + "K";
            }
        } catch (NumberFormatException ignored) {
            // not a number: as is
        }
        return v;
    }

    public static void main(String[] args) throws IOException {
        Path out = null;
        Path env = null;
        Path cFile = null;
        String title = "rocksffm (FFM) vs rocksdbjni (JNI)";
        List<Path> inputs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--env" -> env = Path.of(args[++i]);
                case "--c" -> cFile = Path.of(args[++i]);
                case "--title" -> title = args[++i];
                default -> inputs.add(Path.of(args[i]));
            }
        }
        if (out == null || inputs.isEmpty()) {
            System.err.println("usage: Report --out DIR [--env FILE] [--c FILE] [--title TEXT] result.json...");
            System.exit(2);
        }
        Files.createDirectories(out);

        JsonArray merged = new JsonArray();
        for (Path p : inputs) {
            if (Files.size(p) == 0) {
                continue;
            }
            try (Reader r = Files.newBufferedReader(p)) {
                JsonElement e = JsonParser.parseReader(r);
                if (e.isJsonArray()) {
                    merged.addAll(e.getAsJsonArray());
                }
            }
        }
        Gson gson = new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create();
        Files.writeString(out.resolve("jmh-result.json"), gson.toJson(merged) + "\n");

        List<Result> results = new ArrayList<>();
        for (JsonElement e : merged) {
            Result r = parse(e.getAsJsonObject());
            if (r != null) {
                results.add(r);
            }
        }
        List<Row> rows = pair(mergeRounds(results));
        if (cFile != null && Files.exists(cFile)) {
            mergeC(rows, cFile);
        }

        String environment = environment(env, merged, title);
        Files.writeString(out.resolve("environment.txt"), environment);
        Files.writeString(out.resolve("summary.csv"), csv(rows));
        Files.writeString(out.resolve("summary.md"), markdown(rows, environment, title));
        Files.writeString(out.resolve("summary.txt"), text(rows));
        chart(rows, title, out.resolve("chart.png"));
        System.out.println("report: " + rows.size() + " scenarios from " + results.size() + " results -> " + out);
    }

    // ---- parsing and pairing ------------------------------------------------------------------------

    static Result parse(JsonObject o) {
        String name = o.get("benchmark").getAsString();
        String[] parts = name.split("\\.");
        if (parts.length < 2) {
            return null;
        }
        String method = parts[parts.length - 1];
        String cls = parts[parts.length - 2];
        int us = method.indexOf('_');
        if (us < 0) {
            return null;
        }
        String binding = method.substring(0, us);
        String variant = method.substring(us + 1);
        if (!binding.equals("ffm") && !binding.equals("jni") && !binding.equals("raw")) {
            return null;
        }
        Map<String, String> params = new TreeMap<>();
        if (o.has("params")) {
            o.getAsJsonObject("params").entrySet().forEach(en -> params.put(en.getKey(), en.getValue().getAsString()));
        }
        JsonObject metric = o.getAsJsonObject("primaryMetric");
        double score = number(metric.get("score"));
        double scale = unitToPerSecond(metric.get("scoreUnit").getAsString());
        List<Double> iterations = new ArrayList<>();
        if (metric.has("rawData")) {
            for (JsonElement fork : metric.getAsJsonArray("rawData")) {
                for (JsonElement x : fork.getAsJsonArray()) {
                    iterations.add(number(x));
                }
            }
        }
        return new Result(cls, binding, variant, params, score * scale, List.of(score * scale), List.copyOf(iterations));
    }

    /**
     * Merges the results of one benchmark at one set of parameters that several rounds produced
     * (bench.sh --rounds) into one, whose score is the median of theirs; keeps the first-seen order.
     */
    static List<Result> mergeRounds(List<Result> results) {
        Map<String, List<Result>> groups = new LinkedHashMap<>();
        for (Result r : results) {
            groups.computeIfAbsent(r.binding + " " + key(r.cls, r.variant, r.params), k -> new ArrayList<>()).add(r);
        }
        List<Result> merged = new ArrayList<>();
        for (List<Result> g : groups.values()) {
            if (g.size() == 1) {
                merged.add(g.get(0));
                continue;
            }
            List<Double> rounds = new ArrayList<>();
            List<Double> iterations = new ArrayList<>();
            for (Result r : g) {
                rounds.addAll(r.rounds);
                iterations.addAll(r.iterations);
            }
            Result first = g.get(0);
            merged.add(new Result(first.cls, first.binding, first.variant, first.params, median(rounds),
                    List.copyOf(rounds), List.copyOf(iterations)));
        }
        return merged;
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static double number(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return Double.NaN;
        }
        if (e.getAsJsonPrimitive().isString()) {
            try {
                return Double.parseDouble(e.getAsString());
            } catch (NumberFormatException x) {
                return Double.NaN;
            }
        }
        return e.getAsDouble();
    }

    private static double unitToPerSecond(String unit) {
        return switch (unit) {
            case "ops/s" -> 1;
            case "ops/ms" -> 1e3;
            case "ops/us" -> 1e6;
            case "ops/ns" -> 1e9;
            case "ops/min" -> 1.0 / 60;
            default -> throw new IllegalArgumentException("unsupported score unit " + unit + " (use throughput mode)");
        };
    }

    private static String key(String cls, String variant, Map<String, String> params) {
        return cls + "." + variant + " " + params;
    }

    static List<Row> pair(List<Result> results) {
        Map<String, Result> jni = new LinkedHashMap<>();
        for (Result r : results) {
            if (r.binding.equals("jni")) {
                jni.put(key(r.cls, r.variant, r.params), r);
            }
        }
        Set<Result> usedJni = new HashSet<>();
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Result r : results) {
            if (!r.binding.equals("ffm")) {
                continue;
            }
            Row row = rows.computeIfAbsent(key(r.cls, r.variant, r.params), k -> new Row(r.cls, r.variant, r.params));
            row.ffm = r;
            Map<String, String> shared = new TreeMap<>(r.params);
            shared.keySet().removeAll(FFM_ONLY.getOrDefault(r.cls, Set.of()));
            Result partner = jni.get(key(r.cls, r.variant, shared));
            if (partner != null) {
                row.jni = partner;
                usedJni.add(partner);
            }
        }
        for (Result r : jni.values()) {
            if (!usedJni.contains(r)) {
                rows.computeIfAbsent(key(r.cls, r.variant, r.params), k -> new Row(r.cls, r.variant, r.params)).jni = r;
            }
        }
        for (Result r : results) {
            if (r.binding.equals("raw")) {
                rows.computeIfAbsent(key(r.cls, r.variant, r.params), k -> new Row(r.cls, r.variant, r.params)).raw = r;
            }
        }
        List<Row> list = new ArrayList<>(rows.values());
        List<String> variantOrder = new ArrayList<>(VARIANTS.keySet());
        list.sort(Comparator.<Row>comparingInt(r -> rank(CLASS_ORDER, r.cls))
                .thenComparingInt(r -> rank(variantOrder, r.benchmark()))
                .thenComparing(r -> r.variant)
                .thenComparing((a, b) -> compareParams(a.params, b.params)));
        return list;
    }

    private static int rank(List<String> order, String s) {
        int i = order.indexOf(s);
        return i < 0 ? order.size() : i;
    }

    private static int compareParams(Map<String, String> a, Map<String, String> b) {
        for (String k : a.keySet()) {
            String x = a.get(k);
            String y = b.get(k);
            if (y == null) {
                return 1;
            }
            int c;
            try {
                c = Double.compare(Double.parseDouble(x), Double.parseDouble(y));
            } catch (NumberFormatException e) {
                c = x.compareTo(y);
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    static void mergeC(List<Row> rows, Path cFile) throws IOException {
        Map<Row, List<Double>> cRuns = new LinkedHashMap<>();
        for (String line : Files.readAllLines(cFile)) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("class,")) {
                continue;
            }
            String[] f = line.split(",");
            if (f.length != 4) {
                System.err.println("report: ignoring C result line: " + line);
                continue;
            }
            Map<String, String> cParams = new TreeMap<>();
            for (String kv : f[2].split(";")) {
                if (!kv.isBlank()) {
                    String[] p = kv.split("=", 2);
                    cParams.put(p[0].strip(), p.length > 1 ? p[1].strip() : "");
                }
            }
            double ops = Double.parseDouble(f[3].strip());
            for (Row row : rows) {
                if (row.cls.equals(f[0].strip()) && row.variant.equals(f[1].strip())
                        && cParams.entrySet().stream().allMatch(e -> e.getValue().equals(row.params.get(e.getKey())))) {
                    cRuns.computeIfAbsent(row, k -> new ArrayList<>()).add(ops);
                }
            }
        }
        // one C run per round: the median, like the JMH scores
        cRuns.forEach((row, runs) -> {
            row.c = median(runs);
            row.cRounds = List.copyOf(runs);
        });
    }

    // ---- outputs ------------------------------------------------------------------------------------

    static String environment(Path env, JsonArray merged, String title) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("profile: ").append(title).append('\n');
        if (env != null && Files.exists(env)) {
            b.append(Files.readString(env).strip()).append('\n');
        }
        Set<String> jmh = new LinkedHashSet<>();
        Set<String> jvmArgs = new LinkedHashSet<>();
        Set<String> vm = new LinkedHashSet<>();
        Map<String, Set<String>> runs = new TreeMap<>();
        for (JsonElement e : merged) {
            JsonObject o = e.getAsJsonObject();
            jmh.add(str(o, "jmhVersion"));
            List<String> a = new ArrayList<>();
            if (o.has("jvmArgs")) {
                o.getAsJsonArray("jvmArgs").forEach(x -> a.add(x.getAsString()));
            }
            jvmArgs.add(String.join(" ", a));
            vm.add(str(o, "vmName") + " " + str(o, "vmVersion") + " (" + str(o, "jvm") + ")");
            String[] parts = str(o, "benchmark").split("\\.");
            String cls = parts.length >= 2 ? parts[parts.length - 2] : "?";
            runs.computeIfAbsent(cls, k -> new LinkedHashSet<>()).add(str(o, "forks") + " fork, warmup "
                    + str(o, "warmupIterations") + " x " + str(o, "warmupTime") + ", measurement "
                    + str(o, "measurementIterations") + " x " + str(o, "measurementTime") + ", "
                    + str(o, "threads") + " thread");
        }
        b.append("jmh: ").append(String.join(", ", jmh)).append('\n');
        b.append("benchmark jvm: ").append(String.join(" | ", vm)).append('\n');
        b.append("benchmark jvm flags: ").append(String.join(" | ", jvmArgs)).append('\n');
        runs.forEach((cls, r) -> b.append("runs ").append(cls).append(": ").append(String.join(" | ", r)).append('\n'));
        return b.toString();
    }

    private static String str(JsonObject o, String k) {
        return o.has(k) && !o.get(k).isJsonNull() ? o.get(k).getAsString() : "?";
    }

    static String csv(List<Row> rows) {
        StringBuilder b = new StringBuilder("benchmark,params,ffm_ops_per_s,jni_ops_per_s,ratio,c_ops_per_s\n");
        for (Row r : rows) {
            if (r.raw != null) {
                continue; // binding cost rows: summary.md only
            }
            Double ratio = r.ratio();
            b.append(r.benchmark()).append(',')
                    .append(r.paramString()).append(',')
                    .append(r.ffm == null ? "" : fmt("%.1f", r.ffm.score)).append(',')
                    .append(r.jni == null ? "" : fmt("%.1f", r.jni.score)).append(',')
                    .append(ratio == null ? "" : fmt("%.3f", ratio)).append(',')
                    .append(r.c == null ? "" : fmt("%.1f", r.c)).append('\n');
        }
        return b.toString();
    }

    private static String fmt(String f, double v) {
        return String.format(Locale.ROOT, f, v);
    }

    /** A throughput: whole numbers, or two decimals below 100 (full scans run a few per second). */
    private static String opsPerSecond(double v) {
        return String.format(Locale.ROOT, v < 100 ? "%.2f" : "%,.0f", v);
    }

    private static String ops(Result r) {
        if (r == null) {
            return "";
        }
        String s = opsPerSecond(r.score);
        double rsd = r.rsd();
        if (!Double.isNaN(rsd)) {
            s += String.format(Locale.ROOT, " ±%.0f%%", 100 * rsd);
        }
        return s;
    }

    /** " (min-max)" of several per-round ratios, else nothing. */
    private static String range(List<Double> ratios) {
        if (ratios.size() < 2) {
            return "";
        }
        double min = ratios.stream().mapToDouble(x -> x).min().orElse(0);
        double max = ratios.stream().mapToDouble(x -> x).max().orElse(0);
        return " (" + fmt("%.2f", min) + "-" + fmt("%.2f", max) + ")";
    }

    static String markdown(List<Row> rows, String environment, String title) {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(title).append("\n\n");
        b.append("```\n").append(environment.strip()).append("\n```\n\n");
        int rounds = rows.stream().mapToInt(r -> r.ffm == null ? 1 : r.ffm.rounds.size()).max().orElse(1);
        if (rounds > 1) {
            b.append("Each pair ran in ").append(rounds).append(" rounds (FFM, JNI, then C, per round and pair). ")
                    .append("Throughput in ops/s: the median of the rounds' JMH scores ± the relative standard deviation ")
                    .append("of all their measurement iterations. FFM/JNI is the median of the per-round ratios, with ")
                    .append("their range in brackets: the two sides of a round ran minutes apart, so the per-round ")
                    .append("ratio carries little of this machine's drift. ");
        } else {
            b.append("Throughput in ops/s: JMH's score ± the relative standard deviation of its measurement iterations. ");
        }
        b.append("ratio = FFM / JNI: above 1, ")
                .append("rocksffm is faster. Both bindings drive the same engine (the library inside the rocksdbjni jar). ")
                .append("C = the same loop written directly against RocksDB's C API (jmh/c/capi_bench.c), linked to ")
                .append("that same library: the physical limit for any Java binding, so C/JNI is the largest FFM/JNI ")
                .append("ratio the engine leaves room for, and FFM/C is how close rocksffm comes to it (1.0: as fast as ")
                .append("C). C ran on the same data right after each pair, once per round; with several rounds, ")
                .append("C/JNI and FFM/C are the medians of the per-round ratios, like FFM/JNI (so the three ")
                .append("medians need not multiply exactly).\n\n");

        b.append("## Results\n\n");
        b.append("| benchmark | params | FFM ops/s | JNI ops/s | FFM/JNI | C ops/s | C/JNI | FFM/C | target |\n");
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
        for (Row r : rows) {
            if (r.raw != null) {
                continue; // in the binding cost table
            }
            Double ratio = r.ratio();
            Target t = r.target();
            String target = "";
            if (t != null && ratio != null) {
                target = (ratio >= t.min ? "met" : "**missed**") + " (>= " + t.min + ")";
            } else if (t != null) {
                target = ">= " + t.min;
            }
            b.append("| ").append(r.benchmark())
                    .append(" | ").append(r.paramString())
                    .append(" | ").append(ops(r.ffm))
                    .append(" | ").append(ops(r.jni))
                    .append(" | ").append(ratio == null ? "" : (ratio < 1 ? "**" + fmt("%.2f", ratio) + "**" : fmt("%.2f", ratio)))
                    .append(range(r.roundRatios()))
                    .append(" | ").append(r.c == null ? "" : opsPerSecond(r.c))
                    .append(" | ").append(r.cOverJni() == null ? "" : fmt("%.2f", r.cOverJni()))
                    .append(" | ").append(r.ffmOverC() == null ? "" : fmt("%.2f", r.ffmOverC()))
                    .append(" | ").append(target)
                    .append(" |\n");
        }

        bindingCost(b, rows);

        b.append("\n## Targets\n\n");
        b.append("Each row counts under the first target that covers it (in this order).\n\n");
        b.append("| target | ratio >= | rows | met | min ratio | max ratio |\n|---|---:|---:|---:|---:|---:|\n");
        for (Target t : TARGETS) {
            List<Double> ratios = rows.stream().filter(r -> r.target() == t && r.ratio() != null)
                    .map(Row::ratio).toList();
            long met = ratios.stream().filter(x -> x >= t.min).count();
            b.append("| ").append(t.name).append(" | ").append(t.min)
                    .append(" | ").append(ratios.size())
                    .append(" | ").append(ratios.isEmpty() ? "" : met + "/" + ratios.size())
                    .append(" | ").append(ratios.isEmpty() ? "" : fmt("%.2f", ratios.stream().mapToDouble(x -> x).min().orElse(0)))
                    .append(" | ").append(ratios.isEmpty() ? "" : fmt("%.2f", ratios.stream().mapToDouble(x -> x).max().orElse(0)))
                    .append(" |\n");
        }

        b.append("\n## Pairs\n\n");
        b.append("`<Class>.ffm_<variant>` pairs with `<Class>.jni_<variant>` at the same parameters. ")
                .append("IteratorBenchmarks' `prefetch` is rocksffm's run buffer, a parameter of the FFM side only: ")
                .append("each JNI result pairs with every prefetch value.\n\n");
        b.append("| variant | FFM (rocksffm) | JNI (rocksdbjni) |\n|---|---|---|\n");
        VARIANTS.forEach((name, sides) -> b.append("| ").append(name).append(" | ").append(sides[0])
                .append(" | ").append(sides[1]).append(" |\n"));
        return b.toString();
    }

    /** The rows with a raw_ side: API vs the same C calls through bare FFM downcalls. */
    static void bindingCost(StringBuilder b, List<Row> rows) {
        List<Row> cost = rows.stream().filter(r -> r.raw != null).toList();
        if (cost.isEmpty()) {
            return;
        }
        b.append("\n## Binding cost\n\n");
        b.append("API = rocksffm's public call (`ffm_`); raw = the same C calls made through bare FFM downcalls ")
                .append("in the same JVM (`raw_`: no lifecycle checks, no scratch memory; see BindingCostBenchmarks). ")
                .append("API/raw below 1 is what the wrapper costs. For a raw variant that is an alternative C call, ")
                .append("the last column is its raw throughput over its baseline's (above 1: the alternative is faster); ")
                .append("ratios are medians of the per-round ratios, with their range.\n\n");
        b.append("| benchmark | params | API ops/s | raw ops/s | API/raw | raw vs baseline |\n");
        b.append("|---|---|---:|---:|---:|---|\n");
        for (Row r : cost) {
            String apiRaw = "";
            if (r.ffm != null) {
                List<Double> rr = Row.roundRatios(r.ffm, r.raw);
                double ratio = rr.size() > 1 ? median(rr) : r.ffm.score / r.raw.score;
                apiRaw = fmt("%.2f", ratio) + range(rr);
            }
            String vs = "";
            String base = RAW_BASELINE.get(r.benchmark());
            if (base != null) {
                Row baseRow = cost.stream().filter(x -> x.cls.equals(r.cls) && x.variant.equals(base)
                        && x.params.equals(r.params)).findFirst().orElse(null);
                if (baseRow != null) {
                    List<Double> rr = Row.roundRatios(r.raw, baseRow.raw);
                    double ratio = rr.size() > 1 ? median(rr) : r.raw.score / baseRow.raw.score;
                    vs = fmt("%.2f", ratio) + range(rr) + " vs raw " + base;
                }
            }
            b.append("| ").append(r.benchmark())
                    .append(" | ").append(r.paramString())
                    .append(" | ").append(ops(r.ffm))
                    .append(" | ").append(ops(r.raw))
                    .append(" | ").append(apiRaw)
                    .append(" | ").append(vs)
                    .append(" |\n");
        }
    }

    /** The results as an aligned plain-text table: one line per scenario, labelled as in the chart. */
    static String text(List<Row> rows) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"scenario", "FFM ops/s", "JNI ops/s", "FFM/JNI", "C/JNI", "FFM/C"});
        for (Row r : rows) {
            Double ratio = r.ratio();
            lines.add(new String[] {
                r.label(),
                r.ffm == null ? "" : opsPerSecond(r.ffm.score),
                r.jni == null ? "" : opsPerSecond(r.jni.score),
                ratio == null ? "" : fmt("%.2f", ratio) + range(r.roundRatios()),
                r.cOverJni() == null ? "" : fmt("%.2f", r.cOverJni()),
                r.ffmOverC() == null ? "" : fmt("%.2f", r.ffmOverC())});
        }
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] l : lines) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + width[0] + "s", l[0]));
            for (int i = 1; i < l.length; i++) {
                line.append("  ").append(String.format(Locale.ROOT, "%" + width[i] + "s", l[i]));
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        b.append("FFM/JNI above 1: rocksffm faster (median of rounds, their range in brackets). "
                + "C/JNI: the C loop on the same engine, the limit for any binding; FFM/C: how close rocksffm comes.\n");
        return b.toString();
    }

    // ---- chart --------------------------------------------------------------------------------------

    static final Map<String, Color> CLASS_COLORS = Map.of(
            "GetBenchmarks", new Color(0x1f77b4),
            "PutBenchmarks", new Color(0xff7f0e),
            "WriteBatchBenchmarks", new Color(0x2ca02c),
            "IteratorBenchmarks", new Color(0x9467bd),
            "ConcurrencyBenchmarks", new Color(0xd62728),
            "MultiGetBenchmarks", new Color(0x8c564b));

    /** C/JNI: the ratio the C loop reaches on the same engine, the limit for any binding (or null). */
    static Double cLimit(Row r) {
        return r.cOverJni();
    }

    static void chart(List<Row> all, String title, Path file) throws IOException {
        List<Row> rows = all.stream().filter(r -> r.ratio() != null).toList();
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        DefaultCategoryDataset limits = new DefaultCategoryDataset();
        Map<String, Row> byLabel = new LinkedHashMap<>();
        double max = 1;
        double min = 1;
        for (Row r : rows) {
            String label = r.label();
            byLabel.put(label, r);
            data.addValue(r.ratio(), "FFM/JNI", label);
            max = Math.max(max, r.ratio());
            min = Math.min(min, r.ratio());
            // Every row is a column of both datasets (null: no C loop), as JFreeChart places the
            // items of a secondary dataset by column index.
            Double limit = cLimit(r);
            limits.addValue(limit, "C limit", label);
            if (limit != null) {
                max = Math.max(max, limit);
                min = Math.min(min, limit);
            }
        }

        CategoryAxis categories = new CategoryAxis();
        categories.setTickLabelFont(new Font(Font.MONOSPACED, Font.PLAIN, 12));
        categories.setMaximumCategoryLabelWidthRatio(0.45f);
        categories.setCategoryMargin(0.15);
        categories.setLowerMargin(0.01);
        categories.setUpperMargin(0.01);

        // Log scale, bars growing from 1.0: a ratio r and its inverse 1/r are equally long, right
        // when rocksffm is faster, left when rocksdbjni is.
        LogAxis ratioAxis = new LogAxis("throughput ratio FFM / JNI (log scale; bars right of 1.0: rocksffm faster)");
        ratioAxis.setBase(2);
        ratioAxis.setTickUnit(new NumberTickUnit(1));
        ratioAxis.setMinorTickMarksVisible(true);
        ratioAxis.setNumberFormatOverride(new DecimalFormat("0.###"));
        // Room on the left for the labels of bars below 1.0 (they grow leftwards).
        ratioAxis.setRange(Math.min(0.5, min / 2.2), Math.max(2, max * 2.2));
        ratioAxis.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));

        ItemLabelPosition rightOfBar = new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3, TextAnchor.CENTER_LEFT);
        ItemLabelPosition leftOfBar = new ItemLabelPosition(ItemLabelAnchor.OUTSIDE9, TextAnchor.CENTER_RIGHT);
        BarRenderer bars = new BarRenderer() {
            private Row row(int column) {
                return byLabel.get((String) getPlot().getDataset().getColumnKey(column));
            }

            @Override
            public java.awt.Paint getItemPaint(int row, int column) {
                return CLASS_COLORS.getOrDefault(row(column).cls, Color.GRAY);
            }

            @Override
            public ItemLabelPosition getPositiveItemLabelPosition(int row, int column) {
                return row(column).ratio() < 1 ? leftOfBar : rightOfBar;
            }
        };
        bars.setBase(1.0);
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setDrawBarOutline(false);
        bars.setMaximumBarWidth(0.9);
        bars.setDefaultItemLabelGenerator(new CategoryItemLabelGenerator() {
            @Override
            public String generateLabel(CategoryDataset dataset, int row, int column) {
                Row r = byLabel.get((String) dataset.getColumnKey(column));
                String s = fmt("%.2f", r.ratio());
                Double limit = cLimit(r);
                if (limit != null) {
                    s += "  (C " + fmt("%.2f", limit) + ")";
                }
                Target t = r.target();
                if (t != null && r.ratio() < t.min) {
                    s += "  (target " + t.min + ")";
                }
                return s;
            }

            @Override
            public String generateRowLabel(CategoryDataset dataset, int row) {
                return dataset.getRowKey(row).toString();
            }

            @Override
            public String generateColumnLabel(CategoryDataset dataset, int column) {
                return dataset.getColumnKey(column).toString();
            }
        });
        bars.setDefaultItemLabelsVisible(true);
        bars.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        bars.setItemLabelAnchorOffset(4);

        CategoryPlot plot = new CategoryPlot(data, categories, ratioAxis, bars);
        // The C limit of a row (C/JNI): a black tick across its bar. Past the tick, rocksffm beats
        // the C loop (Java-side work such as batch encoding); short of it, the gap is the room left.
        LineAndShapeRenderer ticks = new LineAndShapeRenderer(false, true);
        Rectangle2D.Double tick = new Rectangle2D.Double(-1.5, -9, 3, 18);
        ticks.setSeriesShape(0, tick);
        ticks.setSeriesPaint(0, Color.BLACK);
        plot.setDataset(1, limits);
        plot.setRenderer(1, ticks);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);   // ticks over the bars
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinesVisible(true);
        plot.setOutlineVisible(false);

        ValueMarker parity = new ValueMarker(1.0, Color.RED,
                new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {8f, 5f}, 0f));
        parity.setLabel("1.0 = same speed");
        parity.setLabelFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        parity.setLabelPaint(Color.RED);
        parity.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        parity.setLabelTextAnchor(TextAnchor.TOP_LEFT);
        plot.addRangeMarker(parity, Layer.FOREGROUND);

        LegendItemCollection legend = new LegendItemCollection();
        for (String cls : CLASS_ORDER) {
            if (rows.stream().anyMatch(r -> r.cls.equals(cls))) {
                legend.add(new LegendItem(cls, CLASS_COLORS.get(cls)));
            }
        }
        if (rows.stream().anyMatch(r -> cLimit(r) != null)) {
            legend.add(new LegendItem("C limit (C/JNI): the same loop in C on the same engine", null, null, null,
                    tick, Color.BLACK));
        }
        plot.setFixedLegendItems(legend);

        JFreeChart chart = new JFreeChart(title + ": throughput ratio FFM / JNI, same engine",
                new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.addSubtitle(new TextTitle("one bar per scenario; labels: n=keys, k=key bytes, v=value bytes, "
                + "pf=prefetch bytes, /batch=ops per batch, build|+write=batch only|also written; black tick: the C limit",
                new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        chart.setBackgroundPaint(Color.WHITE);
        int height = 160 + 22 * Math.max(rows.size(), 1);
        ChartUtils.saveChartAsPNG(file.toFile(), chart, 1400, height);
    }
}
