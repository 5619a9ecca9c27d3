package io.rocksffm;

import java.lang.foreign.MemorySegment;

/**
 * How RocksDB derives a key's prefix ({@code SliceTransform}), for prefix bloom filters and prefix
 * seeks ({@link Options#setPrefixExtractor}, {@link ReadOptions#setPrefixSameAsStart}). RocksDB's
 * built-in {@link #fixed fixed} and {@link #noop no-op} extractors run as C++ (no upcall);
 * {@link #capped capped} and user implementations run as Java through upcalls.
 *
 * {@snippet id="PrefixExtractor" :
 * // Keys "user:1234/..." share a 10-byte prefix per user: prefix seeks read only that user's data
 * try (Options options = new Options().setCreateIfMissing(true)
 *              .setPrefixExtractor(PrefixExtractor.fixed(10));
 *      RocksDB db = RocksDB.open(path, options)) {
 *     try (ReadOptions read = new ReadOptions().setPrefixSameAsStart(true);
 *          RocksIterator it = db.newIterator(read)) {
 *         for (it.seek("user:1234/".getBytes(UTF_8)); it.isValid(); it.next()) {
 *             // only keys that start with "user:1234/"
 *         }
 *     }
 * }
 * }
 *
 * <p>A prefix is the first {@link #prefixLength} bytes of a key in the extractor's
 * {@link #inDomain domain}. <b>Memory:</b> keys are read-only views valid only during the call (a
 * kept view throws {@link IllegalStateException} when read later).
 * <b>Threads:</b> called from many threads at once; must be thread-safe and fast.
 *
 * <p><b>Calling databases.</b> From inside the call, any call into a database that runs Java code
 * (a merge operator, comparator, compaction filter, prefix extractor or event listener set on its
 * options), this one's included, throws {@link IllegalStateException} naming the callback before
 * it reaches RocksDB (extractors run inside RocksDB's writes and reads). Databases without Java code may be called.
 *
 * <p><b>Failures.</b> When {@link #inDomain} throws, the key counts as outside the domain (no
 * prefix filtering for it); when {@link #prefixLength} throws, the prefix is the whole key. Both
 * are counted and never crash the JVM; an extractor that throws only sometimes can make prefix
 * seeks miss keys, like any inconsistent extractor: it must not throw.
 */
public interface PrefixExtractor {
    /**
     * The extractor's name, recorded by RocksDB with table files (a filter built under another
     * name is not used). Read once, when set on options.
     *
     * @return the name, without NUL characters
     */
    String name();

    /**
     * Whether {@code key} has a prefix.
     *
     * @param key the key (read-only, valid during the call)
     * @return true if {@link #prefixLength} applies to it
     */
    boolean inDomain(MemorySegment key);

    /**
     * The length of the prefix of a key in the domain.
     *
     * @param key the key (read-only, valid during the call)
     * @return the prefix's length, from 0 to {@code key.byteSize()} (values outside are clamped)
     */
    long prefixLength(MemorySegment key);

    /**
     * RocksDB's fixed-prefix transform ({@code rocksdb_slicetransform_create_fixed_prefix}, runs
     * in C++): the first {@code length} bytes; keys shorter than that are outside the domain.
     *
     * @param length the prefix length, at least 1
     * @return the extractor
     * @throws IllegalArgumentException if {@code length < 1}
     */
    static PrefixExtractor fixed(int length) {
        return new NativeSliceTransform.Fixed(length);
    }

    /**
     * RocksDB's no-op transform ({@code rocksdb_slicetransform_create_noop}, runs in C++): every
     * key is its own prefix.
     *
     * @return the extractor
     */
    static PrefixExtractor noop() {
        return NativeSliceTransform.Noop.INSTANCE;
    }

    /**
     * A capped prefix, in Java (the C API has no built-in one): the first {@code length} bytes,
     * or the whole key if shorter; every key is in the domain. Named like RocksDB's
     * ({@code rocksdb.CappedPrefix.<length>}).
     *
     * @param length the maximum prefix length, at least 1
     * @return the extractor
     * @throws IllegalArgumentException if {@code length < 1}
     */
    static PrefixExtractor capped(int length) {
        return new NativeSliceTransform.Capped(length);
    }
}
