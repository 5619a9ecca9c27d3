package io.rocksffm.internal;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.MemorySegment;

/**
 * The engine's default environment ({@code Env::Default()}) as a {@code rocksdb_env_t*}, for the
 * C functions that take one (opening a backup engine, loading an OPTIONS file). The wrapper is
 * made once and kept for the life of the process: the environment it wraps is the engine's static
 * default one, which is never destroyed either, and destroying the wrapper would leave nothing to
 * free but its few bytes.
 */
public final class Envs {
    private Envs() {}

    private static final class Holder {
        static final MemorySegment DEFAULT;

        static {
            Native.engine();
            DEFAULT = RocksDBC.rocksdb_create_default_env();
            if (DEFAULT.address() == 0) {
                throw new IllegalStateException("RocksDB returned NULL for its default environment");
            }
        }
    }

    /** The default environment's wrapper (made on first use, never destroyed). */
    public static MemorySegment defaultEnv() {
        return Holder.DEFAULT;
    }
}
