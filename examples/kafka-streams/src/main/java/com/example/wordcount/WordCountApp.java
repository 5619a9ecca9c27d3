package com.example.wordcount;

import io.rocksffm.Options;
import io.rocksffm.kafka.RocksffmConfigSetter;
import io.rocksffm.kafka.RocksffmDslStoreSuppliers;
import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

import java.util.Arrays;
import java.util.Map;
import java.util.Properties;

/** A word count on rocksffm stores: lines from "text", counts of their words to "word-counts". */
public final class WordCountApp {
    private WordCountApp() {
    }

    // --- guide:topology begin
    public static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("text", Consumed.with(Serdes.String(), Serdes.String()))
                .flatMapValues(line -> Arrays.asList(line.toLowerCase().split("\\W+")))
                .filter((key, word) -> !word.isEmpty())
                .groupBy((key, word) -> word, Grouped.with(Serdes.String(), Serdes.String()))
                .count(Materialized.as("counts"))      // a rocksffm store, by the setting below
                .toStream()
                .to("word-counts", Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }
    // --- guide:topology end

    // --- guide:config begin
    public static Properties config(String bootstrapServers, String stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "wordcount");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
        // Every key-value, window and session store of the DSL on rocksffm:
        props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, RocksffmDslStoreSuppliers.class);
        // Optional: tune each store's rocksffm Options.
        props.put(RocksffmConfigSetter.CONFIG, BiggerMemtables.class);
        return props;
    }

    /** The options hook: called with each store's Options before its database opens. */
    public static final class BiggerMemtables implements RocksffmConfigSetter {
        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.setWriteBufferSize(32L << 20);
        }
    }
    // --- guide:config end

    // --- guide:processor-api begin
    /** A store for the Processor API, on rocksffm, with a changelog as Kafka's stores have. */
    public static StoreBuilder<KeyValueStore<String, Long>> totalsStore() {
        return Stores.keyValueStoreBuilder(RocksffmStores.keyValueStore("totals"), Serdes.String(), Serdes.Long());
    }
    // --- guide:processor-api end

    public static void main(String[] args) {
        KafkaStreams streams = new KafkaStreams(topology(), config(args.length > 0 ? args[0] : "localhost:9092",
                args.length > 1 ? args[1] : "/tmp/kafka-streams"));
        Runtime.getRuntime().addShutdownHook(new Thread(streams::close));
        streams.start();
    }
}
