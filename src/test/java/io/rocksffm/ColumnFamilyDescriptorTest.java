package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class ColumnFamilyDescriptorTest {
    @Test
    void checksItsFields() {
        try (Options o = new Options()) {
            assertEquals("x", new ColumnFamilyDescriptor("x", o).name());
            assertThrows(NullPointerException.class, () -> new ColumnFamilyDescriptor(null, o));
            assertThrows(NullPointerException.class, () -> new ColumnFamilyDescriptor("x", null));
            assertThrows(IllegalArgumentException.class, () -> new ColumnFamilyDescriptor("a\0b", o));
        }
    }
}
