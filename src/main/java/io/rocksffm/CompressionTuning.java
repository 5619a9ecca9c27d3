package io.rocksffm;

import io.rocksffm.internal.Scratch;
import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

/**
 * How a column family's data is stored, part of {@link Options}: compression per level and of the
 * last level, the compressor's settings, and blob files (large values kept apart from the keys).
 * A part of {@code Options}, not a type of its own: the methods are {@code Options}' methods and
 * return the options.
 */
abstract class CompressionTuning extends CompactionTuning {
    CompressionTuning(String what, MemorySegment ptr) {
        super(what, ptr);
    }

    private volatile List<Compression> compressionPerLevel = List.of();

    /**
     * A compression per level, level 0 first (overrides {@link Options#setCompression}; levels
     * past the list's end use its last entry).
     *
     * @param perLevel the compressions, one per level; empty to use one compression everywhere
     * @return these options
     */
    public Options setCompressionPerLevel(List<Compression> perLevel) {
        List<Compression> copy = List.copyOf(Objects.requireNonNull(perLevel, "perLevel"));
        try (Scratch s = Scratch.enterFirst(lifecycle); Arena arena = Arena.ofConfined()) {
            MemorySegment ids = arena.allocate(ValueLayout.JAVA_INT, Math.max(1, copy.size()));
            for (int i = 0; i < copy.size(); i++) {
                ids.setAtIndex(ValueLayout.JAVA_INT, i, copy.get(i).id);
            }
            rocksdb_options_set_compression_per_level(ptr, ids, copy.size());
            compressionPerLevel = copy;
        }
        return self();
    }

    /**
     * The compressions per level set here (the C API cannot read them back).
     *
     * @return the list set through these options, empty if none was
     * @throws IllegalStateException if closed
     */
    public List<Compression> compressionPerLevel() {
        lifecycle.ensureOpen();
        return compressionPerLevel;
    }

    /**
     * The compression of the last level, where most data is (RocksDB's default: the same as the
     * other levels; {@code bottommost_compression=kDisableCompressionOption} in the OPTIONS file).
     *
     * @param compression the compression
     * @return these options
     */
    public Options setBottommostCompression(Compression compression) {
        Objects.requireNonNull(compression, "compression");
        return set(p -> rocksdb_options_set_bottommost_compression(p, compression.id));
    }

    /**
     * The compression of the last level.
     *
     * @return the compression, or null if the last level uses the other levels' compression
     * @throws IllegalStateException if closed
     */
    public Compression bottommostCompression() {
        int id = (int) read(p -> rocksdb_options_get_bottommost_compression(p));
        return id == 0x40 ? null : Compression.of(id); // kDisableCompressionOption
    }

    /**
     * The compressor's settings ({@code compression_opts}): for zlib the window bits and strategy,
     * for every compressor its level, and the size of a dictionary trained per file (0 for none).
     *
     * @param windowBits the zlib window bits (RocksDB's default: -14)
     * @param level the compression level ({@code 32767}: the compressor's default)
     * @param strategy the zlib strategy (RocksDB's default: 0)
     * @param maxDictBytes the dictionary size in bytes, 0 for no dictionary
     * @return these options
     * @throws IllegalArgumentException if {@code maxDictBytes < 0}
     */
    public Options setCompressionOptions(int windowBits, int level, int strategy, int maxDictBytes) {
        atLeast("max dict bytes", maxDictBytes, 0);
        return set(p -> rocksdb_options_set_compression_options(p, windowBits, level, strategy, maxDictBytes));
    }

    /**
     * The last level's compressor settings ({@code bottommost_compression_opts}, used only when
     * enabled); the parameters as in {@link #setCompressionOptions}.
     *
     * @param windowBits the zlib window bits
     * @param level the compression level
     * @param strategy the zlib strategy
     * @param maxDictBytes the dictionary size in bytes, 0 for no dictionary
     * @param enabled whether these settings apply (else the last level uses {@code compression_opts})
     * @return these options
     * @throws IllegalArgumentException if {@code maxDictBytes < 0}
     */
    public Options setBottommostCompressionOptions(int windowBits, int level, int strategy, int maxDictBytes,
            boolean enabled) {
        atLeast("max dict bytes", maxDictBytes, 0);
        return set(p -> rocksdb_options_set_bottommost_compression_options(p, windowBits, level, strategy, maxDictBytes,
                flag(enabled)));
    }

    /**
     * The most bytes of samples a dictionary is trained on with zstd (0, the default: the samples
     * are the dictionary). Needs a dictionary ({@code maxDictBytes} of {@link #setCompressionOptions}),
     * or opening fails.
     *
     * @param bytes the training size, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setZstdMaxTrainBytes(int bytes) {
        atLeast("zstd max train bytes", bytes, 0);
        return set(p -> rocksdb_options_set_compression_options_zstd_max_train_bytes(p, bytes));
    }

    /** {@return the most bytes a zstd dictionary is trained on} */
    public int zstdMaxTrainBytes() {
        return (int) read(p -> rocksdb_options_get_compression_options_zstd_max_train_bytes(p));
    }

    /**
     * Compresses each file with {@code threads} threads (RocksDB's default: 1).
     *
     * @param threads the number of compression threads, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code threads < 1}
     */
    public Options setCompressionParallelThreads(int threads) {
        atLeast("compression parallel threads", threads, 1);
        return set(p -> rocksdb_options_set_compression_options_parallel_threads(p, threads));
    }

    /** {@return the compression threads per file} */
    public int compressionParallelThreads() {
        return (int) read(p -> rocksdb_options_get_compression_options_parallel_threads(p));
    }

    // ---- blob files ------------------------------------------------------------------------------

    /**
     * Stores values of at least {@link #setMinBlobSize} bytes in blob files apart from the keys
     * (BlobDB; false by default).
     *
     * @param value whether blob files are used
     * @return these options
     */
    public Options setEnableBlobFiles(boolean value) {
        return set(p -> rocksdb_options_set_enable_blob_files(p, flag(value)));
    }

    /** {@return whether large values go to blob files} */
    public boolean enableBlobFiles() {
        return read(p -> rocksdb_options_get_enable_blob_files(p)) != 0;
    }

    /**
     * The smallest value stored in a blob file (RocksDB's default: 0, every value).
     *
     * @param bytes the size in bytes
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setMinBlobSize(long bytes) {
        atLeast("min blob size", bytes, 0);
        return set(p -> rocksdb_options_set_min_blob_size(p, bytes));
    }

    /** {@return the smallest value stored in a blob file} */
    public long minBlobSize() {
        return read(p -> rocksdb_options_get_min_blob_size(p));
    }

    /**
     * The size at which a blob file is closed and a new one started (RocksDB's default: 256 MiB).
     *
     * @param bytes the size in bytes, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 1}
     */
    public Options setBlobFileSize(long bytes) {
        atLeast("blob file size", bytes, 1);
        return set(p -> rocksdb_options_set_blob_file_size(p, bytes));
    }

    /** {@return the size of a blob file in bytes} */
    public long blobFileSize() {
        return read(p -> rocksdb_options_get_blob_file_size(p));
    }

    /**
     * The compression of blob files (RocksDB's default: none).
     *
     * @param compression the compression
     * @return these options
     */
    public Options setBlobCompression(Compression compression) {
        Objects.requireNonNull(compression, "compression");
        return set(p -> rocksdb_options_set_blob_compression_type(p, compression.id));
    }

    /** {@return the compression of blob files} */
    public Compression blobCompression() {
        return Compression.of((int) read(p -> rocksdb_options_get_blob_compression_type(p)));
    }

    /**
     * Relocates the live values of old blob files during compaction, so that the files can be
     * deleted (blob garbage collection; false by default).
     *
     * @param value whether blob files are garbage collected
     * @return these options
     */
    public Options setEnableBlobGc(boolean value) {
        return set(p -> rocksdb_options_set_enable_blob_gc(p, flag(value)));
    }

    /** {@return whether blob files are garbage collected} */
    public boolean enableBlobGc() {
        return read(p -> rocksdb_options_get_enable_blob_gc(p)) != 0;
    }

    /**
     * The oldest fraction of blob files that garbage collection relocates (RocksDB's default: 0.25).
     *
     * @param fraction from 0 to 1
     * @return these options
     * @throws IllegalArgumentException if {@code fraction} is not in {@code [0, 1]}
     */
    public Options setBlobGcAgeCutoff(double fraction) {
        checkFraction("blob GC age cutoff", fraction);
        return set(p -> rocksdb_options_set_blob_gc_age_cutoff(p, fraction));
    }

    /** {@return the oldest fraction of blob files garbage collection relocates} */
    public double blobGcAgeCutoff() {
        return readDouble(p -> rocksdb_options_get_blob_gc_age_cutoff(p));
    }

    /**
     * The fraction of garbage in the oldest blob files from which their compaction is forced
     * (RocksDB's default: 1.0).
     *
     * @param fraction from 0 to 1
     * @return these options
     * @throws IllegalArgumentException if {@code fraction} is not in {@code [0, 1]}
     */
    public Options setBlobGcForceThreshold(double fraction) {
        checkFraction("blob GC force threshold", fraction);
        return set(p -> rocksdb_options_set_blob_gc_force_threshold(p, fraction));
    }

    /** {@return the garbage fraction from which compaction of the oldest blob files is forced} */
    public double blobGcForceThreshold() {
        return readDouble(p -> rocksdb_options_get_blob_gc_force_threshold(p));
    }

    /**
     * The first level whose compactions write blob files (RocksDB's default: 0, flushes too).
     *
     * @param level the level, at least 0
     * @return these options
     * @throws IllegalArgumentException if {@code level < 0}
     */
    public Options setBlobFileStartingLevel(int level) {
        atLeast("blob file starting level", level, 0);
        return set(p -> rocksdb_options_set_blob_file_starting_level(p, level));
    }

    /** {@return the first level whose compactions write blob files} */
    public int blobFileStartingLevel() {
        return (int) read(p -> rocksdb_options_get_blob_file_starting_level(p));
    }

    private static void checkFraction(String what, double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException(what + " must be in [0, 1]: " + fraction);
        }
    }
}
