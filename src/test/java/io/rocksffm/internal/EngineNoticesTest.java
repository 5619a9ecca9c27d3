package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Nothing about the engine is silent: the bound engine is logged (a warning for one older than
 * the bindings' header), and a JVM that refuses native access gets the flag to add named (the
 * child JVMs of {@code NativeAccessTest} check both in a fresh process).
 */
class EngineNoticesTest {
    @Test
    void theBoundEngineIsLoggedAtInfoAndAnOlderOneAtWarning() {
        NativeLibrary.Loaded current = new NativeLibrary.Loaded("rocksdbjni", Path.of("/tmp/librocksdbjni1.so"),
                Capabilities.HEADER_VERSION);
        assertEquals(System.Logger.Level.INFO, NativeLibrary.bindingLevel(current));
        assertEquals("rocksffm bound the RocksDB engine " + Capabilities.HEADER_VERSION
                + " (rocksdbjni, /tmp/librocksdbjni1.so)", NativeLibrary.bindingMessage(current));
        NativeLibrary.Loaded system = new NativeLibrary.Loaded("system", Path.of("/usr/lib/librocksdb.so.7.8.3"), "7.8.3");
        assertEquals(System.Logger.Level.WARNING, NativeLibrary.bindingLevel(system));
        String warning = NativeLibrary.bindingMessage(system);
        for (String part : List.of("7.8.3", "system", "/usr/lib/librocksdb.so.7.8.3", "older than the RocksDB "
                + Capabilities.HEADER_VERSION, "org.rocksdb:rocksdbjni:" + Capabilities.HEADER_VERSION, "-Drocksffm.library.path")) {
            assertTrue(warning.contains(part), part + " in " + warning);
        }
        assertEquals(System.Logger.Level.INFO, NativeLibrary.bindingLevel(new NativeLibrary.Loaded("explicit", null, null)));

    }

    @Test
    void theNativeAccessAdviceNamesTheFlagOfEachPath() {
        assertTrue(NativeLibrary.nativeAccessAdvice(false).contains("--enable-native-access=ALL-UNNAMED"));
        String module = NativeLibrary.nativeAccessAdvice(true);
        assertTrue(module.contains("--enable-native-access=io.rocksffm") && module.contains("ALL-UNNAMED is not enough"), module);
    }
}
