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
 * One engine in one process: with this module's dependencies Maven picks rocksdbjni 11.8.1 (the
 * module declares it; kafka-streams 4.4.0 asks for 10.1.3), Kafka's own RocksDB stores run on it
 * through rocksdbjni's JNI, and rocksffm calls the same loaded library through FFM.
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
            org.rocksdb.RocksDB.Version jni = org.rocksdb.RocksDB.rocksdbVersion();
            Engine engine = RocksDB.engine();
            String jarVersion = org.rocksdb.RocksDB.class.getProtectionDomain().getCodeSource().getLocation().getPath();
            assertEquals(true, jarVersion.contains("rocksdbjni-11.8.1"), jarVersion);
            assertEquals("11.8.1", jni.toString());
            assertEquals(jni.toString(), engine.version().replaceAll("^(\\d+\\.\\d+\\.\\d+).*", "$1"), engine.toString());
        } finally {
            ours.close();
            kafka.close();
        }
    }
}
