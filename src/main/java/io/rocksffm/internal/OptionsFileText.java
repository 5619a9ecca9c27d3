package io.rocksffm.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads what RocksDB itself wrote about a database's column families: the newest
 * {@code OPTIONS-<number>} file of its directory (written at every open for writing and every
 * column family creation), an INI text whose {@code [CFOptions "name"]} sections give each
 * family's comparator and merge operator by name, however they were configured (by rocksffm's
 * setters, an options string, an options file).
 */
public final class OptionsFileText {
    private OptionsFileText() {}

    /**
     * The options of each column family in the newest OPTIONS file of {@code dir}, by family name
     * (each a map of option name to its text); empty if there is none or it cannot be read.
     */
    public static Map<String, Map<String, String>> latest(Path dir) {
        Path newest = null;
        long number = -1;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                String name = p.getFileName().toString();
                if (name.startsWith("OPTIONS-") && !name.endsWith(".dbtmp")) {
                    try {
                        long n = Long.parseLong(name.substring("OPTIONS-".length()));
                        if (n > number) {
                            number = n;
                            newest = p;
                        }
                    } catch (NumberFormatException e) {
                        // not one of RocksDB's
                    }
                }
            }
            return newest == null ? Map.of() : parse(Files.readAllLines(newest, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return Map.of(); // unreadable: the caller keeps what it knows
        }
    }

    /** The {@code [CFOptions "name"]} sections of an OPTIONS file's lines. */
    static Map<String, Map<String, String>> parse(List<String> lines) {
        Map<String, Map<String, String>> out = new HashMap<>();
        Map<String, String> section = null;
        for (String raw : lines) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[")) {
                section = null;
                if (line.startsWith("[CFOptions \"") && line.endsWith("\"]")) {
                    section = new HashMap<>();
                    out.put(line.substring("[CFOptions \"".length(), line.length() - 2), section);
                }
                continue;
            }
            int eq = line.indexOf('=');
            if (section != null && eq > 0) {
                section.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return out;
    }

    /** Whether an option's text names an object ({@code nullptr} and empty mean none). */
    public static boolean names(String value) {
        return value != null && !value.isEmpty() && !value.equals("nullptr");
    }
}
