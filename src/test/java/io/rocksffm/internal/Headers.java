package io.rocksffm.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The C headers of the supported RocksDB versions, as normalised prototypes ({@link Prototypes}),
 * from wherever this machine has them. None is committed (RocksDB's headers stay out of the
 * project):
 * <ul>
 *   <li>the bindings' own header: jextract writes each function's prototype into the generated
 *       code ({@code src/generated}), so the committed bindings carry it;</li>
 *   <li>earlier bindings: the project's git history holds the generated code of every header the
 *       bindings were generated from before (10.10.1's), read with {@code git show};</li>
 *   <li>Debian's {@code librocksdb-dev} header ({@code /usr/include/rocksdb}, 7.8.3), with its
 *       {@code version.h};</li>
 *   <li>any other: a directory named by {@code -Drocksffm.headers} or {@code $ROCKSFFM_HEADERS}
 *       holding {@code VERSION/rocksdb/c.h} (e.g. from {@code git show v10.1.3:include/rocksdb/c.h}).</li>
 * </ul>
 */
final class Headers {
    static final Path GENERATED = Path.of("src/generated/java/io/rocksffm/internal/capi");
    private static final Path DEBIAN = Path.of("/usr/include/rocksdb");
    private static final Pattern SNIPPET = Pattern.compile("^\\s*\\*\\s*(extern .*\\brocksdb_\\w+\\s*\\(.*\\))\\s*$");
    private static final Pattern VERSION = Pattern.compile("ROCKSDB_VERSION = \"([0-9.]+)\"");

    private Headers() {}

    /** The prototypes of the committed bindings (the bindings' header). */
    static Map<String, String> bindings() throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(GENERATED)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("RocksDBC")).toList()) {
                addSnippets(Files.readString(f), out);
            }
        }
        return out;
    }

    /**
     * Every older header this machine has, by RocksDB version (from Debian, the project's history
     * and the {@code rocksffm.headers} directory), without the bindings' own version.
     */
    static Map<String, Map<String, String>> older() throws IOException {
        Map<String, Map<String, String>> out = new TreeMap<>(Capabilities::compareVersions);
        debian().ifPresent(h -> out.put(h.getKey(), h.getValue()));
        out.putAll(fromHistory());
        out.putAll(fromDirectory());
        out.remove(Capabilities.HEADER_VERSION);
        return out;
    }

    /** Debian's header with its version, when installed. */
    static Optional<Map.Entry<String, Map<String, String>>> debian() throws IOException {
        Path c = DEBIAN.resolve("c.h");
        Path v = DEBIAN.resolve("version.h");
        if (!Files.isRegularFile(c) || !Files.isRegularFile(v)) {
            return Optional.empty();
        }
        return Optional.of(Map.entry(versionOf(Files.readString(v)), Prototypes.parseHeader(Files.readString(c))));
    }

    private static String versionOf(String versionH) {
        Matcher m = Pattern.compile("#define ROCKSDB_(MAJOR|MINOR|PATCH) (\\d+)").matcher(versionH);
        List<String> parts = new ArrayList<>();
        while (m.find()) {
            parts.add(m.group(2));
        }
        return String.join(".", parts);
    }

    private static Map<String, Map<String, String>> fromDirectory() throws IOException {
        String dir = System.getProperty("rocksffm.headers", System.getenv("ROCKSFFM_HEADERS"));
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        if (dir == null || dir.isBlank()) {
            return out;
        }
        try (Stream<Path> versions = Files.list(Path.of(dir))) {
            for (Path v : versions.toList()) {
                Path c = v.resolve("rocksdb/c.h");
                if (Files.isRegularFile(c)) {
                    out.put(v.getFileName().toString(), Prototypes.parseHeader(Files.readString(c)));
                }
            }
        }
        return out;
    }

    /** The bindings of each earlier header in the project's history, by version (empty without git). */
    static Map<String, Map<String, String>> fromHistory() {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        String info = GENERATED.resolve("HeaderInfo.java").toString();
        Optional<String> commits = git("log", "--format=%H", "--", info);
        if (commits.isEmpty()) {
            return out;
        }
        for (String commit : commits.get().lines().toList()) {
            Optional<String> headerInfo = git("show", commit + ":" + info);
            Matcher m = VERSION.matcher(headerInfo.orElse(""));
            if (!m.find() || out.containsKey(m.group(1))) {
                continue;
            }
            Map<String, String> prototypes = new TreeMap<>();
            for (String file : git("ls-tree", "--name-only", commit, GENERATED + "/").orElse("").lines().toList()) {
                if (Path.of(file).getFileName().toString().startsWith("RocksDBC")) {
                    addSnippets(git("show", commit + ":" + file).orElse(""), prototypes);
                }
            }
            if (!prototypes.isEmpty()) {
                out.put(m.group(1), prototypes);
            }
        }
        return out;
    }

    private static void addSnippets(String code, Map<String, String> out) {
        for (String line : code.lines().toList()) {
            Matcher m = SNIPPET.matcher(line);
            if (m.matches()) {
                out.put(Prototypes.name(m.group(1)), Prototypes.normalize(m.group(1)));
            }
        }
    }

    /** {@code git args} in the working directory: its output, or empty when git fails. */
    private static Optional<String> git(String... args) {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String text;
            try (InputStream in = p.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                return Optional.empty();
            }
            return Optional.of(text);
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
