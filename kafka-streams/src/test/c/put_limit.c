/*
 * put_limit: the engine's own cost of one put of PutBench, outside the JVM. Linked to the library
 * file inside the rocksdbjni jar that both Java stores use, it opens a database with the options
 * both stores set (Kafka's RocksDBStore defaults: atomic flush, universal compaction, 16 MiB write
 * buffers (up to 3), a 50 MiB LRU block cache, a 10-bit Bloom filter, optimize_filters_for_hits,
 * no compression, increase_parallelism(2)) and a second column family beside the default one, and
 * puts PutBench's keys (16 bytes: "key" as a big-endian long, then a shuffled index as one) with a
 * 100-byte value into the default family, the WAL off, one rocksdb_put_cf per put. Prints the
 * thread CPU time per put of each round and the best.
 *
 *   put_limit DBDIR [KEYS [ROUNDS]]      (DBDIR must not exist; each round uses and destroys it)
 */
#include <rocksdb/c.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu_nanos(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static void check(char *err) {
    if (err != NULL) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: put_limit DBDIR [KEYS [ROUNDS]]\n");
        return 2;
    }
    const char *dir = argv[1];
    int keys = argc > 2 ? atoi(argv[2]) : 200000;
    int rounds = argc > 3 ? atoi(argv[3]) : 7;
    int *order = malloc(sizeof(int) * (size_t) keys);
    unsigned char (*key)[16] = malloc(16 * (size_t) keys);
    for (int i = 0; i < keys; i++) {
        order[i] = i;
    }
    srand(42);
    for (int i = keys - 1; i > 0; i--) {
        int j = rand() % (i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < keys; i++) {
        uint64_t prefix = 0x6b6579ULL, index = (uint64_t) order[i];
        for (int b = 0; b < 8; b++) {
            key[i][b] = (unsigned char) (prefix >> (56 - 8 * b));
            key[i][8 + b] = (unsigned char) (index >> (56 - 8 * b));
        }
    }
    char value[100];
    for (int i = 0; i < 100; i++) {
        value[i] = (char) (i * 31);
    }
    double best = 1e300;
    for (int r = 0; r < rounds; r++) {
        rocksdb_options_t *options = rocksdb_options_create();
        rocksdb_options_set_create_if_missing(options, 1);
        rocksdb_options_set_create_missing_column_families(options, 1);
        rocksdb_options_set_atomic_flush(options, 1);
        rocksdb_options_set_compaction_style(options, rocksdb_universal_compaction);
        rocksdb_options_set_max_write_buffer_number(options, 3);
        rocksdb_options_set_optimize_filters_for_hits(options, 1);
        rocksdb_options_increase_parallelism(options, 2);
        rocksdb_options_set_write_buffer_size(options, 16 << 20);
        rocksdb_options_set_compression(options, rocksdb_no_compression);
        rocksdb_block_based_table_options_t *table = rocksdb_block_based_options_create();
        rocksdb_cache_t *cache = rocksdb_cache_create_lru(50 << 20);
        rocksdb_block_based_options_set_block_cache(table, cache);
        rocksdb_block_based_options_set_filter_policy(table, rocksdb_filterpolicy_create_bloom(10));
        rocksdb_options_set_block_based_table_factory(options, table);
        const char *names[] = {"default", "offsets"};
        const rocksdb_options_t *family_options[] = {options, options};
        rocksdb_column_family_handle_t *families[2];
        char *err = NULL;
        rocksdb_t *db = rocksdb_open_column_families(options, dir, 2, names, family_options, families, &err);
        check(err);
        rocksdb_writeoptions_t *write = rocksdb_writeoptions_create();
        rocksdb_writeoptions_disable_WAL(write, 1);
        double start = cpu_nanos();
        for (int i = 0; i < keys; i++) {
            rocksdb_put_cf(db, write, families[0], (const char *) key[i], 16, value, sizeof value, &err);
            check(err);
        }
        double per_put = (cpu_nanos() - start) / 1e3 / keys;
        if (per_put < best) {
            best = per_put;
        }
        printf("round %d: thread cpu %.3f us per put\n", r, per_put);
        rocksdb_writeoptions_destroy(write);
        rocksdb_column_family_handle_destroy(families[0]);
        rocksdb_column_family_handle_destroy(families[1]);
        rocksdb_close(db);
        rocksdb_destroy_db(options, dir, &err);
        check(err);
        rocksdb_options_destroy(options);
        rocksdb_block_based_options_destroy(table);
        rocksdb_cache_destroy(cache);
    }
    printf("best: thread cpu %.3f us per put\n", best);
    free(order);
    free(key);
    return 0;
}
