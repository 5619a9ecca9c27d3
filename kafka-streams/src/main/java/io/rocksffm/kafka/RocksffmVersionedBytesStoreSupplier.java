package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;

import java.util.Objects;

/** Supplies {@link RocksffmVersionedStore}s to Kafka's versioned store builder. Made by {@link RocksffmStores}. */
public final class RocksffmVersionedBytesStoreSupplier implements VersionedBytesStoreSupplier {
    private final String name;
    private final long historyRetention;
    private final long segmentInterval;

    /**
     * A supplier.
     *
     * @param name             the stores' name
     * @param historyRetention how far behind the stream time versions stay queryable, in milliseconds
     * @param segmentInterval  the width of a history segment, in milliseconds
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if the history retention is negative or the segment interval
     *                                  not positive
     */
    public RocksffmVersionedBytesStoreSupplier(String name, long historyRetention, long segmentInterval) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        if (historyRetention < 0) {
            throw new IllegalArgumentException("historyRetention cannot be negative");
        }
        if (segmentInterval < 1) {
            throw new IllegalArgumentException("segmentInterval cannot be zero or negative");
        }
        this.historyRetention = historyRetention;
        this.segmentInterval = segmentInterval;
    }

    @Override
    public String name() {
        return name;
    }

    /** {@return a new, unopened store} */
    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return new RocksffmVersionedStore(name, historyRetention, segmentInterval);
    }

    @Override
    public String metricsScope() {
        return RocksffmKeyValueBytesStoreSupplier.METRICS_SCOPE;
    }

    @Override
    public long historyRetentionMs() {
        return historyRetention;
    }

    /** {@return the width of a history segment, in milliseconds} */
    public long segmentIntervalMs() {
        return segmentInterval;
    }
}
