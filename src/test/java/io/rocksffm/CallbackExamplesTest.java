package io.rocksffm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of the javadoc of the Java code RocksDB calls (merge operators, comparators,
 * compaction filters, prefix extractors, listeners), run; each block between "javadoc:NAME"
 * markers is quoted by a {@code {@snippet id="NAME"}} ({@link JavadocExamplesTest}).
 */
class CallbackExamplesTest {
    @TempDir
    Path dir;

    @Test
    void mergeOperator() {
        Path path = dir.resolve("max");
        try (Options options = new Options().setCreateIfMissing(true)) {
            // --- javadoc:MergeOperator begin
            ValueLayout.OfLong number = ValueLayout.JAVA_LONG_UNALIGNED;   // values: one long each
            MergeOperator max = new MergeOperator() {
                public String name() { return "max"; }
                public void fullMerge(MemorySegment key, MemorySegment existing, MergeOperands operands,
                                      ValueOutput result) {
                    long max = existing == null ? Long.MIN_VALUE : existing.get(number, 0);
                    for (int i = 0; i < operands.size(); i++) {
                        max = Math.max(max, operands.get(i).get(number, 0));
                    }
                    result.allocate(8).set(number, 0, max);
                }
            };
            options.setMergeOperator(max);   // db.merge(key, value) then keeps the largest value
            // --- javadoc:MergeOperator end
            try (RocksDB db = RocksDB.open(path, options)) {
                db.merge(MemorySegment.ofArray("top".getBytes(UTF_8)), MemorySegment.ofArray(new long[] {7}));
                db.merge(MemorySegment.ofArray("top".getBytes(UTF_8)), MemorySegment.ofArray(new long[] {3}));
                byte[] top = db.get("top".getBytes(UTF_8));
                assertEquals(7, MemorySegment.ofArray(top).get(number, 0));
            }
        }
    }

    @Test
    void uint64Add() {
        Path path = dir.resolve("counters");
        // --- javadoc:UInt64AddOperator begin
        try (Options options = new Options().setCreateIfMissing(true)
                     .setMergeOperator(new UInt64AddOperator());   // 8-byte little-endian sums
             RocksDB db = RocksDB.open(path, options)) {
            byte[] one = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(1).array();
            db.merge("hits".getBytes(UTF_8), one);
            db.merge("hits".getBytes(UTF_8), one);
            long hits = ByteBuffer.wrap(db.get("hits".getBytes(UTF_8)))
                    .order(ByteOrder.LITTLE_ENDIAN).getLong();   // 2
            // --- javadoc:UInt64AddOperator end
            assertEquals(2, hits);
            // --- javadoc:UInt64AddOperator begin
        }
        // --- javadoc:UInt64AddOperator end
    }

    @Test
    void stringAppend() {
        Path path = dir.resolve("tags");
        // --- javadoc:StringAppendOperator begin
        try (Options options = new Options().setCreateIfMissing(true)
                     .setMergeOperator(new StringAppendOperator(","));
             RocksDB db = RocksDB.open(path, options)) {
            db.merge("tags".getBytes(UTF_8), "red".getBytes(UTF_8));
            db.merge("tags".getBytes(UTF_8), "blue".getBytes(UTF_8));
            byte[] tags = db.get("tags".getBytes(UTF_8));   // "red,blue"
            // --- javadoc:StringAppendOperator end
            assertEquals("red,blue", new String(tags, UTF_8));
            // --- javadoc:StringAppendOperator begin
        }
        // --- javadoc:StringAppendOperator end
    }

    @Test
    void compactionFilterFactory() {
        Path path = dir.resolve("factory");
        try (Options options = new Options().setCreateIfMissing(true)) {
            // --- javadoc:CompactionFilterFactory begin
            // Empty values are dropped by manual compactions only
            CompactionFilterFactory factory = new CompactionFilterFactory() {
                public String name() { return "drop-empty-when-manual"; }
                public CompactionFilter create(Context context) {   // one per compaction
                    return (level, key, value, newValue) -> context.manualCompaction() && value.byteSize() == 0
                            ? CompactionFilter.Decision.REMOVE
                            : CompactionFilter.Decision.KEEP;
                }
            };
            options.setCompactionFilterFactory(factory);
            // --- javadoc:CompactionFilterFactory end
            try (RocksDB db = RocksDB.open(path, options)) {
                db.put("empty".getBytes(UTF_8), new byte[0]);
                db.put("full".getBytes(UTF_8), new byte[] {1});
                db.flush(true);
                assertArrayEquals(new byte[0], db.get("empty".getBytes(UTF_8)), "a flush does not filter");
                db.compactRange();
                assertNull(db.get("empty".getBytes(UTF_8)));
                assertArrayEquals(new byte[] {1}, db.get("full".getBytes(UTF_8)));
            }
        }
    }

    @Test
    void comparator() {
        Path path = dir.resolve("newest");
        List<Long> order = new ArrayList<>();
        // --- javadoc:Comparator begin
        // Keys are 8-byte big-endian numbers, largest first
        ValueLayout.OfLong number = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
        Comparator largestFirst = new Comparator() {
            public String name() { return "largest-first"; }   // the same name at every open
            public int compare(MemorySegment a, MemorySegment b) {
                return Long.compare(b.get(number, 0), a.get(number, 0));
            }
        };
        try (Options options = new Options().setCreateIfMissing(true).setComparator(largestFirst);
             RocksDB db = RocksDB.open(path, options)) {
            // --- javadoc:Comparator end
            for (long k : new long[] {5, 100, 42}) {
                db.put(ByteBuffer.allocate(8).putLong(k).array(), new byte[] {1});
            }
            try (ReadOptions read = new ReadOptions(); RocksIterator it = db.newIterator(read)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    order.add(it.key().get(number, 0));
                }
            }
            // --- javadoc:Comparator begin
        }
        // --- javadoc:Comparator end
        assertEquals(List.of(100L, 42L, 5L), order);
    }

    @Test
    void timestampedComparator() {
        Path path = dir.resolve("seconds");
        List<String> read = new ArrayList<>();
        // --- javadoc:TimestampedComparator begin
        // Keys are 8-byte big-endian ids; timestamps 4-byte big-endian seconds
        ValueLayout.OfLong id = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
        ValueLayout.OfInt seconds = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
        TimestampedComparator idThenSeconds = new TimestampedComparator() {
            public String name() { return "id-then-seconds"; }   // the same name and size at every open
            public int timestampSize() { return 4; }
            public int compareTimestamp(MemorySegment a, MemorySegment b) {   // oldest first
                return Integer.compareUnsigned(a.get(seconds, 0), b.get(seconds, 0));
            }
            public int compareWithoutTimestamp(MemorySegment a, MemorySegment b) {   // the ids alone
                return Long.compareUnsigned(a.get(id, 0), b.get(id, 0));
            }
        };
        try (Options options = new Options().setCreateIfMissing(true).setComparator(idThenSeconds);
             RocksDB db = RocksDB.open(path, options)) {
            // writes and reads name their timestamps: TimestampedDB.of(db)
            // --- javadoc:TimestampedComparator end
            TimestampedDB versions = TimestampedDB.of(db);
            ColumnFamilyHandle family = db.defaultColumnFamily();
            for (long key : new long[] {300, 7}) {
                for (int second : new int[] {10, 20}) {
                    versions.put(family, ByteBuffer.allocate(8).putLong(key).array(),
                            ByteBuffer.allocate(4).putInt(second).array(), (key + "@" + second).getBytes(UTF_8));
                }
            }
            try (ReadOptions asOf = new ReadOptions()
                         .setTimestamp(MemorySegment.ofArray(ByteBuffer.allocate(4).putInt(15).array()));
                 RocksIterator it = db.newIterator(asOf)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    read.add(new String(it.valueBytes(), UTF_8));
                }
            }
            // --- javadoc:TimestampedComparator begin
        }
        // --- javadoc:TimestampedComparator end
        assertEquals(List.of("7@10", "300@10"), read, "ids in order, each as of second 15");
    }

    @Test
    void compactionFilter() {
        Path path = dir.resolve("filter");
        // --- javadoc:CompactionFilter begin
        // Empty values are tombstones of the application: compactions drop them
        try (Options options = new Options().setCreateIfMissing(true)
                     .setCompactionFilter((level, key, value, newValue) -> value.byteSize() == 0
                             ? CompactionFilter.Decision.REMOVE
                             : CompactionFilter.Decision.KEEP);
             RocksDB db = RocksDB.open(path, options)) {
            db.put("gone".getBytes(UTF_8), new byte[0]);
            db.compactRange();                          // after it, get("gone") is null
            // --- javadoc:CompactionFilter end
            assertNull(db.get("gone".getBytes(UTF_8)));
            // --- javadoc:CompactionFilter begin
        }
        // --- javadoc:CompactionFilter end
    }

    @Test
    void prefixExtractor() {
        Path path = dir.resolve("prefix");
        List<String> seen = new ArrayList<>();
        // --- javadoc:PrefixExtractor begin
        // Keys "user:1234/..." share a 10-byte prefix per user: prefix seeks read only that user's data
        try (Options options = new Options().setCreateIfMissing(true)
                     .setPrefixExtractor(PrefixExtractor.fixed(10));
             RocksDB db = RocksDB.open(path, options)) {
            // --- javadoc:PrefixExtractor end
            for (String k : List.of("user:1233/a", "user:1234/a", "user:1234/b", "user:1235/a")) {
                db.put(k.getBytes(UTF_8), new byte[] {1});
            }
            // --- javadoc:PrefixExtractor begin
            try (ReadOptions read = new ReadOptions().setPrefixSameAsStart(true);
                 RocksIterator it = db.newIterator(read)) {
                for (it.seek("user:1234/".getBytes(UTF_8)); it.isValid(); it.next()) {
                    // only keys that start with "user:1234/"
                    // --- javadoc:PrefixExtractor end
                    seen.add(new String(it.keyBytes(), UTF_8));
                    // --- javadoc:PrefixExtractor begin
                }
            }
        }
        // --- javadoc:PrefixExtractor end
        assertEquals(List.of("user:1234/a", "user:1234/b"), seen);
    }

    @Test
    void eventListener() throws InterruptedException {
        Path path = dir.resolve("listener");
        assumeTrue(Gated.supported("rocksdb_eventlistener_create", () -> {
            try (Options options = new Options()) {
                options.addEventListener(new EventListener() {});
            }
        }), "the engine has no event listeners");
        // --- javadoc:EventListener begin
        List<String> tableFiles = new CopyOnWriteArrayList<>();
        EventListener listener = new EventListener() {
            public void onFlushCompleted(FlushJobInfo info) {   // on a RocksDB thread: be quick
                tableFiles.add(info.filePath());
            }
        };
        try (Options options = new Options().setCreateIfMissing(true).addEventListener(listener);
             RocksDB db = RocksDB.open(path, options)) {
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            db.flush(true);                   // tableFiles soon names the new table file
            // --- javadoc:EventListener end
            for (int i = 0; i < 500 && tableFiles.isEmpty(); i++) {
                Thread.sleep(10);
            }
            assertEquals(1, tableFiles.size());
            assertTrue(tableFiles.getFirst().endsWith(".sst"), tableFiles.toString());
            // --- javadoc:EventListener begin
        }
        // --- javadoc:EventListener end
    }
}
