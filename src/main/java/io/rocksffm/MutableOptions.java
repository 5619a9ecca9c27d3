package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Objects;

/** Changing mutable options of an open database and its families (a part of the database object). */
final class MutableOptions {
    private MutableOptions() {}

    /** A {@code SetOptions}-shaped call: {@code n} names and values as C string arrays. */
    @FunctionalInterface
    private interface Setter {
        void call(int n, MemorySegment keys, MemorySegment values, MemorySegment errptr);
    }

    /** Sets {@code options} on {@code family}, or on the default family when it is null. */
    static void set(Database db, ColumnFamilyHandle family, Map<String, String> options) {
        String[][] pairs = pairs(options, false);
        ColumnFamilyHandle target = family == null ? db.defaultFamily : family;
        db.guard.enterFamily(target);
        try {
            call(pairs, (n, keys, values, errptr) -> {
                if (family == null) {
                    rocksdb_set_options(db.adminDb(), n, keys, values, errptr);
                } else {
                    rocksdb_set_options_cf(db.adminDb(), family.ptr, n, keys, values, errptr);
                }
            });
        } finally {
            db.guard.exitFamily(target);
        }
    }

    /** Sets the database-wide {@code options} ({@code SetDBOptions}). */
    static void setDb(Database db, Map<String, String> options) {
        String[][] pairs = pairs(options, true);
        db.lifecycle.enter();
        try {
            Capabilities.require("rocksdb_set_db_options");
            call(pairs, (n, keys, values, errptr) -> rocksdb_set_db_options(db.adminDb(), n, keys, values, errptr));
        } finally {
            db.lifecycle.exit();
        }
    }

    /** The names and the values of {@code options}, checked (at least one; no NUL; no empty name if asked). */
    private static String[][] pairs(Map<String, String> options, boolean refuseEmptyNames) {
        Objects.requireNonNull(options, "options");
        if (options.isEmpty()) {
            throw new IllegalArgumentException("no options to set");
        }
        String[] keys = new String[options.size()];
        String[] values = new String[options.size()];
        int n = 0;
        for (Map.Entry<String, String> e : options.entrySet()) {
            keys[n] = text(e.getKey(), "option name");
            if (refuseEmptyNames && keys[n].isBlank()) {
                throw new IllegalArgumentException("an option name is empty");
            }
            values[n] = text(e.getValue(), "value of " + e.getKey());
            n++;
        }
        return new String[][] {keys, values};
    }

    /** Calls {@code setter} with the pairs as C arrays, then throws the error it reported, if any. */
    private static void call(String[][] pairs, Setter setter) {
        String[] keys = pairs[0];
        String[] values = pairs[1];
        int n = keys.length;
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cKeys = arena.allocate(ADDRESS, n);
            MemorySegment cValues = arena.allocate(ADDRESS, n);
            for (int i = 0; i < n; i++) {
                cKeys.setAtIndex(ADDRESS, i, arena.allocateFrom(keys[i]));
                cValues.setAtIndex(ADDRESS, i, arena.allocateFrom(values[i]));
            }
            setter.call(n, cKeys, cValues, s.errptr);
            Native.check(s.errptr);
        }
    }

    private static String text(String s, String what) {
        Objects.requireNonNull(s, what);
        if (s.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(what + " contains a NUL character");
        }
        return s;
    }
}
