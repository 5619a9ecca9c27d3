package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Objects;

/**
 * An iterator over a database's keys in order ({@code rocksdb_iterator_t}), from
 * {@link RocksDB#newIterator}.
 *
 * <p><b>Views.</b> {@link #key()} and {@link #value()} return read-only segments that view the
 * current entry without copying. They are valid until the next move of this iterator (seek,
 * next, prev) and unusable after {@link #close()}. To keep an entry, copy it
 * ({@link #key(MemorySegment)}, {@link #keyBytes()}, ...).
 *
 * <p><b>Prefetch.</b> With a prefetch size above 0, forward iteration copies runs of consecutive
 * entries into one reused buffer of that many bytes and serves {@code key()/value()/next()} from
 * it; the views then point into the buffer. An entry larger than the buffer is served directly.
 * Seeks, {@code prev()} and {@code seekToLast()} drop the run and stay exact.
 *
 * <p><b>Errors.</b> When iteration stops on an error, {@link #isValid()} throws
 * {@link RocksDBException} with RocksDB's status instead of returning {@code false}.
 *
 * <p><b>Ownership and threads.</b> The caller owns the iterator and closes it. It is confined to
 * the thread that created it (other threads get {@link WrongThreadException}); its database,
 * read options and snapshot refuse to close while it is open. Use after close throws
 * {@link IllegalStateException}.
 */
public final class RocksIterator implements AutoCloseable {
    private static final long RUN_HEADER = 8; // int key length, int value length

    /** Confined; a child of the database, family, options and snapshot it keeps open. */
    private final Lifecycle lifecycle;
    private final MemorySegment it;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment length = arena.allocate(ValueLayout.JAVA_LONG);
    private final MemorySegment run;

    /** rocksdb_iter_valid after the native iterator's last move (moves are the only way it changes). */
    private boolean nativeValid;
    /** Whether the current entry is served from the run buffer. */
    private boolean inRun;
    private long runPos;
    private long runEnd;

    private RocksIterator(Lifecycle lifecycle, MemorySegment it, long prefetchBytes) {
        this.lifecycle = lifecycle;
        this.it = it;
        this.run = prefetchBytes > 0 ? arena.allocate(prefetchBytes, 8) : null;
    }

    /**
     * A new iterator over {@code family} of {@code db} (the caller has entered them and the
     * options, and holds the options' lock so their snapshot cannot change meanwhile). Keeps
     * them and the options' snapshot open until it is closed.
     */
    static RocksIterator create(Database db, ColumnFamilyHandle family, ReadOptions options, long prefetchBytes) {
        return create(db.lifecycle, family, options, prefetchBytes, (o, f) -> rocksdb_create_iterator_cf(db.db, o, f));
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
        Snapshot snapshot = options.snapshot();
        Lifecycle[] parents = java.util.Arrays.copyOf(owners, owners.length + (snapshot == null ? 2 : 3));
        parents[owners.length] = options.lifecycle;
        parents[owners.length + 1] = family.lifecycle;
        if (snapshot != null) {
            parents[owners.length + 2] = snapshot.lifecycle;
        }
        Lifecycle lifecycle = Lifecycle.child("RocksIterator", true, parents);
        MemorySegment it = MemorySegment.NULL;
        try {
            it = source.create(options.ptr, family.ptr);
            return new RocksIterator(lifecycle, it, prefetchBytes);
        } catch (RuntimeException | Error e) {
            if (it.address() != 0) {
                rocksdb_iter_destroy(it);
            }
            lifecycle.abandon();
            throw e;
        }
    }

    private void check() {
        lifecycle.check();
    }

    // ---- moves ------------------------------------------------------------------------------

    /** Moves to the first key. */
    public void seekToFirst() {
        check();
        inRun = false;
        rocksdb_iter_seek_to_first(it);
        moved(true);
    }

    /** Moves to the last key. */
    public void seekToLast() {
        check();
        inRun = false;
        rocksdb_iter_seek_to_last(it);
        moved(false);
    }

    /**
     * Moves to the first key at or after {@code target}.
     *
     * @param target the key to seek
     */
    public void seek(MemorySegment target) {
        Objects.requireNonNull(target, "target");
        check();
        inRun = false;
        try (Scratch s = Scratch.acquire()) {
            rocksdb_iter_seek(it, s.first(target), target.byteSize());
        }
        moved(true);
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
        inRun = false;
        try (Scratch s = Scratch.acquire()) {
            rocksdb_iter_seek_for_prev(it, s.first(target), target.byteSize());
        }
        moved(false);
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
            runPos += RUN_HEADER + runKeyLength() + runValueLength();
            if (runPos < runEnd) {
                return;
            }
            // the run is used up; the native iterator already stands on the entry after it
            inRun = false;
            prefetch();
            return;
        }
        requireValid();
        rocksdb_iter_next(it);
        moved(true);
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
            MemorySegment key = run.asSlice(runPos + RUN_HEADER, runKeyLength());
            inRun = false;
            rocksdb_iter_seek(it, key, key.byteSize());
            moved(false);
        }
        requireValid();
        rocksdb_iter_prev(it);
        moved(false);
    }

    private void requireValid() {
        if (!nativeValid) {
            throw new IllegalStateException("RocksIterator is not on an entry");
        }
    }

    /** After a native move: records validity (one downcall) and, going forward, fills a run. */
    private void moved(boolean forward) {
        nativeValid = Native.iterValid(it);
        if (forward) {
            prefetch();
        }
    }

    /** Fills the run buffer with the entries from the native iterator's position on. */
    private void prefetch() {
        if (run == null) {
            return;
        }
        long pos = 0;
        long cap = run.byteSize();
        while (nativeValid) {
            MemorySegment k = Native.iterKey(it, length);
            MemorySegment v = Native.iterValue(it, length);
            long kl = k.byteSize();
            long vl = v.byteSize();
            if (RUN_HEADER + kl + vl > cap - pos) {
                break;
            }
            run.set(ValueLayout.JAVA_INT_UNALIGNED, pos, (int) kl);
            run.set(ValueLayout.JAVA_INT_UNALIGNED, pos + 4, (int) vl);
            MemorySegment.copy(k, 0, run, pos + RUN_HEADER, kl);
            MemorySegment.copy(v, 0, run, pos + RUN_HEADER + kl, vl);
            pos += RUN_HEADER + kl + vl;
            rocksdb_iter_next(it);
            nativeValid = Native.iterValid(it);
        }
        if (pos > 0) {
            inRun = true;
            runPos = 0;
            runEnd = pos;
        }
    }

    private long runKeyLength() {
        return run.get(ValueLayout.JAVA_INT_UNALIGNED, runPos) & 0xFFFF_FFFFL;
    }

    private long runValueLength() {
        return run.get(ValueLayout.JAVA_INT_UNALIGNED, runPos + 4) & 0xFFFF_FFFFL;
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

    // ---- current entry ------------------------------------------------------------------------

    private void requireEntry() {
        if (!inRun) {
            requireValid();
        }
    }

    /** {@return the current key: a read-only view valid until the next move} */
    public MemorySegment key() {
        check();
        requireEntry();
        MemorySegment k = inRun
                ? run.asSlice(runPos + RUN_HEADER, runKeyLength())
                : Native.iterKey(it, length).reinterpret(arena, null);
        return k.asReadOnly();
    }

    /** {@return the current value: a read-only view valid until the next move} */
    public MemorySegment value() {
        check();
        requireEntry();
        MemorySegment v = inRun
                ? run.asSlice(runPos + RUN_HEADER + runKeyLength(), runValueLength())
                : Native.iterValue(it, length).reinterpret(arena, null);
        return v.asReadOnly();
    }

    /**
     * Copies the current key into {@code dst} and returns the key's full length; when that
     * exceeds {@code dst.byteSize()}, only the first bytes were copied.
     *
     * @param dst a writable segment to copy into
     * @return the key's full length in bytes
     */
    public long key(MemorySegment dst) {
        return copy(key(), dst);
    }

    /**
     * Copies the current value into {@code dst}; returns the value's full length.
     *
     * @param dst a writable segment to copy into
     * @return the value's full length in bytes
     */
    public long value(MemorySegment dst) {
        return copy(value(), dst);
    }

    private static long copy(MemorySegment src, MemorySegment dst) {
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("destination segment is read-only");
        }
        long n = src.byteSize();
        MemorySegment.copy(src, 0, dst, 0, Math.min(n, dst.byteSize()));
        return n;
    }

    /** {@return a copy of the current key} */
    public byte[] keyBytes() {
        return key().toArray(ValueLayout.JAVA_BYTE);
    }

    /** {@return a copy of the current value} */
    public byte[] valueBytes() {
        return value().toArray(ValueLayout.JAVA_BYTE);
    }

    /** {@return whether {@link #close()} has been called} */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    /** Destroys the iterator. Idempotent; must be called on the owning thread. */
    @Override
    public void close() {
        lifecycle.close(() -> {
            arena.close();
            rocksdb_iter_destroy(it);
        });
    }
}
