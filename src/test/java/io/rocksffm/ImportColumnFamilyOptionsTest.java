package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** {@link ImportColumnFamilyOptions}: RocksDB's default and the setter read back (gated on 7.8.3). */
class ImportColumnFamilyOptionsTest {
    @Test
    void gettersReadTheSetters() {
        if (!Gated.since11("rocksdb_import_column_family_options_create", ImportColumnFamilyOptions::new)) {
            return;
        }
        try (ImportColumnFamilyOptions o = new ImportColumnFamilyOptions()) {
            if (!Gated.since11("rocksdb_import_column_family_options_get_move_files", o::moveFiles)) {
                o.setMoveFiles(true); // the setter is older than the getter
                return;
            }
            assertFalse(o.moveFiles());
            assertTrue(o.setMoveFiles(true).moveFiles());
            assertFalse(o.setMoveFiles(false).moveFiles());
        }
    }
}
