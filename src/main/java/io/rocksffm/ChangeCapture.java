package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Native;
import io.rocksffm.internal.Scratch;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Change capture: the write batches after a sequence number, read from the write-ahead log of an
 * engine handle ({@code rocksdb_get_updates_since}, {@code rocksdb_wal_iter_*}) that
 * {@link Database}'s methods have entered. The log iterator lives only inside one call, so nothing
 * native outlives it.
 */
final class ChangeCapture {
    private ChangeCapture() {}

    /** Refuses a negative {@code sequence} or fewer than one batch. */
    static void checkArguments(long sequence, int maxBatches) {
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0: " + sequence);
        }
        if (maxBatches < 1) {
            throw new IllegalArgumentException("maxBatches must be >= 1: " + maxBatches);
        }
    }

    /**
     * The batches logged in {@code db} (the caller has entered it) from {@code sequence} on. A log
     * that no longer holds {@code sequence} (purged, or the writes from there were not logged) is a
     * gap, reported, never skipped: RocksDB itself starts at the next batch it finds, which would
     * skip the missing writes without a word.
     */
    static List<WalUpdate> updatesSince(MemorySegment db, long sequence, int maxBatches, Scratch s) {
        List<WalUpdate> out = new ArrayList<>();
        try {
            long latest = rocksdb_get_latest_sequence_number(db);
            if (sequence > latest) {
                return List.of(); // nothing new (RocksDB: NotFound, "not yet written")
            }
            RocksDBException failed = read(db, s, sequence, maxBatches, out);
            long first = out.isEmpty() ? latest + 1 : out.get(0).sequence();
            long from = Math.max(sequence, 1); // the first write is sequence number 1
            if (first > from) {
                throw gap(from, first, latest);
            }
            if (failed != null && (out.isEmpty() || failed.code() != RocksDBException.Code.NOT_FOUND)) {
                throw failed;
            }
            // a gap after the batches read (RocksDB: NotFound): the next call, from there, reports it
            return List.copyOf(out);
        } catch (RuntimeException | Error e) {
            for (WalUpdate u : out) {
                u.batch().close();
            }
            throw e;
        }
    }

    /**
     * The first sequence number the log of {@code db} (the caller has entered it) holds: of its
     * oldest batch, or the next write's if it holds none.
     */
    static long oldestLoggedSequenceNumber(MemorySegment db, Scratch s) {
        List<WalUpdate> out = new ArrayList<>(1);
        try {
            long latest = rocksdb_get_latest_sequence_number(db);
            RocksDBException failed = read(db, s, 0, 1, out);
            if (failed != null && out.isEmpty()) {
                throw failed;
            }
            return out.isEmpty() ? latest + 1 : out.get(0).sequence();
        } finally {
            for (WalUpdate u : out) {
                u.batch().close();
            }
        }
    }

    /** Reads up to {@code maxBatches} batches from {@code sequence} into {@code out}; returns the log's error, if any. */
    private static RocksDBException read(MemorySegment db, Scratch s, long sequence, int maxBatches, List<WalUpdate> out) {
        MemorySegment iter = rocksdb_get_updates_since(db, sequence, MemorySegment.NULL, s.errptr);
        RocksDBException opened = Native.takeError(s.errptr, 0);
        if (opened != null) {
            return opened;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seq = arena.allocate(JAVA_LONG);
            while (out.size() < maxBatches && rocksdb_wal_iter_valid(iter) != 0) {
                try (NativeWriteBatch nb = new NativeWriteBatch(rocksdb_wal_iter_get_batch(iter, seq))) {
                    out.add(new WalUpdate(seq.get(JAVA_LONG, 0), WriteBatch.fromNative(nb.ptr)));
                }
                rocksdb_wal_iter_next(iter);
            }
            rocksdb_wal_iter_status(iter, s.errptr);
            return Native.takeError(s.errptr, 0);
        } finally {
            rocksdb_wal_iter_destroy(iter);
        }
    }

    private static RocksDBException gap(long sequence, long first, long latest) {
        String holds = first > latest ? "it holds none of the writes up to the latest, " + latest
                : "it holds " + first + " on";
        return new RocksDBException("NotFound: change capture gap: the writes from sequence number " + sequence
                + " to " + (first - 1) + " are not in the write-ahead log (purged, or written without it: "
                + "WriteOptions.setDisableWAL, ingested files); " + holds);
    }
}
