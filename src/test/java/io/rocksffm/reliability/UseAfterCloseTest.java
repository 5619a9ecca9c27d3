package io.rocksffm.reliability;

import static io.rocksffm.TestSupport.*;
import static io.rocksffm.reliability.Reliability.*;
import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BackupEngine;
import io.rocksffm.BackupEngineOptions;
import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.EnvOptions;
import io.rocksffm.IngestExternalFileOptions;
import io.rocksffm.LatestOptions;
import io.rocksffm.RestoreOptions;
import io.rocksffm.SstFileWriter;
import io.rocksffm.Cache;
import io.rocksffm.Checkpoint;
import io.rocksffm.FlushOptions;
import io.rocksffm.Options;
import io.rocksffm.PinnedValue;
import io.rocksffm.ReadOptions;
import io.rocksffm.RocksDB;
import io.rocksffm.TimestampedDB;
import io.rocksffm.RocksIterator;
import io.rocksffm.WriteBatch;
import io.rocksffm.WriteOptions;
import io.rocksffm.reliability.ApiTableSupport.Ctx;
import io.rocksffm.reliability.ApiTableSupport.Table;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import io.rocksffm.CompactionOptions;
import io.rocksffm.CreateBackupOptions;
import io.rocksffm.RateLimiter;
import io.rocksffm.WriteBufferManager;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.CuckooTableConfig;
import io.rocksffm.FifoCompactionOptions;
import io.rocksffm.UniversalCompactionOptions;
import io.rocksffm.Env;
import io.rocksffm.PerfContext;

/**
 * Use after close, everywhere: every public method of every closeable type, called on a closed
 * instance, throws {@link IllegalStateException} (apart from close, isClosed and accessors of
 * plain Java state, which {@link ApiTables} lists as such), and closing twice is harmless. And
 * every public method given a closed closeable argument throws {@link IllegalStateException}.
 * The tables are checked against the public API by reflection.
 */
class UseAfterCloseTest {
    @TempDir
    Path dir;

    private Ctx ctx;
    private RocksDB live;

    @BeforeEach
    void openLive() {
        live = open(dir.resolve("live"));
        live.put(bytes("key"), bytes("value"));
        ctx = new Ctx(dir);
        ctx.ro = new ReadOptions();
        ctx.wo = new WriteOptions();
        ctx.batch = new WriteBatch().put(bytes("b"), bytes("1"));
        ctx.options = new Options();
        ctx.snapshot = live.getSnapshot();
        ctx.cf = live.defaultColumnFamily();
        ctx.otherCf = live.createColumnFamily("other", ctx.options);
        ctx.flush = new FlushOptions();
        ctx.ingest = new IngestExternalFileOptions();
        ctx.restore = new RestoreOptions();
        ctx.cache = Cache.newLRUCache(1 << 20);
        ctx.table = new BlockBasedTableConfig();
        ctx.limiter = RateLimiter.create(1 << 20);
        ctx.wbm = wbmIfSupported();
        ctx.compaction = compactionIfSupported();
        ctx.createBackup = createBackupIfSupported();
        ctx.universal = new UniversalCompactionOptions();
        ctx.fifo = new FifoCompactionOptions();
        ctx.compactRange = new CompactRangeOptions();
        ctx.env = Env.memory();
        ctx.sfm = ObservabilityTables.sstFileManagerIfSupported();
        ctx.logger = ObservabilityTables.infoLoggerIfSupported();
        ctx.waitForCompact = AdminTables.waitForCompactOptionsIfSupported();
        ctx.importOptions = AdminTables.importOptionsIfSupported();
        ctx.exported = AdminTables.exportIfSupported(live, dir.resolve("export"));
        ctx.cuckoo = new CuckooTableConfig();
    }

    /** Compaction options, or null on engines without them (before RocksDB 11). */
    private static CompactionOptions compactionIfSupported() {
        return Capabilities.callable("rocksdb_compaction_options_create")
                ? new CompactionOptions() : null;
    }

    /** Backup options, or null on engines without them (before RocksDB 11). */
    private static CreateBackupOptions createBackupIfSupported() {
        return Capabilities.callable("rocksdb_create_backup_options_create")
                ? new CreateBackupOptions() : null;
    }

    /** A write buffer manager, or null on engines without them (7.8.3). */
    private static WriteBufferManager wbmIfSupported() {
        return Capabilities.callable("rocksdb_write_buffer_manager_create")
                ? WriteBufferManager.create(1 << 20, false) : null;
    }

    @AfterEach
    void closeLive() {
        ctx.snapshot.close();
        ctx.ro.close();
        ctx.wo.close();
        ctx.batch.close();
        ctx.options.close();
        ctx.flush.close();
        ctx.ingest.close();
        ctx.restore.close();
        ctx.cache.close();
        ctx.table.close();
        ctx.limiter.close();
        for (AutoCloseable c : new AutoCloseable[] {ctx.wbm, ctx.compaction, ctx.createBackup, ctx.universal, ctx.fifo, ctx.compactRange,
                ctx.env, ctx.sfm, ctx.logger,
                ctx.waitForCompact, ctx.importOptions, ctx.exported, ctx.cuckoo}) {
            ApiTableSupport.closeQuietly(c);
        }
        ctx.arena.close();
        // nothing a refused call did may have left a child behind: the database closes
        live.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"RocksDB", "Options", "ReadOptions", "WriteOptions", "WriteBatch", "NativeWriteBatch",
            "RocksIterator", "Snapshot", "PinnedValue", "ColumnFamilyHandle", "FlushOptions", "Cache",
            "BlockBasedTableConfig", "Checkpoint", "RateLimiter", "WriteBufferManager",
            "BackupEngineOptions", "RestoreOptions", "BackupEngine", "SstFileWriter", "EnvOptions",
            "IngestExternalFileOptions", "LatestOptions", "CompactionOptions", "CreateBackupOptions",
            "UniversalCompactionOptions", "FifoCompactionOptions", "CompactRangeOptions",
            "PerfContext", "InfoLogger", "SstFileManager", "Env",
            "WaitForCompactOptions", "ImportColumnFamilyOptions", "ExportImportFilesMetaData", "CuckooTableConfig", "TimestampedDB"})
    void everyPublicMethodOfAClosedObjectThrowsIllegalState(String type) {
        switch (type) {
            case "RocksDB" -> {
                RocksDB db = open(dir.resolve("closed"));
                Ctx c = ctx.copy();
                c.cf = db.defaultColumnFamily();
                c.otherCf = db.createColumnFamily("other", ctx.options);
                db.close();
                check(ApiTables.rocksDB(), db, c);
            }
            case "Options" -> check(ApiTables.options(), closed(new Options().setCreateIfMissing(true)), ctx);
            case "TimestampedDB" -> { // a view: its database closed
                RocksDB db = open(dir.resolve("closed-ts"));
                Ctx c = ctx.copy();
                c.cf = db.defaultColumnFamily();
                TimestampedDB view = TimestampedDB.of(db);
                db.close();
                check(TimestampTables.timestampedDB(), view, c);
            }
            case "ReadOptions" -> {
                ReadOptions ro = new ReadOptions();
                ro.setIterateLowerBound(MemorySegment.ofArray(bytes("a")));
                ro.setIterateUpperBound(MemorySegment.ofArray(bytes("z")));
                ro.setSnapshot(ctx.snapshot);
                check(ApiTables.readOptions(), closed(ro), ctx);
            }
            case "WriteOptions" -> check(ApiTables.writeOptions(), closed(new WriteOptions().setSync(true)), ctx);
            case "WriteBatch" -> check(ApiTables.writeBatch(), closed(new WriteBatch().put(bytes("k"), bytes("v"))), ctx);
            case "NativeWriteBatch" -> {
                try (WriteBatch b = new WriteBatch().put(bytes("k"), bytes("v"))) {
                    check(ApiTables.nativeWriteBatch(), closed(b.toNative()), ctx);
                }
            }
            case "RocksIterator" -> {
                RocksIterator it = live.newIterator(ctx.ro.setPrefetchBytes(4096));
                it.seekToFirst();
                assertTrue(it.isValid());
                check(ApiTables.iterator(), closed(it), ctx);
            }
            case "Snapshot" -> check(ApiTables.snapshot(), closed(live.getSnapshot()), ctx);
            case "PinnedValue" -> {
                PinnedValue pv = live.getPinned(ctx.ro, MemorySegment.ofArray(bytes("key")));
                assertNotNull(pv);
                check(ApiTables.pinnedValue(), closed(pv), ctx);
            }
            case "ColumnFamilyHandle" -> check(ApiTables.columnFamilyHandle(),
                    closed(live.createColumnFamily("closed-family", ctx.options)), ctx);
            case "FlushOptions" -> check(ApiTables.flushOptions(), closed(new FlushOptions()), ctx);
            case "Cache" -> check(ApiTables.cache(), closed(Cache.newLRUCache(1 << 20)), ctx);
            case "BlockBasedTableConfig" -> check(ApiTables.blockBasedTableConfig(), closed(new BlockBasedTableConfig()), ctx);
            case "Checkpoint" -> check(ApiTables.checkpoint(), closed(Checkpoint.create(live)), ctx);
            case "RateLimiter" -> check(ApiTables.rateLimiter(), closed(RateLimiter.create(1 << 20)), ctx);
            case "WriteBufferManager" -> {
                if (ctx.wbm == null) {
                    report("use after close: WriteBufferManager: not on this engine");
                } else {
                    check(ApiTables.writeBufferManager(), closed(wbmIfSupported()), ctx);
                }
            }
            case "BackupEngineOptions" -> check(ApiTables.backupEngineOptions(),
                    closed(new BackupEngineOptions(dir.resolve("backups"))), ctx);
            case "RestoreOptions" -> check(ApiTables.restoreOptions(), closed(new RestoreOptions()), ctx);
            case "BackupEngine" -> {
                try (BackupEngineOptions o = new BackupEngineOptions(dir.resolve("backups"))) {
                    BackupEngine engine = BackupEngine.open(o);
                    engine.createBackup(live);
                    check(ApiTables.backupEngine(live), closed(engine), ctx);
                }
            }
            case "SstFileWriter" -> {
                SstFileWriter w = SstFileWriter.open(ctx.options, dir.resolve("closed.sst"));
                w.put(bytes("a"), bytes("1"));
                check(ApiTables.sstFileWriter(), closed(w), ctx);
            }
            case "EnvOptions" -> check(ApiTables.envOptions(), closed(new EnvOptions()), ctx);
            case "IngestExternalFileOptions" -> check(ApiTables.ingestExternalFileOptions(),
                    closed(new IngestExternalFileOptions()), ctx);
            case "LatestOptions" -> check(ApiTables.latestOptions(), closed(LatestOptions.load(live.path())), ctx);
            case "UniversalCompactionOptions" -> check(OptionsTables.universal(),
                    closed(new UniversalCompactionOptions()), ctx);
            case "FifoCompactionOptions" -> check(OptionsTables.fifo(), closed(new FifoCompactionOptions()), ctx);
            case "CompactRangeOptions" -> check(OptionsTables.compactRange(), closed(new CompactRangeOptions()), ctx);
            case "CuckooTableConfig" -> check(OptionsTables.cuckoo(), closed(new CuckooTableConfig()), ctx);
            case "ImportColumnFamilyOptions" -> {
                if (ctx.importOptions == null) {
                    report("use after close: ImportColumnFamilyOptions: not on this engine");
                } else {
                    check(AdminTables.importOptions(), closed(AdminTables.importOptionsIfSupported()), ctx);
                }
            }
            case "ExportImportFilesMetaData" -> {
                if (ctx.exported == null) {
                    report("use after close: ExportImportFilesMetaData: not on this engine");
                } else {
                    check(AdminTables.exported(), closed(AdminTables.exportIfSupported(live, dir.resolve("closed-export"))), ctx);
                }
            }
            case "WaitForCompactOptions" -> {
                if (ctx.waitForCompact == null) {
                    report("use after close: WaitForCompactOptions: not on this engine");
                } else {
                    check(AdminTables.waitForCompactOptions(), closed(AdminTables.waitForCompactOptionsIfSupported()), ctx);
                }
            }
            case "CompactionOptions" -> {
                if (ctx.compaction == null) {
                    report("use after close: CompactionOptions: not on this engine");
                } else {
                    check(AdminTables.compactionOptions(), closed(compactionIfSupported()), ctx);
                }
            }
            case "CreateBackupOptions" -> {
                if (ctx.createBackup == null) {
                    report("use after close: CreateBackupOptions: not on this engine");
                } else {
                    // with a progress callback, which close releases
                    check(AdminTables.createBackupOptions(), closed(createBackupIfSupported().setProgressCallback(() -> {})), ctx);
                }
            }
            case "PerfContext" -> check(ObservabilityTables.perfContext(), closed(PerfContext.create()), ctx);
            case "Env" -> check(ObservabilityTables.env(), closed(Env.memory()), ctx);
            case "SstFileManager" -> {
                if (ctx.sfm == null) {
                    report("use after close: SstFileManager: not on this engine");
                } else {
                    check(ObservabilityTables.sstFileManager(), closed(ObservabilityTables.sstFileManagerIfSupported()), ctx);
                }
            }
            case "InfoLogger" -> {
                if (ctx.logger == null) {
                    report("use after close: InfoLogger: not on this engine");
                } else {
                    check(ObservabilityTables.infoLogger(), closed(ObservabilityTables.infoLoggerIfSupported()), ctx);
                }
            }
            default -> fail(type);
        }
    }

    private static <T extends AutoCloseable> T closed(T t) {
        try {
            t.close();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return t;
    }

    private static <T> void check(Table<T> table, T closed, Ctx c) {
        table.assertCoversPublicApi();
        for (int round = 0; round < 2; round++) { // the second round: after the table's own close() again
            for (Map.Entry<String, BiConsumer<T, Ctx>> e : table.guarded.entrySet()) {
                IllegalStateException ise = assertThrows(IllegalStateException.class, () -> e.getValue().accept(closed, c),
                        table.type.getSimpleName() + "." + e.getKey() + " after close");
                assertNotNull(ise.getMessage());
            }
            for (Map.Entry<String, BiConsumer<T, Ctx>> e : table.plain.entrySet()) {
                e.getValue().accept(closed, c); // close() again, isClosed(), plain accessors: no exception
            }
        }
        report("use after close: %s: %d methods throw IllegalStateException, %d usable (%s), double close harmless",
                table.type.getSimpleName(), table.guarded.size(), table.plain.size(), table.plain.keySet());
    }

    /** Every public method given a closed argument (options, batch, snapshot, family handle) throws IllegalStateException. */
    @ParameterizedTest
    @ValueSource(strings = {"RocksDB", "ReadOptions", "WriteBatch", "Options", "BlockBasedTableConfig", "BackupEngine",
            "TimestampedDB"})
    void everyPublicMethodGivenAClosedArgumentThrowsIllegalState(String type) {
        switch (type) {
            case "BackupEngine" -> {
                try (BackupEngineOptions o = new BackupEngineOptions(dir.resolve("backups"));
                     BackupEngine engine = BackupEngine.open(o)) {
                    checkArguments(ApiTables.backupEngine(live), engine);
                }
            }
            case "RocksDB" -> checkArguments(ApiTables.rocksDB(), live);
            case "TimestampedDB" -> checkArguments(TimestampTables.timestampedDB(), TimestampedDB.of(live));
            case "Options" -> checkArguments(ApiTables.options(), ctx.options);
            case "BlockBasedTableConfig" -> checkArguments(ApiTables.blockBasedTableConfig(), ctx.table);
            case "ReadOptions" -> checkArguments(ApiTables.readOptions(), ctx.ro);
            case "WriteBatch" -> checkArguments(ApiTables.writeBatch(), ctx.batch);
            default -> fail(type);
        }
        // the live objects still work
        assertEquals("value", string(live.get(bytes("key"))));
        ctx.batch.put(bytes("k2"), bytes("v2"));
        live.write(ctx.wo, ctx.batch);
        try (RocksIterator it = live.newIterator(ctx.ro)) {
            it.seekToFirst();
            assertTrue(it.isValid());
        }
    }

    private <T> void checkArguments(Table<T> table, T receiver) {
        table.assertCoversPublicApi();
        Ctx closedArgs = ctx.copy();
        closedArgs.ro = closed(new ReadOptions());
        closedArgs.wo = closed(new WriteOptions());
        closedArgs.batch = closed(new WriteBatch().put(bytes("x"), bytes("y")));
        closedArgs.options = closed(new Options());
        closedArgs.snapshot = closed(live.getSnapshot());
        closedArgs.cf = closed(live.createColumnFamily("closed-arg", ctx.options));
        closedArgs.flush = closed(new FlushOptions());
        closedArgs.table = closed(new BlockBasedTableConfig());
        closedArgs.cache = closed(Cache.newLRUCache(1 << 20));
        closedArgs.limiter = closed(RateLimiter.create(1 << 20));
        closedArgs.wbm = ctx.wbm == null ? null : closed(wbmIfSupported());
        closedArgs.ingest = closed(new IngestExternalFileOptions());
        closedArgs.restore = closed(new RestoreOptions());
        closedArgs.compaction = ctx.compaction == null ? null : closed(compactionIfSupported());
        closedArgs.createBackup = ctx.createBackup == null ? null : closed(createBackupIfSupported());
        closedArgs.universal = closed(new UniversalCompactionOptions());
        closedArgs.fifo = closed(new FifoCompactionOptions());
        closedArgs.compactRange = closed(new CompactRangeOptions());
        closedArgs.env = closed(Env.memory());
        closedArgs.sfm = ctx.sfm == null ? null : closed(ObservabilityTables.sstFileManagerIfSupported());
        closedArgs.logger = ctx.logger == null ? null : closed(ObservabilityTables.infoLoggerIfSupported());
        closedArgs.waitForCompact = ctx.waitForCompact == null ? null : closed(AdminTables.waitForCompactOptionsIfSupported());
        closedArgs.cuckoo = closed(new CuckooTableConfig());
        closedArgs.importOptions = ctx.importOptions == null ? null : closed(AdminTables.importOptionsIfSupported());
        closedArgs.exported = ctx.exported == null ? null : closed(AdminTables.exportIfSupported(live, dir.resolve("arg-export")));
        int calls = 0;
        for (Map.Entry<String, BiConsumer<T, Ctx>> e : table.guarded.entrySet()) {
            for (Class<?> p : table.closeableParameters(e.getKey())) {
                Object closedArg = switch (p.getSimpleName()) {
                    case "ReadOptions" -> closedArgs.ro;
                    case "WriteOptions" -> closedArgs.wo;
                    case "WriteBatch" -> closedArgs.batch;
                    case "Options" -> closedArgs.options;
                    case "Snapshot" -> closedArgs.snapshot;
                    case "ColumnFamilyHandle" -> closedArgs.cf;
                    case "FlushOptions" -> closedArgs.flush;
                    case "BlockBasedTableConfig" -> closedArgs.table;
                    case "Cache" -> closedArgs.cache;
                    case "RateLimiter" -> closedArgs.limiter;
                    case "WriteBufferManager" -> closedArgs.wbm;
                    case "IngestExternalFileOptions" -> closedArgs.ingest;
                    case "RestoreOptions" -> closedArgs.restore;
                    case "CompactionOptions" -> closedArgs.compaction;
                    case "CreateBackupOptions" -> closedArgs.createBackup;
                    case "UniversalCompactionOptions" -> closedArgs.universal;
                    case "FifoCompactionOptions" -> closedArgs.fifo;
                    case "CompactRangeOptions" -> closedArgs.compactRange;
                    case "Env" -> closedArgs.env;
                    case "SstFileManager" -> closedArgs.sfm;
                    case "InfoLogger" -> closedArgs.logger;
                    case "WaitForCompactOptions" -> closedArgs.waitForCompact;
                    case "ImportColumnFamilyOptions" -> closedArgs.importOptions;
                    case "ExportImportFilesMetaData" -> closedArgs.exported;
                    case "CuckooTableConfig" -> closedArgs.cuckoo;
                    default -> throw new AssertionError(p);
                };
                Ctx c = ctx.with(p, closedArg);
                assertThrows(IllegalStateException.class, () -> e.getValue().accept(receiver, c),
                        table.type.getSimpleName() + "." + e.getKey() + " with a closed " + p.getSimpleName());
                calls++;
            }
        }
        report("closed arguments: %s: %d calls with one closed argument each threw IllegalStateException",
                table.type.getSimpleName(), calls);
        assertTrue(calls > 0);
    }
}
