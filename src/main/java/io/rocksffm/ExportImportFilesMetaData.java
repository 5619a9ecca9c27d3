package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.CStrings;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * What {@link Checkpoint#exportColumnFamily} wrote: the exported table files of a column family
 * and the name of the comparator that orders them ({@code rocksdb_export_import_files_metadata_t}),
 * to pass to {@link ColumnFamilyAdmin#createColumnFamilyWithImport} of this or another database.
 * The files stay where the export put them; this object only describes them.
 *
 * {@snippet id="ExportImportFilesMetaData" :
 * // Copy the family events into the database other: export its files, import them there
 * try (Checkpoint checkpoint = Checkpoint.create(db);
 *      ExportImportFilesMetaData exported = checkpoint.exportColumnFamily(events, exportDir);
 *      ImportColumnFamilyOptions importOptions = new ImportColumnFamilyOptions()) {
 *     List<LiveFile> files = exported.files();   // in exportDir, with their levels and key ranges
 *     ColumnFamilyHandle copy = other.createColumnFamilyWithImport("events", options, importOptions, exported);
 * }   // the files were copied: exportDir may be deleted now
 * }
 *
 * <p>Only an export makes one (RocksDB 11 and later engines). The caller owns and closes it; it
 * does not depend on the database it came from, which may be closed first. Safe to share across
 * threads; any call after close throws {@link IllegalStateException}.
 */
public final class ExportImportFilesMetaData extends NativeObject {
    ExportImportFilesMetaData(MemorySegment metadata) {
        super("ExportImportFilesMetaData", metadata);
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_export_import_files_metadata_destroy(p);
    }

    /**
     * The name of the comparator the exported family was ordered by: an import needs a family
     * whose options name the same one.
     *
     * @return the name, e.g. {@code leveldb.BytewiseComparator}
     * @throws IllegalStateException if closed
     */
    public String comparatorName() {
        return apply(p -> {
            String name = CStrings.take(rocksdb_export_import_files_metadata_get_db_comparator_name(p));
            return name == null ? "" : name;
        });
    }

    /**
     * The exported table files, with their levels, sizes and key ranges; {@link LiveFile#name()}
     * is the name relative to the export directory and {@link LiveFile#columnFamily()} the name of
     * the exported family.
     *
     * @return the files, an unmodifiable list
     * @throws IllegalStateException if closed
     */
    public List<LiveFile> files() {
        return apply(p -> LiveFile.copyAll(rocksdb_export_import_files_metadata_get_files(p)));
    }
}
