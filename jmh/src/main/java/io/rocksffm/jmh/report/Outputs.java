package io.rocksffm.jmh.report;

import static io.rocksffm.jmh.report.Report.RAW_BASELINE;
import static io.rocksffm.jmh.report.Report.VARIANTS;
import static io.rocksffm.jmh.report.Rows.TARGETS;
import static io.rocksffm.jmh.report.Rows.median;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import io.rocksffm.jmh.report.Rows.Result;
import io.rocksffm.jmh.report.Rows.Row;
import io.rocksffm.jmh.report.Rows.Target;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The report's text outputs: {@code environment.txt} (the profile, the machine probe and what the
 * JMH results say about their JVMs and run settings), {@code summary.csv}, {@code summary.md} (the
 * FFM/JNI table, the binding cost table, the targets and the pairs) and {@code summary.txt} (the
 * table aligned as plain text), with the number formatting they share with {@link Chart}.
 */
final class Outputs {
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
                    .append(r.ffm == null ? "" : fmt("%.1f", r.ffm.score())).append(',')
                    .append(r.jni == null ? "" : fmt("%.1f", r.jni.score())).append(',')
                    .append(ratio == null ? "" : fmt("%.3f", ratio)).append(',')
                    .append(r.c == null ? "" : fmt("%.1f", r.c)).append('\n');
        }
        return b.toString();
    }

    static String fmt(String f, double v) {
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
        String s = opsPerSecond(r.score());
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
        int rounds = rows.stream().mapToInt(r -> r.ffm == null ? 1 : r.ffm.rounds().size()).max().orElse(1);
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
                target = (ratio >= t.min() ? "met" : "**missed**") + " (>= " + t.min() + ")";
            } else if (t != null) {
                target = ">= " + t.min();
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
            long met = ratios.stream().filter(x -> x >= t.min()).count();
            b.append("| ").append(t.name()).append(" | ").append(t.min())
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
                double ratio = rr.size() > 1 ? median(rr) : r.ffm.score() / r.raw.score();
                apiRaw = fmt("%.2f", ratio) + range(rr);
            }
            String vs = "";
            String base = RAW_BASELINE.get(r.benchmark());
            if (base != null) {
                Row baseRow = cost.stream().filter(x -> x.cls.equals(r.cls) && x.variant.equals(base)
                        && x.params.equals(r.params)).findFirst().orElse(null);
                if (baseRow != null) {
                    List<Double> rr = Row.roundRatios(r.raw, baseRow.raw);
                    double ratio = rr.size() > 1 ? median(rr) : r.raw.score() / baseRow.raw.score();
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
                r.ffm == null ? "" : opsPerSecond(r.ffm.score()),
                r.jni == null ? "" : opsPerSecond(r.jni.score()),
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
}
