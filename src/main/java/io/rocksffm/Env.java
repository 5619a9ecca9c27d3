package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * A RocksDB environment ({@code rocksdb_env_t}): where a database's files live and which threads
 * run its background work. rocksffm offers the engine's default one ({@link #getDefault()}, to size
 * its thread pools) and the in-memory one ({@link #memory()}): every file of every database opened on it is kept in
 * this process's memory and nothing is written to disk, which makes fast, self-cleaning tests.
 * Databases are named by path as usual; the path names files inside the environment only.
 *
 * {@snippet id="Env" :
 * try (Env memory = Env.memory();
 *      Options options = new Options().setCreateIfMissing(true).setEnv(memory)) {
 *     try (RocksDB db = RocksDB.open(path, options)) {   // path names files in memory only
 *         db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
 *     }
 *     try (RocksDB again = RocksDB.open(path, options)) {   // same path, same Env: same data
 *         byte[] value = again.get("k".getBytes(UTF_8));   // "v"
 *     }
 * }   // closing the Env frees its files
 * }
 *
 * <p>Set it with {@link Options#setEnv}. Ownership: the caller owns it and closes it; RocksDB
 * keeps only a raw pointer to it, so it must outlive every database using it: the options it is
 * set on, and every database opened with them, hold it open, and {@link #close()} throws
 * {@link IllegalStateException} until they are closed. Closing it frees every file it holds.
 * Data written to a database survives the database's close and is there when a database is
 * opened again at the same path on the same environment.
 *
 * <p>What writes files through the database's options writes into the environment too: a
 * {@link Checkpoint}, an {@link SstFileWriter} opened with those options. A {@link BackupEngine}
 * does not: it reads and writes through the default environment (the disk), so it cannot back up
 * a database in memory ({@link RocksDBException} IO_ERROR naming a file it cannot find).
 *
 * <p>Safe to share across threads and databases; use after close throws
 * {@link IllegalStateException}.
 */
public final class Env extends NativeObject {
    private Env(MemorySegment env) {
        super("Env", env);
    }

    /**
     * A new in-memory environment ({@code rocksdb_create_mem_env}): files in memory, threads and
     * clock of the engine's default environment. It starts empty.
     *
     * @return a new environment, owned by the caller
     */
    public static Env memory() {
        return new Env(rocksdb_create_mem_env());
    }

    /**
     * The engine's default environment ({@code Env::Default()}, rocksdbjni's {@code Env.getDefault()}):
     * the files of the file system and the background thread pools that every database not given
     * another environment shares. The object is a new handle to it, owned by the caller; closing
     * it leaves the environment itself (which lives as long as the process) untouched.
     *
     * @return a new handle to the default environment
     */
    public static Env getDefault() {
        return new Env(rocksdb_create_default_env());
    }

    /**
     * Sets the number of threads of the low-priority pool, which runs compactions
     * ({@code rocksdb_env_set_background_threads}). The pools belong to the default environment
     * (an in-memory one uses its threads too), so this affects every database using them.
     *
     * @param threads the number of threads (the pool grows or shrinks to it)
     * @return this environment
     * @throws IllegalArgumentException if {@code threads} is negative
     * @throws IllegalStateException if closed
     */
    public Env setBackgroundThreads(int threads) {
        requireThreads(threads);
        use(e -> rocksdb_env_set_background_threads(e, threads));
        return this;
    }

    /**
     * Sets the number of threads of the high-priority pool, which runs flushes
     * ({@code rocksdb_env_set_high_priority_background_threads}); shared as
     * {@link #setBackgroundThreads}'s pool is.
     *
     * @param threads the number of threads
     * @return this environment
     * @throws IllegalArgumentException if {@code threads} is negative
     * @throws IllegalStateException if closed
     */
    public Env setHighPriorityBackgroundThreads(int threads) {
        requireThreads(threads);
        use(e -> rocksdb_env_set_high_priority_background_threads(e, threads));
        return this;
    }

    /**
     * {@return the number of threads of the low-priority (compaction) pool}
     *
     * @throws IllegalStateException if closed
     */
    public int backgroundThreads() {
        return apply(e -> rocksdb_env_get_background_threads(e));
    }

    /**
     * {@return the number of threads of the high-priority (flush) pool}
     *
     * @throws IllegalStateException if closed
     */
    public int highPriorityBackgroundThreads() {
        return apply(e -> rocksdb_env_get_high_priority_background_threads(e));
    }

    /**
     * Lowers the CPU priority of the low-priority (compaction) pool's threads
     * ({@code rocksdb_env_lower_thread_pool_cpu_priority}; Linux only, a no-op elsewhere).
     *
     * @return this environment
     * @throws IllegalStateException if closed
     */
    public Env lowerThreadPoolCPUPriority() {
        use(e -> rocksdb_env_lower_thread_pool_cpu_priority(e));
        return this;
    }

    /**
     * Lowers the I/O priority of the low-priority (compaction) pool's threads
     * ({@code rocksdb_env_lower_thread_pool_io_priority}; Linux only, a no-op elsewhere).
     *
     * @return this environment
     * @throws IllegalStateException if closed
     */
    public Env lowerThreadPoolIOPriority() {
        use(e -> rocksdb_env_lower_thread_pool_io_priority(e));
        return this;
    }

    private static void requireThreads(int threads) {
        if (threads < 0) {
            throw new IllegalArgumentException("threads must be >= 0: " + threads);
        }
    }

    @Override
    void destroy(MemorySegment env) {
        rocksdb_env_destroy(env);
    }

    /**
     * Frees the environment and every file it holds. Idempotent.
     *
     * @throws IllegalStateException while options it was set on, or databases opened on it, are
     *         open (close them first)
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "options or databases using it");
    }
}
