package io.rocksffm.kafka;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.HeadersBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowStore;

import java.util.Objects;

/**
 * The suppliers of the headers-format stores: each is the plain supplier's settings, marked with
 * Kafka's {@link HeadersBytesStoreSupplier} (which Kafka's DSL reads to pick its headers-aware
 * store builder), supplying the headers variant of the store.
 */
final class HeadersSuppliers {
    private HeadersSuppliers() {
    }

    /** Timestamped key-value stores with headers. */
    record KeyValue(String name) implements KeyValueBytesStoreSupplier, HeadersBytesStoreSupplier {
        KeyValue {
            Objects.requireNonNull(name, "name cannot be null");
        }

        @Override
        public KeyValueStore<Bytes, byte[]> get() {
            return new RocksffmTimestampedKeyValueStoreWithHeaders(name);
        }

        @Override
        public String metricsScope() {
            return RocksffmKeyValueBytesStoreSupplier.METRICS_SCOPE;
        }
    }

    /** Timestamped window stores with headers, with the settings of {@code settings}. */
    record Window(RocksffmWindowBytesStoreSupplier settings) implements WindowBytesStoreSupplier, HeadersBytesStoreSupplier {
        @Override
        public String name() {
            return settings.name();
        }

        @Override
        public WindowStore<Bytes, byte[]> get() {
            return new RocksffmTimestampedWindowStoreWithHeaders(name(), retentionPeriod(), segmentIntervalMs(),
                    windowSize(), retainDuplicates());
        }

        @Override
        public String metricsScope() {
            return settings.metricsScope();
        }

        @Override
        public long segmentIntervalMs() {
            return settings.segmentIntervalMs();
        }

        @Override
        public long windowSize() {
            return settings.windowSize();
        }

        @Override
        public boolean retainDuplicates() {
            return settings.retainDuplicates();
        }

        @Override
        public long retentionPeriod() {
            return settings.retentionPeriod();
        }
    }

    /** Session stores with headers, with the settings of {@code settings}. */
    record Session(RocksffmSessionBytesStoreSupplier settings) implements SessionBytesStoreSupplier, HeadersBytesStoreSupplier {
        @Override
        public String name() {
            return settings.name();
        }

        @Override
        public SessionStore<Bytes, byte[]> get() {
            return new RocksffmSessionStoreWithHeaders(name(), retentionPeriod(), segmentIntervalMs());
        }

        @Override
        public String metricsScope() {
            return settings.metricsScope();
        }

        @Override
        public long segmentIntervalMs() {
            return settings.segmentIntervalMs();
        }

        @Override
        public long retentionPeriod() {
            return settings.retentionPeriod();
        }
    }
}
