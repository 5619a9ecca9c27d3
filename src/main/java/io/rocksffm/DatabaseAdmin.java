package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * The operations on a database as a whole, declared once for every kind of database that offers
 * them ({@link RocksDB} today; transactional databases later): column families, flushes,
 * compaction, properties, sizes and checkpoints. Core methods take a {@link ColumnFamilyHandle};
 * the default-family forms are written here once. Thread-safe; a closed database, family or
 * options object throws {@link IllegalStateException}, a failure {@link RocksDBException}.
 */
public sealed interface DatabaseAdmin permits Database {

    /**
     * The default column family's handle.
     *
     * @return the handle (owned by the database)
     * @throws IllegalStateException if closed
     */
    ColumnFamilyHandle defaultColumnFamily();

    /**
     * The open handle of the family named {@code name}.
     *
     * @param name the family's name
     * @return its handle, or {@code null} if there is none open
     * @throws IllegalStateException if closed
     */
    ColumnFamilyHandle columnFamily(String name);

    /**
     * The open column family handles.
     *
     * @return the handles in id order, default first (an unmodifiable snapshot)
     * @throws IllegalStateException if closed
     */
    List<ColumnFamilyHandle> columnFamilies();

    /**
     * Creates a column family. Its handle belongs to the database.
     *
     * @param name    the new family's name
     * @param options its options (may be closed once this returns)
     * @return the new family's handle
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} if it exists,
     *         {@link RocksDBException.Code#NOT_SUPPORTED} on a read-only handle
     */
    ColumnFamilyHandle createColumnFamily(String name, Options options);

    /**
     * Drops a column family (its data becomes unreachable) and closes its handle.
     *
     * @param family the family to drop
     * @throws IllegalArgumentException for the default family or a handle of another database
     * @throws IllegalStateException if the handle is closed or iterators on it are open
     * @throws RocksDBException e.g. on a read-only handle
     */
    void dropColumnFamily(ColumnFamilyHandle family);

    /**
     * Flushes {@code family}'s memtable to a table file.
     *
     * @param family  the column family
     * @param options the flush options (whether to wait)
     * @throws RocksDBException if the flush fails
     * @throws IllegalStateException if called from inside a Java callback (an event listener, a
     *         merge operator, ...), which may be part of the background work a flush waits for
     */
    void flush(ColumnFamilyHandle family, FlushOptions options);

    /**
     * Flushes {@code family}'s memtable to a table file.
     *
     * @param family the column family
     * @param wait   whether to wait until the flush is done
     * @throws RocksDBException if the flush fails
     */
    default void flush(ColumnFamilyHandle family, boolean wait) {
        java.util.Objects.requireNonNull(family, "family");
        try (FlushOptions options = new FlushOptions().setWait(wait)) {
            flush(family, options);
        }
    }

    /**
     * Flushes the default family's memtable.
     *
     * @param wait whether to wait until the flush is done
     * @throws RocksDBException if the flush fails
     */
    default void flush(boolean wait) {
        flush(defaultColumnFamily(), wait);
    }

    /**
     * Writes the WAL's buffered data to its file ({@code FlushWAL}), and with {@code sync} also
     * fsyncs it: useful with unsynced writes to make a group of them durable at once.
     *
     * @param sync whether to fsync the log too
     * @throws RocksDBException if writing fails
     */
    void flushWal(boolean sync);

    /**
     * Compacts the keys of {@code family} in {@code [begin, end]}; a {@code null} bound is
     * open-ended. Waits until the compaction is done (the C API reports no error).
     *
     * @param family the column family
     * @param begin  the first key, or {@code null}
     * @param end    the last key, or {@code null}
     * @throws IllegalStateException if called from inside a Java callback (it would wait for
     *         background work the callback may be part of)
     */
    void compactRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end);

    /** Compacts the whole default family. */
    default void compactRange() {
        compactRange(defaultColumnFamily(), null, null);
    }

    /**
     * A database property of {@code family} as text (e.g. {@code "rocksdb.stats"},
     * {@code "rocksdb.estimate-num-keys"}).
     *
     * @param family   the column family
     * @param property the property's name
     * @return its value, or {@code null} if RocksDB does not know it
     */
    String getProperty(ColumnFamilyHandle family, String property);

    /**
     * {@link #getProperty(ColumnFamilyHandle, String)} for the default family.
     *
     * @param property the property's name
     * @return its value, or {@code null} if RocksDB does not know it
     */
    default String getProperty(String property) {
        return getProperty(defaultColumnFamily(), property);
    }

    /**
     * A numeric database property of {@code family} (e.g. {@code "rocksdb.estimate-num-keys"}).
     *
     * @param family   the column family
     * @param property the property's name
     * @return its value, or empty if RocksDB does not know it or it is not numeric
     */
    OptionalLong getLongProperty(ColumnFamilyHandle family, String property);

    /**
     * {@link #getLongProperty(ColumnFamilyHandle, String)} for the default family.
     *
     * @param property the property's name
     * @return its value, or empty
     */
    default OptionalLong getLongProperty(String property) {
        return getLongProperty(defaultColumnFamily(), property);
    }

    /**
     * Approximate on-disk sizes, in bytes, of the key ranges {@code [starts[i], limits[i])} of
     * {@code family} (table files only: flush first to count recent writes).
     *
     * @param family the column family
     * @param starts the ranges' first keys
     * @param limits the ranges' ends (exclusive)
     * @return one size per range
     * @throws IllegalArgumentException if the arrays differ in length
     */
    long[] approximateSizes(ColumnFamilyHandle family, MemorySegment[] starts, MemorySegment[] limits);

    /**
     * Creates a checkpoint: a consistent copy of the database (hard links where possible) in
     * the new directory {@code target}, which can be opened as a database of its own. To make
     * many, keep a {@link Checkpoint}.
     *
     * @param target a directory that does not exist yet
     * @throws RocksDBException e.g. if {@code target} exists
     */
    void createCheckpoint(Path target);

    // ---- bulk loading and mutable options (issue 16) ----------------------------------------------

    /**
     * Ingests table files (written with {@link SstFileWriter}) into {@code family}: their entries
     * become visible at once, as if written in one batch after everything before. Overlapping
     * data in the memtable is flushed first (unless {@code options} forbid it).
     *
     * @param family  the column family
     * @param files   the files, at least one (copied or moved into the database, per {@code options})
     * @param options the ingestion's options
     * @throws IllegalArgumentException if {@code files} is empty or a path holds a NUL character
     * @throws IllegalStateException if the database, the family or the options are closed
     * @throws RocksDBException e.g. {@link RocksDBException.Code#IO_ERROR} for a missing file,
     *         {@link RocksDBException.Code#INVALID_ARGUMENT} for files that cannot go where the
     *         options say (overlapping files ingested behind, behind without
     *         {@link Options#setAllowIngestBehind})
     */
    void ingestExternalFile(ColumnFamilyHandle family, List<Path> files, IngestExternalFileOptions options);

    /**
     * {@link #ingestExternalFile(ColumnFamilyHandle, List, IngestExternalFileOptions)} into the
     * default family.
     *
     * @param files   the files, at least one
     * @param options the ingestion's options
     * @throws RocksDBException if the ingestion fails
     */
    default void ingestExternalFile(List<Path> files, IngestExternalFileOptions options) {
        ingestExternalFile(defaultColumnFamily(), files, options);
    }

    /**
     * Changes mutable options of {@code family} on the open database ({@code SetOptions}), by
     * their names in RocksDB's options files, e.g. {@code "write_buffer_size" -> "8388608"},
     * {@code "disable_auto_compactions" -> "true"}. Either all of them change or none.
     *
     * @param family  the column family
     * @param options option names and values, at least one
     * @throws IllegalArgumentException if {@code options} is empty or a name or value holds a NUL
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} for an unknown or
     *         immutable option, or a value that does not parse
     */
    void setOptions(ColumnFamilyHandle family, java.util.Map<String, String> options);

    /**
     * {@link #setOptions(ColumnFamilyHandle, java.util.Map)} for the default family.
     *
     * @param options option names and values, at least one
     * @throws RocksDBException for an unknown or immutable option, or a value that does not parse
     */
    void setOptions(java.util.Map<String, String> options);
}
