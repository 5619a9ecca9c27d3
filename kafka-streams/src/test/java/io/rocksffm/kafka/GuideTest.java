package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The guide docs/kafka-streams.md quotes the example application examples/kafka-streams exactly:
 * every block after a {@code <!-- guide:NAME -->} line is the code between that example's
 * "guide:NAME begin/end" markers (indentation removed), and every marked snippet is quoted.
 */
class GuideTest {
    private static final Path ROOT = Path.of("..");

    private static Map<String, String> snippets() throws IOException {
        Map<String, String> out = new TreeMap<>();
        List<Path> sources;
        try (Stream<Path> s = Files.walk(ROOT.resolve("examples/kafka-streams/src"))) {
            sources = s.filter(p -> p.toString().endsWith(".java")).toList();
        }
        Pattern begin = Pattern.compile("\\s*// --- guide:(\\S+) begin");
        Pattern end = Pattern.compile("\\s*// --- guide:(\\S+) end");
        for (Path source : sources) {
            String name = null;
            List<String> lines = new ArrayList<>();
            for (String line : Files.readAllLines(source)) {
                Matcher b = begin.matcher(line);
                Matcher e = end.matcher(line);
                if (b.matches()) {
                    name = b.group(1);
                    lines.clear();
                } else if (e.matches()) {
                    int indent = lines.stream().filter(l -> !l.isBlank())
                            .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
                    out.put(name, String.join("\n", lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList()));
                    name = null;
                } else if (name != null) {
                    lines.add(line);
                }
            }
        }
        return out;
    }

    @Test
    void theGuideQuotesTheExampleApplication() throws IOException {
        Map<String, String> snippets = snippets();
        assertFalse(snippets.isEmpty());
        String guide = Files.readString(ROOT.resolve("docs/kafka-streams.md"));
        Matcher m = Pattern.compile("<!-- guide:(\\S+) -->\\s*```java\\n(.*?)\\n```", Pattern.DOTALL).matcher(guide);
        Map<String, String> quoted = new TreeMap<>();
        while (m.find()) {
            quoted.put(m.group(1), m.group(2));
        }
        assertEquals(snippets, quoted);
    }
}
