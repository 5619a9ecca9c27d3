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
}
