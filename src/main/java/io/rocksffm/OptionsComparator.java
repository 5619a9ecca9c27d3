package io.rocksffm;

/**
 * The key order an {@link Options} gives the families it creates or opens: the Java comparator
 * set on it ({@link Options#setComparator}; these options hold one counted user of its
 * {@link NativeComparator}, since RocksDB keeps a raw pointer to it), or the order of a comparator
 * inherited from the text or base options of {@link Options#fromString} or from an options file.
 *
 * <p><b>Threads.</b> Options may be shared across threads, so this state is guarded by a private
 * lock (never the caller's {@code Options}, which callers may lock for their own purposes): a
 * database opened while another thread replaces the comparator takes a user of the old one or of
 * the new one, never of one already released. No lock is held while another object's is taken.
 */
final class OptionsComparator {
    private final Object lock = new Object();
    /** The comparator set on the options (one user held here), or null. Under {@link #lock}. */
    private NativeComparator comparator;
    /** The order inherited without {@link #set}, or null. Under {@link #lock}. */
    private KeyOrder inherited;

    /**
     * Makes {@code c} the options' comparator: runs {@code install} (the options' C setter) and
     * releases the comparator set before, atomically for the other methods. Takes over the
     * caller's user of {@code c}.
     */
    void set(NativeComparator c, Runnable install) {
        synchronized (lock) {
            install.run();
            releaseLocked();
            comparator = c;
            inherited = null;
        }
    }

    /** {@return the Java comparator set on the options, or null} */
    Comparator java() {
        synchronized (lock) {
            return comparator == null ? null : comparator.comparator;
        }
    }

    /** {@return the order the options give a family: the one inherited, else the comparator set, else bytewise} */
    KeyOrder order() {
        synchronized (lock) {
            if (inherited != null) {
                return inherited;
            }
            return comparator == null ? KeyOrder.BYTEWISE : KeyOrder.of(comparator.comparator);
        }
    }

    /** Records the order of a comparator the options carry without {@link #set} having set it. */
    void inherit(KeyOrder order) {
        synchronized (lock) {
            inherited = order;
        }
    }

    /** {@return a new user of the comparator set on the options (for a database or copy), or null} */
    NativeComparator retain() {
        synchronized (lock) {
            return comparator == null ? null : comparator.retain();
        }
    }

    /**
     * Points at the comparator {@code base} holds, as RocksDB's copy of {@code base}'s options
     * does: takes a new user of it (outside this object's lock) and releases the one held before.
     */
    void copyFrom(OptionsComparator base) {
        NativeComparator c = base.retain();
        synchronized (lock) {
            releaseLocked();
            comparator = c;
        }
    }

    /** Releases the options' user of their comparator (when the options are destroyed). */
    void release() {
        synchronized (lock) {
            releaseLocked();
        }
    }

    private void releaseLocked() {
        if (comparator != null) {
            comparator.release();
            comparator = null;
        }
    }
}
