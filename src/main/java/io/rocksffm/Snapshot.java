package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Lifecycle;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;
import io.rocksffm.internal.Capabilities;

/**
 * A consistent point-in-time view of a database ({@code rocksdb_snapshot_t}), from
 * {@link RocksDB#getSnapshot()}. Reads and iterators whose {@link ReadOptions} carry it see the
 * database as it was when the snapshot was taken.
 *
 * {@snippet id="Snapshot" :
 * try (Snapshot snapshot = db.getSnapshot();
 *      ReadOptions atSnapshot = new ReadOptions().setSnapshot(snapshot)) {
 *     db.put("user:1".getBytes(UTF_8), "changed".getBytes(UTF_8));
 *     byte[] before = db.get(atSnapshot, "user:1".getBytes(UTF_8));  // the value when it was taken
 *     byte[] now = db.get("user:1".getBytes(UTF_8));                 // "changed"
 * }
 * }
 *
 * <p>The caller owns it and closes it (releasing it in RocksDB). It belongs to its database: the
 * database refuses to close while it is open, and it refuses to close while read options or
 * iterators use it ({@link IllegalStateException}: close those first). Safe to share across
 * threads. Use after close throws {@link IllegalStateException}.
 */
public final class Snapshot extends NativeObject {
    final Database db;
    /** Frees the snapshot: null for rocksdb_release_snapshot on {@code db}'s rocksdb_t. */
    private final Consumer<MemorySegment> release;

    private Snapshot(Database db, Lifecycle lifecycle, MemorySegment snapshot, Consumer<MemorySegment> release) {
        super(lifecycle, "Snapshot", snapshot);
        this.db = db;
        this.release = release;
    }

    /**
     * Wraps a snapshot another kind of object made (a transaction database's, a transaction's),
     * freed by {@code release}, as a child of {@code owner}; if that fails, {@code release} frees it.
     */
    static Snapshot adopt(Database db, Lifecycle owner, MemorySegment snapshot, Consumer<MemorySegment> release) {
        try {
            return Lifecycle.buildChild("Snapshot", false, child -> new Snapshot(db, child, snapshot, release), owner);
        } catch (RuntimeException | Error e) {
            release.accept(snapshot);
            throw e;
        }
    }

    /** A snapshot of {@code db}'s current state; the caller has entered {@code db}. */
    static Snapshot take(Database db) {
        return Lifecycle.buildChild("Snapshot", false,
                child -> new Snapshot(db, child, rocksdb_create_snapshot(db.db), null), db.lifecycle);
    }

    @Override
    void destroy(MemorySegment p) {
        if (release == null) {
            rocksdb_release_snapshot(db.db, p);
        } else {
            release.accept(p);
        }
    }

    /**
     * Releases the snapshot. Idempotent.
     *
     * @throws IllegalStateException while read options or iterators still use it
     */
    @Override
    public void close() {
        lifecycle.close(() -> destroy(ptr), "read options or iterators using it");
    }

    /**
     * The sequence number the snapshot sees up to: writes with a higher one are invisible to it
     * (compare with {@link DatabaseAdmin#latestSequenceNumber}).
     *
     * @return the snapshot's sequence number
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_snapshot_get_sequence_number} (7.8.3)
     */
    public long sequenceNumber() {
        lifecycle.ensureOpen();
        Capabilities.require("rocksdb_snapshot_get_sequence_number");
        return read(p -> rocksdb_snapshot_get_sequence_number(p));
    }

    /** {@return the database this snapshot belongs to} */
    public Database database() {
        return db;
    }
}
