package io.rocksffm.kafka;

import org.apache.kafka.streams.DslStoreFormat;
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
 * Moves a DSL application's key-value stores onto rocksffm with one setting:
 *
 * <pre>{@code
 * props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
 * }</pre>
 *
 * Every key-value store the DSL makes ({@code count}, {@code aggregate}, {@code reduce},
 * {@code toTable}, table joins, ...) is then a rocksffm store, plain or timestamped as the DSL asks.
 * Stores in Kafka's headers format, window stores and session stores are not implemented on
 * rocksffm: they come from Kafka's built-in RocksDB suppliers, unchanged.
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
        return builtIn.windowStore(params);
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        return builtIn.sessionStore(params);
    }
}
