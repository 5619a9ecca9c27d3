package io.rocksffm;

import static java.lang.foreign.ValueLayout.ADDRESS;

import io.rocksffm.internal.Native;
import io.rocksffm.internal.OptionsFileText;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Changing mutable options of an open database and its families: the checks of the names and
 * values, and the C arrays a {@code SetOptions}-shaped call takes ({@link Database}'s
 * {@code setOptions} and {@code setDBOptions} make the calls).
 */
final class MutableOptions {
    private MutableOptions() {}

    /** A {@code SetOptions}-shaped call: {@code n} names and values as C string arrays. */
    @FunctionalInterface
    interface Setter {
        void call(int n, MemorySegment keys, MemorySegment values, MemorySegment errptr);
    }

    /** The names and the values of {@code options}, checked (at least one; no NUL; no empty name if asked). */
    static String[][] pairs(Map<String, String> options, boolean refuseEmptyNames) {
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
    static void call(String[][] pairs, Setter setter) {
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

    /**
     * Refuses values RocksDB's {@code SetOptions} takes but cannot run with (an open sanitises
     * them; {@code SetOptions} does not): no write buffer ({@code max_write_buffer_number < 1}),
     * no level-0 compaction ({@code level0_file_num_compaction_trigger < 1}), or writes stopped
     * before level 0 compacts ({@code level0_stop_writes_trigger} below the compaction trigger, the
     * current one read from the OPTIONS file RocksDB keeps up to date). With any of them the next
     * put blocks forever.
     */
    static void refuseWedging(Path realPath, String family, Map<String, String> options) {
        Long buffers = number(options, "max_write_buffer_number");
        Long trigger = number(options, "level0_file_num_compaction_trigger");
        Long stop = number(options, "level0_stop_writes_trigger");
        if (buffers != null && buffers < 1) {
            throw new IllegalArgumentException("max_write_buffer_number must be >= 1: " + buffers);
        }
        if (trigger == null && stop == null) {
            return;
        }
        if (trigger != null && trigger < 1) {
            throw new IllegalArgumentException("level0_file_num_compaction_trigger must be >= 1: " + trigger);
        }
        if (stop != null && stop < 1) {
            throw new IllegalArgumentException("level0_stop_writes_trigger must be >= 1: " + stop);
        }
        Map<String, String> current = OptionsFileText.latest(realPath).get(family);
        if (current != null) {
            trigger = trigger != null ? trigger : number(current, "level0_file_num_compaction_trigger");
            stop = stop != null ? stop : number(current, "level0_stop_writes_trigger");
        }
        if (trigger != null && stop != null && stop < trigger) {
            throw new IllegalArgumentException("level0_stop_writes_trigger (" + stop + ") below "
                    + "level0_file_num_compaction_trigger (" + trigger + "): writes would stop before level 0 compacts");
        }
    }

    /** The integer value of {@code key}, or null if absent or not an integer (RocksDB then decides). */
    private static Long number(Map<String, String> options, String key) {
        String v = options.get(key);
        if (v == null) {
            return null;
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return null;
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
