package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Makes checkpoints of an open database ({@code rocksdb_checkpoint_t}): consistent copies, with
 * hard links to the table files where the file system allows, that open as databases of their
 * own.
 *
 * {@snippet id="Checkpoint" :
 * try (Checkpoint checkpoint = Checkpoint.create(db)) {
 *     checkpoint.createCheckpoint(dir.resolve("copy"));   // a new directory; opens as a database
 * }
 * }
 *
 * <p>The caller owns and closes it; while it is open its database cannot be closed. Safe to
 * share across threads; any call after close throws {@link IllegalStateException}.
 */
public final class Checkpoint extends NativeObject {
    private Checkpoint(Lifecycle lifecycle, MemorySegment checkpoint) {
        super(lifecycle, "Checkpoint", checkpoint);
    }

    /**
     * A checkpoint maker for {@code db}.
     *
     * @param db the open database
     * @return a new checkpoint object, owned by the caller
     * @throws IllegalStateException if {@code db} is closed
     * @throws RocksDBException if RocksDB cannot make one
     */
    public static Checkpoint create(Database db) {
        return of(Objects.requireNonNull(db, "db"));
    }

    /** A checkpoint maker for any kind of database (through its {@code rocksdb_t}). */
    static Checkpoint of(Database db) {
        Lifecycle lifecycle = Lifecycle.child("Checkpoint", false, db.lifecycle);
        MemorySegment cp = MemorySegment.NULL;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment err = arena.allocate(ValueLayout.ADDRESS);
            cp = rocksdb_checkpoint_object_create(db.adminDb(), err);
            Native.check(err);
            return new Checkpoint(lifecycle, cp);
        } catch (RuntimeException | Error e) {
            if (cp.address() != 0) {
                rocksdb_checkpoint_object_destroy(cp);
            }
            lifecycle.abandon();
            throw e;
        }
    }

    @Override
    void destroy(MemorySegment cp) {
        rocksdb_checkpoint_object_destroy(cp);
    }

    /**
     * Writes a checkpoint into the new directory {@code target}, flushing the memtables first.
     *
     * @param target a directory that does not exist yet
     * @throws RocksDBException e.g. if {@code target} exists
     * @throws IllegalStateException if closed
     */
    public void createCheckpoint(Path target) {
        createCheckpoint(target, 0);
    }

    /**
     * Writes a checkpoint into the new directory {@code target}; the memtables are flushed first
     * unless the write-ahead log is smaller than {@code logSizeForFlush} bytes (then the log is
     * copied instead).
     *
     * @param target          a directory that does not exist yet
     * @param logSizeForFlush 0 to always flush; otherwise the log size from which to flush
     * @throws IllegalArgumentException if {@code logSizeForFlush < 0} or the path holds a NUL
     * @throws RocksDBException e.g. if {@code target} exists
     * @throws IllegalStateException if closed
     */
    public void createCheckpoint(Path target, long logSizeForFlush) {
        String dir = Opening.cPath(target);
        if (logSizeForFlush < 0) {
            throw new IllegalArgumentException("logSizeForFlush must be >= 0: " + logSizeForFlush);
        }
        use(cp -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment err = arena.allocate(ValueLayout.ADDRESS);
                rocksdb_checkpoint_create(cp, arena.allocateFrom(dir), logSizeForFlush, err);
                Native.check(err);
            }
        });
    }
}
