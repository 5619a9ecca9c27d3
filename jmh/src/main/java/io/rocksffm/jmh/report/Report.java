package io.rocksffm.jmh.report;

import static io.rocksffm.jmh.report.Rows.median;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import io.rocksffm.jmh.report.Rows.Result;
import io.rocksffm.jmh.report.Rows.Row;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
 *
 * <p>This class reads the inputs, pairs and merges them; the rows are {@link Rows}, the text
 * outputs {@link Outputs} and the chart {@link Chart}.
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

        String environment = Outputs.environment(env, merged, title);
        Files.writeString(out.resolve("environment.txt"), environment);
        Files.writeString(out.resolve("summary.csv"), Outputs.csv(rows));
        Files.writeString(out.resolve("summary.md"), Outputs.markdown(rows, environment, title));
        Files.writeString(out.resolve("summary.txt"), Outputs.text(rows));
        Chart.chart(rows, title, out.resolve("chart.png"));
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
            groups.computeIfAbsent(r.binding() + " " + key(r.cls(), r.variant(), r.params()), k -> new ArrayList<>())
                    .add(r);
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
                rounds.addAll(r.rounds());
                iterations.addAll(r.iterations());
            }
            Result first = g.get(0);
            merged.add(new Result(first.cls(), first.binding(), first.variant(), first.params(), median(rounds),
                    List.copyOf(rounds), List.copyOf(iterations)));
        }
        return merged;
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
            if (r.binding().equals("jni")) {
                jni.put(key(r.cls(), r.variant(), r.params()), r);
            }
        }
        Set<Result> usedJni = new HashSet<>();
        Map<String, Row> rows = new LinkedHashMap<>();
        for (Result r : results) {
            if (!r.binding().equals("ffm")) {
                continue;
            }
            Row row = rows.computeIfAbsent(key(r.cls(), r.variant(), r.params()),
                    k -> new Row(r.cls(), r.variant(), r.params()));
            row.ffm = r;
            Map<String, String> shared = new TreeMap<>(r.params());
            shared.keySet().removeAll(FFM_ONLY.getOrDefault(r.cls(), Set.of()));
            Result partner = jni.get(key(r.cls(), r.variant(), shared));
            if (partner != null) {
                row.jni = partner;
                usedJni.add(partner);
            }
        }
        for (Result r : jni.values()) {
            if (!usedJni.contains(r)) {
                rows.computeIfAbsent(key(r.cls(), r.variant(), r.params()),
                        k -> new Row(r.cls(), r.variant(), r.params())).jni = r;
            }
        }
        for (Result r : results) {
            if (r.binding().equals("raw")) {
                rows.computeIfAbsent(key(r.cls(), r.variant(), r.params()),
                        k -> new Row(r.cls(), r.variant(), r.params())).raw = r;
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
}
