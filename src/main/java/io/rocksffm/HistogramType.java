package io.rocksffm;

/**
 * RocksDB statistics histograms that {@link Statistics#histogram} reads, named as in RocksDB's
 * {@code Histograms} enum (times in microseconds unless the name says otherwise). Each is found in
 * the engine by its {@link #engineName()} (the engine's numbering differs between versions).
 */
public enum HistogramType {
    /** {@code rocksdb.db.get.micros}. */
    DB_GET("rocksdb.db.get.micros"),
    /** {@code rocksdb.db.write.micros}. */
    DB_WRITE("rocksdb.db.write.micros"),
    /** {@code rocksdb.db.multiget.micros}. */
    DB_MULTIGET("rocksdb.db.multiget.micros"),
    /** {@code rocksdb.db.seek.micros}. */
    DB_SEEK("rocksdb.db.seek.micros"),
    /** {@code rocksdb.compaction.times.micros}. */
    COMPACTION_TIME("rocksdb.compaction.times.micros"),
    /** {@code rocksdb.compaction.times.cpu_micros}. */
    COMPACTION_CPU_TIME("rocksdb.compaction.times.cpu_micros"),
    /** {@code rocksdb.db.flush.micros}. */
    FLUSH_TIME("rocksdb.db.flush.micros"),
    /** {@code rocksdb.table.sync.micros}. */
    TABLE_SYNC_MICROS("rocksdb.table.sync.micros"),
    /** {@code rocksdb.wal.file.sync.micros}. */
    WAL_FILE_SYNC_MICROS("rocksdb.wal.file.sync.micros"),
    /** {@code rocksdb.manifest.file.sync.micros}. */
    MANIFEST_FILE_SYNC_MICROS("rocksdb.manifest.file.sync.micros"),
    /** {@code rocksdb.table.open.io.micros}. */
    TABLE_OPEN_IO_MICROS("rocksdb.table.open.io.micros"),
    /** {@code rocksdb.read.block.get.micros}. */
    READ_BLOCK_GET_MICROS("rocksdb.read.block.get.micros"),
    /** {@code rocksdb.write.raw.block.micros}. */
    WRITE_RAW_BLOCK_MICROS("rocksdb.write.raw.block.micros"),
    /** {@code rocksdb.sst.read.micros}. */
    SST_READ_MICROS("rocksdb.sst.read.micros"),
    /** {@code rocksdb.bytes.per.read}. */
    BYTES_PER_READ("rocksdb.bytes.per.read"),
    /** {@code rocksdb.bytes.per.write}. */
    BYTES_PER_WRITE("rocksdb.bytes.per.write"),
    /** {@code rocksdb.bytes.per.multiget}. */
    BYTES_PER_MULTIGET("rocksdb.bytes.per.multiget"),
    /** {@code rocksdb.db.write.stall}. */
    WRITE_STALL("rocksdb.db.write.stall"),
    /** {@code rocksdb.numfiles.in.singlecompaction}. */
    NUM_FILES_IN_SINGLE_COMPACTION("rocksdb.numfiles.in.singlecompaction"),
    /** {@code rocksdb.compression.times.nanos}. */
    COMPRESSION_TIMES_NANOS("rocksdb.compression.times.nanos"),
    /** {@code rocksdb.decompression.times.nanos}. */
    DECOMPRESSION_TIMES_NANOS("rocksdb.decompression.times.nanos");

    private final String engineName;

    HistogramType(String engineName) {
        this.engineName = engineName;
    }

    /**
     * The name RocksDB gives it in its statistics text ({@link Statistics#toString()}).
     *
     * @return the engine's name, e.g. {@code "rocksdb.db.get.micros"}
     */
    public String engineName() {
        return engineName;
    }
}
