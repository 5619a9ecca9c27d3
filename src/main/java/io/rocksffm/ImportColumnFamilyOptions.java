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
public final class ImportColumnFamilyOptions extends ImportColumnFamilyOptionsSettings {
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
}
