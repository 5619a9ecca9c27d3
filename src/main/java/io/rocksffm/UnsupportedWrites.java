package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The writes a surface does not support, refused the one way {@link Writes} states: an
 * {@link UnsupportedOperationException} naming the surface, the write and where to write it
 * instead, thrown after the argument and state checks every write makes.
 */
final class UnsupportedWrites {
    private UnsupportedWrites() {}

    /** A range deletion on a surface that has none ({@code surface} names it, {@code why} says why). */
    static UnsupportedOperationException rangeDeletion(String surface, String why) {
        return new UnsupportedOperationException(surface + " cannot take a range deletion (" + why
                + "): write it to a RocksDB, directly or in a WriteBatch");
    }

    /** Why RocksDB's transaction databases have no range deletion. */
    static final String TRANSACTIONS = "RocksDB's transactions track keys, not ranges";

    /**
     * A transaction database's {@code deleteRange}: the argument, state and family checks of every
     * write ({@code guard} and {@code families} are the database's), then the refusal.
     */
    static UnsupportedOperationException rangeDeletion(CallGuard guard, ColumnFamilies families, String surface,
                                                       ColumnFamilyHandle family, WriteOptions options,
                                                       MemorySegment begin, MemorySegment end) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(begin, "begin");
        Objects.requireNonNull(end, "end");
        Limits.checkRange(begin, end); // a bound over RocksDB's limit: IllegalArgumentException
        try (var s = guard.begin(options, family)) { // a closed database, family or options: IllegalStateException
            families.refuseTimestamped(family); // as every write: IllegalArgumentException
        }
        return rangeDeletion(surface, TRANSACTIONS);
    }

    /** A single deletion on a surface that has none ({@code surface} names it, {@code why} says why). */
    static UnsupportedOperationException singleDeletion(String surface, String why) {
        return new UnsupportedOperationException(surface + " cannot take a single deletion (" + why
                + "): use delete, or write the single deletion to the database or a WriteBatch");
    }
}
