package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Copies;
import io.rocksffm.internal.IteratorCalls;
import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.PrefetchRun;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An iterator over a database's keys in order ({@code rocksdb_iterator_t}), from
 * {@link RocksDB#newIterator}.
 *
 * {@snippet id="RocksIterator" :
 * try (ReadOptions read = new ReadOptions(); RocksIterator it = db.newIterator(read)) {
 *     for (it.seek("user:".getBytes(UTF_8)); it.isValid(); it.next()) {
 *         byte[] key = it.keyBytes();   // a copy; it.key() is a view valid until the next move
 *         if (!new String(key, UTF_8).startsWith("user:")) {
 *             break;
 *         }
 *         users.add(new String(it.valueBytes(), UTF_8));
 *     }
 *     it.status();                      // throws if the scan stopped on an error
 * }
 * }
 *
 * <p><b>Views.</b> {@link #key()} and {@link #value()} return read-only segments that view the
 * current entry without copying. They are valid until the next move of this iterator (seek,
 * next, prev) or {@link #close()}: using one afterwards throws {@link IllegalStateException} (the
 * views of an entry share a scope that the move closes), so a view can never show another entry's
 * bytes or freed memory ({@link #uncheckedKey()} and {@link #uncheckedValue()} skip that check, for
 * speed, with its risks). The exception is the JDK's, thrown where the view is read, with the
 * message the JDK gives every closed memory scope, {@code "Already closed"}: it cannot say that the
 * iterator moved, because the check and its message belong to the JDK's memory segments, which no
 * library can subclass or intercept (rocksffm's code is not on the stack when a view is read). An
 * {@code "Already closed"} from a view of {@code key()} or {@code value()} means that its iterator
 * moved or closed after the view was taken. To keep an entry, copy it ({@link #key(MemorySegment)},
 * {@link #keyBytes()}, ...); the copying methods make no view.
 *
 * <p><b>Prefetch.</b> With a prefetch size above 0 ({@link ReadOptions#setPrefetchBytes}; off by
 * default), forward iteration may copy runs of
 * consecutive entries into one reused buffer of that many bytes and serve {@code key()/value()/next()}
 * from it; the views then point into the buffer. A run makes the same C calls per entry as direct
 * serving (the C API has no call that returns several entries) and adds a copy of every entry, so
 * it pays only where the per-call costs it saves outweigh the copies: each iterator times both
 * ways as it scans (never in the first entries after a seek) and fills runs only while they win,
 * stepping aside for longer and longer stretches where they lose. An entry larger than the buffer
 * is served directly. Seeks, {@code prev()} and {@code seekToLast()} drop the run and stay
 * exact. The loop that fills a run moves the native iterator with critical downcalls (the thread
 * stays in the Java state, so a garbage collection waits for the move) unless the family calls back
 * into Java: prefetch is meant for data in memory or the OS page cache; a move that reads a block
 * from slow storage holds safepoints for that read.
 *
 * <p><b>Errors.</b> When iteration stops on an error, {@link #isValid()} throws
 * {@link RocksDBException} with RocksDB's status instead of returning {@code false}.
 *
 * <p><b>Ownership and threads.</b> The caller owns the iterator and closes it. It is confined to
 * the thread that created it (other threads get {@link WrongThreadException}); its database,
 * read options and snapshot refuse to close while it is open. Once that thread has ended, any
 * thread may {@link #close()} it. Use after close throws {@link IllegalStateException}.
 */
public final class RocksIterator implements AutoCloseable {
    /** Confined; a child of the database, family, options and snapshot it keeps open. */
    private final Lifecycle lifecycle;
    private final MemorySegment it;
    private final long itAddress;
    /** The scope of the views of the entries (a confined arena that allocates nothing). */
    private final Arena arena = Arena.ofConfined();
    /** The length out-slot (C heap: freed by whichever thread closes the iterator). */
    private final MemorySegment length;
    private final long lengthAddress;
    /** The prefetch buffer (C heap), or null without prefetch. */
    private final MemorySegment prefetchBuffer;
    /** The prefetch run, or null without prefetch. */
    private final PrefetchRun run;
    /** Whether the family has user-defined timestamps (RocksDB asserts it before reading one). */
    private final boolean timestamped;
    /**
     * Whether this iterator merges a batch over the database (an indexed batch's or a
     * transaction's): their timestamps need RocksDB 8.11 (set once, before the iterator is shared).
     */
    private boolean overBatch;

    /** Marks this new iterator as merging a batch over the database ({@link #timestamp()} is gated then). */
    RocksIterator overBatch() {
        overBatch = true;
        return this;
    }
    /** Whether moves may be linked critically (see {@link IteratorCalls}). */
    final boolean criticalMoves; // package-private for tests

    /** rocksdb_iter_valid after the native iterator's last move (moves are the only way it changes). */
    private boolean nativeValid;
    /** Whether the current entry is served from the run buffer. */
    private boolean inRun;
    /** The scope of the current entry's views, made by the first view, closed by the next move. */
    private Arena views;

    private RocksIterator(Lifecycle lifecycle, MemorySegment it, long prefetchBytes, boolean criticalMoves,
                          boolean timestamped) {
        this.lifecycle = lifecycle;
        this.timestamped = timestamped;
        this.it = it;
        this.itAddress = it.address();
        this.length = Native.malloc(ValueLayout.JAVA_LONG.byteSize());
        this.lengthAddress = length.address();
        MemorySegment buffer = null;
        try {
            buffer = prefetchBytes > 0 ? Native.malloc(prefetchBytes) : null;
            this.run = buffer != null ? new PrefetchRun(buffer, length) : null;
        } catch (RuntimeException | Error e) {
            if (buffer != null) {
                Native.free(buffer);
            }
            Native.free(length);
            throw e;
        }
        this.prefetchBuffer = buffer;
        this.criticalMoves = criticalMoves;
    }

    /**
     * Wraps {@code made}, native iterators over {@code families} made together (one
     * {@code rocksdb_create_iterators}), as children of {@code owner} (their database's lifecycle);
     * the caller has entered them all and the options, and holds the options' lock. If wrapping
     * one fails, those wrapped are closed and the others destroyed.
     */
    static List<RocksIterator> createAll(Lifecycle owner, List<ColumnFamilyHandle> families, ReadOptions options,
                                         long prefetchBytes, MemorySegment[] made) {
        int n = made.length;
        List<RocksIterator> out = new ArrayList<>(n);
        int next = 0;
        boolean[] taken = new boolean[1];
        try {
            for (; next < n; next++) {
                MemorySegment it = made[next];
                taken[0] = false;
                out.add(create(owner, families.get(next), options, prefetchBytes, (o, f) -> {
                    taken[0] = true;
                    return it;
                }));
                made[next] = null;
            }
            return List.copyOf(out);
        } catch (RuntimeException | Error e) {
            if (next < n && taken[0]) {
                made[next] = null; // create destroyed it
            }
            out.forEach(RocksIterator::close);
            for (MemorySegment it : made) {
                if (it != null && it.address() != 0) {
                    rocksdb_iter_destroy(it);
                }
            }
            throw e;
        }
    }

    /** A native iterator of {@code db}'s rocksdb_t (the caller holds everything open; for wrapping iterators). */
    static MemorySegment nativeIterator(MemorySegment db, MemorySegment options, MemorySegment family) {
        return rocksdb_create_iterator_cf(db, options, family);
    }

    /** The downcall that makes a native iterator for read options and a family (pointers). */
    @FunctionalInterface
    interface Source {
        MemorySegment create(MemorySegment options, MemorySegment family);
    }

    /**
     * A new iterator from {@code source} (a database's or a transaction's), kept as a child of
     * {@code owner}, the family, the options and their snapshot; the caller has entered them and
     * holds the options' lock.
     */
    static RocksIterator create(Lifecycle owner, ColumnFamilyHandle family, ReadOptions options, long prefetchBytes,
                                Source source) {
        return create(new Lifecycle[] {owner}, family, options, prefetchBytes, source);
    }

    /** {@link #create(Lifecycle, ColumnFamilyHandle, ReadOptions, long, Source)} with several owners. */
    static RocksIterator create(Lifecycle[] owners, ColumnFamilyHandle family, ReadOptions options, long prefetchBytes,
                                Source source) {
        long start = options.iterStartTimestampSize();
        if (start >= 0) { // RocksDB reads the family's timestamp size from it, unchecked
            family.families().checkTimestamp(family, start);
        }
        Snapshot snapshot = options.snapshot();
        Lifecycle[] parents = Arrays.copyOf(owners, owners.length + (snapshot == null ? 2 : 3));
        parents[owners.length] = options.lifecycle;
        parents[owners.length + 1] = family.lifecycle;
        if (snapshot != null) {
            parents[owners.length + 2] = snapshot.lifecycle;
        }
        return Lifecycle.buildChild("RocksIterator", true, child -> {
            MemorySegment it = MemorySegment.NULL;
            try {
                it = source.create(options.ptr, family.ptr);
                return new RocksIterator(child, it, prefetchBytes, criticalMovesAllowed(family),
                        family.families().timestampedIds().contains(family.id()));
            } catch (RuntimeException | Error e) {
                if (it.address() != 0) {
                    rocksdb_iter_destroy(it);
                }
                throw e;
            }
        }, parents);
    }

    /**
     * Whether an iterator over {@code family} may move with critical downcalls (prefetch runs do).
     * Not when moves may call Java code (a Java comparator, merge operator or prefix extractor of
     * the family): a critical downcall must not call back into Java.
     */
    private static boolean criticalMovesAllowed(ColumnFamilyHandle family) {
        return !family.families().readsCallJava(family);
    }

    private void check() {
        lifecycle.check();
    }

    /** Ends the current entry's views (a move or close): using them throws IllegalStateException. */
    private void endViews() {
        Arena v = views;
        if (v != null) {
            views = null;
            v.close();
        }
    }

    /** Before a native seek or backward move: no run, no views. */
    private void leave() {
        endViews();
        inRun = false;
        if (run != null) {
            run.reset();
        }
    }

    // ---- moves ------------------------------------------------------------------------------

    /** Moves to the first key. */
    public void seekToFirst() {
        check();
        leave();
        rocksdb_iter_seek_to_first(it);
        nativeValid = IteratorCalls.valid(itAddress);
    }

    /** Moves to the last key. */
    public void seekToLast() {
        check();
        leave();
        rocksdb_iter_seek_to_last(it);
        nativeValid = IteratorCalls.valid(itAddress);
    }

    /**
     * Moves to the first key at or after {@code target}.
     *
     * @param target the key to seek
     */
    public void seek(MemorySegment target) {
        Objects.requireNonNull(target, "target");
        check();
        leave();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_iter_seek(it, s.first(target), target.byteSize());
        }
        nativeValid = IteratorCalls.valid(itAddress);
    }

    /**
     * {@link #seek(MemorySegment)} for an array.
     *
     * @param target the key to seek
     */
    public void seek(byte[] target) {
        seek(MemorySegment.ofArray(Objects.requireNonNull(target, "target")));
    }

    /**
     * Moves to the last key at or before {@code target}.
     *
     * @param target the key to seek
     */
    public void seekForPrev(MemorySegment target) {
        Objects.requireNonNull(target, "target");
        check();
        leave();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_iter_seek_for_prev(it, s.first(target), target.byteSize());
        }
        nativeValid = IteratorCalls.valid(itAddress);
    }

    /**
     * {@link #seekForPrev(MemorySegment)} for an array.
     *
     * @param target the key to seek
     */
    public void seekForPrev(byte[] target) {
        seekForPrev(MemorySegment.ofArray(Objects.requireNonNull(target, "target")));
    }

    /**
     * Moves to the next key.
     *
     * @throws IllegalStateException if the iterator is not on an entry
     */
    public void next() {
        check();
        if (inRun) {
            endViews();
            if (run.advance()) {
                return;
            }
            // the run is used up; the native iterator already stands on the entry after it
            inRun = false;
        } else {
            requireValid();
            endViews();
            IteratorCalls.next(itAddress, false);
            nativeValid = IteratorCalls.valid(itAddress);
        }
        if (run != null && nativeValid && run.due()) {
            nativeValid = run.fill(itAddress, criticalMoves);
            inRun = !run.isEmpty();
        }
    }

    /**
     * Moves to the previous key.
     *
     * @throws IllegalStateException if the iterator is not on an entry
     */
    public void prev() {
        check();
        if (inRun) {
            // the native iterator is past the run: bring it back to the current entry first
            MemorySegment key = run.buffer().asSlice(run.keyOffset(), run.keyLength());
            leave();
            rocksdb_iter_seek(it, key, key.byteSize());
            nativeValid = IteratorCalls.valid(itAddress);
        }
        requireValid();
        leave();
        rocksdb_iter_prev(it);
        nativeValid = IteratorCalls.valid(itAddress);
    }

    /** Whether the current entry is served from a prefetch run (for tests). */
    boolean servingFromRun() {
        return inRun;
    }

    private void requireValid() {
        if (!nativeValid) {
            throw new IllegalStateException("RocksIterator is not on an entry");
        }
    }

    // ---- state ------------------------------------------------------------------------------

    /**
     * Whether the iterator is on an entry.
     *
     * @return whether the iterator is on an entry
     * @throws RocksDBException if iteration stopped on an error (e.g. corruption, I/O error)
     */
    public boolean isValid() {
        check();
        if (inRun || nativeValid) {
            return true;
        }
        status();
        return false;
    }

    /**
     * Throws if the iterator has met an error; returns normally otherwise.
     *
     * @throws RocksDBException with RocksDB's status
     */
    public void status() {
        check();
        try (Scratch s = Scratch.acquire()) {
            rocksdb_iter_get_error(it, s.errptr);
            Native.check(s.errptr);
        }
    }

    /**
     * Makes the iterator read the database's latest state ({@code rocksdb_iter_refresh}): writes
     * made since it was created (or last refreshed) become visible, even if it was created with a
     * snapshot. The iterator is left on no entry: seek before reading, as after creation; views of
     * the previous entry end.
     *
     * @throws IllegalStateException if closed, or called on another thread
     * @throws RocksDBException if the iterator cannot be refreshed (status {@code NotSupported}
     *         for iterators over a transaction or an indexed batch)
     * @throws UnsupportedOperationException if the engine lacks the function (before RocksDB 9.4)
     */
    public void refresh() {
        check();
        Capabilities.require("rocksdb_iter_refresh");
        leave();
        nativeValid = false;
        try (Scratch s = Scratch.acquire()) {
            rocksdb_iter_refresh(it, s.errptr);
            Native.check(s.errptr);
        }
    }

    // ---- current entry ------------------------------------------------------------------------

    private void requireEntry() {
        if (!inRun) {
            requireValid();
        }
    }

    /** The length of the bytes at the address {@link #keyAt()} or {@link #valueAt()} returned last. */
    private long atLength;

    /** The current key's address (in the run or the engine's memory); its length goes to atLength. */
    private long keyAt() {
        check();
        requireEntry();
        if (inRun) {
            atLength = run.keyLength();
            return run.address() + run.keyOffset();
        }
        long p = IteratorCalls.key(itAddress, lengthAddress);
        atLength = length.get(ValueLayout.JAVA_LONG, 0);
        return p;
    }

    /** The current value's address; its length goes to atLength. */
    private long valueAt() {
        check();
        requireEntry();
        if (inRun) {
            atLength = run.valueLength();
            return run.address() + run.valueOffset();
        }
        long p = IteratorCalls.value(itAddress, lengthAddress);
        atLength = length.get(ValueLayout.JAVA_LONG, 0);
        return p;
    }

    /** A read-only view of {@code n} bytes at {@code address}, in the current entry's scope. */
    private MemorySegment view(long address, long n) {
        Arena v = views;
        if (v == null) {
            views = v = Arena.ofConfined();
        }
        return MemorySegment.ofAddress(address).reinterpret(n, v, null).asReadOnly();
    }

    /**
     * The current key: a read-only view, valid until the next move or close; using it afterwards
     * throws {@link IllegalStateException} (the JDK's "Already closed": the view's memory scope
     * ended when the iterator moved on; copy with {@link #keyBytes()} to keep a key).
     *
     * @return the current key
     * @throws IllegalStateException if the iterator is not on an entry
     */
    public MemorySegment key() {
        long p = keyAt();
        return view(p, atLength);
    }

    /**
     * The current value: a read-only view, valid until the next move or close; using it
     * afterwards throws {@link IllegalStateException} (the JDK's "Already closed", as for
     * {@link #key()}; copy with {@link #valueBytes()} to keep a value).
     *
     * @return the current value
     * @throws IllegalStateException if the iterator is not on an entry
     */
    public MemorySegment value() {
        long p = valueAt();
        return view(p, atLength);
    }

    /**
     * The current entry's timestamp, in a family with user-defined timestamps
     * ({@link TimestampedComparator}); empty in a family without them.
     *
     * @return a copy of the timestamp's bytes
     * @throws IllegalStateException if the iterator is not on an entry, or its options prefetch
     *         ({@link ReadOptions#setPrefetchBytes}: the engine's iterator is then ahead of it)
     * @throws UnsupportedOperationException for an iterator over an indexed batch or a
     *         transaction's writes on engines before RocksDB 8.11 (which have no timestamp there)
     */
    public byte[] timestamp() {
        check();
        requireEntry();
        if (inRun) {
            throw new IllegalStateException("timestamp() needs read options without prefetch");
        }
        if (!timestamped) {
            return new byte[0];
        }
        if (overBatch) { // the merging iterator before 8.11 has no timestamp: an engine with assertions aborts
            Capabilities.requireSince("rocksdb_iter_timestamp", "8.11", "an iterator over an indexed batch or a"
                    + " transaction's writes has no timestamps (an engine built with assertions aborts)");
        }
        MemorySegment p = rocksdb_iter_timestamp(it, length);
        return p.reinterpret(length.get(ValueLayout.JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The current key as a read-only view that is <b>not</b> checked against moves: valid until
     * the next move, and {@link IllegalStateException} after {@link #close()}, but used after a
     * move it reads whatever that memory then holds (another entry's bytes, or memory RocksDB has
     * released: undefined bytes, in the worst case a crash). It saves {@link #key()}'s per-entry
     * scope (an allocation and a close per entry, noticeable on full scans of small entries); for
     * loops that drop the view before moving.
     *
     * @return the current key, unchecked
     * @throws IllegalStateException if the iterator is not on an entry
     */
    public MemorySegment uncheckedKey() {
        long p = keyAt();
        return MemorySegment.ofAddress(p).reinterpret(atLength, arena, null).asReadOnly();
    }

    /**
     * The current value as an unchecked view: as {@link #uncheckedKey()}, whose caveats apply.
     *
     * @return the current value, unchecked
     * @throws IllegalStateException if the iterator is not on an entry
     */
    public MemorySegment uncheckedValue() {
        long p = valueAt();
        return MemorySegment.ofAddress(p).reinterpret(atLength, arena, null).asReadOnly();
    }

    /**
     * Copies the current key into {@code dst} and returns the key's full length; when that
     * exceeds {@code dst.byteSize()}, only the first bytes were copied.
     *
     * @param dst a writable segment to copy into
     * @return the key's full length in bytes
     */
    public long key(MemorySegment dst) {
        long p = keyAt();
        return copy(p, atLength, dst);
    }

    /**
     * Copies the current value into {@code dst}; returns the value's full length.
     *
     * @param dst a writable segment to copy into
     * @return the value's full length in bytes
     */
    public long value(MemorySegment dst) {
        long p = valueAt();
        return copy(p, atLength, dst);
    }

    /** Copies up to {@code n} bytes at {@code address} (live until the next move) into dst; {@return n} */
    private static long copy(long address, long n, MemorySegment dst) {
        Objects.requireNonNull(dst, "dst");
        Copies.fromAddress(address, dst, 0, Math.min(n, dst.byteSize()));
        return n;
    }

    /**
     * {@return a copy of the current key}
     *
     * @throws UnsupportedOperationException if it is larger than a {@code byte[]} can hold
     */
    public byte[] keyBytes() {
        long p = keyAt();
        return Copies.toArray(p, atLength);
    }

    /**
     * {@return a copy of the current value}
     *
     * @throws UnsupportedOperationException if it is larger than a {@code byte[]} can hold
     *         (2 GiB less 8 bytes): read it through {@link #value()} or into a segment
     */
    public byte[] valueBytes() {
        long p = valueAt();
        return Copies.toArray(p, atLength);
    }

    /** {@return whether {@link #close()} has been called} */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    /**
     * Destroys the iterator. Idempotent; must be called on the owning thread, or, once that
     * thread has ended, on any thread (an iterator it left open would otherwise keep its database,
     * family and options from ever closing).
     *
     * @throws WrongThreadException on another thread while the owning thread lives
     */
    @Override
    public void close() {
        lifecycle.close(() -> {
            try {
                if (lifecycle.onOwnerThread()) { // scopes only: a closing thread other than a finished owner leaves them
                    endViews();
                    arena.close();
                }
            } finally {
                rocksdb_iter_destroy(it);
                Native.free(length);
                if (prefetchBuffer != null) {
                    Native.free(prefetchBuffer);
                }
            }
        });
    }
}
