package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;

/**
 * Options of {@link ColumnFamilyAdmin#createColumnFamilyWithImport}
 * ({@code rocksdb_import_column_family_options_t}): whether the exported table files are copied
 * into the database (the default: the database gets files of its own) or moved (hard-linked into
 * it, then removed from the export's directory: the database shares the file, its inode, with any
 * other link to it, such as the database the export was taken from, see
 * {@link Checkpoint#exportColumnFamily}; a file system without hard links gets a copy).
 *
 * {@snippet id="ImportColumnFamilyOptions" :
 * try (ImportColumnFamilyOptions move = new ImportColumnFamilyOptions().setMoveFiles(true)) {
 *     ColumnFamilyHandle moved = third.createColumnFamilyWithImport("events", options, move, exported);
 * }   // the exported files are in the database now, no longer in the export's directory
 * }
 *
 * <p>The C functions {@code rocksdb_import_column_family_options_*} are in engines newer than 7.8.3
 * (the getter from RocksDB 11 only): on 7.8.3 the constructor throws {@link UnsupportedOperationException}
 * naming the function and the engine's version.
 *
 * <p>The caller owns and closes it; an import reads it during the call only. Setters return
 * {@code this}. Safe to share across threads; any call after close throws
 * {@link IllegalStateException}.
 */
public final class ImportColumnFamilyOptions extends NativeObject {
    /**
     * RocksDB's defaults: the files are copied, not moved.
     *
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_import_column_family_options_create}
     */
    public ImportColumnFamilyOptions() {
        super("ImportColumnFamilyOptions", create());
    }

    private static MemorySegment create() {
        Capabilities.require("rocksdb_import_column_family_options_create");
        return rocksdb_import_column_family_options_create();
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_import_column_family_options_destroy(p);
    }

    /**
     * Whether the import moves the exported files into the database rather than copying them
     * (false by default): each is hard-linked into the database, then its link in the export
     * directory removed, so the database shares the file with the links it had elsewhere (the
     * source database's, for an export on the same file system). RocksDB never writes into a
     * table file it has finished, so sharing is safe as long as nothing else writes into the
     * file either; on a file system without hard links the file is copied.
     *
     * @param value true to move
     * @return these options
     * @throws IllegalStateException if closed
     */
    public ImportColumnFamilyOptions setMoveFiles(boolean value) {
        use(p -> rocksdb_import_column_family_options_set_move_files(p, flag(value)));
        return this;
    }

    /**
     * Whether the import moves the files.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_import_column_family_options_get_move_files} (before RocksDB 11)
     */
    public boolean moveFiles() {
        return read(p -> {
            Capabilities.require("rocksdb_import_column_family_options_get_move_files");
            return rocksdb_import_column_family_options_get_move_files(p);
        }) != 0;
    }
}
