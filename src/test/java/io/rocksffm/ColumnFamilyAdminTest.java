package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ColumnFamilyAdmin#createColumnFamilies} (issue 32): the families exist on disk (listed on
 * reopen), take writes, run the options' merge operator, and a failure part way leaves the ones
 * before it open; gated on engines without {@code rocksdb_create_column_families} (7.8.3).
 */
class ColumnFamilyAdminTest {
    @TempDir
    Path dir;

    @Test
    void createsSeveralFamiliesWithTheirOptions() {
        try (Options options = new Options().setCreateIfMissing(true);
             Options cfOptions = new Options().setMergeOperator(new StringAppendOperator(","));
             RocksDB db = RocksDB.open(dir, options)) {
            if (!Gated.since11("rocksdb_create_column_families", () -> db.createColumnFamilies(cfOptions, List.of("a")))) {
                return;
            }
            List<ColumnFamilyHandle> created = db.createColumnFamilies(cfOptions, List.of("a", "b", "c"));
            assertEquals(List.of("a", "b", "c"), created.stream().map(ColumnFamilyHandle::name).toList());
            for (ColumnFamilyHandle h : created) {
                assertSame(h, db.columnFamily(h.name()));
                db.merge(h, bytes("k"), bytes("1")).merge(h, bytes("k"), bytes(h.name()));
                assertEquals("1," + h.name(), string(db.get(h, bytes("k"))));
            }
            assertEquals(4, db.columnFamilies().size());
        }
        try (Options options = new Options()) {
            assertEquals(List.of("default", "a", "b", "c"), RocksDB.listColumnFamilies(dir, options));
        }
    }

    @Test
    void aFailurePartWayLeavesTheFamiliesBeforeIt() {
        try (Options options = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, options)) {
            if (!Gated.since11("rocksdb_create_column_families", () -> db.createColumnFamilies(options, List.of("x")))) {
                return;
            }
            db.createColumnFamily("taken", options).close();
            RocksDBException e = assertThrows(RocksDBException.class,
                    () -> db.createColumnFamilies(options, List.of("first", "taken", "never")));
            assertEquals(RocksDBException.Code.INVALID_ARGUMENT, e.code(), e.getMessage());
            ColumnFamilyHandle first = db.columnFamily("first");
            assertNotNull(first);
            db.put(first, bytes("k"), bytes("v"));
            assertEquals("v", string(db.get(first, bytes("k"))));
            assertNull(db.columnFamily("never"));
        }
        try (Options options = new Options()) {
            assertEquals(List.of("default", "taken", "first"), RocksDB.listColumnFamilies(dir, options));
        }
    }

    @Test
    void badNamesAreRefusedBeforeRocksDB() {
        try (Options options = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, options)) {
            assertThrows(IllegalArgumentException.class, () -> db.createColumnFamilies(options, List.of()));
            assertThrows(IllegalArgumentException.class, () -> db.createColumnFamilies(options, List.of("a", "a")));
            assertThrows(IllegalArgumentException.class, () -> db.createColumnFamilies(options, List.of("a", "b\0c")));
            assertThrows(NullPointerException.class, () -> db.createColumnFamilies(options, null));
            assertThrows(NullPointerException.class, () -> db.createColumnFamilies(null, List.of("a")));
            assertNull(db.columnFamily("a"));
        }
    }

    @Test
    void aTransactionDatabaseCreatesThemThroughItself() {
        try (Options options = new Options().setCreateIfMissing(true);
             TransactionDBOptions tx = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(dir, options, tx);
             WriteOptions wo = new WriteOptions()) {
            List<ColumnFamilyHandle> created = db.createColumnFamilies(options, List.of("t1", "t2"));
            try (Transaction t = db.beginTransaction(wo)) {
                for (ColumnFamilyHandle h : created) {
                    t.put(h, bytes("k"), bytes(h.name()));
                }
                t.commit();
            }
            for (ColumnFamilyHandle h : created) {
                assertEquals(h.name(), string(db.get(h, bytes("k"))));
            }
        }
    }
}
