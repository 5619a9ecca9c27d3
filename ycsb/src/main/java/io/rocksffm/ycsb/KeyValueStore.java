package io.rocksffm.ycsb;

import java.util.function.BiPredicate;

/**
 * The few byte[] calls a YCSB binding needs from a key-value library; one implementation per
 * library ({@link FfmStore}, {@link JniStore}), so the YCSB logic ({@link StoreClient}) is the
 * same code for both. Implementations are thread-safe (shared by YCSB's client threads).
 */
interface KeyValueStore extends AutoCloseable {
    /** The value, or null when absent. */
    byte[] get(byte[] key);

    void put(byte[] key, byte[] value);

    void delete(byte[] key);

    /**
     * Visits entries from the first key at or after {@code start} in key order while the visitor
     * returns true and entries remain.
     */
    void scan(byte[] start, BiPredicate<byte[], byte[]> visitor);

    /** Which engine serves this store (for the logs). */
    String describe();

    @Override
    void close();
}
