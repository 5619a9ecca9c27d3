package io.rocksffm;

import io.rocksffm.internal.BatchFormat;

import java.lang.foreign.MemorySegment;

/**
 * The order of a column family's keys as the engine runs it: a Java {@link Comparator}, RocksDB's
 * reverse bytewise comparator, or bytewise. rocksffm checks range order in it before RocksDB sees
 * a range (RocksDB fails a reversed range only while applying it, after logging it, which leaves
 * the database refusing every write until it is reopened).
 */
final class KeyOrder {
    /** RocksDB's default comparator's name. */
    static final String BYTEWISE_NAME = "leveldb.BytewiseComparator";
    /** RocksDB's built-in descending comparator's name. */
    static final String REVERSE_NAME = "rocksdb.ReverseBytewiseComparator";

    static final KeyOrder BYTEWISE = new KeyOrder(null, false);
    static final KeyOrder REVERSE = new KeyOrder(null, true);

    private final Comparator java;
    private final boolean reverse;

    private KeyOrder(Comparator java, boolean reverse) {
        this.java = java;
        this.reverse = reverse;
    }

    /** The order of a Java comparator. */
    static KeyOrder of(Comparator comparator) {
        return new KeyOrder(comparator, false);
    }

    /**
     * The order of the built-in comparator named {@code name} (RocksDB's names, with or without
     * the {@code .u64ts} timestamp suffix); bytewise for any other name.
     */
    static KeyOrder named(String name) {
        return name != null && name.startsWith(REVERSE_NAME) ? REVERSE : BYTEWISE;
    }

    /** Whether this order is a Java comparator's. */
    boolean isJava() {
        return java != null;
    }

    /** Compares two keys in this order (a throwing Java comparator propagates: this runs before RocksDB is called). */
    int compare(MemorySegment a, MemorySegment b) {
        if (java instanceof TimestampedComparator t) { // the caller's keys carry no timestamp
            return t.compareWithoutTimestamp(a.asReadOnly(), b.asReadOnly());
        }
        if (java != null) {
            return java.compare(a.asReadOnly(), b.asReadOnly());
        }
        int c = BatchFormat.compareBytewise(a, b);
        return reverse ? -c : c;
    }

    @Override
    public String toString() {
        return java != null ? java.name() : reverse ? REVERSE_NAME : BYTEWISE_NAME;
    }

    /** The value of a top-level {@code comparator=} in an options string, or null. */
    static String comparatorIn(String text) {
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ';';
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ';' && depth == 0) {
                String part = text.substring(start, i).strip();
                start = i + 1;
                int eq = part.indexOf('=');
                if (eq > 0 && part.substring(0, eq).strip().equals("comparator")) {
                    return part.substring(eq + 1).strip();
                }
            }
        }
        return null;
    }
}
