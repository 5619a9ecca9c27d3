package io.rocksffm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of the javadoc of transactions and of the types that operate a database (backups,
 * checkpoints, bulk loads, statistics, shared resources), run; each block between "javadoc:NAME"
 * markers is quoted by a {@code {@snippet id="NAME"}} ({@link JavadocExamplesTest}).
 */
class OperationsExamplesTest {
    @TempDir
    Path dir;

    @Test
    void transactionDB() {
        Path path = dir.resolve("tx");
        try (Options options = new Options().setCreateIfMissing(true)) {
            // --- javadoc:TransactionDB begin
            try (TransactionDBOptions txDbOptions = new TransactionDBOptions();
                 TransactionDB db = TransactionDB.open(path, options, txDbOptions);
                 WriteOptions write = new WriteOptions();
                 TransactionOptions txOptions = new TransactionOptions().setLockTimeout(100);  // ms
                 Transaction tx = db.beginTransaction(write, txOptions)) {
                byte[] stock = tx.getForUpdate("stock".getBytes(UTF_8));   // locks "stock" until commit
                tx.put("stock".getBytes(UTF_8), "9".getBytes(UTF_8));
                tx.commit();   // a lock wait that runs out throws TIMED_OUT; a deadlock, BUSY
                // --- javadoc:TransactionDB end
                assertNull(stock);
                assertEquals("9", new String(db.get("stock".getBytes(UTF_8)), UTF_8));
                // --- javadoc:TransactionDB begin
            }
            // --- javadoc:TransactionDB end
        }
    }

    @Test
    void optimisticTransactionDB() {
        Path path = dir.resolve("optimistic");
        int attempts = 0;
        try (Options options = new Options().setCreateIfMissing(true)) {
            // --- javadoc:OptimisticTransactionDB begin
            try (OptimisticTransactionDB db = OptimisticTransactionDB.open(path, options);
                 WriteOptions write = new WriteOptions()) {
                // --- javadoc:OptimisticTransactionDB end
                db.put("stock".getBytes(UTF_8), new byte[] {10});
                // --- javadoc:OptimisticTransactionDB begin
                for (boolean done = false; !done; ) {
                    try (Transaction tx = db.beginTransaction(write)) {
                        byte[] stock = tx.getForUpdate("stock".getBytes(UTF_8));   // no lock: checked at commit
                        // --- javadoc:OptimisticTransactionDB end
                        if (attempts++ == 0) {
                            db.put("stock".getBytes(UTF_8), new byte[] {5});   // a concurrent writer
                        }
                        // --- javadoc:OptimisticTransactionDB begin
                        tx.put("stock".getBytes(UTF_8), new byte[] {(byte) (stock[0] - 1)});
                        tx.commit();
                        done = true;
                    } catch (RocksDBException e) {   // BUSY: another writer changed "stock"; try again
                        if (e.code() != RocksDBException.Code.BUSY) throw e;
                    }
                }
                // --- javadoc:OptimisticTransactionDB end
                assertEquals(2, attempts);
                assertEquals(4, db.get("stock".getBytes(UTF_8))[0]);
                // --- javadoc:OptimisticTransactionDB begin
            }
            // --- javadoc:OptimisticTransactionDB end
        }
    }

    @Test
    void transactionSavePoints() {
        try (Options options = new Options().setCreateIfMissing(true);
             TransactionDBOptions txDbOptions = new TransactionDBOptions();
             TransactionDB db = TransactionDB.open(dir.resolve("savepoints"), options, txDbOptions);
             WriteOptions write = new WriteOptions()) {
            // --- javadoc:Transaction begin
            try (Transaction tx = db.beginTransaction(write)) {
                tx.put("a".getBytes(UTF_8), "1".getBytes(UTF_8));
                tx.setSavePoint();
                tx.put("b".getBytes(UTF_8), "2".getBytes(UTF_8));
                byte[] b = tx.get("b".getBytes(UTF_8));   // "2": the transaction reads its own writes
                tx.rollbackToSavePoint();                 // undoes the put of "b" only
                tx.commit();                              // writes "a"
                // --- javadoc:Transaction end
                assertEquals("2", new String(b, UTF_8));
                // --- javadoc:Transaction begin
            }
            // --- javadoc:Transaction end
            assertEquals("1", new String(db.get("a".getBytes(UTF_8)), UTF_8));
            assertNull(db.get("b".getBytes(UTF_8)));
        }
    }

    @Test
    void checkpointAndCompaction() {
        Path path = dir.resolve("db");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(path, options)) {
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            // --- javadoc:Checkpoint begin
            try (Checkpoint checkpoint = Checkpoint.create(db)) {
                checkpoint.createCheckpoint(dir.resolve("copy"));   // a new directory; opens as a database
            }
            // --- javadoc:Checkpoint end
            // --- javadoc:CompactRangeOptions begin
            try (CompactRangeOptions compact = new CompactRangeOptions()
                         .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.FORCE)) {
                db.compactRange(db.defaultColumnFamily(), compact, null, null);   // all keys, last level too
            }
            // --- javadoc:CompactRangeOptions end
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0").strip(), "flushed and compacted");
            assertEquals(1, db.liveFiles().size());
        }
        try (Options options = new Options(); RocksDB copy = RocksDB.openReadOnly(dir.resolve("copy"), options)) {
            assertEquals("v", new String(copy.get("k".getBytes(UTF_8)), UTF_8));
        }
    }

    @Test
    void backupEngine() {
        Path path = dir.resolve("backedup");
        Path backups = dir.resolve("backups");
        Options options = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(path, options);
        db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
        // --- javadoc:BackupEngine begin
        try (BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
             BackupEngine engine = BackupEngine.open(backupOptions)) {
            engine.createBackup(db);                 // incremental: unchanged files are shared
            engine.verify(engine.backups().getLast().id());
            engine.purgeOldBackups(7);               // keep the newest seven
        }
        // --- javadoc:BackupEngine end
        db.put("k".getBytes(UTF_8), "after the backup".getBytes(UTF_8));
        db.close();
        options.close();
        // --- javadoc:BackupEngine begin
        // Restore into the directory of a closed database
        try (BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
             BackupEngine engine = BackupEngine.open(backupOptions)) {
            engine.restoreLatest(path);
        }
        // --- javadoc:BackupEngine end
        try (Options reopen = new Options(); RocksDB restored = RocksDB.open(path, reopen)) {
            assertEquals("v", new String(restored.get("k".getBytes(UTF_8)), UTF_8));
        }
    }

    @Test
    void bulkLoadAndStatistics() {
        Path path = dir.resolve("bulk");
        Path file = dir.resolve("bulk.sst");
        try (Options options = new Options().setCreateIfMissing(true)) {
            // --- javadoc:Statistics begin
            Statistics stats = options.enableStatistics();   // readable after options are closed too
            try (RocksDB db = RocksDB.open(path, options)) {
                db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
                long keysWritten = stats.tickers().get(TickerType.NUMBER_KEYS_WRITTEN.engineName());   // 1
                // --- javadoc:Statistics end
                assertEquals(1, keysWritten);
                // --- javadoc:SstFileWriter begin
                try (SstFileWriter writer = SstFileWriter.open(options, file)) {
                    writer.put("a".getBytes(UTF_8), "1".getBytes(UTF_8))   // in ascending key order
                          .put("b".getBytes(UTF_8), "2".getBytes(UTF_8));
                    writer.finish();
                }
                try (IngestExternalFileOptions ingest = new IngestExternalFileOptions().setMoveFiles(true)) {
                    db.ingestExternalFile(List.of(file), ingest);   // atomically visible
                }
                // --- javadoc:SstFileWriter end
                assertEquals("2", new String(db.get("b".getBytes(UTF_8)), UTF_8));
                assertEquals(1, stats.tickers().get(TickerType.NUMBER_KEYS_WRITTEN.engineName()));
                // --- javadoc:Statistics begin
            }
            // --- javadoc:Statistics end
        }
    }

    @Test
    void sharedResources() {
        // --- javadoc:Cache begin
        // One 256 MiB block cache for two databases, with Bloom filters
        try (Cache cache = Cache.newLRUCache(256L << 20);
             BlockBasedTableConfig table = new BlockBasedTableConfig()
                     .setBlockCache(cache).setFilterPolicy(FilterPolicy.bloom(10));
             Options options = new Options().setCreateIfMissing(true).setTableFormat(table);
             RocksDB orders = RocksDB.open(dir.resolve("orders"), options);
             RocksDB users = RocksDB.open(dir.resolve("users"), options)) {
            long used = cache.usage();   // bytes the cached blocks of both take
            // --- javadoc:Cache end
            assertEquals(256L << 20, cache.capacity());
            assertTrue(used >= 0);
            // --- javadoc:Cache begin
        }
        // --- javadoc:Cache end
        // --- javadoc:RateLimiter begin
        try (RateLimiter limiter = RateLimiter.create(16L << 20);   // 16 MiB/s of flush and compaction I/O
             Options options = new Options().setCreateIfMissing(true).setRateLimiter(limiter);
             RocksDB db = RocksDB.open(dir.resolve("limited"), options)) {
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            db.flush(true);                                          // paced by the limiter
        }
        // --- javadoc:RateLimiter end
        try (Options options = new Options(); RocksDB db = RocksDB.open(dir.resolve("limited"), options)) {
            assertEquals("v", new String(db.get("k".getBytes(UTF_8)), UTF_8));
        }
    }

    @Test
    void tableAndCompactionSettings() throws IOException {
        Path path = dir.resolve("table");
        // --- javadoc:BlockBasedTableConfig begin
        try (BlockBasedTableConfig table = new BlockBasedTableConfig()
                     .setBlockSize(16 << 10)                      // 16 KiB blocks
                     .setFilterPolicy(FilterPolicy.bloom(10))     // about 1% false positives
                     .setCacheIndexAndFilterBlocks(true);         // count them against the block cache
             Options options = new Options().setCreateIfMissing(true).setTableFormat(table);
             RocksDB db = RocksDB.open(path, options)) {
            // --- javadoc:BlockBasedTableConfig end
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            // --- javadoc:BlockBasedTableConfig begin
        }
        // --- javadoc:BlockBasedTableConfig end
        String written = latestOptionsFile(path);
        assertTrue(written.contains("block_size=16384"), written);
        assertTrue(written.contains("cache_index_and_filter_blocks=true"), written);
        Path universalPath = dir.resolve("universal");
        // --- javadoc:UniversalCompactionOptions begin
        try (UniversalCompactionOptions universal = new UniversalCompactionOptions()
                     .setSizeRatio(10).setMaxSizeAmplificationPercent(150);
             Options options = new Options().setCreateIfMissing(true)
                     .setCompactionStyle(CompactionStyle.UNIVERSAL)
                     .setUniversalCompactionOptions(universal);   // copied: universal may be closed
             RocksDB db = RocksDB.open(universalPath, options)) {
            // --- javadoc:UniversalCompactionOptions end
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            // --- javadoc:UniversalCompactionOptions begin
        }
        // --- javadoc:UniversalCompactionOptions end
        written = latestOptionsFile(universalPath);
        assertTrue(written.contains("compaction_style=kCompactionStyleUniversal"), written);
        assertTrue(written.contains("max_size_amplification_percent=150"), written);
        assertTrue(written.contains("size_ratio=10"), written);
    }

    @Test
    void fifo() throws IOException {
        Path path = dir.resolve("events");
        // --- javadoc:FifoCompactionOptions begin
        // An event log that keeps about the newest 1 GiB: the oldest table files are deleted
        try (FifoCompactionOptions fifo = new FifoCompactionOptions().setMaxTableFilesSize(1L << 30);
             Options options = new Options().setCreateIfMissing(true)
                     .setCompactionStyle(CompactionStyle.FIFO)
                     .setFifoCompactionOptions(fifo);   // copied: fifo may be closed
             RocksDB events = RocksDB.open(path, options)) {
            // --- javadoc:FifoCompactionOptions end
            events.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            // --- javadoc:FifoCompactionOptions begin
        }
        // --- javadoc:FifoCompactionOptions end
        String written = latestOptionsFile(path);
        assertTrue(written.contains("compaction_style=kCompactionStyleFIFO"), written);
        assertTrue(written.contains("max_table_files_size=1073741824"), written);
    }

    @Test
    void createBackupOptions() {
        assumeTrue(Gated.since11("rocksdb_create_backup_options_create", CreateBackupOptions::new),
                "the engine has no backup options");
        Path backups = dir.resolve("progress");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("progressdb"), options)) {
            db.put("k".getBytes(UTF_8), new byte[1 << 16]);
            // --- javadoc:CreateBackupOptions begin
            AtomicInteger progress = new AtomicInteger();
            try (CreateBackupOptions backup = new CreateBackupOptions()
                         .setFlushBeforeBackup(true)                      // the memtables too, as table files
                         .setProgressCallback(progress::incrementAndGet);  // on the backup's thread
                 BackupEngineOptions backupOptions = new BackupEngineOptions(backups);
                 BackupEngine engine = BackupEngine.open(backupOptions)) {
                int id = engine.createBackup(db, backup);
                // --- javadoc:CreateBackupOptions end
                assertEquals(id, engine.backups().getLast().id());
                engine.verify(id);
                // --- javadoc:CreateBackupOptions begin
            }
            // --- javadoc:CreateBackupOptions end
            assertEquals("0", db.getProperty("rocksdb.num-entries-active-mem-table"), "flushed first");
        }
    }

    @Test
    void waitForCompact() {
        assumeTrue(Gated.since11("rocksdb_wait_for_compact_options_create", WaitForCompactOptions::new),
                "the engine has no wait for compaction");
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("settled"), options)) {
            for (int round = 0; round < 4; round++) {   // three overlapping level-0 files, one short of the trigger
                for (int i = 0; i < 100; i++) {
                    db.put(("k" + i).getBytes(UTF_8), ("v" + round).getBytes(UTF_8));
                }
                if (round < 3) {
                    db.flush(true);
                }
            }
            assertEquals("3", db.getProperty("rocksdb.num-files-at-level0").strip());
            // --- javadoc:WaitForCompactOptions begin
            try (WaitForCompactOptions wait = new WaitForCompactOptions()
                         .setFlush(true)                          // flush the memtables first
                         .setTimeout(Duration.ofMinutes(1))) {   // else fails with TIMED_OUT
                db.waitForCompact(wait);   // returns once no flush or compaction is running or due
            }
            // --- javadoc:WaitForCompactOptions end
            assertEquals("0", db.getProperty("rocksdb.num-entries-active-mem-table"), "flushed");
            assertEquals("0", db.getProperty("rocksdb.num-files-at-level0").strip(), "the fourth file's compaction");
            assertEquals("0", db.getProperty("rocksdb.compaction-pending"));
            assertEquals("0", db.getProperty("rocksdb.num-running-compactions"));
            assertEquals("0", db.getProperty("rocksdb.num-running-flushes"));
            assertEquals("v3", new String(db.get("k7".getBytes(UTF_8)), UTF_8));
        }
    }

    @Test
    void trace() throws IOException {
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(dir.resolve("traced"), o)) {
            assumeTrue(Gated.supported("rocksdb_start_trace", () -> db.startTrace(dir.resolve("trace"))),
                    "the engine has no tracing");
            // --- javadoc:TraceOptions begin
            TraceOptions options = new TraceOptions()
                    .withExcluded(Set.of(TraceOptions.Operation.GET))   // writes, seeks and multi-gets only
                    .withSamplingFrequency(1);                          // every one of them
            db.startTrace(options, dir.resolve("trace"));   // RocksDB writes the file from now on
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            db.endTrace();                                   // closes the file
            // --- javadoc:TraceOptions end
            assertTrue(Files.size(dir.resolve("trace")) > 0);
        }
    }

    @Test
    void cuckooTable() throws IOException {
        Path path = dir.resolve("cuckoo");
        // --- javadoc:CuckooTableConfig begin
        // Point lookups from memory-mapped hash tables: keys of one length, values of one length
        try (CuckooTableConfig cuckoo = new CuckooTableConfig().setHashTableRatio(0.5);
             Options options = new Options().setCreateIfMissing(true)
                     .setAllowMmapReads(true)    // required: "File is not mmaped" otherwise
                     .setTableFormat(cuckoo);   // copied: cuckoo may be closed
             RocksDB db = RocksDB.open(path, options)) {
            db.put("user0001".getBytes(UTF_8), "alice".getBytes(UTF_8));
            db.put("user0002".getBytes(UTF_8), "bobby".getBytes(UTF_8));
            db.flush(true);                                  // a Cuckoo table file
            byte[] name = db.get("user0002".getBytes(UTF_8));   // "bobby"
            // --- javadoc:CuckooTableConfig end
            assertEquals("bobby", new String(name, UTF_8));
            assertEquals("alice", new String(db.get("user0001".getBytes(UTF_8)), UTF_8));
            assertEquals(1, db.liveFiles().size());
            // --- javadoc:CuckooTableConfig begin
        }
        // --- javadoc:CuckooTableConfig end
        assertTrue(latestOptionsFile(path).contains("table_factory=CuckooTable"));
    }

    @Test
    void plainTable() throws IOException {
        try (Options probe = new Options()) {
            assumeTrue(Gated.supported("rocksdb_options_set_plain_table_factory",
                    () -> probe.setTableFormat(PlainTableConfig.defaults())), "the engine's PlainTable setter differs");
        }
        Path path = dir.resolve("plain");
        List<String> scanned = new ArrayList<>();
        // --- javadoc:PlainTableConfig begin
        // Keys found through a hash of their 4-byte prefix, in files kept in memory (tmpfs, page cache)
        try (Options options = new Options().setCreateIfMissing(true)
                     .setAllowMmapReads(true)
                     .setPrefixExtractor(PrefixExtractor.fixed(4))
                     .setTableFormat(PlainTableConfig.defaults().withStoreIndexInFile(true));
             RocksDB db = RocksDB.open(path, options);
             ReadOptions samePrefix = new ReadOptions().setPrefixSameAsStart(true)) {
            for (String k : List.of("user1", "user2", "item1")) {
                db.put(k.getBytes(UTF_8), "v".getBytes(UTF_8));
            }
            db.flush(true);   // a PlainTable file
            try (RocksIterator it = db.newIterator(samePrefix)) {   // forward only, within a prefix
                for (it.seek("user".getBytes(UTF_8)); it.isValid(); it.next()) {
                    scanned.add(new String(it.keyBytes(), UTF_8));
                }
            }
        }
        // --- javadoc:PlainTableConfig end
        assertEquals(List.of("user1", "user2"), scanned);
        assertTrue(latestOptionsFile(path).contains("table_factory=PlainTable"));
    }

    private static String latestOptionsFile(Path db) throws IOException {
        try (Stream<Path> files = Files.list(db)) {
            Path latest = files.filter(f -> f.getFileName().toString().startsWith("OPTIONS-")).sorted()
                    .reduce((a, b) -> b).orElseThrow();
            return Files.readString(latest);
        }
    }

    @Test
    void writeBufferManager() {
        assumeTrue(Gated.supported("rocksdb_write_buffer_manager_create",
                () -> WriteBufferManager.create(1 << 20, false)), "the engine has no write buffer manager");
        // --- javadoc:WriteBufferManager begin
        // 64 MiB of memtables for two databases together, charged to their block cache
        try (Cache cache = Cache.newLRUCache(256L << 20);
             WriteBufferManager memtables = WriteBufferManager.create(64L << 20, cache, false);
             Options options = new Options().setCreateIfMissing(true).setWriteBufferManager(memtables);
             RocksDB a = RocksDB.open(dir.resolve("a"), options);
             RocksDB b = RocksDB.open(dir.resolve("b"), options)) {
            long used = memtables.memoryUsage();
            // --- javadoc:WriteBufferManager end
            a.put("k".getBytes(UTF_8), new byte[4096]);
            assertTrue(memtables.memoryUsage() > used, memtables.memoryUsage() + " > " + used);
            assertTrue(memtables.costToCache());
            // --- javadoc:WriteBufferManager begin
        }
        // --- javadoc:WriteBufferManager end
    }
}
