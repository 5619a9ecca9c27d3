package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Claim;
import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;

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
public final class Options extends OptionsSettings {
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
     * {@code CreateDBStatistics}, at level {@link StatisticsLevel#EXCEPT_DETAILED_TIMERS}). The
     * returned object stays readable after these options are closed. Calling it again starts new
     * statistics, which databases already open do not use.
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

    /** A copy of these options for {@link Statistics} (it shares their statistics), owned by the caller. */
    MemorySegment copyForStatistics() {
        return apply(p -> rocksdb_options_create_copy(p));
    }

    /** Frees a copy made by {@link #copyForStatistics}. */
    static void destroyCopy(MemorySegment copy) {
        rocksdb_options_destroy(copy);
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

    // ---- other table formats -------------------------------------------------------------------

    /**
     * Uses the PlainTable format with {@code config}'s settings (see {@link PlainTableConfig} for
     * its constraints: mmap reads, a prefix extractor for seeks, forward iteration only). A later
     * {@link Options#setTableFormat(BlockBasedTableConfig)}, {@link Options#setBlockCacheSize} or
     * {@link Options#setBloomFilter} goes back to the block-based format.
     *
     * @param config the settings
     * @return these options
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine's {@code rocksdb_options_set_plain_table_factory}
     *         has the older signature (RocksDB before 8.5, such as 7.8.3)
     */
    public Options setTableFormat(PlainTableConfig config) {
        Objects.requireNonNull(config, "config");
        use(p -> {
            Capabilities.require("rocksdb_options_set_plain_table_factory");
            rocksdb_options_set_plain_table_factory(p, config.userKeyLength(), config.bloomBitsPerKey(),
                    config.hashTableRatio(), config.indexSparseness(), config.hugePageTlbSize(), config.encoding().id,
                    flag(config.fullScanMode()), flag(config.storeIndexInFile()));
        });
        return this;
    }

    /**
     * Uses the Cuckoo table format with {@code config}'s settings (copied: the configuration may
     * be closed afterwards). See {@link CuckooTableConfig} for its constraints: mmap reads, keys of
     * one length and values of one length. A later block-based setting goes back to that format,
     * as for {@link #setTableFormat(PlainTableConfig)}.
     *
     * @param config the settings
     * @return these options
     * @throws IllegalStateException if these options or {@code config} are closed
     */
    public Options setTableFormat(CuckooTableConfig config) {
        Objects.requireNonNull(config, "config");
        use(p -> config.use(c -> rocksdb_options_set_cuckoo_table_factory(p, c)));
        return this;
    }

    // ---- compression by level, compression options ------------------------------------------------

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
        return this;
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

    private static void checkFraction(String what, double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException(what + " must be in [0, 1]: " + fraction);
        }
    }

    // ---- universal and FIFO compaction -------------------------------------------------------------

    /**
     * The universal compaction settings (used with {@link CompactionStyle#UNIVERSAL}); copied, so
     * {@code universal} may be closed or changed afterwards.
     *
     * @param universal the settings
     * @return these options
     * @throws IllegalStateException if these options or {@code universal} are closed
     */
    public Options setUniversalCompactionOptions(UniversalCompactionOptions universal) {
        Objects.requireNonNull(universal, "universal");
        return set(p -> universal.use(u -> rocksdb_options_set_universal_compaction_options(p, u)));
    }

    /**
     * The FIFO compaction settings (used with {@link CompactionStyle#FIFO}); copied, so
     * {@code fifo} may be closed or changed afterwards.
     *
     * @param fifo the settings
     * @return these options
     * @throws IllegalStateException if these options or {@code fifo} are closed
     */
    public Options setFifoCompactionOptions(FifoCompactionOptions fifo) {
        Objects.requireNonNull(fifo, "fifo");
        return set(p -> fifo.use(f -> rocksdb_options_set_fifo_compaction_options(p, f)));
    }

    // ---- options made from text, the write-ahead log directory ---------------------------------------

    /**
     * Whether text (an options string, an options file) made these options, so that they may give
     * a family a merge operator or comparator that no Java setter recorded: an open or a family's
     * creation with them learns what the engine runs from the OPTIONS file it writes.
     */
    volatile boolean fromText;

    /** Runs a setter while open and returns the options. */
    private Options set(Consumer<MemorySegment> setter) {
        use(setter);
        return this;
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
        walDir = writeDir(dir, (p, name) -> rocksdb_options_set_wal_dir(p, name));
        return this;
    }

    /** Sets a directory setting with {@code setter}; returns the path as set (absolute). */
    private Path writeDir(Path dir, BiConsumer<MemorySegment, MemorySegment> setter) {
        String name = CStrings.path(dir);
        try (Scratch s = Scratch.enterFirst(lifecycle); Arena arena = Arena.ofConfined()) {
            setter.accept(ptr, arena.allocateFrom(name));
        }
        return Path.of(name);
    }

    /**
     * The write-ahead log directory: RocksDB's setting where the engine can report it
     * ({@code rocksdb_options_get_wal_dir}, RocksDB 11), else the one set here.
     *
     * @return the directory, or null for the database directory
     * @throws IllegalStateException if closed
     */
    public Path walDir() {
        return readDir("rocksdb_options_get_wal_dir", walDir, (p, size) -> rocksdb_options_get_wal_dir(p, size));
    }

    /** A directory setting: RocksDB's where the engine has {@code function}, else {@code set} (what was set here). */
    private Path readDir(String function, Path set, BinaryOperator<MemorySegment> getter) {
        lifecycle.ensureOpen();
        if (!Capabilities.callable(function)) {
            return set;
        }
        try (Scratch s = Scratch.enterFirst(lifecycle); Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment dir = getter.apply(ptr, size); // points into the options: not freed
            long n = size.get(ValueLayout.JAVA_LONG, 0);
            if (dir.address() == 0 || n == 0) {
                return null;
            }
            return Path.of(new String(dir.reinterpret(n).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
        }
    }

    private volatile Path dbLogDir;

    /**
     * Writes the info log ({@code LOG}) to {@code dir} instead of the database directory
     * (RocksDB's {@code db_log_dir}); the file is then named after the database's path.
     *
     * @param dir the info log directory (made absolute)
     * @return these options
     * @throws IllegalArgumentException if the path holds a NUL character
     * @throws IllegalStateException if closed
     */
    public Options setDbLogDir(Path dir) {
        dbLogDir = writeDir(dir, (p, name) -> rocksdb_options_set_db_log_dir(p, name));
        return this;
    }

    /**
     * The info log directory: RocksDB's setting where the engine can report it
     * ({@code rocksdb_options_get_db_log_dir}, RocksDB 11), else the one set here.
     *
     * @return the directory, or null for the database directory
     * @throws IllegalStateException if closed
     */
    public Path dbLogDir() {
        return readDir("rocksdb_options_get_db_log_dir", dbLogDir, (p, size) -> rocksdb_options_get_db_log_dir(p, size));
    }

    // ---- row cache, whole-profile tuning ------------------------------------------------------------

    /**
     * Caches whole rows read by point lookups in {@code cache} (RocksDB's {@code row_cache}; none
     * by default). The options keep their own reference: the cache may be closed afterwards, and
     * one cache may serve several databases.
     *
     * @param cache the row cache
     * @return these options
     * @throws IllegalStateException if these options or {@code cache} are closed
     */
    public Options setRowCache(Cache cache) {
        Objects.requireNonNull(cache, "cache");
        use(p -> cache.use(c -> rocksdb_options_set_row_cache(p, c)));
        return this;
    }

    /**
     * Tunes these options for point lookups with a block cache of {@code blockCacheSizeMb} MiB
     * (RocksDB's {@code OptimizeForPointLookup}: a hash index, a bloom filter, the cache).
     *
     * @param blockCacheSizeMb the block cache size in MiB, at least 0
     * @return these options
     * @throws IllegalArgumentException if {@code blockCacheSizeMb < 0}
     * @throws IllegalStateException if closed
     */
    public Options optimizeForPointLookup(long blockCacheSizeMb) {
        atLeast("block cache size", blockCacheSizeMb, 0);
        return set(p -> rocksdb_options_optimize_for_point_lookup(p, blockCacheSizeMb));
    }

    /**
     * Tunes these options for leveled compaction within a memtable budget of 512 MiB
     * ({@link #optimizeLevelStyleCompaction(long)} with RocksDB's default).
     *
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options optimizeLevelStyleCompaction() {
        return optimizeLevelStyleCompaction(512L << 20);
    }

    /**
     * Tunes these options for leveled compaction within a memtable budget of
     * {@code memtableMemoryBudget} bytes (RocksDB's {@code OptimizeLevelStyleCompaction}: write
     * buffers, level sizes, compression by level).
     *
     * @param memtableMemoryBudget the memtables' budget in bytes, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code memtableMemoryBudget <= 0}
     * @throws IllegalStateException if closed
     */
    public Options optimizeLevelStyleCompaction(long memtableMemoryBudget) {
        atLeast("memtable memory budget", memtableMemoryBudget, 1);
        return set(p -> rocksdb_options_optimize_level_style_compaction(p, memtableMemoryBudget));
    }

    /**
     * Tunes these options for universal compaction within a memtable budget of 512 MiB
     * ({@link #optimizeUniversalStyleCompaction(long)} with RocksDB's default).
     *
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options optimizeUniversalStyleCompaction() {
        return optimizeUniversalStyleCompaction(512L << 20);
    }

    /**
     * Tunes these options for universal compaction within a memtable budget of
     * {@code memtableMemoryBudget} bytes (RocksDB's {@code OptimizeUniversalStyleCompaction}).
     *
     * @param memtableMemoryBudget the memtables' budget in bytes, above 0
     * @return these options
     * @throws IllegalArgumentException if {@code memtableMemoryBudget <= 0}
     * @throws IllegalStateException if closed
     */
    public Options optimizeUniversalStyleCompaction(long memtableMemoryBudget) {
        atLeast("memtable memory budget", memtableMemoryBudget, 1);
        return set(p -> rocksdb_options_optimize_universal_style_compaction(p, memtableMemoryBudget));
    }

    /**
     * Tunes these options for loading much data at once (RocksDB's {@code PrepareForBulkLoad}:
     * no automatic compactions, large level-0 triggers; compact the whole range afterwards).
     *
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options prepareForBulkLoad() {
        return set(p -> rocksdb_options_prepare_for_bulk_load(p));
    }

    // ---- the environment: Env, SST file manager, info logger ---------------------------------------

    /** Guards env and logger (a private lock: callers may synchronize on their options). */
    private final Object environmentLock = new Object();
    /** The Java objects these options point at, each kept open by its claim. */
    private Env env;
    private InfoLogger logger;
    private final Claim envClaim = new Claim();
    private final Claim loggerClaim = new Claim();

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
        return this;
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
        return this;
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
        return this;
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
    final void inheritEnvironment(Options base) {
        // base holds them open meanwhile, so the claims cannot fail; these options are new, so
        // nothing takes the two locks in the other order
        synchronized (base.environmentLock) {
            synchronized (environmentLock) {
                Env e = base.env;
                InfoLogger l = base.logger;
                envClaim.replace(e == null ? null : e.lifecycle, () -> env = e);
                loggerClaim.replace(l == null ? null : l.lifecycle, () -> logger = l);
            }
        }
    }

    /** Releases the environment and logger (these options are destroyed). */
    final void releaseEnvironment() {
        synchronized (environmentLock) {
            envClaim.release();
            loggerClaim.release();
            env = null;
            logger = null;
        }
    }
}
