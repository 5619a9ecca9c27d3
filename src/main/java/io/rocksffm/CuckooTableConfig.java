package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * The settings of RocksDB's Cuckoo table format ({@code rocksdb_cuckoo_table_options_t}), for
 * {@link Options#setTableFormat(CuckooTableConfig)}: table files that are cuckoo hash tables, for
 * point lookups from memory at one or two memory reads each.
 *
 * {@snippet id="CuckooTableConfig" :
 * // Point lookups from memory-mapped hash tables: keys of one length, values of one length
 * try (CuckooTableConfig cuckoo = new CuckooTableConfig().setHashTableRatio(0.5);
 *      Options options = new Options().setCreateIfMissing(true)
 *              .setAllowMmapReads(true)    // required: "File is not mmaped" otherwise
 *              .setTableFormat(cuckoo);   // copied: cuckoo may be closed
 *      RocksDB db = RocksDB.open(path, options)) {
 *     db.put("user0001".getBytes(UTF_8), "alice".getBytes(UTF_8));
 *     db.put("user0002".getBytes(UTF_8), "bobby".getBytes(UTF_8));
 *     db.flush(true);                                  // a Cuckoo table file
 *     byte[] name = db.get("user0002".getBytes(UTF_8));   // "bobby"
 * }
 * }
 *
 * <p>Its constraints, from RocksDB's documentation and its table builder: the database must read
 * through mmap ({@link Options#setAllowMmapReads}, else reading a file fails with "File is not
 * mmaped"); every key of a file must have the same length, and every value too: <strong>RocksDB
 * does not enforce it</strong> (7.8.3 and 11.8.1 alike: its table builder refuses the entry that
 * does not fit, but the flush reports success without it, so the write is lost and reads find an
 * older value); merge operands and range deletions cannot be written to it; a file
 * holds fewer than 2^32 keys. Iterators work but sort a file's keys in memory first.
 *
 * <p>The caller owns and closes it; {@link Options#setTableFormat(CuckooTableConfig)} copies the
 * settings. Setters return {@code this}; the getters read back what was set here (older engines'
 * C API cannot read them). Safe to share across threads; any call after close throws
 * {@link IllegalStateException}.
 */
public final class CuckooTableConfig extends NativeObject {
    private volatile double hashTableRatio = 0.9;
    private volatile int maxSearchDepth = 100;
    private volatile int cuckooBlockSize = 5;
    private volatile boolean identityAsFirstHash;
    private volatile boolean useModuleHash = true;

    /** RocksDB's defaults: a hash ratio of 0.9, search depth 100, blocks of 5 buckets, module hashing. */
    public CuckooTableConfig() {
        super("CuckooTableConfig", rocksdb_cuckoo_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_cuckoo_options_destroy(p);
    }

    /**
     * The fraction of a file's hash table the keys fill (0 to 1, not 0).
     *
     * @param ratio the utilisation
     * @return these settings
     * @throws IllegalArgumentException if not in (0, 1]
     * @throws IllegalStateException if closed
     */
    public CuckooTableConfig setHashTableRatio(double ratio) {
        if (!(ratio > 0 && ratio <= 1)) {
            throw new IllegalArgumentException("hash table ratio must be in (0, 1]: " + ratio);
        }
        use(p -> {
            rocksdb_cuckoo_options_set_hash_ratio(p, ratio);
            hashTableRatio = ratio;
        });
        return this;
    }

    /**
     * The fraction of the hash table the keys fill.
     *
     * @return the ratio set here
     * @throws IllegalStateException if closed
     */
    public double hashTableRatio() {
        return apply(p -> hashTableRatio);
    }

    /**
     * How deep the builder searches to displace keys when a bucket collides.
     *
     * @param depth the depth, positive
     * @return these settings
     * @throws IllegalArgumentException if not positive
     * @throws IllegalStateException if closed
     */
    public CuckooTableConfig setMaxSearchDepth(int depth) {
        if (depth <= 0) {
            throw new IllegalArgumentException("max search depth must be positive: " + depth);
        }
        use(p -> {
            rocksdb_cuckoo_options_set_max_search_depth(p, depth);
            maxSearchDepth = depth;
        });
        return this;
    }

    /**
     * How deep the builder searches.
     *
     * @return the depth set here
     * @throws IllegalStateException if closed
     */
    public int maxSearchDepth() {
        return apply(p -> maxSearchDepth);
    }

    /**
     * How many consecutive buckets a key may go to for one hash function before the next is tried.
     *
     * @param size the number of buckets, positive
     * @return these settings
     * @throws IllegalArgumentException if not positive
     * @throws IllegalStateException if closed
     */
    public CuckooTableConfig setCuckooBlockSize(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("cuckoo block size must be positive: " + size);
        }
        use(p -> {
            rocksdb_cuckoo_options_set_cuckoo_block_size(p, size);
            cuckooBlockSize = size;
        });
        return this;
    }

    /**
     * The buckets per cuckoo block.
     *
     * @return the size set here
     * @throws IllegalStateException if closed
     */
    public int cuckooBlockSize() {
        return apply(p -> cuckooBlockSize);
    }

    /**
     * Whether the first hash function is the key's first 8 bytes read as a number (for keys that
     * are numbers of at most 8 bytes). False by default.
     *
     * @param value true for the identity
     * @return these settings
     * @throws IllegalStateException if closed
     */
    public CuckooTableConfig setIdentityAsFirstHash(boolean value) {
        use(p -> {
            rocksdb_cuckoo_options_set_identity_as_first_hash(p, flag(value));
            identityAsFirstHash = value;
        });
        return this;
    }

    /**
     * Whether the first hash is the identity.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean identityAsFirstHash() {
        return apply(p -> identityAsFirstHash);
    }

    /**
     * Whether hashes are reduced by modulo (true, the default) rather than by a bit mask (which
     * needs a table size that is a power of two).
     *
     * @param value true for modulo
     * @return these settings
     * @throws IllegalStateException if closed
     */
    public CuckooTableConfig setUseModuleHash(boolean value) {
        use(p -> {
            rocksdb_cuckoo_options_set_use_module_hash(p, flag(value));
            useModuleHash = value;
        });
        return this;
    }

    /**
     * Whether hashes are reduced by modulo.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean useModuleHash() {
        return apply(p -> useModuleHash);
    }
}
