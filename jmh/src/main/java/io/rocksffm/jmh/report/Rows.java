package io.rocksffm.jmh.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The report's data model: a {@link Result} is one benchmark of one binding at one set of
 * parameters (its rounds merged), a {@link Row} is one scenario with its FFM, JNI, raw and C sides
 * and the ratios between them, and a {@link Target} is one of the goals set for rocksffm, listed in
 * {@link #TARGETS}. Rows also know their chart / plain-text label. {@link Report} builds the rows;
 * {@link Outputs} and {@link Chart} render them.
 */
final class Rows {
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

    /** The median of {@code xs} (of an even count, the mean of the middle two). */
    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
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
}
