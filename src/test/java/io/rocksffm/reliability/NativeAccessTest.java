package io.rocksffm.reliability;

import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.RocksDB;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * In a fresh JVM: the bound engine is logged once through {@code System.Logger}, and a JVM that
 * refuses native access ({@code --illegal-native-access=deny}) is told which flag to add.
 */
class NativeAccessTest {
    /** A child JVM's main: binds the engine, prints it, and waits for the engine's log line. */
    public static final class Probe {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("bound " + RocksDB.engine());
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().equals("rocksffm-engine-log")) {
                    t.join(); // a daemon thread: the JVM would not wait for it
                }
            }
        }
    }

    private static String run(String nativeAccess) throws Exception {
        List<String> cmd = new ArrayList<>(Reliability.javaCommand(Probe.class));
        cmd.replaceAll(a -> a.equals("--enable-native-access=ALL-UNNAMED") ? nativeAccess : a);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return out;
    }

    @Test
    void theFlagIsNamedWhenNativeAccessIsRefusedAndTheEngineIsLoggedOnce() throws Exception {
        String refused = run("--illegal-native-access=deny");
        assertTrue(refused.contains("--enable-native-access=ALL-UNNAMED"), refused);
        assertFalse(refused.contains("bound Engine"), refused);
        String allowed = run("--enable-native-access=ALL-UNNAMED");
        assertTrue(allowed.contains("bound Engine"), allowed);
        String version = RocksDB.engine().version();
        String logged = "rocksffm bound the RocksDB engine " + (version == null ? "of unknown version" : version);
        assertEquals(1, allowed.split(Pattern.quote(logged), -1).length - 1,
                "logged once, through System.Logger (the JDK's default handler prints to stderr): " + allowed);
    }
}
