package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.Cache;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.Options;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.SstFileWriter;
import io.rocksffm.TimestampedComparator;
import io.rocksffm.TimestampedDB;
import io.rocksffm.Timestamps;
import io.rocksffm.Transaction;
import io.rocksffm.TransactionDB;
import io.rocksffm.TransactionDBOptions;
import io.rocksffm.WriteBatchWithIndex;
import io.rocksffm.WriteOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import io.rocksffm.RocksDBException;
import java.lang.foreign.ValueLayout;

/**
 * Keys and values past RocksDB's limits (issue 37, cases 9, 10, 12): refused with
 * {@link IllegalArgumentException} by every method before anything of their size is allocated or
 * read (the 4 GiB + 3 byte segments here are fake: reading one would crash, allocating one would
 * OOM-kill a small machine); a value too large for a {@code byte[]} read into one throws
 * {@link UnsupportedOperationException} (never the {@link IllegalStateException} of closed objects),
 * and a multi-get that meets one releases every key's result first.
 */
class SizeLimitTest {
    @TempDir
    Path dir;

    /** One byte over RocksDB's 4 GiB - 1 limit, plus two. */
    private static final long OVER = (1L << 32) + 3;

    @Test
    @SuppressWarnings("restricted") // fake segments, never read
    void inputsOverTheLimitAreRefusedBeforeTheyAreRead() {
        try (Arena arena = Arena.ofConfined(); Options o = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("db"), o); WriteOptions wo = new WriteOptions();
             ReadOptions ro = new ReadOptions()) {
            MemorySegment fake = arena.allocate(1).reinterpret(OVER);
            MemorySegment k = MemorySegment.ofArray(bytes("k"));
            MemorySegment out = arena.allocate(16);
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            List<Executable> calls = List.of(
                    () -> db.deleteRange(cf, wo, k, fake), () -> db.deleteRange(cf, wo, fake, k),
                    () -> db.put(cf, wo, fake, k), () -> db.put(cf, wo, k, fake), () -> db.merge(cf, wo, k, fake),
                    () -> db.delete(cf, wo, fake), () -> db.get(cf, ro, fake, out), () -> db.getPinned(cf, ro, fake),
                    () -> db.multiGet(cf, ro, new MemorySegment[] {k, fake}, new MemorySegment[2], new long[2],
                            new RocksDBException[2], false),
                    () -> db.approximateSizes(cf, new MemorySegment[] {k}, new MemorySegment[] {fake}),
                    () -> db.compactRange(cf, k, fake));
            for (Executable call : calls) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
                assertTrue(e.getMessage().contains("limit"), e.getMessage());
            }
            try (RocksIterator it = db.newIterator(ro)) {
                assertThrows(IllegalArgumentException.class, () -> it.seek(fake));
            }
            try (WriteBatchWithIndex wbwi = new WriteBatchWithIndex()) {
                assertThrows(IllegalArgumentException.class, () -> wbwi.put(cf, k, fake));
            }
            try (SstFileWriter w = SstFileWriter.open(o, dir.resolve("x.sst"))) {
                assertThrows(IllegalArgumentException.class, () -> w.deleteRange(k, fake));
                assertThrows(IllegalArgumentException.class, () -> w.put(k, fake));
            }
            db.put(bytes("still"), bytes("writable"));
            assertEquals("writable", string(db.get(bytes("still"))));
        }
        try (Arena arena = Arena.ofConfined(); Options o = new Options().setCreateIfMissing(true);
             TransactionDBOptions to = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(dir.resolve("tx"), o, to); WriteOptions wo = new WriteOptions();
             Transaction tx = db.beginTransaction(wo)) {
            MemorySegment fake = arena.allocate(1).reinterpret(OVER);
            MemorySegment k = MemorySegment.ofArray(bytes("k"));
            ColumnFamilyHandle cf = db.defaultColumnFamily();
            for (Executable call : List.<Executable>of(() -> tx.put(cf, k, fake), () -> tx.delete(cf, fake),
                    () -> db.put(cf, wo, fake, k), () -> db.deleteRange(cf, wo, k, fake))) {
                assertThrows(IllegalArgumentException.class, call);
            }
            tx.put(bytes("k"), bytes("v"));
            tx.commit();
        }
    }

    /**
     * A value of 2 GiB + 16 bytes (stored without a WAL, in a memtable that is never flushed):
     * every {@code byte[]} read throws UnsupportedOperationException, segment and pinned reads
     * work, and a multi-get that meets it releases every key's result (the block cache's pinned
     * usage returns to where it was).
     */
    @Test
    void valuesTooLargeForAnArrayAreRefusedByArrayReadsAndLeakNothing() {
        long big = (1L << 31) + 16;
        try (Cache cache = Cache.newLRUCache(64 << 20);
             BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache);
             Options base = new Options().setCreateIfMissing(true).setTableFormat(table);
             Options o = Options.fromString(base, "write_buffer_size=8589934592;avoid_flush_during_shutdown=true;"
                     + "disable_auto_compactions=true");
             RocksDB db = RocksDB.open(dir.resolve("db"), o);
             WriteOptions noWal = new WriteOptions().setDisableWAL(true);
             ReadOptions ro = new ReadOptions()) {
            for (String k : List.of("a", "c", "d", "e")) {
                db.put(bytes(k), bytes("small " + k));
            }
            db.flush(true); // the small values come from table blocks, pinned in the block cache
            long pinnedBefore = db.getLongProperty("rocksdb.block-cache-pinned-usage").orElseThrow();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment value = arena.allocate(big);
                value.set(ValueLayout.JAVA_BYTE, big - 1, (byte) 7);
                db.put(db.defaultColumnFamily(), noWal, MemorySegment.ofArray(bytes("b")), value);
            }
            for (int round = 0; round < 3; round++) {
                assertThrows(UnsupportedOperationException.class,
                        () -> db.multiGetAsList(List.of(bytes("a"), bytes("b"), bytes("c"), bytes("d"), bytes("e"))));
                assertEquals(pinnedBefore, db.getLongProperty("rocksdb.block-cache-pinned-usage").orElseThrow(),
                        "every key's result released");
            }
            assertThrows(UnsupportedOperationException.class, () -> db.get(bytes("b")));
            assertThrows(UnsupportedOperationException.class, () -> db.get(ro, bytes("b")));
            try (PinnedValue p = db.getPinned(ro, MemorySegment.ofArray(bytes("b")))) {
                assertEquals(big, p.segment().byteSize());
                assertEquals(7, p.segment().get(ValueLayout.JAVA_BYTE, big - 1));
                assertThrows(UnsupportedOperationException.class, p::toByteArray);
            }
            try (RocksIterator it = db.newIterator(ro)) {
                it.seek(bytes("b"));
                assertEquals("b", string(it.keyBytes()));
                assertThrows(UnsupportedOperationException.class, it::valueBytes);
                assertEquals(big, it.value().byteSize());
            }
            assertEquals(big, db.get(db.defaultColumnFamily(), ro, MemorySegment.ofArray(bytes("b")),
                    MemorySegment.ofArray(new byte[8])), "a segment read reports the full length");
            assertEquals(List.of("small a", "small c"), db.multiGetAsList(List.of(bytes("a"), bytes("c")))
                    .stream().map(v -> string(v)).toList());
            assertEquals(pinnedBefore, db.getLongProperty("rocksdb.block-cache-pinned-usage").orElseThrow());
            db.delete(bytes("b"));
        }
        report("size limits: a %d-byte value: byte[] reads refused (UnsupportedOperationException), nothing pinned",
                big);
    }

    /**
     * {@code TimestampedDB}'s array reads release what the engine returned when making the array
     * fails: in a child JVM with a 128 MiB heap, a 160 MiB value's {@code byte[]} cannot be
     * allocated (OutOfMemoryError, after RocksDB's C copy) by {@code get} and by {@code multiGet}
     * (whose later key's value, timestamp and error are released too); glibc's bytes in use do
     * not grow over the rounds. The fast stand-in for a value over 2 GiB.
     */
    @Test
    void timestampedArrayReadsThatFailReleaseWhatTheyRead() throws Exception {
        String out = runChild(ChildProbe.class, "timestamped-array-read-fails", dir.resolve("oom").toString());
        assertFalse(out.contains("READ\n"), out);
        assertTrue(out.contains("FAILED OutOfMemoryError") && out.contains("CLOSED"), out);
        long grown = Long.parseLong(out.lines().filter(l -> l.startsWith("GREW ")).findFirst().orElseThrow()
                .substring(5).trim());
        assertTrue(grown < (64L << 20), "4 rounds of failed reads of a 160 MiB value grew malloc by " + mib(grown));
        report("size limits: timestamped array reads that fail: malloc grew %s over 4 rounds", mib(grown));
    }

    /**
     * A timestamped value of 2 GiB + 16 bytes (heavy: {@code -Drocksffm.heavy=true}; each read
     * copies 2 GiB twice): {@code TimestampedDB}'s array reads throw UnsupportedOperationException
     * after releasing what they read (glibc's bytes in use return to where they were), and the
     * segment form reads its full length.
     */
    @Test
    void timestampedValuesTooLargeForAnArrayAreRefusedAndReleased() {
        Assumptions.assumeTrue(HEAVY, "heavy: -Drocksffm.heavy=true");
        long big = (1L << 31) + 16;
        try (Options base = new Options().setCreateIfMissing(true).setComparator(TimestampedComparator.bytewiseU64());
             Options o = Options.fromString(base, "write_buffer_size=8589934592;avoid_flush_during_shutdown=true;"
                     + "disable_auto_compactions=true");
             RocksDB db = RocksDB.open(dir.resolve("ts"), o);
             WriteOptions noWal = new WriteOptions().setDisableWAL(true);
             ReadOptions ro = new ReadOptions().setTimestamp(MemorySegment.ofArray(Timestamps.u64(9)))) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            for (String k : List.of("a", "c")) {
                tdb.put(f, bytes(k), Timestamps.u64(1), bytes("small " + k));
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment value = arena.allocate(big);
                value.set(ValueLayout.JAVA_BYTE, big - 1, (byte) 7);
                tdb.put(f, noWal, MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(Timestamps.u64(2)), value);
            }
            long before = mallocInUse();
            for (int round = 0; round < 2; round++) {
                assertThrows(UnsupportedOperationException.class, () -> tdb.get(f, ro, bytes("b")));
                assertThrows(UnsupportedOperationException.class,
                        () -> tdb.multiGet(ro, List.of(f, f, f), List.of(bytes("a"), bytes("b"), bytes("c"))));
            }
            long grown = mallocInUse() - before;
            assertTrue(before < 0 || grown < (256L << 20), "every read's C copies released: grew " + mib(grown));
            MemorySegment version = MemorySegment.ofArray(new byte[Timestamps.U64_SIZE]);
            byte[] head = new byte[8];
            assertEquals(big, tdb.get(f, ro, MemorySegment.ofArray(bytes("b")), MemorySegment.ofArray(head), version),
                    "the segment form reports the full length");
            assertEquals(2, Timestamps.u64(version));
            assertEquals(List.of("small a", "small c"), tdb.multiGet(ro, List.of(f, f), List.of(bytes("a"), bytes("c")))
                    .stream().map(v -> string(v.value())).toList());
            report("size limits: a %d-byte timestamped value: byte[] reads refused and released (malloc grew %s)",
                    big, mib(grown));
        }
    }
}
