package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.internal.capi.RocksDBC.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import io.rocksffm.reliability.Reliability;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WriteBatchTest {
    @TempDir
    Path dir;

    /** Random key or value: often empty or tiny, sometimes large, always arbitrary bytes. */
    private static byte[] randomBytes(Random r) {
        int n = switch (r.nextInt(10)) {
            case 0 -> 0;
            case 1 -> 128 + r.nextInt(200);       // two-byte varint lengths
            case 2 -> 16_384 + r.nextInt(50_000); // three-byte varint lengths
            default -> 1 + r.nextInt(40);
        };
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static byte[] nativeBytes(MemorySegment nativeBatch, Arena arena) {
        MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
        MemorySegment rep = rocksdb_writebatch_data(nativeBatch, size);
        return rep.reinterpret(size.get(ValueLayout.JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE);
    }

    /** The bytes rocksffm encodes equal, byte for byte, those of RocksDB's per-operation C calls. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void encodingEqualsTheCApi(long seed) {
        Random r = new Random(seed);
        RocksDB.engine();
        try (Arena arena = Arena.ofConfined(); WriteBatch batch = new WriteBatch(r.nextInt(64))) {
            MemorySegment nb = rocksdb_writebatch_create();
            try {
                int ops = 1 + r.nextInt(300);
                for (int i = 0; i < ops; i++) {
                    byte[] k = randomBytes(r);
                    byte[] v = randomBytes(r);
                    MemorySegment nk = arena.allocateFrom(ValueLayout.JAVA_BYTE, k);
                    MemorySegment nv = arena.allocateFrom(ValueLayout.JAVA_BYTE, v);
                    boolean segments = r.nextBoolean();
                    switch (r.nextInt(5)) {
                        case 0 -> {
                            if (segments) batch.put(nk, nv); else batch.put(k, v);
                            rocksdb_writebatch_put(nb, nk, k.length, nv, v.length);
                        }
                        case 1 -> {
                            if (segments) batch.delete(nk); else batch.delete(k);
                            rocksdb_writebatch_delete(nb, nk, k.length);
                        }
                        case 2 -> {
                            if (segments) batch.singleDelete(nk); else batch.singleDelete(k);
                            rocksdb_writebatch_singledelete(nb, nk, k.length);
                        }
                        case 3 -> {
                            if (Arrays.compareUnsigned(k, v) > 0) {
                                MemorySegment t = nk; nk = nv; nv = t;
                                byte[] tb = k; k = v; v = tb;
                            }
                            if (segments) batch.deleteRange(nk, nv); else batch.deleteRange(k, v);
                            rocksdb_writebatch_delete_range(nb, nk, k.length, nv, v.length);
                        }
                        default -> {
                            if (segments) batch.merge(nk, nv); else batch.merge(k, v);
                            rocksdb_writebatch_merge(nb, nk, k.length, nv, v.length);
                        }
                    }
                }
                byte[] expected = nativeBytes(nb, arena);
                assertArrayEquals(expected, batch.data().toArray(ValueLayout.JAVA_BYTE), "seed " + seed);
                assertEquals(rocksdb_writebatch_count(nb), batch.count());
                assertEquals(expected.length, batch.dataSize());
                try (NativeWriteBatch copy = batch.toNative()) {
                    assertEquals(ops, copy.count());
                    assertArrayEquals(expected, nativeBytes(copy.handle(), arena));
                }
                try (WriteBatch back = WriteBatch.fromNative(nb)) {
                    assertArrayEquals(expected, back.data().toArray(ValueLayout.JAVA_BYTE));
                    assertEquals(ops, back.count());
                }
            } finally {
                rocksdb_writebatch_destroy(nb);
            }
        }
    }

    /** Writing a batch gives the same database as the same operations made one by one. */
    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void writtenBatchEqualsPerOperationWrites(long seed) {
        Random r = new Random(seed);
        try (RocksDB viaBatch = open(dir.resolve("batch")); RocksDB viaOps = open(dir.resolve("ops"));
             WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch(16)) {
            TreeMap<String, String> model = new TreeMap<>();
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 200; i++) {
                    String k = String.format("k%03d", r.nextInt(300));
                    String v = "v" + r.nextInt(1_000_000);
                    switch (r.nextInt(6)) {
                        case 0 -> {
                            batch.delete(bytes(k));
                            viaOps.delete(bytes(k));
                            model.remove(k);
                        }
                        case 1 -> {
                            String end = String.format("k%03d", r.nextInt(300));
                            if (end.compareTo(k) < 0) {
                                continue;
                            }
                            batch.deleteRange(bytes(k), bytes(end));
                            viaOps.deleteRange(bytes(k), bytes(end));
                            model.subMap(k, end).clear();
                        }
                        default -> {
                            batch.put(bytes(k), bytes(v));
                            viaOps.put(bytes(k), bytes(v));
                            model.put(k, v);
                        }
                    }
                }
                viaBatch.write(wo, batch);
                batch.clear();
            }
            for (int i = 0; i < 300; i++) {
                String k = String.format("k%03d", i);
                assertEquals(model.get(k), string(viaBatch.get(bytes(k))), k);
                assertEquals(model.get(k), string(viaOps.get(bytes(k))), k);
            }
        }
    }

    /** A log-data record that fills the buffer exactly fits without growing; one byte more grows it. */
    @Test
    void logDataFillingTheBufferExactlyDoesNotGrowIt() {
        // header 12 + tag 1 + length 1 + blob 50 = 64
        byte[] blob = new byte[50];
        Arrays.fill(blob, (byte) 7);
        try (WriteBatch exact = new WriteBatch(64); WriteBatch over = new WriteBatch(64)) {
            exact.putLogData(blob);
            assertEquals(64, exact.dataSize());
            assertEquals(64, exact.capacity(), "grew though the record fitted");
            List<byte[]> seen = new ArrayList<>();
            exact.iterate(new WriteBatch.Handler() {
                @Override
                public void logData(MemorySegment b) {
                    seen.add(b.toArray(ValueLayout.JAVA_BYTE));
                }
            });
            assertEquals(1, seen.size());
            assertArrayEquals(blob, seen.get(0));

            over.putLogData(new byte[51]);
            assertEquals(65, over.dataSize());
            assertTrue(over.capacity() >= 65, "capacity " + over.capacity());
        }
    }

    @Test
    void growsFromTinyToManyMegabytesAndKeepsCapacityAfterClear() {
        byte[] value = new byte[1000];
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch(0)) {
            assertEquals(12, batch.capacity());
            for (int i = 0; i < 10_000; i++) {
                Arrays.fill(value, (byte) i);
                batch.put(bytes("key" + i), value);
            }
            assertEquals(10_000, batch.count());
            assertTrue(batch.dataSize() > 10_000_000, "data size " + batch.dataSize());
            long capacity = batch.capacity();
            assertTrue(capacity >= batch.dataSize());
            db.write(wo, batch);
            byte[] expected = new byte[1000];
            Arrays.fill(expected, (byte) 9_999);
            assertArrayEquals(expected, db.get(bytes("key9999")));

            batch.clear();
            assertEquals(0, batch.count());
            assertEquals(12, batch.dataSize());
            assertEquals(capacity, batch.capacity(), "clear keeps the buffer");
            batch.put(bytes("after-clear"), bytes("x"));
            db.write(wo, batch);
            assertEquals(capacity, batch.capacity());
            assertEquals("x", string(db.get(bytes("after-clear"))));
        }
    }

    @Test
    void failedWriteAppliesNothingAndLeavesBatchUsable() {
        try (RocksDB db = open(dir)) {
            db.put(bytes("existing"), bytes("1"));
        }
        try (Options o = new Options(); RocksDB ro = RocksDB.openReadOnly(dir, o);
             WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("a"), bytes("b")).delete(bytes("existing"));
            for (int i = 0; i < 1000; i++) { // repeated failures must not leak or corrupt
                RocksDBException e = assertThrows(RocksDBException.class, () -> ro.write(wo, batch));
                assertEquals(RocksDBException.Code.NOT_SUPPORTED, e.code(), e.getMessage());
            }
            assertEquals(2, batch.count());
            assertEquals("1", string(ro.get(bytes("existing"))));
        }
        // RocksDB checks a range's order only while applying a batch, after the records before it
        // were applied: so the database refuses a batch with an inverted range (in the target
        // family's order; bytewise here) before anything is applied.
        try (RocksDB db = open(dir.resolve("ranges")); WriteOptions wo = new WriteOptions()) {
            for (byte[][] range : new byte[][][] {{bytes("z"), bytes("a")}, {bytes("ab"), bytes("a")},
                    {new byte[] {(byte) 0x80}, new byte[] {0x7f}}}) {
                try (WriteBatch batch = new WriteBatch()) {
                    batch.put(bytes("a"), bytes("b")).deleteRange(range[0], range[1]);
                    assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch));
                }
                assertNull(db.get(bytes("a")));
            }
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(bytes("a"), bytes("b"));
                batch.deleteRange(bytes("a"), bytes("a")).deleteRange(bytes("a"), bytes("ab"));
                assertEquals(3, batch.count());
                db.write(wo, batch);
            }
            assertNull(db.get(bytes("a")));
            db.put(bytes("writable"), bytes("yes"));
        }
    }

    @Test
    void sameBatchWrittenToSeveralDatabases() {
        try (RocksDB a = open(dir.resolve("a")); RocksDB b = open(dir.resolve("b"));
             WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("k"), bytes("v"));
            a.write(wo, batch);
            b.write(wo, batch);
            assertEquals("v", string(a.get(bytes("k"))));
            assertEquals("v", string(b.get(bytes("k"))));
        }
    }

    @Test
    void fromBytesValidates() {
        try (WriteBatch good = new WriteBatch()) {
            good.put(bytes("k"), bytes("v")).delete(bytes("d")).merge(bytes("m"), bytes("1"));
            byte[] data = good.data().toArray(ValueLayout.JAVA_BYTE);
            try (WriteBatch copy = WriteBatch.fromBytes(MemorySegment.ofArray(data))) {
                assertEquals(3, copy.count());
                assertArrayEquals(data, copy.data().toArray(ValueLayout.JAVA_BYTE));
            }
            // every truncation is rejected, never read past the end
            for (int n = 0; n < data.length; n++) {
                byte[] cut = Arrays.copyOf(data, n);
                assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.ofArray(cut)), "length " + n);
            }
            byte[] badCount = data.clone();
            badCount[8] = 7;
            assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.ofArray(badCount)));
            byte[] badTag = data.clone();
            badTag[12] = 0x42;
            assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.ofArray(badTag)));
            byte[] badVarint = data.clone();
            badVarint[13] = (byte) 0xFF;
            assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.ofArray(badVarint)));
        }
        assertThrows(NullPointerException.class, () -> WriteBatch.fromBytes(null));
        assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromNative(MemorySegment.NULL));
    }

    @Test
    void badInputIsRejectedBeforeAnythingIsWritten() {
        try (WriteBatch batch = new WriteBatch()) {
            assertThrows(NullPointerException.class, () -> batch.put((byte[]) null, bytes("v")));
            assertThrows(NullPointerException.class, () -> batch.put(MemorySegment.ofArray(bytes("k")), null));
            assertThrows(NullPointerException.class, () -> batch.delete((MemorySegment) null));
            assertThrows(NullPointerException.class, () -> batch.deleteRange(bytes("a"), null));
            // a key longer than a varint32 length can describe (never read: rejected up front)
            MemorySegment huge = MemorySegment.NULL.reinterpret(5L << 30);
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> batch.put(huge, MemorySegment.ofArray(bytes("v")))).getMessage().startsWith("key of "));
            assertTrue(assertThrows(IllegalArgumentException.class,
                    () -> batch.put(MemorySegment.ofArray(bytes("k")), huge)).getMessage().startsWith("value of "));
            assertEquals(0, batch.count());
            assertEquals(12, batch.dataSize());
        }
        assertThrows(IllegalArgumentException.class, () -> new WriteBatch(-1));
    }

    @Test
    void useAfterCloseThrowsIllegalState() {
        WriteBatch batch = new WriteBatch();
        batch.put(bytes("k"), bytes("v"));
        MemorySegment view = batch.data();
        assertFalse(batch.isClosed());
        batch.close();
        batch.close();
        assertTrue(batch.isClosed());
        assertThrows(IllegalStateException.class, () -> view.get(ValueLayout.JAVA_BYTE, 0));
        // the batch's own refusal, naming it, not the freed memory's
        for (Executable call : List.<Executable>of(() -> batch.put(bytes("k"), bytes("v")),
                () -> batch.put(bytes("k"), new byte[1 << 16]), batch::count, batch::dataSize, batch::capacity,
                batch::clear, batch::data, batch::toNative, () -> batch.putLogData(bytes("blob")),
                () -> batch.iterate(new WriteBatch.Handler() {}))) {
            IllegalStateException e = assertThrows(IllegalStateException.class, call);
            assertEquals("WriteBatch is closed", e.getMessage());
        }
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions()) {
            assertEquals("WriteBatch is closed",
                    assertThrows(IllegalStateException.class, () -> db.write(wo, batch)).getMessage());
        }
    }

    /** Growing frees the buffer it replaces: batches grown to megabytes and closed leave malloc flat. */
    @Test
    void growingFreesTheBufferItReplaces() {
        Assumptions.assumeTrue(Reliability.mallocInUse() >= 0, "mallinfo2 is glibc's");
        byte[] value = new byte[64 << 10];
        long before = Reliability.mallocInUse();
        for (int round = 0; round < 8; round++) {
            try (WriteBatch batch = new WriteBatch(16)) {
                for (int i = 0; i < 128; i++) { // 8 MiB, from 16 bytes by doubling
                    batch.put(bytes("k"), value);
                }
            }
        }
        long grown = Reliability.mallocInUse() - before;
        assertTrue(grown < (16L << 20), "8 batches grown to 8 MiB: malloc grew by " + grown);
    }

    /** Handles must be open and of one database: the batch's records name that database's families. */
    @Test
    void familyHandlesMustBeOpenAndOfOneDatabase() {
        try (Options o = new Options().setCreateIfMissing(true); RocksDB a = RocksDB.open(dir.resolve("a"), o);
             RocksDB b = RocksDB.open(dir.resolve("b"), o); WriteOptions wo = new WriteOptions();
             WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle ofA = a.createColumnFamily("f", o);
            ColumnFamilyHandle ofB = b.createColumnFamily("f", o);
            assertEquals(ofA.id(), ofB.id(), "the same id in both");
            batch.put(ofA, bytes("k"), bytes("a"));
            IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class,
                    () -> batch.put(ofB, bytes("k"), bytes("b")));
            assertTrue(mixed.getMessage().contains("another database"), mixed.getMessage());
            assertEquals(1, batch.count());
            IllegalArgumentException elsewhere = assertThrows(IllegalArgumentException.class, () -> b.write(wo, batch));
            assertTrue(elsewhere.getMessage().contains("another database"), elsewhere.getMessage());
            assertNull(b.get(ofB, bytes("k")));
            a.write(wo, batch);
            assertEquals("a", string(a.get(ofA, bytes("k"))));
            batch.clear().put(ofB, bytes("k"), bytes("b")); // clear forgets the database
            b.write(wo, batch);
            assertEquals("b", string(b.get(ofB, bytes("k"))));
            a.dropColumnFamily(ofA);
            assertThrows(IllegalStateException.class, () -> batch.put(ofA, bytes("k"), bytes("x")), "a dropped family");
            assertEquals(1, batch.count());
        }
    }

    /** The refusal names what is over the limit: a key at the limit with a value over it is the value's fault. */
    @Test
    void aRefusalNamesTheSliceOverTheLimit() {
        try (WriteBatch batch = new WriteBatch()) {
            MemorySegment atLimit = MemorySegment.NULL.reinterpret(0xFFFF_FFFFL); // never read: refused up front
            MemorySegment overLimit = MemorySegment.NULL.reinterpret(0x1_0000_0000L);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> batch.put(atLimit, overLimit));
            assertTrue(e.getMessage().startsWith("value of 4294967296 bytes"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> batch.put(overLimit, atLimit));
            assertTrue(e.getMessage().startsWith("key of 4294967296 bytes"), e.getMessage());
            assertEquals(0, batch.count());
        }
    }

    /**
     * A record that fills the buffer to the byte does not grow it, and one byte less does: the
     * room {@code reserve} computes is exactly the record RocksDB's C API encodes (tag, family id,
     * key and value lengths at each 7-bit boundary).
     */
    @Test
    void aRecordFillingTheBufferExactlyFitsWithoutGrowth() {
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, o);
             Arena arena = Arena.ofConfined()) {
            ColumnFamilyHandle family = db.createColumnFamily("f", o);
            for (int klen : new int[] {0, 1, 0x7F, 0x80, 0x3FFF, 0x4000}) {
                for (int vlen : new int[] {-1, 0, 0x7F, 0x80, 0x3FFF, 0x4000}) { // -1: a delete
                    for (boolean inFamily : new boolean[] {false, true}) {
                        byte[] key = new byte[klen];
                        Arrays.fill(key, (byte) 'k');
                        byte[] value = vlen < 0 ? null : new byte[vlen];
                        MemorySegment nk = arena.allocateFrom(ValueLayout.JAVA_BYTE, key);
                        MemorySegment nb = rocksdb_writebatch_create();
                        byte[] expected;
                        try {
                            if (value == null && inFamily) {
                                rocksdb_writebatch_delete_cf(nb, family.ptr, nk, klen);
                            } else if (value == null) {
                                rocksdb_writebatch_delete(nb, nk, klen);
                            } else if (inFamily) {
                                rocksdb_writebatch_put_cf(nb, family.ptr, nk, klen, arena.allocate(vlen + 1), vlen);
                            } else {
                                rocksdb_writebatch_put(nb, nk, klen, arena.allocate(vlen + 1), vlen);
                            }
                            expected = nativeBytes(nb, arena);
                        } finally {
                            rocksdb_writebatch_destroy(nb);
                        }
                        String what = (inFamily ? "family " : "default ") + klen + "/" + vlen;
                        for (int spare : new int[] {0, -1}) {
                            try (WriteBatch batch = new WriteBatch(expected.length + spare)) {
                                if (value == null) {
                                    if (inFamily) batch.delete(family, key); else batch.delete(key);
                                } else {
                                    if (inFamily) batch.put(family, key, value); else batch.put(key, value);
                                }
                                if (spare == 0) {
                                    assertEquals(expected.length, batch.capacity(), what + ": grew though it fitted");
                                } else {
                                    assertTrue(batch.capacity() >= expected.length, what);
                                }
                                assertArrayEquals(expected, batch.data().toArray(ValueLayout.JAVA_BYTE), what);
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * Records of every type in a family, copied through their bytes, apply as the original batch;
     * a copied merge for a family without a merge operator, a copied range that ends before it
     * begins, and a copied record for a family the database lacks are refused before anything
     * is applied, as the original's would be.
     */
    @Test
    void copiedFamilyRecordsApplyAndAreCheckedAsTheOriginals() {
        try (Options plain = new Options().setCreateIfMissing(true);
             Options merging = new Options().setMergeOperator(new StringAppendOperator());
             RocksDB db = RocksDB.open(dir, plain); WriteOptions wo = new WriteOptions()) {
            ColumnFamilyHandle noMerge = db.createColumnFamily("plain", plain);
            ColumnFamilyHandle withMerge = db.createColumnFamily("merging", merging);
            try (WriteBatch batch = new WriteBatch()) {
                batch.put(noMerge, bytes("a"), bytes("1")).put(noMerge, bytes("b"), bytes("2"))
                        .put(noMerge, bytes("c"), bytes("3")).singleDelete(noMerge, bytes("a"))
                        .deleteRange(noMerge, bytes("b"), bytes("c")).merge(withMerge, bytes("m"), bytes("x"))
                        .merge(withMerge, bytes("m"), bytes("y")).put(withMerge, bytes("gone"), bytes("g"))
                        .delete(withMerge, bytes("gone")).put(bytes("d"), bytes("default"));
                try (WriteBatch copy = WriteBatch.fromBytes(batch.data())) {
                    assertEquals(batch.count(), copy.count());
                    db.write(wo, copy);
                }
            }
            assertNull(db.get(noMerge, bytes("a")), "single-deleted");
            assertNull(db.get(noMerge, bytes("b")), "range-deleted");
            assertEquals("3", string(db.get(noMerge, bytes("c"))));
            assertEquals("x,y", string(db.get(withMerge, bytes("m"))));
            assertNull(db.get(withMerge, bytes("gone")));
            assertEquals("default", string(db.get(bytes("d"))));

            try (WriteBatch batch = new WriteBatch()) {
                batch.put(noMerge, bytes("before"), bytes("1")).merge(noMerge, bytes("m"), bytes("1"));
                assertRefusedCopy(db, wo, batch.data(), "has no merge operator");
                batch.clear().put(noMerge, bytes("before"), bytes("1")).deleteRange(noMerge, bytes("z"), bytes("a"));
                assertRefusedCopy(db, wo, batch.data(), "ends before it begins");
                batch.clear().put(noMerge, bytes("before"), bytes("1")).merge(bytes("m"), bytes("1"));
                assertRefusedCopy(db, wo, batch.data(), "has no merge operator");
                batch.clear().put(bytes("before"), bytes("1")).deleteRange(bytes("z"), bytes("a"));
                assertRefusedCopy(db, wo, batch.data(), "ends before it begins");
                batch.clear().put(noMerge, bytes("before"), bytes("1"));
                byte[] unknown = batch.data().toArray(ValueLayout.JAVA_BYTE);
                assertEquals(noMerge.id(), unknown[13], "the family id follows the tag");
                unknown[13] = 99;
                assertRefusedCopy(db, wo, MemorySegment.ofArray(unknown), "does not have");
            }
            assertNull(db.get(noMerge, bytes("before")), "nothing of a refused batch was applied");
            assertNull(db.get(bytes("before")), "nothing of a refused batch was applied");
            db.put(bytes("writable"), bytes("yes"));
        }
    }

    private static void assertRefusedCopy(RocksDB db, WriteOptions wo, MemorySegment data, String why) {
        try (WriteBatch copy = WriteBatch.fromBytes(data)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> db.write(wo, copy));
            assertTrue(e.getMessage().contains(why), e.getMessage());
        }
    }

    /**
     * RocksDB reads a length of up to five varint bytes, even a small one: such a batch is
     * accepted and RocksDB applies it as meant. The copy's header has no sequence number.
     */
    @Test
    void aCopiedBatchWithFiveByteLengthsIsWhatRocksDBReads() {
        byte[] data = {7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, // sequence 7, one record
            1, (byte) 0x81, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x00, 'k', (byte) 0x82, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, 0x00, 'v', 'w'};
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions();
             WriteBatch copy = WriteBatch.fromBytes(MemorySegment.ofArray(data))) {
            assertEquals(1, copy.count());
            assertEquals(data.length, copy.dataSize());
            assertEquals(0, copy.data().get(ValueLayout.JAVA_LONG_UNALIGNED, 0), "RocksDB assigns the sequence");
            db.write(wo, copy);
            assertEquals("vw", string(db.get(bytes("k"))));
        }
    }

    /** An empty batch is the header alone: copied, it holds nothing and writes nothing. */
    @Test
    void anEmptyCopyIsAnEmptyBatch() {
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions(); WriteBatch empty = new WriteBatch();
             WriteBatch copy = WriteBatch.fromBytes(empty.data())) {
            assertEquals(0, copy.count());
            assertEquals(12, copy.dataSize());
            db.write(wo, copy);
            copy.put(bytes("k"), bytes("v"));
            db.write(wo, copy);
            assertEquals("v", string(db.get(bytes("k"))));
        }
    }

    /** Every operation returns the batch itself, so calls chain. */
    @Test
    void everyOperationReturnsTheBatch() {
        try (RocksDB db = open(dir); WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle d = db.defaultColumnFamily();
            MemorySegment k = MemorySegment.ofArray(bytes("k"));
            MemorySegment v = MemorySegment.ofArray(bytes("v"));
            for (WriteBatch returned : List.of(batch.put(k, v), batch.put(bytes("k"), bytes("v")), batch.put(d, k, v),
                    batch.put(d, bytes("k"), bytes("v")), batch.delete(k), batch.delete(bytes("k")), batch.delete(d, k),
                    batch.delete(d, bytes("k")), batch.singleDelete(k), batch.singleDelete(bytes("k")),
                    batch.singleDelete(d, k), batch.singleDelete(d, bytes("k")), batch.deleteRange(k, v),
                    batch.deleteRange(bytes("k"), bytes("v")), batch.deleteRange(d, k, v),
                    batch.deleteRange(d, bytes("k"), bytes("v")), batch.merge(k, v), batch.merge(bytes("k"), bytes("v")),
                    batch.merge(d, k, v), batch.merge(d, bytes("k"), bytes("v")), batch.clear())) {
                assertSame(batch, returned);
            }
        }
    }

    /**
     * A batch built with family handles is checked when written, as a copy of its bytes is: a
     * merge for a family without a merge operator, a range that ends before it begins in its
     * family, and a family dropped since are refused before anything is applied.
     */
    @Test
    void familyRecordsAreCheckedWhenWritten() {
        try (Options plain = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir, plain);
             WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle family = db.createColumnFamily("plain", plain);
            ColumnFamilyHandle dropped = db.createColumnFamily("dropped", plain);
            batch.put(family, bytes("before"), bytes("1")).merge(family, bytes("m"), bytes("1"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("has no merge operator"));
            batch.clear().put(family, bytes("before"), bytes("1")).merge(bytes("m"), bytes("1"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("has no merge operator"));
            batch.clear().put(family, bytes("before"), bytes("1")).deleteRange(family, bytes("z"), bytes("a"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("ends before it begins"));
            batch.clear().put(bytes("before"), bytes("1")).deleteRange(bytes("z"), bytes("a"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("ends before it begins"));
            batch.clear().put(family, bytes("before"), bytes("1")).put(dropped, bytes("k"), bytes("v"));
            db.dropColumnFamily(dropped);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("does not have"));
            assertNull(db.get(family, bytes("before")), "nothing of a refused batch was applied");
            assertNull(db.get(bytes("before")), "nothing of a refused batch was applied");
            batch.clear().put(family, bytes("after"), bytes("2")).deleteRange(family, bytes("x"), bytes("y"));
            db.write(wo, batch);
            assertEquals("2", string(db.get(family, bytes("after"))));
        }
    }

    /**
     * The native copy a write makes is freed, also when the write fails: a large batch refused by
     * a read-only database again and again (so that no memtable grows) keeps malloc flat.
     */
    @Test
    void writingABatchLeavesNoNativeCopyBehind() {
        Assumptions.assumeTrue(Reliability.mallocInUse() >= 0, "mallinfo2 is glibc's");
        open(dir).close();
        try (Options o = new Options(); RocksDB ro = RocksDB.openReadOnly(dir, o); WriteOptions wo = new WriteOptions();
             WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("k"), new byte[1 << 20]);
            assertThrows(RocksDBException.class, () -> ro.write(wo, batch));
            long before = Reliability.mallocInUse();
            for (int i = 0; i < 100; i++) {
                assertThrows(RocksDBException.class, () -> ro.write(wo, batch));
            }
            long grown = Reliability.mallocInUse() - before;
            assertTrue(grown < (32L << 20), "100 refused writes of a 1 MiB batch: malloc grew by " + grown);
        }
    }

    /** The native batch {@code toNative} makes holds the count even before {@code data()} was asked for. */
    @Test
    void toNativeCarriesTheCountWithoutDataFirst() {
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("a"), bytes("1")).delete(bytes("b"));
            try (NativeWriteBatch copy = batch.toNative()) {
                assertEquals(2, copy.count());
            }
        }
    }

    /** Copied records for a family with user-defined timestamps are refused as the original's are. */
    @Test
    void copiedRecordsForATimestampedFamilyAreRefused() {
        try (RocksDB db = open(dir); Options withTs = new Options().setComparator(TimestampedComparator.bytewiseU64());
             WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle versions = db.createColumnFamily("versions", withTs);
            batch.put(bytes("plain"), bytes("v")).put(versions, bytes("k"), bytes("v"));
            assertRefusedCopy(db, wo, batch.data(), "user-defined timestamps");
            assertNull(db.get(bytes("plain")), "nothing of the refused batch was applied");
            batch.clear().put(bytes("plain"), bytes("v"));
            try (WriteBatch copy = WriteBatch.fromBytes(batch.data())) {
                db.write(wo, copy);
            }
            assertEquals("v", string(db.get(bytes("plain"))));
        }
    }

    /**
     * Log data is encoded as RocksDB's {@code PutLogData} encodes it (byte for byte, among other
     * records), is not counted, survives {@code fromBytes}/{@code fromNative}, and a save point
     * rolls it back like any record.
     */
    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void logDataEncodesAsTheCApiAndIsNotCounted(long seed) {
        Random r = new Random(seed);
        RocksDB.engine();
        try (Arena arena = Arena.ofConfined(); WriteBatch batch = new WriteBatch(r.nextInt(64))) {
            MemorySegment nb = rocksdb_writebatch_create();
            try {
                int ops = 0;
                int blobs = 0;
                for (int i = 0; i < 200; i++) {
                    byte[] k = randomBytes(r);
                    MemorySegment nk = arena.allocateFrom(ValueLayout.JAVA_BYTE, k);
                    if (r.nextInt(3) == 0) {
                        if (r.nextBoolean()) batch.putLogData(nk); else batch.putLogData(k);
                        rocksdb_writebatch_put_log_data(nb, nk, k.length);
                        blobs++;
                    } else {
                        batch.put(k, k);
                        rocksdb_writebatch_put(nb, nk, k.length, nk, k.length);
                        ops++;
                    }
                }
                assertTrue(blobs > 0);
                byte[] expected = nativeBytes(nb, arena);
                assertArrayEquals(expected, batch.data().toArray(ValueLayout.JAVA_BYTE), "seed " + seed);
                assertEquals(ops, batch.count());
                assertEquals(rocksdb_writebatch_count(nb), batch.count());
                try (WriteBatch back = WriteBatch.fromNative(nb);
                     WriteBatch again = WriteBatch.fromBytes(batch.data())) {
                    assertArrayEquals(expected, back.data().toArray(ValueLayout.JAVA_BYTE));
                    assertEquals(ops, back.count());
                    assertEquals(ops, again.count());
                }
                byte[] before = batch.data().toArray(ValueLayout.JAVA_BYTE);
                batch.setSavePoint().putLogData(randomBytes(r)).put(bytes("k"), bytes("v")).putLogData(new byte[0]);
                assertEquals(ops + 1, batch.count());
                batch.rollbackToSavePoint();
                assertThrows(NullPointerException.class, () -> batch.putLogData((byte[]) null));
                assertThrows(NullPointerException.class, () -> batch.putLogData((MemorySegment) null));
                assertArrayEquals(before, batch.data().toArray(ValueLayout.JAVA_BYTE));
                assertEquals(ops, batch.count());
            } finally {
                rocksdb_writebatch_destroy(nb);
            }
        }
    }

    /**
     * RocksDB accepts a batch with log data (alone or among operations): the blob is in the batch
     * change capture reads back from the log, it takes no sequence number, and changes no key.
     */
    @Test
    void logDataRoundTripsThroughTheLog() {
        try (RocksDB db = open(dir); WriteOptions wo = new WriteOptions();
             WriteBatch mixed = new WriteBatch().put(bytes("a"), bytes("1")).putLogData(bytes("blob one"))
                     .delete(bytes("b")).putLogData(MemorySegment.ofArray(bytes("blob two")));
             WriteBatch alone = new WriteBatch().putLogData(bytes("only a blob"))) {
            long start = db.latestSequenceNumber();
            db.write(wo, mixed);
            assertEquals(start + 2, db.latestSequenceNumber()); // two operations, two numbers
            db.write(wo, alone);
            assertEquals(start + 2, db.latestSequenceNumber()); // log data takes none
            db.put(bytes("c"), bytes("3"));
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertNull(db.get(bytes("only a blob")));
            assertNull(db.get(bytes("blob one")));
            List<WalUpdate> updates = db.getUpdatesSince(start + 1, 100);
            try {
                byte[] written = mixed.data().asSlice(8).toArray(ValueLayout.JAVA_BYTE);
                assertArrayEquals(written, updates.get(0).batch().data().asSlice(8).toArray(ValueLayout.JAVA_BYTE));
                assertEquals(2, updates.get(0).batch().count());
                // the log-data-only batch is logged too (RocksDB may or may not hand it back on its own)
                byte[] aloneBody = alone.data().asSlice(8).toArray(ValueLayout.JAVA_BYTE);
                List<byte[]> bodies = updates.stream().map(u -> u.batch().data().asSlice(8).toArray(ValueLayout.JAVA_BYTE))
                        .toList();
                assertEquals(start + 3, updates.get(updates.size() - 1).sequence(), () -> "" + updates.size());
                assertTrue(bodies.stream().anyMatch(b -> Arrays.equals(b, aloneBody))
                        || updates.size() == 2, "unexpected updates: " + updates.size());
            } finally {
                updates.forEach(u -> u.batch().close());
            }
        }
    }

    /** Records what a handler is handed, one line per record, keys and values as hex. */
    private static final class Recorder implements WriteBatch.Handler {
        final List<String> events = new ArrayList<>();

        private static String hex(MemorySegment s) {
            return HexFormat.of().formatHex(s.toArray(ValueLayout.JAVA_BYTE));
        }

        @Override public void put(int family, MemorySegment key, MemorySegment value) {
            events.add("put " + family + " " + hex(key) + " " + hex(value));
        }
        @Override public void merge(int family, MemorySegment key, MemorySegment value) {
            events.add("merge " + family + " " + hex(key) + " " + hex(value));
        }
        @Override public void delete(int family, MemorySegment key) {
            events.add("delete " + family + " " + hex(key));
        }
        @Override public void singleDelete(int family, MemorySegment key) {
            events.add("singleDelete " + family + " " + hex(key));
        }
        @Override public void deleteRange(int family, MemorySegment begin, MemorySegment end) {
            events.add("deleteRange " + family + " " + hex(begin) + " " + hex(end));
        }
        @Override public void logData(MemorySegment blob) {
            events.add("logData " + hex(blob));
        }
    }

    /**
     * Iterating a batch hands back the operations it was built with (a model list), with their
     * family ids; the batches RocksDB logged, read back by change capture, iterate the same.
     */
    @ParameterizedTest
    @ValueSource(longs = {31, 32, 33})
    void iterationHandsBackTheRecordsAsRocksDBLoggedThem(long seed) {
        Random r = new Random(seed);
        try (Options o = new Options().setCreateIfMissing(true).setMergeOperator(new StringAppendOperator(","));
             RocksDB db = RocksDB.open(dir, o); WriteOptions wo = new WriteOptions()) {
            ColumnFamilyHandle cf = db.createColumnFamily("cf", o);
            List<List<String>> expected = new ArrayList<>();
            long start = db.latestSequenceNumber();
            for (int b = 0; b < 10; b++) {
                List<String> model = new ArrayList<>();
                try (WriteBatch batch = new WriteBatch()) {
                    int ops = 1 + r.nextInt(40);
                    for (int i = 0; i < ops; i++) {
                        byte[] k = new byte[1 + r.nextInt(8)];
                        byte[] v = new byte[r.nextInt(20)];
                        r.nextBytes(k);
                        r.nextBytes(v);
                        boolean family = r.nextBoolean();
                        int id = family ? cf.id() : 0;
                        String hk = HexFormat.of().formatHex(k);
                        String hv = HexFormat.of().formatHex(v);
                        MemorySegment sk = MemorySegment.ofArray(k);
                        MemorySegment sv = MemorySegment.ofArray(v);
                        switch (r.nextInt(6)) {
                            case 0 -> {
                                if (family) batch.put(cf, sk, sv); else batch.put(k, v);
                                model.add("put " + id + " " + hk + " " + hv);
                            }
                            case 1 -> {
                                if (family) batch.merge(cf, sk, sv); else batch.merge(k, v);
                                model.add("merge " + id + " " + hk + " " + hv);
                            }
                            case 2 -> {
                                if (family) batch.delete(cf, sk); else batch.delete(k);
                                model.add("delete " + id + " " + hk);
                            }
                            case 3 -> {
                                if (family) batch.singleDelete(cf, sk); else batch.singleDelete(k);
                                model.add("singleDelete " + id + " " + hk);
                            }
                            case 4 -> {
                                byte[] end = Arrays.copyOf(k, k.length + 1); // after k bytewise
                                String he = HexFormat.of().formatHex(end);
                                if (family) batch.deleteRange(cf, sk, MemorySegment.ofArray(end)); else batch.deleteRange(k, end);
                                model.add("deleteRange " + id + " " + hk + " " + he);
                            }
                            default -> {
                                batch.putLogData(v);
                                model.add("logData " + hv);
                            }
                        }
                    }
                    Recorder built = new Recorder();
                    batch.iterate(built);
                    assertEquals(model, built.events, "seed " + seed + " batch " + b);
                    if (batch.count() > 0) {
                        db.write(wo, batch);
                        expected.add(model);
                    }
                }
            }
            List<WalUpdate> updates = db.getUpdatesSince(start + 1, 100);
            try {
                List<List<String>> logged = new ArrayList<>();
                for (WalUpdate u : updates) {
                    Recorder read = new Recorder();
                    u.batch().iterate(read);
                    logged.add(read.events);
                }
                assertEquals(expected, logged, "seed " + seed);
            } finally {
                updates.forEach(u -> u.batch().close());
            }
            try (WriteBatch closed = new WriteBatch()) {
                assertThrows(NullPointerException.class, () -> closed.iterate(null));
            }
        }
    }


    /** Whether a C call that reports through {@code errptr} failed; frees the message. */
    private static boolean failed(MemorySegment errptr) {
        MemorySegment err = errptr.get(ValueLayout.ADDRESS, 0);
        errptr.set(ValueLayout.ADDRESS, 0, MemorySegment.NULL);
        if (err.equals(MemorySegment.NULL)) {
            return false;
        }
        rocksdb_free(err);
        return true;
    }

    /**
     * Calls {@code call}, which fails with NOT_FOUND where RocksDB's call failed and returns the
     * batch where it did not; whether it succeeded.
     */
    private static boolean asRocksDB(boolean rocksdbFailed, WriteBatch batch, Supplier<WriteBatch> call) {
        if (rocksdbFailed) {
            RocksDBException e = assertThrows(RocksDBException.class, call::get);
            assertEquals(RocksDBException.Code.NOT_FOUND, e.code(), e.getMessage());
            return false;
        }
        assertSame(batch, call.get());
        return true;
    }

    /**
     * Save points against RocksDB's own batch: random records, nested save points, rollbacks,
     * pops and clears on both; after every step the bytes and count are identical, and a rollback
     * or pop without a save point fails on both (NOT_FOUND here).
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void savePointsDoWhatRocksDBsBatchDoes(long seed) {
        Random r = new Random(seed);
        RocksDB.engine();
        try (Arena arena = Arena.ofConfined(); WriteBatch batch = new WriteBatch(r.nextInt(64))) {
            MemorySegment nb = rocksdb_writebatch_create();
            MemorySegment errptr = arena.allocate(ValueLayout.ADDRESS);
            int rollbacks = 0;
            int refusals = 0;
            int pops = 0;
            try {
                for (int i = 0; i < 400; i++) {
                    int op = r.nextInt(12);
                    byte[] k = randomBytes(r);
                    byte[] v = randomBytes(r);
                    MemorySegment nk = arena.allocateFrom(ValueLayout.JAVA_BYTE, k);
                    MemorySegment nv = arena.allocateFrom(ValueLayout.JAVA_BYTE, v);
                    switch (op) {
                        case 0, 1 -> {
                            assertSame(batch, batch.put(k, v));
                            rocksdb_writebatch_put(nb, nk, k.length, nv, v.length);
                        }
                        case 2 -> {
                            batch.delete(k);
                            rocksdb_writebatch_delete(nb, nk, k.length);
                        }
                        case 3 -> {
                            batch.merge(k, v);
                            rocksdb_writebatch_merge(nb, nk, k.length, nv, v.length);
                        }
                        case 4, 5, 6 -> {
                            assertSame(batch, batch.setSavePoint());
                            rocksdb_writebatch_set_save_point(nb);
                        }
                        case 7, 8 -> {
                            rocksdb_writebatch_rollback_to_save_point(nb, errptr);
                            if (asRocksDB(failed(errptr), batch, batch::rollbackToSavePoint)) {
                                rollbacks++;
                            } else {
                                refusals++;
                            }
                        }
                        case 9, 10 -> {
                            rocksdb_writebatch_pop_save_point(nb, errptr);
                            if (asRocksDB(failed(errptr), batch, batch::popSavePoint)) {
                                pops++;
                            } else {
                                refusals++;
                            }
                        }
                        default -> {
                            batch.clear();
                            rocksdb_writebatch_clear(nb);
                        }
                    }
                    String what = "seed " + seed + ", step " + i + ", op " + op;
                    assertArrayEquals(nativeBytes(nb, arena), batch.data().toArray(ValueLayout.JAVA_BYTE), what);
                    assertEquals(rocksdb_writebatch_count(nb), batch.count(), what);
                }
            } finally {
                rocksdb_writebatch_destroy(nb);
            }
            assertTrue(rollbacks > 0 && refusals > 0 && pops > 0, "the sequence exercised every outcome");
        }
    }

    /** A closed batch refuses its save point calls as every other call. */
    @Test
    void savePointCallsAfterCloseThrowIllegalState() {
        WriteBatch batch = new WriteBatch();
        batch.put(bytes("k"), bytes("v")).setSavePoint();
        batch.close();
        assertThrows(IllegalStateException.class, batch::setSavePoint);
        assertThrows(IllegalStateException.class, batch::rollbackToSavePoint);
        assertThrows(IllegalStateException.class, batch::popSavePoint);
        try (WriteBatch none = new WriteBatch()) {
            none.close();
            assertThrows(IllegalStateException.class, none::rollbackToSavePoint, "closed is reported before no save point");
        }
    }

    /**
     * A rollback restores what the batch knows of its records' families with the records: records
     * removed by it are no longer checked when the batch is written, records before the save point
     * still are (a merge for a family without a merge operator, a reversed range, a dropped
     * family), and the rolled-back batch writes what it holds.
     */
    @Test
    void aRollbackRestoresTheFamilyChecksOfTheRecordsItKeeps() {
        try (Options plain = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir.resolve("a"), plain);
             RocksDB other = RocksDB.open(dir.resolve("b"), plain);
             WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle family = db.createColumnFamily("plain", plain);
            ColumnFamilyHandle dropped = db.createColumnFamily("dropped", plain);
            ColumnFamilyHandle gone = db.createColumnFamily("gone", plain);
            ColumnFamilyHandle ofOther = other.createColumnFamily("plain", plain);

            batch.put(family, bytes("a"), bytes("1")).setSavePoint().merge(family, bytes("m"), bytes("1"))
                    .deleteRange(family, bytes("z"), bytes("a")).put(dropped, bytes("k"), bytes("v"));
            db.dropColumnFamily(dropped);
            assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch));
            batch.rollbackToSavePoint();
            db.write(wo, batch);
            assertEquals("1", string(db.get(family, bytes("a"))));
            assertNull(db.get(family, bytes("m")));

            batch.clear().merge(family, bytes("m"), bytes("1")).setSavePoint().put(bytes("x"), bytes("y")).rollbackToSavePoint();
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("has no merge operator"));
            batch.clear().deleteRange(family, bytes("z"), bytes("a")).setSavePoint().put(bytes("x"), bytes("y"))
                    .rollbackToSavePoint();
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("ends before it begins"));
            batch.clear().put(gone, bytes("k"), bytes("v")).setSavePoint().put(bytes("x"), bytes("y")).rollbackToSavePoint();
            db.dropColumnFamily(gone);
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("does not have"));
            assertNull(db.get(bytes("x")), "nothing of a refused batch was applied");

            // records of another database's families, rolled back, leave the batch free for any database
            batch.clear().setSavePoint().put(ofOther, bytes("o"), bytes("1")).rollbackToSavePoint();
            batch.put(family, bytes("b"), bytes("2"));
            db.write(wo, batch);
            assertEquals("2", string(db.get(family, bytes("b"))));
            assertNull(other.get(ofOther, bytes("o")));
        }
    }

    /**
     * A rollback restores whether the batch holds records for a family with user-defined
     * timestamps (which a batch's records do not carry): such a record rolled back no longer
     * refuses the batch, one kept from before the save point still does.
     */
    @Test
    void aRollbackRestoresTheTimestampedFamilyCheck() {
        try (Options plain = new Options().setCreateIfMissing(true);
             Options withTimestamps = new Options().setComparator(TimestampedComparator.bytewiseU64());
             RocksDB db = RocksDB.open(dir, plain); WriteOptions wo = new WriteOptions(); WriteBatch batch = new WriteBatch()) {
            ColumnFamilyHandle stamped = db.createColumnFamily("stamped", withTimestamps);
            batch.put(bytes("a"), bytes("1")).setSavePoint().put(stamped, bytes("k"), bytes("v"));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("user-defined timestamps"));
            batch.rollbackToSavePoint();
            db.write(wo, batch);
            assertEquals("1", string(db.get(bytes("a"))));

            batch.clear().put(stamped, bytes("k"), bytes("v")).setSavePoint().put(bytes("b"), bytes("2")).rollbackToSavePoint();
            assertTrue(assertThrows(IllegalArgumentException.class, () -> db.write(wo, batch)).getMessage()
                    .contains("user-defined timestamps"));
            assertEquals(RocksDBException.Code.NOT_FOUND, assertThrows(RocksDBException.class, batch::popSavePoint).code(),
                    "the rollback removed its save point");
        }
    }
}
