package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The opt-in warm-up: it makes its calls on a database of its own, leaves nothing behind, keeps to
 * its budget, and starts once per process.
 */
class WarmUpTest {
    @TempDir
    Path parent;

    @Test
    void offUnlessSwitchedOn() {
        assertEquals(Boolean.getBoolean("rocksffm.warmup"), WarmUp.ENABLED);
    }

    @Test
    void trainsOnItsOwnDatabaseAndLeavesNothingBehind() throws IOException {
        int rounds = 600;
        assertEquals(rounds, WarmUp.train(parent, rounds, 60_000));
        assertEmpty(parent);
    }

    @Test
    void keepsToItsTimeBudget() throws IOException {
        int rounds = 10_000_000;
        long start = System.nanoTime();
        int done = WarmUp.train(parent, rounds, 200);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(done < rounds, done + " rounds");
        assertTrue(millis < 10_000, millis + " ms");
        assertEmpty(parent);
    }

    @Test
    void aFailureLeavesTheApplicationAlone() {
        Path missing = parent.resolve("missing");
        assertThrows(IOException.class, () -> WarmUp.train(missing, 10, 1_000));
        assertFalse(Files.exists(missing));
    }

    @Test
    void startsOncePerProcess() throws InterruptedException {
        Thread t = WarmUp.start();
        if (t == null) { // the first open of this JVM started it already (-Drocksffm.warmup=true)
            assertTrue(WarmUp.ENABLED);
            return;
        }
        assertEquals("rocksffm-warmup", t.getName());
        assertTrue(t.isDaemon());
        assertNull(WarmUp.start());
        t.join(60_000);
        assertFalse(t.isAlive());
        assertTrue(WarmUp.roundsDone > 0, "rounds: " + WarmUp.roundsDone);
        try (Options options = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(parent.resolve("app"), options)) {
            WarmUp.afterOpen(); // after the first start, an open starts nothing
            assertNull(WarmUp.start());
            assertNull(db.get(new byte[16]), "the application's database holds nothing of the warm-up's");
        }
    }

    private static void assertEmpty(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(0, s.filter(p -> p.getFileName().toString().startsWith("rocksffm-warmup")).count());
        }
    }
}
