package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.ColumnFamilyDescriptor;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Comparator;
import io.rocksffm.Database;
import io.rocksffm.KeyValueReads;
import io.rocksffm.LatestOptions;
import io.rocksffm.OptimisticTransactionDB;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.SstFileWriter;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import java.lang.foreign.ValueLayout;

/**
 * Range order follows the family's actual comparator on every surface (issue 37, case 3). A range
 * that ends before it begins in the engine's order reaches RocksDB's memtable only after it was
 * logged, and the database then refuses every later write until it is reopened; one in order must
 * be accepted. The comparator is descending here, set three ways: a Java comparator, RocksDB's
 * built-in {@code rocksdb.ReverseBytewiseComparator} through {@link Options#fromString}, and the
 * same from the database's options file ({@link LatestOptions}); and on three kinds of database.
 * After every refusal the database still takes puts and flushes.
 */
class RangeOrderTest {
    @TempDir
    Path dir;

    /** Descending bytewise order, in Java. */
    static final class Descending implements Comparator {
        @Override
        public String name() {
            return "test.Descending";
        }

        @Override
        public int compare(MemorySegment a, MemorySegment b) {
            long i = a.mismatch(b);
            if (i < 0) {
                return 0;
            }
            if (i == a.byteSize() || i == b.byteSize()) {
                return -Long.compare(a.byteSize(), b.byteSize());
            }
            return -Integer.compare(Byte.toUnsignedInt(a.getAtIndex(ValueLayout.JAVA_BYTE, i)),
                    Byte.toUnsignedInt(b.getAtIndex(ValueLayout.JAVA_BYTE, i)));
        }
    }

    /** How the descending order gets into the options. */
    enum Setup { JAVA, BUILT_IN_FROM_STRING, OPTIONS_FILE }

    enum Kind { ROCKSDB, OPTIMISTIC, PESSIMISTIC }

    private Options options(Setup setup, Path path) {
        Options base = new Options().setCreateIfMissing(true);
        if (setup == Setup.JAVA) {
            return base.setComparator(new Descending());
        }
        try (base) {
            Options reverse = Options.fromString(base, "comparator=rocksdb.ReverseBytewiseComparator");
            if (setup == Setup.BUILT_IN_FROM_STRING) {
                return reverse;
            }
            try (reverse; RocksDB created = RocksDB.open(path, reverse)) { // writes the options file
                created.put(bytes("z"), bytes("z"));
            }
            try (LatestOptions latest = LatestOptions.load(path)) { // the default family's options from the file
                Options fromFile = latest.columnFamilies().stream().filter(f -> f.name().equals("default"))
                        .findFirst().orElseThrow().options();
                return Options.fromString(fromFile, "create_if_missing=true");
            }
        }
    }

    private static void check(Database db, ColumnFamilyHandle cf,
                                                                                         String what) {
        try (WriteOptions wo = new WriteOptions()) {
            for (String k : List.of("a", "b", "c", "d", "e")) {
                db.put(cf, bytes(k), bytes(k));
            }
            MemorySegment b = MemorySegment.ofArray(bytes("b"));
            MemorySegment d = MemorySegment.ofArray(bytes("d"));
            MemorySegment e = MemorySegment.ofArray(bytes("e"));
            // transaction databases have no range deletion: refused, in a batch too, whatever the order
            boolean pessimistic = db instanceof TransactionDB;
            boolean transactional = pessimistic || db instanceof OptimisticTransactionDB;
            Class<? extends RuntimeException> refusal = transactional ? UnsupportedOperationException.class
                    : IllegalArgumentException.class;
            // [b, d) ends before it begins in descending order: refused before RocksDB sees it
            assertThrows(refusal, () -> db.deleteRange(cf, wo, b, d), what);
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(cf, MemorySegment.ofArray(bytes("x")), MemorySegment.ofArray(bytes("x")));
                batch.deleteRange(cf, b, d); // accepted by the batch, which knows no comparator
                assertThrows(refusal, () -> db.write(wo, batch), what + ": batch");
            }
            assertNull(db.get(cf, bytes("x")), what + ": nothing of the refused batch is applied");
            assertWritable(db, cf, what);
            // [d, b) and [e, d) are in order: accepted on a RocksDB
            try (WriteBatch batch = new WriteBatch()) {
                batch.deleteRange(cf, e, d);
                if (transactional) {
                    assertThrows(UnsupportedOperationException.class, () -> db.write(wo, batch), what);
                } else {
                    db.write(wo, batch);
                }
            }
            if (transactional) {
                assertThrows(UnsupportedOperationException.class, () -> db.deleteRange(cf, wo, d, b), what);
            } else {
                db.deleteRange(cf, wo, d, b);
            }
            assertWritable(db, cf, what);
            List<String> expected = transactional ? List.of("e", "d", "c", "b", "a", "w") : List.of("b", "a", "w");
            assertEquals(expected.stream().sorted(Collections.reverseOrder()).toList(), keys(db, cf), what);
        }
    }

    private static void assertWritable(Database db, ColumnFamilyHandle cf, String what) {
        db.put(cf, bytes("w"), bytes("w"));
        db.flush(cf, true);
        assertEquals("w", string(db.get(cf, bytes("w"))), what + ": still writable");
    }

    private static List<String> keys(KeyValueReads db, ColumnFamilyHandle cf) {
        List<String> out = new ArrayList<>();
        try (ReadOptions ro = new ReadOptions(); RocksIterator it = db.newIterator(cf, ro)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                String k = string(it.keyBytes());
                if (!k.equals("z")) {
                    out.add(k);
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void rangesAreCheckedInTheFamilysOrderOnEveryKindOfDatabase(Setup setup) {
        for (Kind kind : Kind.values()) {
            Path path = dir.resolve(setup + "-" + kind);
            String what = setup + " " + kind;
            try (Options o = options(setup, path)) {
                switch (kind) {
                    case ROCKSDB -> {
                        try (RocksDB db = RocksDB.open(path, o)) {
                            check(db, db.defaultColumnFamily(), what);
                        }
                    }
                    case OPTIMISTIC -> {
                        try (OptimisticTransactionDB db = OptimisticTransactionDB.open(path, o)) {
                            check(db, db.defaultColumnFamily(), what);
                        }
                    }
                    case PESSIMISTIC -> {
                        try (TransactionDBOptions t = new TransactionDBOptions(); TransactionDB db = TransactionDB.open(path, o, t)) {
                            check(db, db.defaultColumnFamily(), what);
                        }
                    }
                }
            }
        }
    }

    /** A family created descending on an open database is checked in its order; the default stays bytewise. */
    @ParameterizedTest
    @EnumSource(value = Setup.class, names = {"JAVA", "BUILT_IN_FROM_STRING"})
    void eachFamilyHasItsOwnOrder(Setup setup) {
        Path path = dir.resolve("families");
        try (Options plain = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, plain);
             Options reverse = options(setup, path)) {
            ColumnFamilyHandle cf = db.createColumnFamily("descending", reverse);
            check(db, cf, setup + " created family");
            db.deleteRange(bytes("b"), bytes("d")); // the default family is bytewise
            try (WriteBatch batch = new WriteBatch()) {
                batch.deleteRange(MemorySegment.ofArray(bytes("d")), MemorySegment.ofArray(bytes("b")));
                assertThrows(IllegalArgumentException.class, () -> db.write(WriteOptionsHolder.DEFAULT, batch));
            }
        }
        try (Options plain = new Options(); Options reverse = options(setup, dir.resolve("unused"));
             RocksDB db = RocksDB.open(path, plain, List.of(new ColumnFamilyDescriptor("descending", reverse)))) {
            ColumnFamilyHandle cf = db.columnFamily("descending");
            assertThrows(IllegalArgumentException.class, () -> db.deleteRange(cf, WriteOptionsHolder.DEFAULT,
                    MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(bytes("d"))), "reopened");
        }
    }

    /** The table file writer checks range order in its options' comparator. */
    @ParameterizedTest
    @EnumSource(Setup.class)
    void sstFileWriterRangesFollowTheOptionsComparator(Setup setup) {
        try (Options o = options(setup, dir.resolve("sst-db")); SstFileWriter w = SstFileWriter.open(o, dir.resolve("x.sst"))) {
            assertThrows(IllegalArgumentException.class, () -> w.deleteRange(bytes("b"), bytes("d")));
            w.deleteRange(bytes("d"), bytes("b"));
            w.finish();
        }
    }

    /** Shared write options for lambdas. */
    private static final class WriteOptionsHolder {
        static final WriteOptions DEFAULT = new WriteOptions();
    }
}
