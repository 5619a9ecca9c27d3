package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's quickstart, compiled and run. Keep the two in sync (README quotes this file). */
class TutorialTest {
    @TempDir
    Path dir;

    @Test
    void quickstart() {
        // --- quickstart begin
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("quickstart"), options)) {

            // byte[] conveniences
            db.put("hello".getBytes(StandardCharsets.UTF_8), "world".getBytes(StandardCharsets.UTF_8));
            byte[] value = db.get("hello".getBytes(StandardCharsets.UTF_8));   // null when absent

            // MemorySegment core: no copies into Java arrays, no allocation per call
            try (Arena arena = Arena.ofConfined();
                 ReadOptions read = new ReadOptions();
                 WriteOptions write = new WriteOptions().setSync(true)) {
                MemorySegment key = arena.allocateFrom("segment-key");
                db.put(write, key, arena.allocateFrom("segment-value"));

                MemorySegment out = arena.allocate(64);
                long length = db.get(read, key, out);                 // -1 when absent
                // length > out.byteSize() means the buffer was too small: retry with a larger one

                try (PinnedValue pinned = db.getPinned(read, key)) {  // zero-copy, read-only view
                    MemorySegment view = pinned.segment();            // valid until pinned.close()
                    // ... use view ...
                    // --- quickstart end
                    assertEquals("world", new String(value, StandardCharsets.UTF_8));
                    assertEquals("segment-value".length() + 1, length);
                    assertEquals(-1, out.asSlice(0, length).mismatch(view));
                    // --- quickstart begin
                }
            }
            db.delete("hello".getBytes(StandardCharsets.UTF_8));
        } catch (RocksDBException e) {
            System.err.println(e.code() + ": " + e.getMessage());   // e.g. IO_ERROR: ... lock ...
            throw e;
        }
        // --- quickstart end
    }

    /** The README's quickstart block is exactly the code between the markers above. */
    @Test
    void readmeQuotesThisTest() throws Exception {
        List<String> snippet = new ArrayList<>();
        boolean on = false;
        for (String line : Files.readAllLines(Path.of("src/test/java/io/rocksffm/TutorialTest.java"))) {
            if (line.strip().equals("// --- quickstart begin")) {
                on = true;
            } else if (line.strip().equals("// --- quickstart end")) {
                on = false;
            } else if (on) {
                snippet.add(line);
            }
        }
        String code = String.join("\n", snippet).stripIndent().strip();
        String readme = Files.readString(Path.of("README.md"));
        int start = readme.indexOf("```java", readme.indexOf("## Quickstart")) + "```java".length();
        String quoted = readme.substring(start, readme.indexOf("```", start)).strip();
        assertEquals(code, quoted);
    }
}
