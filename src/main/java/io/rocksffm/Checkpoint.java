package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;
import io.rocksffm.internal.Callbacks;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Lifecycle;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

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
    /** The database this makes checkpoints of (its families can be exported). */
    private final Database db;

    private Checkpoint(Database db, Lifecycle lifecycle, MemorySegment checkpoint) {
        super(lifecycle, "Checkpoint", checkpoint);
        this.db = db;
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
        return Lifecycle.buildChild("Checkpoint", false, child -> {
            MemorySegment cp = MemorySegment.NULL;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment err = arena.allocate(ValueLayout.ADDRESS);
                cp = rocksdb_checkpoint_object_create(db.adminDb(), err);
                Native.check(err);
                return new Checkpoint(db, child, cp);
            } catch (RuntimeException | Error e) {
                if (cp.address() != 0) {
                    rocksdb_checkpoint_object_destroy(cp);
                }
                throw e;
            }
        }, db.lifecycle);
    }

    @Override
    void destroy(MemorySegment cp) {
        rocksdb_checkpoint_object_destroy(cp);
    }

    /**
     * Writes a checkpoint into the new directory {@code target}, flushing the memtables first.
     * The table files are hard links to the database's own (one inode each, shared with the
     * database) where the file system allows, else copies; the other files are copies. A database
     * opened on the checkpoint never writes into them (nor does the source): only a program
     * writing into a table file by hand would change both.
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
        String dir = CStrings.path(target);
        if (logSizeForFlush < 0) {
            throw new IllegalArgumentException("logSizeForFlush must be >= 0: " + logSizeForFlush);
        }
        if (logSizeForFlush != Long.MAX_VALUE) {
            db.refuseWhilePaused("createCheckpoint that may flush",
                    "pass logSizeForFlush Long.MAX_VALUE (the log is copied, never flushed), or continue the work first");
        }
        Callbacks.refuseWaiting("createCheckpoint"); // it may flush and wait, and copies files
        use(cp -> {
            try (Scratch s = db.guard.begin(); Arena arena = Arena.ofConfined()) {
                MemorySegment err = arena.allocate(ValueLayout.ADDRESS);
                rocksdb_checkpoint_create(cp, arena.allocateFrom(dir), logSizeForFlush, err);
                Native.check(err);
            }
        });
    }

    /**
     * Exports the table files of {@code family} into the new directory {@code target}
     * ({@code ExportColumnFamily}), flushing its memtable first: hard links where the file system
     * allows, else copies. A hard link is the database's own file (one inode, two names): writing
     * into an exported file changes the database's (its next open fails, e.g. "Sst file size
     * mismatch"); RocksDB itself never writes into a finished table file, and deleting either
     * name leaves the other intact. The returned metadata describes the files and can create a family
     * from them in this or another database
     * ({@link ColumnFamilyAdmin#createColumnFamilyWithImport}).
     *
     * @param family the column family of this checkpoint's database
     * @param target a directory that does not exist yet
     * @return the export's metadata, owned by the caller (close it)
     * @throws IllegalArgumentException if {@code family} belongs to another database, or the path holds a NUL
     * @throws IllegalStateException if this, the database or the family is closed
     * @throws RocksDBException e.g. if {@code target} exists
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_checkpoint_export_column_family} (7.8.3, 10.1.3)
     */
    public ExportImportFilesMetaData exportColumnFamily(ColumnFamilyHandle family, Path target) {
        String dir = CStrings.path(target);
        db.guard.checkFamily(family);
        Callbacks.refuseWaiting("exportColumnFamily"); // it flushes and waits
        db.refuseWhilePaused("exportColumnFamily (it flushes first)", "continue the work first");
        return apply(cp -> {
            try (Scratch s = db.guard.begin(family); Arena arena = Arena.ofConfined()) {
                Capabilities.require("rocksdb_checkpoint_export_column_family");
                MemorySegment err = arena.allocate(ValueLayout.ADDRESS);
                MemorySegment metadata = rocksdb_checkpoint_export_column_family(cp, family.ptr,
                        arena.allocateFrom(dir), err);
                Native.check(err);
                return new ExportImportFilesMetaData(metadata);
            }
        });
    }
}
