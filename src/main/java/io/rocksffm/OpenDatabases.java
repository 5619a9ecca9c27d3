package io.rocksffm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The directories of the databases this process has open through rocksffm (counted: read-only
 * handles may share one), so that a restore refuses to overwrite an open database's files
 * (RocksDB's restore deletes what is in the target directory, whatever holds it).
 */
final class OpenDatabases {
    private static final Map<Path, Integer> OPEN = new ConcurrentHashMap<>();

    private OpenDatabases() {}

    /** The canonical form of {@code dir}: its real path if it exists, else its normalised absolute path. */
    static Path key(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        try {
            return absolute.toRealPath();
        } catch (IOException | SecurityException e) {
            return absolute;
        }
    }

    static void add(Path dir) {
        OPEN.merge(key(dir), 1, Integer::sum);
    }

    static void remove(Path dir) {
        OPEN.computeIfPresent(key(dir), (k, n) -> n == 1 ? null : n - 1);
    }

    /** Whether a database is open at {@code dir} in this process. */
    static boolean isOpen(Path dir) {
        return OPEN.containsKey(key(dir));
    }
}
