package io.rocksffm;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocksffm.internal.Capabilities;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of the javadoc of the types that watch a database and place its files (perf
 * context, info log, SST file manager, in-memory environment), run; each block between
 * "javadoc:NAME" markers is quoted by a {@code {@snippet id="NAME"}} ({@link JavadocExamplesTest}).
 */
class ObservabilityExamplesTest {
    @TempDir
    Path dir;

    @AfterEach
    void levelOff() {
        PerfContext.setPerfLevel(PerfLevel.DISABLE);
    }

    @Test
    void perfContext() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("perf"), options)) {
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            // --- javadoc:PerfContext begin
            // on a platform thread: the level and the counters are this OS thread's
            PerfContext.setPerfLevel(PerfLevel.ENABLE_COUNT);
            try (PerfContext perf = PerfContext.create()) {
                perf.reset();
                db.get("k".getBytes(UTF_8));
                db.get("absent".getBytes(UTF_8));
                long fromMemtable = perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT);   // 2
                String report = perf.report(true);   // the counters that moved: "get_from_memtable_count = 2, ..."
                // --- javadoc:PerfContext end
                assertEquals(2, fromMemtable);
                assertTrue(report.contains("get_from_memtable_count = 2"), report);
                assertFalse(report.contains("block_read_count"), "zero counters are left out: " + report);
                // --- javadoc:PerfContext begin
            }
            // --- javadoc:PerfContext end
        }
    }

    @Test
    void perfLevel() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("level"), options);
             PerfContext perf = PerfContext.create()) {
            for (int i = 0; i < 100; i++) {
                db.put(("k" + i).getBytes(UTF_8), "v".getBytes(UTF_8));
            }
            perf.reset();
            // --- javadoc:PerfLevel begin
            PerfContext.setPerfLevel(PerfLevel.ENABLE_TIME);   // counts and times: costlier than ENABLE_COUNT
            for (int i = 0; i < 100; i++) {
                db.get(("k" + i).getBytes(UTF_8));
            }
            long nanos = perf.metric(PerfMetric.GET_FROM_MEMTABLE_TIME);
            PerfContext.setPerfLevel(PerfLevel.DISABLE);       // the default: nothing is counted
            // --- javadoc:PerfLevel end
            assertTrue(nanos > 0, "timed at ENABLE_TIME: " + nanos);
            assertEquals(100, perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT));
            perf.reset();
            db.get("k1".getBytes(UTF_8));
            assertEquals(0, perf.metric(PerfMetric.GET_FROM_MEMTABLE_COUNT), "nothing counted when disabled");
            assertEquals(0, perf.metric(PerfMetric.GET_FROM_MEMTABLE_TIME));
        }
    }

    @Test
    void perfMetric() {
        try (Options options = new Options().setCreateIfMissing(true);
             RocksDB db = RocksDB.open(dir.resolve("metrics"), options)) {
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            PerfContext.setPerfLevel(PerfLevel.ENABLE_COUNT);
            try (PerfContext perf = PerfContext.create()) {
                perf.reset();
                for (int i = 0; i < 3; i++) {
                    db.get("k".getBytes(UTF_8));
                }
                // --- javadoc:PerfMetric begin
                Map<PerfMetric, Long> moved = new EnumMap<>(PerfMetric.class);
                for (PerfMetric metric : PerfMetric.values()) {
                    if (metric.isAvailable() && perf.metric(metric) != 0) {   // isAvailable: engine at since() or newer
                        moved.put(metric, perf.metric(metric));
                    }
                }
                // --- javadoc:PerfMetric end
                assertEquals(3L, moved.get(PerfMetric.GET_FROM_MEMTABLE_COUNT), moved.toString());
                String report = perf.report(true);
                for (var e : moved.entrySet()) {
                    String line = e.getKey().name().toLowerCase() + " = " + e.getValue();
                    assertTrue(report.contains(line), line + " in " + report);
                }
                for (PerfMetric metric : PerfMetric.values()) {
                    String version = RocksDB.engine().version();
                    if (version != null) {
                        assertEquals(Capabilities.compareVersions(version, metric.since()) >= 0, metric.isAvailable(),
                                metric + " on " + version);
                    }
                    if (!metric.isAvailable()) {
                        assertThrows(UnsupportedOperationException.class, () -> perf.metric(metric));
                    }
                }
            }
        }
    }

    @Test
    void infoLogger() {
        assumeTrue(Gated.supported("rocksdb_logger_create_callback_logger",
                () -> InfoLogger.of(InfoLogLevel.INFO, (l, m) -> {}).close()), "the engine has no callback logger");
        Path path = dir.resolve("logged");
        // --- javadoc:InfoLogger begin
        Queue<String> messages = new ConcurrentLinkedQueue<>();   // the sink runs on RocksDB's threads
        try (InfoLogger logger = InfoLogger.of(InfoLogLevel.INFO, (level, message) -> messages.add(message));
             Options options = new Options().setCreateIfMissing(true).setInfoLogger(logger);   // no LOG file
             RocksDB db = RocksDB.open(path, options)) {
            db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            db.flush(true);   // logged from a background thread
        }   // closed in reverse order: the logger last, after the database's last messages
        // --- javadoc:InfoLogger end
        assertTrue(messages.stream().anyMatch(m -> m.contains("RocksDB version")), "the header lines");
        assertTrue(messages.stream().anyMatch(m -> m.toLowerCase().contains("flush")), "the flush");
        assertFalse(Files.exists(path.resolve("LOG")));
    }

    @Test
    void sstFileManager() {
        assumeTrue(Gated.supported("rocksdb_sst_file_manager_create", SstFileManager::create),
                "the engine has no SST file manager");
        // --- javadoc:SstFileManager begin
        try (SstFileManager files = SstFileManager.create()
                     .setMaxAllowedSpaceUsage(10L << 30);   // past 10 GiB of table files, writes fail
             Options options = new Options().setCreateIfMissing(true).setSstFileManager(files);
             RocksDB db = RocksDB.open(dir.resolve("tracked"), options)) {
            db.put("k".getBytes(UTF_8), new byte[1000]);
            db.flush(true);
            long bytes = files.totalSize();   // of the table files of every database using the manager
            // --- javadoc:SstFileManager end
            long live = db.liveFiles().stream().mapToLong(LiveFile::size).sum();
            assertTrue(live > 1000, "live " + live);
            assertEquals(live, bytes);
            assertFalse(files.isMaxAllowedSpaceReached());
            // --- javadoc:SstFileManager begin
        }
        // --- javadoc:SstFileManager end
    }

    @Test
    void memoryEnv() {
        Path path = dir.resolve("in-memory");
        // --- javadoc:Env begin
        try (Env memory = Env.memory();
             Options options = new Options().setCreateIfMissing(true).setEnv(memory)) {
            try (RocksDB db = RocksDB.open(path, options)) {   // path names files in memory only
                db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
            }
            try (RocksDB again = RocksDB.open(path, options)) {   // same path, same Env: same data
                byte[] value = again.get("k".getBytes(UTF_8));   // "v"
                // --- javadoc:Env end
                assertEquals("v", new String(value, UTF_8));
                // --- javadoc:Env begin
            }
        }   // closing the Env frees its files
        // --- javadoc:Env end
        assertFalse(Files.exists(path), "nothing on disk");
    }
}
