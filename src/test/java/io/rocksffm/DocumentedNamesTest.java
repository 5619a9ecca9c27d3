package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The names the README and the guides quote in backticks exist at HEAD: a member of a rocksffm type
 * ({@code `RocksDB.open`}, {@code `RocksDBException.Code.BUSY`}) is a method, field, nested type
 * or constant of that type (found by reflection over {@code io.rocksffm}), and a test
 * ({@code `FooTest`}, {@code `FooTest.someCase`}) is a test class with that method. Names of types
 * rocksffm does not have (the JDK's, rocksdbjni's, Kafka's) are left alone; code blocks too.
 */
class DocumentedNamesTest {
    /** A quoted name: dotted upper-case segments (a type, maybe nested), then maybe a member, maybe with arguments. */
    private static final Pattern QUOTED = Pattern.compile("`([A-Z][A-Za-z0-9_]*(?:[.#][A-Za-z_][A-Za-z0-9_]*)*)(\\([^`]*\\))?`");
    private static final Pattern FENCE = Pattern.compile("^\\s*```");
    private static final Path TESTS = Path.of("src/test/java");
    /** Kafka's own conformance tests, which the Kafka Streams guide names. */
    private static final Set<String> KAFKAS_TESTS = Set.of("AbstractKeyValueStoreTest", "AbstractWindowBytesStoreTest",
            "AbstractSessionBytesStoreTest");

    @Test
    void quotedTypesMembersAndTestsExist() throws IOException {
        Map<String, Path> testSources = testSources();
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Path page : pages()) {
            boolean code = false;
            int lineNumber = 0;
            for (String line : Files.readAllLines(page)) {
                lineNumber++;
                if (FENCE.matcher(line).find()) {
                    code = !code;
                    continue;
                }
                if (code) {
                    continue;
                }
                String text = line;
                String file = page.getFileName().toString();
                if ((file.startsWith("migrating-from-rocksdbjni") || file.startsWith("rocksdbjni-")) && text.startsWith("|")) {
                    int second = text.indexOf('|', 1); // the migration tables' first column names rocksdbjni's API
                    text = second < 0 ? "" : text.substring(second);
                }
                Matcher m = QUOTED.matcher(text);
                while (m.find()) {
                    String name = m.group(1).replace('#', '.');
                    Optional<String> problem = check(name, testSources);
                    if (problem != null) {
                        checked++;
                        if (problem.isPresent()) {
                            wrong.add(page + ":" + lineNumber + " `" + name + "`: " + problem.get());
                        }
                    }
                }
            }
        }
        assertTrue(checked > 100, "the scan found the quoted names: " + checked);
        assertEquals(List.of(), wrong);
    }

    /**
     * Checks one quoted name: null if it names nothing of rocksffm's (not checked), else empty if it
     * exists, or what is wrong.
     */
    static Optional<String> check(String name, Map<String, Path> testSources) throws IOException {
        String[] parts = name.split("\\.");
        // the longest prefix of upper-case segments that is a rocksffm type or a test class
        for (int typeParts = parts.length; typeParts >= 1; typeParts--) {
            if (!Character.isUpperCase(parts[typeParts - 1].charAt(0))) {
                continue;
            }
            String typeName = String.join(".", List.of(parts).subList(0, typeParts));
            List<String> rest = List.of(parts).subList(typeParts, parts.length);
            Class<?> type = rocksffmType(typeName);
            if (type != null) {
                if (rest.isEmpty()) {
                    return Optional.empty();
                }
                if (rest.size() > 1) {
                    return null; // e.g. a call chain: not checked
                }
                return hasMember(type, rest.get(0)) ? Optional.empty()
                        : Optional.of(type.getName() + " has no member " + rest.get(0));
            }
            if (typeParts == 1 && parts[0].matches("[A-Z][A-Za-z0-9]*Tests?") && !KAFKAS_TESTS.contains(parts[0])) {
                Path source = testSources.get(parts[0]);
                if (source == null) {
                    return Optional.of("no test class " + parts[0]);
                }
                if (rest.size() == 1 && !Pattern.compile("\\b" + Pattern.quote(rest.get(0)) + "\\b")
                        .matcher(Files.readString(source)).find()) {
                    return Optional.of(parts[0] + " has no " + rest.get(0));
                }
                return rest.size() <= 1 ? Optional.empty() : null;
            }
        }
        return null;
    }

    /** The rocksffm type ({@code io.rocksffm} or its internal package, nested types with dots), or null. */
    static Class<?> rocksffmType(String dotted) {
        for (String pkg : List.of("io.rocksffm.", "io.rocksffm.internal.")) {
            try {
                return Class.forName(pkg + dotted.replace('.', '$'), false, DocumentedNamesTest.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                // not this package
            }
        }
        return null;
    }

    private static boolean hasMember(Class<?> type, String member) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (declares(c, member)) {
                return true;
            }
            for (Class<?> i : c.getInterfaces()) {
                if (hasMember(i, member)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean declares(Class<?> c, String member) {
        for (Method m : c.getDeclaredMethods()) {
            if (m.getName().equals(member)) {
                return true;
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (f.getName().equals(member)) {
                return true;
            }
        }
        for (Class<?> nested : c.getDeclaredClasses()) {
            if (nested.getSimpleName().equals(member)) {
                return true;
            }
        }
        return false;
    }

    /** Every test class's source by simple name. */
    private static Map<String, Path> testSources() throws IOException {
        Map<String, Path> out = new HashMap<>();
        for (Path root : List.of(TESTS, Path.of("kafka-streams/src/test/java"), Path.of("jmh/src"))) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(p -> p.toString().endsWith(".java"))
                        .forEach(p -> out.put(p.getFileName().toString().replace(".java", ""), p));
            }
        }
        return out;
    }

    /** The README and the guides (not the benchmark reports, which record the past). */
    private static List<Path> pages() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> s = Files.walk(Path.of("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    /** The check itself finds what is missing, and passes what is there. */
    @Test
    void theCheckTellsNamesThatExistFromOnesThatDoNot() throws IOException {
        Map<String, Path> tests = testSources();
        assertEquals(Optional.empty(), check("RocksDB.open", tests));
        assertEquals(Optional.empty(), check("RocksDBException.Code.BUSY", tests));
        assertEquals(Optional.empty(), check("Transaction.State", tests));
        assertEquals(Optional.empty(), check("DocumentedNamesTest.quotedTypesMembersAndTestsExist", tests));
        assertTrue(check("RocksDB.noSuchMethod", tests).isPresent());
        assertTrue(check("NoSuchClassTest", tests).isPresent());
        assertTrue(check("WriteSurfaceTest.noSuchCase", tests).isPresent());
        assertNull(check("IllegalStateException", tests), "not rocksffm's: not checked");
        assertNull(check("MemorySegment.ofArray", tests), "not rocksffm's: not checked");
    }
}
