package io.rocksffm.kafka;

import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.CommitCallback;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A state store context for driving a store directly, as a task would: Kafka's
 * {@link MockProcessorContext} (metrics, serdes, task) with the restore callback the store
 * registers kept, and record metadata that a test sets.
 */
final class TestContext implements StateStoreContext {
    private final StateStoreContext mock;
    private final File stateDir;
    private final Map<String, Object> configs;
    private final Map<String, StateRestoreCallback> callbacks = new HashMap<>();
    private RecordMetadata metadata;

    TestContext(File stateDir, Map<String, Object> extraConfigs) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rocksffm-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.putAll(extraConfigs);
        this.stateDir = stateDir;
        this.mock = new MockProcessorContext<>(props, new TaskId(0, 0), stateDir).getStateStoreContext();
        this.configs = new HashMap<>(mock.appConfigs());
        this.configs.putAll(extraConfigs);
    }

    /** {@return the UTF-8 bytes of {@code s} as a store key} */
    static Bytes b(String s) {
        return Bytes.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    /** {@return the UTF-8 bytes of {@code s} as a store value} */
    static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Sets the metadata of the record being processed (its topic, partition and offset). */
    void setRecord(String topic, int partition, long offset) {
        metadata = new RecordMetadata() {
            @Override
            public String topic() {
                return topic;
            }

            @Override
            public int partition() {
                return partition;
            }

            @Override
            public long offset() {
                return offset;
            }
        };
    }

    /** {@return the restore callback the store registered} */
    StateRestoreCallback restoreCallback(String store) {
        return callbacks.get(store);
    }

    @Override
    public String applicationId() {
        return mock.applicationId();
    }

    @Override
    public TaskId taskId() {
        return mock.taskId();
    }

    @Override
    public Optional<RecordMetadata> recordMetadata() {
        return Optional.ofNullable(metadata);
    }

    @Override
    public Serde<?> keySerde() {
        return mock.keySerde();
    }

    @Override
    public Serde<?> valueSerde() {
        return mock.valueSerde();
    }

    @Override
    public File stateDir() {
        return stateDir;
    }

    @Override
    public StreamsMetrics metrics() {
        return mock.metrics();
    }

    @Override
    public void register(StateStore store, StateRestoreCallback callback) {
        callbacks.put(store.name(), callback);
    }

    @Override
    public void register(StateStore store, StateRestoreCallback callback, CommitCallback onCommit) {
        callbacks.put(store.name(), callback);
    }

    @Override
    public Map<String, Object> appConfigs() {
        return configs;
    }

    @Override
    public Map<String, Object> appConfigsWithPrefix(String prefix) {
        Map<String, Object> result = new HashMap<>();
        configs.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                result.put(k.substring(prefix.length()), v);
            }
        });
        return result;
    }
}
