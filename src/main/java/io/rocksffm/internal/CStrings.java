package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;

/** C strings the engine allocates and the caller frees ({@code rocksdb_free}). */
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
}
