package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the README and the guides under {@code docs/} resolves: the file or
 * directory exists, and an anchor ({@code #heading}) names a heading of its page, as GitHub
 * derives anchors from headings.
 */
class DocumentationLinksTest {
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.+)$");
    private static final Pattern FENCE = Pattern.compile("^\\s*```");

    /** The pages checked: README.md and every Markdown file under docs/ and the other top folders. */
    static List<Path> pages() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
        for (String dir : List.of("docs", "jmh", "ycsb", "examples", "bench-results")) {
            try (Stream<Path> s = Files.walk(Path.of(dir), 2)) {
                s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
    static String anchor(String heading) {
        String text = heading.replaceAll("`", "").replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").strip()
                .toLowerCase(Locale.ROOT);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                b.append(c);
            } else if (c == ' ') {
                b.append('-');
            }
        }
        return b.toString();
    }

    /** The anchors of a page's headings (outside code blocks), with GitHub's -1, -2 for repeats. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean code = false;
        for (String line : Files.readAllLines(page)) {
            if (FENCE.matcher(line).find()) {
                code = !code;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (!code && m.matches()) {
                String a = anchor(m.group(1));
                int n = seen.merge(a, 1, Integer::sum);
                out.add(n == 1 ? a : a + "-" + (n - 1));
            }
        }
        return out;
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages()) {
            boolean code = false;
            for (String line : Files.readAllLines(page)) {
                if (FENCE.matcher(line).find()) {
                    code = !code;
                    continue;
                }
                if (code) {
                    continue;
                }
                Matcher m = LINK.matcher(line);
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue; // http(s), mailto: not checked here
                    }
                    checked++;
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path resolved = file.isEmpty() ? page : page.resolveSibling(file).normalize();
                    if (!Files.exists(resolved)) {
                        broken.add(page + ": " + target + " (no " + resolved + ")");
                    } else if (hash >= 0 && resolved.toString().endsWith(".md")
                            && !anchors(resolved).contains(target.substring(hash + 1))) {
                        broken.add(page + ": " + target + " (no such heading in " + resolved + ")");
                    }
                }
            }
        }
        System.out.println("[rocksffm] documentation links checked: " + checked);
        assertTrue(checked > 20, "links found: " + checked);
        assertEquals(List.of(), broken);
    }

    @Test
    void anchorsFollowGitHub() {
        assertEquals("engine-versions-and-capabilities", anchor("Engine versions and capabilities"));
        assertEquals("4-when-no-engine-is-found", anchor("4. When no engine is found"));
        assertEquals("write-batches-built-in-java-memory", anchor("Write batches built in Java memory"));
        assertEquals("end-to-end-ycsb", anchor("End to end: YCSB"));
        assertEquals("getpinned-and-pinnedvalue", anchor("`getPinned` and `PinnedValue`"));
    }
}
