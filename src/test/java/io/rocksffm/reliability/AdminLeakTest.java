package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BackupEngine;
import io.rocksffm.Checkpoint;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.CuckooTableConfig;
import io.rocksffm.PlainTableConfig;
import io.rocksffm.ExportImportFilesMetaData;
import io.rocksffm.ImportColumnFamilyOptions;
import io.rocksffm.Options;
import io.rocksffm.TraceOptions;
import io.rocksffm.WaitForCompactOptions;
import io.rocksffm.BackupEngineOptions;
import io.rocksffm.CompactionOptions;
import io.rocksffm.Compression;
import io.rocksffm.CreateBackupOptions;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.Snapshot;
import io.rocksffm.internal.Capabilities;

import java.io.IOException;
import java.nio.file.Files;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No native leaks in issue 30's RocksDB 11 administration, with {@link NativeLeakTest}'s harness:
 * create/use/close cycles of {@link CompactionOptions} and {@link CreateBackupOptions} (with a
 * progress callback registered and released each time), the WAL list, compactFiles, checksum
 * verification, database options, pausing, backups with options, and their error paths. On
 * engines before RocksDB 11 there is nothing to run: the test reports so.
 */
class AdminLeakTest {
    @TempDir
    Path dir;

    @Test
    void rocksDB11AdministrationLeaksNothing() throws Exception {
        if (!Capabilities.callable("rocksdb_compact_files_cf")) {
            report("leaks: issue 30 administration: not on this engine (%s)", RocksDB.engine().version());
            return;
        }
        int x = scale(1, 10);
        AtomicLong progress = new AtomicLong();
        try (RocksDB db = open(dir.resolve("db"));
             CompactionOptions compaction = new CompactionOptions();
             BackupEngineOptions beo = new BackupEngineOptions(dir.resolve("backups")).setCallbackTriggerIntervalSize(1024);
             BackupEngine engine = BackupEngine.open(beo);
             CreateBackupOptions backupOptions = new CreateBackupOptions().setProgressCallback(progress::incrementAndGet);
             ReadOptions ro = new ReadOptions().setFillCache(false)) {
            db.setOptions(Map.of("disable_auto_compactions", "true")); // compactFiles picks the files
            for (int i = 0; i < 100; i++) {
                db.put(bytes("k" + i), bytes("value " + i));
            }
            db.flush(true);
            Path missing = dir.resolve("db").resolve("999999.sst");

            NativeLeakTest.Workloads.run(List.of(
                    new NativeLeakTest.Workload("CompactionOptions create/set/get/close", 100_000 * x, i -> {
                        try (CompactionOptions o = new CompactionOptions().setCompression(Compression.NONE)
                                .setOutputFileSizeLimit(1 << 20).setMaxSubcompactions(1).setAllowTrivialMove(true)) {
                            o.setCanceled(true).compression();
                        }
                    }),
                    new NativeLeakTest.Workload("CreateBackupOptions create/callback/close", 100_000 * x, i -> {
                        try (CreateBackupOptions o = new CreateBackupOptions().setFlushBeforeBackup(true)
                                .setProgressCallback(() -> {})) {
                            o.setProgressCallback(null);
                            o.setProgressCallback(() -> {});
                        }
                    }),
                    new NativeLeakTest.Workload("ReadOptions RocksDB 11 settings", 100_000 * x, i -> {
                        try (ReadOptions o = new ReadOptions().setAutoRefreshIteratorWithSnapshot(true)
                                .setOptimizeMultigetForIo(false)) {
                            o.autoRefreshIteratorWithSnapshot();
                        }
                    }),
                    NativeLeakTest.heavyWorkload("sortedWalFiles/currentWalFile", 20_000, i -> {
                        assertTrue(db.sortedWalFiles().size() <= 1); // an empty current log is not listed
                        db.currentWalFile();
                    }),
                    NativeLeakTest.heavyWorkload("pause/continue background work", 20_000, i -> {
                        db.pauseBackgroundWork();
                        db.continueBackgroundWork();
                    }),
                    NativeLeakTest.heavyWorkload("verifyChecksum", 4_000, i -> {
                        db.verifyChecksum();
                        db.verifyChecksum(ro);
                    }),
                    NativeLeakTest.heavyWorkload("setDBOptions", 400, i -> db.setDBOptions(Map.of("max_background_jobs",
                            Integer.toString(2 + i % 2)))),
                    NativeLeakTest.heavyWorkload("compactFiles, with and without the job info", 200, 1 << 20, i -> {
                        db.put(bytes("c"), bytes(Integer.toString(i)));
                        db.flush(true);
                        List<Path> in = tableFiles(dir.resolve("db"));
                        if (i % 2 == 0) {
                            assertEquals(1, db.compactFiles(compaction, in, 6).size()); // the last level
                        } else {
                            assertEquals(1, db.compactFilesWithJobInfo(db.defaultColumnFamily(), compaction, in, 6)
                                    .outputFiles().size());
                        }
                    }),
                    NativeLeakTest.heavyWorkload("auto-refreshing snapshot iterator", 4_000, i -> {
                        try (Snapshot s = db.getSnapshot();
                             ReadOptions o = new ReadOptions().setSnapshot(s).setAutoRefreshIteratorWithSnapshot(true);
                             var it = db.newIterator(o)) {
                            it.seekToFirst();
                            it.next();
                        }
                    }),
                    NativeLeakTest.heavyWorkload("createBackup with options/purge", 40, 1 << 20, i -> {
                        engine.createBackup(db, backupOptions);
                        engine.purgeOldBackups(1);
                    }),
                    NativeLeakTest.heavyWorkload("error: compactFiles to a level past the last", 4_000,
                            i -> NativeLeakTest.expectError(() -> db.compactFiles(compaction,
                                    List.of(Path.of(db.liveFiles().get(0).name().substring(1))), 100))),
                    new NativeLeakTest.Workload("refused: compactFiles of a missing file", 4_000,
                            i -> assertThrows(IllegalArgumentException.class,
                                    () -> db.compactFiles(compaction, List.of(missing), 1))),
                    NativeLeakTest.heavyWorkload("error: setDBOptions with an unknown option", 4_000,
                            i -> NativeLeakTest.expectError(() -> db.setDBOptions(Map.of("no_such_option", "1")))),
                    new NativeLeakTest.Workload("error: continue background work not paused", 20_000 * x,
                            i -> NativeLeakTest.expectError(db::continueBackgroundWork))));
            assertTrue(progress.get() > 0, "the progress callback ran");
        }
    }

    /**
     * Issue 32's column family administration and compaction control: metadata copies (every
     * engine), suggested ranges, and on RocksDB 11 waits with options and families created
     * several at once and dropped, with the error path of a name that exists.
     */
    @Test
    void familyMetadataAndCompactionControlLeakNothing() throws Exception {
        int x = scale(1, 10);
        try (RocksDB db = open(dir.resolve("families"));
             Options options = new Options()) {
            for (int i = 0; i < 100; i++) {
                db.put(bytes("k" + i), bytes("value " + i));
            }
            db.flush(true);
            ColumnFamilyHandle taken = db.createColumnFamily("taken", options);
            boolean eleven = Capabilities.callable("rocksdb_create_column_families");
            AtomicLong exports = new AtomicLong();
            List<NativeLeakTest.Workload> work = new ArrayList<>(List.of(
                    NativeLeakTest.heavyWorkload("getColumnFamilyMetaData", 20_000, i -> {
                        assertEquals(1, db.getColumnFamilyMetaData().fileCount());
                        db.getColumnFamilyMetaData(taken);
                    }),
                    NativeLeakTest.heavyWorkload("suggestCompactRange", 20_000,
                            i -> db.suggestCompactRange(db.defaultColumnFamily(), MemorySegment.ofArray(bytes("k1")),
                                    MemorySegment.ofArray(bytes("k5")))),
                    new NativeLeakTest.Workload("disableFileDeletions/enableFileDeletions", 50_000 * x, i -> {
                        db.disableFileDeletions();
                        db.enableFileDeletions();
                    })));
            if (Capabilities.callable("rocksdb_approximate_sizes_cf_with_flags")) {
                MemorySegment[] starts = {MemorySegment.ofArray(bytes("k1"))};
                MemorySegment[] limits = {MemorySegment.ofArray(bytes("k5"))};
                work.add(new NativeLeakTest.Workload("approximateSizes with include flags", 100_000 * x,
                        i -> db.approximateSizes(db.defaultColumnFamily(), starts, limits, (i & 1) == 0, true)));
            }
            work.add(new NativeLeakTest.Workload("CuckooTableConfig create/set/close, Options table formats", 50_000 * x,
                    i -> {
                        try (CuckooTableConfig c = new CuckooTableConfig().setHashTableRatio(0.5).setMaxSearchDepth(10);
                             Options o = new Options().setAllowMmapReads(true).setTableFormat(c)) {
                            if (Capabilities.callable("rocksdb_options_set_plain_table_factory")) {
                                o.setTableFormat(PlainTableConfig.defaults());
                            }
                        }
                    }));
            if (eleven) {
                work.add(new NativeLeakTest.Workload("WaitForCompactOptions create/set/get/close", 100_000 * x, i -> {
                    try (WaitForCompactOptions o = new WaitForCompactOptions().setFlush(true).setAbortOnPause(true)
                            .setTimeout(Duration.ofSeconds(1))) {
                        o.timeout();
                    }
                }));
                work.add(NativeLeakTest.heavyWorkload("waitForCompact", 4_000, i -> {
                    try (WaitForCompactOptions o = new WaitForCompactOptions()) {
                        db.waitForCompact(o);
                    }
                }));
                work.add(NativeLeakTest.heavyWorkload("createColumnFamilies/drop", 80, 1 << 20, i -> {
                    for (ColumnFamilyHandle h : db.createColumnFamilies(options, List.of("a" + i, "b" + i))) {
                        db.dropColumnFamily(h);
                    }
                }));
                work.add(NativeLeakTest.heavyWorkload("exportColumnFamily/files/createColumnFamilyWithImport/drop", 80,
                        1 << 20, i -> {
                            try (Checkpoint cp = Checkpoint.create(db);
                                 ExportImportFilesMetaData meta = cp.exportColumnFamily(db.defaultColumnFamily(),
                                         dir.resolve("export-" + exports.incrementAndGet()));
                                 ImportColumnFamilyOptions io = new ImportColumnFamilyOptions()) {
                                assertEquals(1, meta.files().size());
                                meta.comparatorName();
                                db.dropColumnFamily(db.createColumnFamilyWithImport("imported", options, io, meta));
                                NativeLeakTest.expectError(() -> db.createColumnFamilyWithImport("taken", options, io, meta));
                            }
                        }));
                work.add(NativeLeakTest.heavyWorkload("error: createColumnFamilies of a name that exists", 4_000,
                        i -> NativeLeakTest.expectError(() -> db.createColumnFamilies(options, List.of("taken")))));
                if (Capabilities.callable("rocksdb_start_trace")) {
                    Path trace = dir.resolve("leak.trace");
                    TraceOptions traceOptions = new TraceOptions(1 << 20).withExcluded(Set.of(TraceOptions.Operation.GET));
                    work.add(NativeLeakTest.heavyWorkload("startTrace/get/endTrace, error: endTrace without a trace", 1_000,
                            i -> {
                                db.startTrace(traceOptions, trace);
                                db.get(bytes("k1"));
                                db.endTrace();
                                NativeLeakTest.expectError(db::endTrace);
                            }));
                }
            } else {
                report("leaks: createColumnFamilies, waitForCompact: not on this engine (%s)", RocksDB.engine().version());
            }
            NativeLeakTest.Workloads.run(work);
        }
    }

    private static List<Path> tableFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".sst")).toList();
        }
    }
}
