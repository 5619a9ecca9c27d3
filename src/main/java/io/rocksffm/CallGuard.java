package io.rocksffm;

import io.rocksffm.internal.Scratch;

import java.util.Objects;

/**
 * The guard around a database's calls: enters the database, the column family and the options
 * (their {@link io.rocksffm.internal.Lifecycle}s) so none can be destroyed while a call uses it,
 * and checks that the family and the options' snapshot belong to this database. Every
 * {@code enter} is paired with an {@code exit} in a {@code finally}.
 *
 * <p>The default family's handle is destroyed only when the database closes, after every call
 * has left, and the shared default read/write options never, so calls need not enter their
 * lifecycles: that saves two atomic operations per call on each.
 *
 * <p>The forms taking a {@link Scratch} are for calls that hold one: the database and the family
 * then count the call in the cell of that scratch's pool slot ({@link
 * io.rocksffm.internal.Lifecycle#enter(Scratch)}), one atomic instruction per call instead of two.
 * Such a call acquires its scratch first and exits before releasing it.
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

    /** Refuses a null family or one of another database. */
    void checkFamily(ColumnFamilyHandle family) {
        Objects.requireNonNull(family, "family");
        if (family.db != database) {
            throw new IllegalArgumentException(family + " belongs to another database");
        }
    }

    /** Enters the database, the family and the options (in that order); pair with exit(). */
    void enter(NativeObject options, ColumnFamilyHandle family) {
        enter(options, family, null);
    }

    /** {@link #enter(NativeObject, ColumnFamilyHandle)} within a call holding {@code s} (or null). */
    void enter(NativeObject options, ColumnFamilyHandle family, Scratch s) {
        enterFamily(family, s);
        if (!owned(options)) {
            try {
                options.lifecycle.enter();
            } catch (RuntimeException e) {
                exitFamily(family, s);
                throw e;
            }
        }
    }

    void exit(NativeObject options, ColumnFamilyHandle family) {
        exit(options, family, null);
    }

    /** Ends {@link #enter(NativeObject, ColumnFamilyHandle, Scratch)}, with the same scratch, still held. */
    void exit(NativeObject options, ColumnFamilyHandle family, Scratch s) {
        if (!owned(options)) {
            options.lifecycle.exit();
        }
        exitFamily(family, s);
    }

    /** Enters the database and the family; pair with exitFamily(). */
    void enterFamily(ColumnFamilyHandle family) {
        enterFamily(family, null);
    }

    private void enterFamily(ColumnFamilyHandle family, Scratch s) {
        checkFamily(family);
        database.lifecycle.enter(s);
        if (family != defaultFamily) {
            try {
                family.lifecycle.enter(s);
            } catch (RuntimeException e) {
                database.lifecycle.exit(s);
                throw e;
            }
        }
    }

    void exitFamily(ColumnFamilyHandle family) {
        exitFamily(family, null);
    }

    private void exitFamily(ColumnFamilyHandle family, Scratch s) {
        if (family != defaultFamily) {
            family.lifecycle.exit(s);
        }
        database.lifecycle.exit(s);
    }

    /** {@link #enter} for reads, refusing a snapshot of another database. */
    void enterRead(ReadOptions options, ColumnFamilyHandle family) {
        enterRead(options, family, null);
    }

    /** {@link #enterRead(ReadOptions, ColumnFamilyHandle)} within a call holding {@code s} (or null). */
    void enterRead(ReadOptions options, ColumnFamilyHandle family, Scratch s) {
        enter(options, family, s);
        Database owner = options.snapshotOwner();
        if (owner != null && owner != database) {
            exit(options, family, s);
            throw new IllegalArgumentException("the read options carry a snapshot of another database");
        }
    }

    // ---- whole calls (administration, not the data path) -----------------------------------------

    /** The body of a guarded call, given the call's scratch memory. */
    @FunctionalInterface
    interface Body<R> {
        R run(Scratch s);
    }

    /**
     * Runs {@code body} with the database entered and scratch memory, in the order of every such
     * call: enter, acquire the scratch; release it, exit. For calls off the data path (one
     * lambda per call), which the per-call cost of the scratch forms does not matter to.
     */
    <R> R call(Body<R> body) {
        database.lifecycle.enter();
        try (Scratch s = Scratch.acquire()) {
            return body.run(s);
        } finally {
            database.lifecycle.exit();
        }
    }

    /** {@link #call(Body)} with {@code family} entered too (refused if it is another database's). */
    <R> R callFamily(ColumnFamilyHandle family, Body<R> body) {
        enterFamily(family);
        try (Scratch s = Scratch.acquire()) {
            return body.run(s);
        } finally {
            exitFamily(family);
        }
    }

    /** {@link #call(Body)} with {@code family} and {@code options} entered too. */
    <R> R call(NativeObject options, ColumnFamilyHandle family, Body<R> body) {
        enter(options, family);
        try (Scratch s = Scratch.acquire()) {
            return body.run(s);
        } finally {
            exit(options, family);
        }
    }

    /** {@link #call(NativeObject, ColumnFamilyHandle, Body)} for a read (a snapshot of another database refused). */
    <R> R callRead(ReadOptions options, ColumnFamilyHandle family, Body<R> body) {
        enterRead(options, family);
        try (Scratch s = Scratch.acquire()) {
            return body.run(s);
        } finally {
            exit(options, family);
        }
    }
}
