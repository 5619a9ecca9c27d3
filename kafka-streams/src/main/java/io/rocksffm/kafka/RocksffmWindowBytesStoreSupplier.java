package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

import java.util.Objects;

/**
 * Supplies {@link RocksffmWindowStore}s (or, timestamped, {@link RocksffmTimestampedWindowStore}s)
 * to Kafka's store builders. Made by {@link RocksffmStores}.
 */
public final class RocksffmWindowBytesStoreSupplier implements WindowBytesStoreSupplier {
    private final String name;
    private final long retentionPeriod;
    private final long segmentInterval;
    private final long windowSize;
    private final boolean retainDuplicates;
    private final boolean timestamped;

    /**
     * A supplier.
     *
     * @param name             the stores' name
     * @param retentionPeriod  how long windows are kept, in milliseconds
     * @param segmentInterval  the width of a segment, in milliseconds
     * @param windowSize       the windows' size, in milliseconds
     * @param retainDuplicates whether every put is kept rather than replacing the window's value
     * @param timestamped      whether the stores hold values in Kafka's timestamped format
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if a period is negative, the segment interval not positive,
     *                                  or the retention period smaller than the window size
     */
    public RocksffmWindowBytesStoreSupplier(String name, long retentionPeriod, long segmentInterval, long windowSize,
                                            boolean retainDuplicates, boolean timestamped) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        if (retentionPeriod < 0) {
            throw new IllegalArgumentException("retentionPeriod cannot be negative");
        }
        if (windowSize < 0) {
            throw new IllegalArgumentException("windowSize cannot be negative");
        }
        if (segmentInterval < 1) {
            throw new IllegalArgumentException("segmentInterval cannot be zero or negative");
        }
        if (windowSize > retentionPeriod) {
            throw new IllegalArgumentException("The retention period of the window store " + name
                    + " must be no smaller than its window size. Got size=[" + windowSize + "], retention=["
                    + retentionPeriod + "]");
        }
        this.retentionPeriod = retentionPeriod;
        this.segmentInterval = segmentInterval;
        this.windowSize = windowSize;
        this.retainDuplicates = retainDuplicates;
        this.timestamped = timestamped;
    }

    @Override
    public String name() {
        return name;
    }

    /** {@return a new, unopened store} */
    @Override
    public WindowStore<Bytes, byte[]> get() {
        return timestamped
                ? new RocksffmTimestampedWindowStore(name, retentionPeriod, segmentInterval, windowSize, retainDuplicates)
                : new RocksffmWindowStore(name, retentionPeriod, segmentInterval, windowSize, retainDuplicates);
    }

    @Override
    public String metricsScope() {
        return RocksffmWindowStore.METRICS_SCOPE;
    }

    @Override
    public long segmentIntervalMs() {
        return segmentInterval;
    }

    @Override
    public long windowSize() {
        return windowSize;
    }

    @Override
    public boolean retainDuplicates() {
        return retainDuplicates;
    }

    @Override
    public long retentionPeriod() {
        return retentionPeriod;
    }

    /** {@return whether the stores hold values in Kafka's timestamped format} */
    public boolean timestamped() {
        return timestamped;
    }
}
