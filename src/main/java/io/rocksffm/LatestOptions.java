package io.rocksffm;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.OptionsFiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import io.rocksffm.internal.OptionsFileText;

/**
 * The options of an existing database as its latest OPTIONS file records them
 * ({@code rocksdb_load_latest_options}): the database's options and each column family's, ready
 * to open it with {@link RocksDB#open(Path, Options, List)}:
 *
 * {@snippet id="LatestOptions" :
 * try (LatestOptions latest = LatestOptions.load(path);
 *      RocksDB db = RocksDB.open(path, latest.dbOptions(), latest.columnFamilies())) {
 *     byte[] v = db.get("k".getBytes(UTF_8));   // opened with the options it was last opened with
 * }
 * }
 *
 * <p>The caller owns it; {@link #close()} closes every {@link Options} it holds (idempotent).
 * The options are ordinary {@link Options}: they may be changed before opening. Safe to share
 * across threads.
 */
public final class LatestOptions implements AutoCloseable {
    /** The block cache size {@link #load(Path)} gives the families (RocksDB's default size). */
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 32L << 20;

    private final Options dbOptions;
    private final List<ColumnFamilyDescriptor> families;

    private LatestOptions(Options dbOptions, List<ColumnFamilyDescriptor> families) {
        this.dbOptions = dbOptions;
        this.families = families;
    }

    /**
     * The latest options of the database at {@code path}, its families sharing a new LRU block
     * cache of {@link #DEFAULT_BLOCK_CACHE_BYTES}; unknown options in the file are errors.
     *
     * @param path the database's directory
     * @return the options, owned by the caller
     * @throws RocksDBException e.g. {@link RocksDBException.Code#NOT_FOUND} when there is no
     *         OPTIONS file at {@code path}
     */
    public static LatestOptions load(Path path) {
        try (Cache cache = Cache.newLRUCache(DEFAULT_BLOCK_CACHE_BYTES)) { // the table factories keep their references
            return load(path, cache, false);
        }
    }

    /**
     * The latest options of the database at {@code path}, every family's block-based tables
     * using {@code blockCache}.
     *
     * @param path                 the database's directory
     * @param blockCache           the block cache the families share (may be closed once this returns)
     * @param ignoreUnknownOptions whether options this engine does not know (from a newer one) are
     *                             skipped rather than errors
     * @return the options, owned by the caller
     * @throws IllegalArgumentException if the path holds a NUL character
     * @throws IllegalStateException if {@code blockCache} is closed
     * @throws RocksDBException e.g. {@link RocksDBException.Code#NOT_FOUND} when there is no
     *         OPTIONS file, {@link RocksDBException.Code#INVALID_ARGUMENT} for unknown options
     */
    public static LatestOptions load(Path path, Cache blockCache, boolean ignoreUnknownOptions) {
        String name = CStrings.path(path);
        Objects.requireNonNull(blockCache, "blockCache");
        OptionsFiles.Loaded loaded = blockCache.apply(c -> OptionsFiles.loadLatest(name, c, ignoreUnknownOptions));
        // from here on every options object is owned by a Java object
        Options db = new Options(loaded.dbOptions());
        db.fromText = true;
        List<Options> owned = new ArrayList<>();
        for (var p : loaded.familyOptions()) {
            Options family = new Options(p);
            family.fromText = true;
            owned.add(family);
        }
        // the comparators the file names (rocksffm checks range order in them)
        var text = OptionsFileText.latest(path);
        for (int i = 0; i < owned.size(); i++) {
            var family = text.get(loaded.names().get(i));
            if (family != null) {
                owned.get(i).inheritComparator(family.get("comparator")); // (dbOptions: default family options)
            }
        }
        List<ColumnFamilyDescriptor> families = new ArrayList<>();
        for (int i = 0; i < owned.size(); i++) {
            families.add(new ColumnFamilyDescriptor(loaded.names().get(i), owned.get(i)));
        }
        return new LatestOptions(db, List.copyOf(families));
    }

    /**
     * The database-wide options (with default column family options).
     *
     * @return the options, owned by this object
     */
    public Options dbOptions() {
        return dbOptions;
    }

    /**
     * Every column family of the database with its options, the default family among them.
     *
     * @return the families (an unmodifiable list; the options owned by this object)
     */
    public List<ColumnFamilyDescriptor> columnFamilies() {
        return families;
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return dbOptions.isClosed();
    }

    /** Closes every options object this holds. Idempotent. */
    @Override
    public void close() {
        for (ColumnFamilyDescriptor d : families) {
            d.options().close();
        }
        dbOptions.close();
    }
}
