package io.rocksffm;

import io.rocksffm.internal.Capabilities;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The RocksDB engine library rocksffm is bound to in this class loader.
 *
 * {@snippet id="Engine" :
 * Engine engine = RocksDB.engine();                // the library the bindings run on
 * String version = engine.version();               // e.g. "11.8.1"; null when it does not tell
 * boolean managers = engine.hasFunction("rocksdb_write_buffer_manager_create"); // not on 7.8.3
 * }
 *
 * <p>rocksffm's bindings are generated from RocksDB {@value Capabilities#HEADER_VERSION}'s C API
 * header and run on older and newer engines too. A feature that needs a C function the engine
 * lacks (older engines lack the newer additions) throws {@link UnsupportedOperationException}
 * naming the function and this engine; {@link #hasFunction(String)} tells in advance. Where the
 * engine has a faster C function, rocksffm uses it by itself (for example one-call point reads on
 * RocksDB 10.x).
 *
 * @param source  how it was chosen: {@code "preloaded"} (already in this class loader, e.g.
 *                loaded by rocksdbjni), {@code "explicit"} ({@code -Drocksffm.library.path} or
 *                {@code $ROCKSFFM_LIBRARY_PATH}), {@code "rocksdbjni"} (the library inside an
 *                {@code org.rocksdb:rocksdbjni} jar on the class path) or {@code "system"}
 * @param path    the library file, or {@code null} if the platform does not tell
 * @param version the engine version where the file name or jar tells it, else {@code null}
 */
public record Engine(String source, Path path, String version) {

    /**
     * Whether rocksffm can call the C function {@code cFunction} (for example
     * {@code "rocksdb_get_into_buffer_cf"}) on this engine: the engine exports it and, for the few
     * functions whose signature changed between RocksDB versions, has the signature rocksffm's
     * bindings were generated with. Thread-safe.
     *
     * @param cFunction the C function's name, as in {@code rocksdb/c.h}
     * @return true if it can be called; false if the engine lacks it or has another signature
     * @throws NullPointerException if {@code cFunction} is null
     */
    public boolean hasFunction(String cFunction) {
        return Capabilities.callable(Objects.requireNonNull(cFunction, "cFunction"));
    }
}
