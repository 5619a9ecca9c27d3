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
public final class CuckooTableConfig extends CuckooTableConfigSettings {

    /** RocksDB's defaults: a hash ratio of 0.9, search depth 100, blocks of 5 buckets, module hashing. */
    public CuckooTableConfig() {
        super("CuckooTableConfig", rocksdb_cuckoo_options_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_cuckoo_options_destroy(p);
    }
}
