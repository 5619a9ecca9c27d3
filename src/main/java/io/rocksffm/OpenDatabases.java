package io.rocksffm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The databases this process has open through rocksffm, by directory (several read-only handles
 * may share one), so that a restore refuses to overwrite an open database's files (RocksDB's
 * restore deletes what is in the target directory, whatever holds it). Every database registers
 * itself when made ({@link Database}'s constructor); each kind removes it in its destroy, after
 * the engine's close has returned (a database being closed still counts as open: its files are
 * in use until then). A new kind of database must do the same, or restores into its directory
 * stay refused after it closes.
 */
final class OpenDatabases {
    private static final Map<Path, Set<Database>> OPEN = new ConcurrentHashMap<>();

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

    static void add(Path dir, Database db) {
        OPEN.computeIfAbsent(key(dir), k -> ConcurrentHashMap.newKeySet()).add(db);
    }

    static void remove(Path dir, Database db) {
        OPEN.computeIfPresent(key(dir), (k, dbs) -> {
            dbs.remove(db);
            return dbs.isEmpty() ? null : dbs;
        });
    }

    /** Whether a database is open at {@code dir} in this process. */
    static boolean isOpen(Path dir) {
        Set<Database> dbs = OPEN.get(key(dir));
        return dbs != null && !dbs.isEmpty();
    }
}
