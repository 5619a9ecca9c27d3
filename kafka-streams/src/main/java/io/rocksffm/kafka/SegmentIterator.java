package io.rocksffm.kafka;

import io.rocksffm.RocksIterator;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.WindowStoreIterator;

import java.util.Arrays;
import java.util.Iterator;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * An iterator of a {@link SegmentedStore}: visits segments in the given order and, in each, the
 * store keys between two bounds, forward or backward. As in Kafka's segmented stores, it reads a
 * segment as it is when it reaches it (at the first {@code hasNext}, then at each next segment),
 * writes made since the iterator was created included: a new database iterator is made for the
 * segment if the store was written since the last one was made. A decoder turns a database key
 * into the iterator's key, or skips it (the bounds of a key range also cover other keys' records).
 * Once closed, it has no next element (as Kafka's segmented stores' iterators).
 *
 * @param <K> the key type it returns
 */
class SegmentIterator<K> extends LookAheadIterator<K> {
    /** Decodes a database key (the 8-byte segment, then the store key), or returns null to skip it. */
    @FunctionalInterface
    interface Decoder<K> {
        K decode(byte[] rawKey);
    }

    private final Supplier<RocksIterator> newIterator;
    private final LongSupplier writes;
    private final Iterator<Long> segments;
    private final byte[] lower;
    private final byte[] upper;
    private final boolean reverse;
    private final Decoder<K> decoder;
    private final Consumer<SegmentIterator<?>> onClose;

    /** The current segment's bounds as database keys; the upper is exclusive when {@code upperOpen}. */
    private byte[] segmentLower;
    private byte[] segmentUpper;
    private boolean upperOpen;
    private boolean positioned;
    private RocksIterator db;
    /** The store's write count when {@link #db} was made. */
    private long writesSeen;

    /**
     * @param newIterator a new database iterator, or null when the store is closed
     * @param writes      the store's count of writes (an iterator is reused for the next segment
     *                    when nothing was written since it was made)
     * @param segments    the segments to visit, in order
     * @param lower       the lowest store key in each segment (inclusive), or null
     * @param upper       the highest store key in each segment (inclusive), or null
     * @param onClose     told when this iterator closes
     */
    SegmentIterator(Supplier<RocksIterator> newIterator, LongSupplier writes, Iterator<Long> segments, byte[] lower,
                    byte[] upper, boolean reverse, Decoder<K> decoder, Consumer<SegmentIterator<?>> onClose) {
        this.newIterator = newIterator;
        this.writes = writes;
        this.segments = segments;
        this.lower = lower;
        this.upper = upper;
        this.reverse = reverse;
        this.decoder = decoder;
        this.onClose = onClose;
    }

    private static byte[] concat(byte[] prefix, byte[] suffix) {
        byte[] out = new byte[prefix.length + suffix.length];
        System.arraycopy(prefix, 0, out, 0, prefix.length);
        System.arraycopy(suffix, 0, out, prefix.length, suffix.length);
        return out;
    }

    /**
     * Positions a database iterator at the next segment's first entry: a new one, unless nothing
     * was written since the current one was made. False when no segment is left.
     */
    private boolean nextSegment() {
        long written = writes.getAsLong();
        if (db != null && (!segments.hasNext() || written != writesSeen)) {
            db.close();
            db = null;
        }
        if (!segments.hasNext()) {
            return false;
        }
        if (db == null) {
            db = newIterator.get();
            writesSeen = written;
            if (db == null) {
                return false;
            }
        }
        long segment = segments.next();
        byte[] prefix = SegmentedStore.segmentPrefix(segment);
        segmentLower = lower == null ? prefix : concat(prefix, lower);
        if (upper == null) {
            segmentUpper = segment == Long.MAX_VALUE ? null : SegmentedStore.segmentPrefix(segment + 1);
            upperOpen = true;
        } else {
            segmentUpper = concat(prefix, upper);
            upperOpen = false;
        }
        if (reverse) {
            if (segmentUpper == null) {
                db.seekToLast();
            } else {
                db.seekForPrev(segmentUpper);
                if (upperOpen && db.isValid() && Arrays.compareUnsigned(db.keyBytes(), segmentUpper) == 0) {
                    db.prev();
                }
            }
        } else {
            db.seek(segmentLower);
        }
        return true;
    }

    private boolean inSegment(byte[] key) {
        if (Arrays.compareUnsigned(key, segmentLower) < 0) {
            return false;
        }
        if (segmentUpper == null) {
            return true;
        }
        int c = Arrays.compareUnsigned(key, segmentUpper);
        return upperOpen ? c < 0 : c <= 0;
    }

    @Override
    KeyValue<K, byte[]> advance() {
        if (!positioned) {
            positioned = true;
            if (!nextSegment()) {
                return null;
            }
        }
        while (db != null) {
            if (db.isValid()) {
                byte[] key = db.keyBytes();
                if (inSegment(key)) {
                    K decoded = decoder.decode(key);
                    KeyValue<K, byte[]> entry = decoded == null ? null : KeyValue.pair(decoded, db.valueBytes());
                    if (reverse) {
                        db.prev();
                    } else {
                        db.next();
                    }
                    if (entry != null) {
                        return entry;
                    }
                    continue;
                }
            }
            if (!nextSegment()) {
                return null;
            }
        }
        return null;
    }

    @Override
    void release() {
        if (db != null) {
            db.close();
            db = null;
        }
    }

    @Override
    void closed() {
        onClose.accept(this);
    }

    /** A {@link SegmentIterator} whose keys are window start timestamps: a window store's fetch of one key. */
    static final class Timestamps extends SegmentIterator<Long> implements WindowStoreIterator<byte[]> {
        Timestamps(Supplier<RocksIterator> newIterator, LongSupplier writes, Iterator<Long> segments, byte[] lower,
                   byte[] upper, boolean reverse, Decoder<Long> decoder, Consumer<SegmentIterator<?>> onClose) {
            super(newIterator, writes, segments, lower, upper, reverse, decoder, onClose);
        }
    }
}
