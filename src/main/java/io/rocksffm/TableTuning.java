package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The table formats besides the block-based one, part of {@link Options}: PlainTable and Cuckoo
 * tables, and the mmap reads they need. A part of {@code Options}, not a type of its own: the
 * methods are {@code Options}' methods and return the options.
 */
abstract class TableTuning extends CompressionTuning {
    TableTuning(String what, MemorySegment ptr) {
        super(what, ptr);
    }

    /**
     * Uses the PlainTable format with {@code config}'s settings (see {@link PlainTableConfig} for
     * its constraints: mmap reads, a prefix extractor for seeks, forward iteration only). A later
     * {@link Options#setTableFormat(BlockBasedTableConfig)}, {@link Options#setBlockCacheSize} or
     * {@link Options#setBloomFilter} goes back to the block-based format.
     *
     * @param config the settings
     * @return these options
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine's {@code rocksdb_options_set_plain_table_factory}
     *         has the older signature (RocksDB before 8.5, such as 7.8.3)
     */
    public Options setTableFormat(PlainTableConfig config) {
        Objects.requireNonNull(config, "config");
        use(p -> {
            Capabilities.require("rocksdb_options_set_plain_table_factory");
            rocksdb_options_set_plain_table_factory(p, config.userKeyLength(), config.bloomBitsPerKey(),
                    config.hashTableRatio(), config.indexSparseness(), config.hugePageTlbSize(), config.encoding().id,
                    flag(config.fullScanMode()), flag(config.storeIndexInFile()));
        });
        return self();
    }

    /**
     * Uses the Cuckoo table format with {@code config}'s settings (copied: the configuration may
     * be closed afterwards). See {@link CuckooTableConfig} for its constraints: mmap reads, keys of
     * one length and values of one length. A later block-based setting goes back to that format,
     * as for {@link #setTableFormat(PlainTableConfig)}.
     *
     * @param config the settings
     * @return these options
     * @throws IllegalStateException if these options or {@code config} are closed
     */
    public Options setTableFormat(CuckooTableConfig config) {
        Objects.requireNonNull(config, "config");
        use(p -> config.use(c -> rocksdb_options_set_cuckoo_table_factory(p, c)));
        return self();
    }

    /**
     * Whether table files are read through mmap ({@code allow_mmap_reads}; false by default).
     * The PlainTable and Cuckoo formats need it.
     *
     * @param value true to read through mmap
     * @return these options
     * @throws IllegalStateException if closed
     */
    public Options setAllowMmapReads(boolean value) {
        use(p -> rocksdb_options_set_allow_mmap_reads(p, flag(value)));
        return self();
    }

    /**
     * Whether table files are read through mmap.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean allowMmapReads() {
        return read(p -> rocksdb_options_get_allow_mmap_reads(p)) != 0;
    }
}
