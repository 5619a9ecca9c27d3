package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;

/**
 * Options of {@link DatabaseAdmin#waitForCompact(WaitForCompactOptions)}
 * ({@code rocksdb_wait_for_compact_options_t}): whether to flush first, to give up when background
 * work is paused, to wait for obsolete files to be purged, and for how long at most.
 *
 * {@snippet id="WaitForCompactOptions" :
 * try (WaitForCompactOptions wait = new WaitForCompactOptions()
 *              .setFlush(true)                          // flush the memtables first
 *              .setTimeout(Duration.ofMinutes(1))) {   // else fails with TIMED_OUT
 *     db.waitForCompact(wait);   // returns once no flush or compaction is running or due
 * }
 * }
 *
 * <p>RocksDB's {@code close_db} option (close the database once the wait is over) is not offered:
 * it would close the database underneath its Java object, whose lifecycle closes it itself; wait,
 * then {@link Database#close()}.
 *
 * <p>The C functions {@code rocksdb_wait_for_compact_options_*} are in engines newer than 7.8.3
 * ({@code wait_for_purge} from RocksDB 11 only): on 7.8.3 the constructor throws {@link UnsupportedOperationException}
 * naming the function and the engine's version.
 *
 * <p>The caller owns and closes it; a wait reads it during the call only. Setters return
 * {@code this}. Safe to share across threads; any call after close throws
 * {@link IllegalStateException}.
 */
public final class WaitForCompactOptions extends WaitForCompactOptionsSettings {
    /**
     * RocksDB's defaults: no flush, no abort on pause, no wait for purges, no timeout.
     *
     * @throws UnsupportedOperationException if the engine lacks {@code rocksdb_wait_for_compact_options_create}
     */
    public WaitForCompactOptions() {
        super("WaitForCompactOptions", create());
    }

    private static MemorySegment create() {
        Capabilities.require("rocksdb_wait_for_compact_options_create");
        return rocksdb_wait_for_compact_options_create();
    }

    @Override
    void destroy(MemorySegment p) {
        rocksdb_wait_for_compact_options_destroy(p);
    }
}
