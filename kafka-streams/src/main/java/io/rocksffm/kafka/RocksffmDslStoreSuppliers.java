package io.rocksffm.kafka;

import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Moves a DSL application's stores onto rocksffm with one setting:
 *
 * <pre>{@code
 * props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
 * }</pre>
 *
 * Every store the DSL makes is then a rocksffm store: key-value stores ({@code count},
 * {@code aggregate}, {@code reduce}, {@code toTable}, table joins, ...), plain or timestamped as
 * the DSL asks; window stores (windowed aggregations, stream-stream joins) and session stores
 * (session-windowed aggregations), also those of aggregations that emit on window close; and, with
 * {@code dsl.store.format=headers}, the headers-format variants of all of them
 * ({@link RocksffmStores#timestampedKeyValueStoreWithHeaders},
 * {@link RocksffmStores#timestampedWindowStoreWithHeaders}, {@link RocksffmStores#sessionStoreWithHeaders}).
 *
 * <p>Where Kafka's suppliers give a windowed aggregation that emits on window close its
 * time-ordered window store, this one gives the key-ordered window store: Kafka's store builder
 * puts its time-ordered cache only in front of Kafka's own time-ordered store class and a key-ordered
 * cache in front of any other, so another store has to iterate in key order within a segment. The
 * aggregation emits the same final results; when one emission holds windows of several start
 * times, they come key by key within a segment rather than in order of time (each key's windows in
 * order of time either way). A session-windowed aggregation that emits on window close gets a
 * session store that finds the closed sessions in Kafka's time order
 * ({@link RocksffmSessionStore#findSessions(long, long)}), as Kafka's time-ordered session store does.
 */
public class RocksffmDslStoreSuppliers implements DslStoreSuppliers {
    /** Suppliers, for {@code dsl.store.suppliers.class} (Kafka instantiates it). */
    public RocksffmDslStoreSuppliers() {
    }

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        DslStoreFormat format = params.dslStoreFormat();
        if (format == DslStoreFormat.HEADERS) {
            return RocksffmStores.timestampedKeyValueStoreWithHeaders(params.name());
        }
        return new RocksffmKeyValueBytesStoreSupplier(params.name(), format == DslStoreFormat.TIMESTAMPED);
    }

    @Override
    public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
        DslStoreFormat format = params.dslStoreFormat();
        if (format == DslStoreFormat.HEADERS) {
            return RocksffmStores.timestampedWindowStoreWithHeaders(params.name(), params.retentionPeriod(),
                    params.windowSize(), params.retainDuplicates());
        }
        return format == null || format == DslStoreFormat.TIMESTAMPED // no format: timestamped, as Kafka's suppliers read it
                ? RocksffmStores.timestampedWindowStore(params.name(), params.retentionPeriod(), params.windowSize(),
                        params.retainDuplicates())
                : RocksffmStores.windowStore(params.name(), params.retentionPeriod(), params.windowSize(),
                        params.retainDuplicates());
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        boolean headers = params.storeFormat() == DslStoreFormat.HEADERS;
        if (params.emitStrategy().type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE) {
            return RocksffmStores.emitOnCloseSessionStore(params.name(), params.retentionPeriod(), headers);
        }
        return headers
                ? RocksffmStores.sessionStoreWithHeaders(params.name(), params.retentionPeriod())
                : RocksffmStores.sessionStore(params.name(), params.retentionPeriod());
    }
}
