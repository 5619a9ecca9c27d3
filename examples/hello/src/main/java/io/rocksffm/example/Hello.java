package io.rocksffm.example;

import io.rocksffm.Engine;
import io.rocksffm.Options;
import io.rocksffm.RocksDB;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Opens a database in a temporary directory, writes and reads one key, and prints the engine
 * rocksffm bound to and whether it ran on the module path or the class path.
 */
public final class Hello {
    private Hello() {}

    public static void main(String[] args) throws IOException {
        Path dir = Files.createTempDirectory("rocksffm-hello");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("db"), options)) {
            db.put(utf8("hello"), utf8("world"));
            System.out.println("hello -> " + new String(db.get(utf8("hello")), StandardCharsets.UTF_8));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        Engine engine = RocksDB.engine();
        System.out.println("engine: " + engine.source() + " " + engine.version() + " (" + engine.path() + ")");
        System.out.println("ran on the " + (Hello.class.getModule().isNamed() ? "module path" : "class path"));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
