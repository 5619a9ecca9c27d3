package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * A RocksDB environment ({@code rocksdb_env_t}): where a database's files live. rocksffm offers
 * the in-memory one ({@link #memory()}): every file of every database opened on it is kept in
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
