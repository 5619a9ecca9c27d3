package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;

import io.rocksffm.internal.Capabilities;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

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
public final class WaitForCompactOptions extends NativeObject {
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

    /**
     * Whether the wait gives up, failing with {@link RocksDBException.Code#ABORTED}, when background
     * work is paused ({@link DatabaseAdmin#pauseBackgroundWork()}) rather than waiting for it to be
     * continued. False by default.
     *
     * @param value true to give up
     * @return these options
     * @throws IllegalStateException if closed
     */
    public WaitForCompactOptions setAbortOnPause(boolean value) {
        use(p -> rocksdb_wait_for_compact_options_set_abort_on_pause(p, flag(value)));
        return this;
    }

    /**
     * Whether the wait gives up when background work is paused.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean abortOnPause() {
        return read(p -> rocksdb_wait_for_compact_options_get_abort_on_pause(p)) != 0;
    }

    /**
     * Whether every column family's memtables are flushed before the wait (so their data is in
     * table files, and the compactions the flush triggers are waited for too). False by default.
     *
     * @param value true to flush first
     * @return these options
     * @throws IllegalStateException if closed
     */
    public WaitForCompactOptions setFlush(boolean value) {
        use(p -> rocksdb_wait_for_compact_options_set_flush(p, flag(value)));
        return this;
    }

    /**
     * Whether the memtables are flushed first.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     */
    public boolean flush() {
        return read(p -> rocksdb_wait_for_compact_options_get_flush(p)) != 0;
    }

    /**
     * Whether the wait also waits for obsolete files to be purged. False by default.
     *
     * @param value true to wait for purges
     * @return these options
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_wait_for_compact_options_set_wait_for_purge}
     */
    public WaitForCompactOptions setWaitForPurge(boolean value) {
        use(p -> {
            Capabilities.require("rocksdb_wait_for_compact_options_set_wait_for_purge");
            rocksdb_wait_for_compact_options_set_wait_for_purge(p, flag(value));
        });
        return this;
    }

    /**
     * Whether the wait also waits for purges.
     *
     * @return the setting
     * @throws IllegalStateException if closed
     * @throws UnsupportedOperationException if the engine lacks
     *         {@code rocksdb_wait_for_compact_options_get_wait_for_purge}
     */
    public boolean waitForPurge() {
        return read(p -> {
            Capabilities.require("rocksdb_wait_for_compact_options_get_wait_for_purge");
            return rocksdb_wait_for_compact_options_get_wait_for_purge(p);
        }) != 0;
    }

    /**
     * The longest the wait lasts: past it, the wait fails with {@link RocksDBException.Code#TIMED_OUT}.
     * {@link Duration#ZERO} (the default) waits without a limit. Kept in whole microseconds.
     *
     * @param timeout the limit, zero for none
     * @return these options
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws IllegalStateException if closed
     */
    public WaitForCompactOptions setTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative: " + timeout);
        }
        long micros = TimeUnit.MICROSECONDS.convert(timeout); // saturates
        use(p -> rocksdb_wait_for_compact_options_set_timeout(p, micros));
        return this;
    }

    /**
     * The longest the wait lasts ({@link Duration#ZERO} for no limit).
     *
     * @return the limit
     * @throws IllegalStateException if closed
     */
    public Duration timeout() {
        return Duration.of(read(p -> rocksdb_wait_for_compact_options_get_timeout(p)), ChronoUnit.MICROS);
    }
}
