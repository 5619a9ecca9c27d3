package io.rocksffm;

import java.nio.file.Path;

/**
 * The RocksDB engine library rocksffm is bound to in this class loader.
 *
 * @param source  how it was chosen: {@code "preloaded"} (already in this class loader, e.g.
 *                loaded by rocksdbjni), {@code "explicit"} ({@code -Drocksffm.library.path} or
 *                {@code $ROCKSFFM_LIBRARY_PATH}), {@code "rocksdbjni"} (the library inside an
 *                {@code org.rocksdb:rocksdbjni} jar on the class path) or {@code "system"}
 * @param path    the library file, or {@code null} if the platform does not tell
 * @param version the engine version where the file name or jar tells it, else {@code null}
 */
public record Engine(String source, Path path, String version) {}
