package io.rocksffm;

import io.rocksffm.internal.Scratch;

import java.util.Objects;

/**
 * The guard around a database's calls: enters the database, the column family and the options
 * (their {@link io.rocksffm.internal.Lifecycle}s) so none can be destroyed while a call uses it,
 * and checks that the family and the options' snapshot belong to this database.
 *
 * <p>Every call goes through a token: a pooled {@link Scratch} that enters the objects the call
 * uses ({@link Scratch#enter}) and exits them, in reverse order, when it is released. The
 * {@code begin} forms acquire the token; the {@code enter} forms add this database's objects to a
 * token a caller holds already (a transaction's, which entered the transaction first). A striped
 * database lifecycle counts the call in the cell of the scratch's pool slot, one atomic
 * instruction per call.
 *
 * <p>The default family's handle is destroyed only when the database closes, after every call
 * has left, and the shared default read/write options never, so calls need not enter their
 * lifecycles: that saves two atomic operations per call on each.
 */
final class CallGuard {
    private final NativeObject database;
    private final ColumnFamilyHandle defaultFamily;

    CallGuard(NativeObject database, ColumnFamilyHandle defaultFamily) {
        this.database = database;
        this.defaultFamily = defaultFamily;
    }

    /** The shared default options, which are never closed. */
    private static boolean owned(NativeObject options) {
        return options == ReadOptions.DEFAULT || options == WriteOptions.DEFAULT;
    }

    /** {@return the database's default family} */
    ColumnFamilyHandle defaultFamily() {
        return defaultFamily;
    }

    /** Refuses a null family or one of another database. */
    void checkFamily(ColumnFamilyHandle family) {
        Objects.requireNonNull(family, "family");
        if (family.db != database) {
            throw new IllegalArgumentException(family + " belongs to another database");
        }
    }

    /**
     * The token of a call on the database: a scratch with the database entered; release it
     * (try-with-resources) to end the call.
     *
     * @throws IllegalStateException if the database is closed
     */
    Scratch begin() {
        return Scratch.enterFirst(database.lifecycle);
    }

    /** {@link #begin()} with {@code family} entered too (refused if null or another database's). */
    Scratch begin(ColumnFamilyHandle family) {
        return begin(WriteOptions.DEFAULT, family); // the shared default options are not entered
    }

    /** {@link #begin(ColumnFamilyHandle)} with {@code options} entered too. */
    Scratch begin(NativeObject options, ColumnFamilyHandle family) {
        Scratch s = Scratch.acquire();
        try {
            return enter(s, options, family);
        } catch (RuntimeException | Error e) {
            s.release(); // exits what was entered
            throw e;
        }
    }

    /** {@link #begin(NativeObject, ColumnFamilyHandle)} for a read: refuses a snapshot of another database. */
    Scratch beginRead(ReadOptions options, ColumnFamilyHandle family) {
        checkSnapshot(options);
        return begin(options, family);
    }

    /** Refuses read options carrying a snapshot of another database. */
    private void checkSnapshot(ReadOptions options) {
        Database owner = options.snapshotOwner();
        if (owner != null && owner != database) {
            throw new IllegalArgumentException("the read options carry a snapshot of another database");
        }
    }

    /**
     * Enters the database and {@code family} (in that order) for the call holding {@code s}; the
     * caller releases {@code s} if this throws (what was entered is then exited).
     *
     * @return {@code s}
     * @throws NullPointerException if {@code family} is null
     * @throws IllegalArgumentException if it is another database's
     * @throws IllegalStateException if the database or family is closed
     */
    Scratch enterFamily(Scratch s, ColumnFamilyHandle family) {
        checkFamily(family);
        s.enter(database.lifecycle);
        return family == defaultFamily ? s : s.enter(family.lifecycle);
    }

    /**
     * Enters one more family of this database for the call holding {@code s}, which entered the
     * database already (a call on several families); refusals as {@link #enterFamily(Scratch,
     * ColumnFamilyHandle)}.
     *
     * @return {@code s}
     */
    Scratch enterOtherFamily(Scratch s, ColumnFamilyHandle family) {
        checkFamily(family);
        return family == defaultFamily ? s : s.enter(family.lifecycle);
    }

    /** {@link #enterFamily(Scratch, ColumnFamilyHandle)}, then {@code options} (the shared defaults need not be). */
    Scratch enter(Scratch s, NativeObject options, ColumnFamilyHandle family) {
        enterFamily(s, family);
        if (!owned(options)) {
            s.enter(options.lifecycle);
        }
        return s;
    }

    /** {@link #enter(Scratch, NativeObject, ColumnFamilyHandle)} for a read: refuses a snapshot of another database. */
    Scratch enterRead(Scratch s, ReadOptions options, ColumnFamilyHandle family) {
        checkSnapshot(options);
        return enter(s, options, family);
    }

    // ---- whole calls (administration, not the data path) -----------------------------------------

    /** The body of a guarded call, given the call's scratch memory. */
    @FunctionalInterface
    interface Body<R> {
        R run(Scratch s);
    }

    /**
     * Runs {@code body} as one call with the database entered and scratch memory: for calls off the
     * data path (one lambda per call), which the per-call cost of a lambda does not matter to.
     */
    <R> R call(Body<R> body) {
        try (Scratch s = begin()) {
            return body.run(s);
        }
    }

    /** {@link #call(Body)} with {@code family} entered too (refused if it is another database's). */
    <R> R callFamily(ColumnFamilyHandle family, Body<R> body) {
        try (Scratch s = begin(family)) {
            return body.run(s);
        }
    }

    /** {@link #call(Body)} with {@code family} and {@code options} entered too. */
    <R> R call(NativeObject options, ColumnFamilyHandle family, Body<R> body) {
        try (Scratch s = begin(options, family)) {
            return body.run(s);
        }
    }

    /** {@link #call(NativeObject, ColumnFamilyHandle, Body)} for a read (a snapshot of another database refused). */
    <R> R callRead(ReadOptions options, ColumnFamilyHandle family, Body<R> body) {
        try (Scratch s = beginRead(options, family)) {
            return body.run(s);
        }
    }
}
