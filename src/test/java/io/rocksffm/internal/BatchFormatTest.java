package io.rocksffm.internal;

import static io.rocksffm.internal.BatchFormat.*;
import static io.rocksffm.internal.capi.RocksDBC.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RocksDB's write-batch byte layout: the varints and records RocksDB's own C API encodes, and
 * the validation of batch bytes from elsewhere against a model of the records (the encoder here
 * is the test's own, written from {@code db/write_batch.cc}).
 */
class BatchFormatTest {
    private static final Set<Byte> SUPPORTED = Set.of(DELETION, VALUE, MERGE, CF_DELETION, CF_VALUE, CF_MERGE,
            SINGLE_DELETION, CF_SINGLE_DELETION, CF_RANGE_DELETION, RANGE_DELETION, LOG_DATA);

    /** The 7-bit boundaries of varint32 and their neighbours. */
    private static final long[] BOUNDARIES = {0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000, 0xFFF_FFFF,
        0x1000_0000, 0x7FFF_FFFFL, 0x8000_0000L, MAX_SLICE};

    /** The test's varint encoder: little-endian groups of 7 bits, the high bit marking a continuation. */
    private static void varint(ByteArrayOutputStream out, long v) {
        do {
            long group = v & 0x7F;
            v >>>= 7;
            out.write((int) (v == 0 ? group : group | 0x80));
        } while (v != 0);
    }

    /** A record of the model: tag (default-family form), family, key and second slice (or null). */
    private record Rec(byte tag, int family, byte[] key, byte[] value) {}

    /** Encodes {@code records} as RocksDB lays out a batch, the header counting {@code count}. */
    private static byte[] encode(List<Rec> records, long count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[8]);
        for (int i = 0; i < 4; i++) {
            out.write((int) (count >>> (8 * i)));
        }
        for (Rec r : records) {
            if (r.family == 0) {
                out.write(r.tag);
            } else {
                out.write(switch (r.tag) {
                    case DELETION -> 0x4;
                    case VALUE -> 0x5;
                    case MERGE -> 0x6;
                    case SINGLE_DELETION -> 0x8;
                    default -> 0xE; // RANGE_DELETION
                });
                varint(out, r.family);
            }
            varint(out, r.key.length);
            out.writeBytes(r.key);
            if (r.value != null) {
                varint(out, r.value.length);
                out.writeBytes(r.value);
            }
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** A 12-byte header counting {@code count} records. */
    private static byte[] header(int count) {
        byte[] h = new byte[HEADER];
        MemorySegment.ofArray(h).set(U32_LE, COUNT_OFFSET, count);
        return h;
    }

    private static Summary validate(byte[] data) {
        return BatchFormat.validate(MemorySegment.ofArray(data));
    }

    private static String refusal(byte[] data) {
        return assertThrows(IllegalArgumentException.class, () -> validate(data)).getMessage();
    }

    private static byte[] nativeBytes(MemorySegment nativeBatch, Arena arena) {
        MemorySegment size = arena.allocate(ValueLayout.JAVA_LONG);
        MemorySegment rep = rocksdb_writebatch_data(nativeBatch, size);
        return rep.reinterpret(size.get(ValueLayout.JAVA_LONG, 0)).toArray(ValueLayout.JAVA_BYTE);
    }

    /** The number of 7-bit groups of {@code v}: the model of a varint's length. */
    private static int groups(long v) {
        int bits = 64 - Long.numberOfLeadingZeros(v);
        return Math.max(1, (bits + 6) / 7);
    }

    @Test
    void varintsHaveTheLengthAndBytesOfTheModelAtEverySevenBitBoundary() {
        for (long v : BOUNDARIES) {
            assertEquals(groups(v), varintSize(v), "varintSize(" + v + ")");
            ByteArrayOutputStream model = new ByteArrayOutputStream();
            varint(model, v);
            MemorySegment s = MemorySegment.ofArray(new byte[8]);
            assertEquals(varintSize(v), putVarint(s, 1, v) - 1, "putVarint(" + v + ") length");
            assertArrayEquals(model.toByteArray(), s.asSlice(1, varintSize(v)).toArray(ValueLayout.JAVA_BYTE), "" + v);
        }
    }

    /** RocksDB's own C API encodes the length of a value at each boundary with the bytes putVarint writes. */
    @Test
    void rocksdbsVarintsArePutVarintsAtTheBoundaries() {
        NativeLibrary.load();
        try (Arena arena = Arena.ofConfined()) {
            for (long n : new long[] {0, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000}) {
                MemorySegment nb = rocksdb_writebatch_create();
                try {
                    MemorySegment value = arena.allocate(Math.max(1, n));
                    rocksdb_writebatch_put(nb, arena.allocate(1), 0, value, n);
                    byte[] rocks = nativeBytes(nb, arena);
                    // header, tag, empty key's length, then the value's length
                    assertEquals(HEADER + 2 + varintSize(n) + n, rocks.length, "value of " + n);
                    MemorySegment ours = MemorySegment.ofArray(new byte[5]);
                    putVarint(ours, 0, n);
                    assertArrayEquals(ours.asSlice(0, varintSize(n)).toArray(ValueLayout.JAVA_BYTE),
                            Arrays.copyOfRange(rocks, HEADER + 2, HEADER + 2 + varintSize(n)), "value of " + n);
                    Summary summary = validate(rocks);
                    assertEquals(1, summary.count());
                } finally {
                    rocksdb_writebatch_destroy(nb);
                }
            }
        }
    }

    /** An empty batch is the header alone: RocksDB's, accepted; anything shorter is not a batch. */
    @Test
    void anEmptyBatchIsTheHeaderAlone() {
        NativeLibrary.load();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nb = rocksdb_writebatch_create();
            byte[] empty;
            try {
                empty = nativeBytes(nb, arena);
            } finally {
                rocksdb_writebatch_destroy(nb);
            }
            assertEquals(HEADER, empty.length);
            Summary s = validate(empty);
            assertEquals(0, s.count());
            assertTrue(s.families().isEmpty());
            assertNull(s.mergeFamilies());
            assertNull(s.rangeFamilies());
            for (int n = 0; n < HEADER; n++) {
                assertTrue(refusal(Arrays.copyOf(empty, n)).contains(n + " bytes"), "length " + n);
            }
        }
    }

    /**
     * Every tag but the record types rocksffm encodes (and the no-op marker) is refused by its tag,
     * even where the record would otherwise parse as a one-slice record and match the count.
     */
    @Test
    void everyOtherTagIsRefusedAsUnsupported() {
        for (int tag = 0; tag < 256; tag++) {
            if (SUPPORTED.contains((byte) tag) || tag == NOOP) {
                continue;
            }
            byte[] data = concat(header(1), new byte[] {(byte) tag, 1, 'k'});
            String message = refusal(data);
            assertTrue(message.contains("unsupported record tag 0x" + Integer.toHexString(tag) + " at offset 12"),
                    message);
        }
        // a no-op marker is skipped and not counted
        Summary s = validate(concat(header(1), new byte[] {NOOP, VALUE, 1, 'k', 0, NOOP}));
        assertEquals(1, s.count());
    }

    /**
     * RocksDB's LogData record (a blob RocksDB does not count) is read as RocksDB writes it: not
     * counted, naming no family; a header that counts it as an operation is refused by the count.
     */
    @Test
    void aLogDataRecordFromRocksDBIsReadUncounted() {
        NativeLibrary.load();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nb = rocksdb_writebatch_create();
            try {
                rocksdb_writebatch_put(nb, arena.allocateFrom("k"), 1, arena.allocateFrom("v"), 1);
                rocksdb_writebatch_put_log_data(nb, arena.allocateFrom("blob"), 4);
                assertEquals(1, rocksdb_writebatch_count(nb), "RocksDB does not count log data");
                byte[] data = nativeBytes(nb, arena);
                Summary s = validate(data);
                assertEquals(1, s.count());
                assertTrue(s.families().isEmpty());
                // counted as a record, the batch is refused by its count
                MemorySegment.ofArray(data).set(U32_LE, COUNT_OFFSET, 2);
                assertTrue(refusal(data).contains("counts 2 records but holds 1"), refusal(data));
                // a blob that runs past the end is refused
                byte[] cut = Arrays.copyOf(data, data.length - 1);
                MemorySegment.ofArray(cut).set(U32_LE, COUNT_OFFSET, 1);
                refusal(cut);
            } finally {
                rocksdb_writebatch_destroy(nb);
            }
        }
    }

    /**
     * RocksDB reads a varint32 of up to five bytes, so a length or family id may come in five
     * bytes even when small (WriteBatchTest writes such a batch to RocksDB); a sixth byte, or a
     * value past 2^32-1, is refused.
     */
    @Test
    void varintsOfFiveBytesAreReadAndLongerOnesRefused() {
        byte[] fiveByteOne = {(byte) 0x81, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x00};
        Summary s = validate(concat(header(1), new byte[] {DELETION}, fiveByteOne, new byte[] {'k'}));
        assertEquals(1, s.count());
        s = validate(concat(header(1), new byte[] {CF_DELETION}, new byte[] {(byte) 0x85, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, 0x00}, new byte[] {1, 'k'}));
        assertEquals(BitSet.valueOf(new long[] {1 << 5}), s.families());
        byte[] six = {(byte) 0x81, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x00};
        assertTrue(refusal(concat(header(1), new byte[] {DELETION}, six, new byte[] {'k'})).contains("bad varint"));
        byte[] tooLarge = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x1F}; // 2^35 - 1
        assertTrue(refusal(concat(header(1), new byte[] {DELETION}, tooLarge)).contains("bad varint"));
        byte[] largest = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F}; // 2^32 - 1: past the end
        assertTrue(refusal(concat(header(1), new byte[] {DELETION}, largest, new byte[] {'k'})).contains("runs past the end"));
        byte[] unfinished = {(byte) 0x81, (byte) 0x80};
        assertTrue(refusal(concat(header(1), new byte[] {DELETION}, unfinished)).contains("bad varint"));
    }

    /** Family ids at every varint width up to 2^31 - 1 are read; larger ones are refused. */
    @Test
    void familyIdsAreReadAtEveryWidthAndRefusedPastTheLargestInt() {
        for (long id : new long[] {1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000}) {
            List<Rec> records = List.of(new Rec(VALUE, (int) id, new byte[] {'k'}, new byte[0]),
                    new Rec(MERGE, (int) id, new byte[0], new byte[] {1}));
            Summary s = validate(encode(records, 2));
            BitSet expected = new BitSet();
            expected.set((int) id);
            assertEquals(expected, s.families(), "id " + id);
            assertEquals(expected, s.mergeFamilies(), "id " + id);
            assertEquals(expected, families(MemorySegment.ofArray(encode(records, 2))), "id " + id);
        }
        // a column-family record may name the default family: it is not among the non-default ones
        Summary zero = validate(concat(header(1), new byte[] {CF_VALUE, 0, 1, 'k', 0}));
        assertTrue(zero.families().isEmpty(), zero.families().toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header(1));
        out.write(CF_DELETION);
        varint(out, 0x8000_0000L);
        out.writeBytes(new byte[] {1, 'k'});
        String message = refusal(out.toByteArray());
        assertTrue(message.contains("names column family 2147483648"), message);
    }

    /** The header's count must be the number of records. */
    @Test
    void theCountMustMatchTheRecords() {
        List<Rec> two = List.of(new Rec(VALUE, 0, new byte[] {'a'}, new byte[] {'1'}),
                new Rec(DELETION, 3, new byte[] {'b'}, null));
        assertEquals(2, validate(encode(two, 2)).count());
        assertTrue(refusal(encode(two, 1)).contains("counts 1 records but holds 2"));
        assertTrue(refusal(encode(two, 3)).contains("counts 3 records but holds 2"));
        assertTrue(refusal(encode(two, 0xFFFF_FFFFL)).contains("counts 4294967295"));
    }

    /** Random batches of every record type: the summary, the families and the ranges are the model's. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void summariesFamiliesAndRangesAreTheModels(long seed) {
        Random r = new Random(seed);
        byte[] tags = {DELETION, VALUE, MERGE, SINGLE_DELETION, RANGE_DELETION};
        int[] ids = {0, 0, 1, 2, 7, 127, 128, 300, 16_384};
        List<Rec> records = new ArrayList<>();
        int n = r.nextInt(40);
        for (int i = 0; i < n; i++) {
            byte tag = tags[r.nextInt(tags.length)];
            boolean twoSlices = tag == VALUE || tag == MERGE || tag == RANGE_DELETION;
            records.add(new Rec(tag, ids[r.nextInt(ids.length)], slice(r), twoSlices ? slice(r) : null));
        }
        byte[] data = encode(records, records.size());
        BitSet families = new BitSet();
        BitSet merges = new BitSet();
        BitSet ranges = new BitSet();
        List<String> expectedRanges = new ArrayList<>();
        for (Rec rec : records) {
            families.set(rec.family);
            if (rec.tag == MERGE) {
                merges.set(rec.family);
            }
            if (rec.tag == RANGE_DELETION) {
                ranges.set(rec.family);
                expectedRanges.add(rec.family + ":" + Arrays.toString(rec.key) + "-" + Arrays.toString(rec.value));
            }
        }
        Summary s = validate(data);
        assertEquals(records.size(), s.count());
        BitSet nonDefault = (BitSet) families.clone();
        nonDefault.clear(0);
        assertEquals(nonDefault, s.families());
        assertEquals(merges.isEmpty() ? null : merges, s.mergeFamilies());
        assertEquals(ranges.isEmpty() ? null : ranges, s.rangeFamilies());
        assertEquals(families, BatchFormat.families(MemorySegment.ofArray(data)));
        List<String> visited = new ArrayList<>();
        forEachRange(MemorySegment.ofArray(data), (at, family, begin, end) -> {
            assertTrue(data[(int) at] == (family == 0 ? RANGE_DELETION : CF_RANGE_DELETION),
                    "offset " + at + " is the range deletion's tag");
            visited.add(family + ":" + Arrays.toString(begin.toArray(ValueLayout.JAVA_BYTE)) + "-"
                    + Arrays.toString(end.toArray(ValueLayout.JAVA_BYTE)));
        });
        assertEquals(expectedRanges, visited);
        // every truncation within the records is refused, never read past the end
        for (int cut = HEADER; cut < data.length; cut++) {
            byte[] shorter = Arrays.copyOf(data, cut);
            assertThrows(IllegalArgumentException.class, () -> validate(shorter), "cut at " + cut);
        }
    }

    private static byte[] slice(Random r) {
        byte[] b = new byte[r.nextInt(10) == 0 ? 128 + r.nextInt(200) : r.nextInt(6)];
        r.nextBytes(b);
        return b;
    }

    @Test
    void familyTagsAreTheColumnFamilyForms() {
        assertEquals(CF_DELETION, familyTag(DELETION));
        assertEquals(CF_VALUE, familyTag(VALUE));
        assertEquals(CF_MERGE, familyTag(MERGE));
        assertEquals(CF_SINGLE_DELETION, familyTag(SINGLE_DELETION));
        assertEquals(CF_RANGE_DELETION, familyTag(RANGE_DELETION));
        for (byte tag : new byte[] {CF_VALUE, NOOP, 0x3, 0x42}) {
            assertThrows(IllegalArgumentException.class, () -> familyTag(tag));
        }
    }

    /** Bytewise order is unsigned, shorter first on a common prefix: Arrays.compareUnsigned's. */
    @Test
    void bytewiseOrderIsUnsignedLexicographic() {
        Random r = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            byte[] a = new byte[r.nextInt(4)];
            byte[] b = new byte[r.nextInt(4)];
            r.nextBytes(a);
            r.nextBytes(b);
            if (r.nextInt(4) == 0) {
                b = Arrays.copyOf(a, r.nextInt(5)); // common prefixes
            }
            assertEquals(Integer.signum(Arrays.compareUnsigned(a, b)),
                    Integer.signum(compareBytewise(MemorySegment.ofArray(a), MemorySegment.ofArray(b))),
                    Arrays.toString(a) + " vs " + Arrays.toString(b));
        }
    }
}
