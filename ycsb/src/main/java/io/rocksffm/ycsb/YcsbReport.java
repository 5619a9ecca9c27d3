package io.rocksffm.ycsb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns scripts/ycsb.sh's results.csv into a markdown table: per workload and threads, for the
 * short and the long (timed) run, each side's median throughput over the rounds, and FFM/JNI as the median of the per-round
 * ratios with their range. {@code YcsbReport results.csv > summary.md}
 */
public final class YcsbReport {
    private YcsbReport() {}

    private record Row(int round, String workload, int threads, String phase, String lib, double opsPerS,
                       long verifyErrors) {}

    public static void main(String[] args) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        List<String> header = Arrays.asList(lines.getFirst().split(","));
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            rows.add(new Row(Integer.parseInt(f[header.indexOf("round")]), f[header.indexOf("workload")],
                    Integer.parseInt(f[header.indexOf("threads")]), f[header.indexOf("phase")], f[header.indexOf("lib")],
                    Double.parseDouble(f[header.indexOf("ops_per_s")]), Long.parseLong(f[header.indexOf("verify_errors")])));
        }
        // key: workload|threads -> phase -> round -> lib -> ops/s
        Map<String, Map<String, Map<Integer, Map<String, Double>>>> groups = new LinkedHashMap<>();
        long errors = 0;
        int rounds = 0;
        for (Row r : rows) {
            groups.computeIfAbsent(r.workload() + "|" + r.threads(), k -> new LinkedHashMap<>())
                  .computeIfAbsent(r.phase(), k -> new LinkedHashMap<>())
                  .computeIfAbsent(r.round(), k -> new LinkedHashMap<>()).put(r.lib(), r.opsPerS());
            errors += r.verifyErrors();
            rounds = Math.max(rounds, r.round());
        }
        StringBuilder out = new StringBuilder();
        out.append("| workload | threads | short: FFM / JNI ops/s | short FFM/JNI | long: FFM / JNI ops/s | long FFM/JNI |\n");
        out.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        for (var g : groups.entrySet()) {
            String[] k = g.getKey().split("\\|");
            StringBuilder line = new StringBuilder("| " + (k[0].equals("load") ? "load (insert only)" : k[0]) + " | " + k[1]);
            for (String phase : k[0].equals("load") ? List.of("load", "-") : List.of("short", "long")) {
                Map<Integer, Map<String, Double>> byRound = g.getValue().getOrDefault(phase, Map.of());
                List<Double> ffm = new ArrayList<>(), jni = new ArrayList<>(), ratio = new ArrayList<>();
                for (Map<String, Double> byLib : byRound.values()) {
                    Double a = byLib.get("ffm"), b = byLib.get("jni");
                    if (a != null) ffm.add(a);
                    if (b != null) jni.add(b);
                    if (a != null && b != null && b > 0) ratio.add(a / b);
                }
                line.append(" | ").append(ops(ffm)).append(" / ").append(ops(jni))
                    .append(" | ").append(ratio.isEmpty() ? "-" : ratios(ratio));
            }
            out.append(line).append(" |\n");
        }
        out.append(String.format(Locale.ROOT, "%n%d round(s); verification errors over all runs: %d "
                + "(load: the load phase, in its short columns)%n", rounds, errors));
        System.out.print(out);
    }

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    private static String ops(List<Double> xs) {
        return xs.isEmpty() ? "-" : String.format(Locale.ROOT, "%,.0f", median(xs));
    }

    private static String ratios(List<Double> xs) {
        double min = xs.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double max = xs.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return xs.size() == 1 ? String.format(Locale.ROOT, "%.2f", xs.getFirst())
                : String.format(Locale.ROOT, "%.2f (%.2f-%.2f)", median(xs), min, max);
    }
}
