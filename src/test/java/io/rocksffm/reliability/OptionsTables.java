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
                .guarded("setCompressionOptions(int,int,int,int)", (o, c) -> o.setCompressionOptions(2, 2, 2, 2))
                .guarded("setBottommostCompressionOptions(int,int,int,int,boolean)", (o, c) -> o.setBottommostCompressionOptions(2, 2, 2, 2, true));
    }

    /** Adds the issue 32 setters of {@link BlockBasedTableConfig} to its table. */
    static Table<BlockBasedTableConfig> blockBasedIssue32(Table<BlockBasedTableConfig> table) {
        return table;
    }

    static Table<UniversalCompactionOptions> universal() {
        return SettingsTables.universalCompactionOptions(new Table<>(UniversalCompactionOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<FifoCompactionOptions> fifo() {
        return SettingsTables.fifoCompactionOptions(new Table<>(FifoCompactionOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<CuckooTableConfig> cuckoo() {
        return SettingsTables.cuckooTableConfig(new Table<>(CuckooTableConfig.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }

    static Table<CompactRangeOptions> compactRange() {
        return SettingsTables.compactRangeOptions(new Table<>(CompactRangeOptions.class))
                .plain("close()", (o, c) -> o.close())
                .plain("isClosed()", (o, c) -> assertTrue(o.isClosed()));
    }
}

