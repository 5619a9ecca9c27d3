package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Claim;
import io.rocksffm.internal.Ids;
import io.rocksffm.internal.Native;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Options for reads and iterators ({@code rocksdb_readoptions_t}).
 *
 * {@snippet id="ReadOptions" :
 * try (ReadOptions read = new ReadOptions()           // only keys in [order:, order;)
 *              .setIterateLowerBound(MemorySegment.ofArray("order:".getBytes(UTF_8)))
 *              .setIterateUpperBound(MemorySegment.ofArray("order;".getBytes(UTF_8)))
 *              .setFillCache(false);                 // a one-off scan: keep the cache for hot data
 *      RocksIterator it = db.newIterator(read)) {
 *     for (it.seekToFirst(); it.isValid(); it.next()) {
 *         orders.add(new String(it.keyBytes(), UTF_8));
 *     }
 * }
 * }
 *
 * <p>Owned by the caller, who closes it after the reads that use it. Safe to share across threads
 * for reading; closing waits for reads in flight and refuses (with
 * {@link IllegalStateException}) while iterators created with these options are open, because
 * RocksDB's iterators keep pointing into them (bounds). For the same reason the iterate bounds
 * cannot change while such iterators are open. The bound bytes are copied: the caller's segments
 * may be reused at once. Setters return {@code this}; using a closed instance throws
 * {@link IllegalStateException}.
 */
public final class ReadOptions extends ReadOptionsSettings {
    /**
     * RocksDB's default read options, shared by the forms that take none; never closed, never changed
     * (not reachable from outside this package).
     */
    static final ReadOptions DEFAULT = new ReadOptions();

    /**
     * Orders changes of the bounds, snapshot and prefetch size against iterator creation and
     * close (an internal object: never the caller's, who may lock these options for their own use).
     */
    final Object lock = new Object();
    private BoundCopy lower;
    private BoundCopy upper;
    /** The read and iteration-start timestamps ({@link #setTimestamp}), and the copies they replaced. */
    private BoundCopy timestamp;
    private BoundCopy iterStartTimestamp;
    private List<BoundCopy> retired;
    private volatile Snapshot snapshot;
    /** The child claim {@link #snapshot} holds on its snapshot (guarded by {@link #lock}). */
    private final Claim snapshotClaim = new Claim();
    /** The prefetch run buffer of iterators made with these options, 0 for none (under {@link #lock}). */
    long prefetchBytes;

    /** RocksDB's default read options (verify checksums and fill cache on, no bounds). */
    public ReadOptions() {
        super("ReadOptions", rocksdb_readoptions_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_readoptions_destroy(p);
        synchronized (lock) {
            freeBounds();
            snapshotClaim.release();
            snapshot = null;
        }
    }

    private void freeBounds() {
        for (BoundCopy b : new BoundCopy[] {lower, upper, timestamp, iterStartTimestamp}) {
            if (b != null) {
                b.free();
            }
        }
        if (retired != null) {
            retired.forEach(BoundCopy::free);
        }
        retired = null;
        lower = upper = timestamp = iterStartTimestamp = null;
    }

    /**
     * Closes these options. Idempotent; waits for reads in flight.
     *
     * @throws IllegalStateException while iterators created with them are open
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "iterators");
    }

    /**
     * Lets forward scans of iterators made with these options copy runs of consecutive entries
     * into one reused native buffer of {@code bytes} bytes and serve them from it (see
     * {@link RocksIterator}: it pays for data in memory or the page cache, and each iterator
     * turns it off where it loses). Off (0) by default; an iterator without it carries no prefetch
     * state. Iterators already open keep the size they were made with.
     *
     * @param bytes the run buffer's size, 0 for no prefetch
     * @return these options
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public ReadOptions setPrefetchBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("prefetch size must be >= 0: " + bytes);
        }
        synchronized (lock) {
            lifecycle.ensureOpen();
            prefetchBytes = bytes;
        }
        return this;
    }

    /** {@return the prefetch run buffer size of iterators made with these options, 0 for none} */
    public long prefetchBytes() {
        synchronized (lock) {
            lifecycle.ensureOpen();
            return prefetchBytes;
        }
    }

    /**
     * Iterators stop before keys below {@code bound} (inclusive lower bound); {@code null}
     * removes it. The bytes are copied.
     *
     * @param bound the bound's bytes, or {@code null} for none
     * @return these options
     * @throws IllegalStateException while iterators created with these options are open
     */
    public ReadOptions setIterateLowerBound(MemorySegment bound) {
        synchronized (lock) {
            BoundCopy old = lower;
            BoundCopy b = copyBound(bound);
            use(p -> rocksdb_readoptions_set_iterate_lower_bound(p, BoundCopy.data(b), BoundCopy.length(b)));
            lower = b;
            if (old != null) {
                old.free();
            }
            return this;
        }
    }

    /**
     * Iterators stop at keys at or above {@code bound} (exclusive upper bound); {@code null}
     * removes it. The bytes are copied.
     *
     * @param bound the bound's bytes, or {@code null} for none
     * @return these options
     * @throws IllegalStateException while iterators created with these options are open
     */
    public ReadOptions setIterateUpperBound(MemorySegment bound) {
        synchronized (lock) {
            BoundCopy old = upper;
            BoundCopy b = copyBound(bound);
            use(p -> rocksdb_readoptions_set_iterate_upper_bound(p, BoundCopy.data(b), BoundCopy.length(b)));
            upper = b;
            if (old != null) {
                old.free();
            }
            return this;
        }
    }

    /**
     * Reads and iterators with these options read as of {@code timestamp}: in a family with
     * user-defined timestamps ({@link TimestampedComparator}), each key's newest version at or
     * before it. {@code null} removes it; reads of such a family then fail with
     * {@link RocksDBException} {@code INVALID_ARGUMENT}, and so do reads of a family without
     * timestamps while one is set, or with one of another size. The bytes are copied; a replaced
     * copy is freed when these options close (reads in flight on other threads may still read
     * it), so change it on long-lived options sparingly.
     *
     * @param timestamp the timestamp, or {@code null} for none
     * @return these options
     * @throws IllegalStateException while iterators created with these options are open
     */
    public ReadOptions setTimestamp(MemorySegment timestamp) {
        synchronized (lock) {
            BoundCopy b = copyBound(timestamp);
            use(p -> rocksdb_readoptions_set_timestamp(p, BoundCopy.data(b), BoundCopy.length(b)));
            retire(this.timestamp);
            this.timestamp = b;
            return this;
        }
    }

    /** {@return the size of the iteration-start timestamp ({@link #setIterStartTimestamp}), -1 if none is set} */
    long iterStartTimestampSize() {
        synchronized (lock) {
            return iterStartTimestamp == null ? -1 : BoundCopy.length(iterStartTimestamp);
        }
    }

    /** {@return the size of the read timestamp ({@link #setTimestamp}), -1 if none is set} */
    long timestampSize() {
        synchronized (lock) {
            return timestamp == null ? -1 : BoundCopy.length(timestamp);
        }
    }

    /**
     * Iterators with these options return every version of each key with a timestamp from
     * {@code timestamp} up to the read timestamp ({@link #setTimestamp}), newest first, and
     * deletions (empty values), instead of each key's newest version: history iteration. Keys are
     * then RocksDB's internal keys: the key, its timestamp, 8 bytes of sequence number and type
     * ({@link RocksIterator#timestamp()}). {@code null} removes it. Copied as {@link #setTimestamp}'s.
     *
     * @param timestamp the oldest timestamp, or {@code null} for none
     * @return these options
     * @throws IllegalStateException while iterators created with these options are open
     */
    public ReadOptions setIterStartTimestamp(MemorySegment timestamp) {
        synchronized (lock) {
            BoundCopy b = copyBound(timestamp);
            use(p -> rocksdb_readoptions_set_iter_start_ts(p, BoundCopy.data(b), BoundCopy.length(b)));
            retire(iterStartTimestamp);
            iterStartTimestamp = b;
            return this;
        }
    }

    /** Keeps a replaced timestamp copy until close: a read in flight on another thread may read it. */
    private void retire(BoundCopy old) {
        if (old != null) {
            (retired == null ? retired = new ArrayList<>() : retired).add(old);
        }
    }

    /** Copies the new bound first (which may fail), so a failure leaves the options unchanged. */
    private BoundCopy copyBound(MemorySegment bound) {
        lifecycle.ensureOpen();
        if (lifecycle.hasChildren()) {
            throw new IllegalStateException("iterate bounds and timestamps cannot change while iterators created with these"
                    + " options are open");
        }
        return bound == null ? null : new BoundCopy(Native.mallocCopy(bound));
    }

    /**
     * Reads and iterators with these options see {@code snapshot}; {@code null} reads the latest
     * state. The snapshot cannot be closed while these options refer to it.
     *
     * @param snapshot the snapshot, or {@code null} for the latest state
     * @return these options
     * @throws IllegalStateException if the snapshot is closed
     */
    public ReadOptions setSnapshot(Snapshot snapshot) {
        synchronized (lock) {
            lifecycle.ensureOpen();
            snapshotClaim.replace(snapshot == null ? null : snapshot.lifecycle, () -> use(p ->
                    rocksdb_readoptions_set_snapshot(p, snapshot == null ? MemorySegment.NULL : snapshot.ptr)));
            this.snapshot = snapshot;
            return this;
        }
    }

    /** {@return the snapshot reads see, or {@code null} for the latest state} */
    public Snapshot snapshot() {
        synchronized (lock) {
            lifecycle.ensureOpen();
            return snapshot;
        }
    }

    /** The database of the snapshot set, or null; read on every read to refuse foreign snapshots. */
    Database snapshotOwner() {
        Snapshot s = snapshot;
        return s == null ? null : s.db;
    }

    // ---- where reads may look ----------------------------------------------------------------

    /** Where a read may look ({@link #setReadTier}); ids as RocksDB's {@code ReadTier}. */
    public enum ReadTier {
        /** Everywhere, reading table files as needed (the default). */
        READ_ALL(0),
        /** Only memtables and the block cache: a read that needs a file fails with
         *  {@link RocksDBException.Code#INCOMPLETE}. */
        BLOCK_CACHE(1),
        /** Only persisted data: memtables are skipped when the write-ahead log is off. */
        PERSISTED(2),
        /** Only memtables (iterators only). */
        MEMTABLE(3);

        final int id;

        ReadTier(int id) {
            this.id = id;
        }

        static ReadTier of(int id) {
            return Ids.of(values(), v -> v.id, id, "read tier");
        }
    }
}
