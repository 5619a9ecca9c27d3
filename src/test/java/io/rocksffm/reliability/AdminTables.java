package io.rocksffm.reliability;

import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.CompactionOptions;
import io.rocksffm.CreateBackupOptions;
import io.rocksffm.Database;
import io.rocksffm.DatabaseAdmin;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.reliability.ApiTableSupport.Ctx;
import io.rocksffm.reliability.ApiTableSupport.Table;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.ColumnFamilyHandle;
import io.rocksffm.WaitForCompactOptions;
import io.rocksffm.Checkpoint;
import io.rocksffm.ExportImportFilesMetaData;
import io.rocksffm.ImportColumnFamilyOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.TraceOptions;

/**
 * The use-after-close rows and tables of issue 30's RocksDB 11 administration: the
 * {@link DatabaseAdmin} methods every kind of database adds to its table, and the tables of
 * {@link CompactionOptions} and {@link CreateBackupOptions}. On engines without them (7.8.3,
 * 10.x) such options cannot exist: a call that needs one and has none refuses with
 * {@link IllegalStateException} itself, as a closed one would.
 */
final class AdminTables {
    private AdminTables() {}

    /** Adds the issue 30 methods of {@link DatabaseAdmin} to a database's table. */
    static <T extends DatabaseAdmin> Table<T> issue30(Table<T> table) {
        return table
                .guarded("compactFiles(ColumnFamilyHandle,CompactionOptions,List,int)", (db, c) -> withCompactionOptions(c,
                        o -> db.compactFiles(c.cf, o, List.of(Path.of("000001.sst")), 1)))
                .guarded("compactFilesWithJobInfo(ColumnFamilyHandle,CompactionOptions,List,int)", (db, c) ->
                        withCompactionOptions(c, o -> db.compactFilesWithJobInfo(c.cf, o, List.of(Path.of("000001.sst")), 1)))
                .guarded("compactFiles(CompactionOptions,List,int)", (db, c) -> withCompactionOptions(c,
                        o -> db.compactFiles(o, List.of(Path.of("000001.sst")), 1)))
                .guarded("setDBOptions(Map)", (db, c) -> db.setDBOptions(Map.of("max_background_jobs", "2")))
                .guarded("verifyChecksum()", (db, c) -> db.verifyChecksum())
                .guarded("verifyChecksum(ReadOptions)", (db, c) -> db.verifyChecksum(c.ro))
                .guarded("pauseBackgroundWork()", (db, c) -> {
                    db.pauseBackgroundWork();
                    db.continueBackgroundWork();
                })
                .guarded("continueBackgroundWork()", (db, c) -> db.continueBackgroundWork())
                .guarded("sortedWalFiles()", (db, c) -> db.sortedWalFiles())
                .guarded("currentWalFile()", (db, c) -> db.currentWalFile())
                // change capture (issue 32)
                .guarded("latestSequenceNumber()", (db, c) -> db.latestSequenceNumber())
                .guarded("oldestLoggedSequenceNumber()", (db, c) -> db.oldestLoggedSequenceNumber())
                .guarded("compactRange(ColumnFamilyHandle,CompactRangeOptions,MemorySegment,MemorySegment)",
                        (db, c) -> {
                            if (c.compactRange != null) {
                                db.compactRange(c.cf, c.compactRange, null, null);
                            } else {
                                try (CompactRangeOptions o = new CompactRangeOptions()) {
                                    db.compactRange(c.cf, o, null, null);
                                }
                            }
                        })
                .guarded("liveFiles()", (db, c) -> db.liveFiles())
                .guarded("deleteFilesInRange(ColumnFamilyHandle,MemorySegment,MemorySegment)",
                        (db, c) -> db.deleteFilesInRange(c.cf, c.key, c.value))
                .guarded("keyMayExist(ColumnFamilyHandle,ReadOptions,byte[])", (db, c) -> ((Database) db).keyMayExist(c.cf, c.ro, new byte[] {1}))
                .guarded("getAggregatedLongProperty(String)", (db, c) -> db.getAggregatedLongProperty("rocksdb.estimate-num-keys"))
                .guarded("getUpdatesSince(long,int)", (db, c) -> db.getUpdatesSince(1, 1).forEach(u -> u.batch().close()))
                // column families and compaction control (issue 32)
                .guarded("createColumnFamilies(Options,List)", (db, c) -> db.createColumnFamilies(c.options, List.of("uac1", "uac2"))
                        .forEach(ColumnFamilyHandle::close))
                .guarded("getColumnFamilyMetaData(ColumnFamilyHandle)", (db, c) -> db.getColumnFamilyMetaData(c.cf))
                .guarded("getColumnFamilyMetaData()", (db, c) -> db.getColumnFamilyMetaData())
                .guarded("waitForCompact(WaitForCompactOptions)", (db, c) -> withWaitForCompactOptions(c, db::waitForCompact))
                .guarded("cancelAllBackgroundWork(boolean)", (db, c) -> db.cancelAllBackgroundWork(false))
                .guarded("createColumnFamilyWithImport(String,Options,ImportColumnFamilyOptions,ExportImportFilesMetaData)",
                        (db, c) -> {
                            if (!Capabilities.callable("rocksdb_create_column_family_with_import")) {
                                throw new IllegalStateException("no import on this engine");
                            }
                            // a closed database refuses before looking at its arguments (null where the test set none)
                            db.createColumnFamilyWithImport("imported", c.options, c.importOptions, c.exported).close();
                        })
                .guarded("suggestCompactRange(ColumnFamilyHandle,MemorySegment,MemorySegment)",
                        (db, c) -> db.suggestCompactRange(c.cf, c.key, c.value))
                .guarded("approximateSizes(ColumnFamilyHandle,MemorySegment[],MemorySegment[],boolean,boolean)",
                        (db, c) -> db.approximateSizes(c.cf, new MemorySegment[] {c.key}, new MemorySegment[] {c.value},
                                true, true))
                .guarded("disableFileDeletions()", (db, c) -> {
                    db.disableFileDeletions();
                    db.enableFileDeletions();
                })
                .guarded("enableFileDeletions()", (db, c) -> {
                    db.disableFileDeletions();
                    db.enableFileDeletions();
                })
                // tracing: a closed database refuses before the engine's gate
                .guarded("startTrace(TraceOptions,Path)", (db, c) -> db.startTrace(new TraceOptions(), c.dir.resolve("uac.trace")))
                .guarded("startTrace(Path)", (db, c) -> db.startTrace(c.dir.resolve("uac.trace")))
                .guarded("endTrace()", (db, c) -> db.endTrace());
    }

    /** New compaction options, or null on engines without them. */
    static CompactionOptions compactionOptionsIfSupported() {
        return Capabilities.callable("rocksdb_compaction_options_create") ? new CompactionOptions() : null;
    }

    /** New wait options, or null on engines without them. */
    static WaitForCompactOptions waitForCompactOptionsIfSupported() {
        return Capabilities.callable("rocksdb_wait_for_compact_options_create") ? new WaitForCompactOptions() : null;
    }

    /** Runs {@code call} with the context's wait options, or fresh ones, or refuses when the engine has none. */
    static void withWaitForCompactOptions(Ctx c, Consumer<WaitForCompactOptions> call) {
        if (c.waitForCompact != null) {
            call.accept(c.waitForCompact);
            return;
        }
        if (!Capabilities.callable("rocksdb_wait_for_compact_options_create")) {
            throw new IllegalStateException("no wait options on this engine");
        }
        try (WaitForCompactOptions o = new WaitForCompactOptions()) {
            call.accept(o);
        }
    }

    static Table<WaitForCompactOptions> waitForCompactOptions() {
        return SettingsTables.waitForCompactOptions(new Table<>(WaitForCompactOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    /** New import options, or null on engines without them. */
    static ImportColumnFamilyOptions importOptionsIfSupported() {
        return Capabilities.callable("rocksdb_import_column_family_options_create") ? new ImportColumnFamilyOptions() : null;
    }

    /** An export of {@code db}'s default family into {@code target}, or null on engines without exports. */
    static ExportImportFilesMetaData exportIfSupported(RocksDB db, Path target) {
        if (!Capabilities.callable("rocksdb_checkpoint_export_column_family")) {
            return null;
        }
        try (Checkpoint cp = Checkpoint.create(db)) {
            return cp.exportColumnFamily(db.defaultColumnFamily(), target);
        }
    }

    static Table<ImportColumnFamilyOptions> importOptions() {
        return SettingsTables.importColumnFamilyOptions(new Table<>(ImportColumnFamilyOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<ExportImportFilesMetaData> exported() {
        return new Table<>(ExportImportFilesMetaData.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("comparatorName()", (o, c) -> o.comparatorName())
                .guarded("files()", (o, c) -> o.files());
    }

    /** New backup options, or null on engines without them. */
    static CreateBackupOptions createBackupOptionsIfSupported() {
        return Capabilities.callable("rocksdb_create_backup_options_create") ? new CreateBackupOptions() : null;
    }

    /** Runs {@code call} with the context's compaction options, or fresh ones, or refuses when the engine has none. */
    static void withCompactionOptions(Ctx c, Consumer<CompactionOptions> call) {
        if (c.compaction != null) {
            call.accept(c.compaction);
            return;
        }
        if (!Capabilities.callable("rocksdb_compaction_options_create")) {
            throw new IllegalStateException("no compaction options on this engine");
        }
        try (CompactionOptions o = new CompactionOptions()) {
            call.accept(o);
        }
    }

    /** Runs {@code call} with the context's backup options, or fresh ones, or refuses when the engine has none. */
    static void withCreateBackupOptions(Ctx c, Consumer<CreateBackupOptions> call) {
        if (c.createBackup != null) {
            call.accept(c.createBackup);
            return;
        }
        if (!Capabilities.callable("rocksdb_create_backup_options_create")) {
            throw new IllegalStateException("no backup options on this engine");
        }
        try (CreateBackupOptions o = new CreateBackupOptions()) {
            call.accept(o);
        }
    }

    static Table<CompactionOptions> compactionOptions() {
        return SettingsTables.compactionOptions(new Table<>(CompactionOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setCanceled(boolean)", (o, c) -> o.setCanceled(false))
                .guarded("isCanceled()", (o, c) -> o.isCanceled());
    }

    static Table<CreateBackupOptions> createBackupOptions() {
        return new Table<>(CreateBackupOptions.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setFlushBeforeBackup(boolean)", (o, c) -> o.setFlushBeforeBackup(true))
                .guarded("flushBeforeBackup()", (o, c) -> o.flushBeforeBackup())
                .guarded("setAtomicFlush(boolean)", (o, c) -> o.setAtomicFlush(true))
                .guarded("atomicFlush()", (o, c) -> o.atomicFlush())
                .guarded("setDecreaseBackgroundThreadCpuPriority(boolean)", (o, c) -> o.setDecreaseBackgroundThreadCpuPriority(true))
                .guarded("decreaseBackgroundThreadCpuPriority()", (o, c) -> o.decreaseBackgroundThreadCpuPriority())
                .guarded("setBackgroundThreadCpuPriority(CpuPriority)",
                        (o, c) -> o.setBackgroundThreadCpuPriority(CreateBackupOptions.CpuPriority.LOW))
                .guarded("backgroundThreadCpuPriority()", (o, c) -> o.backgroundThreadCpuPriority())
                .guarded("setProgressCallback(Runnable)", (o, c) -> o.setProgressCallback(() -> {}))
                .guarded("hasProgressCallback()", (o, c) -> o.hasProgressCallback());
    }
}
