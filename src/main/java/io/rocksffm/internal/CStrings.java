package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Objects;

/** C strings: paths given to the engine, and strings the engine allocates and the caller frees ({@code rocksdb_free}). */
public final class CStrings {
    private CStrings() {}

    /** The text of {@code s} (a NUL-terminated string the engine malloc'ed), then frees it; null for NULL. */
    public static String take(MemorySegment s) {
        if (s.address() == 0) {
            return null;
        }
        try {
            return s.reinterpret(Long.MAX_VALUE).getString(0);
        } finally {
            RocksDBC.rocksdb_free(s);
        }
    }

    /** The path as the text of a C string: absolute, without NUL characters. */
    public static String path(Path path) {
        String name = Objects.requireNonNull(path, "path").toAbsolutePath().toString();
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("path contains a NUL character: " + path);
        }
        return name;
    }
}
