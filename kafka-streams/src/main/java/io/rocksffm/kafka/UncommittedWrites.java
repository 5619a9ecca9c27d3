package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;

import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The writes of a store since its last commit, indexed by key: the latest value of each key, or
 * {@link #DELETED}. Reads look here before the database; {@code commit} writes them, with the
 * offsets they cover, in one write batch. Safe for the stream thread writing while query threads
 * read.
 */
final class UncommittedWrites {
    /** The marker of a delete (compared by identity: a put of an empty array is not a delete). */
    static final byte[] DELETED = new byte[0];

    private final ConcurrentSkipListMap<Bytes, byte[]> writes = new ConcurrentSkipListMap<>();
    private final AtomicLong bytes = new AtomicLong();

    /** The write of {@code key} since the last commit: its value, {@link #DELETED}, or null if none. */
    byte[] get(Bytes key) {
        return writes.get(key);
    }

    void put(Bytes key, byte[] value) {
        byte[] previous = writes.put(key, value);
        long delta = value.length + (previous == null ? key.get().length : -(long) previous.length);
        bytes.addAndGet(delta);
    }

    void delete(Bytes key) {
        put(key, DELETED);
    }

    boolean isEmpty() {
        return writes.isEmpty();
    }

    int size() {
        return writes.size();
    }

    /** The approximate size of the keys and values written (a delete counts its key). */
    long approximateBytes() {
        return Math.max(0, bytes.get());
    }

    /** All writes, in key order (for commit). */
    Iterable<Map.Entry<Bytes, byte[]>> entries() {
        return writes.entrySet();
    }

    void clear() {
        writes.clear();
        bytes.set(0);
    }

    /**
     * The writes between the bounds in iteration order.
     *
     * @param lower          lowest key (inclusive) or null
     * @param upper          highest key or null
     * @param upperInclusive whether {@code upper} is in range
     */
    Iterator<Map.Entry<Bytes, byte[]>> range(Bytes lower, Bytes upper, boolean upperInclusive, boolean reverse) {
        if (writes.isEmpty()) {
            return Collections.emptyIterator();
        }
        NavigableMap<Bytes, byte[]> view = writes;
        if (lower != null) {
            view = view.tailMap(lower, true);
        }
        if (upper != null) {
            view = view.headMap(upper, upperInclusive);
        }
        return (reverse ? view.descendingMap() : view).entrySet().iterator();
    }
}
