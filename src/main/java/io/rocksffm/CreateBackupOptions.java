package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;

import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Upcalls;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Objects;

/**
 * Options of one backup ({@code rocksdb_create_backup_options_t}) for
 * {@link BackupEngine#createBackup(Database, CreateBackupOptions)}: whether to flush
 * first, and a progress callback.
 *
 * {@snippet id="CreateBackupOptions" :
 * AtomicInteger progress = new AtomicInteger();
 * try (CreateBackupOptions backup = new CreateBackupOptions()
 *              .setFlushBeforeBackup(true)                      // the memtables too, as table files
 *              .setProgressCallback(progress::incrementAndGet);  // on the backup's thread
 *      BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
 *      BackupEngine engine = BackupEngine.open(backupOptions)) {
 *     int id = engine.createBackup(db, backup);
 * }
 * }
 *
 * <p>The C functions {@code rocksdb_create_backup_options_*} are in RocksDB 11 and later
 * engines: on older ones (7.8.3, 10.x) the constructor throws
 * {@link UnsupportedOperationException} naming the function and the engine's version.
 *
 * <p>The caller owns and closes it. A backup uses the options for its whole duration: they
 * cannot be changed while a backup runs with them ({@link IllegalStateException}), and closing
 * them waits for that backup. The progress callback stays reachable until the options are closed
 * or the callback replaced. Safe to share across threads; any call after close throws
 * {@link IllegalStateException}.
 */
public final class CreateBackupOptions extends NativeObject {
    /** Guards this object's state (an internal object: never the caller's, who may lock this one). */
    private final Object lock = new Object();
    /** CPU priorities of the backup's copying threads, as RocksDB's {@code CpuPriority} numbers them. */
    public enum CpuPriority {
        /** The idle scheduling class (Linux {@code SCHED_IDLE}). */
        IDLE,
        /** The lowest normal priority (Linux nice 19). */
        LOW,
        /** The threads' initial priority (nice 0). */
        NORMAL,
        /** The highest priority (nice -20); a backup never raises its threads' priority to it. */
        HIGH
    }

    private static final System.Logger LOG = System.getLogger("io.rocksffm.BackupEngine");

    /** The process-wide stub of {@code void progress(void* state)}, made with the first callback. */
    private static final class Stub {
        static final MemorySegment PROGRESS = Upcalls.stub(MethodHandles.lookup(), CreateBackupOptions.class,
                "progress", FunctionDescriptor.ofVoid(ADDRESS), null);
    }

    /** The registry entry of the progress callback, or null; guarded by {@code this}. */
    private Upcalls.Entry progress;
    /** How many backups run with these options now; guarded by {@code this}. */
    private int backupsRunning;

    /**
     * RocksDB's defaults: no flush before the backup (what is only in the memtables is backed up
     * through the log files, if the engine backs them up), no progress callback.
     *
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_create_backup_options_create}
     */
    public CreateBackupOptions() {
        super("CreateBackupOptions", create());
    }

    private static MemorySegment create() {
        Capabilities.require("rocksdb_create_backup_options_create");
        return rocksdb_create_backup_options_create();
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_create_backup_options_destroy(p);
        synchronized (lock) {
            releaseProgress();
        }
    }

    /**
     * Whether the backup flushes the memtables first (false by default).
     *
     * @param value true to flush first
     * @return these options
     * @throws IllegalStateException if closed, or while a backup runs with these options
     */
    public CreateBackupOptions setFlushBeforeBackup(boolean value) {
        synchronized (lock) {
            use(p -> {
                checkIdle();
                rocksdb_create_backup_options_set_flush_before_backup(p, flag(value));
            });
            return this;
        }
    }

    /**
     * Whether the backup flushes the memtables first.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean flushBeforeBackup() {
        return read(p -> rocksdb_create_backup_options_get_flush_before_backup(p)) != 0;
    }

    /**
     * Whether the flush before the backup flushes every column family atomically (only with
     * {@link #setFlushBeforeBackup flushBeforeBackup}; false by default).
     *
     * @param value true for an atomic flush
     * @return these options
     * @throws IllegalStateException if closed, or while a backup runs with these options
     */
    public CreateBackupOptions setAtomicFlush(boolean value) {
        synchronized (lock) {
            use(p -> {
                checkIdle();
                rocksdb_create_backup_options_set_atomic_flush(p, flag(value));
            });
            return this;
        }
    }

    /**
     * Whether the flush before the backup is atomic.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean atomicFlush() {
        return read(p -> rocksdb_create_backup_options_get_atomic_flush(p)) != 0;
    }

    /**
     * Whether the backup lowers the CPU priority of the engine's copying threads to
     * {@link #setBackgroundThreadCpuPriority backgroundThreadCpuPriority} (false by default). A
     * priority is only ever lowered, and stays so for the engine's later backups.
     *
     * @param value true to lower the copying threads' priority
     * @return these options
     * @throws IllegalStateException if closed, or while a backup runs with these options
     */
    public CreateBackupOptions setDecreaseBackgroundThreadCpuPriority(boolean value) {
        synchronized (lock) {
            use(p -> {
                checkIdle();
                rocksdb_create_backup_options_set_decrease_background_thread_cpu_priority(p, flag(value));
            });
            return this;
        }
    }

    /**
     * Whether the backup lowers its copying threads' CPU priority.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean decreaseBackgroundThreadCpuPriority() {
        return read(p -> rocksdb_create_backup_options_get_decrease_background_thread_cpu_priority(p)) != 0;
    }

    /**
     * The CPU priority the copying threads are lowered to, with
     * {@link #setDecreaseBackgroundThreadCpuPriority decreaseBackgroundThreadCpuPriority}
     * ({@link CpuPriority#NORMAL} by default).
     *
     * @param priority the priority
     * @return these options
     * @throws IllegalStateException if closed, or while a backup runs with these options
     */
    public CreateBackupOptions setBackgroundThreadCpuPriority(CpuPriority priority) {
        synchronized (lock) {
            Objects.requireNonNull(priority, "priority");
            use(p -> {
                checkIdle();
                rocksdb_create_backup_options_set_background_thread_cpu_priority(p, priority.ordinal());
            });
            return this;
        }
    }

    /**
     * The CPU priority the copying threads are lowered to.
     *
     * @return the priority
     * @throws IllegalStateException if closed
     */
    public CpuPriority backgroundThreadCpuPriority() {
        return CpuPriority.values()[(int) read(p -> rocksdb_create_backup_options_get_background_thread_cpu_priority(p))];
    }

    /**
     * A callback the backup calls as it copies, each time another
     * {@link BackupEngineOptions#setCallbackTriggerIntervalSize callbackTriggerIntervalSize} bytes
     * of a file are copied (4 MiB by default); {@code null} removes it. It runs on the backup's
     * copying threads, not necessarily the caller's, while the backup holds its engine: it may
     * call {@link BackupEngine#stopBackup()}; every other call on the engine, on these options
     * (which cannot change or close while the backup runs) or on the database being backed up
     * (close included) is refused with {@link IllegalStateException} naming the callback, as
     * from any of RocksDB's Java callbacks: each would wait for the backup the callback is part of. An exception it throws is logged (logger {@code io.rocksffm.BackupEngine})
     * and otherwise ignored: the backup goes on.
     *
     * @param callback the callback, or {@code null} for none
     * @return these options
     * @throws IllegalStateException if closed, or while a backup runs with these options
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_create_backup_options_set_progress_callback}
     */
    public CreateBackupOptions setProgressCallback(Runnable callback) {
        synchronized (lock) {
            use(p -> {
                checkIdle();
                Capabilities.require("rocksdb_create_backup_options_set_progress_callback");
                if (callback == null) {
                    rocksdb_create_backup_options_set_progress_callback(p, MemorySegment.NULL, MemorySegment.NULL);
                    releaseProgress();
                    return;
                }
                Upcalls.Entry entry = Upcalls.register(callback, "backup progress", null);
                try {
                    rocksdb_create_backup_options_set_progress_callback(p, entry.state(), Stub.PROGRESS);
                } catch (RuntimeException | Error e) {
                    Upcalls.release(entry.state().address());
                    throw e;
                }
                releaseProgress();
                progress = entry;
            });
            return this;
        }
    }

    /**
     * Whether a progress callback is set.
     *
     * @return true if one is
     * @throws IllegalStateException if closed
     */
    public boolean hasProgressCallback() {
        synchronized (lock) {
            lifecycle.ensureOpen();
            return progress != null;
        }
    }

    private void releaseProgress() {
        if (progress != null) {
            Upcalls.release(progress.state().address());
            progress = null;
        }
    }

    private void checkIdle() {
        if (backupsRunning > 0) {
            throw new IllegalStateException("these options cannot change while a backup runs with them");
        }
    }

    /**
     * Marks a backup with these options as running (it has entered them); pair with {@link #backupEnded}.
     *
     * @return whether the backup runs a progress callback
     */
    boolean backupStarted() {
        synchronized (lock) {
            backupsRunning++;
            return progress != null;
        }
    }

    void backupEnded() {
        synchronized (lock) {
            backupsRunning--;
        }
    }

    /**
     * Closes the options. Idempotent; waits for a backup running with them.
     *
     * @throws IllegalStateException from inside a Java callback (their own backup's progress
     *         callback would wait for itself), while open
     */
    @Override
    public void close() {
        if (!isClosed()) {
            Callbacks.refuseWaiting("CreateBackupOptions.close");
        }
        super.close();
    }

    /**
     * The stub's target: runs the callback behind {@code state} marked as a backup progress
     * callback (so the backup's engine, options and database refuse it: they wait for the backup),
     * logging what it throws.
     */
    private static void progress(MemorySegment state) {
        int mark = Callbacks.enter(Callbacks.Kind.BACKUP_PROGRESS);
        try {
            ((Runnable) Upcalls.entry(state).target()).run();
        } catch (Throwable t) {
            Upcalls.failed(state, t);
            try {
                LOG.log(System.Logger.Level.WARNING, "backup progress callback threw", t);
            } catch (Throwable ignored) {
                // a failing logger must not unwind into RocksDB either
            }
        } finally {
            Callbacks.exit(mark);
        }
    }
}
