package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.FilterPolicy;
import io.rocksffm.Options;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.TimestampedComparator;
import io.rocksffm.TimestampedDB;
import io.rocksffm.Timestamps;
import io.rocksffm.WriteBatchWithIndex;
import io.rocksffm.WriteOptions;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Scenarios the bad input tests run in a child JVM: one that holds a database's lock for
 * another process to run into ({@link BadOpenAndOwnershipTest}), and ones that may crash the JVM
 * (so that a crash fails one test instead of killing the suite: {@link BadInputTest}), such as
 * an indexed batch's key without a timestamp for a timestamped family, which crashed the next
 * flush in the Bloom filter before the write was refused. Prints
 * what happened, one line per step.
 *
 * <p>Arguments: scenario, database path.
 */
public final class ChildProbe {
    private ChildProbe() {}

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[1]);
        switch (args[0]) {
            case "hold-lock" -> {
                try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, o)) {
                    db.put("held".getBytes(StandardCharsets.UTF_8), "yes".getBytes(StandardCharsets.UTF_8));
                    System.out.println("READY");
                    System.out.flush();
                    System.in.read(); // until the parent closes our stdin (or dies)
                }
                System.out.println("CLOSED");
            }
            case "huge-prefetch" -> {
                try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(path, o);
                     ReadOptions ro = new ReadOptions()) {
                    db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
                    try {
                        db.newIterator(ro.setPrefetchBytes(1L << 50)).close();
                        System.out.println("NO EXCEPTION");
                    } catch (Throwable t) {
                        System.out.println("THREW " + t.getClass().getName());
                    }
                    System.out.flush();
                }
                System.out.println("CLOSED");
            }
            case "timestamped-indexed-batch" -> { // a 3-byte key without a timestamp crashed the flush in the filter
                try (BlockBasedTableConfig table = new BlockBasedTableConfig().setFilterPolicy(FilterPolicy.bloom(10));
                     Options o = new Options().setCreateIfMissing(true).setTableFormat(table)
                             .setComparator(TimestampedComparator.bytewiseU64());
                     RocksDB db = RocksDB.open(path, o); WriteOptions wo = new WriteOptions();
                     WriteBatchWithIndex batch = new WriteBatchWithIndex()) {
                    TimestampedDB.of(db).put(db.defaultColumnFamily(), "abd".getBytes(StandardCharsets.UTF_8),
                            Timestamps.u64(1), "kept".getBytes(StandardCharsets.UTF_8));
                    batch.put("abc".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
                    try {
                        db.write(wo, batch);
                        System.out.println("WRITTEN");
                    } catch (IllegalArgumentException e) {
                        System.out.println("REFUSED " + e.getMessage());
                    }
                    System.out.flush();
                    db.flush(true);
                    System.out.println("FLUSHED");
                    try (ReadOptions ro = new ReadOptions().setTimestamp(MemorySegment.ofArray(Timestamps.u64(-1)));
                         RocksIterator it = db.newIterator(ro)) {
                        for (it.seekToFirst(); it.isValid(); it.next()) {
                            System.out.println("KEY " + new String(it.keyBytes(), StandardCharsets.UTF_8) + " "
                                    + Long.toUnsignedString(Timestamps.u64(it.timestamp())));
                        }
                        it.status();
                    }
                }
                System.out.println("CLOSED");
            }
            case "timestamped-array-read-fails" -> { // -Xmx128m: a 160 MiB value's byte[] fails after RocksDB's copy
                try (Options o = new Options().setCreateIfMissing(true).setComparator(TimestampedComparator.bytewiseU64());
                     RocksDB db = RocksDB.open(path, o); WriteOptions wo = new WriteOptions();
                     ReadOptions ro = new ReadOptions().setTimestamp(MemorySegment.ofArray(Timestamps.u64(9)))) {
                    TimestampedDB tdb = TimestampedDB.of(db);
                    ColumnFamilyHandle f = db.defaultColumnFamily();
                    byte[] key = "b".getBytes(StandardCharsets.UTF_8);
                    tdb.put(f, "a".getBytes(StandardCharsets.UTF_8), Timestamps.u64(1), key);
                    tdb.put(f, "c".getBytes(StandardCharsets.UTF_8), Timestamps.u64(1), key);
                    try (Arena arena = Arena.ofConfined()) {
                        tdb.put(f, wo, MemorySegment.ofArray(key), MemorySegment.ofArray(Timestamps.u64(2)),
                                arena.allocate(160L << 20));
                    }
                    List<byte[]> keys = List.of("a".getBytes(StandardCharsets.UTF_8), key, "c".getBytes(StandardCharsets.UTF_8));
                    long first = 0;
                    for (int round = 0; round < 6; round++) {
                        for (Runnable read : List.<Runnable>of(() -> tdb.get(f, ro, key),
                                () -> tdb.multiGet(ro, List.of(f, f, f), keys))) {
                            try {
                                read.run();
                                System.out.println("READ");
                            } catch (OutOfMemoryError e) {
                                System.out.println("FAILED " + e.getClass().getSimpleName());
                            }
                        }
                        if (round == 1) {
                            first = Reliability.mallocInUse();
                        }
                    }
                    System.out.println("GREW " + (Reliability.mallocInUse() - first));
                }
                System.out.println("CLOSED");
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.flush();
    }
}
