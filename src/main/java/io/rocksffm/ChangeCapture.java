package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.internal.Native;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Change capture, a part of the database object: sequence numbers and the write batches after
 * one, read from the write-ahead log ({@code rocksdb_get_updates_since}, {@code rocksdb_wal_iter_*}).
 * The log iterator lives only inside one call, so nothing native outlives it.
 */
final class ChangeCapture {
    private ChangeCapture() {}

    static long latestSequenceNumber(Database db) {
        return db.read(p -> rocksdb_get_latest_sequence_number(db.adminDb()));
    }

    static List<WalUpdate> updatesSince(Database db, long sequence, int maxBatches) {
        if (sequence < 0) {
            throw new IllegalArgumentException("sequence must be >= 0: " + sequence);
        }
        if (maxBatches < 1) {
            throw new IllegalArgumentException("maxBatches must be >= 1: " + maxBatches);
        }
        List<WalUpdate> out = new ArrayList<>();
        return db.guard.call(s -> {
            try (Arena arena = Arena.ofConfined()) {
                if (sequence > rocksdb_get_latest_sequence_number(db.adminDb())) {
                    return List.of(); // RocksDB: NotFound, "not yet written"
                }
                MemorySegment iter = rocksdb_get_updates_since(db.adminDb(), sequence, MemorySegment.NULL, s.errptr);
                Native.check(s.errptr);
                try {
                    MemorySegment seq = arena.allocate(JAVA_LONG);
                    while (out.size() < maxBatches && rocksdb_wal_iter_valid(iter) != 0) {
                        try (NativeWriteBatch nb = new NativeWriteBatch(rocksdb_wal_iter_get_batch(iter, seq))) {
                            out.add(new WalUpdate(seq.get(JAVA_LONG, 0), WriteBatch.fromNative(nb.ptr)));
                        }
                        rocksdb_wal_iter_next(iter);
                    }
                    rocksdb_wal_iter_status(iter, s.errptr);
                    Native.check(s.errptr);
                    return List.copyOf(out);
                } finally {
                    rocksdb_wal_iter_destroy(iter);
                }
            } catch (RuntimeException | Error e) {
                for (WalUpdate u : out) {
                    u.batch().close();
                }
                throw e;
            }
        });
    }
}
