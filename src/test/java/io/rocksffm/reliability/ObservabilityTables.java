package io.rocksffm.reliability;

import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.Env;
import io.rocksffm.InfoLogLevel;
import io.rocksffm.InfoLogger;
import io.rocksffm.Options;
import io.rocksffm.PerfContext;
import io.rocksffm.PerfMetric;
import io.rocksffm.SstFileManager;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.reliability.ApiTableSupport.Table;

/**
 * The use-after-close rows and tables of issue 32's observability and environment objects:
 * {@link PerfContext}, {@link InfoLogger}, {@link SstFileManager}, {@link Env}, and the
 * {@link Options} methods that name them. The manager and the logger cannot exist on 7.8.3: there
 * the rows that need one throw {@link IllegalStateException} themselves, as for the write buffer
 * manager.
 */
final class ObservabilityTables {
    private ObservabilityTables() {}

    /** An SST file manager, or null on engines without them (7.8.3). */
    static SstFileManager sstFileManagerIfSupported() {
        return Capabilities.callable("rocksdb_sst_file_manager_create") ? SstFileManager.create() : null;
    }

    /** A Java info logger, or null on engines without them (7.8.3). */
    static InfoLogger infoLoggerIfSupported() {
        return Capabilities.callable("rocksdb_logger_create_callback_logger")
                ? InfoLogger.of(InfoLogLevel.INFO, (l, m) -> {}) : null;
    }

    /** Adds the environment methods of {@link Options} to its table. */
    static Table<Options> environment(Table<Options> table) {
        return table
                .guarded("setEnv(Env)", (o, c) -> o.setEnv(c.env))
                .guarded("setSstFileManager(SstFileManager)", (o, c) -> {
                    if (c.sfm == null) { // 7.8.3: no manager can exist, so there is nothing to pass
                        throw new IllegalStateException("no SST file manager on this engine");
                    }
                    o.setSstFileManager(c.sfm);
                })
                .guarded("setInfoLogger(InfoLogger)", (o, c) -> {
                    if (c.logger == null) { // 7.8.3: no logger can exist
                        throw new IllegalStateException("no info logger on this engine");
                    }
                    o.setInfoLogger(c.logger);
                });
    }

    static Table<PerfContext> perfContext() {
        return new Table<>(PerfContext.class)
                .plain("close()", (p, c) -> p.close())
                .plain("isClosed()", (p, c) -> assertTrue(p.isClosed()))
                .guarded("reset()", (p, c) -> p.reset())
                .guarded("metric(PerfMetric)", (p, c) -> p.metric(PerfMetric.USER_KEY_COMPARISON_COUNT))
                .guarded("report(boolean)", (p, c) -> p.report(true));
    }

    static Table<InfoLogger> infoLogger() {
        return new Table<>(InfoLogger.class)
                .plain("close()", (l, c) -> l.close())
                .plain("isClosed()", (l, c) -> assertTrue(l.isClosed()))
                .plain("messageCount()", (l, c) -> l.messageCount())
                .plain("failureCount()", (l, c) -> l.failureCount())
                .plain("lastFailure()", (l, c) -> l.lastFailure());
    }

    static Table<SstFileManager> sstFileManager() {
        return new Table<>(SstFileManager.class)
                .plain("close()", (m, c) -> m.close())
                .plain("isClosed()", (m, c) -> assertTrue(m.isClosed()))
                .guarded("setMaxAllowedSpaceUsage(long)", (m, c) -> m.setMaxAllowedSpaceUsage(1))
                .guarded("setCompactionBufferSize(long)", (m, c) -> m.setCompactionBufferSize(1))
                .guarded("isMaxAllowedSpaceReached()", (m, c) -> m.isMaxAllowedSpaceReached())
                .guarded("isMaxAllowedSpaceReachedIncludingCompactions()",
                        (m, c) -> m.isMaxAllowedSpaceReachedIncludingCompactions())
                .guarded("totalSize()", (m, c) -> m.totalSize())
                .guarded("deleteRateBytesPerSecond()", (m, c) -> m.deleteRateBytesPerSecond())
                .guarded("setDeleteRateBytesPerSecond(long)", (m, c) -> m.setDeleteRateBytesPerSecond(1))
                .guarded("maxTrashDbRatio()", (m, c) -> m.maxTrashDbRatio())
                .guarded("setMaxTrashDbRatio(double)", (m, c) -> m.setMaxTrashDbRatio(0.5))
                .guarded("totalTrashSize()", (m, c) -> m.totalTrashSize());
    }

    static Table<Env> env() {
        return new Table<>(Env.class)
                .plain("close()", (e, c) -> e.close())
                .plain("isClosed()", (e, c) -> assertTrue(e.isClosed()))
                .guarded("setBackgroundThreads(int)", (e, c) -> e.setBackgroundThreads(1))
                .guarded("setHighPriorityBackgroundThreads(int)", (e, c) -> e.setHighPriorityBackgroundThreads(1))
                .guarded("backgroundThreads()", (e, c) -> e.backgroundThreads())
                .guarded("highPriorityBackgroundThreads()", (e, c) -> e.highPriorityBackgroundThreads())
                .guarded("lowerThreadPoolCPUPriority()", (e, c) -> e.lowerThreadPoolCPUPriority())
                .guarded("lowerThreadPoolIOPriority()", (e, c) -> e.lowerThreadPoolIOPriority());
    }
}
