package io.rocksffm;

import io.rocksffm.internal.Scratch;

import java.util.Objects;

/**
 * The guard around a database's calls: enters the database, the column family and the options
 * (their {@link io.rocksffm.internal.Lifecycle}s) so none can be destroyed while a call uses it,
 * and checks that the family and the options' snapshot belong to this database.
 *
 * <p>Every call goes through a token: a pooled {@link Scratch} that enters the objects the call
 * uses ({@link Scratch#enter}) and exits them, in reverse order, when it is released. A call on a
 * database makes its token one way, {@code begin}, whose overloads differ only in what they enter
 * and check: the database; its family; the options too; read options (whose snapshot must be this
 * database's). The {@code enter} overloads, the same checks, add this database's objects to a
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
    Scratch begin(ReadOptions options, ColumnFamilyHandle family) {
        checkSnapshot(options);
        return begin((NativeObject) options, family); // the overload above, after the read's check
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
    Scratch enter(Scratch s, ColumnFamilyHandle family) {
        checkFamily(family);
        s.enter(database.lifecycle);
        return family == defaultFamily ? s : s.enter(family.lifecycle);
    }

    /**
     * Enters one more family of this database for the call holding {@code s}, which entered the
     * database already (a call on several families); refusals as {@link #enter(Scratch,
     * ColumnFamilyHandle)}.
     *
     * @return {@code s}
     */
    Scratch enterOtherFamily(Scratch s, ColumnFamilyHandle family) {
        checkFamily(family);
        return family == defaultFamily ? s : s.enter(family.lifecycle);
    }

    /** {@link #enter(Scratch, ColumnFamilyHandle)}, then {@code options} (the shared defaults need not be). */
    Scratch enter(Scratch s, NativeObject options, ColumnFamilyHandle family) {
        enter(s, family);
        if (!owned(options)) {
            s.enter(options.lifecycle);
        }
        return s;
    }

    /** {@link #enter(Scratch, NativeObject, ColumnFamilyHandle)} for a read: refuses a snapshot of another database. */
    Scratch enter(Scratch s, ReadOptions options, ColumnFamilyHandle family) {
        checkSnapshot(options);
        return enter(s, (NativeObject) options, family); // the overload above, after the read's check
    }
}
