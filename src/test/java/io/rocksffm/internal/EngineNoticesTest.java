package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nothing about the engine is silent: the bound engine is logged (a warning for one older than
 * the bindings' header), and a JVM that refuses native access gets the flag to add named.
 */
class EngineNoticesTest {
    /** A child JVM's main: binds the engine and prints what it bound. */
    public static final class Probe {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("bound " + NativeLibrary.load());
            NativeLibrary.logThread.join(); // a daemon thread: the JVM would not wait for it
        }
    }

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

    private static List<String> childCommand(String... jvmArgs) {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cp = new ArrayList<>();
        for (String prop : new String[] {"jdk.module.path", "java.class.path"}) {
            String v = System.getProperty(prop);
            if (v != null) {
                for (String e : v.split(File.pathSeparator)) {
                    if (!e.isBlank() && !cp.contains(e)) {
                        cp.add(e);
                    }
                }
            }
        }
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", String.join(File.pathSeparator, cp), "-Xshare:auto",
                "-XX:TieredStopAtLevel=1"));
        cmd.addAll(List.of(jvmArgs));
        String path = System.getProperty(NativeLibrary.PATH_PROPERTY);
        if (path != null) {
            cmd.add("-D" + NativeLibrary.PATH_PROPERTY + "=" + path);
        }
        cmd.add(Probe.class.getName());
        return cmd;
    }

    private static String run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void aJvmRefusingNativeAccessIsToldWhichFlagToAdd() throws Exception {
        String refused = run(childCommand("--illegal-native-access=deny"));
        assertTrue(refused.contains("--enable-native-access=ALL-UNNAMED"), refused);
        assertFalse(refused.contains("bound Loaded"), refused);
        String allowed = run(childCommand("--enable-native-access=ALL-UNNAMED"));
        assertTrue(allowed.contains("bound Loaded"), allowed);
        String version = NativeLibrary.load().version();
        String logged = "rocksffm bound the RocksDB engine " + (version == null ? "of unknown version" : version);
        assertEquals(1, allowed.split(java.util.regex.Pattern.quote(logged), -1).length - 1, // fully qualified: one use
                "logged once, through System.Logger (the JDK's default handler prints to stderr): " + allowed);
        assertTrue(allowed.contains(NativeLibrary.bindingLevel(NativeLibrary.load()).getName()), allowed);
        assertFalse(NativeLibrary.nativeAccessAdvice(true).contains("ALL-UNNAMED is not")
                && !NativeLibrary.nativeAccessAdvice(true).contains("--enable-native-access=io.rocksffm"));
        assertTrue(NativeLibrary.nativeAccessAdvice(true).contains("--enable-native-access=io.rocksffm"));
    }
}
