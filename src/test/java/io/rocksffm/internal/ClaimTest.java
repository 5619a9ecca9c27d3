package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ClaimTest {
    /** The child count of {@code l}: how many times it refuses to close, one release at a time. */
    private static int children(Lifecycle l) {
        int n = 0;
        while (l.hasChildren()) {
            l.removeChild();
            n++;
        }
        for (int i = 0; i < n; i++) {
            l.addChild();
        }
        return n;
    }

    @Test
    void holdKeepsTheClaimWhenTheChangeReturns() {
        Lifecycle a = new Lifecycle("A");
        AtomicBoolean ran = new AtomicBoolean();
        Claim.hold(a, () -> {
            assertEquals(1, children(a), "claimed before the change runs");
            ran.set(true);
        });
        assertTrue(ran.get());
        assertEquals(1, children(a));
        assertThrows(IllegalStateException.class, () -> a.close(() -> {}), "a held claim refuses the close");
        a.removeChild();
        a.close(() -> {});
    }

    @Test
    void holdReleasesTheClaimWhenTheChangeThrows() {
        Lifecycle a = new Lifecycle("A");
        RuntimeException boom = new RuntimeException("boom");
        assertSame(boom, assertThrows(RuntimeException.class, () -> Claim.hold(a, () -> {
            throw boom;
        })));
        AssertionError error = new AssertionError("error");
        assertSame(error, assertThrows(AssertionError.class, () -> Claim.hold(a, () -> {
            throw error;
        })));
        assertEquals(0, children(a));
    }

    @Test
    void holdOnAClosedReferentRunsNothing() {
        Lifecycle a = new Lifecycle("A");
        a.close(() -> {});
        AtomicBoolean ran = new AtomicBoolean();
        assertEquals("A is closed",
                assertThrows(IllegalStateException.class, () -> Claim.hold(a, () -> ran.set(true))).getMessage());
        assertFalse(ran.get());
    }

    @Test
    void replaceReleasesTheOldAfterTheChangeAndKeepsItWhenTheChangeThrows() {
        Lifecycle a = new Lifecycle("A");
        Lifecycle b = new Lifecycle("B");
        Claim claim = new Claim();
        claim.replace(a, () -> {});
        assertEquals(1, children(a));
        claim.replace(b, () -> assertEquals(1, children(a), "the old is held while the change runs"));
        assertEquals(0, children(a));
        assertEquals(1, children(b));

        assertThrows(IllegalStateException.class, () -> claim.replace(a, () -> {
            throw new IllegalStateException("refused");
        }));
        assertEquals(0, children(a), "the new claim is released");
        assertEquals(1, children(b), "the old is kept");

        claim.replace(null, () -> {});
        assertEquals(0, children(b), "null releases the old and holds nothing");
        claim.replace(a, () -> {});
        claim.release();
        claim.release();
        assertEquals(0, children(a), "release is idempotent");
    }
}
