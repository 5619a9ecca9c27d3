package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;

import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The writes of a transactional store since its last commit, indexed by key: the latest value of
 * each key, or {@link #DELETED}. Reads look here before the database; {@code commit} writes them,
 * with the offsets they cover, in one write batch. Safe for the stream thread writing while query
 * threads read.
 *
 * <p>{@link #clear()} starts a new index rather than emptying this one: an iterator still open
 * over the old index (an interactive query's, say) keeps seeing the writes it was made with, which
 * its database snapshot, taken before the commit, does not hold.
 */
final class UncommittedWrites {
    /** The marker of a delete (compared by identity: a put of an empty array is not a delete). */
    static final byte[] DELETED = new byte[0];

    /**
     * The heap an entry takes besides its key's and value's bytes (64-bit JVM, compressed
     * references): the key's {@link Bytes} (24), the headers of the key and value arrays (16
     * each, and their padding, 8 on average), the skip list's node (24) and, on average, half
     * an index node (12).
     */
    static final long ENTRY_OVERHEAD = 24 + 16 + 16 + 8 + 24 + 12;

    private volatile ConcurrentSkipListMap<Bytes, byte[]> writes = new ConcurrentSkipListMap<>();
    private final AtomicLong bytes = new AtomicLong();

    /** The write of {@code key} since the last commit: its value, {@link #DELETED}, or null if none. */
    byte[] get(Bytes key) {
        return writes.get(key);
    }

    void put(Bytes key, byte[] value) {
        byte[] previous = writes.put(key, value);
        long delta = value.length + (previous == null ? key.get().length + ENTRY_OVERHEAD : -(long) previous.length);
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

    /**
     * The heap the held writes take, approximately: their keys and values and
     * {@link #ENTRY_OVERHEAD} per key.
     */
    long approximateBytes() {
        return Math.max(0, bytes.get());
    }

    /** The bytes of the keys and values alone (for sizing a commit's write batch). */
    long dataBytes() {
        return Math.max(0, approximateBytes() - ENTRY_OVERHEAD * writes.size());
    }

    /** All writes, in key order (for commit). */
    Iterable<Map.Entry<Bytes, byte[]>> entries() {
        return writes.entrySet();
    }

    /** Forgets the writes: a new index from now on; iterators over the old one keep it. */
    void clear() {
        writes = new ConcurrentSkipListMap<>();
        bytes.set(0);
    }

    /**
     * The writes between the bounds in iteration order, live until the next {@link #clear()}.
     *
     * @param lower          lowest key (inclusive) or null
     * @param upper          highest key or null
     * @param upperInclusive whether {@code upper} is in range
     */
    Iterator<Map.Entry<Bytes, byte[]>> range(Bytes lower, Bytes upper, boolean upperInclusive, boolean reverse) {
        NavigableMap<Bytes, byte[]> view = writes;
        if (view.isEmpty()) {
            return Collections.emptyIterator();
        }
        if (lower != null) {
            view = view.tailMap(lower, true);
        }
        if (upper != null) {
            view = view.headMap(upper, upperInclusive);
        }
        return (reverse ? view.descendingMap() : view).entrySet().iterator();
    }
}
