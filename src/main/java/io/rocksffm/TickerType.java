package io.rocksffm;

/**
 * RocksDB statistics counters ("tickers") that {@link Statistics#tickerCount} reads: the ones
 * operators watch most, named as in RocksDB's {@code Tickers} enum. Each is found in the engine by
 * its {@link #engineName()} (the engine's numbering differs between versions); the engine's other
 * tickers are in {@link Statistics#tickers()}.
 */
public enum TickerType {
    /** {@code rocksdb.block.cache.miss}. */
    BLOCK_CACHE_MISS("rocksdb.block.cache.miss"),
    /** {@code rocksdb.block.cache.hit}. */
    BLOCK_CACHE_HIT("rocksdb.block.cache.hit"),
    /** {@code rocksdb.block.cache.add}. */
    BLOCK_CACHE_ADD("rocksdb.block.cache.add"),
    /** {@code rocksdb.block.cache.add.failures}. */
    BLOCK_CACHE_ADD_FAILURES("rocksdb.block.cache.add.failures"),
    /** {@code rocksdb.block.cache.index.miss}. */
    BLOCK_CACHE_INDEX_MISS("rocksdb.block.cache.index.miss"),
    /** {@code rocksdb.block.cache.index.hit}. */
    BLOCK_CACHE_INDEX_HIT("rocksdb.block.cache.index.hit"),
    /** {@code rocksdb.block.cache.filter.miss}. */
    BLOCK_CACHE_FILTER_MISS("rocksdb.block.cache.filter.miss"),
    /** {@code rocksdb.block.cache.filter.hit}. */
    BLOCK_CACHE_FILTER_HIT("rocksdb.block.cache.filter.hit"),
    /** {@code rocksdb.block.cache.data.miss}. */
    BLOCK_CACHE_DATA_MISS("rocksdb.block.cache.data.miss"),
    /** {@code rocksdb.block.cache.data.hit}. */
    BLOCK_CACHE_DATA_HIT("rocksdb.block.cache.data.hit"),
    /** {@code rocksdb.block.cache.bytes.read}. */
    BLOCK_CACHE_BYTES_READ("rocksdb.block.cache.bytes.read"),
    /** {@code rocksdb.block.cache.bytes.write}. */
    BLOCK_CACHE_BYTES_WRITE("rocksdb.block.cache.bytes.write"),
    /** {@code rocksdb.bloom.filter.useful}. */
    BLOOM_FILTER_USEFUL("rocksdb.bloom.filter.useful"),
    /** {@code rocksdb.bloom.filter.full.positive}. */
    BLOOM_FILTER_FULL_POSITIVE("rocksdb.bloom.filter.full.positive"),
    /** {@code rocksdb.bloom.filter.full.true.positive}. */
    BLOOM_FILTER_FULL_TRUE_POSITIVE("rocksdb.bloom.filter.full.true.positive"),
    /** {@code rocksdb.memtable.hit}. */
    MEMTABLE_HIT("rocksdb.memtable.hit"),
    /** {@code rocksdb.memtable.miss}. */
    MEMTABLE_MISS("rocksdb.memtable.miss"),
    /** {@code rocksdb.l0.hit}. */
    GET_HIT_L0("rocksdb.l0.hit"),
    /** {@code rocksdb.l1.hit}. */
    GET_HIT_L1("rocksdb.l1.hit"),
    /** {@code rocksdb.l2andup.hit}. */
    GET_HIT_L2_AND_UP("rocksdb.l2andup.hit"),
    /** {@code rocksdb.compaction.key.drop.new}. */
    COMPACTION_KEY_DROP_NEWER_ENTRY("rocksdb.compaction.key.drop.new"),
    /** {@code rocksdb.compaction.key.drop.obsolete}. */
    COMPACTION_KEY_DROP_OBSOLETE("rocksdb.compaction.key.drop.obsolete"),
    /** {@code rocksdb.compaction.key.drop.range_del}. */
    COMPACTION_KEY_DROP_RANGE_DEL("rocksdb.compaction.key.drop.range_del"),
    /** {@code rocksdb.compaction.key.drop.user}. */
    COMPACTION_KEY_DROP_USER("rocksdb.compaction.key.drop.user"),
    /** {@code rocksdb.number.keys.written}. */
    NUMBER_KEYS_WRITTEN("rocksdb.number.keys.written"),
    /** {@code rocksdb.number.keys.read}. */
    NUMBER_KEYS_READ("rocksdb.number.keys.read"),
    /** {@code rocksdb.number.keys.updated}. */
    NUMBER_KEYS_UPDATED("rocksdb.number.keys.updated"),
    /** {@code rocksdb.bytes.written}. */
    BYTES_WRITTEN("rocksdb.bytes.written"),
    /** {@code rocksdb.bytes.read}. */
    BYTES_READ("rocksdb.bytes.read"),
    /** {@code rocksdb.number.db.seek}. */
    NUMBER_DB_SEEK("rocksdb.number.db.seek"),
    /** {@code rocksdb.number.db.next}. */
    NUMBER_DB_NEXT("rocksdb.number.db.next"),
    /** {@code rocksdb.number.db.prev}. */
    NUMBER_DB_PREV("rocksdb.number.db.prev"),
    /** {@code rocksdb.number.db.seek.found}. */
    NUMBER_DB_SEEK_FOUND("rocksdb.number.db.seek.found"),
    /** {@code rocksdb.number.db.next.found}. */
    NUMBER_DB_NEXT_FOUND("rocksdb.number.db.next.found"),
    /** {@code rocksdb.number.db.prev.found}. */
    NUMBER_DB_PREV_FOUND("rocksdb.number.db.prev.found"),
    /** {@code rocksdb.db.iter.bytes.read}. */
    ITER_BYTES_READ("rocksdb.db.iter.bytes.read"),
    /** {@code rocksdb.no.file.opens}. */
    NO_FILE_OPENS("rocksdb.no.file.opens"),
    /** {@code rocksdb.no.file.errors}. */
    NO_FILE_ERRORS("rocksdb.no.file.errors"),
    /** {@code rocksdb.stall.micros}. */
    STALL_MICROS("rocksdb.stall.micros"),
    /** {@code rocksdb.db.mutex.wait.micros}. */
    DB_MUTEX_WAIT_MICROS("rocksdb.db.mutex.wait.micros"),
    /** {@code rocksdb.number.multiget.get}. */
    NUMBER_MULTIGET_CALLS("rocksdb.number.multiget.get"),
    /** {@code rocksdb.number.multiget.keys.read}. */
    NUMBER_MULTIGET_KEYS_READ("rocksdb.number.multiget.keys.read"),
    /** {@code rocksdb.number.multiget.bytes.read}. */
    NUMBER_MULTIGET_BYTES_READ("rocksdb.number.multiget.bytes.read"),
    /** {@code rocksdb.number.multiget.keys.found}. */
    NUMBER_MULTIGET_KEYS_FOUND("rocksdb.number.multiget.keys.found"),
    /** {@code rocksdb.number.merge.failures}. */
    NUMBER_MERGE_FAILURES("rocksdb.number.merge.failures"),
    /** {@code rocksdb.wal.synced}. */
    WAL_FILE_SYNCED("rocksdb.wal.synced"),
    /** {@code rocksdb.wal.bytes}. */
    WAL_FILE_BYTES("rocksdb.wal.bytes"),
    /** {@code rocksdb.write.self}. */
    WRITE_DONE_BY_SELF("rocksdb.write.self"),
    /** {@code rocksdb.write.other}. */
    WRITE_DONE_BY_OTHER("rocksdb.write.other"),
    /** {@code rocksdb.write.wal}. */
    WRITE_WITH_WAL("rocksdb.write.wal"),
    /** {@code rocksdb.compact.read.bytes}. */
    COMPACT_READ_BYTES("rocksdb.compact.read.bytes"),
    /** {@code rocksdb.compact.write.bytes}. */
    COMPACT_WRITE_BYTES("rocksdb.compact.write.bytes"),
    /** {@code rocksdb.flush.write.bytes}. */
    FLUSH_WRITE_BYTES("rocksdb.flush.write.bytes"),
    /** {@code rocksdb.number.block.compressed}. */
    NUMBER_BLOCK_COMPRESSED("rocksdb.number.block.compressed"),
    /** {@code rocksdb.number.block.decompressed}. */
    NUMBER_BLOCK_DECOMPRESSED("rocksdb.number.block.decompressed"),
    /** {@code rocksdb.row.cache.hit}. */
    ROW_CACHE_HIT("rocksdb.row.cache.hit"),
    /** {@code rocksdb.row.cache.miss}. */
    ROW_CACHE_MISS("rocksdb.row.cache.miss"),
    /** {@code rocksdb.number.rate_limiter.drains}. */
    NUMBER_RATE_LIMITER_DRAINS("rocksdb.number.rate_limiter.drains"),
    /** {@code rocksdb.backup.read.bytes}. */
    BACKUP_READ_BYTES("rocksdb.backup.read.bytes"),
    /** {@code rocksdb.backup.write.bytes}. */
    BACKUP_WRITE_BYTES("rocksdb.backup.write.bytes");

    private final String engineName;

    TickerType(String engineName) {
        this.engineName = engineName;
    }

    /**
     * The name RocksDB gives it in its statistics text ({@link Statistics#toString()}).
     *
     * @return the engine's name, e.g. {@code "rocksdb.block.cache.miss"}
     */
    public String engineName() {
        return engineName;
    }
}
