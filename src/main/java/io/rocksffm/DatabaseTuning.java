package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;
import java.nio.charset.StandardCharsets;

/**
 * The database-wide settings of {@link Options} (RocksDB's {@code DBOptions}): background jobs,
 * the write-ahead log, syncing, write paths, the info log. A part of {@code Options}, not a type
 * of its own: the methods are {@code Options}' methods and return the options.
 */
abstract class DatabaseTuning extends EnvironmentTuning {
    DatabaseTuning(String what, MemorySegment ptr) {
        super(what, ptr);
    }

    /**
     * Whether text (an options string, an options file) made these options, so that they may give
     * a family a merge operator or comparator that no Java setter recorded: an open or a family's
     * creation with them learns what the engine runs from the OPTIONS file it writes.
     */
    volatile boolean fromText;

    final Options self() {
        return (Options) this;
    }

    /** Runs a setter while open and returns the options. */
    final Options set(Consumer<MemorySegment> setter) {
        use(setter);
        return self();
    }

    /** A setter some supported engine lacks: closed first (IllegalStateException), then the engine. */
    final Options setGated(String function, Consumer<MemorySegment> setter) {
        lifecycle.ensureOpen();
        Capabilities.require(function);
        use(setter);
        return self();
    }

    /** A getter some supported engine lacks: closed first (IllegalStateException), then the engine. */
    final long readGated(String function, ToLongFunction<MemorySegment> getter) {
        lifecycle.ensureOpen();
        Capabilities.require(function);
        return read(getter);
    }

    static long atLeast(String what, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be >= " + min + ": " + value);
        }
        return value;
    }

    static int atLeast(String what, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(what + " must be >= " + min + ": " + value);
        }
        return value;
    }

    /**
     * Limits the flushes and compactions running at once (RocksDB's default: 2).
     *
     * @param jobs the number of background jobs, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code jobs < 1}
     */
    public Options setMaxBackgroundJobs(int jobs) {
        atLeast("max background jobs", jobs, 1);
        return set(p -> rocksdb_options_set_max_background_jobs(p, jobs));
    }

    /** {@return the most flushes and compactions running at once} */
    public int maxBackgroundJobs() {
        return (int) read(p -> rocksdb_options_get_max_background_jobs(p));
    }

    /**
     * Splits a compaction into up to {@code n} parallel subcompactions (RocksDB's default: 1).
     *
     * @param n the most subcompactions of one compaction, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Options setMaxSubcompactions(int n) {
        atLeast("max subcompactions", n, 1);
        return set(p -> rocksdb_options_set_max_subcompactions(p, n));
    }

    /** {@return the most subcompactions of one compaction} */
    public int maxSubcompactions() {
        return (int) read(p -> rocksdb_options_get_max_subcompactions(p));
    }

    /**
     * Creates the column families named at open that do not exist yet (instead of failing).
     *
     * @param value whether missing families are created on open
     * @return these options
     */
    public Options setCreateMissingColumnFamilies(boolean value) {
        return set(p -> rocksdb_options_set_create_missing_column_families(p, flag(value)));
    }

    /** {@return whether missing families are created on open} */
    public boolean createMissingColumnFamilies() {
        return read(p -> rocksdb_options_get_create_missing_column_families(p)) != 0;
    }

    /**
     * Syncs table files incrementally every {@code bytes} written (0, the default: only at the end).
     *
     * @param bytes the sync interval in bytes, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setBytesPerSync(long bytes) {
        atLeast("bytes per sync", bytes, 0);
        return set(p -> rocksdb_options_set_bytes_per_sync(p, bytes));
    }

    /** {@return the table files' incremental sync interval in bytes, 0 for none} */
    public long bytesPerSync() {
        return read(p -> rocksdb_options_get_bytes_per_sync(p));
    }

    /**
     * Syncs the write-ahead log incrementally every {@code bytes} written (0, the default: none).
     *
     * @param bytes the sync interval in bytes, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setWalBytesPerSync(long bytes) {
        atLeast("WAL bytes per sync", bytes, 0);
        return set(p -> rocksdb_options_set_wal_bytes_per_sync(p, bytes));
    }

    /** {@return the write-ahead log's incremental sync interval in bytes, 0 for none} */
    public long walBytesPerSync() {
        return read(p -> rocksdb_options_get_wal_bytes_per_sync(p));
    }

    /**
     * Syncs with {@code fsync} instead of {@code fdatasync} (false by default).
     *
     * @param value true for fsync
     * @return these options
     */
    public Options setUseFsync(boolean value) {
        return set(p -> rocksdb_options_set_use_fsync(p, value ? 1 : 0));
    }

    /** {@return whether files are synced with fsync} */
    public boolean useFsync() {
        return read(p -> rocksdb_options_get_use_fsync(p)) != 0;
    }

    /**
     * Checks aggressively and stops the database on any corruption detected (true by default).
     *
     * @param value whether to check paranoidly
     * @return these options
     */
    public Options setParanoidChecks(boolean value) {
        return set(p -> rocksdb_options_set_paranoid_checks(p, flag(value)));
    }

    /** {@return whether corruption checks are paranoid} */
    public boolean paranoidChecks() {
        return read(p -> rocksdb_options_get_paranoid_checks(p)) != 0;
    }

    /**
     * Lets several writers insert into the memtable at once (true by default; the skip-list
     * memtable supports it).
     *
     * @param value whether memtable writes are concurrent
     * @return these options
     */
    public Options setAllowConcurrentMemtableWrite(boolean value) {
        return set(p -> rocksdb_options_set_allow_concurrent_memtable_write(p, flag(value)));
    }

    /** {@return whether memtable writes are concurrent} */
    public boolean allowConcurrentMemtableWrite() {
        return read(p -> rocksdb_options_get_allow_concurrent_memtable_write(p)) != 0;
    }

    /**
     * Pipelines the write-ahead log and memtable stages of writes (false by default).
     *
     * @param value whether writes are pipelined
     * @return these options
     */
    public Options setEnablePipelinedWrite(boolean value) {
        return set(p -> rocksdb_options_set_enable_pipelined_write(p, flag(value)));
    }

    /** {@return whether writes are pipelined} */
    public boolean enablePipelinedWrite() {
        return read(p -> rocksdb_options_get_enable_pipelined_write(p)) != 0;
    }

    /**
     * Lets writes become visible out of order for throughput (false by default; snapshots then see
     * no consistent order of concurrent writes).
     *
     * @param value whether writes are unordered
     * @return these options
     */
    public Options setUnorderedWrite(boolean value) {
        return set(p -> rocksdb_options_set_unordered_write(p, flag(value)));
    }

    /** {@return whether writes are unordered} */
    public boolean unorderedWrite() {
        return read(p -> rocksdb_options_get_unordered_write(p)) != 0;
    }

    /**
     * Flushes the memtables of all column families together, atomically (false by default).
     *
     * @param value whether flushes are atomic across families
     * @return these options
     */
    public Options setAtomicFlush(boolean value) {
        return set(p -> rocksdb_options_set_atomic_flush(p, flag(value)));
    }

    /** {@return whether flushes are atomic across families} */
    public boolean atomicFlush() {
        return read(p -> rocksdb_options_get_atomic_flush(p)) != 0;
    }

    /**
     * Moves file deletions and other blocking I/O off the threads that release iterators and
     * column families, to a background job (false by default).
     *
     * @param value whether to avoid blocking I/O on foreground threads
     * @return these options
     */
    public Options setAvoidUnnecessaryBlockingIo(boolean value) {
        return set(p -> rocksdb_options_set_avoid_unnecessary_blocking_io(p, flag(value)));
    }

    /** {@return whether blocking I/O is moved to background jobs} */
    public boolean avoidUnnecessaryBlockingIo() {
        return read(p -> rocksdb_options_get_avoid_unnecessary_blocking_io(p)) != 0;
    }

    // ---- the write-ahead log ---------------------------------------------------------------------

    /**
     * Keeps archived write-ahead log files for {@code seconds} (0, the default: deleted at once
     * unless {@link #setWalSizeLimitMb} keeps them).
     *
     * @param seconds the age limit, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code seconds < 0}
     */
    public Options setWalTtlSeconds(long seconds) {
        atLeast("WAL ttl seconds", seconds, 0);
        return set(p -> rocksdb_options_set_WAL_ttl_seconds(p, seconds));
    }

    /** {@return how long archived log files are kept, in seconds} */
    public long walTtlSeconds() {
        return read(p -> rocksdb_options_get_WAL_ttl_seconds(p));
    }

    /**
     * Keeps archived write-ahead log files up to {@code megabytes} in total (0, the default: no limit by size).
     *
     * @param megabytes the size limit in MiB, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code megabytes < 0}
     */
    public Options setWalSizeLimitMb(long megabytes) {
        atLeast("WAL size limit", megabytes, 0);
        return set(p -> rocksdb_options_set_WAL_size_limit_MB(p, megabytes));
    }

    /** {@return the archived log files' size limit in MiB} */
    public long walSizeLimitMb() {
        return read(p -> rocksdb_options_get_WAL_size_limit_MB(p));
    }

    /**
     * Flushes the column families holding the oldest live log once the logs pass {@code bytes}
     * (0, the default: four times the memtables' total size).
     *
     * @param bytes the limit in bytes, 0 for RocksDB's choice
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setMaxTotalWalSize(long bytes) {
        atLeast("max total WAL size", bytes, 0);
        return set(p -> rocksdb_options_set_max_total_wal_size(p, bytes));
    }

    /** {@return the live log size that forces flushes, 0 for RocksDB's choice} */
    public long maxTotalWalSize() {
        return read(p -> rocksdb_options_get_max_total_wal_size(p));
    }

    private volatile Path walDir;

    /**
     * Writes the write-ahead log to {@code dir} instead of the database directory (e.g. a faster
     * device). Open the database with the same directory afterwards.
     *
     * @param dir the log directory (made absolute)
     * @return these options
     * @throws IllegalArgumentException if the path holds a NUL character
     */
    public Options setWalDir(Path dir) {
        String name = Opening.cPath(dir);
        try (Scratch s = Scratch.enterFirst(lifecycle); Arena arena = Arena.ofConfined()) {
            rocksdb_options_set_wal_dir(ptr, arena.allocateFrom(name));
            walDir = Path.of(name);
        }
        return self();
    }

    /**
     * The write-ahead log directory: RocksDB's setting where the engine can report it
     * ({@code rocksdb_options_get_wal_dir}, RocksDB 11), else the one set here.
     *
     * @return the directory, or null for the database directory
     * @throws IllegalStateException if closed
     */
    public Path walDir() {
        lifecycle.ensureOpen();
        if (!Capabilities.callable("rocksdb_options_get_wal_dir")) {
            return walDir;
        }
        try (Scratch s = Scratch.enterFirst(lifecycle); Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment dir = rocksdb_options_get_wal_dir(ptr, size);
            long n = size.get(ValueLayout.JAVA_LONG, 0);
            if (dir.address() == 0 || n == 0) {
                return null;
            }
            return Path.of(new String(dir.reinterpret(n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
        }
    }

    // ---- the info log ----------------------------------------------------------------------------

    /**
     * The least severe messages written to the info log ({@code LOG}; RocksDB's default: INFO).
     *
     * @param level the level
     * @return these options
     */
    public Options setInfoLogLevel(InfoLogLevel level) {
        Objects.requireNonNull(level, "level");
        return set(p -> rocksdb_options_set_info_log_level(p, level.id));
    }

    /** {@return the info log's level} */
    public InfoLogLevel infoLogLevel() {
        return InfoLogLevel.of((int) read(p -> rocksdb_options_get_info_log_level(p)));
    }

    /**
     * Keeps at most {@code files} old info log files (RocksDB's default: 1000).
     *
     * @param files the number of files kept, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code files < 1}
     */
    public Options setKeepLogFileNum(long files) {
        atLeast("keep log file num", files, 1);
        return set(p -> rocksdb_options_set_keep_log_file_num(p, files));
    }

    /** {@return how many old info log files are kept} */
    public long keepLogFileNum() {
        return read(p -> rocksdb_options_get_keep_log_file_num(p));
    }

    /**
     * Dumps statistics to the info log every {@code seconds} (RocksDB's default: 600; 0 never).
     *
     * @param seconds the period, 0 for never
     * @return these options
     * @throws IllegalArgumentException if {@code seconds < 0}
     */
    public Options setStatsDumpPeriodSec(int seconds) {
        atLeast("stats dump period", seconds, 0);
        return set(p -> rocksdb_options_set_stats_dump_period_sec(p, seconds));
    }

    /** {@return the statistics dump period in seconds, 0 for never} */
    public int statsDumpPeriodSec() {
        return (int) read(p -> rocksdb_options_get_stats_dump_period_sec(p));
    }

    /**
     * One memtable budget for all column families of the database (0, the default: none; see also
     * {@link Options#setWriteBufferManager}).
     *
     * @param bytes the budget in bytes, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setDbWriteBufferSize(long bytes) {
        atLeast("db write buffer size", bytes, 0);
        return set(p -> rocksdb_options_set_db_write_buffer_size(p, bytes));
    }

    /** {@return the database's memtable budget in bytes, 0 for none} */
    public long dbWriteBufferSize() {
        return read(p -> rocksdb_options_get_db_write_buffer_size(p));
    }
    /**
     * Whether a family with user-defined timestamps ({@link TimestampedComparator}) keeps them in
     * its files (true, the default). False keeps them only in the memtables (RocksDB's contract:
     * needs {@code atomic_flush} and {@link #setAllowConcurrentMemtableWrite} off, and a comparator
     * whose name ends in {@code .u64ts}; opening fails otherwise). In RocksDB 11's C API.
     *
     * @param value whether timestamps are persisted
     * @return these options
     * @throws UnsupportedOperationException on an engine without it (7.8.3, 10.x)
     */
    public Options setPersistUserDefinedTimestamps(boolean value) {
        return setGated("rocksdb_options_set_persist_user_defined_timestamps",
                p -> rocksdb_options_set_persist_user_defined_timestamps(p, flag(value)));
    }

    /**
     * {@return whether user-defined timestamps are persisted in files}
     *
     * @throws UnsupportedOperationException on an engine without it (7.8.3, 10.x)
     */
    public boolean persistUserDefinedTimestamps() {
        return readGated("rocksdb_options_get_persist_user_defined_timestamps",
                p -> rocksdb_options_get_persist_user_defined_timestamps(p)) != 0;
    }
}
