package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;

import java.util.Objects;

/** Supplies {@link RocksffmSessionStore}s to Kafka's store builders. Made by {@link RocksffmStores}. */
public final class RocksffmSessionBytesStoreSupplier implements SessionBytesStoreSupplier {
    private final String name;
    private final long retentionPeriod;
    private final long segmentInterval;
    private final boolean findsByEndTime;

    /**
     * A supplier.
     *
     * @param name            the stores' name
     * @param retentionPeriod how long sessions are kept after they end, in milliseconds
     * @param segmentInterval the width of a segment, in milliseconds
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if the retention period is negative or the segment interval
     *                                  not positive
     */
    public RocksffmSessionBytesStoreSupplier(String name, long retentionPeriod, long segmentInterval) {
        this(name, retentionPeriod, segmentInterval, false);
    }

    /** A supplier of stores that answer {@code findSessions(long, long)} if {@code findsByEndTime} (emitting on window close). */
    RocksffmSessionBytesStoreSupplier(String name, long retentionPeriod, long segmentInterval, boolean findsByEndTime) {
        this.findsByEndTime = findsByEndTime;
        this.name = Objects.requireNonNull(name, "name cannot be null");
        if (retentionPeriod < 0) {
            throw new IllegalArgumentException("retentionPeriod cannot be negative");
        }
        if (segmentInterval < 1) {
            throw new IllegalArgumentException("segmentInterval cannot be zero or negative");
        }
        this.retentionPeriod = retentionPeriod;
        this.segmentInterval = segmentInterval;
    }

    @Override
    public String name() {
        return name;
    }

    /** {@return a new, unopened store} */
    @Override
    public SessionStore<Bytes, byte[]> get() {
        return new RocksffmSessionStore(name, retentionPeriod, segmentInterval, findsByEndTime);
    }

    @Override
    public String metricsScope() {
        return RocksffmSessionStore.METRICS_SCOPE;
    }

    @Override
    public long segmentIntervalMs() {
        return segmentInterval;
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }
}
