package io.rocksffm.internal;

/**
 * One child claim on the lifecycle of a referent that can be replaced (read options' snapshot,
 * options' environment and logger): the referent refuses to close while it is held. Replacing
 * claims the new referent before the change and releases the old one after it, and a change that
 * throws releases the new claim and keeps the old, by construction, as a call token exits what it
 * entered. Not thread-safe: the owner guards it with the lock that guards the reference.
 */
public final class Claim {
    private Lifecycle held;

    /**
     * Claims {@code next} (null: nothing), runs {@code change}, then releases what was held
     * before; if {@code change} throws, releases {@code next} instead and keeps holding the old.
     *
     * @param next   the new referent's lifecycle, or null
     * @param change the change that makes the owner point at the new referent
     * @throws IllegalStateException if {@code next} is closed (nothing changes then)
     */
    public void replace(Lifecycle next, Runnable change) {
        if (next != null) {
            next.addChild();
        }
        try {
            change.run();
        } catch (RuntimeException | Error e) {
            if (next != null) {
                next.removeChild();
            }
            throw e;
        }
        if (held != null) {
            held.removeChild();
        }
        held = next;
    }

    /** Releases what is held, if anything. Idempotent. */
    public void release() {
        if (held != null) {
            held.removeChild();
            held = null;
        }
    }
}
