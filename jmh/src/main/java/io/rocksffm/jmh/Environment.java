package io.rocksffm.jmh;

import io.rocksffm.Engine;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Prints the facts a benchmark result depends on, as {@code key: value} lines: the engine both
 * bindings use (after the same check every benchmark's setup makes), the JDK, this JVM's flags,
 * and the machine. Run with the same flags as the benchmark forks (scripts/bench.sh does).
 */
public final class Environment {
    private Environment() {}

    public static void main(String[] args) throws IOException {
        Engine engine = Bench.requireSameEngine();
        org.rocksdb.RocksDB.Version v = org.rocksdb.RocksDB.rocksdbVersion();
        StringBuilder out = new StringBuilder();
        line(out, "date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        line(out, "engine", "RocksDB " + v + " from org.rocksdb:rocksdbjni " + jniJarVersion()
                + " (one library for both bindings)");
        line(out, "engine file", engine.path() + (engine.path() != null ? "  sha256 " + sha256(engine.path()) : ""));
        line(out, "rocksffm engine source", engine.source()
                + " (rocksffm found the C API rocksdbjni had loaded)");
        line(out, "jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.home") + ")");
        line(out, "jvm flags", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        line(out, "os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        line(out, "cores", Runtime.getRuntime().availableProcessors() + " available to the JVM"
                + cpuCount());
        line(out, "cpu", cpuModel());
        line(out, "memory", memTotal());
        System.out.print(out);
    }

    private static void line(StringBuilder out, String key, String value) {
        out.append(key).append(": ").append(value).append('\n');
    }

    private static String jniJarVersion() {
        try (InputStream in = Environment.class.getResourceAsStream("versions.properties")) {
            java.util.Properties p = new java.util.Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("rocksdbjni.version", "?");
        } catch (IOException e) {
            return "?";
        }
    }

    private static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException | NoSuchAlgorithmException e) {
            return "? (" + e + ")";
        }
    }

    private static List<String> cpuinfo() {
        Path p = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(p)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(p)) {
            return lines.toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String cpuModel() {
        return cpuinfo().stream()
                .filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElse("? (no model name in /proc/cpuinfo)");
    }

    private static String cpuCount() {
        long n = cpuinfo().stream().filter(l -> l.startsWith("processor")).count();
        return n > 0 ? ", " + n + " in /proc/cpuinfo" : "";
    }

    private static String memTotal() {
        Path p = Path.of("/proc/meminfo");
        if (!Files.isReadable(p)) {
            return "?";
        }
        try (Stream<String> lines = Files.lines(p)) {
            return lines.filter(l -> l.startsWith("MemTotal:"))
                    .map(l -> {
                        long kb = Long.parseLong(l.replaceAll("\\D", ""));
                        return String.format("%.1f GiB", kb / 1024.0 / 1024.0);
                    })
                    .findFirst().orElse("?");
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
