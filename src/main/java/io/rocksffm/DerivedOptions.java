package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.rocksdb_get_options_from_string;

import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Options derived by RocksDB from other options ({@link Options#fromString}): the copy RocksDB
 * makes, and what it inherits from its base (the Java objects RocksDB's copy points at, the key
 * order of its comparator).
 */
final class DerivedOptions {
    private DerivedOptions() {}

    /** {@link Options#fromString}. */
    static Options fromString(Options base, String text) {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(text, "text");
        if (text.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("options text contains a NUL character");
        }
        Options out = new Options();
        try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
            MemorySegment cText = arena.allocateFrom(text);
            out.use(o -> base.use(b -> rocksdb_get_options_from_string(b, cText, o, s.errptr)));
            Native.check(s.errptr);
            out.inherit(base);
            out.fromText = true;
            out.inheritEnvironment(base);
            String comparator = KeyOrder.comparatorIn(text);
            out.keys.inherit(comparator != null ? KeyOrder.named(comparator) : base.keyOrder());
            return out;
        } catch (RuntimeException | Error e) {
            out.close();
            throw e;
        }
    }
}
