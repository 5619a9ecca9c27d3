package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The examples of the public javadoc are code that runs. Every {@code {@snippet id="NAME" : ...}} of
 * {@code io.rocksffm} is exactly the code between the "javadoc:NAME begin/end" markers of a test
 * ({@code *ExamplesTest} classes, which run it), every such test block is quoted by the javadoc,
 * no example is written any other way ({@code <pre>{@code}, a snippet without an id), and every
 * public type has an example in its class javadoc or is listed in {@link #WITHOUT_EXAMPLE} with
 * the reason.
 */
class JavadocExamplesTest {
    private static final Path MAIN = Path.of("src/main/java/io/rocksffm");
    private static final Path TESTS = Path.of("src/test/java/io/rocksffm");
    private static final Pattern SNIPPET = Pattern.compile("\\{@snippet\\s+id=\"(\\w+)\"\\s*:");
    private static final Pattern MARKER = Pattern.compile("// --- javadoc:(\\w+) (begin|end)");
    private static final Pattern TYPE = Pattern.compile(
            "(?m)^public (?:sealed |non-sealed |abstract |final )*(class|interface|enum|record) (\\w+)");

    /** The public types whose class javadoc has no example of its own, and why. */
    static final Map<String, String> WITHOUT_EXAMPLE = Map.ofEntries(
            Map.entry("Compression", "enum: one constant passed to Options.setCompression"),
            Map.entry("HistogramType", "enum: one constant passed to Statistics.histogram"),
            Map.entry("InfoLogLevel", "enum: one constant passed to Options.setInfoLogLevel"),
            Map.entry("StatisticsLevel", "enum: one constant passed to Options.setStatisticsLevel"),
            Map.entry("WalRecoveryMode", "enum: one constant passed to Options.setWalRecoveryMode"),
            Map.entry("CompactionPriority", "enum: one constant passed to Options.setCompactionPriority"),
            Map.entry("TickerType", "enum: Statistics' example reads one"),
            Map.entry("BackupInfo", "record of values returned by BackupEngine.backups(): BackupEngine's example"),
            Map.entry("HistogramData", "record of values returned by Statistics.histogram"),
            Map.entry("LiveFile", "record of values returned by DatabaseAdmin.liveFiles()"),
            Map.entry("WalFile", "record of values returned by DatabaseAdmin.sortedWalFiles()"),
            Map.entry("ColumnFamilyDescriptor", "record (name, options): ColumnFamilyHandle's example opens with it"),
            Map.entry("MergeOperands", "argument of MergeOperator.fullMerge: MergeOperator's example reads it"),
            Map.entry("ValueOutput", "argument of the callbacks: MergeOperator's example writes to it"),
            Map.entry("Database", "abstract; opened as RocksDB, TransactionDB or OptimisticTransactionDB, "
                    + "whose examples show it"),
            Map.entry("KeyValueWrites", "interface of Database: the examples of RocksDB, WriteOptions and "
                    + "ColumnFamilyHandle show it, Writes' example its shared part"),
            Map.entry("NativeWriteBatch", "made by WriteBatch.toNative() for a C library that wants a "
                    + "rocksdb_writebatch_t; no use on its own"),
            Map.entry("BackupEngineOptions", "BackupEngine's example makes one"),
            Map.entry("RestoreOptions", "options of BackupEngine.restore; BackupEngine's example shows the plain form"),
            Map.entry("IngestExternalFileOptions", "SstFileWriter's example makes one"),
            Map.entry("EnvOptions", "options of SstFileWriter.open; SstFileWriter's example shows the plain form"),
            Map.entry("TransactionDBOptions", "TransactionDB's example makes one"),
            Map.entry("TransactionOptions", "TransactionDB's example makes one"),
            Map.entry("OptimisticTransactionOptions", "options of OptimisticTransactionDB.beginTransaction; its "
                    + "example shows the plain form"),
            Map.entry("FilterPolicy", "record passed to BlockBasedTableConfig.setFilterPolicy: its example and "
                    + "Cache's make one"),
            Map.entry("FlushOptions", "one setting (wait); DatabaseAdmin.flush(boolean), in its example, is the "
                    + "usual form"),
            Map.entry("CompactionOptions", "options of DatabaseAdmin.compactFiles, for experts"),
            Map.entry("CompactionStyle", "enum: the examples of UniversalCompactionOptions and FifoCompactionOptions "
                    + "set one"));

    @Test
    void everyJavadocExampleIsTestedCode() throws IOException {
        Map<String, String> tested = testBlocks();
        Set<String> quoted = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        try (Stream<Path> files = Files.list(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String source = Files.readString(file);
                long snippets = Pattern.compile("\\{@snippet").matcher(source).results().count();
                if (source.contains("<pre>{@code") || snippets != SNIPPET.matcher(source).results().count()) {
                    problems.add(file + ": an example that is not a {@snippet id=\"NAME\" : ...} quoted from a test");
                }
                Matcher m = SNIPPET.matcher(source);
                while (m.find()) {
                    String name = m.group(1);
                    if (!quoted.add(name)) {
                        problems.add(file + ": a second example named " + name);
                    } else if (!tested.containsKey(name)) {
                        problems.add(file + ": example " + name + " has no javadoc:" + name + " block in a test");
                    } else if (!tested.get(name).equals(body(source, m.end()))) {
                        problems.add(file + ": example " + name + " differs from the tested code, which is, "
                                + "ready to paste:\n * " + tested.get(name).replace("\n", "\n * ").replace(" * \n", " *\n"));
                    }
                }
            }
        }
        tested.forEach((name, code) -> {
            if (Character.isWhitespace(code.charAt(0))) {
                problems.add(name + ": its parts sit at different depths, so the first one renders indented");
            }
        });
        assertEquals(List.of(), problems);
        assertEquals(tested.keySet(), quoted, "every tested example is quoted by the javadoc");
    }

    @Test
    void everyPublicTypeHasAnExampleOrAReason() throws IOException {
        Set<String> without = new TreeSet<>();
        Set<String> types = new TreeSet<>();
        try (Stream<Path> files = Files.list(MAIN)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher type = TYPE.matcher(source);
                if (!type.find()) {
                    continue;
                }
                types.add(type.group(2));
                String before = source.substring(0, type.start());
                String classDoc = before.substring(Math.max(0, before.lastIndexOf("/**")));
                if (!SNIPPET.matcher(classDoc).find()) {
                    without.add(type.group(2));
                }
            }
        }
        assertTrue(types.containsAll(WITHOUT_EXAMPLE.keySet()), "listed types that no longer exist");
        Set<String> both = new TreeSet<>(WITHOUT_EXAMPLE.keySet());
        both.removeAll(without);
        assertEquals(Set.of(), both, "listed as without an example but the class javadoc has one");
        without.removeAll(WITHOUT_EXAMPLE.keySet());
        assertEquals(Set.of(), without, "public types without an example in their class javadoc");
        assertTrue(types.size() - WITHOUT_EXAMPLE.size() >= 35, "types with an example");
    }

    /** The checker itself: the body of a snippet is cut at its closing brace and lost its asterisks. */
    @Test
    void bodyOfASnippet() {
        String doc = """
                /**
                 * Text {@snippet id="x" :
                 * try (A a = new A()) {
                 *     a.run();
                 * }
                 * } more
                 */""";
        Matcher m = SNIPPET.matcher(doc);
        assertTrue(m.find());
        assertEquals("try (A a = new A()) {\n    a.run();\n}", body(doc, m.end()));
    }

    /** The code of a snippet that starts at {@code from}: its lines without the javadoc asterisks. */
    static String body(String source, int from) {
        List<String> lines = new ArrayList<>();
        int depth = 1;
        String[] rest = source.substring(from).split("\n", -1);
        for (int i = 0; i < rest.length && depth > 0; i++) {
            String line = i == 0 ? rest[0] : rest[i].replaceFirst("^\\s*\\*( |$)", "");
            StringBuilder kept = new StringBuilder();
            for (char c : line.toCharArray()) {
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                if (depth == 0) {
                    break;
                }
                kept.append(c);
            }
            lines.add(kept.toString());
        }
        assertEquals(0, depth, "unbalanced snippet");
        return String.join("\n", lines).stripIndent().strip();
    }

    /** The blocks between "javadoc:NAME begin" and "end" markers of the tests, by name (several parts joined). */
    static Map<String, String> testBlocks() throws IOException {
        Map<String, List<String>> blocks = new TreeMap<>();
        try (Stream<Path> files = Files.list(TESTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith("ExamplesTest.java")).sorted().toList()) {
                String open = null;
                for (String line : Files.readAllLines(file)) {
                    Matcher m = MARKER.matcher(line.strip());
                    if (m.matches()) {
                        assertEquals(m.group(2).equals("begin"), open == null, file + ": " + line.strip());
                        open = m.group(2).equals("begin") ? m.group(1) : null;
                        blocks.computeIfAbsent(m.group(1), k -> new ArrayList<>());
                    } else if (open != null) {
                        blocks.get(open).add(line);
                    }
                }
                assertNull(open, file + ": a block is not closed");
            }
        }
        Map<String, String> out = new TreeMap<>();
        blocks.forEach((name, lines) -> out.put(name, String.join("\n", lines).stripIndent().strip()));
        return out;
    }
}
