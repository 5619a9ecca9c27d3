package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.LatestOptions;
import io.rocksffm.Options;
import io.rocksffm.RocksDB;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.UInt64AddOperator;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merges follow the engine (issue 37, case 8): a family whose options carry a merge operator
 * accepts merges however the operator got there (a Java operator inherited through
 * {@link Options#fromString}, a built-in one named in an options string, one named in the
 * options file loaded with {@link LatestOptions}); a family without one still refuses them before
 * RocksDB sees them.
 */
class EngineMergeOperatorTest {
    @TempDir
    Path dir;

    private static void mergeTwice(RocksDB db, ColumnFamilyHandle cf, String expected) {
        db.merge(cf, bytes("k"), bytes("a"));
        try (WriteBatch b = new WriteBatch(); WriteOptions wo = new WriteOptions()) {
            b.merge(cf, MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(bytes("b")));
            db.write(wo, b);
        }
        assertEquals(expected, string(db.get(cf, bytes("k"))));
    }

    @Test
    void aJavaOperatorInheritedThroughFromStringTakesMerges() {
        try (Options base = new Options().setCreateIfMissing(true).setMergeOperator(new UInt64AddOperator());
             Options o = Options.fromString(base, "max_write_buffer_number=3");
             RocksDB db = RocksDB.open(dir.resolve("db"), o)) {
            db.merge(bytes("n"), new byte[] {1, 0, 0, 0, 0, 0, 0, 0});
            db.merge(bytes("n"), new byte[] {2, 0, 0, 0, 0, 0, 0, 0});
            assertArrayEquals(new byte[] {3, 0, 0, 0, 0, 0, 0, 0}, db.get(bytes("n")));
        }
    }

    @Test
    void builtInOperatorsFromAStringOrAnOptionsFileTakeMerges() {
        Path path = dir.resolve("db");
        try (Options base = new Options().setCreateIfMissing(true);
             Options o = Options.fromString(base, "merge_operator=put");
             RocksDB db = RocksDB.open(path, o)) {
            mergeTwice(db, db.defaultColumnFamily(), "b"); // the put operator keeps the last operand
            try (Options plain = new Options()) {
                ColumnFamilyHandle none = db.createColumnFamily("none", plain);
                assertThrows(IllegalArgumentException.class, () -> db.merge(none, bytes("k"), bytes("a")));
                try (WriteBatch b = new WriteBatch(); WriteOptions wo = new WriteOptions()) {
                    b.put(MemorySegment.ofArray(bytes("p")), MemorySegment.ofArray(bytes("p")));
                    b.merge(none, MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(bytes("a")));
                    assertThrows(IllegalArgumentException.class, () -> db.write(wo, b));
                }
                assertNull(db.get(bytes("p")));
            }
            try (Options created = Options.fromString(o, "merge_operator=put")) { // created on the open database
                mergeTwice(db, db.createColumnFamily("created", created), "b");
            }
        }
        try (LatestOptions latest = LatestOptions.load(path);
             RocksDB db = RocksDB.open(path, latest.dbOptions(), latest.columnFamilies())) {
            mergeTwice(db, db.defaultColumnFamily(), "b");
            mergeTwice(db, db.columnFamily("created"), "b");
            assertThrows(IllegalArgumentException.class, () -> db.merge(db.columnFamily("none"), bytes("k"), bytes("a")));
        }
        try (LatestOptions latest = LatestOptions.load(path); TransactionDBOptions t = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(path, latest.dbOptions(), t, latest.columnFamilies())) {
            db.merge(bytes("k"), bytes("c"));
            assertEquals("c", string(db.get(bytes("k"))));
        }
    }
}
