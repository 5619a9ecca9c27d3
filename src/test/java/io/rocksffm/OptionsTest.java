package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptionsTest {
    @TempDir
    Path dir;

    @Test
    void settersReachRocksDB() {
        try (Options o = new Options()) {
            assertFalse(o.createIfMissing());
            assertTrue(o.setCreateIfMissing(true).createIfMissing());
            assertTrue(o.setErrorIfExists(true).errorIfExists());
            assertFalse(o.setErrorIfExists(false).errorIfExists());
            assertEquals(8 << 20, o.setWriteBufferSize(8 << 20).writeBufferSize());
            assertEquals(123, o.setMaxOpenFiles(123).maxOpenFiles());
            assertEquals(-1, o.setMaxOpenFiles(-1).maxOpenFiles());
            assertEquals(Compression.NONE, o.setCompression(Compression.NONE).compression());
            assertEquals(64L << 20, o.setBlockCacheSize(64L << 20).blockCacheSize());
            assertEquals(10.0, o.setBloomFilter(10).bloomFilterBitsPerKey());
            assertSame(o, o.setParallelism(2));
        }
    }

    @Test
    void tunedOptionsOpenAWorkingDatabase() {
        try (Options o = new Options().setCreateIfMissing(true).setParallelism(2).setWriteBufferSize(1 << 20)
                .setMaxOpenFiles(100).setBlockCacheSize(8 << 20).setBloomFilter(10)) {
            try (RocksDB db = RocksDB.open(dir, o)) {
                for (int i = 0; i < 5000; i++) {
                    db.put(bytes("key" + i), new byte[300]);
                }
                assertEquals(300, db.get(bytes("key4999")).length);
                assertNull(db.get(bytes("key5000")));
            }
            o.setBlockCacheSize(0).setBloomFilter(0);
            try (RocksDB db = RocksDB.open(dir, o)) {
                assertEquals(300, db.get(bytes("key0")).length);
            }
        }
    }

    @Test
    void badValuesAreIllegalArguments() {
        try (Options o = new Options()) {
            assertThrows(IllegalArgumentException.class, () -> o.setParallelism(0));
            assertThrows(IllegalArgumentException.class, () -> o.setWriteBufferSize(0));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxOpenFiles(-2));
            assertThrows(IllegalArgumentException.class, () -> o.setBlockCacheSize(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setBloomFilter(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setBloomFilter(Double.NaN));
            assertThrows(NullPointerException.class, () -> o.setCompression(null));
        }
    }

    @Test
    void closedOptionsThrowIllegalState() {
        Options o = new Options();
        o.close();
        o.close();
        assertTrue(o.isClosed());
        assertThrows(IllegalStateException.class, () -> o.setCreateIfMissing(true));
        assertThrows(IllegalStateException.class, o::createIfMissing);
        assertThrows(IllegalStateException.class, () -> o.setBlockCacheSize(1));
        assertThrows(IllegalStateException.class, o::blockCacheSize);
        assertThrows(IllegalStateException.class, () -> o.setBloomFilter(1));
        assertThrows(IllegalStateException.class, () -> o.setCompression(Compression.NONE));
        assertThrows(IllegalStateException.class, () -> o.setParallelism(1));
    }

    /**
     * rocksffm does not lock the caller's options (issue 31): while this thread holds the
     * options' monitor, another thread sets a comparator, a block cache and a bloom filter, reads
     * them back and opens a database with them (each took the options' monitor before).
     */
    @Test
    void aCallerHoldingItsOptionsMonitorDoesNotBlockThem() throws Exception {
        try (Options o = new Options().setCreateIfMissing(true)) {
            synchronized (o) {
                CompletableFuture<String> other = CompletableFuture.supplyAsync(() -> {
                    o.setComparator(new ComparatorTest.Reverse()).setBlockCacheSize(1 << 20).setBloomFilter(10);
                    try (RocksDB db = RocksDB.open(dir, o)) {
                        db.put(bytes("a"), bytes("1"));
                        db.put(bytes("b"), bytes("2"));
                        try (RocksIterator it = db.newIterator(ReadOptions.DEFAULT)) {
                            it.seekToFirst();
                            return o.comparator().name() + " " + string(it.keyBytes());
                        }
                    }
                });
                assertEquals("test.Reverse b", other.get(30, TimeUnit.SECONDS), "descending order, and no wait for this monitor");
            }
        }
    }
}
