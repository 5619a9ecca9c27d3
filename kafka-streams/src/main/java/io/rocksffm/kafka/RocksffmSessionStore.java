package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * A persistent Kafka Streams session store on rocksffm: the bytes store that
 * {@link RocksffmStores#sessionStore} supplies and Kafka's store builders wrap (with logging,
 * caching and metering). Sessions are kept under Kafka's session key (the key, the session's end,
 * its start) in segments of their end time, and expire with their segment once the stream time has
 * passed them by the retention period; searches return no session that ended before the retention
 * period. See {@link SegmentedStore} for the layout, commits and iterators.
 */
public class RocksffmSessionStore extends SegmentedStore implements SessionStore<Bytes, byte[]> {
    /** The scope of its metrics, after Kafka's session stores' {@code rocksdb-session}. */
    static final String METRICS_SCOPE = "rocksffm-session";
    private static final int SUFFIX = 16;

    /**
     * A store that opens its database in {@code init}.
     *
     * @param name            the store's name
     * @param retentionPeriod how long sessions are kept, in milliseconds, measured from their end
     * @param segmentInterval the width of a segment, in milliseconds
     */
    public RocksffmSessionStore(String name, long retentionPeriod, long segmentInterval) {
        super(name, METRICS_SCOPE, retentionPeriod, segmentInterval);
    }

    @Override
    long segmentTimestamp(byte[] storeKey, int offset, int length) {
        return ByteBuffer.wrap(storeKey, offset + length - SUFFIX, 8).getLong();
    }

    static byte[] storeKey(byte[] key, long end, long start) {
        return ByteBuffer.allocate(key.length + SUFFIX).put(key).putLong(end).putLong(start).array();
    }

    @Override
    public void put(Windowed<Bytes> sessionKey, byte[] aggregate) {
        Objects.requireNonNull(sessionKey, "sessionKey cannot be null");
        Objects.requireNonNull(sessionKey.key(), "key cannot be null");
        putStoreKey(storeKey(sessionKey.key().get(), sessionKey.window().end(), sessionKey.window().start()), aggregate);
    }

    @Override
    public void remove(Windowed<Bytes> sessionKey) {
        put(sessionKey, null);
    }

    @Override
    public byte[] fetchSession(Bytes key, long sessionStartTime, long sessionEndTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return getStoreKey(storeKey(key.get(), sessionEndTime, sessionStartTime));
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes key, long earliestSessionEndTime,
                                                                  long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, earliestSessionEndTime, latestSessionStartTime, false, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes key, long earliestSessionEndTime,
                                                                          long latestSessionStartTime) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, earliestSessionEndTime, latestSessionStartTime, true, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(Bytes keyFrom, Bytes keyTo, long earliestSessionEndTime,
                                                                  long latestSessionStartTime) {
        return find(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, false, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFindSessions(Bytes keyFrom, Bytes keyTo,
                                                                          long earliestSessionEndTime,
                                                                          long latestSessionStartTime) {
        return find(keyFrom, keyTo, earliestSessionEndTime, latestSessionStartTime, true, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, 0, Long.MAX_VALUE, false, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes key) {
        Objects.requireNonNull(key, "key cannot be null");
        return find(key, key, 0, Long.MAX_VALUE, true, true);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> fetch(Bytes keyFrom, Bytes keyTo) {
        return find(keyFrom, keyTo, 0, Long.MAX_VALUE, false, false);
    }

    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> backwardFetch(Bytes keyFrom, Bytes keyTo) {
        return find(keyFrom, keyTo, 0, Long.MAX_VALUE, true, false);
    }

    /** Sessions of keys in [keyFrom, keyTo] (null: unbounded) that end at or after {@code earliestEnd} and start at or before {@code latestStart}. */
    private KeyValueIterator<Windowed<Bytes>, byte[]> find(Bytes keyFrom, Bytes keyTo, long earliestEnd, long latestStart,
                                                           boolean reverse, boolean oneKey) {
        if (keyFrom != null && keyTo != null && keyFrom.compareTo(keyTo) > 0) {
            warnInvalidRange();
            return iterator(0, -1, null, null, reverse, raw -> null);
        }
        long from = actualFrom(earliestEnd);
        return iterator(segmentId(from), Long.MAX_VALUE,
                keyFrom == null ? null : storeKey(keyFrom.get(), Math.max(0, from), 0),
                keyTo == null ? null : oneKey ? storeKey(keyTo.get(), Long.MAX_VALUE, latestStart)
                        : upperRange(keyTo.get(), ByteBuffer.allocate(SUFFIX).putLong(Long.MAX_VALUE).putLong(latestStart).array()),
                reverse, raw -> {
                    int keyLength = raw.length - 8 - SUFFIX;
                    ByteBuffer b = ByteBuffer.wrap(raw, 8 + keyLength, SUFFIX);
                    long end = b.getLong();
                    long start = b.getLong();
                    if (end < from || start > latestStart) {
                        return null;
                    }
                    if (keyFrom != null && Arrays.compareUnsigned(raw, 8, 8 + keyLength, keyFrom.get(), 0, keyFrom.get().length) < 0) {
                        return null;
                    }
                    if (keyTo != null && Arrays.compareUnsigned(raw, 8, 8 + keyLength, keyTo.get(), 0, keyTo.get().length) > 0) {
                        return null;
                    }
                    return new Windowed<>(Bytes.wrap(Arrays.copyOfRange(raw, 8, 8 + keyLength)), new SessionWindow(start, end));
                });
    }
}
