package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadOptionsTest {
    @TempDir
    Path dir;

    @Test
    void settersReachRocksDB() {
        try (ReadOptions ro = new ReadOptions()) {
            assertTrue(ro.verifyChecksums());
            assertTrue(ro.fillCache());
            assertFalse(ro.setVerifyChecksums(false).verifyChecksums());
            assertFalse(ro.setFillCache(false).fillCache());
            assertTrue(ro.setFillCache(true).fillCache());
            assertTrue(ro.setPrefixSameAsStart(true).prefixSameAsStart());
            assertTrue(ro.setTotalOrderSeek(true).totalOrderSeek());
            assertEquals(1 << 20, ro.setReadaheadSize(1 << 20).readaheadSize());
            assertTrue(ro.setTailing(true).tailing());
            assertThrows(IllegalArgumentException.class, () -> ro.setReadaheadSize(-1));
        }
    }

    @Test
    void readsWorkWithNonDefaultOptions() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions().setFillCache(false).setVerifyChecksums(false)) {
            db.put(bytes("k"), bytes("v"));
            byte[] out = new byte[1];
            assertEquals(1, db.get(ro, MemorySegment.ofArray(bytes("k")), MemorySegment.ofArray(out)));
            assertEquals('v', out[0]);
        }
    }

    @Test
    void boundsAreCopiedAndApplyToIterators() {
        try (RocksDB db = open(dir); ReadOptions ro = new ReadOptions()) {
            for (char c = 'a'; c <= 'e'; c++) {
                db.put(bytes(String.valueOf(c)), bytes("v"));
            }
            byte[] lower = bytes("b");
            byte[] upper = bytes("d");
            ro.setIterateLowerBound(MemorySegment.ofArray(lower)).setIterateUpperBound(MemorySegment.ofArray(upper));
            lower[0] = 'a'; // the options own a copy
            upper[0] = 'z';
            StringBuilder seen = new StringBuilder();
            db.forEach(ro, (k, v) -> seen.append((char) k.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)));
            assertEquals("bc", seen.toString());
            // an empty upper bound admits nothing; null removes a bound
            ro.setIterateUpperBound(MemorySegment.ofArray(new byte[0]));
            seen.setLength(0);
            db.forEach(ro, (k, v) -> seen.append('x'));
            assertEquals("", seen.toString());
            ro.setIterateUpperBound(null).setIterateLowerBound(null);
            db.forEach(ro, (k, v) -> seen.append((char) k.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)));
            assertEquals("abcde", seen.toString());
        }
    }

    @Test
    void closedThrowsIllegalState() {
        ReadOptions ro = new ReadOptions();
        ro.close();
        ro.close();
        assertThrows(IllegalStateException.class, () -> ro.setFillCache(true));
        assertThrows(IllegalStateException.class, ro::verifyChecksums);
        assertThrows(IllegalStateException.class, () -> ro.setIterateLowerBound(null));
        assertThrows(IllegalStateException.class, () -> ro.setSnapshot(null));
        assertThrows(IllegalStateException.class, ro::snapshot);
    }
}
