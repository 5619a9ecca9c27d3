package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Capabilities;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RateLimiterTest {
    @TempDir
    Path dir;

    @Test
    void badArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.create(0));
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.create(-1));
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.create(1 << 20, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> RateLimiter.create(1 << 20, 100_000, 0));
        assertThrows(NullPointerException.class,
                () -> RateLimiter.create(1 << 20, 100_000, 10, null, false));
        try (Options options = new Options()) {
            assertThrows(NullPointerException.class, () -> options.setRateLimiter(null));
            RateLimiter closed = RateLimiter.create(1 << 20);
            closed.close();
            closed.close();
            assertTrue(closed.isClosed());
            assertThrows(IllegalStateException.class, () -> options.setRateLimiter(closed));
        }
    }

    @Test
    void withModeIsGatedByTheEngine() {
        if (Capabilities.callable("rocksdb_ratelimiter_create_with_mode")) {
            for (RateLimiter.Mode mode : RateLimiter.Mode.values()) {
                try (RateLimiter limiter = RateLimiter.create(1 << 20, 100_000, 10, mode, true)) {
                    assertFalse(limiter.isClosed());
                }
            }
        } else {
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> RateLimiter.create(1 << 20, 100_000, 10, RateLimiter.Mode.ALL_IO, false));
            assertTrue(e.getMessage().contains("rocksdb_ratelimiter_create_with_mode"), e.getMessage());
            System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": " + e.getMessage());
        }
    }

    /** Flushing 1 MiB of incompressible values through a 2 MiB/s limiter takes about half a second. */
    @Test
    void oneLimiterSlowsTheFlushesOfTwoDatabases() {
        byte[] value = new byte[1024];
        Random random = new Random(16);
        try (RateLimiter limiter = RateLimiter.create(2 << 20, 50_000, 10);
             Options options = new Options().setCreateIfMissing(true).setCompression(Compression.NONE)
                     .setRateLimiter(limiter)) {
            limiter.close(); // the options keep their own reference
            try (RocksDB a = RocksDB.open(dir.resolve("a"), options);
                 RocksDB b = RocksDB.open(dir.resolve("b"), options)) {
                for (RocksDB db : new RocksDB[] {a, b}) {
                    for (int i = 0; i < 512; i++) {
                        random.nextBytes(value);
                        db.put(bytes("key" + i), value);
                    }
                }
                long start = System.nanoTime();
                a.flush(true);
                b.flush(true);
                long millis = (System.nanoTime() - start) / 1_000_000;
                System.out.println("[rocksffm] 2 x 512 KiB flushed through a 2 MiB/s limiter in " + millis + " ms");
                assertTrue(millis >= 300, "the limiter held the flushes back: " + millis + " ms");
                assertEquals(512 * 1024, a.get(bytes("key7")).length * 512);
            }
        }
    }
}
