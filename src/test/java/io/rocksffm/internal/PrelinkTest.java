package io.rocksffm.internal;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.capi.RocksDBC;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.util.Map;
import org.junit.jupiter.api.Test;
import java.util.function.Supplier;

/**
 * The shapes {@link Prelink} links ahead are the generated bindings' own (a shape that differed
 * would be linked for nothing), and linking them is harmless.
 */
class PrelinkTest {
    /** The generated descriptors (suppliers: a holder class loads only when its entry is asked for). */
    private static final Map<String, Supplier<FunctionDescriptor>> GENERATED = Map.of(
            "rocksdb_options_create", RocksDBC::rocksdb_options_create$descriptor,
            "rocksdb_options_destroy", RocksDBC::rocksdb_options_destroy$descriptor,
            "rocksdb_options_set_create_if_missing", RocksDBC::rocksdb_options_set_create_if_missing$descriptor,
            "rocksdb_open_column_families", RocksDBC::rocksdb_open_column_families$descriptor,
            "rocksdb_column_family_handle_get_id", RocksDBC::rocksdb_column_family_handle_get_id$descriptor,
            "rocksdb_get_into_buffer_cf", RocksDBC::rocksdb_get_into_buffer_cf$descriptor,
            "rocksdb_get_pinned_cf", RocksDBC::rocksdb_get_pinned_cf$descriptor,
            "rocksdb_put_cf", RocksDBC::rocksdb_put_cf$descriptor);

    @Test
    void eachShapeIsTheGeneratedDescriptorOfItsFunction() throws Exception {
        int checked = 0;
        for (Map.Entry<String, FunctionDescriptor> e : Prelink.shapes().entrySet()) {
            String function = e.getKey();
            if (!Capabilities.exports(function)) { // rocksdb_get_into_buffer_cf on 7.8.3: its holder cannot load
                System.out.println("[prelink] not exported by this engine, not compared: " + function);
                continue;
            }
            FunctionDescriptor generated = GENERATED.get(function).get();
            assertEquals(generated, e.getValue(), function);
            checked++;
        }
        assertEquals(GENERATED.keySet(), Prelink.shapes().keySet(), "every shape compared");
        assertTrue(checked >= Prelink.shapes().size() - 1, checked + " of " + Prelink.shapes().size());
    }

    @Test
    void startsOnceAndLinksEveryShape() throws Exception {
        assumeTrue(Prelink.ENABLED, "turned off with -Drocksffm.prelink=false");
        Native.engine(); // loading the engine starts it (if this is the first load): a second start starts nothing
        assertNull(Prelink.start());
        Thread t = new Thread(() -> Prelink.run(false));
        t.setDaemon(true);
        t.start();
        t.join(60_000);
        assertFalse(t.isAlive());
        for (FunctionDescriptor d : Prelink.heapShapes()) {
            assertNotNull(Linker.nativeLinker().downcallHandle(d), d.toString());
        }
        for (FunctionDescriptor d : Prelink.shapes().values()) {
            assertNotNull(Linker.nativeLinker().downcallHandle(d), d.toString());
        }
    }
}
