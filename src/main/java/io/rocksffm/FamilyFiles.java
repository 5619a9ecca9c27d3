package io.rocksffm;

import io.rocksffm.internal.Scratch;
import static io.rocksffm.internal.capi.RocksDBC.*;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Column family metadata and creating several families at once, a part of the
 * database object reached through {@link ColumnFamilyAdmin}'s default methods.
 */
final class FamilyFiles {
    private FamilyFiles() {}

    static List<ColumnFamilyHandle> createAll(Database db, Options options, List<String> names) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(names, "names");
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no column family names");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = Objects.requireNonNull(names.get(i), "names[" + i + "]");
            new ColumnFamilyDescriptor(name, options); // the checks of one family's creation
            if (!seen.add(name)) {
                throw new IllegalArgumentException("column family name given twice: " + name);
            }
        }
        if (db instanceof TransactionDB) { // its lock manager must learn of each family: one by one
            List<ColumnFamilyHandle> out = new ArrayList<>(names.size());
            for (String name : names) {
                out.add(db.createColumnFamily(name, options));
            }
            return List.copyOf(out);
        }
        db.lifecycle.ensureOpen();
        if (db.isReadOnly()) { // RocksDB 7.x lets a read-only handle change the families on disk
            throw new RocksDBException("Not implemented: Not supported operation in read only mode.");
        }
        try (Scratch s = db.guard.begin()) {
            return db.families.createAll(db, List.copyOf(names), options);
        }
    }

    static ColumnFamilyHandle createWithImport(Database db, String name, Options options,
                                               ImportColumnFamilyOptions importOptions, ExportImportFilesMetaData metadata) {
        db.lifecycle.ensureOpen();
        new ColumnFamilyDescriptor(name, options); // the checks of one family's creation
        Objects.requireNonNull(importOptions, "importOptions");
        Objects.requireNonNull(metadata, "metadata");
        if (db instanceof TransactionDB) {
            throw new UnsupportedOperationException("createColumnFamilyWithImport on a TransactionDB: its lock manager "
                    + "must know each family, and the C API has no import through a transaction database");
        }
        if (db.isReadOnly()) {
            throw new RocksDBException("Not implemented: Not supported operation in read only mode.");
        }
        try (Scratch s = db.guard.begin()) {
            return db.families.createWithImport(db, name, options, importOptions, metadata);
        }
    }

    static ColumnFamilyMetaData metaData(Database db, ColumnFamilyHandle family) {
        try (Scratch s = db.guard.begin(family)) {
            return ColumnFamilyMetaData.copy(rocksdb_get_column_family_metadata_cf(db.adminDb(), family.ptr));
        }
    }
}
