package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.RocksDB;
import io.rocksffm.RocksDBException;
import io.rocksffm.WriteBatch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import java.util.Arrays;
import java.util.LinkedHashMap;

/**
 * The bad input catalogue (docs/bad-inputs.md), batch bytes and writes RocksDB would fail after
 * its WAL write: corrupt and fuzzed batch bytes, reversed ranges, records for an unknown family,
 * merges without a merge operator.
 */
class BadBatchInputTest extends BadInputFixture {
    // ---- corrupt batch bytes ----------------------------------------------------------------------

    private static byte[] batch(int count, int... body) {
        byte[] b = new byte[12 + body.length];
        b[8] = (byte) count;
        for (int i = 0; i < body.length; i++) {
            b[12 + i] = (byte) body[i];
        }
        return b;
    }

    /** Malformed RocksDB batch bytes are refused by WriteBatch.fromBytes with IllegalArgumentException. */
    @Test
    void corruptBatchBytesAreRefused() {
        Map<String, byte[]> corrupt = new LinkedHashMap<>();
        corrupt.put("0 bytes", new byte[0]);
        corrupt.put("11 bytes (short header)", new byte[11]);
        corrupt.put("count 1, no record", batch(1));
        corrupt.put("count 0, one record", batch(0, 0x1, 1, 'k', 1, 'v'));
        corrupt.put("count 2, one record", batch(2, 0x1, 1, 'k', 1, 'v'));
        corrupt.put("count 2^32-1", batch(0xFF, 0x1, 1, 'k', 1, 'v'));
        corrupt.put("key length past the end", batch(1, 0x1, 5, 'k'));
        corrupt.put("value length past the end", batch(1, 0x1, 1, 'k', 9, 'v'));
        corrupt.put("truncated varint", batch(1, 0x1, 0x80));
        corrupt.put("varint over 32 bits", batch(1, 0x1, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F));
        corrupt.put("missing value", batch(1, 0x1, 1, 'k'));
        corrupt.put("column-family record without id", batch(1, 0x5));
        corrupt.put("log data counted as a record", batch(1, 0x3, 1, 'k'));
        corrupt.put("log data past the end", batch(0, 0x3, 5, 'k'));
        for (int tag : new int[] {0x9, 0xA, 0xB, 0xC /* 2PC markers */, 0x10, 0x11 /* blob index */,
                0x12, 0x13, 0x14, 0x15, 0x16 /* wide columns */, 0x7F, 0x80, 0xFF}) {
            corrupt.put(String.format("tag 0x%02x", tag), batch(1, tag, 1, 'k', 1, 'v'));
        }
        for (Map.Entry<String, byte[]> e : corrupt.entrySet()) {
            assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromBytes(MemorySegment.ofArray(e.getValue())),
                    e.getKey());
        }
        // what is well-formed is accepted: a no-op marker and log data are not counted
        try (WriteBatch ok = WriteBatch.fromBytes(MemorySegment.ofArray(batch(1, 0xD, 0x3, 1, 'x', 0x1, 1, 'k', 1, 'v')))) {
            assertEquals(1, ok.count());
            db.write(wo, ok);
            assertEquals("v", string(db.get(bytes("k"))));
        }
        assertThrows(IllegalArgumentException.class, () -> WriteBatch.fromNative(MemorySegment.NULL));
        report("bad input: corrupt batch bytes: %d malformed batches refused with IllegalArgumentException (%s)",
                corrupt.size(), corrupt.keySet());
    }

    /**
     * Random mutations of valid batches (bit flips, truncation, extension, byte insertion): each
     * is refused with IllegalArgumentException, or accepted and then written without harm (a
     * RocksDBException at most, after which the scratch database is reopened: see the poisoning
     * rows of the catalogue).
     */
    @Test
    void fuzzedBatchBytesNeverCrash() {
        int rounds = scale(20_000, 400_000);
        Random r = new Random(seed(99));
        int refused = 0;
        int written = 0;
        int failedWrites = 0;
        Path scratch = dir.resolve("scratch");
        RocksDB target = open(scratch);
        try {
            for (int i = 0; i < rounds; i++) {
                byte[] bytes;
                try (WriteBatch b = new WriteBatch()) {
                    for (int j = r.nextInt(5); j >= 0; j--) {
                        byte[] k = new byte[r.nextInt(4)];
                        r.nextBytes(k);
                        switch (r.nextInt(4)) {
                            case 0 -> b.delete(k);
                            case 1 -> b.deleteRange(k, k);
                            case 2 -> b.put(db.defaultColumnFamily(), MemorySegment.ofArray(k), MemorySegment.ofArray(k));
                            default -> b.put(k, new byte[r.nextInt(200)]);
                        }
                    }
                    bytes = b.data().toArray(ValueLayout.JAVA_BYTE);
                }
                byte[] mutated = switch (r.nextInt(4)) {
                    case 0 -> {
                        byte[] m = bytes.clone();
                        for (int f = 1 + r.nextInt(3); f > 0; f--) {
                            m[r.nextInt(m.length)] ^= (byte) (1 << r.nextInt(8));
                        }
                        yield m;
                    }
                    case 1 -> Arrays.copyOf(bytes, r.nextInt(bytes.length));
                    case 2 -> Arrays.copyOf(bytes, bytes.length + 1 + r.nextInt(8));
                    default -> {
                        byte[] m = new byte[bytes.length + 1];
                        int at = r.nextInt(m.length);
                        System.arraycopy(bytes, 0, m, 0, at);
                        m[at] = (byte) r.nextInt(256);
                        System.arraycopy(bytes, at, m, at + 1, bytes.length - at);
                        yield m;
                    }
                };
                WriteBatch parsed;
                try {
                    parsed = WriteBatch.fromBytes(MemorySegment.ofArray(mutated));
                } catch (IllegalArgumentException e) {
                    refused++;
                    continue;
                }
                try (parsed) {
                    assertEquals(mutated.length, parsed.dataSize());
                    target.write(wo, parsed);
                    written++;
                } catch (IllegalArgumentException e) {
                    refused++; // well-formed, but names a family the target lacks: refused before RocksDB sees it
                } catch (RocksDBException e) {
                    failedWrites++;
                    target.close(); // the failure may have poisoned the handle: start afresh
                    target = open(scratch);
                }
            }
        } finally {
            target.close();
        }
        report("bad input: fuzzed batch bytes: %d mutations: %d refused (IllegalArgumentException), %d written, "
                + "%d accepted but failed in RocksDB (RocksDBException)", rounds, refused, written, failedWrites);
        assertTrue(refused > 0 && written > 0);
    }

    // ---- writes RocksDB fails after its WAL write: they poison the handle ---------------------------

    @Test
    void reversedDeleteRangeLeavesTheDatabaseWritable() {
        assertThrows(RuntimeException.class, () -> db.deleteRange(bytes("z"), bytes("a")));
        assertWritable();
    }

    @Test
    void reversedRangeInBatchBytesIsRefused() {
        byte[] reversed = batch(2, 0x1, 1, 'p', 1, '1', 0xF, 1, 'z', 1, 'a'); // put p=1; deleteRange [z, a)
        try (WriteBatch b = WriteBatch.fromBytes(MemorySegment.ofArray(reversed))) { // order: the target's
            assertThrows(IllegalArgumentException.class, () -> db.write(wo, b));
        }
        assertNull(db.get(bytes("p")), "nothing of a refused batch is applied");
        assertWritable();
        db.flush(true);
    }

    @Test
    void batchForAnUnknownFamilyLeavesTheDatabaseWritableAndUnchanged() {
        byte[] bytes = batch(2, 0x1, 1, 'p', 1, '1', 0x5, 9, 1, 'k', 1, 'v'); // put p=1; put k=v in family 9
        try (WriteBatch b = WriteBatch.fromBytes(MemorySegment.ofArray(bytes))) {
            assertThrows(RuntimeException.class, () -> db.write(wo, b));
        }
        assertNull(db.get(bytes("p")), "nothing of a refused batch is applied");
        assertWritable();
    }

    @Test
    void mergeWithoutAMergeOperatorLeavesTheDatabaseWritableAndUnchanged() {
        try (WriteBatch b = merge(new WriteBatch().put(bytes("m1"), bytes("x")), bytes("m2"), bytes("y"))) {
            assertThrows(RuntimeException.class, () -> db.write(wo, b));
        }
        assertNull(db.get(bytes("m1")), "nothing of a refused batch is applied");
        assertWritable();
    }
}
