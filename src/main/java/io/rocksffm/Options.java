package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import io.rocksffm.internal.Capabilities;

/**
 * Database options ({@code rocksdb_options_t}), with the settings people reach for first.
 * {@snippet id="Options" :
 * try (Options options = new Options().setCreateIfMissing(true)
 *              .setBlockCacheSize(64L << 20).setBloomFilter(10);   // 64 MiB cache; 10 bits per key
 *      RocksDB db = RocksDB.open(path, options)) {
 *     // RocksDB copied the options: closing them now would not affect db
 * }
 * }
 * <p>Owned by the caller, who closes it; RocksDB copies the options when a database is opened, so
 * they may be closed as soon as {@link RocksDB#open} returns. Setters return {@code this}.
 * Safe to share across threads (calls are serialised by RocksDB only where it does so); using a
 * closed instance throws {@link IllegalStateException}.
 */
public final class Options extends TableTuning {
    private long blockCacheSize = -1;
    private double bloomBitsPerKey;

    /** Default options (RocksDB's defaults: create-if-missing off). */
    public Options() {
        super("Options", rocksdb_options_create());
    }

    /** Options around a {@code rocksdb_options_t} the engine made (this object owns and destroys it). */
    Options(MemorySegment options) {
        super("Options", options);
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_options_destroy(p);
        keys.release();
        releaseEnvironment();
    }

    /**
     * Create the database if it does not exist.
     *
     * @param value whether to create a missing database on open
     * @return these options
     */
    public Options setCreateIfMissing(boolean value) {
        use(p -> rocksdb_options_set_create_if_missing(p, flag(value)));
        return this;
    }

    /** {@return whether a missing database is created on open} */
    public boolean createIfMissing() {
        return read(p -> rocksdb_options_get_create_if_missing(p)) != 0;
    }

    /**
     * Fail to open when the database already exists.
     *
     * @param value whether opening an existing database fails
     * @return these options
     */
    public Options setErrorIfExists(boolean value) {
        use(p -> rocksdb_options_set_error_if_exists(p, flag(value)));
        return this;
    }

    /** {@return whether opening an existing database fails} */
    public boolean errorIfExists() {
        return read(p -> rocksdb_options_get_error_if_exists(p)) != 0;
    }

    /**
     * Sizes RocksDB's background thread pools for {@code totalThreads} threads
     * ({@code IncreaseParallelism}).
     *
     * @param totalThreads the number of background threads, at least 1
     * @return these options
     * @throws IllegalArgumentException if {@code totalThreads < 1}
     */
    public Options setParallelism(int totalThreads) {
        if (totalThreads < 1) {
            throw new IllegalArgumentException("totalThreads must be >= 1: " + totalThreads);
        }
        use(p -> rocksdb_options_increase_parallelism(p, totalThreads));
        return this;
    }

    /**
     * Bytes of memtable before it is flushed to a table file.
     *
     * @param bytes the memtable size in bytes, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code bytes <= 0}
     */
    public Options setWriteBufferSize(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("write buffer size must be > 0: " + bytes);
        }
        use(p -> rocksdb_options_set_write_buffer_size(p, bytes));
        return this;
    }

    /** {@return the memtable size in bytes} */
    public long writeBufferSize() {
        return read(p -> rocksdb_options_get_write_buffer_size(p));
    }

    /**
     * How many table files RocksDB keeps open; -1 for no limit.
     *
     * @param files the limit, or -1 for none
     * @return these options
     * @throws IllegalArgumentException if {@code files < -1}
     */
    public Options setMaxOpenFiles(int files) {
        if (files < -1) {
            throw new IllegalArgumentException("max open files must be >= -1: " + files);
        }
        use(p -> rocksdb_options_set_max_open_files(p, files));
        return this;
    }

    /** {@return the open table file limit, -1 for none} */
    public int maxOpenFiles() {
        return (int) read(p -> rocksdb_options_get_max_open_files(p));
    }

    /**
     * Block compression (the engine must have been built with it, or open fails).
     *
     * @param compression the compression type
     * @return these options
     */
    public Options setCompression(Compression compression) {
        Objects.requireNonNull(compression, "compression");
        use(p -> rocksdb_options_set_compression(p, compression.id));
        return this;
    }

    /** {@return the block compression} */
    public Compression compression() {
        return Compression.of((int) read(p -> rocksdb_options_get_compression(p)));
    }

    /**
     * Size of an LRU block cache for the block-based table format; 0 disables the block cache.
     * A new cache each call: to share one cache between families or databases, give a
     * {@link Cache} to a {@link BlockBasedTableConfig} and use {@link #setTableFormat}.
     *
     * @param bytes the cache size in bytes, 0 for no block cache
     * @return these options
     * @throws IllegalArgumentException if {@code bytes < 0}
     */
    public Options setBlockCacheSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("block cache size must be >= 0: " + bytes);
        }
        lifecycle.ensureOpen();
        blockCacheSize = bytes;
        applyTableOptions();
        return this;
    }

    /** {@return the block cache size set here, or -1 if RocksDB's default is in force} */
    public long blockCacheSize() {
        lifecycle.ensureOpen();
        return blockCacheSize;
    }

    /**
     * A bloom filter with {@code bitsPerKey} bits per key for table files (about 1% false
     * positives at 10); 0 removes it.
     *
     * @param bitsPerKey bits per key, or 0 for no filter
     * @return these options
     * @throws IllegalArgumentException if {@code bitsPerKey} is negative or not finite
     */
    public Options setBloomFilter(double bitsPerKey) {
        if (!(bitsPerKey >= 0) || Double.isInfinite(bitsPerKey)) {
            throw new IllegalArgumentException("bits per key must be finite and >= 0: " + bitsPerKey);
        }
        lifecycle.ensureOpen();
        bloomBitsPerKey = bitsPerKey;
        applyTableOptions();
        return this;
    }

    /** {@return the bloom filter's bits per key, 0 for none} */
    public double bloomFilterBitsPerKey() {
        lifecycle.ensureOpen();
        return bloomBitsPerKey;
    }

    /**
     * Uses the block-based table format with {@code config}'s settings (copied: the configuration
     * may be closed or changed afterwards without affecting these options). Replaces what
     * {@link #setBlockCacheSize} and {@link #setBloomFilter} set.
     *
     * @param config the table settings
     * @return these options
     * @throws IllegalStateException if these options or {@code config} are closed
     */
    public Options setTableFormat(BlockBasedTableConfig config) {
        Objects.requireNonNull(config, "config");
        use(p -> config.use(t -> rocksdb_options_set_block_based_table_factory(p, t)));
        return this;
    }

    /** Guards the rebuild of the table factory (a private lock: callers may lock these options themselves). */
    private final Object tableLock = new Object();

    /** Rebuilds the block-based table factory from the Java-side settings. */
    private void applyTableOptions() {
        synchronized (tableLock) {
            try (BlockBasedTableConfig table = new BlockBasedTableConfig()) {
                if (blockCacheSize == 0) {
                    table.setNoBlockCache(true);
                } else if (blockCacheSize > 0) {
                    try (Cache cache = Cache.newLRUCache(blockCacheSize)) { // the table keeps its own reference
                        table.setBlockCache(cache);
                    }
                }
                if (bloomBitsPerKey > 0) {
                    table.setFilterPolicy(FilterPolicy.bloom(bloomBitsPerKey));
                }
                setTableFormat(table);
            }
        }
    }

    // ---- Java code inside RocksDB (merge operators, comparators, compaction filters, prefixes) --
    // Each setter makes a new native object for these options that RocksDB owns (merge operators, filter factories
    // and prefix extractors live in shared pointers, so they outlive these options in every database that uses them;
    // a comparator is counted by NativeComparator). Closing the options early is safe.

    private volatile MergeOperator mergeOperator;
    /** The comparator set here or inherited, and the key order it gives (its own lock). */
    final OptionsComparator keys = new OptionsComparator();

    /**
     * Merges of keys in the database or family opened with these options use {@code operator}
     * (Java code; see {@link MergeOperator} for its memory, threads and failures).
     *
     * @param operator the operator, e.g. {@link UInt64AddOperator}
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options setMergeOperator(MergeOperator operator) {
        Objects.requireNonNull(operator, "operator");
        use(p -> {
            rocksdb_options_set_merge_operator(p, NativeMergeOperator.create(operator));
            mergeOperator = operator;
            javaCallbacks = true;
        });
        return this;
    }

    /**
     * Merges of keys in the database or family opened with these options use the engine's own
     * merge operator called {@code name}, as rocksdbjni's {@code setMergeOperatorName} does: C++
     * code inside RocksDB, with no call into Java. RocksDB's built-in names are {@code uint64add}
     * (8-byte little-endian sums), {@code stringappend} (operands joined with {@code ','}),
     * {@code max} (the bytewise greatest), {@code put} (the last operand), {@code sortlist}
     * (merges sorted lists of comma-separated integers), {@code bytesxor} and
     * {@code stringappendtest}, and their class names ({@code UInt64AddOperator},
     * {@code StringAppendOperator}, ...). A {@link #setMergeOperator Java merge operator} is the
     * choice for logic of your own; a later call of either replaces the other.
     * <p>Like every setter it changes these options in place; RocksDB rewrites the whole options
     * object for it, so set it before other threads use the options.
     *
     * @param name the name the engine registers the operator under
     * @return these options
     * @throws IllegalArgumentException if the engine knows no merge operator of that name (the
     *         message lists the names it knows)
     * @throws IllegalStateException if closed
     */
    public Options setMergeOperatorName(String name) {
        DerivedOptions.setMergeOperatorName(this, name);
        mergeOperator = null;
        return this;
    }

    /** {@return the merge operator set here, or null} */
    public MergeOperator mergeOperator() {
        lifecycle.ensureOpen();
        return mergeOperator;
    }

    /**
     * Orders keys with {@code comparator} (Java code; see {@link Comparator}) instead of bytewise.
     * A database keeps the comparator it was created with: open it with the same name.
     *
     * @param comparator the comparator
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options setComparator(Comparator comparator) {
        Objects.requireNonNull(comparator, "comparator");
        use(p -> {
            NativeComparator c = new NativeComparator(comparator);
            keys.set(c, () -> rocksdb_options_set_comparator(p, c.ptr));
            javaCallbacks = true;
        });
        return this;
    }

    /** {@return the comparator set here, or null for bytewise order} */
    public Comparator comparator() {
        lifecycle.ensureOpen();
        return keys.java();
    }

    /** The key order these options give a family: the comparator set here, else one inherited, else bytewise. */
    KeyOrder keyOrder() {
        return keys.order();
    }

    /** Records the name of the comparator an options file gave these options. */
    void inheritComparator(String name) {
        keys.inherit(KeyOrder.named(name));
    }

    /**
     * What a copy of {@code base} made by RocksDB ({@link #fromString}) points at: the Java objects
     * (so reads know they call Java, and databases refuse re-entry) and a new user of its
     * comparator (RocksDB copied the raw pointer: the comparator lives while these options do).
     */
    void inherit(Options base) {
        mergeOperator = base.mergeOperator;
        javaPrefixExtractor = base.javaPrefixExtractor;
        javaCallbacks = base.javaCallbacks;
        keys.copyFrom(base.keys);
    }

    /** A new user of the comparator set here (for a database opened with these options), or null. */
    NativeComparator retainComparator() {
        return keys.retain();
    }

    /**
     * Runs {@code filter} on the entries compactions rewrite (one filter for every compaction:
     * it must be thread-safe; see {@link CompactionFilter}).
     *
     * @param filter the filter
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options setCompactionFilter(CompactionFilter filter) {
        return setCompactionFilterFactory(new NativeCompactionFilter.Single(Objects.requireNonNull(filter, "filter")));
    }

    /**
     * Has {@code factory} make a compaction filter for each compaction.
     *
     * @param factory the factory
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options setCompactionFilterFactory(CompactionFilterFactory factory) {
        Objects.requireNonNull(factory, "factory");
        use(p -> {
            rocksdb_options_set_compaction_filter_factory(p, NativeCompactionFilter.createFactory(factory));
            javaCallbacks = true;
        });
        return this;
    }

    /** Whether the prefix extractor set here is Java code (an upcall on seeks). */
    private volatile boolean javaPrefixExtractor;
    /** Whether any Java object was set here (databases opened with these options then refuse re-entry). */
    private volatile boolean javaCallbacks;

    /** Whether RocksDB may call Java code for a database or family opened with these options. */
    boolean callsJava() {
        return javaCallbacks || loggerCallsJava();
    }

    /** Whether reads of a family opened with these options may call Java code (a merge operator, a Java comparator
     *  or prefix extractor): its iterators then never move with critical downcalls. */
    boolean readsCallJava() {
        return mergeOperator != null || javaPrefixExtractor || comparator() != null;
    }

    /**
     * Derives key prefixes with {@code extractor}, for prefix bloom filters (table filters from
     * {@link #setBloomFilter} then hold prefixes too, and {@link #setMemtablePrefixBloomRatio})
     * and prefix seeks ({@link ReadOptions#setPrefixSameAsStart}).
     *
     * @param extractor the extractor, e.g. {@link PrefixExtractor#fixed}
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options setPrefixExtractor(PrefixExtractor extractor) {
        Objects.requireNonNull(extractor, "extractor");
        use(p -> {
            rocksdb_options_set_prefix_extractor(p, NativeSliceTransform.create(extractor));
            javaPrefixExtractor = NativeSliceTransform.callsJava(extractor);
            javaCallbacks |= javaPrefixExtractor;
        });
        return this;
    }

    /**
     * Gives memtables a prefix bloom filter of {@code ratio} times the write buffer size (needs a
     * prefix extractor); 0 disables it.
     *
     * @param ratio from 0 to 0.25
     * @return these options
     * @throws IllegalArgumentException if {@code ratio} is not in {@code [0, 0.25]}
     */
    public Options setMemtablePrefixBloomRatio(double ratio) {
        if (!(ratio >= 0 && ratio <= 0.25)) {
            throw new IllegalArgumentException("memtable prefix bloom ratio must be in [0, 0.25]: " + ratio);
        }
        use(p -> rocksdb_options_set_memtable_prefix_bloom_size_ratio(p, ratio));
        return this;
    }

    /** {@return the memtable prefix bloom ratio} */
    public double memtablePrefixBloomRatio() {
        return readDouble(p -> rocksdb_options_get_memtable_prefix_bloom_size_ratio(p));
    }

    // ---- shared resources: rate limiter, write buffer manager -----------------------------------

    /**
     * Limits the flush and compaction I/O of the databases opened with these options to
     * {@code limiter}'s budget. The options keep their own reference: the limiter may be closed
     * afterwards, and one limiter may serve several databases.
     *
     * @param limiter the rate limiter
     * @return these options
     * @throws IllegalStateException if these options or {@code limiter} are closed
     */
    public Options setRateLimiter(RateLimiter limiter) {
        Objects.requireNonNull(limiter, "limiter");
        use(p -> limiter.use(l -> rocksdb_options_set_ratelimiter(p, l)));
        return this;
    }

    /**
     * Counts the memtables of the databases opened with these options against {@code manager}'s
     * budget. The options keep their own reference: the manager may be closed afterwards, and
     * one manager may serve several databases.
     *
     * @param manager the write buffer manager
     * @return these options
     * @throws IllegalStateException if these options or {@code manager} are closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_options_set_write_buffer_manager}
     */
    public Options setWriteBufferManager(WriteBufferManager manager) {
        Objects.requireNonNull(manager, "manager");
        Capabilities.require("rocksdb_options_set_write_buffer_manager");
        use(p -> manager.use(w -> rocksdb_options_set_write_buffer_manager(p, w)));
        return this;
    }

    // ---- event listeners ------------------------------------------------------------------------

    /**
     * Adds {@code listener} to the databases opened with these options: RocksDB calls it on its
     * background threads when flushes, compactions, stalls and background errors happen (see
     * {@link EventListener}). RocksDB holds the listener for as long as these options or any
     * database opened with them exist; adding the same listener twice calls it twice.
     *
     * @param listener the listener
     * @return these options
     * @throws IllegalStateException if these options are closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_eventlistener_create}
     *         (RocksDB 7.8.3)
     */
    public Options addEventListener(EventListener listener) {
        Objects.requireNonNull(listener, "listener");
        use(p -> {
            // the options take ownership of the native listener
            rocksdb_options_add_eventlistener(p, EventListeners.create(listener));
            javaCallbacks = true;
        });
        return this;
    }
    // ---- statistics, ingestion, options strings ------------------------------------------

    private volatile Statistics statistics;

    /**
     * Makes new statistics for the databases opened with these options from now on (RocksDB's
     * {@code CreateDBStatistics}, at level {@link StatisticsLevel#EXCEPT_DETAILED_TIMERS}); keep
     * these options open to read them. Calling it again starts new statistics, which databases
     * already open do not use.
     *
     * @return the statistics
     * @throws IllegalStateException if closed
     */
    public Statistics enableStatistics() {
        use(p -> rocksdb_options_enable_statistics(p));
        Statistics s = new Statistics(this);
        statistics = s;
        return s;
    }

    /**
     * The statistics {@link #enableStatistics()} made.
     *
     * @return the statistics, or {@code null} if they were not enabled through this object
     * @throws IllegalStateException if closed
     */
    public Statistics statistics() {
        lifecycle.ensureOpen();
        return statistics;
    }

    /**
     * How much the statistics measure (RocksDB 8.6 or later).
     *
     * @param level the level
     * @return these options
     * @throws IllegalStateException if closed, or if statistics are not enabled
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_options_set_statistics_level}
     */
    public Options setStatisticsLevel(StatisticsLevel level) {
        Objects.requireNonNull(level, "level");
        lifecycle.ensureOpen();
        Capabilities.require("rocksdb_options_set_statistics_level");
        if (statistics() == null) {
            throw new IllegalStateException("enable statistics before setting their level");
        }
        use(p -> rocksdb_options_set_statistics_level(p, level.id));
        return this;
    }

    /**
     * How much the statistics measure (RocksDB 8.6 or later).
     *
     * @return the level ({@link StatisticsLevel#DISABLE_ALL} when statistics are not enabled)
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_options_get_statistics_level}
     */
    public StatisticsLevel statisticsLevel() {
        lifecycle.ensureOpen();
        Capabilities.require("rocksdb_options_get_statistics_level");
        return StatisticsLevel.of((int) read(p -> rocksdb_options_get_statistics_level(p)));
    }

    /**
     * Whether the database keeps the last level free for files ingested behind
     * ({@link IngestExternalFileOptions#setIngestBehind}); false by default. Set it when the
     * database is created.
     *
     * @param value true to allow ingestion behind
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options setAllowIngestBehind(boolean value) {
        use(p -> rocksdb_options_set_allow_ingest_behind(p, flag(value)));
        return this;
    }

    /**
     * Whether the database allows ingestion behind.
     *
     * @return true if it does
     * @throws IllegalStateException if closed
     */
    public boolean allowIngestBehind() {
        return read(p -> rocksdb_options_get_allow_ingest_behind(p)) != 0;
    }

    /**
     * New options: {@code base} changed by the settings of an options string
     * ({@code GetOptionsFromString}), e.g. {@code "write_buffer_size=8388608;max_open_files=100"}
     * (names as in RocksDB's OPTIONS files; nested settings in braces, e.g.
     * {@code "block_based_table_factory={block_size=8192}"}). The new options share the Java
     * objects set on {@code base} (comparator, merge operator, ...), which live while either does.
     *
     * @param base the options to start from (unchanged; may be closed first)
     * @param text the settings
     * @return new options, owned by the caller
     * @throws IllegalArgumentException if {@code text} holds a NUL character
     * @throws IllegalStateException if {@code base} is closed
     * @throws RocksDBException {@link RocksDBException.Code#INVALID_ARGUMENT} for an unknown
     *         option or a value that does not parse
     */
    public static Options fromString(Options base, String text) {
        return DerivedOptions.fromString(base, text);
    }
}
