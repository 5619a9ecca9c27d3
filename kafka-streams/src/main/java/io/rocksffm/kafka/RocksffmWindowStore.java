package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.TimeWindow;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A persistent Kafka Streams window store on rocksffm: the bytes store that
 * {@link RocksffmStores#windowStore} supplies and Kafka's store builders wrap (with logging,
 * caching and metering). Records are kept under Kafka's window key (the key, the window start,
 * a sequence number that tells duplicates apart) in segments of time, and expire with their
 * segment once the stream time has passed them by the retention period; reads return nothing older
 * than the retention period. See {@link SegmentedStore} for the layout, commits and iterators.
 */
public class RocksffmWindowStore extends SegmentedStore implements WindowStore<Bytes, byte[]> {
    /** The scope of its metrics, after Kafka's window stores' {@code rocksdb-window}. */
    static final String METRICS_SCOPE = "rocksffm-window";
    private static final int SUFFIX = 12;

    private final long windowSize;
    private final boolean retainDuplicates;
    private int seqnum;

    /**
     * A store that opens its database in {@code init}.
     *
     * @param name             the store's name
     * @param retentionPeriod  how long windows are kept, in milliseconds, measured from their start
     * @param segmentInterval  the width of a segment, in milliseconds
     * @param windowSize       the windows' size, in milliseconds
     * @param retainDuplicates whether every put is kept (a join's store) rather than replacing the
     *                         window's value
     */
    public RocksffmWindowStore(String name, long retentionPeriod, long segmentInterval, long windowSize,
                               boolean retainDuplicates) {
        super(name, METRICS_SCOPE, retentionPeriod, segmentInterval);
        this.windowSize = windowSize;
        this.retainDuplicates = retainDuplicates;
    }

    @Override
    long segmentTimestamp(byte[] storeKey, int offset, int length) {
        return ByteBuffer.wrap(storeKey, offset + length - SUFFIX, 8).getLong();
    }

    static byte[] storeKey(byte[] key, long timestamp, int seqnum) {
        return ByteBuffer.allocate(key.length + SUFFIX).put(key).putLong(timestamp).putInt(seqnum).array();
    }

    @Override
    public void put(Bytes key, byte[] value, long windowStartTimestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        if (value == null && retainDuplicates) {
            return; // as Kafka's stores: a duplicates store has nothing to delete
        }
        synchronized (this) {
            if (retainDuplicates) {
                seqnum = (seqnum + 1) & 0x7FFFFFFF;
            }
            putStoreKey(storeKey(key.get(), windowStartTimestamp, seqnum), value);
        }
    }

    @Override
    public byte[] fetch(Bytes key, long timestamp) {
        Objects.requireNonNull(key, "key cannot be null");
        return getStoreKey(storeKey(key.get(), timestamp, seqnum));
    }

    @Override
    public WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo) {
        return fetch(key, timeFrom, timeTo, false);
    }

    @Override
    public WindowStoreIterator<byte[]> backwardFetch(Bytes key, long timeFrom, long timeTo) {
        return fetch(key, timeFrom, timeTo, true);
    }

    private WindowStoreIterator<byte[]> fetch(Bytes key, long timeFrom, long timeTo, boolean reverse) {
        Objects.requireNonNull(key, "key cannot be null");
        long from = actualFrom(timeFrom);
        byte[] k = key.get();
        int length = 8 + k.length + SUFFIX;
        return timestamps(segmentId(from), segmentId(timeTo), storeKey(k, Math.max(0, from), 0),
                storeKey(k, timeTo, Integer.MAX_VALUE),
                reverse, raw -> {
                    if (raw.length != length || !Arrays.equals(raw, 8, 8 + k.length, k, 0, k.length)) {
                        return null;
                    }
                    long ts = ByteBuffer.wrap(raw, 8 + k.length, 8).getLong();
                    return ts >= from && ts <= timeTo ? ts : null;
                });
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return fetch(keyFrom, keyTo, timeFrom, timeTo, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        return fetch(keyFrom, keyTo, timeFrom, timeTo, true);
    }

    private KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo,
                                                            boolean reverse) {
        if (keyFrom != null && keyTo != null && keyFrom.compareTo(keyTo) > 0) {
            warnInvalidRange();
            return iterator(0, -1, null, null, reverse, raw -> null);
        }
        long from = actualFrom(timeFrom);
        return iterator(segmentId(from), segmentId(timeTo),
                keyFrom == null ? null : storeKey(keyFrom.get(), Math.max(0, from), 0),
                keyTo == null ? null : upperRange(keyTo.get(), ByteBuffer.allocate(SUFFIX).putLong(timeTo)
                        .putInt(Integer.MAX_VALUE).array()),
                reverse, raw -> windowed(raw, keyFrom, keyTo, from, timeTo));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetchAll(long timeFrom, long timeTo) {
        long from = actualFrom(timeFrom);
        return iterator(segmentId(from), segmentId(timeTo), null, null, false, raw -> windowed(raw, null, null, from, timeTo));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetchAll(long timeFrom, long timeTo) {
        long from = actualFrom(timeFrom);
        return iterator(segmentId(from), segmentId(timeTo), null, null, true, raw -> windowed(raw, null, null, from, timeTo));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> all() {
        return iterator(Long.MIN_VALUE, Long.MAX_VALUE, null, null, false, raw -> windowed(raw, null, null, 0, Long.MAX_VALUE));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardAll() {
        return iterator(Long.MIN_VALUE, Long.MAX_VALUE, null, null, true, raw -> windowed(raw, null, null, 0, Long.MAX_VALUE));
    }

    /** The windowed key of a database key, or null if it is outside the key or time range. */
    private Windowed<Bytes> windowed(byte[] raw, Bytes keyFrom, Bytes keyTo, long timeFrom, long timeTo) {
        int keyLength = raw.length - 8 - SUFFIX;
        long ts = ByteBuffer.wrap(raw, 8 + keyLength, 8).getLong();
        if (ts < timeFrom || ts > timeTo) {
            return null;
        }
        if (keyFrom != null && Arrays.compareUnsigned(raw, 8, 8 + keyLength, keyFrom.get(), 0, keyFrom.get().length) < 0) {
            return null;
        }
        if (keyTo != null && Arrays.compareUnsigned(raw, 8, 8 + keyLength, keyTo.get(), 0, keyTo.get().length) > 0) {
            return null;
        }
        long end = ts + windowSize;
        return new Windowed<>(Bytes.wrap(Arrays.copyOfRange(raw, 8, 8 + keyLength)),
                new TimeWindow(ts, end < ts ? Long.MAX_VALUE : end));
    }
}
