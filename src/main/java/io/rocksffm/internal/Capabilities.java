package io.rocksffm.internal;

import io.rocksffm.internal.capi.HeaderInfo;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.SymbolLookup;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Which of the generated bindings' C functions the loaded engine can be called through.
 *
 * <p>The bindings are generated from one header (RocksDB {@value #HEADER_VERSION}'s
 * {@code rocksdb/c.h}); the engines rocksffm supports are older or newer builds of RocksDB. A
 * generated function is <em>callable</em> on the loaded engine when the engine exports it and,
 * for the few functions whose C signature changed between supported versions
 * in how they are called ({@link #SIGNATURE_CHANGED}), the engine is at least the version where the header's signature
 * took effect. Calling through a wrong signature is undefined behaviour, and calling a symbol the
 * engine lacks makes the generated holder class fail to initialise, so every call of a function
 * that some supported engine lacks goes through {@link #require} or {@link #callable} first.
 *
 * <p>{@code CapabilitiesTest} checks, on each engine, that every {@code rocksdb_*} function
 * {@code src/main} names is either exported by that engine or listed in {@link #GATED}, and that
 * {@link #SIGNATURE_CHANGED}, {@link #CONST_ONLY_CHANGES} and {@link #REMOVED_IN_11} equal the
 * lists derived by comparing the older engines' headers (7.8.3, 10.10.1, and any other the test
 * finds) with the generated bindings.
 */
public final class Capabilities {
    /** The RocksDB version of the header the bindings were generated from. */
    public static final String HEADER_VERSION = HeaderInfo.ROCKSDB_VERSION;

    /**
     * Functions whose C signature in the generated bindings differs from an older supported
     * engine's header (7.8.3, 10.1.3, 10.10.1) in how they are called, each with the first RocksDB
     * version whose signature the bindings match: calling them through the bindings on an older
     * engine would be undefined behaviour, so they are callable only from that version on (an
     * older shape that rocksffm still needs comes from {@link OlderShapes}). Derived by comparing
     * the headers (prototypes without parameter names); checked by {@code CapabilitiesTest}. The
     * versions come from RocksDB's history of {@code c.h}: parameters added to the plain-table
     * factory in 8.5, the {@code force} parameter of {@code rocksdb_enable_file_deletions}
     * removed in 9.0, the {@code in_range} callback of {@code rocksdb_slicetransform_create}
     * removed in 11.0.
     */
    public static final Map<String, String> SIGNATURE_CHANGED = Map.of(
            "rocksdb_options_set_plain_table_factory", "8.5",
            "rocksdb_enable_file_deletions", "9.0",
            "rocksdb_slicetransform_create", "11.0");

    /**
     * Functions that the 10.x engines export and the bindings' header no longer declares (RocksDB
     * 11.0 removed them): rocksffm never calls them. Checked by {@code CapabilitiesTest}.
     */
    public static final Set<String> REMOVED_IN_11 = Set.of(
            "rocksdb_writebatch_wi_create_from",
            "rocksdb_readoptions_set_managed",
            "rocksdb_options_get_skip_checking_sst_file_sizes_on_db_open",
            "rocksdb_options_set_skip_checking_sst_file_sizes_on_db_open");

    /**
     * Functions whose prototype changed between an older supported engine's header and the
     * bindings' only by {@code const} on a pointer parameter, each with the version of the change
     * (8.3): the function descriptor, and so the call, is the same on every engine, so they are not
     * gated. Checked by {@code CapabilitiesTest}.
     */
    public static final Map<String, String> CONST_ONLY_CHANGES = Map.of(
            "rocksdb_cache_create_lru_opts", "8.3",
            "rocksdb_cache_get_capacity", "8.3",
            "rocksdb_cache_get_usage", "8.3",
            "rocksdb_cache_get_pinned_usage", "8.3");

    /**
     * A function every engine of version {@value #MARKER_SINCE} or later exports: when the engine's
     * version is unknown (a library loaded by path, without a version in its name) but it exports
     * this, it is at least that version, which is after the 8.5 and 9.0 changes in
     * {@link #SIGNATURE_CHANGED}.
     */
    private static final String MARKER = "rocksdb_get_into_buffer_cf";
    private static final String MARKER_SINCE = "10.9";
    /**
     * A function every engine before {@value #REMOVED_MARKER_UNTIL} exports and no later one
     * does (removed with the {@code in_range} callback, in RocksDB 11.0): an engine of unknown
     * version that exports {@link #MARKER} but not this is at least 11.0.
     */
    private static final String REMOVED_MARKER = "rocksdb_readoptions_set_managed";
    private static final String REMOVED_MARKER_UNTIL = "11.0";

    /**
     * Functions that {@code src/main} calls only behind {@link #require} or {@link #callable},
     * because some supported engine lacks them (or has them with another signature); the settings
     * table's are {@link GatedSettings#FUNCTIONS}.
     */
    public static final Set<String> GATED = Set.of(
            "rocksdb_get_into_buffer_cf",
            // calls rocksdbjni has: flushing several families (8.1), backup metadata (11.8)
            "rocksdb_flush_cfs",
            "rocksdb_backup_engine_create_new_backup_with_metadata",
            "rocksdb_backup_engine_info_app_metadata",
            // column families and compaction control: absent from 7.8.3
            "rocksdb_approximate_sizes_cf_with_flags",
            "rocksdb_create_column_families",
            "rocksdb_create_column_families_destroy",
            "rocksdb_create_column_family_with_import",
            "rocksdb_checkpoint_export_column_family",
            "rocksdb_import_column_family_options_create",
            "rocksdb_import_column_family_options_destroy",
            "rocksdb_export_import_files_metadata_destroy",
            "rocksdb_export_import_files_metadata_get_db_comparator_name",
            "rocksdb_export_import_files_metadata_get_files",
            "rocksdb_sst_file_metadata_get_directory",
            "rocksdb_wait_for_compact",
            "rocksdb_wait_for_compact_options_create",
            "rocksdb_wait_for_compact_options_destroy",
            // user-defined timestamps: RocksDB 11's; the C comparator with timestamps is in every engine, gated anyway
            "rocksdb_comparator_with_ts_create",
            "rocksdb_get_full_history_ts_low",
            "rocksdb_options_set_plain_table_factory",
            "rocksdb_enable_file_deletions",
            // RocksDB 11.0 removed in_range; older engines are called through OlderShapes
            "rocksdb_slicetransform_create",
            // shared resources and event listeners: absent from 7.8.3
            "rocksdb_ratelimiter_create_with_mode",
            "rocksdb_options_set_write_buffer_manager",
            "rocksdb_write_buffer_manager_create",
            "rocksdb_write_buffer_manager_create_with_cache",
            "rocksdb_write_buffer_manager_destroy",
            "rocksdb_write_buffer_manager_enabled",
            "rocksdb_write_buffer_manager_cost_to_cache",
            "rocksdb_write_buffer_manager_memory_usage",
            "rocksdb_write_buffer_manager_mutable_memtable_memory_usage",
            "rocksdb_write_buffer_manager_dummy_entries_in_cache_usage",
            "rocksdb_write_buffer_manager_buffer_size",
            "rocksdb_write_buffer_manager_set_buffer_size",
            "rocksdb_write_buffer_manager_set_allow_stall",
            "rocksdb_eventlistener_create",
            "rocksdb_options_add_eventlistener",
            "rocksdb_flushjobinfo_cf_name",
            "rocksdb_flushjobinfo_file_path",
            "rocksdb_flushjobinfo_triggered_writes_slowdown",
            "rocksdb_flushjobinfo_triggered_writes_stop",
            "rocksdb_flushjobinfo_largest_seqno",
            "rocksdb_flushjobinfo_smallest_seqno",
            "rocksdb_flushjobinfo_flush_reason",
            "rocksdb_compactionjobinfo_status",
            "rocksdb_compactionjobinfo_cf_name",
            "rocksdb_compactionjobinfo_input_files_count",
            "rocksdb_compactionjobinfo_input_file_at",
            "rocksdb_compactionjobinfo_output_files_count",
            "rocksdb_compactionjobinfo_output_file_at",
            "rocksdb_compactionjobinfo_elapsed_micros",
            "rocksdb_compactionjobinfo_num_corrupt_keys",
            "rocksdb_compactionjobinfo_base_input_level",
            "rocksdb_compactionjobinfo_output_level",
            "rocksdb_compactionjobinfo_input_records",
            "rocksdb_compactionjobinfo_output_records",
            "rocksdb_compactionjobinfo_total_input_bytes",
            "rocksdb_compactionjobinfo_total_output_bytes",
            "rocksdb_compactionjobinfo_compaction_reason",
            "rocksdb_compactionjobinfo_num_input_files",
            "rocksdb_compactionjobinfo_num_input_files_at_output_level",
            "rocksdb_externalfileingestioninfo_cf_name",
            "rocksdb_externalfileingestioninfo_internal_file_path",
            "rocksdb_writestallinfo_cf_name",
            "rocksdb_writestallinfo_cur",
            "rocksdb_writestallinfo_prev",
            "rocksdb_memtableinfo_cf_name",
            "rocksdb_memtableinfo_first_seqno",
            "rocksdb_memtableinfo_earliest_seqno",
            "rocksdb_memtableinfo_num_entries",
            "rocksdb_memtableinfo_num_deletes",
            "rocksdb_status_ptr_get_error",
            "rocksdb_transactiondb_get_base_db",
            "rocksdb_transactiondb_close_base_db",
            "rocksdb_transaction_multi_get_for_update_cf",
            // log data in a transaction, and tracing: RocksDB 11.8
            "rocksdb_transaction_put_log_data",
            "rocksdb_trace_options_create",
            "rocksdb_trace_options_destroy",
            "rocksdb_trace_options_set_max_trace_file_size",
            "rocksdb_trace_options_set_sampling_frequency",
            "rocksdb_trace_options_set_filter",
            "rocksdb_trace_options_set_preserve_write_order",
            "rocksdb_start_trace",
            "rocksdb_end_trace",
            // the pinned read through an indexed batch: not in 7.8.3 or 10.1.3
            "rocksdb_writebatch_wi_get_pinned_from_batch_and_db_cf",
            // RocksDB 8.6 (typed statistics) and later: not in 7.8.3
            "rocksdb_options_set_statistics_level",
            "rocksdb_options_get_statistics_level",
            "rocksdb_options_statistics_get_ticker_count",
            "rocksdb_options_statistics_get_histogram_data",
            "rocksdb_statistics_histogram_data_create",
            "rocksdb_statistics_histogram_data_destroy",
            "rocksdb_statistics_histogram_data_get_median",
            "rocksdb_statistics_histogram_data_get_p95",
            "rocksdb_statistics_histogram_data_get_p99",
            "rocksdb_statistics_histogram_data_get_average",
            "rocksdb_statistics_histogram_data_get_std_dev",
            "rocksdb_statistics_histogram_data_get_max",
            "rocksdb_statistics_histogram_data_get_count",
            "rocksdb_statistics_histogram_data_get_sum",
            "rocksdb_statistics_histogram_data_get_min",
            // RocksDB 9.x: the default family's handle of a single-family open (Opening.SINGLE_READ_ONLY)
            "rocksdb_get_default_column_family_handle",
            // RocksDB 11: compacting chosen files, database options, checksums,
            // background work, the WAL list, backups with options, read options
            "rocksdb_compaction_options_create",
            "rocksdb_compaction_options_destroy",
            "rocksdb_compaction_options_canceled_create",
            "rocksdb_compaction_options_canceled_set",
            "rocksdb_compaction_options_canceled_destroy",
            "rocksdb_compaction_options_set_canceled",
            "rocksdb_compact_files_cf",
            "rocksdb_compact_files_output_file_names_destroy",
            "rocksdb_compactionjobinfo_create",
            "rocksdb_compactionjobinfo_destroy",
            "rocksdb_set_db_options",
            "rocksdb_verify_checksum",
            "rocksdb_verify_checksum_with_options",
            "rocksdb_pause_background_work",
            "rocksdb_continue_background_work",
            "rocksdb_get_sorted_wal_files",
            "rocksdb_get_current_wal_file",
            "rocksdb_wal_files_count",
            "rocksdb_wal_files_get_wal_file",
            "rocksdb_wal_files_destroy",
            "rocksdb_wal_file_destroy",
            "rocksdb_wal_file_path_name",
            "rocksdb_wal_file_log_number",
            "rocksdb_wal_file_type",
            "rocksdb_wal_file_start_sequence",
            "rocksdb_wal_file_size_file_bytes",
            "rocksdb_create_backup_options_create",
            "rocksdb_create_backup_options_destroy",
            "rocksdb_create_backup_options_set_flush_before_backup",
            "rocksdb_create_backup_options_get_flush_before_backup",
            "rocksdb_create_backup_options_set_atomic_flush",
            "rocksdb_create_backup_options_get_atomic_flush",
            "rocksdb_create_backup_options_set_decrease_background_thread_cpu_priority",
            "rocksdb_create_backup_options_get_decrease_background_thread_cpu_priority",
            "rocksdb_create_backup_options_set_background_thread_cpu_priority",
            "rocksdb_create_backup_options_get_background_thread_cpu_priority",
            "rocksdb_create_backup_options_set_progress_callback",
            "rocksdb_backup_engine_create_new_backup_with_options",
            "rocksdb_backup_engine_stop_backup",
            // typed options: absent from 7.8.3, or (the directories' getters) before 11
            "rocksdb_options_get_wal_dir",
            "rocksdb_options_get_db_log_dir",
            "rocksdb_block_based_options_set_optimize_filters_for_memory",
            "rocksdb_snapshot_get_sequence_number",
            "rocksdb_cache_create_hyper_clock",
            // observability and environment: absent from 7.8.3
            "rocksdb_logger_create_callback_logger",
            "rocksdb_logger_create_stderr_logger",
            "rocksdb_logger_destroy",
            "rocksdb_iter_refresh",
            "rocksdb_options_set_sst_file_manager",
            "rocksdb_sst_file_manager_create",
            "rocksdb_sst_file_manager_destroy",
            "rocksdb_sst_file_manager_set_max_allowed_space_usage",
            "rocksdb_sst_file_manager_set_compaction_buffer_size",
            "rocksdb_sst_file_manager_is_max_allowed_space_reached",
            "rocksdb_sst_file_manager_is_max_allowed_space_reached_including_compactions",
            "rocksdb_sst_file_manager_get_total_size",
            "rocksdb_sst_file_manager_get_delete_rate_bytes_per_second",
            "rocksdb_sst_file_manager_set_delete_rate_bytes_per_second",
            "rocksdb_sst_file_manager_get_max_trash_db_ratio",
            "rocksdb_sst_file_manager_set_max_trash_db_ratio",
            "rocksdb_sst_file_manager_get_total_trash_size");

    private static final Map<String, Boolean> EXPORTED = new ConcurrentHashMap<>();

    /**
     * Every function called behind the gate: {@link #GATED} and the settings table's
     * ({@link GatedSettings}, loaded only when asked: not at open).
     */
    public static Set<String> gated() {
        Set<String> all = new TreeSet<>(GATED);
        all.addAll(GatedSettings.FUNCTIONS);
        return Set.copyOf(all);
    }

    private Capabilities() {}

    /** Whether the loaded engine exports the symbol {@code function}. */
    public static boolean exports(String function) {
        NativeLibrary.load();
        return EXPORTED.computeIfAbsent(function, f -> SymbolLookup.loaderLookup().find(f).isPresent());
    }

    /**
     * Whether {@code function} can be called through the generated bindings on the loaded
     * engine: exported, and with the signature the bindings were generated with.
     */
    public static boolean callable(String function) {
        return reason(function) == null;
    }

    /**
     * Throws {@link UnsupportedOperationException} unless {@link #callable(String) callable}; its
     * message names the public method that needs {@code function} (found on the stack, only when
     * refusing), then the C function, the engine's version and the first RocksDB release that has it.
     */
    public static void require(String function) {
        String why = reason(function);
        if (why != null) {
            throw new UnsupportedOperationException(publicCaller() + " " + why);
        }
    }

    /**
     * {@link #require(String)} naming {@code javaMethod} (e.g. {@code "DatabaseAdmin.flush(List, FlushOptions)"}).
     *
     * @param javaMethod the public method that needs the function
     * @param function   the C function
     */
    public static void require(String javaMethod, String function) {
        String why = reason(function);
        if (why != null) {
            throw new UnsupportedOperationException(javaMethod + " " + why);
        }
    }

    /**
     * {@link #require} for a function whose older engines misbehave (abort the process in a build
     * with assertions, as the system's 7.8.3 is): also refuses engines before {@code since}, or
     * of unknown version, saying {@code why}.
     */
    public static void requireSince(String function, String since, String why) {
        require(function);
        String version = knownOrInferredVersion();
        if (version == null || compareVersions(version, since) < 0) {
            throw new UnsupportedOperationException(publicCaller() + " needs " + function
                    + ", which rocksffm calls only on RocksDB " + since + " or later; the engine is " + describe()
                    + ": before RocksDB " + since + " " + why);
        }
    }

    /**
     * The public rocksffm method on the current thread's stack that led here: the last frame of
     * {@code io.rocksffm} (not its internal packages) before the caller's own code, as
     * {@code Class.method}. Walks the stack: for refusals only.
     */
    static String publicCaller() {
        Object home = codeSource(Capabilities.class);
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).walk(frames -> {
            String last = null;
            for (StackWalker.StackFrame f : (Iterable<StackWalker.StackFrame>) frames::iterator) {
                Class<?> c = f.getDeclaringClass();
                boolean ours = Objects.equals(codeSource(c), home);
                if (ours && "io.rocksffm".equals(c.getPackageName()) && !f.getMethodName().startsWith("lambda$")) {
                    Class<?> top = c;
                    while (top.getEnclosingClass() != null) {
                        top = top.getEnclosingClass();
                    }
                    String m = f.getMethodName();
                    last = m.equals("<init>") ? "new " + top.getSimpleName()
                            : m.equals("<clinit>") ? top.getSimpleName() : top.getSimpleName() + "." + m;
                } else if (!ours && last != null) {
                    break;
                }
            }
            return last == null ? "This call" : last;
        });
    }

    private static Object codeSource(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        return source == null ? null : source.getLocation();
    }

    /**
     * Why {@code function} cannot be called on the loaded engine (a sentence that follows the name
     * of the Java method needing it), or null if it can.
     */
    private static String reason(String function) {
        return reason(function, exports(function), Capabilities::knownOrInferredVersion);
    }

    /**
     * {@link #reason(String)} on an engine that exports {@code function} or not ({@code exported}),
     * of the version {@code engineVersion} gives (asked only for a changed signature; null if unknown).
     */
    static String reason(String function, boolean exported, Supplier<String> engineVersion) {
        if (!exported) {
            String first = firstVersion(function);
            return "needs " + function + ", which the RocksDB engine " + describe() + " does not export"
                    + (first == null ? "" : " (RocksDB has it from " + first + " on)");
        }
        String since = SIGNATURE_CHANGED.get(function);
        if (since == null) {
            return null;
        }
        String version = engineVersion.get();
        if (version == null) {
            return "needs " + function + ", whose C signature changed in RocksDB " + since
                    + ", and the version of the engine " + describe() + " is unknown";
        }
        if (compareVersions(version, since) < 0) {
            return "needs " + function + ", which the RocksDB engine " + describe()
                    + " has with the signature of versions before " + since + " (the one rocksffm calls is from " + since
                    + " on)";
        }
        return null;
    }

    private static volatile Map<String, String> firstVersions;

    /**
     * The first RocksDB release whose {@code c.h} declares {@code function}, for the functions
     * RocksDB 7.8.3 lacks (the resource {@code first-versions.txt}, written from RocksDB's history
     * by {@code scripts/first-versions.sh}), or null.
     */
    public static String firstVersion(String function) {
        Map<String, String> m = firstVersions;
        if (m == null) {
            m = new HashMap<>();
            try (InputStream in = Capabilities.class.getResourceAsStream("first-versions.txt")) {
                if (in != null) {
                    for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                        String[] parts = line.trim().split(" ");
                        if (parts.length == 2 && !line.startsWith("#")) {
                            m.put(parts[0], parts[1]);
                        }
                    }
                }
            } catch (IOException e) {
                // no versions to name: the message goes without
            }
            firstVersions = m;
        }
        return m.get(function);
    }

    /**
     * The engine's version, or when it is unknown the oldest version its exports prove (from
     * {@link #MARKER} and {@link #REMOVED_MARKER}), or null.
     */
    static String knownOrInferredVersion() {
        return knownOrInferredVersion(NativeLibrary.load().version(), Capabilities::exports);
    }

    /** {@link #knownOrInferredVersion()} of an engine of version {@code known} (or null) that exports what {@code exports} says. */
    static String knownOrInferredVersion(String known, Predicate<String> exports) {
        if (known != null || !exports.test(MARKER)) {
            return known;
        }
        return exports.test(REMOVED_MARKER) ? MARKER_SINCE : REMOVED_MARKER_UNTIL;
    }

    /**
     * Whether the loaded engine is at least {@code version}: its known version, or when unknown
     * the oldest version its exports prove; false when neither says (for features without a
     * function of their own to gate on, like the ids of newer perf context metrics).
     *
     * @param version a dotted version, e.g. {@code "11.1"}
     * @return whether the engine is known to be that version or later
     */
    public static boolean engineAtLeast(String version) {
        String known = knownOrInferredVersion();
        return known != null && compareVersions(known, version) >= 0;
    }

    /** {@return a description of the loaded engine (its version and where it was loaded from)} */
    public static String engineDescription() {
        return describe();
    }

    /**
     * Whether the engine's batched multi-get on a TTL database strips the 4-byte timestamp from
     * the values, as its get does: {@code DBWithTTL} overrides that multi-get from RocksDB 9.0 on,
     * the version that also first exports {@code rocksdb_logger_create_stderr_logger} (checked
     * by the export rather than the version, which may be unknown).
     */
    public static boolean ttlMultiGetStripsTimestamps() {
        return exports("rocksdb_logger_create_stderr_logger");
    }

    private static String describe() {
        NativeLibrary.Loaded l = NativeLibrary.load();
        return (l.version() == null ? "of unknown version" : l.version()) + " (" + l.source()
                + (l.path() == null ? "" : ", " + l.path()) + ")";
    }

    /**
     * Compares dotted version strings numerically ({@code "10.10.1.1"} after {@code "10.9"}); a
     * missing component counts as 0.
     */
    public static int compareVersions(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Integer.compare(i < x.length ? Integer.parseInt(x[i]) : 0, i < y.length ? Integer.parseInt(y[i]) : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
