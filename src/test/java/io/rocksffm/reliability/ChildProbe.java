package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Scenarios the bad input tests run in a child JVM: one that holds a database's lock for
 * another process to run into ({@link BadOpenAndOwnershipTest}), and ones that may crash the JVM
 * (so that a crash fails one test instead of killing the suite: {@link BadInputTest}). Prints
 * what happened, one line per step.
 *
 * <p>Arguments: scenario, database path.
 */
public final class ChildProbe {
    private ChildProbe() {}

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[1]);
        switch (args[0]) {
            case "hold-lock" -> {
                try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, o)) {
                    db.put("held".getBytes(StandardCharsets.UTF_8), "yes".getBytes(StandardCharsets.UTF_8));
                    System.out.println("READY");
                    System.out.flush();
                    System.in.read(); // until the parent closes our stdin (or dies)
                }
                System.out.println("CLOSED");
            }
            case "huge-prefetch" -> {
                try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, o);
                     ReadOptions ro = new ReadOptions()) {
                    db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
                    try {
                        db.newIterator(ro.setPrefetchBytes(1L << 50)).close();
                        System.out.println("NO EXCEPTION");
                    } catch (Throwable t) {
                        System.out.println("THREW " + t.getClass().getName());
                    }
                    System.out.flush();
                }
                System.out.println("CLOSED");
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
    }
}
