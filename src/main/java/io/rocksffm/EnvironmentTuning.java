package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Claim;
import io.rocksffm.internal.Lifecycle;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The settings of {@link Options} that name shared objects of the environment: the {@link Env}
 * files live in, the {@link SstFileManager} that tracks table files, the {@link InfoLogger} that
 * receives RocksDB's info log. A part of {@code Options}, not a type of its own: the methods are
 * {@code Options}' methods and return the options.
 *
 * <p>RocksDB keeps the SST file manager and the logger in shared pointers (each options object
 * and database holds its own reference), but it keeps a raw pointer to the environment, and the
 * logger calls Java code through a handle: so these options, and every database opened with
 * them, hold the {@code Env} and the {@code InfoLogger} open (closing either throws
 * {@link IllegalStateException} until the options and databases are closed).
 */
abstract class EnvironmentTuning extends NativeObject {
    /** Guards env and logger (a private lock: callers may synchronize on their options). */
    private final Object environmentLock = new Object();
    /** The Java objects these options point at, each holding one child count of theirs (addChild). */
    private Env env;
    private InfoLogger logger;
    /** The child claims {@link #env} and {@link #logger} hold (guarded by {@link #environmentLock}). */
    private final Claim envClaim = new Claim();
    private final Claim loggerClaim = new Claim();

    EnvironmentTuning(String what, MemorySegment ptr) {
        super(what, ptr);
    }

    private Options options() {
        return (Options) this;
    }

    /**
     * Runs the databases opened with these options on {@code env} (files, threads, clock): e.g.
     * {@link Env#memory()} to keep every file in memory, for tests. The environment stays open
     * while these options or a database opened with them are open.
     *
     * @param env the environment
     * @return these options
     * @throws NullPointerException if {@code env} is null
     * @throws IllegalStateException if these options or {@code env} are closed
     */
    public Options setEnv(Env env) {
        Objects.requireNonNull(env, "env");
        synchronized (environmentLock) {
            lifecycle.ensureOpen();
            envClaim.replace(env.lifecycle, () -> use(p -> env.use(e -> rocksdb_options_set_env(p, e))));
            this.env = env;
        }
        return options();
    }

    /**
     * Tracks the table files of the databases opened with these options with {@code manager}
     * (their total size, a space limit, deletion rate). RocksDB keeps its own reference from these
     * options and each database: closing the manager afterwards only drops the Java side's.
     *
     * @param manager the manager, which may be shared by several databases
     * @return these options
     * @throws NullPointerException if {@code manager} is null
     * @throws IllegalStateException if these options or {@code manager} are closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_options_set_sst_file_manager} (before 10.4)
     */
    public Options setSstFileManager(SstFileManager manager) {
        Objects.requireNonNull(manager, "manager");
        lifecycle.ensureOpen();
        Capabilities.require("rocksdb_options_set_sst_file_manager");
        use(p -> manager.use(m -> rocksdb_options_set_sst_file_manager(p, m)));
        return options();
    }

    /**
     * Sends RocksDB's info log of the databases opened with these options to {@code logger}
     * instead of the {@code LOG} file in the database directory. The logger stays open while these
     * options or a database opened with them are open; a database with a Java logger refuses
     * calls made from inside the logger (see {@link InfoLogger}).
     *
     * @param logger the logger
     * @return these options
     * @throws NullPointerException if {@code logger} is null
     * @throws IllegalStateException if these options or {@code logger} are closed
     */
    public Options setInfoLogger(InfoLogger logger) {
        Objects.requireNonNull(logger, "logger");
        synchronized (environmentLock) {
            lifecycle.ensureOpen();
            loggerClaim.replace(logger.lifecycle, () -> use(p -> logger.use(l -> rocksdb_options_set_info_log(p, l))));
            this.logger = logger;
        }
        return options();
    }

    /** Whether the info logger set here runs Java code. */
    final boolean loggerCallsJava() {
        synchronized (environmentLock) {
            return logger != null && logger.callsJava();
        }
    }

    /**
     * New users of the environment and logger set here (for a database opened with these options,
     * or options copied from these), each to release once with {@link #release}.
     */
    final List<Lifecycle> retainEnvironment() {
        synchronized (environmentLock) {
            List<Lifecycle> out = new ArrayList<>(2);
            for (NativeObject o : new NativeObject[] {env, logger}) {
                if (o != null) {
                    o.lifecycle.addChild();
                    out.add(o.lifecycle);
                }
            }
            return out;
        }
    }

    /** Releases what {@link #retainEnvironment} retained. */
    static void release(List<Lifecycle> retained) {
        for (Lifecycle l : retained) {
            l.removeChild();
        }
        retained.clear();
    }

    /** Points at what {@code base} points at (these options are RocksDB's copy of it). */
    final void inheritEnvironment(EnvironmentTuning base) {
        Env e;
        InfoLogger l;
        synchronized (base.environmentLock) { // base holds them open meanwhile: the claims cannot fail
            e = base.env;
            l = base.logger;
            synchronized (environmentLock) {
                envClaim.replace(e == null ? null : e.lifecycle, () -> env = e);
                loggerClaim.replace(l == null ? null : l.lifecycle, () -> logger = l);
            }
        }
    }

    /** Releases the environment and logger (these options are destroyed). */
    final void releaseEnvironment() {
        synchronized (environmentLock) {
            envClaim.release();
            env = null;
            loggerClaim.release();
            logger = null;
        }
    }
}
