package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.NativeLibrary;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import io.rocksffm.internal.Upcalls;

/**
 * An open RocksDB database ({@code rocksdb_t}).
 *
 * {@snippet id="RocksDB" :
 * try (Options options = new Options().setCreateIfMissing(true);
 *      RocksDB db = RocksDB.open(path, options)) {
 *     db.put("user:1".getBytes(UTF_8), "alice".getBytes(UTF_8));
 *     byte[] name = db.get("user:1".getBytes(UTF_8));   // "alice"; null when absent
 *     db.delete("user:1".getBytes(UTF_8));
 * }
 * }
 *
 * <p><b>Ownership.</b> The caller owns the database and closes it; {@link #close()} is idempotent
 * and waits for calls in flight on other threads. It refuses (with
 * {@link IllegalStateException}) while pinned values, iterators or snapshots created from this
 * database are still open: close those first. It closes the column family handles itself. Any
 * call on a closed database throws {@link IllegalStateException}.
 *
 * <p><b>Threads.</b> A database is safe to share across threads, platform or virtual. Methods
 * allocate nothing native per call: inputs in heap memory are copied into pooled scratch memory,
 * which also holds the {@code errptr}/length out-slots; a thread holds it only during a call.
 *
 * <p><b>Memory.</b> The core methods take {@link MemorySegment}s: a key or value is the whole
 * segment ({@code byteSize()} bytes), native or heap. Each operation has one core method taking
 * a {@link ColumnFamilyHandle}; the forms without one use the default family, and the
 * {@code byte[]} forms also use this database's default read and write options.
 *
 * <p><b>Errors.</b> RocksDB failures throw {@link RocksDBException}; an absent key is a value
 * ({@code -1} or {@code null}), not an exception.
 */
public final class RocksDB extends Database {
    private RocksDB(MemorySegment db, Path path, boolean readOnly, List<String> names, MemorySegment handles) {
        super("RocksDB", db, db, path, readOnly, names, handles);
    }

    /**
     * The bytes of the timestamp a TTL database appends to every value, which engines before 9.0
     * leave in the values of a batched multi-get.
     */
    private static final int TTL_TIMESTAMP = 4;

    private RocksDB(MemorySegment db, Path path, List<String> names, MemorySegment handles) {
        super("RocksDB", db, db, path, false, names, handles,
                Capabilities.ttlMultiGetStripsTimestamps() ? 0 : TTL_TIMESTAMP);
    }

    /**
     * The engine library this process's rocksffm is bound to (loading it if need be).
     *
     * @return the engine: where it came from, its file and version, which C functions it has
     * @throws UnsatisfiedLinkError if no engine can be found (the message says what was tried)
     */
    public static Engine engine() {
        NativeLibrary.Loaded l = Native.engine();
        return new Engine(l.source(), l.path(), l.version());
    }

    // ---- open ---------------------------------------------------------------------------------

    /**
     * Opens (or, with {@link Options#setCreateIfMissing}, creates) the database at {@code path}
     * for reading and writing, with only the default column family. The options may be closed
     * once this returns.
     *
     * @param path    the database's directory
     * @param options the database's options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} when the
     *         database does not exist and create-if-missing is off, or has other column
     *         families; {@link RocksDBException.Code#IO_ERROR} when another handle holds its lock
     */
    public static RocksDB open(Path path, Options options) {
        return open(path, options, List.of(), false);
    }

    /**
     * Opens the database with the given column families (every family it has must be listed;
     * the default family is added with {@code options} if absent). Their handles are then
     * available from {@link #columnFamily(String)}.
     *
     * @param path     the database's directory
     * @param options  the database's options
     * @param families every column family of the database, with its options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when a family is missing from the list
     */
    public static RocksDB open(Path path, Options options, List<ColumnFamilyDescriptor> families) {
        return open(path, options, families, false);
    }

    /**
     * Opens an existing database read-only; writes to it fail with
     * {@link RocksDBException.Code#NOT_SUPPORTED}. Several read-only handles (and one writer) may
     * open the same path. A subset of the column families may be listed.
     *
     * @param path     the database's directory
     * @param options  the database's options
     * @param families the column families to open, with their options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when there is no database at {@code path}
     */
    public static RocksDB openReadOnly(Path path, Options options, List<ColumnFamilyDescriptor> families) {
        return open(path, options, families, true);
    }

    /**
     * {@link #openReadOnly(Path, Options, List)} with the default family only. On engines with
     * {@code rocksdb_get_default_column_family_handle} (RocksDB 9.x) this is RocksDB's own
     * single-family read-only open (as rocksdbjni's {@code openReadOnly}), which serves a fully
     * compacted database from the engine's faster compacted-DB read path; its refusals of writes
     * and flushes then say "compacted db mode".
     *
     * @param path    the database's directory
     * @param options the database's options
     * @return the open database, owned by the caller
     * @throws RocksDBException e.g. when there is no database at {@code path}
     */
    public static RocksDB openReadOnly(Path path, Options options) {
        return open(path, options, List.of(), true);
    }

    // ---- secondary and TTL databases ----------------------------------------------------------

    /**
     * Opens the database at {@code path} as a <em>secondary</em> instance: a read-only follower of
     * the primary (the one handle writing to {@code path}, in this or another process) that sees
     * the primary's writes up to when it was opened, and later ones after each
     * {@link #tryCatchUpWithPrimary()}. Several secondaries may follow one primary; each keeps its
     * own files (info logs) in its own {@code secondaryPath}. Writes and column family changes on
     * it fail with {@link RocksDBException.Code#NOT_SUPPORTED} ("Not supported operation in
     * secondary mode"). Only the default column family is opened.
     *
     * @param path          the primary's directory
     * @param secondaryPath a directory of this secondary's own (created if missing)
     * @param options       the options (may be closed once this returns)
     * @return the open secondary, owned by the caller
     * @throws RocksDBException e.g. when there is no database at {@code path}
     */
    public static RocksDB openAsSecondary(Path path, Path secondaryPath, Options options) {
        return openAsSecondary(path, secondaryPath, options, List.of());
    }

    /**
     * {@link #openAsSecondary(Path, Path, Options)} with the given column families (a subset of the
     * primary's; the default family is added if absent).
     *
     * @param path          the primary's directory
     * @param secondaryPath a directory of this secondary's own (created if missing)
     * @param options       the options (may be closed once this returns)
     * @param families      the column families to open, with their options
     * @return the open secondary, owned by the caller
     * @throws RocksDBException e.g. when a family does not exist
     */
    public static RocksDB openAsSecondary(Path path, Path secondaryPath, Options options,
                                          List<ColumnFamilyDescriptor> families) {
        return Opening.openAsSecondary(path, secondaryPath, options, families, RocksDB::new);
    }

    /**
     * Makes a secondary instance ({@link #openAsSecondary}) see what its primary has written
     * since it was opened or last caught up (from the primary's manifest and write-ahead logs).
     * Safe to call from any thread while reads go on.
     *
     * @throws RocksDBException with {@link RocksDBException.Code#NOT_SUPPORTED} if this is not a
     *         secondary instance
     * @throws IllegalStateException if closed
     */
    public void tryCatchUpWithPrimary() {
        try (Scratch s = guard.begin()) {
            rocksdb_try_catch_up_with_primary(ptr, s.errptr);
            Native.check(s.errptr);
        }
    }

    /**
     * Opens (or creates) a database whose entries expire {@code ttlSeconds} after they were
     * written ({@code DBWithTTL}): expired entries are dropped by compactions, and until then may
     * still be read (the time to live is a lower bound on how long an entry is kept). Only the
     * default column family is opened. Open a TTL database only with this method: a plain
     * {@link #open} would see each value with its 4-byte timestamp suffix.
     *
     * @param path       the database's directory
     * @param options    the options (may be closed once this returns)
     * @param ttlSeconds the time to live in seconds; 0 keeps entries forever
     * @return the open database, owned by the caller
     * @throws IllegalArgumentException if {@code ttlSeconds < 0}
     * @throws RocksDBException as {@link #open(Path, Options)}
     */
    public static RocksDB openWithTtl(Path path, Options options, int ttlSeconds) {
        return openWithTtl(path, options, List.of(), ttlSeconds);
    }

    /**
     * {@link #openWithTtl(Path, Options, int)} with the given column families (every family of the
     * database; the default one is added if absent), all with the same time to live.
     *
     * @param path       the database's directory
     * @param options    the options (may be closed once this returns)
     * @param families   every column family of the database, with its options
     * @param ttlSeconds the time to live in seconds; 0 keeps entries forever
     * @return the open database, owned by the caller
     * @throws IllegalArgumentException if {@code ttlSeconds < 0}
     * @throws RocksDBException as {@link #open(Path, Options, List)}
     */
    public static RocksDB openWithTtl(Path path, Options options, List<ColumnFamilyDescriptor> families,
                                      int ttlSeconds) {
        return Opening.openWithTtl(path, options, families, ttlSeconds, (db, p, readOnly, names, handles) -> {
            RocksDB opened = new RocksDB(db, p, names, handles);
            opened.withTtl = true;
            return opened;
        });
    }

    /** Whether {@link #openWithTtl} opened this database (its engine object is a TTL database). */
    private boolean withTtl;

    /**
     * Creates a column family whose entries live {@code ttlSeconds} (rocksdbjni's
     * {@code TtlDB.createColumnFamilyWithTtl}); only on a database opened with {@link #openWithTtl}
     * (its families made by {@link #createColumnFamily} keep entries forever).
     *
     * @param name       the family's name
     * @param options    the family's options
     * @param ttlSeconds the time to live in seconds; 0 keeps entries forever
     * @return the family's handle, owned by this database
     * @throws IllegalArgumentException if {@code ttlSeconds < 0}, or the name is empty or holds a
     *         NUL character
     * @throws IllegalStateException if this database was not opened with {@link #openWithTtl}, or
     *         is closed
     * @throws RocksDBException e.g. {@link RocksDBException.Code#INVALID_ARGUMENT} if the family exists
     */
    public ColumnFamilyHandle createColumnFamilyWithTtl(String name, Options options, int ttlSeconds) {
        new ColumnFamilyDescriptor(name, options); // argument checks
        if (ttlSeconds < 0) {
            throw new IllegalArgumentException("ttl must be >= 0 seconds (0: no expiry): " + ttlSeconds);
        }
        if (!withTtl) {
            lifecycle.ensureOpen();
            throw new IllegalStateException("createColumnFamilyWithTtl needs a database opened with openWithTtl");
        }
        try (Scratch s = guard.begin()) {
            return families.create(name, options,
                    (o, cName, err) -> rocksdb_create_column_family_with_ttl(db, o, cName, ttlSeconds, err));
        }
    }

    private static RocksDB open(Path path, Options options, List<ColumnFamilyDescriptor> families, boolean readOnly) {
        return Opening.open(path, options, families, readOnly, RocksDB::new);
    }

    /**
     * The names of the column families of the database at {@code path}.
     *
     * @param path    the database's directory
     * @param options options (the environment to read with)
     * @return the family names, "default" among them
     * @throws RocksDBException e.g. if there is no database at {@code path}
     */
    public static List<String> listColumnFamilies(Path path, Options options) {
        return Opening.listColumnFamilies(path, options);
    }

    /**
     * Deletes the database at {@code path} and its files ({@code DestroyDB}); a missing directory
     * is not an error. No database may be open on it.
     *
     * @param path    the database's directory
     * @param options options (the environment, WAL and data paths to clean)
     * @throws RocksDBException e.g. {@link RocksDBException.Code#IO_ERROR} if another process has
     *         it open (its lock is held)
     * @throws IllegalStateException if {@code options} is closed, or a database of this process is
     *         open at {@code path}
     */
    public static void destroyDB(Path path, Options options) {
        Opening.destroyOrRepair(path, options, true);
    }

    /**
     * Salvages what it can of a damaged database at {@code path} ({@code RepairDB}): rebuilds its
     * manifest from the table files it finds and the write-ahead logs; data may be lost. Use it
     * when an open fails with {@link RocksDBException.Code#CORRUPTION}; no database may be open on
     * it. (rocksdbjni has no such call.)
     *
     * @param path    the database's directory
     * @param options options (the same as the database's: comparator, merge operators, families'
     *                settings are those of the default family)
     * @throws RocksDBException if the repair fails
     * @throws IllegalStateException if {@code options} is closed, or a database of this process is
     *         open at {@code path}
     */
    public static void repairDB(Path path, Options options) {
        Opening.destroyOrRepair(path, options, false);
    }

    @Override
    void destroy(MemorySegment db) {
        families.closeAll();
        rocksdb_close(db);
        families.releaseComparators();
        OpenDatabases.remove(realPath, this);
        if (lifecycle.guardsCallbacks()) {
            Upcalls.recyclePoolThreads(); // no thread that ran Java code is left to block halt
        }
    }

    /**
     * Closes the database and its column family handles. Idempotent; waits for calls in flight
     * on other threads. (An iterator or pinned value that a thread which has ended left open can
     * be closed from any thread: close it, then this.)
     *
     * @throws IllegalStateException if pinned values, iterators, snapshots or checkpoints from it
     *         are open, or its background work is paused ({@link #pauseBackgroundWork()})
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "pinned values, iterators, snapshots, checkpoints or pauses of background work");
    }

    // ---- writes ---------------------------------------------------------------------------------

    @Override
    public Database put(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        putDirect(family, options, key, value);
        return this;
    }

    /**
     * Stores {@code value} under {@code key} in the default family, with default write options.
     *
     * @param key   the key
     * @param value the value
     */
    @Override
    public Database put(byte[] key, byte[] value) {
        // Overrides the interface's form to copy the arrays straight into scratch memory: wrapping
        // them in segments allocates whenever the JIT does not inline the whole path.
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        try (Scratch s = guard.begin(WriteOptions.DEFAULT, defaultFamily)) {
            families.refuseTimestamped(defaultFamily);
            rocksdb_put_cf(ptr, WriteOptions.DEFAULT.ptr, defaultFamily.ptr, s.copy(Scratch.FIRST, key), key.length,
                    s.copy(Scratch.SECOND, value), value.length, s.errptr);
            checkWrite(s.errptr);
        }
        return this;
    }

    @Override
    public Database delete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        deleteDirect(family, options, key);
        return this;
    }

    @Override
    public Database deleteRange(ColumnFamilyHandle family, WriteOptions options, MemorySegment begin, MemorySegment end) {
        deleteRangeDirect(family, options, begin, end);
        return this;
    }

    @Override
    public Database merge(ColumnFamilyHandle family, WriteOptions options, MemorySegment key, MemorySegment value) {
        mergeDirect(family, options, key, value);
        return this;
    }

    @Override
    public Database singleDelete(ColumnFamilyHandle family, WriteOptions options, MemorySegment key) {
        singleDeleteDirect(family, options, key);
        return this;
    }

    @Override
    void writeNative(MemorySegment options, MemorySegment nativeBatch, MemorySegment errptr) {
        rocksdb_write(ptr, options, nativeBatch, errptr);
    }

    /** The C API writes an indexed batch to a plain database directly, without a copy. */
    @Override
    void writeIndexed(MemorySegment options, WriteBatchWithIndex batch, MemorySegment errptr) {
        rocksdb_write_writebatch_wi(ptr, options, batch.ptr, errptr);
    }
}
