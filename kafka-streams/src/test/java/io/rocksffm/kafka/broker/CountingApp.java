package io.rocksffm.kafka.broker;

import io.rocksffm.Options;
import io.rocksffm.kafka.RocksffmConfigSetter;
import io.rocksffm.kafka.RocksffmStores;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The exactly-once application of the broker test, run in a child JVM: counts the records of
 * topic {@code input-<name>} per key in a rocksffm store ({@code counts}, with a changelog, 128 KiB
 * memtables so that its data reaches SST files) and writes each new count to topic
 * {@code counts-<name>}. Every second it prints the store's uncommitted bytes per task
 * ({@code buffered <task> <bytes>}); it stops when its standard input closes (the test ended) or
 * after {@code maxSeconds} at the latest.
 *
 * <p>Arguments: bootstrap servers, state directory, {@code enable.transactional.statestores}
 * (true/false), maximum run time in seconds, the name (of the application and its topics).
 */
public final class CountingApp {
    private CountingApp() {
    }

    /** Small memtables: the test's data reaches SST files. */
    public static final class SmallMemtables implements RocksffmConfigSetter {
        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.setWriteBufferSize(128 << 10);
        }
    }

    static Topology topology(String name) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.addStateStore(Stores.keyValueStoreBuilder(RocksffmStores.keyValueStore("counts"), Serdes.String(),
                Serdes.Long()).withCachingDisabled());
        builder.stream("input-" + name, Consumed.with(Serdes.String(), Serdes.String()))
                .process(Count::new, "counts")
                .to("counts-" + name, Produced.with(Serdes.String(), Serdes.Long()));
        return builder.build();
    }

    /** Adds one to the key's count and forwards the count. */
    private static final class Count implements Processor<String, String, String, Long> {
        private KeyValueStore<String, Long> store;
        private ProcessorContext<String, Long> context;

        @Override
        public void init(ProcessorContext<String, Long> context) {
            this.context = context;
            store = context.getStateStore("counts");
            context.schedule(Duration.ofSeconds(1), PunctuationType.WALL_CLOCK_TIME, now -> System.out.println(
                    "buffered " + context.taskId() + " " + store.approximateNumUncommittedBytes()));
        }

        @Override
        public void process(Record<String, String> record) {
            Long count = store.get(record.key());
            long next = count == null ? 1 : count + 1;
            store.put(record.key(), next);
            context.forward(record.withValue(next));
        }
    }

    public static void main(String[] args) throws InterruptedException {
        Properties props = new Properties();
        String name = args[4];
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rocksffm-broker-" + name);
        props.put(RocksffmConfigSetter.CONFIG, SmallMemtables.class);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(StreamsConfig.STATE_DIR_CONFIG, args[1]);
        props.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, args[2]);
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
        props.put(StreamsConfig.STATESTORE_UNCOMMITTED_MAX_BYTES_CONFIG, 256 * 1024);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 10_000);
        props.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 1_000);
        props.put(StreamsConfig.consumerPrefix("max.poll.records"), 500);
        long maxSeconds = Long.parseLong(args[3]);
        CountDownLatch stopped = new CountDownLatch(1);
        KafkaStreams streams = new KafkaStreams(topology(name), props);
        streams.setStateListener((now, before) -> {
            System.out.println("state " + now);
            if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
                stopped.countDown();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> streams.close(Duration.ofSeconds(20))));
        // The test's end (its pipe to this process closes) ends this process too.
        Thread.ofPlatform().daemon().start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is sent
                }
            } catch (IOException e) {
                // closed
            }
            stopped.countDown();
        });
        streams.start();
        stopped.await(maxSeconds, TimeUnit.SECONDS);
        streams.close(Duration.ofSeconds(20));
        System.exit(0);
    }
}
