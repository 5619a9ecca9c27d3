package io.rocksffm.kafka;

import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;

/**
 * Store suppliers on rocksffm, the counterparts of Kafka's {@code Stores.persistentKeyValueStore}
 * and {@code Stores.persistentTimestampedKeyValueStore}:
 *
 * <pre>{@code
 * StoreBuilder<KeyValueStore<String, Long>> counts = Stores.keyValueStoreBuilder(
 *         RocksffmStores.keyValueStore("counts"), Serdes.String(), Serdes.Long());
 * builder.stream("words").groupByKey()
 *        .count(Materialized.as(RocksffmStores.timestampedKeyValueStore("word-counts")));
 * }</pre>
 *
 * To put every store of a DSL application on rocksffm instead, set
 * {@code dsl.store.suppliers.class} to {@link RocksffmDslStoreSuppliers}.
 */
public final class RocksffmStores {
    private RocksffmStores() {
    }

    /**
     * A persistent key-value store on rocksffm.
     *
     * @param name the store's name
     * @return its supplier
     */
    public static KeyValueBytesStoreSupplier keyValueStore(String name) {
        return new RocksffmKeyValueBytesStoreSupplier(name, false);
    }

    /**
     * A persistent timestamped key-value store on rocksffm (values carry their timestamps, as
     * Kafka's DSL stores do).
     *
     * @param name the store's name
     * @return its supplier
     */
    public static KeyValueBytesStoreSupplier timestampedKeyValueStore(String name) {
        return new RocksffmKeyValueBytesStoreSupplier(name, true);
    }
}
