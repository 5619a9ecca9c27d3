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
            hold(next, change);
        } else {
            change.run();
        }
        if (held != null) {
            held.removeChild();
        }
        held = next;
    }

    /**
     * Claims {@code referent} and runs {@code change}, which makes something hold the claim beyond
     * this call (released later with {@link Lifecycle#removeChild()}); if {@code change} throws,
     * the claim is released before the exception goes on, as a call token exits what it entered.
     *
     * @param referent the lifecycle to claim
     * @param change   the change that takes the claim over
     * @throws IllegalStateException if {@code referent} is closed (nothing runs then)
     */
    public static void hold(Lifecycle referent, Runnable change) {
        referent.addChild();
        try {
            change.run();
        } catch (RuntimeException | Error e) {
            referent.removeChild();
            throw e;
        }
    }

    /** Releases what is held, if anything. Idempotent. */
    public void release() {
        if (held != null) {
            held.removeChild();
            held = null;
        }
    }
}
