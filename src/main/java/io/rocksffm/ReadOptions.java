package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Claim;
import io.rocksffm.internal.Native;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
     * Verify block checksums on read.
     *
     * @param value whether to verify block checksums
     * @return these options
     */
    public ReadOptions setVerifyChecksums(boolean value) {
        use(p -> rocksdb_readoptions_set_verify_checksums(p, flag(value)));
        return this;
    }

    /** {@return whether block checksums are verified} */
    public boolean verifyChecksums() {
        return read(p -> rocksdb_readoptions_get_verify_checksums(p)) != 0;
    }

    /**
     * Put blocks read into the block cache (turn off for one-off scans).
     *
     * @param value whether blocks read go into the block cache
     * @return these options
     */
    public ReadOptions setFillCache(boolean value) {
        use(p -> rocksdb_readoptions_set_fill_cache(p, flag(value)));
        return this;
    }

    /** {@return whether blocks read fill the cache} */
    public boolean fillCache() {
        return read(p -> rocksdb_readoptions_get_fill_cache(p)) != 0;
    }

    /**
     * With a prefix extractor: iterate only over keys sharing the seek key's prefix.
     *
     * @param value whether iteration stays within the seek key's prefix
     * @return these options
     */
    public ReadOptions setPrefixSameAsStart(boolean value) {
        use(p -> rocksdb_readoptions_set_prefix_same_as_start(p, flag(value)));
        return this;
    }

    /** {@return whether iteration stays within the seek key's prefix} */
    public boolean prefixSameAsStart() {
        return read(p -> rocksdb_readoptions_get_prefix_same_as_start(p)) != 0;
    }

    /**
     * Ignore a prefix extractor and seek in total order.
     *
     * @param value whether seeks ignore the prefix extractor
     * @return these options
     */
    public ReadOptions setTotalOrderSeek(boolean value) {
        use(p -> rocksdb_readoptions_set_total_order_seek(p, flag(value)));
        return this;
    }

    /** {@return whether seeks use total order} */
    public boolean totalOrderSeek() {
        return read(p -> rocksdb_readoptions_get_total_order_seek(p)) != 0;
    }

    /**
     * Readahead for iterators, in bytes (0: RocksDB's automatic readahead).
     *
     * @param bytes the readahead in bytes, 0 for automatic
     * @return these options
     * @throws IllegalArgumentException if negative
     */
    public ReadOptions setReadaheadSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("readahead size must be >= 0: " + bytes);
        }
        use(p -> rocksdb_readoptions_set_readahead_size(p, bytes));
        return this;
    }

    /** {@return iterator readahead in bytes} */
    public long readaheadSize() {
        return read(p -> rocksdb_readoptions_get_readahead_size(p));
    }

    /**
     * A tailing iterator sees data written after it was created.
     *
     * @param value whether iterators are tailing
     * @return these options
     */
    public ReadOptions setTailing(boolean value) {
        use(p -> rocksdb_readoptions_set_tailing(p, flag(value)));
        return this;
    }

    /** {@return whether iterators are tailing} */
    public boolean tailing() {
        return read(p -> rocksdb_readoptions_get_tailing(p)) != 0;
    }

    /**
     * Whether an iterator over a {@link #setSnapshot snapshot} refreshes itself now and then
     * ({@code auto_refresh_iterator_with_snapshot}, RocksDB 11 and later; false by default): a
     * long scan then lets go of the memtables and table files it started with, which flushes and
     * compactions replaced meanwhile, and goes on reading the snapshot's data from their
     * successors. It sees the same data either way; without a snapshot the setting does nothing
     * (experimental in RocksDB; no effect on write-prepared transaction databases).
     *
     * @param value whether snapshot iterators refresh themselves
     * @return these options
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_readoptions_set_auto_refresh_iterator_with_snapshot}
     */
    public ReadOptions setAutoRefreshIteratorWithSnapshot(boolean value) {
        use(p -> {
            Capabilities.require("rocksdb_readoptions_set_auto_refresh_iterator_with_snapshot");
            rocksdb_readoptions_set_auto_refresh_iterator_with_snapshot(p, flag(value));
        });
        return this;
    }

    /**
     * Whether snapshot iterators refresh themselves.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_readoptions_get_auto_refresh_iterator_with_snapshot}
     */
    public boolean autoRefreshIteratorWithSnapshot() {
        return read(p -> {
            Capabilities.require("rocksdb_readoptions_get_auto_refresh_iterator_with_snapshot");
            return rocksdb_readoptions_get_auto_refresh_iterator_with_snapshot(p);
        }) != 0;
    }

    /**
     * Whether a multi-get whose keys are in different levels reads their table files in parallel
     * ({@code optimize_multiget_for_io}, RocksDB 11 and later; true by default; experimental in
     * RocksDB): less latency for a little more CPU. It takes effect only with RocksDB's
     * asynchronous reads ({@code async_io}), which these options do not turn on.
     *
     * @param value whether multi-gets read the levels in parallel
     * @return these options
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_readoptions_set_optimize_multiget_for_io}
     */
    public ReadOptions setOptimizeMultigetForIo(boolean value) {
        use(p -> {
            Capabilities.require("rocksdb_readoptions_set_optimize_multiget_for_io");
            rocksdb_readoptions_set_optimize_multiget_for_io(p, flag(value));
        });
        return this;
    }

    /**
     * Whether multi-gets read the levels in parallel.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_readoptions_get_optimize_multiget_for_io}
     */
    public boolean optimizeMultigetForIo() {
        return read(p -> {
            Capabilities.require("rocksdb_readoptions_get_optimize_multiget_for_io");
            return rocksdb_readoptions_get_optimize_multiget_for_io(p);
        }) != 0;
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

    // ---- where reads may go, range deletions, pinning, time limits -----------------------

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
            for (ReadTier t : values()) {
                if (t.id == id) {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown read tier " + id);
        }
    }

    /**
     * Where reads may look (RocksDB's default: {@link ReadTier#READ_ALL}).
     *
     * @param tier the tier
     * @return these options
     */
    public ReadOptions setReadTier(ReadTier tier) {
        Objects.requireNonNull(tier, "tier");
        use(p -> rocksdb_readoptions_set_read_tier(p, tier.id));
        return this;
    }

    /** {@return where reads may look} */
    public ReadTier readTier() {
        return ReadTier.of((int) read(p -> rocksdb_readoptions_get_read_tier(p)));
    }

    /**
     * Skips range deletions when reading (faster when there are none; with some, deleted keys
     * show); false by default.
     *
     * @param value whether range deletions are ignored
     * @return these options
     */
    public ReadOptions setIgnoreRangeDeletions(boolean value) {
        use(p -> rocksdb_readoptions_set_ignore_range_deletions(p, flag(value)));
        return this;
    }

    /** {@return whether range deletions are ignored} */
    public boolean ignoreRangeDeletions() {
        return read(p -> rocksdb_readoptions_get_ignore_range_deletions(p)) != 0;
    }

    /**
     * Keeps the blocks an iterator's keys and values live in pinned while it is open (false by default).
     *
     * @param value whether iterator data is pinned
     * @return these options
     */
    public ReadOptions setPinData(boolean value) {
        use(p -> rocksdb_readoptions_set_pin_data(p, flag(value)));
        return this;
    }

    /** {@return whether iterator data is pinned} */
    public boolean pinData() {
        return read(p -> rocksdb_readoptions_get_pin_data(p)) != 0;
    }

    /**
     * A deadline for gets and multi-gets, in microseconds of RocksDB's clock (the time since the
     * epoch): a read still running then fails with {@link RocksDBException.Code#TIMED_OUT}; 0
     * (the default) for none.
     *
     * @param epochMicros the deadline, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code epochMicros < 0}
     */
    public ReadOptions setDeadlineMicros(long epochMicros) {
        if (epochMicros < 0) {
            throw new IllegalArgumentException("deadline must be >= 0: " + epochMicros);
        }
        use(p -> rocksdb_readoptions_set_deadline(p, epochMicros));
        return this;
    }

    /** {@return the reads' deadline in microseconds since the epoch, 0 for none} */
    public long deadlineMicros() {
        return read(p -> rocksdb_readoptions_get_deadline(p));
    }

    /**
     * A time limit for each file read of a get or multi-get, in microseconds; 0 (the default) for none.
     *
     * @param micros the limit, 0 for none
     * @return these options
     * @throws IllegalArgumentException if {@code micros < 0}
     */
    public ReadOptions setIoTimeoutMicros(long micros) {
        if (micros < 0) {
            throw new IllegalArgumentException("io timeout must be >= 0: " + micros);
        }
        use(p -> rocksdb_readoptions_set_io_timeout(p, micros));
        return this;
    }

    /** {@return the time limit of each file read in microseconds, 0 for none} */
    public long ioTimeoutMicros() {
        return read(p -> rocksdb_readoptions_get_io_timeout(p));
    }

    /**
     * Lets iterators prefetch the next blocks asynchronously ({@code async_io}; false by default;
     * RocksDB 8 or later, and io_uring in the engine's build for an effect).
     *
     * @param value whether iterators read ahead asynchronously
     * @return these options
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_readoptions_set_async_io} (7.8.3)
     */
    public ReadOptions setAsyncIo(boolean value) {
        use(p -> {
            Capabilities.require("rocksdb_readoptions_set_async_io");
            rocksdb_readoptions_set_async_io(p, flag(value));
        });
        return this;
    }

    /**
     * Whether iterators read ahead asynchronously.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_readoptions_get_async_io} (7.8.3)
     */
    public boolean asyncIo() {
        return read(p -> {
            Capabilities.require("rocksdb_readoptions_get_async_io");
            return rocksdb_readoptions_get_async_io(p);
        }) != 0;
    }
}
