package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Options#setMergeOperatorName}: the engine's own merge operators by name, on every engine;
 * each gives what RocksDB's operator of that name computes (a model of its C++ code, and on the
 * rocksdbjni engine rocksdbjni's {@code setMergeOperatorName} on the same library); an unknown
 * name is refused when set.
 */
class MergeOperatorNameTest {
    @TempDir
    Path dir;

    private static byte[] u64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static byte[] xor(byte[] a, byte[] b) {
        byte[] out = (a.length >= b.length ? a : b).clone();
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }

    /** One operator: its name, an existing value (or null), operands, and the model of its merge. */
    private record Case(String name, byte[] existing, List<byte[]> operands, BinaryOperator<byte[]> model) {
        byte[] expected() {
            byte[] acc = existing;
            for (byte[] op : operands) {
                acc = acc == null ? op : model.apply(acc, op);
            }
            return acc;
        }
    }

    private static List<Case> cases() {
        BinaryOperator<byte[]> sum = (a, b) -> u64(ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).getLong()
                + ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong());
        BinaryOperator<byte[]> append = (a, b) -> bytes(string(a) + "," + string(b));
        BinaryOperator<byte[]> max = (a, b) -> java.util.Arrays.compareUnsigned(a, b) >= 0 ? a : b; // fully qualified: one use
        BinaryOperator<byte[]> last = (a, b) -> b;
        List<Case> cases = new ArrayList<>();
        for (String n : List.of("uint64add", "UInt64AddOperator")) {
            cases.add(new Case(n, u64(40), List.of(u64(1), u64(-3), u64(Long.MAX_VALUE)), sum));
        }
        for (String n : List.of("stringappend", "StringAppendOperator", "stringappendtest", "StringAppendTESTOperator")) {
            cases.add(new Case(n, bytes("a"), List.of(bytes("b"), bytes(""), bytes("c")), append));
        }
        for (String n : List.of("max", "MaxOperator")) {
            cases.add(new Case(n, bytes("m"), List.of(bytes("b"), bytes("zz"), bytes("z"), new byte[] {(byte) 0xff}), max));
        }
        for (String n : List.of("put", "PutOperator", "put_v1")) {
            cases.add(new Case(n, bytes("old"), List.of(bytes("x"), bytes("y")), last));
        }
        for (String n : List.of("bytesxor", "BytesXOR")) {
            cases.add(new Case(n, new byte[] {1, 2, 3}, List.of(new byte[] {(byte) 0xf0}, new byte[] {7, 7, 7, 7}), MergeOperatorNameTest::xor));
        }
        return cases;
    }

    private byte[] mergeWithRocksffm(Case c, boolean flush) {
        Path path = dir.resolve("ffm-" + c.name() + flush);
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperatorName(c.name());
             RocksDB db = RocksDB.open(path, o)) {
            if (c.existing() != null) {
                db.put(bytes("k"), c.existing());
            }
            for (byte[] op : c.operands()) {
                db.merge(bytes("k"), op);
                if (flush) {
                    db.flush(true);
                }
            }
            if (flush) {
                db.compactRange();
            }
            return db.get(bytes("k"));
        }
    }

    @Test
    void everyBuiltInNameMergesAsRocksDBsOperatorDoes() {
        for (Case c : cases()) {
            assertArrayEquals(c.expected(), mergeWithRocksffm(c, false), c.name());
            if (Character.isLowerCase(c.name().charAt(0))) { // the short names: also through flushes and a compaction
                assertArrayEquals(c.expected(), mergeWithRocksffm(c, true), c.name() + " after flushes and compaction");
            }
        }
    }

    @Test
    void rocksdbjniGivesTheSameResultsOnTheSameEngine() throws Exception {
        if (!"rocksdbjni".equals(RocksDB.engine().source())) {
            return; // rocksdbjni's Java API is on the class path only with its engine
        }
        org.rocksdb.RocksDB.loadLibrary(); // fully qualified: rocksdbjni's RocksDB beside ours
        for (Case c : cases()) {
            try (org.rocksdb.Options o = new org.rocksdb.Options().setCreateIfMissing(true) // fully qualified: as above
                    .setMergeOperatorName(c.name());
                 org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(o, dir.resolve("jni-" + c.name()).toString())) { // fully qualified: as above
                if (c.existing() != null) {
                    db.put(bytes("k"), c.existing());
                }
                for (byte[] op : c.operands()) {
                    db.merge(bytes("k"), op);
                }
                assertArrayEquals(db.get(bytes("k")), mergeWithRocksffm(c, false), c.name());
            }
        }
    }

    @Test
    void anUnknownNameIsRefusedWhenSetNamingTheKnownOnes() {
        try (Options o = new Options().setCreateIfMissing(true)) {
            for (String bad : List.of("nosuch", "uint64Add", "", "uint64add;max_open_files=1", "{id=put}", "put=1")) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.setMergeOperatorName(bad));
                assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
                assertTrue(e.getMessage().contains("uint64add") && e.getMessage().contains("stringappend"), e.getMessage());
            }
            assertThrows(NullPointerException.class, () -> o.setMergeOperatorName(null));
            // nothing was set: a merge is refused before RocksDB sees it
            try (RocksDB db = RocksDB.open(dir.resolve("none"), o)) {
                assertThrows(IllegalArgumentException.class, () -> db.merge(bytes("k"), bytes("v")));
            }
        }
        assertEquals(DerivedOptions.BUILT_IN_MERGE_OPERATORS, DerivedOptions.knownMergeOperators(),
                "every supported engine registers RocksDB's built-in merge operators");
    }

    @Test
    void aNameReplacesAJavaOperatorAndTheOtherWayRound() {
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(new StringAppendOperator("+"))) {
            assertSame(o, o.setMergeOperatorName("uint64add"));
            assertNull(o.mergeOperator());
            try (RocksDB db = RocksDB.open(dir.resolve("named"), o)) {
                db.merge(bytes("k"), u64(2));
                db.merge(bytes("k"), u64(3));
                assertArrayEquals(u64(5), db.get(bytes("k")));
            }
            o.setMergeOperator(new StringAppendOperator("+"));
            try (RocksDB db = RocksDB.open(dir.resolve("java"), o)) {
                db.merge(bytes("k"), bytes("a"));
                db.merge(bytes("k"), bytes("b"));
                assertEquals("a+b", string(db.get(bytes("k"))));
            }
        }
    }

    @Test
    void aFamilyCreatedWithANamedOperatorTakesMerges() {
        try (Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("families"), o);
             Options named = new Options().setMergeOperatorName("stringappend")) {
            ColumnFamilyHandle cf = db.createColumnFamily("appended", named);
            db.merge(cf, bytes("k"), bytes("a"));
            db.merge(cf, bytes("k"), bytes("b"));
            assertEquals("a,b", string(db.get(cf, bytes("k"))));
            assertThrows(IllegalArgumentException.class, () -> db.merge(bytes("k"), bytes("a")));
        }
    }

    @Test
    void closedOptionsRefuse() {
        Options o = new Options();
        o.close();
        assertThrows(IllegalStateException.class, () -> o.setMergeOperatorName("put"));
    }
}
