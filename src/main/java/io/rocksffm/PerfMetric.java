package io.rocksffm;

import io.rocksffm.internal.Capabilities;

/**
 * A counter of RocksDB's per-thread {@link PerfContext}, read with {@link PerfContext#metric}.
 * The constants are the C API's {@code rocksdb_perfcontext_metric} ids, in their order (the
 * ordinal is the id). Engines older than the bindings' header know fewer of them: each constant
 * names the first RocksDB version whose C API has it ({@link #since()}), and reading one the
 * loaded engine lacks throws {@link UnsupportedOperationException} (its C function would answer 0
 * without saying it does not know the id). Every engine rocksffm supports has the metrics up to
 * {@link #INTERNAL_RANGE_DEL_RESEEK_COUNT} (id 75).
 *
 * {@snippet id="PerfMetric" :
 * Map<PerfMetric, Long> moved = new EnumMap<>(PerfMetric.class);
 * for (PerfMetric metric : PerfMetric.values()) {
 *     if (metric.isAvailable() && perf.metric(metric) != 0) {   // isAvailable: engine at since() or newer
 *         moved.put(metric, perf.metric(metric));
 *     }
 * }
 * }
 */
public enum PerfMetric {
    /** {@code rocksdb_user_key_comparison_count} (id 0, since RocksDB 7.8). */
    USER_KEY_COMPARISON_COUNT("7.8"),
    /** {@code rocksdb_block_cache_hit_count} (id 1, since RocksDB 7.8). */
    BLOCK_CACHE_HIT_COUNT("7.8"),
    /** {@code rocksdb_block_read_count} (id 2, since RocksDB 7.8). */
    BLOCK_READ_COUNT("7.8"),
    /** {@code rocksdb_block_read_byte} (id 3, since RocksDB 7.8). */
    BLOCK_READ_BYTE("7.8"),
    /** {@code rocksdb_block_read_time} (id 4, since RocksDB 7.8). */
    BLOCK_READ_TIME("7.8"),
    /** {@code rocksdb_block_checksum_time} (id 5, since RocksDB 7.8). */
    BLOCK_CHECKSUM_TIME("7.8"),
    /** {@code rocksdb_block_decompress_time} (id 6, since RocksDB 7.8). */
    BLOCK_DECOMPRESS_TIME("7.8"),
    /** {@code rocksdb_get_read_bytes} (id 7, since RocksDB 7.8). */
    GET_READ_BYTES("7.8"),
    /** {@code rocksdb_multiget_read_bytes} (id 8, since RocksDB 7.8). */
    MULTIGET_READ_BYTES("7.8"),
    /** {@code rocksdb_iter_read_bytes} (id 9, since RocksDB 7.8). */
    ITER_READ_BYTES("7.8"),
    /** {@code rocksdb_internal_key_skipped_count} (id 10, since RocksDB 7.8). */
    INTERNAL_KEY_SKIPPED_COUNT("7.8"),
    /** {@code rocksdb_internal_delete_skipped_count} (id 11, since RocksDB 7.8). */
    INTERNAL_DELETE_SKIPPED_COUNT("7.8"),
    /** {@code rocksdb_internal_recent_skipped_count} (id 12, since RocksDB 7.8). */
    INTERNAL_RECENT_SKIPPED_COUNT("7.8"),
    /** {@code rocksdb_internal_merge_count} (id 13, since RocksDB 7.8). */
    INTERNAL_MERGE_COUNT("7.8"),
    /** {@code rocksdb_get_snapshot_time} (id 14, since RocksDB 7.8). */
    GET_SNAPSHOT_TIME("7.8"),
    /** {@code rocksdb_get_from_memtable_time} (id 15, since RocksDB 7.8). */
    GET_FROM_MEMTABLE_TIME("7.8"),
    /** {@code rocksdb_get_from_memtable_count} (id 16, since RocksDB 7.8). */
    GET_FROM_MEMTABLE_COUNT("7.8"),
    /** {@code rocksdb_get_post_process_time} (id 17, since RocksDB 7.8). */
    GET_POST_PROCESS_TIME("7.8"),
    /** {@code rocksdb_get_from_output_files_time} (id 18, since RocksDB 7.8). */
    GET_FROM_OUTPUT_FILES_TIME("7.8"),
    /** {@code rocksdb_seek_on_memtable_time} (id 19, since RocksDB 7.8). */
    SEEK_ON_MEMTABLE_TIME("7.8"),
    /** {@code rocksdb_seek_on_memtable_count} (id 20, since RocksDB 7.8). */
    SEEK_ON_MEMTABLE_COUNT("7.8"),
    /** {@code rocksdb_next_on_memtable_count} (id 21, since RocksDB 7.8). */
    NEXT_ON_MEMTABLE_COUNT("7.8"),
    /** {@code rocksdb_prev_on_memtable_count} (id 22, since RocksDB 7.8). */
    PREV_ON_MEMTABLE_COUNT("7.8"),
    /** {@code rocksdb_seek_child_seek_time} (id 23, since RocksDB 7.8). */
    SEEK_CHILD_SEEK_TIME("7.8"),
    /** {@code rocksdb_seek_child_seek_count} (id 24, since RocksDB 7.8). */
    SEEK_CHILD_SEEK_COUNT("7.8"),
    /** {@code rocksdb_seek_min_heap_time} (id 25, since RocksDB 7.8). */
    SEEK_MIN_HEAP_TIME("7.8"),
    /** {@code rocksdb_seek_max_heap_time} (id 26, since RocksDB 7.8). */
    SEEK_MAX_HEAP_TIME("7.8"),
    /** {@code rocksdb_seek_internal_seek_time} (id 27, since RocksDB 7.8). */
    SEEK_INTERNAL_SEEK_TIME("7.8"),
    /** {@code rocksdb_find_next_user_entry_time} (id 28, since RocksDB 7.8). */
    FIND_NEXT_USER_ENTRY_TIME("7.8"),
    /** {@code rocksdb_write_wal_time} (id 29, since RocksDB 7.8). */
    WRITE_WAL_TIME("7.8"),
    /** {@code rocksdb_write_memtable_time} (id 30, since RocksDB 7.8). */
    WRITE_MEMTABLE_TIME("7.8"),
    /** {@code rocksdb_write_delay_time} (id 31, since RocksDB 7.8). */
    WRITE_DELAY_TIME("7.8"),
    /** {@code rocksdb_write_pre_and_post_process_time} (id 32, since RocksDB 7.8). */
    WRITE_PRE_AND_POST_PROCESS_TIME("7.8"),
    /** {@code rocksdb_db_mutex_lock_nanos} (id 33, since RocksDB 7.8). */
    DB_MUTEX_LOCK_NANOS("7.8"),
    /** {@code rocksdb_db_condition_wait_nanos} (id 34, since RocksDB 7.8). */
    DB_CONDITION_WAIT_NANOS("7.8"),
    /** {@code rocksdb_merge_operator_time_nanos} (id 35, since RocksDB 7.8). */
    MERGE_OPERATOR_TIME_NANOS("7.8"),
    /** {@code rocksdb_read_index_block_nanos} (id 36, since RocksDB 7.8). */
    READ_INDEX_BLOCK_NANOS("7.8"),
    /** {@code rocksdb_read_filter_block_nanos} (id 37, since RocksDB 7.8). */
    READ_FILTER_BLOCK_NANOS("7.8"),
    /** {@code rocksdb_new_table_block_iter_nanos} (id 38, since RocksDB 7.8). */
    NEW_TABLE_BLOCK_ITER_NANOS("7.8"),
    /** {@code rocksdb_new_table_iterator_nanos} (id 39, since RocksDB 7.8). */
    NEW_TABLE_ITERATOR_NANOS("7.8"),
    /** {@code rocksdb_block_seek_nanos} (id 40, since RocksDB 7.8). */
    BLOCK_SEEK_NANOS("7.8"),
    /** {@code rocksdb_find_table_nanos} (id 41, since RocksDB 7.8). */
    FIND_TABLE_NANOS("7.8"),
    /** {@code rocksdb_bloom_memtable_hit_count} (id 42, since RocksDB 7.8). */
    BLOOM_MEMTABLE_HIT_COUNT("7.8"),
    /** {@code rocksdb_bloom_memtable_miss_count} (id 43, since RocksDB 7.8). */
    BLOOM_MEMTABLE_MISS_COUNT("7.8"),
    /** {@code rocksdb_bloom_sst_hit_count} (id 44, since RocksDB 7.8). */
    BLOOM_SST_HIT_COUNT("7.8"),
    /** {@code rocksdb_bloom_sst_miss_count} (id 45, since RocksDB 7.8). */
    BLOOM_SST_MISS_COUNT("7.8"),
    /** {@code rocksdb_key_lock_wait_time} (id 46, since RocksDB 7.8). */
    KEY_LOCK_WAIT_TIME("7.8"),
    /** {@code rocksdb_key_lock_wait_count} (id 47, since RocksDB 7.8). */
    KEY_LOCK_WAIT_COUNT("7.8"),
    /** {@code rocksdb_env_new_sequential_file_nanos} (id 48, since RocksDB 7.8). */
    ENV_NEW_SEQUENTIAL_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_new_random_access_file_nanos} (id 49, since RocksDB 7.8). */
    ENV_NEW_RANDOM_ACCESS_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_new_writable_file_nanos} (id 50, since RocksDB 7.8). */
    ENV_NEW_WRITABLE_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_reuse_writable_file_nanos} (id 51, since RocksDB 7.8). */
    ENV_REUSE_WRITABLE_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_new_random_rw_file_nanos} (id 52, since RocksDB 7.8). */
    ENV_NEW_RANDOM_RW_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_new_directory_nanos} (id 53, since RocksDB 7.8). */
    ENV_NEW_DIRECTORY_NANOS("7.8"),
    /** {@code rocksdb_env_file_exists_nanos} (id 54, since RocksDB 7.8). */
    ENV_FILE_EXISTS_NANOS("7.8"),
    /** {@code rocksdb_env_get_children_nanos} (id 55, since RocksDB 7.8). */
    ENV_GET_CHILDREN_NANOS("7.8"),
    /** {@code rocksdb_env_get_children_file_attributes_nanos} (id 56, since RocksDB 7.8). */
    ENV_GET_CHILDREN_FILE_ATTRIBUTES_NANOS("7.8"),
    /** {@code rocksdb_env_delete_file_nanos} (id 57, since RocksDB 7.8). */
    ENV_DELETE_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_create_dir_nanos} (id 58, since RocksDB 7.8). */
    ENV_CREATE_DIR_NANOS("7.8"),
    /** {@code rocksdb_env_create_dir_if_missing_nanos} (id 59, since RocksDB 7.8). */
    ENV_CREATE_DIR_IF_MISSING_NANOS("7.8"),
    /** {@code rocksdb_env_delete_dir_nanos} (id 60, since RocksDB 7.8). */
    ENV_DELETE_DIR_NANOS("7.8"),
    /** {@code rocksdb_env_get_file_size_nanos} (id 61, since RocksDB 7.8). */
    ENV_GET_FILE_SIZE_NANOS("7.8"),
    /** {@code rocksdb_env_get_file_modification_time_nanos} (id 62, since RocksDB 7.8). */
    ENV_GET_FILE_MODIFICATION_TIME_NANOS("7.8"),
    /** {@code rocksdb_env_rename_file_nanos} (id 63, since RocksDB 7.8). */
    ENV_RENAME_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_link_file_nanos} (id 64, since RocksDB 7.8). */
    ENV_LINK_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_lock_file_nanos} (id 65, since RocksDB 7.8). */
    ENV_LOCK_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_unlock_file_nanos} (id 66, since RocksDB 7.8). */
    ENV_UNLOCK_FILE_NANOS("7.8"),
    /** {@code rocksdb_env_new_logger_nanos} (id 67, since RocksDB 7.8). */
    ENV_NEW_LOGGER_NANOS("7.8"),
    /** {@code rocksdb_number_async_seek} (id 68, since RocksDB 7.8). */
    NUMBER_ASYNC_SEEK("7.8"),
    /** {@code rocksdb_blob_cache_hit_count} (id 69, since RocksDB 7.8). */
    BLOB_CACHE_HIT_COUNT("7.8"),
    /** {@code rocksdb_blob_read_count} (id 70, since RocksDB 7.8). */
    BLOB_READ_COUNT("7.8"),
    /** {@code rocksdb_blob_read_byte} (id 71, since RocksDB 7.8). */
    BLOB_READ_BYTE("7.8"),
    /** {@code rocksdb_blob_read_time} (id 72, since RocksDB 7.8). */
    BLOB_READ_TIME("7.8"),
    /** {@code rocksdb_blob_checksum_time} (id 73, since RocksDB 7.8). */
    BLOB_CHECKSUM_TIME("7.8"),
    /** {@code rocksdb_blob_decompress_time} (id 74, since RocksDB 7.8). */
    BLOB_DECOMPRESS_TIME("7.8"),
    /** {@code rocksdb_internal_range_del_reseek_count} (id 75, since RocksDB 7.8). */
    INTERNAL_RANGE_DEL_RESEEK_COUNT("7.8"),
    /** {@code rocksdb_block_read_cpu_time} (id 76, since RocksDB 8.3). */
    BLOCK_READ_CPU_TIME("8.3"),
    /** {@code rocksdb_internal_merge_point_lookup_count} (id 77, since RocksDB 10.4). */
    INTERNAL_MERGE_POINT_LOOKUP_COUNT("10.4"),
    /** {@code rocksdb_data_block_read_byte} (id 78, since RocksDB 11.1). */
    DATA_BLOCK_READ_BYTE("11.1"),
    /** {@code rocksdb_index_block_read_byte} (id 79, since RocksDB 11.1). */
    INDEX_BLOCK_READ_BYTE("11.1"),
    /** {@code rocksdb_filter_block_read_byte} (id 80, since RocksDB 11.1). */
    FILTER_BLOCK_READ_BYTE("11.1"),
    /** {@code rocksdb_compression_dict_block_read_byte} (id 81, since RocksDB 11.1). */
    COMPRESSION_DICT_BLOCK_READ_BYTE("11.1"),
    /** {@code rocksdb_metadata_block_read_byte} (id 82, since RocksDB 11.1). */
    METADATA_BLOCK_READ_BYTE("11.1"),
    /** {@code rocksdb_blob_cache_read_byte} (id 83, since RocksDB 11.1). */
    BLOB_CACHE_READ_BYTE("11.1");

    private final String since;

    PerfMetric(String since) {
        this.since = since;
    }

    /** {@return the first RocksDB version whose C API has this metric, e.g. {@code "7.8"}} */
    public String since() {
        return since;
    }

    /**
     * Whether the loaded engine knows this metric (it is at least {@link #since()}).
     *
     * @return true if {@link PerfContext#metric} can read it
     */
    public boolean isAvailable() {
        return since.equals("7.8") || Capabilities.engineAtLeast(since);
    }

    /** The C id, after checking the engine knows it. */
    int id() {
        if (!isAvailable()) {
            throw new UnsupportedOperationException("perf context metric " + name() + " (id " + ordinal()
                    + ") is not available: it is in the C API from RocksDB " + since + " on, and the engine is "
                    + Capabilities.engineDescription());
        }
        return ordinal();
    }
}
