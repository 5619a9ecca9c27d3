package io.rocksffm.jmh;

import io.rocksffm.Engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * What every benchmark shares: the same-engine check, the key format, value filling, and the
 * scratch directory.
 *
 * <p><b>One engine.</b> {@link #requireSameEngine()} runs in every {@code @Setup} before anything
 * touches rocksffm: rocksdbjni loads the native library from its jar, and rocksffm must then find
 * RocksDB's C API already loaded in the same class loader (source {@code "preloaded"}, or
 * {@code "rocksdbjni"} if rocksffm asked rocksdbjni's loader itself). Any other source would mean
 * two engines in one process, and the comparison would be meaningless: the setup fails.
 *
 * <p><b>Keys.</b> Key {@code i} is the decimal counter {@code i} left-padded with {@code '0'} to
 * exactly {@code keySize} bytes (so every key is unique and keys sort in counter order). A
 * {@link KeyFormat} rewrites only the last {@code digits} bytes in place, identically for
 * {@code byte[]}, {@link MemorySegment} and {@link ByteBuffer} keys, so no benchmark allocates or
 * copies a key per operation beyond what its binding's call itself does.
 */
public final class Bench {
    /** System property: directory for databases (datasets are cached here across forks). */
    public static final String DIR_PROPERTY = "rocksffm.bench.dir";
    /** System property: largest dataset (keyCount * (keySize + valueSize)) a setup may build. */
    public static final String MAX_DATASET_PROPERTY = "rocksffm.bench.maxDatasetBytes";

    private Bench() {}

    /**
     * Loads rocksdbjni's engine, then checks that rocksffm binds to that same library.
     *
     * @return the engine rocksffm reports
     * @throws IllegalStateException if rocksffm is bound to anything else
     */
    public static Engine requireSameEngine() {
        org.rocksdb.RocksDB.loadLibrary();
        Engine engine = io.rocksffm.RocksDB.engine();
        String source = engine.source();
        if (!"preloaded".equals(source) && !"rocksdbjni".equals(source)) {
            throw new IllegalStateException("rocksffm is bound to engine " + engine
                    + ", not to the library rocksdbjni loaded: the two bindings would not share one engine."
                    + " Run on the class path with rocksdbjni, and do not set -Drocksffm.library.path.");
        }
        if (engine.path() != null && !engine.path().getFileName().toString().contains("rocksdbjni")) {
            throw new IllegalStateException("rocksffm's engine file " + engine.path()
                    + " is not rocksdbjni's library");
        }
        return engine;
    }

    /** The directory all benchmark databases live under (created if missing). */
    public static Path baseDir() {
        String configured = System.getProperty(DIR_PROPERTY);
        Path dir = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("java.io.tmpdir"), "rocksffm-bench");
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A fresh, empty directory under {@link #baseDir()} for a database a benchmark writes to. */
    public static Path freshDir(String prefix) {
        try {
            return Files.createTempDirectory(baseDir(), prefix + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory tree; a missing one is fine. */
    public static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Refuses datasets larger than {@value #MAX_DATASET_PROPERTY} (default 4 GiB). */
    public static void checkDatasetSize(long keyCount, int keySize, int valueSize) {
        long max = Long.getLong(MAX_DATASET_PROPERTY, 4L << 30);
        long bytes = keyCount * (keySize + (long) valueSize);
        if (bytes > max) {
            throw new IllegalArgumentException("dataset of " + keyCount + " keys x (" + keySize + " + " + valueSize
                    + ") bytes = " + bytes + " bytes exceeds -D" + MAX_DATASET_PROPERTY + "=" + max
                    + ": lower keyCount for large values");
        }
    }

    /**
     * Block cache size for reading a dataset: large enough to hold all of it, so that reads
     * measure the bindings and the engine, not the disk. Both bindings (and the C loop,
     * capi_bench.c) use this same formula: data + 25% + 64 MiB.
     */
    public static long blockCacheBytes(long keyCount, int keySize, int valueSize) {
        long data = keyCount * (keySize + (long) valueSize);
        return data + data / 4 + (64L << 20);
    }

    /** Fills {@code out} with deterministic, incompressible bytes for key {@code index}. */
    public static void fillValue(byte[] out, long index) {
        SplittableRandom r = new SplittableRandom(0x5DEECE66DL ^ (index * 0x9E3779B97F4A7C15L));
        int i = 0;
        for (; i + 8 <= out.length; i += 8) {
            long x = r.nextLong();
            for (int b = 0; b < 8; b++) {
                out[i + b] = (byte) (x >>> (8 * b));
            }
        }
        for (; i < out.length; i++) {
            out[i] = (byte) r.nextInt();
        }
    }

    /** A new value array of {@code size} bytes with {@link #fillValue} contents. */
    public static byte[] value(int size, long index) {
        byte[] v = new byte[size];
        fillValue(v, index);
        return v;
    }

    /**
     * Chooses key indexes: round-robin over {@code [0, keyCount)}, uniformly at random
     * (xorshift64*, seeded the same for both bindings), or always the same key.
     */
    public static final class KeyChooser {
        /** The {@code keyOrder} parameter values. */
        public static final String ROUND_ROBIN = "roundRobin";
        public static final String RANDOM = "random";
        public static final String SINGLE = "single";

        private final int mode; // 0 round-robin, 1 random, 2 single
        private final long keyCount;
        private long next;
        private long state = 0x2545F4914F6CDD1DL;

        public KeyChooser(String keyOrder, long keyCount) {
            this.keyCount = keyCount;
            this.mode = switch (keyOrder) {
                case ROUND_ROBIN -> 0;
                case RANDOM -> 1;
                case SINGLE -> 2;
                default -> throw new IllegalArgumentException("keyOrder must be roundRobin, random or single: " + keyOrder);
            };
        }

        /** Whether every call returns the same key (the key never needs rewriting). */
        public boolean single() {
            return mode == 2;
        }

        /** The key used by the single-key order: the middle of the key range. */
        public long singleKey() {
            return keyCount / 2;
        }

        /** The next key index. */
        public long next() {
            switch (mode) {
                case 0 -> {
                    long i = next;
                    next = i + 1 == keyCount ? 0 : i + 1;
                    return i;
                }
                case 1 -> {
                    long x = state;
                    x ^= x >>> 12;
                    x ^= x << 25;
                    x ^= x >>> 27;
                    state = x;
                    long r = (x * 0x2545F4914F6CDD1DL) >>> 32; // 32 random bits
                    return (r * keyCount) >>> 32;               // in [0, keyCount) for keyCount < 2^32
                }
                default -> {
                    return keyCount / 2;
                }
            }
        }
    }

    /**
     * The key format: decimal counter, '0'-padded to {@code keySize}. Buffers start as key 0
     * ({@link #newKey}, {@link #init}); {@code write} then rewrites the last {@code digits} bytes.
     */
    public static final class KeyFormat {
        public final int keySize;
        public final int digits;

        public KeyFormat(int keySize, long keyCount) {
            if (keyCount < 1) {
                throw new IllegalArgumentException("keyCount must be >= 1: " + keyCount);
            }
            int d = Long.toString(keyCount - 1).length();
            if (keySize < d) {
                throw new IllegalArgumentException("keySize " + keySize + " cannot hold " + keyCount + " distinct keys");
            }
            this.keySize = keySize;
            this.digits = d;
        }

        /** A new array holding key {@code index}. */
        public byte[] newKey(long index) {
            byte[] k = new byte[keySize];
            Arrays.fill(k, (byte) '0');
            write(k, index);
            return k;
        }

        /** Fills a segment of {@code keySize} bytes with key {@code index}. */
        public void init(MemorySegment key, long index) {
            key.asSlice(0, keySize).fill((byte) '0');
            write(key, index);
        }

        /** Fills a buffer's first {@code keySize} bytes (absolute puts) with key {@code index}. */
        public void init(ByteBuffer key, long index) {
            for (int i = 0; i < keySize; i++) {
                key.put(i, (byte) '0');
            }
            write(key, index);
        }

        public void write(byte[] key, long index) {
            long v = index;
            for (int p = keySize - 1, end = keySize - digits; p >= end; p--) {
                key[p] = (byte) ('0' + (int) (v % 10));
                v /= 10;
            }
        }

        public void write(MemorySegment key, long index) {
            long v = index;
            for (long p = keySize - 1, end = keySize - digits; p >= end; p--) {
                key.set(ValueLayout.JAVA_BYTE, p, (byte) ('0' + (int) (v % 10)));
                v /= 10;
            }
        }

        public void write(ByteBuffer key, long index) {
            long v = index;
            for (int p = keySize - 1, end = keySize - digits; p >= end; p--) {
                key.put(p, (byte) ('0' + (int) (v % 10)));
                v /= 10;
            }
        }
    }
}
