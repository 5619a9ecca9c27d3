package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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

    private final boolean findsByEndTime;

    /**
     * A store that opens its database in {@code init}.
     *
     * @param name            the store's name
     * @param retentionPeriod how long sessions are kept, in milliseconds, measured from their end
     * @param segmentInterval the width of a segment, in milliseconds
     */
    public RocksffmSessionStore(String name, long retentionPeriod, long segmentInterval) {
        this(name, retentionPeriod, segmentInterval, false);
    }

    /** A store that answers {@link #findSessions(long, long)} if {@code findsByEndTime} (the DSL's emit-on-window-close store). */
    RocksffmSessionStore(String name, long retentionPeriod, long segmentInterval, boolean findsByEndTime) {
        super(name, METRICS_SCOPE, retentionPeriod, segmentInterval);
        this.findsByEndTime = findsByEndTime;
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

    /**
     * The sessions that end between the two times (inclusive), ordered as Kafka's time-ordered
     * session store orders them: by end, then start, then key. Kafka's DSL asks for this when a
     * session-windowed aggregation emits on window close, for the sessions closed since its last
     * emission. The sessions are read from the segments of that end-time range and sorted in
     * memory, so the iterator holds them all. The store that {@link RocksffmDslStoreSuppliers}
     * gives such an aggregation answers it, and so does the store with headers; like Kafka's
     * plain session store, a plain one made otherwise refuses it.
     *
     * @param earliestSessionEndTime the earliest end, inclusive
     * @param latestSessionEndTime   the latest end, inclusive
     * @return the sessions, with their aggregates; close it when done
     * @throws UnsupportedOperationException if this is a plain store not made for emitting on window close
     */
    @Override
    public KeyValueIterator<Windowed<Bytes>, byte[]> findSessions(long earliestSessionEndTime, long latestSessionEndTime) {
        if (!findsByEndTime) {
            return SessionStore.super.findSessions(earliestSessionEndTime, latestSessionEndTime);
        }
        // Expired segments only, as Kafka's time-ordered store: the sessions an emission asks for
        // have just closed, which is when the retention period (gap plus grace) lets them go.
        long from = earliestSessionEndTime;
        List<TimeOrdered> sessions = new ArrayList<>();
        try (KeyValueIterator<Windowed<Bytes>, byte[]> found = iterator(segmentId(from), segmentId(latestSessionEndTime),
                null, null, false, raw -> {
                    Windowed<Bytes> session = session(raw);
                    long end = session.window().end();
                    return end >= from && end <= latestSessionEndTime ? session : null;
                })) {
            found.forEachRemaining(kv -> sessions.add(new TimeOrdered(timeFirstKey(kv.key), kv)));
        }
        sessions.sort((a, b) -> Arrays.compareUnsigned(a.order, b.order));
        return new InMemoryIterator<>(sessions.stream().map(TimeOrdered::session).toList());
    }

    /** A session found by end time, with the key that orders it. */
    private record TimeOrdered(byte[] order, KeyValue<Windowed<Bytes>, byte[]> session) {
    }

    /** Kafka's time-first session key (end, start, key), in whose byte order its time-ordered store iterates. */
    private static byte[] timeFirstKey(Windowed<Bytes> session) {
        byte[] key = session.key().get();
        return ByteBuffer.allocate(SUFFIX + key.length).putLong(session.window().end())
                .putLong(session.window().start()).put(key).array();
    }

    /** The session of a database key (the segment, then the store key). */
    private static Windowed<Bytes> session(byte[] raw) {
        int keyLength = raw.length - 8 - SUFFIX;
        ByteBuffer b = ByteBuffer.wrap(raw, 8 + keyLength, SUFFIX);
        long end = b.getLong();
        long start = b.getLong();
        return new Windowed<>(Bytes.wrap(Arrays.copyOfRange(raw, 8, 8 + keyLength)), new SessionWindow(start, end));
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
                    return session(raw);
                });
    }
}
