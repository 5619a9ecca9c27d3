package io.rocksffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocksffm.Engine;
import io.rocksffm.RocksDB;

import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

/**
 * One engine in one process: with this module's dependencies Maven picks the rocksdbjni the module
 * declares (11.8.1; kafka-streams 4.4.0 asks for 10.1.3; {@code -Drocksdbjni.version=10.1.3} runs
 * the tests on that), Kafka's own RocksDB stores run on it through rocksdbjni's JNI, and rocksffm
 * calls the same loaded library through FFM.
 */
class OneEngineTest {
    @TempDir
    Path dir;

    @Test
    void kafkasStoresAndRocksffmShareTheEngineOfTheRocksdbjniOnTheClassPath() {
        KeyValueStore<Bytes, byte[]> kafka = Stores.persistentKeyValueStore("kafka").get();
        kafka.init(new TestContext(dir.toFile(), Map.of()), kafka);
        KeyValueStore<Bytes, byte[]> ours = RocksffmStores.keyValueStore("ours").get();
        ours.init(new TestContext(dir.toFile(), Map.of()), ours);
        try {
            String expected = System.getProperty("rocksdbjni.version", "11.8.1");
            org.rocksdb.RocksDB.Version jni = org.rocksdb.RocksDB.rocksdbVersion();
            Engine engine = RocksDB.engine();
            String jar = org.rocksdb.RocksDB.class.getProtectionDomain().getCodeSource().getLocation().getPath();
            assertEquals(true, jar.endsWith("rocksdbjni-" + expected + ".jar"), jar);
            assertEquals(expected, jni.toString());
            assertEquals(jni.toString(), engine.version().replaceAll("^(\\d+\\.\\d+\\.\\d+).*", "$1"), engine.toString());
        } finally {
            ours.close();
            kafka.close();
        }
    }
}
