package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.internal.capi.RocksDBC.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class NativeWriteBatchTest {
    @Test
    void isARealBatchIndependentOfItsSource() {
        try (WriteBatch batch = new WriteBatch()) {
            batch.put(bytes("a"), bytes("1")).delete(bytes("b"));
            try (NativeWriteBatch nb = batch.toNative()) {
                batch.put(bytes("c"), bytes("3"));
                assertEquals(2, nb.count(), "a copy: later changes to the Java batch do not show");
                // the handle works with the C API directly
                rocksdb_writebatch_put(nb.handle(), toNative(bytes("x")), 1, toNative(bytes("y")), 1);
                assertEquals(3, nb.count());
                try (WriteBatch back = WriteBatch.fromNative(nb.handle())) {
                    assertEquals(3, back.count());
                }
            }
        }
    }

    private static MemorySegment toNative(byte[] bytes) {
        return Arena.ofAuto().allocateFrom(ValueLayout.JAVA_BYTE, bytes);
    }

    @Test
    void closeIsIdempotentAndUseAfterCloseThrows() {
        NativeWriteBatch nb;
        try (WriteBatch batch = new WriteBatch()) {
            nb = batch.toNative();
        }
        nb.close();
        nb.close();
        assertTrue(nb.isClosed());
        assertThrows(IllegalStateException.class, nb::handle);
        assertThrows(IllegalStateException.class, nb::count);
    }
}
