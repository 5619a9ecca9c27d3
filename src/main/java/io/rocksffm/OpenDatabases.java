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
    private static final Map<Path, Set<NativeObject>> OPEN = new ConcurrentHashMap<>();

    private OpenDatabases() {}

    /**
     * The canonical form of {@code dir}, one per directory however it is spelled (symbolic links,
     * {@code .}, {@code ..}): its real path if it exists; else the real path of its parent with its
     * name (a directory an open creates), else its normalised absolute path. Databases are opened
     * at this path, so that RocksDB, which tells its own opens apart by the path string (its lock
     * file is per process), refuses a second writer of one directory under another spelling as it
     * refuses one under the same spelling.
     */
    static Path key(Path dir) {
        Path absolute = dir.toAbsolutePath();
        try {
            return absolute.toRealPath();
        } catch (IOException | SecurityException e) {
            Path parent = absolute.getParent();
            Path name = absolute.getFileName();
            if (parent != null && name != null && !name.toString().equals("..") && !name.toString().equals(".")) {
                try {
                    return parent.toRealPath().resolve(name);
                } catch (IOException | SecurityException e2) {
                    // fall through
                }
            }
            return absolute.normalize();
        }
    }

    /** Registers {@code db}, open at {@code realPath} (a {@link #key}). */
    static void add(Path realPath, NativeObject db) {
        OPEN.computeIfAbsent(realPath, k -> ConcurrentHashMap.newKeySet()).add(db);
    }

    /** Removes {@code db}, open at {@code realPath} (after its engine's close returned). */
    static void remove(Path realPath, NativeObject db) {
        OPEN.computeIfPresent(realPath, (k, dbs) -> {
            dbs.remove(db);
            return dbs.isEmpty() ? null : dbs;
        });
    }

    /** Whether a database is open at {@code dir} in this process. */
    static boolean isOpen(Path dir) {
        Set<NativeObject> dbs = OPEN.get(key(dir));
        return dbs != null && !dbs.isEmpty();
    }
}
