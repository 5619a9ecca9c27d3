package io.rocksffm.reliability;

import static org.junit.jupiter.api.Assertions.*;

import io.rocksffm.BlockBasedTableConfig;
import io.rocksffm.FifoCompactionOptions;
import io.rocksffm.Options;
import io.rocksffm.UniversalCompactionOptions;
import io.rocksffm.reliability.ApiTableSupport.Table;
import io.rocksffm.CompactRangeOptions;
import io.rocksffm.CuckooTableConfig;
import io.rocksffm.PlainTableConfig;
import io.rocksffm.Compression;
import io.rocksffm.ReadOptions;
import io.rocksffm.WriteOptions;
import java.util.List;

/**
 * The use-after-close rows and tables of issue 32's typed settings: the {@link Options} methods of
 * its setting groups, the new {@link BlockBasedTableConfig} setters, and the tables of
 * {@link UniversalCompactionOptions} and {@link FifoCompactionOptions}. Gated methods check that
 * the object is open before they check the engine, so on every engine a closed receiver refuses
 * with {@link IllegalStateException}.
 */
final class OptionsTables {
    private OptionsTables() {}

    /** Adds the issue 32 methods of {@link Options} to its table. */
    static Table<Options> issue32(Table<Options> table) {
        return table
                // table formats (issue 32)
                .guarded("setTableFormat(PlainTableConfig)", (o, c) -> o.setTableFormat(PlainTableConfig.defaults()))
                .guarded("setTableFormat(CuckooTableConfig)", (o, c) -> o.setTableFormat(c.cuckoo))
                .guarded("setWalDir(Path)", (o, c) -> o.setWalDir(c.dir))
                .guarded("walDir()", (o, c) -> o.walDir())
                .guarded("setUniversalCompactionOptions(UniversalCompactionOptions)", (o, c) -> o.setUniversalCompactionOptions(c.universal))
                .guarded("setFifoCompactionOptions(FifoCompactionOptions)", (o, c) -> o.setFifoCompactionOptions(c.fifo))
                .guarded("setCompressionPerLevel(List)", (o, c) -> o.setCompressionPerLevel(List.of()))
                .guarded("compressionPerLevel()", (o, c) -> o.compressionPerLevel())
                .guarded("setBottommostCompression(Compression)", (o, c) -> o.setBottommostCompression(Compression.NONE))
                .guarded("bottommostCompression()", (o, c) -> o.bottommostCompression())
                .guarded("setCompressionOptions(int,int,int,int)", (o, c) -> o.setCompressionOptions(2, 2, 2, 2))
                .guarded("setBottommostCompressionOptions(int,int,int,int,boolean)", (o, c) -> o.setBottommostCompressionOptions(2, 2, 2, 2, true));
    }

    /** Adds the issue 32 setters of {@link BlockBasedTableConfig} to its table. */
    static Table<BlockBasedTableConfig> blockBasedIssue32(Table<BlockBasedTableConfig> table) {
        return table;
    }

    static Table<UniversalCompactionOptions> universal() {
        return new Table<>(UniversalCompactionOptions.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setSizeRatio(int)", (o, c) -> o.setSizeRatio(2))
                .guarded("sizeRatio()", (o, c) -> o.sizeRatio())
                .guarded("setMinMergeWidth(int)", (o, c) -> o.setMinMergeWidth(2))
                .guarded("minMergeWidth()", (o, c) -> o.minMergeWidth())
                .guarded("setMaxMergeWidth(int)", (o, c) -> o.setMaxMergeWidth(2))
                .guarded("maxMergeWidth()", (o, c) -> o.maxMergeWidth())
                .guarded("setMaxSizeAmplificationPercent(int)", (o, c) -> o.setMaxSizeAmplificationPercent(2))
                .guarded("maxSizeAmplificationPercent()", (o, c) -> o.maxSizeAmplificationPercent())
                .guarded("setCompressionSizePercent(int)", (o, c) -> o.setCompressionSizePercent(2))
                .guarded("compressionSizePercent()", (o, c) -> o.compressionSizePercent())
                .guarded("setStopStyleTotalSize(boolean)", (o, c) -> o.setStopStyleTotalSize(true))
                .guarded("stopStyleTotalSize()", (o, c) -> o.stopStyleTotalSize());
    }

    static Table<FifoCompactionOptions> fifo() {
        return new Table<>(FifoCompactionOptions.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setMaxTableFilesSize(long)", (o, c) -> o.setMaxTableFilesSize(2))
                .guarded("maxTableFilesSize()", (o, c) -> o.maxTableFilesSize())
                .guarded("setAllowCompaction(boolean)", (o, c) -> o.setAllowCompaction(true))
                .guarded("allowCompaction()", (o, c) -> o.allowCompaction());
    }

    /** Adds the issue 32 methods of {@link io.rocksffm.ReadOptions} to its table. */
    static Table<ReadOptions> readIssue32(Table<ReadOptions> table) {
        return table
                .guarded("setReadTier(ReadTier)", (o, c) -> o.setReadTier(ReadOptions.ReadTier.READ_ALL))
                .guarded("readTier()", (o, c) -> o.readTier())
                .guarded("setIgnoreRangeDeletions(boolean)", (o, c) -> o.setIgnoreRangeDeletions(true))
                .guarded("ignoreRangeDeletions()", (o, c) -> o.ignoreRangeDeletions())
                .guarded("setPinData(boolean)", (o, c) -> o.setPinData(true))
                .guarded("pinData()", (o, c) -> o.pinData())
                .guarded("setDeadlineMicros(long)", (o, c) -> o.setDeadlineMicros(1))
                .guarded("deadlineMicros()", (o, c) -> o.deadlineMicros())
                .guarded("setIoTimeoutMicros(long)", (o, c) -> o.setIoTimeoutMicros(1))
                .guarded("ioTimeoutMicros()", (o, c) -> o.ioTimeoutMicros())
                .guarded("setAsyncIo(boolean)", (o, c) -> o.setAsyncIo(true))
                .guarded("asyncIo()", (o, c) -> o.asyncIo());
    }

    /** Adds the issue 32 methods of {@link io.rocksffm.WriteOptions} to its table. */
    static Table<WriteOptions> writeIssue32(Table<WriteOptions> table) {
        return table
                .guarded("setNoSlowdown(boolean)", (o, c) -> o.setNoSlowdown(true))
                .guarded("noSlowdown()", (o, c) -> o.noSlowdown())
                .guarded("setLowPri(boolean)", (o, c) -> o.setLowPri(true))
                .guarded("lowPri()", (o, c) -> o.lowPri())
                .guarded("setMemtableInsertHintPerBatch(boolean)", (o, c) -> o.setMemtableInsertHintPerBatch(true))
                .guarded("memtableInsertHintPerBatch()", (o, c) -> o.memtableInsertHintPerBatch());
    }

    static Table<CuckooTableConfig> cuckoo() {
        return new Table<>(CuckooTableConfig.class)
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setHashTableRatio(double)", (o, c) -> o.setHashTableRatio(0.5))
                .guarded("hashTableRatio()", (o, c) -> o.hashTableRatio())
                .guarded("setMaxSearchDepth(int)", (o, c) -> o.setMaxSearchDepth(10))
                .guarded("maxSearchDepth()", (o, c) -> o.maxSearchDepth())
                .guarded("setCuckooBlockSize(int)", (o, c) -> o.setCuckooBlockSize(2))
                .guarded("cuckooBlockSize()", (o, c) -> o.cuckooBlockSize())
                .guarded("setIdentityAsFirstHash(boolean)", (o, c) -> o.setIdentityAsFirstHash(true))
                .guarded("identityAsFirstHash()", (o, c) -> o.identityAsFirstHash())
                .guarded("setUseModuleHash(boolean)", (o, c) -> o.setUseModuleHash(true))
                .guarded("useModuleHash()", (o, c) -> o.useModuleHash());
    }

    static Table<CompactRangeOptions> compactRange() {
        return SettingsTables.compactRangeOptions(new Table<>(CompactRangeOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()))
                .guarded("setExclusiveManualCompaction(boolean)", (o, c) -> o.setExclusiveManualCompaction(true))
                .guarded("exclusiveManualCompaction()", (o, c) -> o.exclusiveManualCompaction())
                .guarded("setChangeLevel(boolean)", (o, c) -> o.setChangeLevel(true))
                .guarded("changeLevel()", (o, c) -> o.changeLevel())
                .guarded("setTargetLevel(int)", (o, c) -> o.setTargetLevel(1))
                .guarded("targetLevel()", (o, c) -> o.targetLevel())
                .guarded("setBottommostLevelCompaction(BottommostLevelCompaction)", (o, c) -> o.setBottommostLevelCompaction(
                        CompactRangeOptions.BottommostLevelCompaction.SKIP))
                .guarded("bottommostLevelCompaction()", (o, c) -> o.bottommostLevelCompaction())
                .guarded("setMaxSubcompactions(int)", (o, c) -> o.setMaxSubcompactions(1))
                .guarded("maxSubcompactions()", (o, c) -> o.maxSubcompactions());
    }
}

