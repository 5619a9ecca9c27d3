package io.rocksffm;

import java.util.Objects;

/**
 * One write batch read back from the write-ahead log by {@link DatabaseAdmin#getUpdatesSince}:
 * the sequence number RocksDB gave its first entry, and the batch's contents as a
 * {@link WriteBatch} in Java memory (its entries in RocksDB's batch format through
 * {@link WriteBatch#data()}, or applied to another database with {@code write}; the caller closes it).
 *
 * {@snippet id="WalUpdate" :
 * long from = 1;   // the sequence number to follow the writes from (kept by the reader)
 * try {
 *     for (WalUpdate update : db.getUpdatesSince(from, 100)) {   // empty: nothing new yet
 *         try (WriteBatch batch = update.batch()) {   // the caller closes each batch
 *             from = update.sequence() + batch.count();
 *             // ... replicate batch.data(), or write it to another database
 *         }
 *     }
 * } catch (RocksDBException gap) {   // NOT_FOUND: the log no longer holds `from`
 *     // the writes from `from` on are lost to this reader: copy the database anew
 *     // (a checkpoint, a backup) and follow from the copy's latestSequenceNumber() + 1
 * }
 * }
 *
 * @param sequence the sequence number of the batch's first entry (each later entry of the batch
 *                 has the next number)
 * @param batch    the batch, owned by the caller
 */
public record WalUpdate(long sequence, WriteBatch batch) {
    /**
     * An update.
     *
     * @param sequence the sequence number of the batch's first entry
     * @param batch    the batch
     */
    public WalUpdate {
        Objects.requireNonNull(batch, "batch");
    }
}
