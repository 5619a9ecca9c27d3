package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class EngineTest {
    /** Each surefire execution says which engine it put on the class path; check we bound that one. */
    @Test
    void boundToTheEngineThisRunExpects() {
        Engine e = RocksDB.engine();
        System.out.println("[rocksffm] engine: " + e);
        String expected = System.getProperty("rocksffm.test.expectedEngine");
        if (expected != null) {
            assertEquals(expected, e.source());
        }
        String expectedVersion = System.getProperty("rocksffm.test.expectedVersion", "");
        if (!expectedVersion.isEmpty()) {
            assertEquals(expectedVersion, e.version());
        }
        assertNotNull(e.path(), "the library file is reported on Linux");
        assertTrue(Files.isRegularFile(e.path()), e.path() + " exists");
        assertNotNull(e.version(), "the version is known for both engines here");
        assertTrue(e.version().matches("\\d+\\.\\d+(\\.\\d+)*"), e.version());
        if ("rocksdbjni".equals(e.source())) {
            String jar = org.rocksdb.RocksDB.class.getProtectionDomain().getCodeSource().getLocation().getPath();
            assertTrue(jar.contains("rocksdbjni-" + e.version()), jar + " vs " + e.version());
        }
    }

    @Test
    void hasFunctionAnswersForTheBoundEngine() {
        Engine e = RocksDB.engine();
        assertTrue(e.hasFunction("rocksdb_open"));
        assertTrue(e.hasFunction("rocksdb_get_pinned_cf"));
        assertFalse(e.hasFunction("rocksdb_not_a_function"));
        // rocksdb_get_into_buffer_cf came with RocksDB 10.9
        boolean tenNine = e.version().matches("(1[1-9]|[2-9]\\d|10\\.(9|[1-9]\\d))(\\..*)?");
        assertEquals(tenNine, e.hasFunction("rocksdb_get_into_buffer_cf"), e.version());
        assertThrows(NullPointerException.class, () -> e.hasFunction(null));
    }

    @Test
    void engineIsStable() {
        assertEquals(RocksDB.engine(), RocksDB.engine());
    }
}
