package io.rocksffm;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The code of the README and the guides under {@code docs/}, compiled and run. Each block between
 * "readme:NAME begin/end" markers is quoted verbatim by a page after a {@code <!-- readme:NAME -->} line; {@link #readmeQuotesThisTest}
 * keeps the two in sync.
 */
class TutorialTest {
    @TempDir
    Path dir;

    @Test
    void quickstart() {
        // --- readme:quickstart begin
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("quickstart"), options)) {

            // byte[] conveniences
            db.put("hello".getBytes(StandardCharsets.UTF_8), "world".getBytes(StandardCharsets.UTF_8));
            byte[] value = db.get("hello".getBytes(StandardCharsets.UTF_8));   // null when absent

            // MemorySegment core: no copies into Java arrays, no allocation per call
            try (Arena arena = Arena.ofConfined();
                 ReadOptions read = new ReadOptions();
                 WriteOptions write = new WriteOptions().setSync(true)) {
                byte[] keyBytes = "segment-key".getBytes(StandardCharsets.UTF_8);
                MemorySegment key = arena.allocateFrom(ValueLayout.JAVA_BYTE, keyBytes); // the same key as keyBytes
                db.put(write, key, arena.allocateFrom(ValueLayout.JAVA_BYTE, "segment-value".getBytes(StandardCharsets.UTF_8)));

                MemorySegment out = arena.allocate(64);
                long length = db.get(read, key, out);                 // -1 when absent
                // length > out.byteSize() means the buffer was too small: retry with a larger one

                try (PinnedValue pinned = db.getPinned(read, key)) {  // zero-copy, read-only view
                    MemorySegment view = pinned.segment();            // valid until pinned.close()
                    // ... use view ...
                    // --- readme:quickstart end
                    assertEquals("world", new String(value, StandardCharsets.UTF_8));
                    assertEquals("segment-value".length(), length);
                    assertEquals(-1, out.asSlice(0, length).mismatch(view));
                    // the key is found by a byte[] get of the same string
                    assertArrayEquals("segment-value".getBytes(StandardCharsets.UTF_8),
                            db.get("segment-key".getBytes(StandardCharsets.UTF_8)));
                    // --- readme:quickstart begin
                }
            }
            db.delete("hello".getBytes(StandardCharsets.UTF_8));
        } catch (RocksDBException e) {
            System.err.println(e.code() + ": " + e.getMessage());   // e.g. IO_ERROR: ... lock ...
            throw e;
        }
        // --- readme:quickstart end
    }

    @Test
    void batchesIteratorsAndFamilies() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("more"), options)) {
            List<String> seen = new ArrayList<>();
            // --- readme:batch begin
            // Operations are encoded in Java memory, in RocksDB's own batch format: no downcall
            // per put. Reuse the batch: clear() keeps its buffer.
            try (WriteBatch batch = new WriteBatch(64 * 1024); WriteOptions write = new WriteOptions()) {
                for (int i = 0; i < 1000; i++) {
                    batch.put(("key" + i).getBytes(StandardCharsets.UTF_8), ("value" + i).getBytes(StandardCharsets.UTF_8));
                }
                batch.deleteRange("key5".getBytes(StandardCharsets.UTF_8), "key6".getBytes(StandardCharsets.UTF_8));
                db.write(write, batch);   // atomic: copied into a native batch, written, freed (three downcalls)
                batch.clear();
            }
            // --- readme:batch end
            // --- readme:iterate begin
            try (ReadOptions read = new ReadOptions()   // bounds are copied: [key1, key2)
                         .setIterateLowerBound(MemorySegment.ofArray("key1".getBytes(StandardCharsets.UTF_8)))
                         .setIterateUpperBound(MemorySegment.ofArray("key2".getBytes(StandardCharsets.UTF_8)));
                 RocksIterator it = db.newIterator(read)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    MemorySegment key = it.key();       // zero-copy views until the next move (then ISE)
                    MemorySegment value = it.value();
                    seen.add(new String(key.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8) + "="
                            + new String(value.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8));
                }
            }
            // --- readme:iterate end
            assertEquals(111, seen.size(), "key1, key10..key19, key100..key199");
            assertEquals("key1=value1", seen.get(0));
            // --- readme:families begin
            ColumnFamilyHandle users = db.createColumnFamily("users", options);
            try (WriteOptions write = new WriteOptions(); ReadOptions read = new ReadOptions();
                 WriteBatch batch = new WriteBatch()) {
                MemorySegment key = MemorySegment.ofArray("alice".getBytes(StandardCharsets.UTF_8));
                batch.put(users, key, MemorySegment.ofArray(new byte[] {42}))      // one atomic batch
                     .put(key, MemorySegment.ofArray(new byte[] {7}));              // across families
                db.write(write, batch);
                long n = db.get(users, read, key, MemorySegment.ofArray(new byte[8])); // 1
                // --- readme:families end
                assertEquals(1, n);
                assertEquals(7, db.get("alice".getBytes(StandardCharsets.UTF_8))[0]);
                // --- readme:families begin
            }
            // reopen later with RocksDB.open(path, options, List.of(new ColumnFamilyDescriptor("users", options)))
            // --- readme:families end
        }
    }

    @Test
    void javaCodeInsideRocksDB() {
        // --- readme:merge begin
        // Counters: RocksDB combines merge operands with Java code (8-byte little-endian sums,
        // bit-compatible with RocksDB's C++ UInt64AddOperator), on reads and compactions.
        try (Options options = new Options().setCreateIfMissing(true)
                     .setMergeOperator(new UInt64AddOperator())
                     .setCompactionFilter((level, key, value, newValue) -> key.byteSize() == 0
                             ? CompactionFilter.Decision.REMOVE : CompactionFilter.Decision.KEEP);
             RocksDB db = RocksDB.open(dir.resolve("counters"), options)) {
            byte[] one = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(1).array();
            db.merge("hits".getBytes(StandardCharsets.UTF_8), one);
            db.merge("hits".getBytes(StandardCharsets.UTF_8), one);
            long hits = ByteBuffer.wrap(db.get("hits".getBytes(StandardCharsets.UTF_8)))
                    .order(ByteOrder.LITTLE_ENDIAN).getLong();   // 2
            // --- readme:merge end
            assertEquals(2, hits);
            // --- readme:merge begin
        }
        // --- readme:merge end
        // --- readme:mergeByName begin
        // The same counters with RocksDB's own C++ operator: no call into Java per merge.
        try (Options options = new Options().setCreateIfMissing(true).setMergeOperatorName("uint64add");
             RocksDB db = RocksDB.open(dir.resolve("native-counters"), options)) {
            byte[] one = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(1).array();
            db.merge("hits".getBytes(StandardCharsets.UTF_8), one);
            db.merge("hits".getBytes(StandardCharsets.UTF_8), one);   // "hits" is 2
            // --- readme:mergeByName end
            assertArrayEquals(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(2).array(),
                    db.get("hits".getBytes(StandardCharsets.UTF_8)));
            // --- readme:mergeByName begin
        }
        // a misspelled name is refused here, not at the first merge
        assertThrows(IllegalArgumentException.class, () -> new Options().setMergeOperatorName("uint64Add"));
        // --- readme:mergeByName end
    }

    @Test
    void secondariesTtlAndSharedResources() {
        // --- readme:production begin
        // One I/O budget for the flushes and compactions of every database opened with these
        // options; a secondary instance follows the primary's writes, read-only.
        try (RateLimiter limiter = RateLimiter.create(16 << 20);       // 16 MiB/s
             Options options = new Options().setCreateIfMissing(true).setRateLimiter(limiter);
             RocksDB primary = RocksDB.open(dir.resolve("main"), options);
             RocksDB follower = RocksDB.openAsSecondary(dir.resolve("main"), dir.resolve("follower"), options)) {
            primary.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
            follower.tryCatchUpWithPrimary();
            byte[] v = follower.get("k".getBytes(StandardCharsets.UTF_8));   // "v"
            // --- readme:production end
            assertEquals("v", new String(v, StandardCharsets.UTF_8));
            // --- readme:production begin
        }
        // Sessions that expire a day after they were written (compactions drop them)
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB sessions = RocksDB.openWithTtl(dir.resolve("sessions"), options, 24 * 3600)) {
            sessions.put("s1".getBytes(StandardCharsets.UTF_8), "alice".getBytes(StandardCharsets.UTF_8));
        }
        // --- readme:production end
    }

    @Test
    void transactions() {
        try (Options options = new Options().setCreateIfMissing(true);
             TransactionDBOptions txDbOptions = new TransactionDBOptions()) {
            // --- readme:transactions begin
            try (TransactionDB db = TransactionDB.open(dir.resolve("bank"), options, txDbOptions);
                 WriteOptions write = new WriteOptions().setSync(true);
                 TransactionOptions txOptions = new TransactionOptions().setLockTimeout(100).setDeadlockDetect(true)) {
                db.put("alice".getBytes(StandardCharsets.UTF_8), new byte[] {100});
                Transaction tx = db.beginTransaction(write, txOptions);
                try {
                    byte[] alice = tx.getForUpdate("alice".getBytes(StandardCharsets.UTF_8)); // locks the key
                    tx.put("alice".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) (alice[0] - 10)});
                    tx.put("bob".getBytes(StandardCharsets.UTF_8), new byte[] {10});
                    tx.commit();
                } catch (RocksDBException e) {    // TIMED_OUT, BUSY (deadlock), EXPIRED: retry later
                    tx.rollback();
                } finally {
                    tx.close();                   // or reuse it: db.beginTransaction(write, txOptions, tx)
                }
            }
            // --- readme:transactions end
            try (TransactionDB db = TransactionDB.open(dir.resolve("bank"), options, txDbOptions)) {
                assertEquals(90, db.get("alice".getBytes(StandardCharsets.UTF_8))[0]);
                assertEquals(10, db.get("bob".getBytes(StandardCharsets.UTF_8))[0]);
            }
        }
    }

    @Test
    void operations() {
        Path path = dir.resolve("ops");
        Path backups = dir.resolve("backups");
        Path file = dir.resolve("bulk.sst");
        byte[] a;
        // --- readme:operations begin
        try (Options options = new Options().setCreateIfMissing(true)) {
            Statistics stats = options.enableStatistics();       // readable after the options close too
            try (RocksDB db = RocksDB.open(path, options)) {
                // bulk load: write a sorted table file in Java, then ingest it
                try (SstFileWriter writer = SstFileWriter.open(options, file)) {
                    writer.put("a".getBytes(StandardCharsets.UTF_8), "1".getBytes(StandardCharsets.UTF_8))
                          .put("b".getBytes(StandardCharsets.UTF_8), "2".getBytes(StandardCharsets.UTF_8));
                    writer.finish();
                }
                try (IngestExternalFileOptions ingest = new IngestExternalFileOptions().setMoveFiles(true)) {
                    db.ingestExternalFile(List.of(file), ingest);
                }
                db.setOptions(Map.of("disable_auto_compactions", "true")); // mutable options, by name
                // incremental backups, verified
                try (BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
                     BackupEngine engine = BackupEngine.open(backupOptions)) {
                    engine.createBackup(db);
                    engine.verify(engine.backups().getLast().id());
                }
                long keysWritten = stats.tickers().get(TickerType.NUMBER_KEYS_WRITTEN.engineName());
                // --- readme:operations end
                assertEquals(0, keysWritten, "ingested keys are not written through the write path");
                // --- readme:operations begin
            }
        }
        // restore into the directory of a closed database; reopen it with its own OPTIONS file
        try (BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
             BackupEngine engine = BackupEngine.open(backupOptions)) {
            engine.restoreLatest(path);
        }
        try (LatestOptions latest = LatestOptions.load(path);
             RocksDB db = RocksDB.open(path, latest.dbOptions(), latest.columnFamilies())) {
            a = db.get("a".getBytes(StandardCharsets.UTF_8));  // "1"
        }
        // --- readme:operations end
        assertArrayEquals("1".getBytes(StandardCharsets.UTF_8), a);
    }

    @Test
    void familyFilesAndCompactionControl() {
        if (!Gated.since11("rocksdb_checkpoint_export_column_family", () -> {
            try (RocksDB db = RocksDB.open(dir.resolve("gate"), new Options().setCreateIfMissing(true));
                 Checkpoint cp = Checkpoint.create(db)) {
                cp.exportColumnFamily(db.defaultColumnFamily(), dir.resolve("gate-export"));
            }
        })) {
            return;
        }
        Path source = dir.resolve("source");
        Path target = dir.resolve("target");
        Path export = dir.resolve("export");
        byte[] v;
        // --- readme:familyfiles begin
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(source, options);
             RocksDB other = RocksDB.open(target, options)) {
            List<ColumnFamilyHandle> made = db.createColumnFamilies(options, List.of("events", "users"));
            ColumnFamilyHandle events = made.get(0);
            db.put(events, "e1".getBytes(StandardCharsets.UTF_8), "login".getBytes(StandardCharsets.UTF_8));
            db.flush(events, true);
            ColumnFamilyMetaData meta = db.getColumnFamilyMetaData(events); // levels, files, key ranges
            // copy the family into another database: export its files, import them there
            try (Checkpoint checkpoint = Checkpoint.create(db);
                 ExportImportFilesMetaData exported = checkpoint.exportColumnFamily(events, export);
                 ImportColumnFamilyOptions importOptions = new ImportColumnFamilyOptions()) {
                ColumnFamilyHandle copy = other.createColumnFamilyWithImport("events", options, importOptions, exported);
                v = other.get(copy, "e1".getBytes(StandardCharsets.UTF_8));   // "login"
            }
            // --- readme:familyfiles end
            assertEquals(1, meta.fileCount());
            assertEquals("login", new String(v, StandardCharsets.UTF_8));
            // --- readme:compaction begin
            db.suggestCompactRange(events, null, null);                  // mark the family's files for compaction
            try (WaitForCompactOptions wait = new WaitForCompactOptions().setFlush(true)
                    .setTimeout(Duration.ofMinutes(1))) {
                db.waitForCompact(wait);                                 // flushes, then waits for the compactions
            }
            // --- readme:compaction end
            assertEquals("0", db.getProperty(events, "rocksdb.num-entries-active-mem-table"));
            // --- readme:familyfiles begin
        }
        // --- readme:familyfiles end
    }

    @Test
    void timestamps() {
        Path path = dir.resolve("ts");
        List<String> history = new ArrayList<>();
        TimestampedDB.Versioned atTwo;
        TimestampedDB.Versioned atFour;
        // --- readme:timestamps begin
        try (Options options = new Options().setCreateIfMissing(true)
                     .setComparator(TimestampedComparator.bytewiseU64()); // 8-byte timestamps, newest first
             RocksDB db = RocksDB.open(path, options);
             ReadOptions asOf = new ReadOptions()) {
            TimestampedDB versions = TimestampedDB.of(db);
            ColumnFamilyHandle family = db.defaultColumnFamily();
            byte[] key = "price".getBytes(StandardCharsets.UTF_8);
            versions.put(family, key, Timestamps.u64(1), "10".getBytes(StandardCharsets.UTF_8));
            versions.put(family, key, Timestamps.u64(3), "12".getBytes(StandardCharsets.UTF_8));
            versions.delete(family, key, Timestamps.u64(4));
            asOf.setTimestamp(MemorySegment.ofArray(Timestamps.u64(2)));   // read as of time 2
            atTwo = versions.get(family, asOf, key);                          // "10", written at 1
            asOf.setTimestamp(MemorySegment.ofArray(Timestamps.u64(4)));
            atFour = versions.get(family, asOf, key);                         // null: deleted at 4
            asOf.setIterStartTimestamp(MemorySegment.ofArray(Timestamps.u64(0))); // every version up to 4
            try (RocksIterator it = db.newIterator(family, asOf)) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    history.add(Timestamps.u64(it.timestamp()) + ":" + new String(it.valueBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        // --- readme:timestamps end
        assertEquals("10", new String(atTwo.value(), StandardCharsets.UTF_8));
        assertEquals(1, Timestamps.u64(atTwo.timestamp()));
        assertNull(atFour);
        assertEquals(List.of("4:", "3:12", "1:10"), history);
    }

    /**
     * Every block of the README and the guides marked {@code <!-- readme:NAME -->} is exactly the
     * code between the markers of this file or {@link MigrationTest}, and every snippet of both is
     * quoted somewhere.
     */
    @Test
    void readmeQuotesThisTest() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(Path.of("src/test/java/io/rocksffm/TutorialTest.java")));
        lines.addAll(Files.readAllLines(Path.of("src/test/java/io/rocksffm/MigrationTest.java")));
        for (String test : List.of("PerfContextTest", "InfoLoggerTest", "SstFileManagerTest", "EnvTest", "RocksIteratorTest")) {
            lines.addAll(Files.readAllLines(Path.of("src/test/java/io/rocksffm/" + test + ".java")));
        }
        Set<String> quoted = new TreeSet<>();
        for (Path page : DocumentationLinksTest.pages()) {
            Matcher m = Pattern.compile("<!-- readme:(\\w+) -->\\s*```java\\n(.*?)```", Pattern.DOTALL)
                    .matcher(Files.readString(page));
            while (m.find()) {
                assertEquals(snippet(lines, m.group(1)), m.group(2).strip(), page + " block " + m.group(1));
                quoted.add(m.group(1));
            }
        }
        Set<String> snippets = new TreeSet<>();
        Matcher begin = Pattern.compile("// --- readme:(\\w+) begin").matcher(String.join("\n", lines));
        while (begin.find()) {
            snippets.add(begin.group(1));
        }
        assertEquals(snippets, quoted, "every snippet is quoted by the README or a guide");
        assertTrue(quoted.size() >= 8, "quoted: " + quoted);
    }

    private static String snippet(List<String> lines, String name) {
        List<String> out = new ArrayList<>();
        boolean on = false;
        for (String line : lines) {
            String t = line.strip();
            if (t.equals("// --- readme:" + name + " begin")) {
                on = true;
            } else if (t.equals("// --- readme:" + name + " end")) {
                on = false;
            } else if (on) {
                out.add(line);
            }
        }
        assertFalse(out.isEmpty(), "no snippet " + name);
        return String.join("\n", out).stripIndent().strip();
    }
}
