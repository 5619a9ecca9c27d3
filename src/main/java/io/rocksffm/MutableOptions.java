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

    /** Sets {@code options} on {@code family}, or on the default family when it is null. */
    static void set(Database db, ColumnFamilyHandle family, Map<String, String> options) {
        Objects.requireNonNull(options, "options");
        if (options.isEmpty()) {
            throw new IllegalArgumentException("no options to set");
        }
        String[] keys = new String[options.size()];
        String[] values = new String[options.size()];
        int n = 0;
        for (Map.Entry<String, String> e : options.entrySet()) {
            keys[n] = text(e.getKey(), "option name");
            values[n] = text(e.getValue(), "value of " + e.getKey());
            n++;
        }
        ColumnFamilyHandle target = family == null ? db.defaultFamily : family;
        db.guard.enterFamily(target);
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cKeys = arena.allocate(ADDRESS, n);
            MemorySegment cValues = arena.allocate(ADDRESS, n);
            for (int i = 0; i < n; i++) {
                cKeys.setAtIndex(ADDRESS, i, arena.allocateFrom(keys[i]));
                cValues.setAtIndex(ADDRESS, i, arena.allocateFrom(values[i]));
            }
            if (family == null) {
                rocksdb_set_options(db.adminDb(), n, cKeys, cValues, s.errptr);
            } else {
                rocksdb_set_options_cf(db.adminDb(), family.ptr, n, cKeys, cValues, s.errptr);
            }
            Native.check(s.errptr);
        } finally {
            db.guard.exitFamily(target);
        }
    }

    /** Sets the database-wide {@code options} ({@code SetDBOptions}). */
    static void setDb(Database db, Map<String, String> options) {
        Objects.requireNonNull(options, "options");
        if (options.isEmpty()) {
            throw new IllegalArgumentException("no options to set");
        }
        String[] keys = new String[options.size()];
        String[] values = new String[options.size()];
        int n = 0;
        for (Map.Entry<String, String> e : options.entrySet()) {
            keys[n] = text(e.getKey(), "option name");
            if (keys[n].isBlank()) {
                throw new IllegalArgumentException("an option name is empty");
            }
            values[n] = text(e.getValue(), "value of " + e.getKey());
            n++;
        }
        db.lifecycle.enter();
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            Capabilities.require("rocksdb_set_db_options");
            MemorySegment cKeys = arena.allocate(ADDRESS, n);
            MemorySegment cValues = arena.allocate(ADDRESS, n);
            for (int i = 0; i < n; i++) {
                cKeys.setAtIndex(ADDRESS, i, arena.allocateFrom(keys[i]));
                cValues.setAtIndex(ADDRESS, i, arena.allocateFrom(values[i]));
            }
            rocksdb_set_db_options(db.adminDb(), n, cKeys, cValues, s.errptr);
            Native.check(s.errptr);
        } finally {
            db.lifecycle.exit();
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
