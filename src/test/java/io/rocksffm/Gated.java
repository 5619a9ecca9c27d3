package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.internal.Capabilities;
import org.junit.jupiter.api.function.Executable;

/** The tests' check of a feature gated on the engine (RocksDB 11's C functions on 7.8.3 and 10.x). */
final class Gated {
    private Gated() {}

    /**
     * Whether {@code function} is callable on the loaded engine; if it is not, checks that
     * {@code call} throws {@link UnsupportedOperationException} naming the function and the
     * engine's version, and reports it.
     */
    static boolean supported(String function, Executable call) {
        if (Capabilities.callable(function)) {
            return true;
        }
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, call, function);
        String version = RocksDB.engine().version();
        assertTrue(e.getMessage().contains(function), e.getMessage());
        // the Java method first, then the C function, then the engine, then where RocksDB has it
        assertTrue(e.getMessage().matches("^(new [A-Z]\\w*|[A-Z]\\w*\\.\\w.*) needs " + function + "\\b.*"), e.getMessage());
        String first = Capabilities.firstVersion(function);
        if (first != null && !Capabilities.exports(function)) {
            assertTrue(e.getMessage().contains("RocksDB has it from " + first), e.getMessage());
        }
        assertTrue(e.getMessage().contains(version == null ? "unknown version" : version), e.getMessage());
        System.out.println("[rocksffm] engine " + version + ": " + e.getMessage());
        return false;
    }

    /** {@link #supported} for a function every engine from RocksDB 11 exports: on 11.8.1 it must be callable. */
    static boolean since11(String function, Executable call) {
        boolean supported = supported(function, call);
        String version = RocksDB.engine().version();
        if (version != null && Capabilities.compareVersions(version, "11.0") >= 0) {
            assertTrue(supported, function + " must be callable on " + version);
        }
        return supported;
    }
}
