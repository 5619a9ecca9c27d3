package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Envs;
import io.rocksffm.internal.Scratch;
import io.rocksffm.internal.Native;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.lang.foreign.ValueLayout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Backups of databases into a backup directory, and restores from them
 * ({@code rocksdb_backup_engine_t}). With shared table files (the default) backups are
 * incremental: a table file already in the directory is not copied again.
 *
 * {@snippet id="BackupEngine" :
 * try (BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
 *      BackupEngine engine = BackupEngine.open(backupOptions)) {
 *     engine.createBackup(db);                 // incremental: unchanged files are shared
 *     engine.verify(engine.backups().getLast().id());
 *     engine.purgeOldBackups(7);               // keep the newest seven
 * }
 * // Restore into the directory of a closed database
 * try (BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
 *      BackupEngine engine = BackupEngine.open(backupOptions)) {
 *     engine.restoreLatest(path);
 * }
 * }
 *
 * <p>The engine reads the database's files and writes the backups through the default environment
 * (the disk), whatever {@link Env} the database runs on: a database in an in-memory
 * {@link Env#memory() Env} cannot be backed up ({@link RocksDBException} IO_ERROR).
 *
 * <p>The caller owns and closes it. Safe to share across threads: its calls are serialised. Any
 * call after close throws {@link IllegalStateException}. A backup enters the database for the
 * duration of the call, so the database cannot close under it.
 */
public final class BackupEngine extends NativeObject {
    /** Guards this object's state (an internal object: never the caller's, who may lock this one). */
    private final Object lock = new Object();
    /** The id restoreBackup reads as "the latest backup" (real ids start at 1). */
    private static final int LATEST = 0;

    private BackupEngine(MemorySegment engine) {
        super("BackupEngine", engine);
    }

    /**
     * Opens the backup directory {@code options} names, creating it if missing.
     *
     * @param options the engine's options (copied: they may be closed once this returns)
     * @return the engine, owned by the caller
     * @throws IllegalStateException if {@code options} is closed
     * @throws RocksDBException if the directory cannot be opened or created
     */
    public static BackupEngine open(BackupEngineOptions options) {
        Objects.requireNonNull(options, "options");
        try (Scratch s = Scratch.acquire()) {
            MemorySegment be = options.apply(o -> rocksdb_backup_engine_open_opts(o, Envs.defaultEnv(), s.errptr));
            Native.check(s.errptr);
            return new BackupEngine(be);
        }
    }

    @Override
    void destroy(MemorySegment be) {
        rocksdb_backup_engine_close(be);
    }

    /**
     * Closes the engine. Idempotent; waits for a backup or restore running on another thread.
     *
     * @throws IllegalStateException from inside a Java callback (a backup's progress callback,
     *         whose backup this would wait for, a listener, a merge operator, ...), while open
     */
    @Override
    public void close() {
        if (!isClosed()) {
            refuseInCallback("close");
        }
        super.close();
    }

    /**
     * Refuses a call that waits for this engine (every call but {@link #stopBackup()}) from inside
     * a Java callback: from a backup's progress callback it would wait for the backup that runs
     * the callback, which holds the engine; from RocksDB's other callbacks it would hold up
     * RocksDB's own threads with a backup's or restore's file copies.
     */
    private static void refuseInCallback(String call) {
        Callbacks.refuseWaiting("BackupEngine." + call);
    }

    /**
     * Backs up {@code db}, flushing its memtables first.
     *
     * @param db an open database
     * @throws IllegalStateException if this engine or {@code db} is closed
     * @throws RocksDBException if the backup fails
     */
    public void createBackup(Database db) {
        createBackup(db, true);
    }

    /**
     * Backs up {@code db}. Without a flush, what is only in the memtables is in the backup only
     * through the write-ahead log files (if {@link BackupEngineOptions#setBackupLogFiles} is on).
     *
     * @param db         an open database
     * @param flushFirst whether to flush the memtables first
     * @throws IllegalStateException if this engine or {@code db} is closed
     * @throws RocksDBException if the backup fails
     */
    public void createBackup(Database db, boolean flushFirst) {
        refuseInCallback("createBackup");
        synchronized (lock) {
            Database d = Objects.requireNonNull(db, "db");
            if (flushFirst) {
                d.refuseWhilePaused("createBackup with a flush first",
                        "back up without the flush (the write-ahead log files carry the memtables), or continue the work first");
            }
            use(be -> {
                try (Scratch s = d.guard.begin()) {
                    rocksdb_backup_engine_create_new_backup_flush(be, d.adminDb(), flag(flushFirst), s.errptr);
                    Native.check(s.errptr);
                }
            });
        }
    }

    /**
     * Backs up {@code db} with {@code options} (a flush first or not, a progress callback) and
     * returns the new backup's id. {@link #stopBackup()}, from another thread or the progress
     * callback, makes it fail.
     *
     * @param db      an open database
     * @param options the backup's options (in use, so unchangeable, until this returns)
     * @return the new backup's id
     * @throws IllegalStateException if this engine, {@code db} or {@code options} is closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_backup_engine_create_new_backup_with_options}
     * @throws RocksDBException {@link RocksDBException.Code#INCOMPLETE} ("Backup stopped") after
     *         {@link #stopBackup()}, or another failure
     */
    public int createBackup(Database db, CreateBackupOptions options) {
        refuseInCallback("createBackup");
        synchronized (lock) {
            Database d = Objects.requireNonNull(db, "db");
            Objects.requireNonNull(options, "options");
            return apply(be -> {
                try (Scratch call = d.guard.begin()) {
                    return options.apply(o -> {
                        Capabilities.require("rocksdb_backup_engine_create_new_backup_with_options");
                        if (options.flushBeforeBackup()) {
                            d.refuseWhilePaused("createBackup with a flush first",
                                    "back up without the flush, or continue the work first");
                        }
                        boolean callsJava = options.backupStarted();
                        if (callsJava) {
                            d.lifecycle.beginCallbackGuard(); // the callback may not call the database
                        }
                        try (Arena arena = Arena.ofConfined()) {
                            MemorySegment id = arena.allocate(ValueLayout.JAVA_INT);
                            rocksdb_backup_engine_create_new_backup_with_options(be, d.adminDb(), o, id, call.errptr);
                            Native.check(call.errptr);
                            return id.get(ValueLayout.JAVA_INT, 0);
                        } finally {
                            if (callsJava) {
                                d.lifecycle.endCallbackGuard();
                            }
                            options.backupEnded();
                        }
                    });
                }
            });
        }
    }

    /**
     * Backs up {@code db} with {@code options} and stores {@code appMetadata} with the backup
     * (rocksdbjni's {@code createNewBackupWithMetadata}); {@link #backups()} reports it as
     * {@link BackupInfo#appMetadata()}.
     *
     * @param db          an open database
     * @param options     the backup's options (a flush first or not, a progress callback)
     * @param appMetadata the application's metadata (stored as UTF-8)
     * @return the new backup's id
     * @throws IllegalStateException if this engine, {@code db} or {@code options} is closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_backup_engine_create_new_backup_with_metadata} (before RocksDB 11.8)
     * @throws RocksDBException if the backup fails
     */
    public int createBackupWithMetadata(Database db, CreateBackupOptions options, String appMetadata) {
        synchronized (lock) {
            Database d = Objects.requireNonNull(db, "db");
            Objects.requireNonNull(options, "options");
            byte[] app = Objects.requireNonNull(appMetadata, "appMetadata").getBytes(StandardCharsets.UTF_8);
            return apply(be -> {
                try (Scratch call = d.guard.begin()) {
                    return options.apply(o -> {
                        Capabilities.require("BackupEngine.createBackupWithMetadata",
                                "rocksdb_backup_engine_create_new_backup_with_metadata");
                        options.backupStarted();
                        try (Arena arena = Arena.ofConfined()) {
                            MemorySegment id = arena.allocate(ValueLayout.JAVA_INT);
                            MemorySegment text = arena.allocateFrom(ValueLayout.JAVA_BYTE, app);
                            rocksdb_backup_engine_create_new_backup_with_metadata(be, d.adminDb(), o, text, app.length,
                                    id, call.errptr);
                            Native.check(call.errptr);
                            return id.get(ValueLayout.JAVA_INT, 0);
                        } finally {
                            options.backupEnded();
                        }
                    });
                }
            });
        }
    }

    /**
     * Makes the backup running on this engine stop as soon as it can: it fails with
     * {@link RocksDBException.Code#INCOMPLETE}, leaving no new backup (the partial files are
     * cleaned up by the next engine opened on the directory). Returns at once, without waiting.
     * This is for good: every later backup of this engine fails the same way, so open a new
     * engine to back up again. Unlike the other methods it does not wait for a running backup:
     * call it from another thread or from a {@link CreateBackupOptions#setProgressCallback
     * progress callback}.
     *
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_backup_engine_stop_backup}
     */
    public void stopBackup() {
        use(be -> {
            Capabilities.require("rocksdb_backup_engine_stop_backup");
            rocksdb_backup_engine_stop_backup(be);
        });
    }

    /**
     * The backups in the directory, oldest first.
     *
     * @return the backups (a new list)
     * @throws IllegalStateException if closed
     */
    public List<BackupInfo> backups() {
        refuseInCallback("backups");
        synchronized (lock) {
            return apply(be -> {
                MemorySegment info = rocksdb_backup_engine_get_backup_info(be);
                try {
                    int n = rocksdb_backup_engine_info_count(info);
                    List<BackupInfo> out = new ArrayList<>(n);
                    boolean metadata = Capabilities.callable("rocksdb_backup_engine_info_app_metadata");
                    try (Scratch s = Scratch.acquire()) {
                        for (int i = 0; i < n; i++) {
                            String app = "";
                            if (metadata) {
                                MemorySegment m = rocksdb_backup_engine_info_app_metadata(info, i, s.size);
                                long length = s.size.get(ValueLayout.JAVA_LONG, 0);
                                app = m.address() == 0 ? "" : new String(
                                        m.reinterpret(length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                            }
                            out.add(new BackupInfo(rocksdb_backup_engine_info_backup_id(info, i),
                                    Instant.ofEpochSecond(rocksdb_backup_engine_info_timestamp(info, i)),
                                    rocksdb_backup_engine_info_size(info, i), rocksdb_backup_engine_info_number_files(info, i),
                                    app));
                        }
                    }
                    return out;
                } finally {
                    rocksdb_backup_engine_info_destroy(info);
                }
            });
        }
    }

    /**
     * Checks that backup {@code backupId}'s files are all there with the sizes (and, for files with
     * checksums in their names, the contents) recorded when it was made.
     *
     * @param backupId the backup's id
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} for an unknown id,
     *         {@link RocksDBException.Code#CORRUPTION} for a damaged backup
     * @throws IllegalStateException if closed
     */
    public void verify(int backupId) {
        refuseInCallback("verify");
        synchronized (lock) {
            use(be -> {
                try (Scratch s = Scratch.acquire()) {
                    rocksdb_backup_engine_verify_backup(be, backupId, s.errptr);
                    Native.check(s.errptr);
                }
            });
        }
    }

    /**
     * Restores the latest backup into {@code dbDir} (log files too), replacing what is there.
     *
     * @param dbDir the database directory to restore into; no database may be open there
     * @throws IllegalStateException if closed, or if this process has a database open at {@code dbDir}
     * @throws RocksDBException e.g. {@link RocksDBException.Code#NOT_FOUND} if there is no backup
     */
    public void restoreLatest(Path dbDir) {
        try (RestoreOptions options = new RestoreOptions()) {
            restoreLatest(dbDir, dbDir, options);
        }
    }

    /**
     * Restores the latest backup into {@code dbDir}, its log files into {@code walDir}, replacing
     * what is there (but see {@link RestoreOptions#setKeepLogFiles}).
     *
     * @param dbDir   the database directory to restore into; no database may be open there
     * @param walDir  the directory for the write-ahead log files (usually {@code dbDir})
     * @param options the restore's options
     * @throws IllegalStateException if this engine or {@code options} is closed, or if this
     *         process has a database open at {@code dbDir} or {@code walDir}
     * @throws IllegalArgumentException if a path holds a NUL character
     * @throws RocksDBException e.g. {@link RocksDBException.Code#NOT_FOUND} if there is no backup
     */
    public void restoreLatest(Path dbDir, Path walDir, RestoreOptions options) {
        restoreBackup(LATEST, dbDir, walDir, options);
    }

    /**
     * Restores backup {@code backupId} into {@code dbDir} (log files too), replacing what is there.
     *
     * @param backupId the backup's id
     * @param dbDir    the database directory to restore into; no database may be open there
     * @throws IllegalArgumentException if {@code backupId < 1}
     * @throws IllegalStateException if closed, or if this process has a database open at {@code dbDir}
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} for an unknown id
     */
    public void restore(int backupId, Path dbDir) {
        try (RestoreOptions options = new RestoreOptions()) {
            restore(backupId, dbDir, dbDir, options);
        }
    }

    /**
     * Restores backup {@code backupId} into {@code dbDir}, its log files into {@code walDir},
     * replacing what is there (but see {@link RestoreOptions#setKeepLogFiles}).
     *
     * @param backupId the backup's id
     * @param dbDir    the database directory to restore into; no database may be open there
     * @param walDir   the directory for the write-ahead log files (usually {@code dbDir})
     * @param options  the restore's options
     * @throws IllegalStateException if this engine or {@code options} is closed, or if this
     *         process has a database open at {@code dbDir} or {@code walDir}
     * @throws IllegalArgumentException if {@code backupId < 1} or a path holds a NUL character
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} for an unknown id
     */
    public void restore(int backupId, Path dbDir, Path walDir, RestoreOptions options) {
        if (backupId <= 0) {
            throw new IllegalArgumentException("backup ids start at 1: " + backupId);
        }
        restoreBackup(backupId, dbDir, walDir, options);
    }

    private void restoreBackup(int backupId, Path dbDir, Path walDir, RestoreOptions options) {
        refuseInCallback("restore");
        synchronized (lock) {
            String db = CStrings.path(dbDir);
            String wal = CStrings.path(walDir);
            Objects.requireNonNull(options, "options");
            lifecycle.ensureOpen();
            for (Path dir : List.of(dbDir, walDir)) {
                if (OpenDatabases.isOpen(dir)) {
                    throw new IllegalStateException("cannot restore into " + dir
                            + ": a database is open there in this process (close it first; a restore deletes its files)");
                }
            }
            use(be -> options.use(o -> {
                try (Scratch s = Scratch.acquire(); Arena arena = Arena.ofConfined()) {
                    MemorySegment cDb = arena.allocateFrom(db);
                    MemorySegment cWal = arena.allocateFrom(wal);
                    if (backupId == LATEST) {
                        rocksdb_backup_engine_restore_db_from_latest_backup(be, cDb, cWal, o, s.errptr);
                    } else {
                        rocksdb_backup_engine_restore_db_from_backup(be, cDb, cWal, o, backupId, s.errptr);
                    }
                    Native.check(s.errptr);
                }
            }));
        }
    }

    /**
     * Deletes all but the {@code keep} latest backups (and the files no remaining backup shares).
     *
     * @param keep how many of the latest backups to keep, at least 0
     * @throws IllegalArgumentException if {@code keep < 0}
     * @throws IllegalStateException if closed
     * @throws RocksDBException if deleting fails
     */
    public void purgeOldBackups(int keep) {
        refuseInCallback("purgeOldBackups");
        synchronized (lock) {
            if (keep < 0) {
                throw new IllegalArgumentException("keep must be >= 0: " + keep);
            }
            use(be -> {
                try (Scratch s = Scratch.acquire()) {
                    rocksdb_backup_engine_purge_old_backups(be, keep, s.errptr);
                    Native.check(s.errptr);
                }
            });
        }
    }
}
