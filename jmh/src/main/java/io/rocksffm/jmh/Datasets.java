package io.rocksffm.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Read-only datasets shared by the read benchmarks of both bindings (and by the C loop).
 *
 * <p>A dataset holds keys {@code 0 .. keyCount-1} in the {@link Bench.KeyFormat} with
 * {@link Bench#fillValue} values. It is written once by rocksdbjni with default options, flushed
 * ({@code flush(new FlushOptions().setWaitForFlush(true))}), fully compacted and closed; then each
 * benchmark fork opens it <em>read-only</em> with its own binding, so FFM and JNI read exactly the
 * same files in the same LSM shape, with a block cache that holds it all, warmed by one full scan
 * before measurement. Datasets live under {@link Bench#baseDir()} and are reused
 * across forks (a {@code READY} file marks a complete one).
 *
 * <p>Run as a program ({@code Datasets keyCount keySize valueSize}) it prepares one and prints its
 * directory (scripts/bench.sh does so for the C loop).
 */
public final class Datasets {
    private Datasets() {}

    /** The directory of the dataset with these parameters, populating it first if needed. */
    public static synchronized Path prepare(long keyCount, int keySize, int valueSize) {
        Bench.checkDatasetSize(keyCount, keySize, valueSize);
        Path dir = Bench.baseDir().resolve("kv-n" + keyCount + "-k" + keySize + "-v" + valueSize);
        Path ready = dir.resolve("READY");
        if (Files.exists(ready)) {
            return dir;
        }
        Bench.deleteTree(dir);
        long start = System.nanoTime();
        try {
            populate(dir, keyCount, keySize, valueSize);
            Files.writeString(ready, "keyCount=" + keyCount + " keySize=" + keySize + " valueSize=" + valueSize
                    + " rocksdb=" + RocksDB.rocksdbVersion() + "\n");
        } catch (RocksDBException e) {
            throw new IllegalStateException("populating " + dir + " failed: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        System.out.printf("# dataset %s: %d keys populated by rocksdbjni in %.1f s%n",
                dir.getFileName(), keyCount, (System.nanoTime() - start) / 1e9);
        return dir;
    }

    private static void populate(Path dir, long keyCount, int keySize, int valueSize) throws RocksDBException {
        RocksDB.loadLibrary();
        Bench.KeyFormat keys = new Bench.KeyFormat(keySize, keyCount);
        byte[] key = keys.newKey(0);
        byte[] value = new byte[valueSize];
        long batchBytes = 4L << 20;
        try (Options options = new Options().setCreateIfMissing(true).setErrorIfExists(true);
             RocksDB db = RocksDB.open(options, dir.toString());
             WriteOptions write = new WriteOptions().setDisableWAL(true);
             WriteBatch batch = new WriteBatch();
             FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            long inBatch = 0;
            for (long i = 0; i < keyCount; i++) {
                keys.write(key, i);
                Bench.fillValue(value, i);
                batch.put(key, value);
                inBatch += keySize + valueSize;
                if (inBatch >= batchBytes) {
                    db.write(write, batch);
                    batch.clear();
                    inBatch = 0;
                }
            }
            if (batch.count() > 0) {
                db.write(write, batch);
            }
            db.flush(flush);
            db.compactRange();
        }
    }

    /** rocksdbjni options for reading a dataset: defaults plus a block cache that holds it all. */
    public static Options jniReadOptions(long keyCount, int keySize, int valueSize) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(new LRUCache(Bench.blockCacheBytes(keyCount, keySize, valueSize)));
        return new Options().setTableFormatConfig(table);
    }

    /** rocksffm options for reading a dataset: defaults plus a block cache that holds it all. */
    public static io.rocksffm.Options ffmReadOptions(long keyCount, int keySize, int valueSize) {
        return new io.rocksffm.Options().setBlockCacheSize(Bench.blockCacheBytes(keyCount, keySize, valueSize));
    }

    /** Opens a dataset read-only with rocksdbjni, checks a few keys and warms its block cache. */
    public static RocksDB openJni(long keyCount, int keySize, int valueSize) throws RocksDBException {
        Path dir = prepare(keyCount, keySize, valueSize);
        RocksDB db;
        try (Options options = jniReadOptions(keyCount, keySize, valueSize)) {
            db = RocksDB.openReadOnly(options, dir.toString());
        }
        try {
            spotCheck(db, keyCount, keySize, valueSize);
            warm(db, keyCount);
            return db;
        } catch (RocksDBException | RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /** Opens a dataset read-only with rocksffm, checks a few keys and warms its block cache. */
    public static io.rocksffm.RocksDB openFfm(long keyCount, int keySize, int valueSize) {
        Path dir = prepare(keyCount, keySize, valueSize);
        io.rocksffm.RocksDB db;
        try (io.rocksffm.Options options = ffmReadOptions(keyCount, keySize, valueSize)) {
            db = io.rocksffm.RocksDB.openReadOnly(dir, options);
        }
        try {
            spotCheck(db, keyCount, keySize, valueSize);
            warm(db, keyCount);
            return db;
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
    }

    /**
     * Reads the whole dataset once through this handle, so its block cache holds every block
     * before measurement starts (each handle has its own cache), and checks the key count.
     */
    static void warm(io.rocksffm.RocksDB db, long keyCount) {
        long n = 0;
        try (io.rocksffm.ReadOptions read = new io.rocksffm.ReadOptions();
             io.rocksffm.RocksIterator it = db.newIterator(read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
        }
        if (n != keyCount) {
            throw new IllegalStateException("dataset has " + n + " keys, expected " + keyCount + " (FFM)");
        }
    }

    /** {@link #warm(io.rocksffm.RocksDB, long)} for a JNI handle. */
    static void warm(RocksDB db, long keyCount) {
        long n = 0;
        try (org.rocksdb.ReadOptions read = new org.rocksdb.ReadOptions();
             org.rocksdb.RocksIterator it = db.newIterator(read)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
        }
        if (n != keyCount) {
            throw new IllegalStateException("dataset has " + n + " keys, expected " + keyCount + " (JNI)");
        }
    }

    /** Verifies a few keys of a freshly opened FFM handle (guards against reading an empty DB). */
    static void spotCheck(io.rocksffm.RocksDB db, long keyCount, int keySize, int valueSize) {
        Bench.KeyFormat keys = new Bench.KeyFormat(keySize, keyCount);
        byte[] expected = new byte[valueSize];
        for (long i : new long[] {0, keyCount / 2, keyCount - 1}) {
            byte[] v = db.get(keys.newKey(i));
            Bench.fillValue(expected, i);
            if (v == null || !java.util.Arrays.equals(v, expected)) {
                throw new IllegalStateException("dataset check failed at key " + i + " (FFM)");
            }
        }
    }

    /** Verifies a few keys of a freshly opened JNI handle. */
    static void spotCheck(RocksDB db, long keyCount, int keySize, int valueSize) throws RocksDBException {
        Bench.KeyFormat keys = new Bench.KeyFormat(keySize, keyCount);
        byte[] expected = new byte[valueSize];
        for (long i : new long[] {0, keyCount / 2, keyCount - 1}) {
            byte[] v = db.get(keys.newKey(i));
            Bench.fillValue(expected, i);
            if (v == null || !java.util.Arrays.equals(v, expected)) {
                throw new IllegalStateException("dataset check failed at key " + i + " (JNI)");
            }
        }
    }

    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: Datasets keyCount keySize valueSize   (prints the dataset directory)");
            System.exit(2);
        }
        Bench.requireSameEngine();
        Path dir = prepare(Long.parseLong(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        System.out.println(dir.toAbsolutePath());
    }
}
