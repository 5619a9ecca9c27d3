package io.rocksffm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.Map;
import java.util.Objects;

/**
 * The administration of a database: the operations on a database as a whole (column families,
 * flushes, compaction, properties, sizes, checkpoints, options, background work, log files),
 * declared apart from the reads of {@link KeyValueReads} and the writes of {@link KeyValueWrites}.
 * Every {@link Database} offers them, and {@link Database} is the type to hold a database by. Core
 * methods take a {@link ColumnFamilyHandle}; the default-family forms are written here once.
 * Thread-safe; a closed database, family or options object throws {@link IllegalStateException},
 * a failure {@link RocksDBException}.
 *
 * {@snippet id="DatabaseAdmin" :
 * String stats = db.getProperty("rocksdb.stats");                       // text; null if unknown
 * OptionalLong keys = db.getLongProperty("rocksdb.estimate-num-keys");  // empty if unknown
 * db.setOptions(Map.of("write_buffer_size", "8388608"));               // mutable options, by name
 * db.flush(true);                                                        // memtables to table files
 * }
 */
public sealed interface DatabaseAdmin extends ColumnFamilyAdmin permits Database {

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
     * Drops several column families ({@code DropColumnFamilies} in rocksdbjni): every handle is
     * checked first, then each family is dropped as {@link #dropColumnFamily} does (the C API has no
     * call for several at once; a failure part-way leaves the families before it dropped).
     *
     * @param families the families to drop
     * @throws IllegalArgumentException for the default family, a handle of another database or
     *         one listed twice, before any family is dropped
     * @throws IllegalStateException if a handle is closed or iterators on it are open
     * @throws RocksDBException e.g. on a read-only handle
     */
    void dropColumnFamilies(List<ColumnFamilyHandle> families);

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
        Objects.requireNonNull(family, "family");
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
     * Flushes the memtables of several families in one call ({@code rocksdb_flush_cfs}; with
     * {@code atomic_flush} set, atomically).
     *
     * @param families the column families, at least one
     * @param options  the flush options (whether to wait)
     * @throws IllegalArgumentException if {@code families} is empty or holds a handle of another
     *         database
     * @throws RocksDBException if the flush fails
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_flush_cfs} (7.8.3)
     * @throws IllegalStateException if called from inside a Java callback
     */
    void flush(List<ColumnFamilyHandle> families, FlushOptions options);

    /**
     * Writes the WAL's buffered data to its file ({@code FlushWAL}), and with {@code sync} also
     * fsyncs it: useful with unsynced writes to make a group of them durable at once.
     *
     * @param sync whether to fsync the log too
     * @throws RocksDBException if writing fails
     */
    void flushWal(boolean sync);

    /**
     * Starts recording the database's operations (point reads, writes, iterator seeks, batched
     * reads; the kinds {@code options} does not exclude) into the file {@code path}
     * ({@code StartTrace}), which RocksDB creates, replacing one that exists; RocksDB's own tools
     * replay or analyse it ({@code trace_analyzer}, {@code db_bench -benchmarks=replay}). The
     * recording goes on until {@link #endTrace()} or the database closes; starting again while
     * recording replaces the running trace with the new one. Operations of every column family
     * and of every thread are recorded, at a cost on each.
     *
     * @param options what to record
     * @param path    the trace file (its directory must exist)
     * @throws NullPointerException if {@code options} or {@code path} is null
     * @throws IllegalArgumentException if the path holds a NUL character
     * @throws RocksDBException e.g. {@link RocksDBException.Code#IO_ERROR} if the file cannot be created
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_start_trace} (before RocksDB 11.8)
     * @throws IllegalStateException if closed
     */
    void startTrace(TraceOptions options, Path path);

    /**
     * {@link #startTrace(TraceOptions, Path)} with RocksDB's default options: every operation, up to
     * 64 GiB.
     *
     * @param path the trace file (its directory must exist)
     * @throws RocksDBException e.g. {@link RocksDBException.Code#IO_ERROR} if the file cannot be created
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_start_trace} (before RocksDB 11.8)
     * @throws IllegalStateException if closed
     */
    default void startTrace(Path path) {
        startTrace(new TraceOptions(), path);
    }

    /**
     * Stops the recording {@link #startTrace(TraceOptions, Path)} started and closes its file
     * ({@code EndTrace}).
     *
     * @throws RocksDBException {@link RocksDBException.Code#IO_ERROR} if no trace is running, or the
     *         file cannot be finished
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_end_trace} (before RocksDB 11.8)
     * @throws IllegalStateException if closed
     */
    void endTrace();

    /**
     * Compacts the keys of {@code family} in {@code [begin, end]}; a {@code null} bound is
     * open-ended. Waits until the compaction is done (the C API reports no error). For keys in
     * arrays, wrap them: {@code compactRange(family, MemorySegment.ofArray(begin), MemorySegment.ofArray(end))}
     * (rocksdbjni's {@code compactRange(family, byte[], byte[])}). There is no {@code byte[]} form
     * with a family: beside this one, {@code compactRange(family, null, null)} would not compile
     * (an ambiguous call).
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
     * Compacts the default family's keys in {@code [begin, end]}; a {@code null} bound is open-ended.
     * (For another family, {@link #compactRange(ColumnFamilyHandle, MemorySegment, MemorySegment)}
     * with {@code MemorySegment.ofArray(key)}.)
     *
     * @param begin the first key, or {@code null}
     * @param end   the last key, or {@code null}
     * @throws IllegalStateException if called from inside a Java callback
     */
    default void compactRange(byte[] begin, byte[] end) {
        compactRange(defaultColumnFamily(), begin == null ? null : MemorySegment.ofArray(begin),
                end == null ? null : MemorySegment.ofArray(end));
    }

    /**
     * Compacts the whole of {@code family}.
     *
     * @param family the column family
     * @throws IllegalStateException if called from inside a Java callback
     */
    default void compactRange(ColumnFamilyHandle family) {
        compactRange(family, null, null);
    }

    /**
     * Compacts the keys in {@code [begin, end)} of {@code family} with {@code options} (e.g. moving
     * the output to a chosen level, or forcing the last level to be rewritten); waits for it.
     *
     * @param family  the column family
     * @param options the compaction's settings
     * @param begin   the first key, or null for the start
     * @param end     the key after the last, or null for the end
     * @throws IllegalStateException if the database, family or options are closed
     */
    void compactRange(ColumnFamilyHandle family, CompactRangeOptions options, MemorySegment begin,
                              MemorySegment end);

    /**
     * The database's live table files with their family, level, size, key range and entry counts
     * ({@code GetLiveFilesMetaData}).
     *
     * @return the files, an unmodifiable list
     * @throws IllegalStateException if the database is closed
     */
    List<LiveFile> liveFiles();

    /**
     * Deletes the table files of {@code family} whose keys all lie in {@code [begin, end]}
     * ({@code DeleteFilesInRange}): a fast way to drop a large range, without tombstones. Keys of
     * the range in memtables or in files that also hold other keys stay (follow with
     * {@code deleteRange} to remove them too); files of level 0 are kept.
     *
     * @param family the column family
     * @param begin  the first key, or null for the start
     * @param end    the last key (inclusive), or null for the end
     * @throws IllegalStateException if the database or family is closed
     * @throws RocksDBException if RocksDB fails
     */
    void deleteFilesInRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end);

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
     * An integer property summed over every column family ({@code rocksdb_property_int_cf} of
     * each; what RocksDB's {@code GetAggregatedIntProperty} computes), e.g.
     * {@code rocksdb.estimate-num-keys} or {@code rocksdb.cur-size-all-mem-tables} for the whole
     * database. Families dropped meanwhile are skipped.
     *
     * @param property the property's name
     * @return the sum, or empty if no family has the property as an integer
     * @throws IllegalStateException if the database is closed
     */
    default OptionalLong getAggregatedLongProperty(String property) {
        Objects.requireNonNull(property, "property");
        long sum = 0;
        boolean any = false;
        for (ColumnFamilyHandle family : columnFamilies()) {
            OptionalLong v;
            try {
                v = getLongProperty(family, property);
            } catch (IllegalStateException e) {
                if (family.isClosed()) {
                    continue; // dropped (its handle closed) since the list was taken
                }
                throw e;
            }
            if (v.isPresent()) {
                sum += v.getAsLong();
                any = true;
            }
        }
        return any ? OptionalLong.of(sum) : OptionalLong.empty();
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
     * Approximate sizes of the ranges {@code [starts[i], limits[i])} counting the memtables (unflushed
     * writes), the table files, or both ({@code SizeApproximationFlags}); files only: the plain form.
     *
     * @param family the column family
     * @param starts the ranges' first keys
     * @param limits the ranges' ends (exclusive)
     * @param includeMemtables whether to count the memtables
     * @param includeFiles whether to count the table files
     * @return one size per range
     * @throws IllegalArgumentException if the arrays differ in length, or neither flag is set
     * @throws IllegalStateException if the database or family is closed
     * @throws UnsupportedOperationException on engines without {@code rocksdb_approximate_sizes_cf_with_flags}
     */
    long[] approximateSizes(ColumnFamilyHandle family, MemorySegment[] starts, MemorySegment[] limits,
                                    boolean includeMemtables, boolean includeFiles);

    /**
     * Stops RocksDB deleting obsolete files (compacted table files, old logs) until as many
     * {@link #enableFileDeletions()}: for copying the files from outside while the database runs.
     *
     * @throws IllegalStateException if the database is closed
     * @throws RocksDBException if RocksDB fails
     */
    void disableFileDeletions();

    /**
     * Undoes one {@link #disableFileDeletions()}; once all are undone, RocksDB deletes the files
     * that became obsolete meanwhile (before 9.0 rocksffm passes {@code force} false: the same count).
     *
     * @throws IllegalStateException if the database is closed
     * @throws RocksDBException if RocksDB fails
     */
    void enableFileDeletions();

    /**
     * Creates a checkpoint: a consistent copy of the database (hard links where possible) in
     * the new directory {@code target}, which can be opened as a database of its own. To make
     * many, keep a {@link Checkpoint}.
     *
     * @param target a directory that does not exist yet
     * @throws RocksDBException e.g. if {@code target} exists
     */
    void createCheckpoint(Path target);

    // ---- bulk loading and mutable options ----------------------------------------------------------

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
    void setOptions(ColumnFamilyHandle family, Map<String, String> options);

    /**
     * {@link #setOptions(ColumnFamilyHandle, java.util.Map)} for the default family.
     *
     * @param options option names and values, at least one
     * @throws RocksDBException for an unknown or immutable option, or a value that does not parse
     */
    void setOptions(Map<String, String> options);

    // ---- administration RocksDB 11 added: on older engines these throw
    // UnsupportedOperationException naming the C function and the engine's version ---------------

    /**
     * Compacts the table files {@code inputFiles} of {@code family} into {@code outputLevel}
     * ({@code CompactFiles}), in this thread, and returns the files written. The inputs must be
     * live files of the family (e.g. listed from the database's directory, or returned by an
     * earlier compaction); RocksDB adds the files it needs for a consistent result (overlapping
     * files at the output level, and the older overlapping files of level 0).
     *
     * @param family      the column family
     * @param options     the compaction's options (read during the call only)
     * @param inputFiles  the files to compact, at least one: each a live table file of this
     *                    database, by name ({@code 000012.sst}), by the name {@link #liveFiles()}
     *                    reports ({@code /000012.sst}), or by a path into the database's directory
     * @param outputLevel the level to write to, from 0 to the family's {@code num_levels - 1}
     * @return the paths of the files written, in key order (empty if the compaction removed all data)
     * @throws IllegalArgumentException if {@code inputFiles} is empty, a path holds a NUL
     *         character or is not a live table file of this database (a missing file, another
     *         database's, a path elsewhere; the message names it), or {@code outputLevel < 0}
     * @throws IllegalStateException if the database, the family or the options are closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_compact_files_cf}
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} for a live file of
     *         another family or a level the family does not have,
     *         {@link RocksDBException.Code#INCOMPLETE} if the options are
     *         {@link CompactionOptions#setCanceled canceled}, or another failure
     */
    List<Path> compactFiles(ColumnFamilyHandle family, CompactionOptions options, List<Path> inputFiles, int outputLevel);

    /**
     * {@link #compactFiles(ColumnFamilyHandle, CompactionOptions, List, int)}, returning RocksDB's
     * record of the job ({@code CompactionJobInfo}, as an {@link EventListener} receives it): the
     * input files (also those RocksDB added), the output files, the levels, the records and bytes
     * read and written, the time taken.
     *
     * @param family      the column family
     * @param options     the compaction's options (read during the call only)
     * @param inputFiles  the files to compact, at least one, as for {@code compactFiles}
     * @param outputLevel the level to write to
     * @return the job's record; its reason is {@link EventListener.CompactionJobInfo#MANUAL_COMPACTION}
     * @throws IllegalArgumentException as {@link #compactFiles(ColumnFamilyHandle, CompactionOptions, List, int)}
     * @throws IllegalStateException if the database, the family or the options are closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_compact_files_cf}
     * @throws RocksDBException as {@link #compactFiles(ColumnFamilyHandle, CompactionOptions, List, int)}
     */
    EventListener.CompactionJobInfo compactFilesWithJobInfo(ColumnFamilyHandle family, CompactionOptions options,
                                                            List<Path> inputFiles, int outputLevel);

    /**
     * {@link #compactFiles(ColumnFamilyHandle, CompactionOptions, List, int)} in the default family.
     *
     * @param options     the compaction's options
     * @param inputFiles  the files to compact, at least one
     * @param outputLevel the level to write to
     * @return the paths of the files written
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_compact_files_cf}
     * @throws RocksDBException if the compaction fails
     */
    default List<Path> compactFiles(CompactionOptions options, List<Path> inputFiles, int outputLevel) {
        return compactFiles(defaultColumnFamily(), options, inputFiles, outputLevel);
    }

    /**
     * Changes mutable database-wide options on the open database ({@code SetDBOptions}), by their
     * names in RocksDB's options files, e.g. {@code "max_background_jobs" -> "4"},
     * {@code "bytes_per_sync" -> "1048576"}, {@code "stats_dump_period_sec" -> "60"}. Either all
     * of them change or none. Column-family options go through
     * {@link #setOptions(ColumnFamilyHandle, java.util.Map)}.
     *
     * @param options option names and values, at least one
     * @throws IllegalArgumentException if {@code options} is empty, a name is empty or a name or
     *         value holds a NUL character
     * @throws IllegalStateException if the database is closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_set_db_options}
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} for a name it does not
     *         change (unknown, immutable, or a column family's option),
     *         {@link RocksDBException.Code#INVALID_ARGUMENT} for a value that does not parse
     */
    void setDBOptions(Map<String, String> options);

    /**
     * Reads every table file of every column family and checks its block checksums
     * ({@code VerifyChecksum}), in this thread.
     *
     * @throws IllegalStateException if the database is closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_verify_checksum}
     * @throws RocksDBException {@link RocksDBException.Code#CORRUPTION} naming the damaged file
     */
    void verifyChecksum();

    /**
     * {@link #verifyChecksum()} reading with {@code options} (e.g. {@link ReadOptions#setFillCache
     * fillCache(false)} to keep the verification's blocks out of the block cache, readahead).
     *
     * @param options the read options of the verification
     * @throws IllegalStateException if the database or the options are closed
     * @throws IllegalArgumentException if the options' snapshot belongs to another database
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_verify_checksum_with_options}
     * @throws RocksDBException {@link RocksDBException.Code#CORRUPTION} naming the damaged file
     */
    void verifyChecksum(ReadOptions options);

    /**
     * Stops the database's background flushes and compactions: waits for those running, and
     * schedules no new ones until {@link #continueBackgroundWork()} (calls nest: each pause needs
     * its continue). Writes go on until the memtables fill, then stall. While paused the database
     * refuses to close ({@link IllegalStateException}, a pause counting as an open child): its
     * close flushes the memtables, and a flush cannot run while paused.
     *
     * @throws IllegalStateException if the database is closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_pause_background_work}
     * @throws RocksDBException if RocksDB refuses
     */
    void pauseBackgroundWork();

    /**
     * Ends one {@link #pauseBackgroundWork()}: when every pause has ended, pending flushes and
     * compactions are scheduled again.
     *
     * @throws IllegalStateException if the database is closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_continue_background_work}
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} if the work is not paused
     */
    void continueBackgroundWork();

    /**
     * The database's write-ahead log files, live and archived, oldest first
     * ({@code GetSortedWalFiles}).
     *
     * @return the files (an unmodifiable list)
     * @throws IllegalStateException if the database is closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_get_sorted_wal_files}
     * @throws RocksDBException if listing fails
     */
    List<WalFile> sortedWalFiles();

    /**
     * The write-ahead log file that writes go to now ({@code GetCurrentWalFile}). RocksDB does
     * not read the file for its start sequence: it is 0 here ({@link #sortedWalFiles()} has it).
     * The log may have rolled over by the time this returns.
     *
     * @return the file
     * @throws IllegalStateException if the database is closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_get_current_wal_file}
     * @throws RocksDBException if it cannot be read
     */
    WalFile currentWalFile();

    // ---- change capture -----------------------------------------------------------------------------

    /**
     * The sequence number of the database's latest write (every write advances it by its number
     * of entries).
     *
     * @return the latest sequence number
     * @throws IllegalStateException if the database is closed
     */
    long latestSequenceNumber();

    /**
     * The write batches in the write-ahead log from {@code sequence} on, oldest first, up to
     * {@code maxBatches} of them ({@code GetUpdatesSince}): for change capture, call again from
     * the last batch's sequence number plus its {@link WriteBatch#count()}. The first batch may
     * start before {@code sequence} (the batch containing it). An empty list means nothing new:
     * {@code sequence} is past {@link #latestSequenceNumber()}.
     *
     * <p>Only what the log files still hold is there: keep them with
     * {@link Options#setWalTtlSeconds} or {@link Options#setWalSizeLimitMb}. Writes the log does not
     * hold are a gap, reported, never skipped: when the log holds no batch with {@code sequence}
     * (its files purged, or the writes from there not logged: {@link WriteOptions#setDisableWAL},
     * ingested files, recovered logs flushed at open) this throws
     * {@link RocksDBException.Code#NOT_FOUND} naming the missing sequence numbers and the first
     * the log holds ({@link #oldestLoggedSequenceNumber()}); RocksDB alone would start at the next
     * batch it finds. A gap after some batches ends the list there; the next call, from it, throws.
     *
     * @param sequence   the first sequence number wanted, at least 0
     * @param maxBatches the most batches returned, at least 1
     * @return the updates, each batch owned by the caller (close them); empty if nothing is new
     * @throws IllegalArgumentException if {@code sequence < 0} or {@code maxBatches < 1}
     * @throws IllegalStateException if the database is closed
     * @throws RocksDBException {@link RocksDBException.Code#NOT_FOUND} for a gap: the log no longer
     *         holds {@code sequence} (or the database has no log, e.g. read-only)
     */
    List<WalUpdate> getUpdatesSince(long sequence, int maxBatches);

    /**
     * The first sequence number the write-ahead log holds: of its oldest batch, or
     * {@link #latestSequenceNumber()} + 1 if it holds none. A change-capture reader that met a
     * gap ({@link #getUpdatesSince}) and copied the database anew (a checkpoint, a backup) resumes
     * from the copy's latest sequence number; this tells what the log can still give.
     *
     * @return the sequence number
     * @throws IllegalStateException if the database is closed
     * @throws RocksDBException if the log cannot be read (e.g. a read-only database)
     */
    long oldestLoggedSequenceNumber();

    /**
     * Waits until the database's background flushes and compactions are done ({@code WaitForCompact}),
     * with what {@code options} ask: a flush first, giving up when background work is paused, a
     * time limit. (RocksDB's option to close the database afterwards is not offered: see
     * {@link WaitForCompactOptions}.) Not from inside a callback.
     *
     * @param options the wait's settings (read during the call)
     * @throws IllegalStateException if the database or options are closed, or called from inside a callback
     * @throws RocksDBException e.g. {@link RocksDBException.Code#TIMED_OUT} past the time limit,
     *         {@link RocksDBException.Code#ABORTED} when paused and asked to give up
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_wait_for_compact} (7.8.3)
     */
    void waitForCompact(WaitForCompactOptions options);

    /**
     * Cancels the database's background work ({@code CancelAllBackgroundWork}), as closing does:
     * running compactions stop, and no flush or compaction is scheduled again until the database
     * is closed and reopened. Meant right before {@link Database#close()}. Reads keep working, and
     * writes too until the memtables fill: then a write waits for a flush that never comes (it
     * stalls, or fails if the write options say not to wait). The data written stays in the
     * write-ahead log and is recovered by the next open.
     *
     * @param wait whether to wait until running background jobs have stopped (not from inside a callback)
     * @throws IllegalStateException if the database is closed, or {@code wait} from inside a callback
     */
    void cancelAllBackgroundWork(boolean wait);

    /**
     * Suggests to RocksDB that the table files of {@code family} overlapping {@code [begin, end]}
     * be compacted ({@code SuggestCompactRange}): it marks them, and background compaction picks
     * them up when it next runs (this call does not wait). Only files above the family's last
     * non-empty level are marked: with every file in one level (only level 0, say) nothing happens. Null bounds mean the start or end of
     * the family; {@code begin} must not sort after {@code end} in the family's order.
     *
     * @param family the column family
     * @param begin  the first key, or null
     * @param end    the last key, or null
     * @throws IllegalArgumentException if {@code end} sorts before {@code begin}, or a bound is too large
     * @throws IllegalStateException if the database or family is closed
     * @throws RocksDBException if RocksDB refuses (e.g. under FIFO compaction, which has no levels to mark)
     */
    void suggestCompactRange(ColumnFamilyHandle family, MemorySegment begin, MemorySegment end);
}
