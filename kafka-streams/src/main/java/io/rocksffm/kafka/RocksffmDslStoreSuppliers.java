package io.rocksffm.kafka;

import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

import java.util.Map;

/**
 * Moves a DSL application's stores onto rocksffm with one setting:
 *
 * <pre>{@code
 * props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
 * }</pre>
 *
 * Every key-value store the DSL makes ({@code count}, {@code aggregate}, {@code reduce},
 * {@code toTable}, table joins, ...) is then a rocksffm store, plain or timestamped as the DSL asks;
 * so is every window store (windowed aggregations, stream-stream joins) and session store
 * (session-windowed aggregations). Not on rocksffm, and so from Kafka's built-in RocksDB suppliers,
 * unchanged: stores in Kafka's headers format ({@link DslStoreFormat#HEADERS}: Kafka's timestamped
 * key-value, window and session stores with headers, which keep headers-format values apart from
 * the older formats' and upgrade a store from those; a rocksffm store keeps one value format), and
 * the time-ordered window and session stores Kafka uses for
 * {@code emitStrategy(EmitStrategy.onWindowClose())}.
 */
public class RocksffmDslStoreSuppliers implements DslStoreSuppliers {
    private final DslStoreSuppliers builtIn = new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers();

    /** Suppliers, for {@code dsl.store.suppliers.class} (Kafka instantiates it). */
    public RocksffmDslStoreSuppliers() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
        builtIn.configure(configs);
    }

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        DslStoreFormat format = params.dslStoreFormat();
        if (format == DslStoreFormat.HEADERS) {
            return builtIn.keyValueStore(params);
        }
        return new RocksffmKeyValueBytesStoreSupplier(params.name(), format == DslStoreFormat.TIMESTAMPED);
    }

    @Override
    public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
        DslStoreFormat format = params.dslStoreFormat();
        if (params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE || format == DslStoreFormat.HEADERS) {
            return builtIn.windowStore(params);
        }
        return format == null || format == DslStoreFormat.TIMESTAMPED // no format: timestamped, as Kafka's suppliers read it
                ? RocksffmStores.timestampedWindowStore(params.name(), params.retentionPeriod(), params.windowSize(),
                        params.retainDuplicates())
                : RocksffmStores.windowStore(params.name(), params.retentionPeriod(), params.windowSize(),
                        params.retainDuplicates());
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        if (params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE
                || params.storeFormat() == DslStoreFormat.HEADERS) {
            return builtIn.sessionStore(params);
        }
        return RocksffmStores.sessionStore(params.name(), params.retentionPeriod());
    }
}
