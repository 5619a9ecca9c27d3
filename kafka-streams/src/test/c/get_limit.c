/*
 * get_limit: the physical limit of StoreBench's get phase (issue 33). Replays, on RocksDB's C API
 * and linked to the very library file inside the rocksdbjni jar that both Java stores use, what
 * io.rocksffm.kafka.bench.GetLimitBench does to the stores: the same 200,000 writes in the same
 * order (16-byte keys, one 100-byte value), a write batch with the changelog offset (into an
 * "offsets" column family) every 10,000 writes, the WAL off; then the same random gets, in rounds.
 * The database is opened with the options both stores set (Kafka's RocksDBStore defaults): atomic
 * flush, universal compaction, 16 MiB write buffers (up to 3), a 50 MiB LRU block cache, 4 KiB
 * blocks, a 10-bit Bloom filter, optimize_filters_for_hits, no compression, info log at ERROR,
 * increase_parallelism(max(cores, 2)).
 *
 *   get_limit DUMPFILE DBDIR ROUNDS [NDBS]
 *
 * With NDBS 2 (the default) two such databases are filled and read alternately in chunks of 1,000,
 * as StoreBench and GetLimitBench alternate the two stores (the other database's reads evict part
 * of the CPU caches between chunks); NDBS 1 reads one database only. Database 0 is written as the
 * rocksffm store writes (each commit's batch in key order: its uncommitted writes are a sorted map),
 * database 1 as Kafka's store writes (each put as it comes); the rates are printed per database.
 *
 * DUMPFILE is GetLimitBench's -Dbench.dump output (big-endian int32 keys, gets, commitEvery, then
 * the order, the gets, the 100 value bytes). DBDIR must be absent or empty. Three loops per round,
 * interleaved in chunks of 1,000 gets (rotating which runs first), each of them one Java get's
 * worth of engine work:
 *   get          rocksdb_get_cf (a malloc'd copy of the value, as rocksdbjni's get copies it into a
 *                new byte[]) + rocksdb_free
 *   into_buffer  rocksdb_get_into_buffer_cf into a reused buffer (what rocksffm's get calls)
 *   pinned       rocksdb_get_pinned_cf + rocksdb_pinnableslice_destroy (no copy at all)
 */
#define _GNU_SOURCE
#include <rocksdb/c.h>

#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef unsigned char (*get_into_buffer_cf_fn)(rocksdb_t *db, const rocksdb_readoptions_t *options,
                                               rocksdb_column_family_handle_t *column_family, const char *key,
                                               size_t keylen, char *buffer, size_t buffer_size, size_t *vallen,
                                               unsigned char *found, char **errptr);

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "get_limit: %s: %s\n", what, err);
        exit(1);
    }
}

static uint32_t be32(const unsigned char *p) {
    return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | p[3];
}

static void put_be64(char *p, uint64_t v) {
    for (int i = 7; i >= 0; i--) {
        p[i] = (char) (v & 0xff);
        v >>= 8;
    }
}

/* StoreBench's key: ByteBuffer.allocate(16).putLong(0x6b6579).putLong(i) */
static void make_key(char *buf, int i) {
    put_be64(buf, 0x6b6579ull);
    put_be64(buf + 8, (uint64_t) (int64_t) i);
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *) a, y = *(const int *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: get_limit DUMPFILE DBDIR ROUNDS [NDBS]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    unsigned char hdr[12];
    if (fread(hdr, 1, 12, f) != 12) {
        fprintf(stderr, "short dump\n");
        return 1;
    }
    int keys = (int) be32(hdr), gets = (int) be32(hdr + 4), commit_every = (int) be32(hdr + 8);
    size_t n = (size_t) keys + gets;
    unsigned char *raw = malloc(n * 4);
    char value[100];
    if (fread(raw, 4, n, f) != n || fread(value, 1, 100, f) != 100) {
        fprintf(stderr, "short dump\n");
        return 1;
    }
    fclose(f);
    int *order = malloc(sizeof(int) * keys), *get = malloc(sizeof(int) * gets);
    for (int i = 0; i < keys; i++) order[i] = (int) be32(raw + 4 * i);
    for (int i = 0; i < gets; i++) get[i] = (int) be32(raw + 4 * (keys + i));
    int rounds = atoi(argv[3]);
    int ndbs = argc == 5 ? atoi(argv[4]) : 2;
    if (ndbs < 1 || ndbs > 2) {
        fprintf(stderr, "NDBS must be 1 or 2\n");
        return 2;
    }

    rocksdb_options_t *opts = rocksdb_options_create();
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    rocksdb_options_increase_parallelism(opts, cores > 2 ? (int) cores : 2);
    rocksdb_options_set_create_if_missing(opts, 1);
    rocksdb_options_set_create_missing_column_families(opts, 1);
    rocksdb_options_set_atomic_flush(opts, 1);
    rocksdb_options_set_compaction_style(opts, rocksdb_universal_compaction);
    rocksdb_options_set_max_write_buffer_number(opts, 3);
    rocksdb_options_set_write_buffer_size(opts, 16u << 20);
    rocksdb_options_set_optimize_filters_for_hits(opts, 1);
    rocksdb_options_set_compression(opts, rocksdb_no_compression);
    rocksdb_options_set_info_log_level(opts, 3 /* ERROR_LEVEL */);
    rocksdb_block_based_table_options_t *table = rocksdb_block_based_options_create();
    rocksdb_cache_t *cache = rocksdb_cache_create_lru(50u << 20);
    rocksdb_block_based_options_set_block_cache(table, cache);
    rocksdb_block_based_options_set_block_size(table, 4096);
    rocksdb_block_based_options_set_filter_policy(table, rocksdb_filterpolicy_create_bloom_full(10));
    rocksdb_options_set_block_based_table_factory(opts, table);

    const char *cf_names[2] = {"default", "offsets"};
    const rocksdb_options_t *cf_opts[2] = {opts, opts};
    rocksdb_t *dbs[2];
    rocksdb_column_family_handle_t *datas[2], *offsetss[2];
    char *err = NULL;
    for (int d = 0; d < ndbs; d++) {
        char path[4096];
        snprintf(path, sizeof path, "%s-%d", argv[2], d);
        rocksdb_column_family_handle_t *cfs[2];
        dbs[d] = rocksdb_open_column_families(opts, path, 2, cf_names, cf_opts, cfs, &err);
        check(err, "open");
        datas[d] = cfs[0];
        offsetss[d] = cfs[1];
    }

    rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
    rocksdb_writeoptions_disable_WAL(wo, 1);
    rocksdb_writebatch_t *batch = rocksdb_writebatch_create();
    char key[16];
    const char *tp = "bench-changelog-0";
    int *sorted = malloc(sizeof(int) * keys);
    memcpy(sorted, order, sizeof(int) * keys);
    for (int from = 0; from < keys; from += commit_every) { /* sort each commit's keys (keys sort as ints: >= 0) */
        int to = from + commit_every < keys ? from + commit_every : keys;
        qsort(sorted + from, to - from, sizeof(int), cmp_int);
    }
    for (int d = 0; d < ndbs; d++) {
        for (int i = 0; i < keys; i++) {
            make_key(key, d == 0 ? sorted[i] : order[i]);
            rocksdb_writebatch_put_cf(batch, datas[d], key, 16, value, 100);
            if ((i + 1) % commit_every == 0 || i == keys - 1) {
                char off[8];
                put_be64(off, (uint64_t) i);
                rocksdb_writebatch_put_cf(batch, offsetss[d], tp, strlen(tp), off, 8);
                rocksdb_write(dbs[d], wo, batch, &err);
                check(err, "write");
                rocksdb_writebatch_clear(batch);
            }
        }
    }
    sleep(2); /* let background flushes settle, as GetLimitBench does */
    const char *props[] = {"rocksdb.num-entries-active-mem-table", "rocksdb.num-entries-imm-mem-tables",
                           "rocksdb.total-sst-files-size", "rocksdb.estimate-num-keys"};
    for (int p = 0; p < 4; p++) {
        uint64_t v = 0;
        rocksdb_property_int_cf(dbs[0], datas[0], props[p], &v);
        printf("  %-40s %" PRIu64 "\n", props[p], v);
    }
    char *l0 = rocksdb_property_value_cf(dbs[0], datas[0], "rocksdb.num-files-at-level0");
    printf("  %-40s %s\n", "rocksdb.num-files-at-level0", l0 ? l0 : "?");

    get_into_buffer_cf_fn into_buffer = (get_into_buffer_cf_fn) dlsym(RTLD_DEFAULT, "rocksdb_get_into_buffer_cf");
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    const char *names[3] = {"get", "into_buffer", "pinned"};
    char buf[4096];
    double best[3][2] = {{0, 0}, {0, 0}};
    int chunk = 1000;
    for (int round = 0; round <= rounds; round++) {
        double secs[3][2] = {{0, 0}, {0, 0}, {0, 0}};
        uint64_t found[3] = {0, 0, 0};
        for (int from = 0; from < gets; from += chunk) {
            int to = from + chunk < gets ? from + chunk : gets;
            for (int q = 0; q < 3; q++) {
                int v = (q + from / chunk) % 3;
                if (v == 1 && into_buffer == NULL) continue;
                for (int d = 0; d < ndbs; d++) {
                rocksdb_t *db = dbs[d];
                rocksdb_column_family_handle_t *data = datas[d];
                double start = now();
                uint64_t bytes = 0;
                for (int i = from; i < to; i++) {
                    make_key(key, get[i]);
                    if (v == 0) {
                        size_t len;
                        char *val = rocksdb_get_cf(db, ro, data, key, 16, &len, &err);
                        check(err, "get");
                        bytes += val ? len : 0;
                        rocksdb_free(val);
                    } else if (v == 1) {
                        size_t len;
                        unsigned char hit;
                        into_buffer(db, ro, data, key, 16, buf, sizeof buf, &len, &hit, &err);
                        check(err, "get_into_buffer");
                        bytes += hit ? len : 0;
                    } else {
                        rocksdb_pinnableslice_t *s = rocksdb_get_pinned_cf(db, ro, data, key, 16, &err);
                        check(err, "get_pinned");
                        if (s) {
                            size_t len;
                            rocksdb_pinnableslice_value(s, &len);
                            bytes += len;
                            rocksdb_pinnableslice_destroy(s);
                        }
                    }
                }
                secs[v][d] += now() - start;
                found[v] += bytes;
                }
            }
        }
        printf("round %d%s:", round, round == 0 ? " (warm-up)" : "");
        for (int v = 0; v < 3; v++) {
            if (found[v] != (uint64_t) gets * 100 * ndbs && !(v == 1 && into_buffer == NULL)) {
                fprintf(stderr, "get_limit: %s found %" PRIu64 " bytes\n", names[v], found[v]);
                return 1;
            }
            for (int d = 0; d < ndbs; d++) {
                double rate = secs[v][d] > 0 ? (double) gets / secs[v][d] : 0;
                if (round > 0 && rate > best[v][d]) best[v][d] = rate;
                printf("  %s/db%d %.0f", names[v], d, rate);
            }
        }
        printf("\n");
    }
    printf("best:");
    for (int v = 0; v < 3; v++) {
        for (int d = 0; d < ndbs; d++) printf("  %s/db%d %.0f", names[v], d, best[v][d]);
    }
    printf("\n");
    for (int d = 0; d < ndbs; d++) {
        rocksdb_column_family_handle_destroy(offsetss[d]);
        rocksdb_column_family_handle_destroy(datas[d]);
        rocksdb_close(dbs[d]);
    }
    return 0;
}
