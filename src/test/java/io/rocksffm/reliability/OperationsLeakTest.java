package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BackupEngine;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.RocksIterator;
import io.rocksffm.TimestampedComparator;
import io.rocksffm.TimestampedDB;
import io.rocksffm.Timestamps;
import io.rocksffm.BackupEngineOptions;
import io.rocksffm.HistogramType;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.LatestOptions;
import io.rocksffm.Options;
import io.rocksffm.RestoreOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.SstFileWriter;
import io.rocksffm.Statistics;
import io.rocksffm.TickerType;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.Cache;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.Env;
import io.rocksffm.InfoLogger;
import io.rocksffm.PerfContext;
import io.rocksffm.PerfLevel;
import io.rocksffm.PerfMetric;
import io.rocksffm.SstFileManager;
import io.rocksffm.CompactionStyle;
import io.rocksffm.Compression;
import io.rocksffm.FifoCompactionOptions;
import io.rocksffm.InfoLogLevel;
import io.rocksffm.ReadOptions;
import io.rocksffm.Snapshot;
import io.rocksffm.UniversalCompactionOptions;
import io.rocksffm.WalUpdate;
import io.rocksffm.WriteOptions;
import io.rocksffm.internal.Capabilities;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import io.rocksffm.PinnedValue;
import io.rocksffm.RocksDBException;
import io.rocksffm.WriteBatchWithIndex;

/**
 * No native leaks in the operations of issue 16 (backups, table files and ingestion, statistics,
 * options from text and files), with {@link NativeLeakTest}'s harness: create/use/close cycles of
 * every new closeable and their error paths, malloc'ed memory flat across rounds. The option
 * objects, backup listing and verification run 100,000 cycles (CI; 10x with the heavy flag). The
 * rest run fewer in CI, to keep the suite fast, and 100,000 each with the heavy flag (see
 * {@link NativeLeakTest#heavyWorkload}): each cycle of theirs reads or writes files (backup
 * engine open, backup, restore and purge, table files, OPTIONS files, ingestion) or is slow in
 * RocksDB itself (measured on a loaded 2-core machine: statistics creation ~0.3 ms, as it
 * allocates per-core counters and histograms; an options string ~0.4 ms, a failing one ~1 ms).
 */
class OperationsLeakTest {
    @TempDir
    Path dir;

    /**
     * Issue 32's typed settings: options with every group set (the WAL directory and compression
     * per level allocate C memory per call), universal and FIFO settings applied and closed, a
     * block-based table configuration with every setter; and a database opened with them.
     */
    @Test
    void typedSettingsLeakNothing() throws Exception {
        int x = scale(1, 10);
        Path wal = dir.resolve("wal");
        NativeLeakTest.Workloads.run(List.of(
                new NativeLeakTest.Workload("Options typed settings set/get/close", 50_000 * x, i -> {
                    try (Options o = new Options().setMaxBackgroundJobs(4).setWalDir(wal).setWalTtlSeconds(60)
                            .setInfoLogLevel(InfoLogLevel.WARN).setNumLevels(5)
                            .setCompactionStyle(CompactionStyle.LEVEL).setMaxBytesForLevelMultiplier(8)
                            .setCompressionPerLevel(List.of(Compression.NONE, Compression.LZ4))
                            .setBottommostCompression(Compression.ZSTD).setEnableBlobFiles(true)
                            .setBlobGcAgeCutoff(0.5)) {
                        o.walDir();
                        o.compressionPerLevel();
                        o.blobGcAgeCutoff();
                    }
                }),
                new NativeLeakTest.Workload("Universal and FIFO settings create/apply/close", 50_000 * x, i -> {
                    try (UniversalCompactionOptions u = new UniversalCompactionOptions().setSizeRatio(5);
                         FifoCompactionOptions f = new FifoCompactionOptions().setMaxTableFilesSize(1 << 20);
                         Options o = new Options().setUniversalCompactionOptions(u).setFifoCompactionOptions(f)) {
                        u.sizeRatio();
                        f.maxTableFilesSize();
                    }
                }),
                new NativeLeakTest.Workload("BlockBasedTableConfig every setter/apply/close", 50_000 * x, i -> {
                    try (BlockBasedTableConfig t = new BlockBasedTableConfig()
                            .setIndexType(BlockBasedTableConfig.IndexType.TWO_LEVEL_INDEX_SEARCH)
                            .setPartitionFilters(true).setFormatVersion(5).setBlockRestartInterval(8)
                            .setChecksum(BlockBasedTableConfig.ChecksumType.XXHASH64)
                            .setDataBlockIndexType(BlockBasedTableConfig.DataBlockIndexType.BINARY_SEARCH_AND_HASH)
                            .setMetadataBlockSize(8192).setPinL0FilterAndIndexBlocksInCache(true);
                         Options o = new Options().setTableFormat(t)) {
                        o.maxOpenFiles();
                    }
                }),
                new NativeLeakTest.Workload("Read/WriteOptions issue 32 settings", 50_000 * x, i -> {
                    try (ReadOptions ro = new ReadOptions()
                            .setReadTier(ReadOptions.ReadTier.BLOCK_CACHE).setIgnoreRangeDeletions(true)
                            .setPinData(true).setDeadlineMicros(1).setIoTimeoutMicros(1);
                         WriteOptions wo = new WriteOptions().setNoSlowdown(true).setLowPri(true)) {
                        ro.readTier();
                        wo.memtableInsertHintPerBatch();
                    }
                }),
                NativeLeakTest.heavyWorkload("open/close with typed settings", 100, 1 << 20, i -> {
                    try (UniversalCompactionOptions u = new UniversalCompactionOptions().setSizeRatio(5);
                         Options o = new Options().setCreateIfMissing(true).setWalDir(wal)
                                 .setCompactionStyle(CompactionStyle.UNIVERSAL).setUniversalCompactionOptions(u)
                                 .setEnableBlobFiles(true).setMinBlobSize(10);
                         RocksDB db = RocksDB.open(dir.resolve("typed"), o)) {
                        db.put(bytes("k"), bytes("a value long enough for a blob"));
                    }
                })));
    }

    /**
     * User-defined timestamps (issue 32): timestamped writes and reads (each read frees the value
     * and timestamp the engine allocated), history and read-timestamp options (their copies freed
     * at close), iterators as of a time, the comparator with timestamps, and the errors.
     */
    @Test
    void timestampsLeakNothing() throws Exception {
        int x = scale(1, 10);
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(256 << 10)
                .setComparator(TimestampedComparator.bytewiseU64());
             RocksDB db = RocksDB.open(dir.resolve("ts"), o);
             ReadOptions asOf = new ReadOptions().setTimestamp(MemorySegment.ofArray(Timestamps.u64(Long.MAX_VALUE)));
             ReadOptions wrongSize = new ReadOptions().setTimestamp(MemorySegment.ofArray(new byte[3]))) {
            TimestampedDB tdb = TimestampedDB.of(db);
            ColumnFamilyHandle f = db.defaultColumnFamily();
            byte[] ts = Timestamps.u64(5);
            tdb.put(f, bytes("k"), ts, bytes("v"));
            long[] clock = {100}; // timestamps rise across the workload's rounds
            NativeLeakTest.Workloads.run(List.of(
                    new NativeLeakTest.Workload("timestamped put/get/delete/get", 50_000 * x, i -> {
                        tdb.put(f, bytes("key"), Timestamps.u64(++clock[0]), bytes("value"));
                        assertNotNull(tdb.get(f, asOf, bytes("key")));
                        tdb.delete(f, bytes("key"), Timestamps.u64(++clock[0]));
                        assertNull(tdb.get(f, asOf, bytes("key")));
                    }),
                    new NativeLeakTest.Workload("timestamped multiGet", 50_000 * x,
                            i -> tdb.multiGet(asOf, List.of(f, f), List.of(bytes("k"), bytes("absent")))),
                    new NativeLeakTest.Workload("ReadOptions read/start timestamps set/replace/close", 50_000 * x, i -> {
                        try (ReadOptions ro = new ReadOptions()) {
                            ro.setTimestamp(MemorySegment.ofArray(ts)).setTimestamp(MemorySegment.ofArray(ts))
                                    .setIterStartTimestamp(MemorySegment.ofArray(ts)).setIterStartTimestamp(null);
                        }
                    }),
                    new NativeLeakTest.Workload("iterator as of a timestamp, with timestamp()", 20_000 * x, i -> {
                        try (RocksIterator it = db.newIterator(f, asOf)) {
                            it.seekToFirst();
                            assertEquals(8, it.timestamp().length);
                        }
                    }),
                    new NativeLeakTest.Workload("Options with a timestamped comparator create/close", 20_000 * x,
                            i -> new Options().setComparator(TimestampedComparator.bytewiseU64()).close()),
                    new NativeLeakTest.Workload("error: a read timestamp of the wrong size (the engine refuses it)",
                            50_000 * x, i -> NativeLeakTest.expectError(() -> db.get(f, wrongSize, bytes("k")))),
                    new NativeLeakTest.Workload("error: read without a read timestamp", 50_000 * x,
                            i -> NativeLeakTest.expectError(() -> db.get(bytes("k")))),
                    new NativeLeakTest.Workload("error: decrease the full history low", 50_000 * x, i -> {
                        if (i == 0) {
                            tdb.increaseFullHistoryTsLow(f, ts);
                        }
                        NativeLeakTest.expectError(() -> tdb.increaseFullHistoryTsLow(f, Timestamps.u64(1)));
                    })));
        }
    }

    /** Change capture (issue 32): the log iterator and the native batches it returns are freed in every call, and on errors. */
    @Test
    void changeCaptureLeaksNothing() throws Exception {
        int x = scale(1, 10);
        try (RocksDB db = open(dir.resolve("cdc")); RocksDB files = open(dir.resolve("files"))) {
            for (int i = 0; i < 20; i++) {
                db.put(bytes("k" + i), bytes("value " + i));
                files.put(bytes("k" + i), bytes("value " + i));
            }
            files.flush(true); // table files for liveFiles
            long latest = db.latestSequenceNumber();
            NativeLeakTest.Workloads.run(List.of(
                    new NativeLeakTest.Workload("getUpdatesSince (10 batches)/close", 20_000 * x, i -> {
                        for (WalUpdate u : db.getUpdatesSince(latest - 9, 10)) {
                            u.batch().close();
                        }
                    }),
                    new NativeLeakTest.Workload("latestSequenceNumber, snapshot sequence", 100_000 * x, i -> {
                        db.latestSequenceNumber();
                        try (Snapshot s = db.getSnapshot()) {
                            if (Capabilities.callable("rocksdb_snapshot_get_sequence_number")) {
                                s.sequenceNumber();
                            }
                        }
                    }),
                    new NativeLeakTest.Workload("getUpdatesSince past the end", 20_000 * x,
                            i -> db.getUpdatesSince(latest + 1000, 10)),
                    new NativeLeakTest.Workload("CompactRangeOptions create/set/close", 50_000 * x, i -> {
                        try (CompactRangeOptions o = new CompactRangeOptions().setChangeLevel(true)
                                .setTargetLevel(1)) {
                            o.bottommostLevelCompaction();
                        }
                    }),
                    new NativeLeakTest.Workload("liveFiles", 20_000 * x, i -> assertFalse(files.liveFiles().isEmpty())),
                    new NativeLeakTest.Workload("deleteFilesInRange (no file inside)", 20_000 * x,
                            i -> files.deleteFilesInRange(files.defaultColumnFamily(),
                                    MemorySegment.ofArray(bytes("zz")),
                                    MemorySegment.ofArray(bytes("zzz")))),
                    new NativeLeakTest.Workload("keyMayExist (present, absent)", 100_000 * x, i -> {
                        try (ReadOptions ro = new ReadOptions()) {
                            files.keyMayExist(files.defaultColumnFamily(), ro, bytes("k1"));
                            files.keyMayExist(files.defaultColumnFamily(), ro, bytes("absent"));
                        }
                    }),
                    new NativeLeakTest.Workload("HyperClockCache create/close (where the engine has it)", 20_000 * x, i -> {
                        if (Capabilities.callable("rocksdb_cache_create_hyper_clock")) {
                            Cache.newHyperClockCache(1 << 20, 4096).close();
                        }
                    })));
        }
    }

    /**
     * Issue 32's observability and environment objects: perf contexts, SST file managers and info
     * loggers (where the engine has them) set on options and closed, in-memory environments with a
     * database opened, written and closed on them (each cycle frees the environment's files).
     */
    @Test
    void observabilityLeaksNothing() throws Exception {
        int x = scale(1, 10);
        boolean sfm = Capabilities.callable("rocksdb_sst_file_manager_create");
        boolean logger = Capabilities.callable("rocksdb_logger_create_callback_logger");
        NativeLeakTest.Workloads.run(List.of(
                new NativeLeakTest.Workload("PerfContext create/reset/metric/report/close", 50_000 * x, i -> {
                    PerfContext.setPerfLevel((i & 1) == 0 ? PerfLevel.ENABLE_COUNT : PerfLevel.DISABLE);
                    try (PerfContext p = PerfContext.create()) {
                        p.reset();
                        p.metric(PerfMetric.USER_KEY_COMPARISON_COUNT);
                        p.report(i % 3 == 0);
                    }
                }),
                new NativeLeakTest.Workload("SstFileManager and InfoLogger create/set on options/close", 50_000 * x, i -> {
                    try (Options o = new Options()) {
                        if (sfm) {
                            try (SstFileManager m = SstFileManager.create()) {
                                o.setSstFileManager(m.setMaxAllowedSpaceUsage(1 << 30));
                                m.totalSize();
                            }
                        }
                        if (logger) {
                            InfoLogger l = InfoLogger.of(InfoLogLevel.INFO, (level, message) -> {});
                            o.setInfoLogger(l);
                            o.close();
                            l.close();
                        }
                    }
                }),
                NativeLeakTest.heavyWorkload("in-memory Env with a database open/put/flush/close", 100, 1 << 20, i -> {
                    try (Env env = Env.memory()) {
                        try (Options o = new Options().setCreateIfMissing(true).setEnv(env);
                             RocksDB db = RocksDB.open(dir.resolve("mem"), o)) {
                            db.put(bytes("k" + i), new byte[1000]);
                            db.flush(true);
                        }
                    }
                })));
        PerfContext.setPerfLevel(PerfLevel.DISABLE);
    }

    /**
     * Issue 31's reads of an indexed batch: every form (batch alone and through it to the
     * database, arrays and segments, a value too large for the output, absent keys, pinned where
     * the engine has it) and the failing read of a key with only merges in the batch (its error
     * string freed), on one batch; and batches made, read and closed.
     */
    @Test
    void indexedBatchReadsLeakNothing() throws Exception {
        int x = scale(1, 10);
        boolean pinned = Capabilities.callable("rocksdb_writebatch_wi_get_pinned_from_batch_and_db_cf");
        try (RocksDB db = open(dir.resolve("wbwi")); Options o = new Options(); ReadOptions ro = new ReadOptions();
             WriteBatchWithIndex b = new WriteBatchWithIndex(); Arena arena = Arena.ofConfined()) {
            db.put(bytes("d"), bytes("database value"));
            b.put(bytes("b"), bytes("batch value")).delete(bytes("gone")).merge(bytes("m"), bytes("operand"));
            MemorySegment inBatch = arena.allocateFrom(ValueLayout.JAVA_BYTE, bytes("b"));
            MemorySegment inDb = MemorySegment.ofArray(bytes("d"));
            MemorySegment out = arena.allocate(64);
            MemorySegment small = arena.allocate(4);
            NativeLeakTest.Workloads.run(List.of(
                    new NativeLeakTest.Workload("WriteBatchWithIndex reads: batch alone", 100_000 * x, i -> {
                        assertEquals(11, b.getFromBatch(o, inBatch, out));
                        assertEquals(11, b.getFromBatch(db.defaultColumnFamily(), o, inBatch, small));
                        assertEquals(11, b.getFromBatch(bytes("b")).length);
                        assertNull(b.getFromBatch(o, bytes("gone")));
                        assertEquals(-1, b.getFromBatch(o, inDb, out));
                    }),
                    new NativeLeakTest.Workload("WriteBatchWithIndex reads: through the batch", 100_000 * x, i -> {
                        assertEquals(11, b.getFromBatchAndDB(db, ro, inBatch, out));
                        assertEquals(14, b.getFromBatchAndDB(db, ro, inDb, small));
                        assertEquals(14, b.getFromBatchAndDB(db, bytes("d")).length);
                        assertNull(b.getFromBatchAndDB(db, ro, bytes("gone")));
                        if (pinned) {
                            try (PinnedValue v = b.getPinnedFromBatchAndDB(db, ro, inDb)) {
                                assertEquals(14, v.segment().byteSize());
                            }
                            try (PinnedValue v = b.getPinnedFromBatchAndDB(db, ro, inBatch)) {
                                assertEquals(11, v.segment().byteSize());
                            }
                        }
                    }),
                    new NativeLeakTest.Workload("WriteBatchWithIndex read failing (merge in progress)", 100_000 * x, i -> {
                        RocksDBException e = assertThrows(RocksDBException.class, () -> b.getFromBatch(o, bytes("m")));
                        assertEquals(RocksDBException.Code.MERGE_IN_PROGRESS, e.code());
                    }),
                    new NativeLeakTest.Workload("WriteBatchWithIndex create/put/read/close", 100_000 * x, i -> {
                        try (WriteBatchWithIndex w = new WriteBatchWithIndex()) {
                            w.put(bytes("k"), bytes("v"));
                            assertEquals(1, w.getFromBatchAndDB(db, ro, bytes("k")).length);
                        }
                    })));
        }
    }

    @Test
    void operationsLeakNothing() throws Exception {
        int x = scale(1, 10);
        boolean typed = RocksDB.engine().hasFunction("rocksdb_options_statistics_get_ticker_count");
        Path backupDir = dir.resolve("backups");
        try (RocksDB db = open(dir.resolve("db"));
             Options plain = new Options();
             BackupEngineOptions beo = new BackupEngineOptions(backupDir);
             BackupEngine engine = BackupEngine.open(beo);
             BackupEngineOptions cycleBackups = new BackupEngineOptions(dir.resolve("cycle-backups"));
             IngestExternalFileOptions ingest = new IngestExternalFileOptions()) {
            db.put(bytes("k"), bytes("v"));
            engine.createBackup(db);
            Path sst = dir.resolve("cycle.sst");
            Path ingested = dir.resolve("ingested.sst");
            try (SstFileWriter w = SstFileWriter.open(plain, ingested)) {
                w.put(bytes("i"), bytes("v")).finish();
            }
            Path missing = dir.resolve("missing.sst");
            Path restored = dir.resolve("restored");

            NativeLeakTest.Workloads.run(List.of(
                    new NativeLeakTest.Workload("BackupEngineOptions create/set/get/close", 100_000 * x, i -> {
                        try (BackupEngineOptions o = new BackupEngineOptions(backupDir).setShareTableFiles(true)
                                .setBackupRateLimit(1 << 20).setRestoreRateLimit(1 << 20)) {
                            o.sync();
                        }
                    }),
                    new NativeLeakTest.Workload("RestoreOptions create/set/close", 100_000 * x,
                            i -> new RestoreOptions().setKeepLogFiles(true).close()),
                    new NativeLeakTest.Workload("IngestExternalFileOptions create/set/close", 100_000 * x,
                            i -> new IngestExternalFileOptions().setMoveFiles(true).setIngestBehind(false).close()),
                    NativeLeakTest.heavyWorkload("Options with statistics: typed reads", 4_000, i -> {
                        try (Options o = new Options()) {
                            Statistics s = o.enableStatistics();
                            if (typed) {
                                s.tickerCount(TickerType.BYTES_READ);
                                s.histogram(HistogramType.DB_GET);
                            }
                        }
                    }),
                    NativeLeakTest.heavyWorkload("Options with statistics: text", 400, i -> {
                        try (Options o = new Options()) {
                            o.enableStatistics().tickers();
                        }
                    }),
                    NativeLeakTest.heavyWorkload("Options.fromString", 4_000, i -> {
                        Options.fromString(plain, "write_buffer_size=1048576;max_open_files=10").close();
                    }),
                    NativeLeakTest.heavyWorkload("BackupEngine open/list/close", 1_000, i -> {
                        try (BackupEngine e = BackupEngine.open(beo)) {
                            assertEquals(1, e.backups().size());
                        }
                    }),
                    new NativeLeakTest.Workload("backups list", 100_000 * x, i -> engine.backups()),
                    NativeLeakTest.heavyWorkload("SstFileWriter open/put/close", 4_000, i -> {
                        try (SstFileWriter w = SstFileWriter.open(plain, sst)) {
                            w.put(bytes("a"), bytes("1")).put(bytes("b"), bytes("2"));
                        }
                    }),
                    NativeLeakTest.heavyWorkload("SstFileWriter put/finish/close", 400, i -> {
                        try (SstFileWriter w = SstFileWriter.open(plain, sst)) {
                            w.put(bytes("a"), bytes("1")).deleteRange(bytes("c"), bytes("d")).finish();
                        }
                    }),
                    NativeLeakTest.heavyWorkload("BackupEngine open/create backup/purge/close", 40, 1 << 20, i -> {
                        try (BackupEngine e = BackupEngine.open(cycleBackups)) {
                            db.put(bytes("c"), bytes(Integer.toString(i)));
                            if (i % 1_000 == 999) {
                                // the puts pile up in the memtable (one 1 MiB arena block per ~25,000 of them, which
                                // the heavy run measured as steady growth): flush it as an application's would be
                                db.flush(true);
                            }
                            e.createBackup(db, false);
                            e.purgeOldBackups(1);
                            assertEquals(1, e.backups().size());
                        }
                    }),
                    NativeLeakTest.heavyWorkload("BackupEngine open/restore latest/close", 40, 1 << 20, i -> {
                        try (BackupEngine e = BackupEngine.open(beo)) {
                            e.restoreLatest(restored);
                        }
                    }),
                    NativeLeakTest.heavyWorkload("LatestOptions load/close", 400, i -> LatestOptions.load(db.path()).close()),
                    NativeLeakTest.heavyWorkload("ingestExternalFile (copy)", 200, 1 << 20,
                            i -> db.ingestExternalFile(List.of(ingested), ingest)),
                    NativeLeakTest.heavyWorkload("error: unsorted key to SstFileWriter", 4_000, i -> {
                        try (SstFileWriter w = SstFileWriter.open(plain, sst)) {
                            w.put(bytes("b"), bytes("1"));
                            NativeLeakTest.expectError(() -> w.put(bytes("a"), bytes("2")));
                        }
                    }),
                    new NativeLeakTest.Workload("error: verify an unknown backup", 100_000 * x, i -> NativeLeakTest.expectError(() -> engine.verify(99))),
                    NativeLeakTest.heavyWorkload("error: restore an unknown backup", 4_000,
                            i -> NativeLeakTest.expectError(() -> engine.restore(99, dir.resolve("r")))),
                    NativeLeakTest.heavyWorkload("error: unknown option in a string", 2_000,
                            i -> NativeLeakTest.expectError(() -> Options.fromString(plain, "no_such_option=1"))),
                    NativeLeakTest.heavyWorkload("error: setOptions with an unknown option", 2_000,
                            i -> NativeLeakTest.expectError(() -> db.setOptions(Map.of("no_such_option", "1")))),
                    NativeLeakTest.heavyWorkload("error: ingest a missing file", 1_000,
                            i -> NativeLeakTest.expectError(() -> db.ingestExternalFile(List.of(missing), ingest))),
                    NativeLeakTest.heavyWorkload("error: options of a missing database", 2_000,
                            i -> NativeLeakTest.expectError(() -> LatestOptions.load(missing)))));
        }
    }
}
