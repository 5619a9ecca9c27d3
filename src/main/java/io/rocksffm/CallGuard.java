package io.rocksffm;

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
        enterFamily(family);
        if (!owned(options)) {
            try {
                options.lifecycle.enter();
            } catch (RuntimeException e) {
                exitFamily(family);
                throw e;
            }
        }
    }

    void exit(NativeObject options, ColumnFamilyHandle family) {
        if (!owned(options)) {
            options.lifecycle.exit();
        }
        exitFamily(family);
    }

    /** Enters the database and the family; pair with exitFamily(). */
    void enterFamily(ColumnFamilyHandle family) {
        checkFamily(family);
        database.lifecycle.enter();
        if (family != defaultFamily) {
            try {
                family.lifecycle.enter();
            } catch (RuntimeException e) {
                database.lifecycle.exit();
                throw e;
            }
        }
    }

    void exitFamily(ColumnFamilyHandle family) {
        if (family != defaultFamily) {
            family.lifecycle.exit();
        }
        database.lifecycle.exit();
    }

    /** {@link #enter} for reads, refusing a snapshot of another database. */
    void enterRead(ReadOptions options, ColumnFamilyHandle family) {
        enter(options, family);
        Database owner = options.snapshotOwner();
        if (owner != null && owner != database) {
            exit(options, family);
            throw new IllegalArgumentException("the read options carry a snapshot of another database");
        }
    }
}
