package io.rocksffm;

import static io.rocksffm.internal.capi.RocksDBC.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.rocksffm.EventListener.BackgroundError;
import io.rocksffm.EventListener.CompactionJobInfo;
import io.rocksffm.EventListener.ExternalFileIngestionInfo;
import io.rocksffm.EventListener.FlushJobInfo;
import io.rocksffm.EventListener.MemTableInfo;
import io.rocksffm.EventListener.WriteStallCondition;
import io.rocksffm.EventListener.WriteStallInfo;
import io.rocksffm.internal.Capabilities;
import io.rocksffm.internal.Native;
import io.rocksffm.internal.Upcalls;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import io.rocksffm.internal.Callbacks;
import java.lang.foreign.ValueLayout;

/**
 * The native side of {@link EventListener}s: a {@code rocksdb_eventlistener_t} whose state is the
 * listener's {@link Upcalls} handle and whose callbacks are process-wide stubs that copy the
 * event's information (valid only during the callback) into records and hand them to the
 * listener. RocksDB owns the native listener once it is added to options; its destructor (when
 * the last options object or database holding it lets go) releases the handle.
 */
final class EventListeners {
    private EventListeners() {}

    private static final System.Logger LOG = System.getLogger("io.rocksffm.EventListener");

    /** The stubs, made when the first listener is created (after the capability check). */
    private static final class Stubs {
        static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
        static final FunctionDescriptor DB_INFO = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS);
        static final FunctionDescriptor INFO = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS);
        static final MemorySegment FLUSH_BEGIN = stub("flushBegin", DB_INFO);
        static final MemorySegment FLUSH_COMPLETED = stub("flushCompleted", DB_INFO);
        static final MemorySegment COMPACTION_BEGIN = stub("compactionBegin", DB_INFO);
        static final MemorySegment COMPACTION_COMPLETED = stub("compactionCompleted", DB_INFO);
        static final MemorySegment SUBCOMPACTION = stub("ignored", INFO);
        static final MemorySegment FILE_INGESTED = stub("fileIngested", DB_INFO);
        static final MemorySegment BACKGROUND_ERROR = stub("backgroundError",
                FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, ADDRESS));
        static final MemorySegment STALL_CHANGED = stub("stallChanged", INFO);
        static final MemorySegment MEMTABLE_SEALED = stub("memTableSealed", INFO);

        private static MemorySegment stub(String name, FunctionDescriptor descriptor) {
            return Upcalls.stub(LOOKUP, EventListeners.class, name, descriptor, null);
        }
    }

    /**
     * A new native listener calling {@code listener}, owned by the caller until given to options
     * ({@code rocksdb_options_add_eventlistener} takes ownership).
     *
     * @throws UnsupportedOperationException if the engine has no event listeners
     */
    static MemorySegment create(EventListener listener) {
        Objects.requireNonNull(listener, "listener");
        Capabilities.require("rocksdb_eventlistener_create");
        Upcalls.Entry entry = Upcalls.register(listener, listener.getClass().getName().replace('\0', ' '), null);
        MemorySegment native_;
        try {
            native_ = rocksdb_eventlistener_create(entry.state(), Upcalls.DESTRUCTOR, Stubs.FLUSH_BEGIN,
                    Stubs.FLUSH_COMPLETED, Stubs.COMPACTION_BEGIN, Stubs.COMPACTION_COMPLETED, Stubs.SUBCOMPACTION,
                    Stubs.SUBCOMPACTION, Stubs.FILE_INGESTED, Stubs.BACKGROUND_ERROR, Stubs.STALL_CHANGED,
                    Stubs.MEMTABLE_SEALED);
        } catch (RuntimeException | Error e) {
            Upcalls.release(entry.state().address());
            throw e;
        }
        if (native_.address() == 0) {
            Upcalls.release(entry.state().address());
            throw new IllegalStateException("RocksDB returned NULL creating an event listener");
        }
        return native_;
    }

    /** Hands {@code event} to the listener behind {@code state}, catching and logging what it throws. */
    private static <T> void deliver(MemorySegment state, T event, Consumer<T> call) {
        int mark = Callbacks.enter(Callbacks.Kind.EVENT_LISTENER);
        try {
            call.accept(event);
        } catch (Throwable t) {
            Upcalls.failed(state, t);
            try {
                LOG.log(System.Logger.Level.WARNING, "event listener threw on " + event, t);
            } catch (Throwable ignored) {
                // a failing logger must not unwind into RocksDB either
            }
        } finally {
            Callbacks.exit(mark);
        }
    }

    private static EventListener listener(MemorySegment state) {
        return (EventListener) Upcalls.entry(state).target();
    }

    // ---- callbacks (the stubs' targets) ---------------------------------------------------------

    private static void flushBegin(MemorySegment state, MemorySegment db, MemorySegment info) {
        deliver(state, flushInfo(info), listener(state)::onFlushBegin);
    }

    private static void flushCompleted(MemorySegment state, MemorySegment db, MemorySegment info) {
        deliver(state, flushInfo(info), listener(state)::onFlushCompleted);
    }

    private static void compactionBegin(MemorySegment state, MemorySegment db, MemorySegment info) {
        deliver(state, compactionInfo(info), listener(state)::onCompactionBegin);
    }

    private static void compactionCompleted(MemorySegment state, MemorySegment db, MemorySegment info) {
        deliver(state, compactionInfo(info), listener(state)::onCompactionCompleted);
    }

    private static void ignored(MemorySegment state, MemorySegment info) {
        // subcompactions: not delivered
    }

    private static void fileIngested(MemorySegment state, MemorySegment db, MemorySegment info) {
        ExternalFileIngestionInfo copy;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            copy = new ExternalFileIngestionInfo(
                    string(rocksdb_externalfileingestioninfo_cf_name(info, size), size),
                    string(rocksdb_externalfileingestioninfo_internal_file_path(info, size), size));
        }
        deliver(state, copy, listener(state)::onExternalFileIngested);
    }

    private static void backgroundError(MemorySegment state, int reason, MemorySegment status) {
        RocksDBException error;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errptr = arena.allocate(ADDRESS);
            rocksdb_status_ptr_get_error(status, errptr);
            error = Native.takeError(errptr, 0);
        }
        deliver(state, new BackgroundError(reason, error), listener(state)::onBackgroundError);
    }

    private static void stallChanged(MemorySegment state, MemorySegment info) {
        WriteStallInfo copy;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            copy = new WriteStallInfo(string(rocksdb_writestallinfo_cf_name(info, size), size),
                    condition(rocksdb_writestallinfo_cur(info)), condition(rocksdb_writestallinfo_prev(info)));
        }
        deliver(state, copy, listener(state)::onStallConditionsChanged);
    }

    private static void memTableSealed(MemorySegment state, MemorySegment info) {
        MemTableInfo copy;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            copy = new MemTableInfo(string(rocksdb_memtableinfo_cf_name(info, size), size),
                    rocksdb_memtableinfo_first_seqno(info), rocksdb_memtableinfo_earliest_seqno(info),
                    rocksdb_memtableinfo_num_entries(info), rocksdb_memtableinfo_num_deletes(info));
        }
        deliver(state, copy, listener(state)::onMemTableSealed);
    }

    // ---- copying the information ----------------------------------------------------------------

    /** The UTF-8 text of {@code length} bytes (in the {@code size_t} slot) at {@code chars}. */
    private static String string(MemorySegment chars, MemorySegment size) {
        long length = size.get(JAVA_LONG, 0);
        if (chars.address() == 0 || length == 0) {
            return "";
        }
        return new String(chars.reinterpret(length).toArray(ValueLayout.JAVA_BYTE),
                StandardCharsets.UTF_8);
    }

    /** RocksDB 10.x's {@code WriteStallCondition} numbering: delayed, stopped, normal. */
    private static WriteStallCondition condition(MemorySegment condition) {
        int c = condition.reinterpret(JAVA_INT.byteSize()).get(JAVA_INT, 0);
        WriteStallCondition[] all = WriteStallCondition.values();
        return c >= 0 && c < all.length ? all[c] : WriteStallCondition.NORMAL;
    }

    private static FlushJobInfo flushInfo(MemorySegment info) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            String family = string(rocksdb_flushjobinfo_cf_name(info, size), size);
            String file = string(rocksdb_flushjobinfo_file_path(info, size), size);
            return new FlushJobInfo(family, file, rocksdb_flushjobinfo_triggered_writes_slowdown(info) != 0,
                    rocksdb_flushjobinfo_triggered_writes_stop(info) != 0, rocksdb_flushjobinfo_smallest_seqno(info),
                    rocksdb_flushjobinfo_largest_seqno(info), rocksdb_flushjobinfo_flush_reason(info));
        }
    }

    /**
     * A new empty {@code rocksdb_compactionjobinfo_t} for a compactFiles call to fill, which the
     * caller frees with {@link #destroyJobInfo}.
     *
     * @throws UnsupportedOperationException if the engine lacks the function (before RocksDB 11)
     */
    static MemorySegment createJobInfo() {
        Capabilities.require("rocksdb_compactionjobinfo_create");
        MemorySegment info = rocksdb_compactionjobinfo_create();
        if (info.address() == 0) {
            throw new IllegalStateException("RocksDB returned NULL creating a compaction job info");
        }
        return info;
    }

    static void destroyJobInfo(MemorySegment info) {
        rocksdb_compactionjobinfo_destroy(info);
    }

    /** The record of a job info a compactFiles call filled. */
    static CompactionJobInfo copyJobInfo(MemorySegment info) {
        return compactionInfo(info);
    }

    private static CompactionJobInfo compactionInfo(MemorySegment info) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            MemorySegment errptr = arena.allocate(ADDRESS);
            rocksdb_compactionjobinfo_status(info, errptr);
            RocksDBException status = Native.takeError(errptr, 0);
            String family = string(rocksdb_compactionjobinfo_cf_name(info, size), size);
            List<String> inputs = new ArrayList<>();
            long n = rocksdb_compactionjobinfo_input_files_count(info);
            for (long i = 0; i < n; i++) {
                inputs.add(string(rocksdb_compactionjobinfo_input_file_at(info, i, size), size));
            }
            List<String> outputs = new ArrayList<>();
            n = rocksdb_compactionjobinfo_output_files_count(info);
            for (long i = 0; i < n; i++) {
                outputs.add(string(rocksdb_compactionjobinfo_output_file_at(info, i, size), size));
            }
            return new CompactionJobInfo(family, status, inputs, outputs, rocksdb_compactionjobinfo_elapsed_micros(info),
                    rocksdb_compactionjobinfo_num_corrupt_keys(info), rocksdb_compactionjobinfo_base_input_level(info),
                    rocksdb_compactionjobinfo_output_level(info), rocksdb_compactionjobinfo_input_records(info),
                    rocksdb_compactionjobinfo_output_records(info), rocksdb_compactionjobinfo_total_input_bytes(info),
                    rocksdb_compactionjobinfo_total_output_bytes(info),
                    rocksdb_compactionjobinfo_compaction_reason(info), rocksdb_compactionjobinfo_num_input_files(info),
                    rocksdb_compactionjobinfo_num_input_files_at_output_level(info));
        }
    }
}
