package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** Getters read back the setters; bad values are refused; the OPTIONS file check is in {@link OptionsTuningTest}. */
class UniversalCompactionOptionsTest {
    @Test
    void gettersReadTheSetters() {
        try (UniversalCompactionOptions u = new UniversalCompactionOptions()) {
            assertEquals(1, u.sizeRatio()); // RocksDB's defaults
            assertEquals(200, u.maxSizeAmplificationPercent());
            assertTrue(u.stopStyleTotalSize());
            assertEquals(7, u.setSizeRatio(7).sizeRatio());
            assertEquals(4, u.setMinMergeWidth(4).minMergeWidth());
            assertEquals(12, u.setMaxMergeWidth(12).maxMergeWidth());
            assertEquals(300, u.setMaxSizeAmplificationPercent(300).maxSizeAmplificationPercent());
            assertEquals(50, u.setCompressionSizePercent(50).compressionSizePercent());
            assertTrue(u.setStopStyleTotalSize(true).stopStyleTotalSize());
            assertFalse(u.setStopStyleTotalSize(false).stopStyleTotalSize());
        }
    }

    @Test
    void badValuesAndClosedUseAreRefused() {
        UniversalCompactionOptions u = new UniversalCompactionOptions();
        assertThrows(IllegalArgumentException.class, () -> u.setSizeRatio(-1));
        assertThrows(IllegalArgumentException.class, () -> u.setMinMergeWidth(1));
        assertThrows(IllegalArgumentException.class, () -> u.setMaxMergeWidth(1));
        assertThrows(IllegalArgumentException.class, () -> u.setCompressionSizePercent(-2));
        assertEquals(1, u.sizeRatio());
        u.close();
        u.close();
        assertThrows(IllegalStateException.class, u::sizeRatio);
        assertThrows(IllegalStateException.class, () -> u.setSizeRatio(2));
    }
}
