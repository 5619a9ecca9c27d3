package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;

/**
 * Options for reads ({@code rocksdb_readoptions_t}).
 *
 * <p>Owned by the caller, who closes it after the reads that use it. Safe to share across threads
 * for reading; closing waits for reads in flight. Using a closed instance throws
 * {@link IllegalStateException}.
 */
public final class ReadOptions extends NativeObject {
    /** RocksDB's default read options (verify checksums and fill cache on). */
    public ReadOptions() {
        super("ReadOptions", rocksdb_readoptions_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_readoptions_destroy(p);
    }

    /** Verify block checksums on read. */
    public ReadOptions setVerifyChecksums(boolean value) {
        use(p -> rocksdb_readoptions_set_verify_checksums(p, flag(value)));
        return this;
    }

    /** Whether block checksums are verified. */
    public boolean verifyChecksums() {
        return read(p -> rocksdb_readoptions_get_verify_checksums(p)) != 0;
    }

    /** Put blocks read into the block cache (turn off for one-off scans). */
    public ReadOptions setFillCache(boolean value) {
        use(p -> rocksdb_readoptions_set_fill_cache(p, flag(value)));
        return this;
    }

    /** Whether blocks read fill the cache. */
    public boolean fillCache() {
        return read(p -> rocksdb_readoptions_get_fill_cache(p)) != 0;
    }
}
