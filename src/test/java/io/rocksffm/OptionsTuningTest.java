package io.rocksffm;

import static io.rocksffm.TestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import io.rocksffm.reliability.SettingsTables;
import io.rocksffm.reliability.SettingsTables.Setting;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import io.rocksffm.internal.Capabilities;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The typed settings of {@link Options} and the block-based table settings, checked against
 * RocksDB itself: each is set alone on new options, read back through its getter, and a database
 * opened with the options must record the value in its OPTIONS file, where a database opened with
 * default options records another one (so that no check passes by default). The settings of the
 * settings table ({@code src/settings/settings.tsv}) are checked row by row from the generated
 * {@link SettingsTables}; the hand-written ones (several values, lists, paths, nested objects) here.
 */
class OptionsTuningTest {
    @TempDir
    Path dir;

    /** One setting: applies it to fresh options, checks the getter, and returns the OPTIONS file's key and value pattern. */
    private record Row(String key, Function<Options, String> apply) {}

    private static Row s(String key, Function<Options, String> apply) {
        return new Row(key, apply);
    }

    private List<Row> settings() {
        List<Row> out = new ArrayList<>(List.of(
                s("wal_dir", o -> {
                    Path wal = dir.resolve("wal").toAbsolutePath();
                    return eq(wal, o.setWalDir(wal).walDir(), Pattern.quote(wal.toString()));
                }),
                // compaction
                s("level_compaction_dynamic_level_bytes", o -> {
                    boolean v = !o.levelCompactionDynamicLevelBytes(); // the default changed in RocksDB 8.4
                    return eq(v, o.setLevelCompactionDynamicLevelBytes(v).levelCompactionDynamicLevelBytes(), String.valueOf(v));
                }),
                // compression and blobs
                s("compression_per_level", o -> eq(List.of(Compression.NONE, Compression.LZ4), o.setCompressionPerLevel(
                        List.of(Compression.NONE, Compression.LZ4)).compressionPerLevel(), "kNoCompression:kLZ4Compression")),
                s("compression_opts", o -> {
                    o.setCompressionOptions(-14, 5, 0, 16384);
                    return "(?=.*[{;]level=5;)(?=.*max_dict_bytes=16384;).*";
                }),
                s("compression_opts", o -> eq(65536, o.setCompressionOptions(-14, 32767, 0, 16384) // a dictionary to train
                        .setZstdMaxTrainBytes(65536).zstdMaxTrainBytes(), "(?=.*zstd_max_train_bytes=65536;).*")),
                s("bottommost_compression_opts", o -> {
                    o.setBottommostCompressionOptions(-14, 3, 0, 0, true);
                    return "(?=.*[{;]level=3;)(?=.*enabled=true;).*";
                }),
                // universal and FIFO settings
                s("compaction_options_universal", o -> {
                    try (UniversalCompactionOptions u = new UniversalCompactionOptions().setSizeRatio(5).setMinMergeWidth(3)
                            .setMaxMergeWidth(9).setMaxSizeAmplificationPercent(150).setCompressionSizePercent(80)
                            .setStopStyleTotalSize(false)) {
                        o.setCompactionStyle(CompactionStyle.UNIVERSAL).setUniversalCompactionOptions(u);
                    }
                    return "(?=.*size_ratio=5;)(?=.*min_merge_width=3;)(?=.*max_merge_width=9;)"
                            + "(?=.*max_size_amplification_percent=150;)(?=.*compression_size_percent=80;)"
                            + "(?=.*stop_style=kCompactionStopStyleSimilarSize;).*";
                }),
                s("compaction_options_fifo", o -> {
                    try (FifoCompactionOptions f = new FifoCompactionOptions().setMaxTableFilesSize(1L << 26)) {
                        o.setCompactionStyle(CompactionStyle.FIFO).setFifoCompactionOptions(f);
                    }
                    return "(?=.*max_table_files_size=67108864;).*";
                })));
        out.add(s("db_log_dir", o -> {
            Path log = dir.resolve("log").toAbsolutePath();
            return eq(log, o.setDbLogDir(log).dbLogDir(), Pattern.quote(log.toString()));
        }));
        // whole-profile tuning: one of the settings each changes
        out.add(s("disable_auto_compactions", o -> {
            o.prepareForBulkLoad();
            return "true";
        }));
        out.add(s("max_bytes_for_level_base", o -> {
            o.optimizeLevelStyleCompaction(1L << 30);
            return "1073741824";
        }));
        out.add(s("compaction_style", o -> {
            o.optimizeUniversalStyleCompaction();
            return "kCompactionStyleUniversal";
        }));
        out.add(s("memtable_whole_key_filtering", o -> {
            o.optimizeForPointLookup(8);
            return "true";
        }));
        out.add(s("min_write_buffer_number_to_merge", o -> eq(2, o.setMaxWriteBufferNumber(4) // RocksDB keeps it below the memtable count
                .setMinWriteBufferNumberToMerge(2).minWriteBufferNumberToMerge(), "2")));
        out.add(s("compression_opts", o -> eq(2, o.setCompressionParallelThreads(2).compressionParallelThreads(),
                "(?=.*parallel_threads=2;).*")));
        // block-based table settings of the table are checked from its rows; this one needs the two-level index
        out.add(table("partition_filters", t -> t.setIndexType(BlockBasedTableConfig.IndexType.TWO_LEVEL_INDEX_SEARCH)
                .setPartitionFilters(true), "true"));
        return out;
    }

    private static Row table(String key, Function<BlockBasedTableConfig, BlockBasedTableConfig> apply, String value) {
        return s(key, o -> {
            try (BlockBasedTableConfig t = apply.apply(new BlockBasedTableConfig())) {
                o.setTableFormat(t);
            }
            return value;
        });
    }

    private static <T> String eq(T expected, T actual, String valuePattern) {
        assertEquals(expected, actual);
        return valuePattern;
    }

    /** key to value of the lines of the latest OPTIONS file (first occurrence: the DB options, then the default family's). */
    static Map<String, String> optionsFileValues(Path db) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : FilterPolicyTest.optionsFile(db).lines().toList()) {
            String t = line.trim();
            int eq = t.indexOf('=');
            if (eq > 0 && !t.startsWith("#") && !t.startsWith("[")) {
                out.putIfAbsent(t.substring(0, eq), t.substring(eq + 1));
            }
        }
        return out;
    }

    @Test
    void eachSettingReachesTheOptionsFileAndItsGetter() throws IOException {
        Path defaults = dir.resolve("defaults");
        try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(defaults, o)) {
            db.put(bytes("k"), bytes("v"));
        }
        Map<String, String> byDefault = optionsFileValues(defaults);
        List<Row> settings = settings();
        int i = 0;
        for (Row setting : settings) {
            Path db = dir.resolve("db" + i++);
            String pattern;
            try (Options o = new Options().setCreateIfMissing(true)) {
                pattern = setting.apply().apply(o);
                try (RocksDB opened = RocksDB.open(db, o)) {
                    opened.put(bytes("k"), bytes("v"));
                    assertEquals("v", string(opened.get(bytes("k"))));
                }
            }
            String written = optionsFileValues(db).get(setting.key());
            assertNotNull(written, setting.key() + " is in the OPTIONS file");
            assertTrue(written.matches(pattern), setting.key() + "=" + written + " should match " + pattern);
            String old = byDefault.get(setting.key());
            assertFalse(old != null && old.matches(pattern), setting.key() + " is not " + old + " by default");
        }
        System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": " + settings.size()
                + " typed settings checked against the OPTIONS file");
    }

    /** Opens a database with {@code options} at {@code db}, writes and reads one key: the engine accepted them. */
    private static void openWith(Options options, Path db) {
        try (RocksDB opened = RocksDB.open(db, options)) {
            opened.put(bytes("k"), bytes("v"));
            assertEquals("v", string(opened.get(bytes("k"))));
        }
    }

    /**
     * Every row of the settings table: an engine without its function refuses it naming the Java
     * method, the C function and the engine; otherwise each out-of-range value is refused with
     * IllegalArgumentException, the getter reads the value back, and a database opened with it
     * records it in its OPTIONS file (where the defaults record another value).
     */
    @Test
    void eachTableSettingReachesTheEngine() throws IOException {
        Path defaults = dir.resolve("table-defaults");
        try (Options o = new Options().setCreateIfMissing(true)) {
            openWith(o, defaults);
        }
        Map<String, String> byDefault = optionsFileValues(defaults);
        int[] counts = new int[3];
        List<String> failures = new ArrayList<>();
        check(SettingsTables.optionsSettings(), () -> new Options().setCreateIfMissing(true), (o, db) -> openWith(o, db),
                byDefault, counts, failures);
        check(SettingsTables.blockBasedTableConfigSettings(), BlockBasedTableConfig::new, (t, db) -> {
            try (Options o = new Options().setCreateIfMissing(true).setTableFormat(t)) {
                openWith(o, db);
            }
        }, byDefault, counts, failures);
        check(SettingsTables.readOptionsSettings(), ReadOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.writeOptionsSettings(), WriteOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.flushOptionsSettings(), FlushOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.compactRangeOptionsSettings(), CompactRangeOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.ingestExternalFileOptionsSettings(), IngestExternalFileOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.transactionDBOptionsSettings(), TransactionDBOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.transactionOptionsSettings(), TransactionOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.envOptionsSettings(), EnvOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.backupEngineOptionsSettings(), () -> new BackupEngineOptions(dir.resolve("backups")), null,
                byDefault, counts, failures);
        check(SettingsTables.universalCompactionOptionsSettings(), UniversalCompactionOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.fifoCompactionOptionsSettings(), FifoCompactionOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.cuckooTableConfigSettings(), CuckooTableConfig::new, null, byDefault, counts, failures);
        check(SettingsTables.restoreOptionsSettings(), RestoreOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.optimisticTransactionOptionsSettings(), OptimisticTransactionOptions::new, null, byDefault, counts,
                failures);
        // options whose constructor is gated too (an engine without them refuses creating them)
        check(SettingsTables.compactionOptionsSettings(), CompactionOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.waitForCompactOptionsSettings(), WaitForCompactOptions::new, null, byDefault, counts, failures);
        check(SettingsTables.importColumnFamilyOptionsSettings(), ImportColumnFamilyOptions::new, null, byDefault, counts, failures);
        assertEquals(List.of(), failures);
        System.out.println("[rocksffm] engine " + RocksDB.engine().version() + ": " + counts[0]
                + " table settings checked against the engine (" + counts[1] + " in the OPTIONS file), "
                + counts[2] + " refused as unsupported");
        assertTrue(counts[0] > 60, "checked " + counts[0]);
    }

    private <T extends AutoCloseable> void check(List<Setting<T>> settings, Supplier<T> make, BiConsumer<T, Path> open,
            Map<String, String> byDefault, int[] counts, List<String> failures) {
        int i = 0;
        for (Setting<T> setting : settings) {
            boolean unsupported = setting.since() != null && !Capabilities.callable(setting.setter());
            T made;
            try {
                made = make.get();
            } catch (UnsupportedOperationException e) {
                if (!unsupported) {
                    failures.add(setting.method() + ": " + e);
                } else {
                    counts[2]++; // the options themselves need a later engine than this one
                }
                continue;
            }
            try (T o = made) {
                if (unsupported) {
                    assertUnsupported(setting.method(), setting.setter(), () -> setting.set().accept(o));
                    counts[2]++;
                    continue;
                }
                for (Consumer<T> bad : setting.bad()) {
                    assertThrows(IllegalArgumentException.class, () -> bad.accept(o), setting.method());
                }
                setting.set().accept(o);
                if (setting.check() != null) {
                    if (setting.getterSince() != null && !Capabilities.callable(setting.getter())) {
                        assertUnsupported(setting.getterMethod(), setting.getter(), () -> setting.check().accept(o));
                    } else {
                        setting.check().accept(o);
                    }
                }
                if (setting.key() != null) {
                    Path db = dir.resolve("table" + setting.method() + i++);
                    open.accept(o, db);
                    String written = optionsFileValues(db).get(setting.key());
                    assertNotNull(written, setting.key() + " is in the OPTIONS file");
                    assertTrue(written.matches(setting.pattern()), setting.key() + "=" + written + " should match " + setting.pattern());
                    String old = byDefault.get(setting.key());
                    assertFalse(old != null && old.matches(setting.pattern()), setting.key() + " is not " + old + " by default");
                    counts[1]++;
                }
                counts[0]++;
            } catch (Exception | AssertionError e) {
                failures.add(setting.method() + ": " + e);
            }
        }
    }

    /** An engine without {@code function} refuses the call naming the Java method, the function and the engine. */
    private static void assertUnsupported(String method, String function, Runnable call) {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, call::run, method);
        String version = RocksDB.engine().version();
        assertTrue(e.getMessage().contains(method) && e.getMessage().contains(function) && (version == null || e.getMessage().contains(version)), e.getMessage());
    }

    /** The generated settings are what the generator makes of the table today: a rerun changes no byte. */
    @Test
    void generatedSettingsAreUpToDate() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "scripts/SettingsGen.java", "--check").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("no change"), out);
    }

    @Test
    void gatedSettingsNameTheirFunction() {
        try (Options o = new Options()) {
            if (Gated.supported("rocksdb_options_set_ttl", () -> o.setTtl(60))) {
                assertEquals(60, o.setTtl(60).ttl());
                assertEquals(120, o.setPeriodicCompactionSeconds(120).periodicCompactionSeconds());
            } else {
                Gated.supported("rocksdb_options_get_ttl", o::ttl);
                Gated.supported("rocksdb_options_set_periodic_compaction_seconds", () -> o.setPeriodicCompactionSeconds(1));
                Gated.supported("rocksdb_options_get_periodic_compaction_seconds", o::periodicCompactionSeconds);
            }
            try (BlockBasedTableConfig t = new BlockBasedTableConfig()) {
                if (Gated.supported("rocksdb_block_based_options_set_optimize_filters_for_memory",
                        () -> t.setOptimizeFiltersForMemory(true))) {
                    assertSame(t, t.setOptimizeFiltersForMemory(true));
                }
            }
            // the WAL directory reads back from RocksDB (11) or from what was set here
            assertNull(o.walDir());
            assertEquals(dir.toAbsolutePath(), o.setWalDir(dir).walDir());
        }
    }

    @Test
    void outOfRangeValuesAreRefused() {
        try (Options o = new Options()) {
            assertThrows(IllegalArgumentException.class, () -> o.setMaxBackgroundJobs(0));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxSubcompactions(0));
            assertThrows(IllegalArgumentException.class, () -> o.setBytesPerSync(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setWalTtlSeconds(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setNumLevels(0));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxBytesForLevelMultiplier(0));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxBytesForLevelMultiplier(Double.NaN));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxBytesForLevelMultiplier(Double.POSITIVE_INFINITY));
            assertThrows(IllegalArgumentException.class, () -> o.setTargetFileSizeBase(0));
            assertThrows(IllegalArgumentException.class, () -> o.setLevel0FileNumCompactionTrigger(0));
            assertThrows(IllegalArgumentException.class, () -> o.setLevel0StopWritesTrigger(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setMaxWriteBufferNumber(0));
            assertThrows(IllegalArgumentException.class, () -> o.setBlobGcAgeCutoff(1.5));
            assertThrows(IllegalArgumentException.class, () -> o.setBlobGcForceThreshold(Double.NaN));
            assertThrows(IllegalArgumentException.class, () -> o.setMinBlobSize(-1));
            assertThrows(IllegalArgumentException.class, () -> o.setCompressionOptions(-14, 1, 0, -1));
            assertThrows(IllegalArgumentException.class, () -> o.setTtl(-1));
            assertThrows(NullPointerException.class, () -> o.setCompactionStyle(null));
            assertThrows(NullPointerException.class, () -> o.setInfoLogLevel(null));
            assertThrows(NullPointerException.class, () -> o.setCompressionPerLevel(null));
            assertThrows(NullPointerException.class, () -> o.setCompressionPerLevel(Arrays.asList(Compression.NONE, null)));
            assertThrows(NullPointerException.class, () -> o.setWalDir(null));
            assertThrows(IllegalArgumentException.class, () -> o.setWalDir(Path.of("a\0b")));
            assertThrows(IllegalArgumentException.class, () -> o.setDbLogDir(Path.of("a\0b")));
            assertThrows(NullPointerException.class, () -> o.setRowCache(null));
            assertThrows(IllegalArgumentException.class, () -> o.optimizeLevelStyleCompaction(0));
            assertThrows(IllegalArgumentException.class, () -> o.optimizeForPointLookup(-1));
            UniversalCompactionOptions closed = new UniversalCompactionOptions();
            closed.close();
            assertThrows(IllegalStateException.class, () -> o.setUniversalCompactionOptions(closed));
            // nothing refused reached the options
            assertEquals(CompactionStyle.LEVEL, o.compactionStyle());
            assertTrue(o.maxBackgroundJobs() >= 1);
        }
        try (BlockBasedTableConfig t = new BlockBasedTableConfig()) {
            assertThrows(IllegalArgumentException.class, () -> t.setFormatVersion(1));
            assertThrows(IllegalArgumentException.class, () -> t.setBlockRestartInterval(0));
            assertThrows(IllegalArgumentException.class, () -> t.setDataBlockHashRatio(0));
            assertThrows(IllegalArgumentException.class, () -> t.setBlockSizeDeviation(101));
            assertThrows(IllegalArgumentException.class, () -> t.setMetadataBlockSize(0));
            assertThrows(NullPointerException.class, () -> t.setIndexType(null));
            assertThrows(NullPointerException.class, () -> t.setChecksum(null));
        }
    }

    /** Delta encoding is not in the OPTIONS file of every engine: its effect is, larger table files without it. */
    @Test
    void deltaEncodingShrinksTableFiles() throws IOException {
        long with = tableBytes("delta", true);
        long without = tableBytes("plain", false);
        assertTrue(without > with * 3 / 2, "without delta encoding " + without + " bytes, with " + with);
    }

    private long tableBytes(String name, boolean delta) throws IOException {
        try (BlockBasedTableConfig t = new BlockBasedTableConfig().setUseDeltaEncoding(delta);
             Options o = new Options().setCreateIfMissing(true).setCompression(Compression.NONE).setTableFormat(t);
             RocksDB db = RocksDB.open(dir.resolve(name), o)) {
            for (int i = 0; i < 5000; i++) {
                db.put(bytes("a-rather-long-common-key-prefix-" + i), bytes("v"));
            }
            db.flush(true);
            try (Stream<Path> files = Files.list(db.path())) {
                long sum = 0;
                for (Path f : files.filter(f -> f.toString().endsWith(".sst")).toList()) {
                    sum += Files.size(f);
                }
                return sum;
            }
        }
    }

    /** The settings keep a database working: a universal-compaction family with blob files reads back what it wrote. */
    @Test
    void tunedDatabaseWorks() {
        try (Options o = new Options().setCreateIfMissing(true).setCompactionStyle(CompactionStyle.UNIVERSAL)
                .setEnableBlobFiles(true).setMinBlobSize(100).setWriteBufferSize(256 << 10).setMaxBackgroundJobs(2);
             RocksDB db = RocksDB.open(dir.resolve("tuned"), o)) {
            for (int i = 0; i < 2000; i++) {
                db.put(bytes("key" + i), new byte[500 + i % 7]);
            }
            db.flush(true);
            assertEquals(500 + 1999 % 7, db.get(bytes("key1999")).length);
            try (Stream<Path> files = Files.list(db.path())) {
                assertTrue(files.anyMatch(f -> f.toString().endsWith(".blob")), "values went to blob files");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
