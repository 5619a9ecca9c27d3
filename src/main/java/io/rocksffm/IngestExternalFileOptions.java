package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options of an ingestion of table files ({@code rocksdb_ingestexternalfileoptions_t}), for
 * {@link Database#ingestExternalFile}.
 *
 * <p>The caller owns and closes it. Setters return {@code this}. Safe to share across threads;
 * any call after close throws {@link IllegalStateException}.
 */
public final class IngestExternalFileOptions extends IngestExternalFileOptionsSettings {
    /** What {@link #setAllowBlockingFlush} set last (RocksDB's default: true). */
    private volatile boolean allowBlockingFlush = true;

    /**
     * RocksDB's defaults: files copied (not moved), snapshot consistency on, global sequence
     * numbers allowed, blocking flush allowed, not ingested behind.
     */
    public IngestExternalFileOptions() {
        super("IngestExternalFileOptions", rocksdb_ingestexternalfileoptions_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_ingestexternalfileoptions_destroy(p);
    }

    /**
     * Whether the ingestion may flush the memtable when its keys overlap the files' (true by
     * default); without it, such an ingestion fails.
     *
     * @param value true to allow a blocking flush
     * @return these options
     * @throws IllegalStateException if closed
     */
    public IngestExternalFileOptions setAllowBlockingFlush(boolean value) {
        use(p -> {
            rocksdb_ingestexternalfileoptions_set_allow_blocking_flush(p, flag(value));
            allowBlockingFlush = value;
        });
        return this;
    }

    /**
     * Whether the ingestion may flush the memtable (kept on the Java side: the C API has no getter).
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean allowBlockingFlush() {
        lifecycle.ensureOpen();
        return allowBlockingFlush;
    }
}
