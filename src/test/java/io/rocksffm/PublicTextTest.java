package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What users read says what things do, not where they came from: no issue numbers in the sources,
 * the guides or the README, and no test class names in the public package's javadoc (guides may
 * point contributors at a test on purpose, e.g. the bad-inputs table's "Test" column).
 */
class PublicTextTest {
    private static final Pattern ISSUE = Pattern.compile("(?i)\\bissue [0-9]|\\bissues? #?[0-9]");
    private static final Pattern TEST_CLASS = Pattern.compile("\\b[A-Z][A-Za-z]*Test\\b");

    private static List<Path> files(String root, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(Path.of(root))) {
            return s.filter(p -> p.toString().endsWith(suffix)).toList();
        }
    }

    private static List<String> matches(List<Path> files, Pattern pattern) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (pattern.matcher(lines.get(i)).find()) {
                    found.add(f + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        return found;
    }

    @Test
    void noIssueNumbersInSourcesGuidesOrReadme() throws IOException {
        List<Path> files = new ArrayList<>(files("src/main", ""));
        files.removeIf(p -> !Files.isRegularFile(p));
        files.addAll(files("docs", ".md"));
        files.add(Path.of("README.md"));
        assertTrue(files.size() > 100, "the walk found the sources: " + files.size());
        assertEquals(List.of(), matches(files, ISSUE));
    }

    @Test
    void noTestClassNamesInThePublicPackagesJavadoc() throws IOException {
        List<Path> api = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("src/main/java/io/rocksffm"))) {
            s.filter(p -> p.toString().endsWith(".java")).forEach(api::add);
        }
        assertFalse(api.isEmpty());
        assertEquals(List.of(), matches(api, TEST_CLASS));
        assertTrue(TEST_CLASS.matcher("see {@code ApiShapeTest}").find(), "the pattern finds a test class name");
        assertTrue(ISSUE.matcher("(issue 32)").find() && ISSUE.matcher("issues #7").find(), "the pattern finds issue numbers");
    }
}
