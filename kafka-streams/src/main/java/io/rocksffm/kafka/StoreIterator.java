package io.rocksffm.kafka;

import io.rocksffm.RocksIterator;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A store iterator: the committed data (a rocksffm iterator over the database) merged with the
 * store's uncommitted writes, in key order or reversed, between optional bounds. Uncommitted
 * writes win over the database; uncommitted deletes hide its entries. Tracked by the store, which
 * closes it when it closes.
 */
final class StoreIterator extends LookAheadIterator<Bytes> {
    private final String storeName;
    private final RocksIterator db;
    private final Iterator<Map.Entry<Bytes, byte[]>> pending;
    private final Bytes lower;
    private final Bytes upper;
    private final boolean upperInclusive;
    private final boolean reverse;
    private final Consumer<StoreIterator> onClose;

    private Bytes dbKey;
    private Map.Entry<Bytes, byte[]> pendingEntry;

    /**
     * @param db             a fresh iterator over the database; this one owns and positions it
     * @param pending        the uncommitted writes within the bounds, in iteration order
     *                       ({@link UncommittedWrites#DELETED} marks a delete)
     * @param lower          the lowest key (inclusive), or null
     * @param upper          the highest key, or null
     * @param upperInclusive whether {@code upper} itself is in range
     */
    StoreIterator(String storeName, RocksIterator db, Iterator<Map.Entry<Bytes, byte[]>> pending, Bytes lower,
                  Bytes upper, boolean upperInclusive, boolean reverse, Consumer<StoreIterator> onClose) {
        this.storeName = storeName;
        this.db = db;
        this.pending = pending;
        this.lower = lower;
        this.upper = upper;
        this.upperInclusive = upperInclusive;
        this.reverse = reverse;
        this.onClose = onClose;
        if (reverse) {
            if (upper == null) {
                db.seekToLast();
            } else {
                db.seekForPrev(upper.get());
                if (!upperInclusive && db.isValid() && Bytes.BYTES_LEXICO_COMPARATOR.compare(db.keyBytes(), upper.get()) == 0) {
                    db.prev();
                }
            }
        } else if (lower == null) {
            db.seekToFirst();
        } else {
            db.seek(lower.get());
        }
        readDbKey();
        pendingEntry = pending.hasNext() ? pending.next() : null;
    }

    private boolean inRange(byte[] key) {
        if (lower != null && Bytes.BYTES_LEXICO_COMPARATOR.compare(key, lower.get()) < 0) {
            return false;
        }
        if (upper != null) {
            int c = Bytes.BYTES_LEXICO_COMPARATOR.compare(key, upper.get());
            return upperInclusive ? c <= 0 : c < 0;
        }
        return true;
    }

    private void readDbKey() {
        if (db.isValid()) {
            byte[] key = db.keyBytes();
            dbKey = inRange(key) ? Bytes.wrap(key) : null;
        } else {
            dbKey = null;
        }
    }

    private void moveDb() {
        if (reverse) {
            db.prev();
        } else {
            db.next();
        }
        readDbKey();
    }

    private void movePending() {
        pendingEntry = pending.hasNext() ? pending.next() : null;
    }

    @Override
    KeyValue<Bytes, byte[]> advance() {
        while (dbKey != null || pendingEntry != null) {
            int order;
            if (dbKey == null) {
                order = 1;
            } else if (pendingEntry == null) {
                order = -1;
            } else {
                order = dbKey.compareTo(pendingEntry.getKey());
                if (reverse) {
                    order = -order;
                }
            }
            if (order < 0) {
                KeyValue<Bytes, byte[]> entry = KeyValue.pair(dbKey, db.valueBytes());
                moveDb();
                return entry;
            }
            if (order == 0) {
                moveDb();
            }
            Map.Entry<Bytes, byte[]> p = pendingEntry;
            movePending();
            if (p.getValue() != UncommittedWrites.DELETED) {
                return KeyValue.pair(p.getKey(), p.getValue());
            }
        }
        return null;
    }

    /** A use after close throws, as Kafka's key-value store iterators do. */
    @Override
    boolean hasNextAfterClose() {
        throw new InvalidStateStoreException("The iterator of rocksffm store " + storeName + " has been closed");
    }

    @Override
    void release() {
        db.close();
    }

    @Override
    void closed() {
        onClose.accept(this);
    }
}
