package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * How a table-file writer reads and writes its file ({@code rocksdb_envoptions_t}): direct or
 * memory-mapped I/O, preallocation, syncing, buffers; given to
 * {@link SstFileWriter#open(Options, EnvOptions, Path)}.
 *
 * <p>Its settings and their getters need RocksDB 11.8 or later (an older engine throws
 * {@link UnsupportedOperationException} naming the method and the C function); creating and
 * closing it works on every engine. The caller owns and closes it. Setters return {@code this}.
 * Safe to share across threads; any call after close throws {@link IllegalStateException}.
 */
public final class EnvOptions extends EnvOptionsSettings {
    /** RocksDB's defaults: buffered reads and writes, preallocation on, no periodic sync, a 1 MiB write buffer. */
    public EnvOptions() {
        super("EnvOptions", rocksdb_envoptions_create());
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_envoptions_destroy(p);
    }
}
