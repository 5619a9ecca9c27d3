package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

import java.util.Objects;

/**
 * Supplies {@link RocksffmKeyValueStore}s (or, timestamped, {@link RocksffmTimestampedKeyValueStore}s)
 * to Kafka's store builders. Made by {@link RocksffmStores}.
 */
public final class RocksffmKeyValueBytesStoreSupplier implements KeyValueBytesStoreSupplier {
    /**
     * The metrics scope of rocksffm's key-value and versioned stores (Kafka's own are
     * {@code rocksdb}); the window and session stores' are {@code rocksffm-window} and
     * {@code rocksffm-session}, after Kafka's {@code rocksdb-window} and {@code rocksdb-session}.
     */
    public static final String METRICS_SCOPE = "rocksffm";

    private final String name;
    private final boolean timestamped;

    /**
     * A supplier.
     *
     * @param name        the stores' name
     * @param timestamped whether the stores hold values in Kafka's timestamped format
     */
    public RocksffmKeyValueBytesStoreSupplier(String name, boolean timestamped) {
        this.name = Objects.requireNonNull(name, "name cannot be null");
        this.timestamped = timestamped;
    }

    @Override
    public String name() {
        return name;
    }

    /** {@return a new, unopened store} */
    @Override
    public KeyValueStore<Bytes, byte[]> get() {
        return timestamped ? new RocksffmTimestampedKeyValueStore(name) : new RocksffmKeyValueStore(name);
    }

    @Override
    public String metricsScope() {
        return METRICS_SCOPE;
    }

    /** {@return whether the stores hold values in Kafka's timestamped format} */
    public boolean timestamped() {
        return timestamped;
    }
}
