package io.rocksffm.jmh.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Warm-up curves from JMH single-shot runs (scripts/warmup.sh): how many calls, and how much time
 * spent in them, a fresh JVM takes to reach its steady speed.
 *
 * <p>Input: JMH JSON of runs in mode {@code ss} with no warmup iterations and a batch size B, so
 * measurement iteration i of a fork timed calls {@code i*B+1 .. (i+1)*B} of that JVM. Per fork:
 * the steady time per call is the median of the last quarter of its batches; the fork has
 * reached it at the first batch whose 5-batch median (that batch and the 4 before) is within
 * {@value #SLACK} times the steady time (the first time, not for good: on a shared machine single
 * batches keep jumping). Reported per label (the median over forks): time per call over the first
 * batch and around a few call counts, the steady time per call, the calls and the time (sum of the
 * batches, not counting JMH's pauses between them) until steady.
 *
 * <p>Usage: {@code Warmup --out FILE LABEL=result.json...}; prints the table and writes it to FILE.
 */
public final class Warmup {
    static final double SLACK = 1.25;
    static final long[] CHECKPOINTS = {10_000, 100_000};
    /** Call counts for the cumulative table: the time a fresh JVM spends in its first N calls. */
    static final long[] FIRST = {1_000, 10_000, 100_000};

    /** One fork: nanoseconds per call for each batch, in call order. */
    record Curve(long batch, double[] nsPerCall) {
        double steady() {
            int n = nsPerCall.length;
            return median(java.util.Arrays.copyOfRange(nsPerCall, n - Math.max(1, n / 4), n));
        }

        /** Batches up to the first whose 5-batch median is within SLACK of steady (that one included). */
        int reached() {
            double limit = steady() * SLACK;
            for (int i = 0; i < nsPerCall.length; i++) {
                if (median(java.util.Arrays.copyOfRange(nsPerCall, Math.max(0, i - 4), i + 1)) <= limit) {
                    return i + 1;
                }
            }
            return nsPerCall.length;
        }

        double msUntil(int batches) {
            double ns = 0;
            for (int i = 0; i < batches && i < nsPerCall.length; i++) {
                ns += nsPerCall[i] * batch;
            }
            return ns / 1e6;
        }

        /** ns per call in the batch holding call number {@code call} (NaN past the end). */
        double at(long call) {
            int i = (int) ((call - 1) / batch);
            return i < nsPerCall.length ? nsPerCall[i] : Double.NaN;
        }
    }

    public static void main(String[] args) throws IOException {
        Path out = null;
        Map<String, List<Curve>> byLabel = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--out")) {
                out = Path.of(args[++i]);
                continue;
            }
            int eq = args[i].indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("expected LABEL=file.json, got " + args[i]);
            }
            byLabel.computeIfAbsent(args[i].substring(0, eq), k -> new ArrayList<>())
                    .addAll(curves(Path.of(args[i].substring(eq + 1))));
        }
        String table = table(byLabel) + "\n" + firstCalls(byLabel);
        System.out.print(table);
        if (out != null) {
            Files.writeString(out, table);
        }
    }

    static List<Curve> curves(Path file) throws IOException {
        List<Curve> curves = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file)) {
            for (JsonElement e : JsonParser.parseReader(r).getAsJsonArray()) {
                JsonObject o = e.getAsJsonObject();
                if (!"ss".equals(o.get("mode").getAsString())) {
                    throw new IllegalArgumentException(file + ": mode " + o.get("mode") + ", expected ss");
                }
                long batch = o.get("measurementBatchSize").getAsLong();
                JsonObject metric = o.getAsJsonObject("primaryMetric");
                double unitNs = switch (metric.get("scoreUnit").getAsString()) {
                    case "ns/op" -> 1;
                    case "us/op" -> 1e3;
                    case "ms/op" -> 1e6;
                    case "s/op" -> 1e9;
                    default -> throw new IllegalArgumentException("unit " + metric.get("scoreUnit"));
                };
                // A single-shot score is the time of one whole batch.
                for (JsonElement fork : metric.getAsJsonArray("rawData")) {
                    JsonArray it = fork.getAsJsonArray();
                    double[] ns = new double[it.size()];
                    for (int i = 0; i < ns.length; i++) {
                        ns[i] = it.get(i).getAsDouble() * unitNs / batch;
                    }
                    curves.add(new Curve(batch, ns));
                }
            }
        }
        return curves;
    }

    static String table(Map<String, List<Curve>> byLabel) {
        StringBuilder b = new StringBuilder();
        List<String> head = new ArrayList<>(List.of("run", "forks", "calls 1-1000, ns/call"));
        for (long c : CHECKPOINTS) {
            head.add("at call " + count(c) + ", ns/call");
        }
        head.addAll(List.of("steady ns/call", "calls to steady", "ms to steady"));
        b.append("| ").append(String.join(" | ", head)).append(" |\n");
        b.append("|---|").append("---:|".repeat(head.size() - 1)).append('\n');
        byLabel.forEach((label, curves) -> {
            b.append("| ").append(label).append(" | ").append(curves.size());
            b.append(" | ").append(fmt(median(curves.stream().mapToDouble(c -> c.nsPerCall()[0]).toArray())));
            for (long c : CHECKPOINTS) {
                b.append(" | ").append(fmt(median(curves.stream().mapToDouble(x -> x.at(c)).toArray())));
            }
            b.append(" | ").append(fmt(median(curves.stream().mapToDouble(Curve::steady).toArray())));
            b.append(" | ").append(count(Math.round(median(curves.stream()
                    .mapToDouble(c -> (double) c.reached() * c.batch()).toArray()))));
            b.append(" | ").append(fmt(median(curves.stream().mapToDouble(c -> c.msUntil(c.reached())).toArray())));
            b.append(" |\n");
        });
        b.append("\nSteady: the median time per call over the last quarter of a fork's batches. Calls (and time "
                + "spent in them) to steady: until the 5-batch median first comes within " + Math.round((SLACK - 1) * 100)
                + "% of steady. Medians over forks; every fork is a fresh JVM timed from its first call.\n");
        return b.toString();
    }

    /**
     * The time (ms) of a fresh JVM's first 1k, 10k and 100k calls (sum of its first batches), per
     * label, and FFM/JNI time ratios for labels that differ only in "FFM"/"JNI" (above 1: rocksffm
     * takes longer). Medians over forks.
     */
    static String firstCalls(Map<String, List<Curve>> byLabel) {
        StringBuilder b = new StringBuilder("| run | forks");
        for (long n : FIRST) {
            b.append(" | first ").append(count(n)).append(" calls, ms");
        }
        b.append(" |\n|---|").append("---:|".repeat(FIRST.length + 1)).append('\n');
        Map<String, double[]> ms = new LinkedHashMap<>();
        byLabel.forEach((label, curves) -> {
            double[] row = new double[FIRST.length];
            b.append("| ").append(label).append(" | ").append(curves.size());
            for (int i = 0; i < FIRST.length; i++) {
                long n = FIRST[i];
                row[i] = median(curves.stream().mapToDouble(c -> c.nsPerCall().length * c.batch() >= n
                        ? c.msUntil((int) ((n + c.batch() - 1) / c.batch())) : Double.NaN).toArray());
                b.append(" | ").append(fmt(row[i]));
            }
            b.append(" |\n");
            ms.put(label, row);
        });
        StringBuilder r = new StringBuilder();
        ms.forEach((label, row) -> {
            double[] jni = label.contains(" FFM") ? ms.get(label.replace(" FFM", " JNI")) : null;
            if (jni == null) {
                return;
            }
            r.append("| ").append(label.replace(" FFM", "")).append(" FFM/JNI");
            for (int i = 0; i < FIRST.length; i++) {
                r.append(" | ").append(String.format(Locale.ROOT, "%.2f", row[i] / jni[i]));
            }
            r.append(" |\n");
        });
        if (!r.isEmpty()) {
            b.append("\n| time ratio (above 1: rocksffm slower)");
            for (long n : FIRST) {
                b.append(" | first ").append(count(n));
            }
            b.append(" |\n|---|").append("---:|".repeat(FIRST.length)).append('\n').append(r);
        }
        b.append("\nFirst N calls: the sum of a fork's first N/batch batches (JMH's pauses between batches not "
                + "counted), median over forks, each a fresh JVM timed from its first call.\n");
        return b.toString();
    }

    static double median(double[] xs) {
        double[] s = java.util.Arrays.stream(xs).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (s.length == 0) {
            return Double.NaN;
        }
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, v >= 100 ? "%,.0f" : "%.1f", v);
    }

    private static String count(long n) {
        if (n >= 1_000_000 && n % 1_000_000 == 0) {
            return n / 1_000_000 + "M";
        }
        if (n >= 1000 && n % 1000 == 0) {
            return n / 1000 + "k";
        }
        return Long.toString(n);
    }
}
