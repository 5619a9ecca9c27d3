/*
 * capi_bench: the physical limit for the JMH comparison. The same loops as the Java benchmarks,
 * written directly against RocksDB's C API and linked (by scripts/bench.sh) to the very library
 * file inside the rocksdbjni jar that both Java bindings use. No binding, no JVM: what is left is
 * the engine and the C API's own per-call costs.
 *
 *   capi_bench get   DBDIR   keyCount keySize valueSize seconds [keyOrder]
 *       point reads of a dataset (written by io.rocksffm.jmh.Datasets), keys round-robin
 *       (keyOrder roundRobin, the default) or always the middle key (keyOrder single):
 *       getArray        rocksdb_get (malloc'd copy) + rocksdb_free
 *       getPreallocated rocksdb_get_pinned + memcpy into a preallocated buffer + destroy
 *       getPinned       rocksdb_get_pinned, read the first value byte, destroy
 *   capi_bench batch WORKDIR keyCount keySize valueSize numOpsPerBatch writeToDB seconds
 *       rocksdb_writebatch_put of round-robin keys into one reused batch; every numOpsPerBatch
 *       puts, rocksdb_write (if writeToDB is 1) and rocksdb_writebatch_clear. WORKDIR must be
 *       empty or absent (a fresh database with default options is created there).
 *   capi_bench scan  DBDIR   keyCount keySize valueSize seconds
 *       full forward scans of a dataset: new iterator, seek_to_first, every entry, destroy:
 *       scan      rocksdb_iter_key + rocksdb_iter_value (pointers, no copy)
 *       scanCopy  the same plus memcpy of key and value into preallocated buffers
 *
 * Datasets are opened read-only with the options the Java benchmarks use: defaults plus an LRU
 * block cache of data + 25% + 64 MiB (io.rocksffm.jmh.Bench.blockCacheBytes).
 *
 * Output, one line per measurement, for io.rocksffm.jmh.report.Report:
 *   class,variant,params,ops_per_s      (params as k=v;k=v, matching the JMH parameter names)
 * An op is what the JMH benchmark of the same class and variant counts as one: one get, one put
 * into the batch, one full scan. Each loop runs untimed for a quarter of `seconds` first.
 */
#include <rocksdb/c.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "capi_bench: %s: %s\n", what, err);
        exit(1);
    }
}

static void die(const char *msg) {
    fprintf(stderr, "capi_bench: %s\n", msg);
    exit(1);
}

/* The Java key format: the decimal counter, '0'-padded to keySize; only the last `digits` bytes
 * are rewritten. */
typedef struct {
    char *buf;
    size_t size;
    int digits;
} keyfmt;

static keyfmt key_init(size_t key_size, uint64_t key_count) {
    keyfmt k;
    char tmp[32];
    k.digits = snprintf(tmp, sizeof tmp, "%" PRIu64, key_count - 1);
    if ((size_t) k.digits > key_size) {
        die("keySize too small for keyCount");
    }
    k.size = key_size;
    k.buf = malloc(key_size);
    memset(k.buf, '0', key_size);
    return k;
}

static inline void key_write(keyfmt *k, uint64_t index) {
    for (size_t p = k->size; p > k->size - (size_t) k->digits; p--) {
        k->buf[p - 1] = (char) ('0' + index % 10);
        index /= 10;
    }
}

static volatile uint64_t sink; /* keeps results observable */

static rocksdb_t *open_dataset(const char *dir, uint64_t key_count, size_t key_size, size_t value_size,
                               rocksdb_options_t **opts_out, rocksdb_cache_t **cache_out) {
    uint64_t data = key_count * (key_size + value_size);
    uint64_t cache_bytes = data + data / 4 + (64ull << 20);
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_block_based_table_options_t *table = rocksdb_block_based_options_create();
    rocksdb_cache_t *cache = rocksdb_cache_create_lru(cache_bytes);
    rocksdb_block_based_options_set_block_cache(table, cache);
    rocksdb_options_set_block_based_table_factory(opts, table);
    rocksdb_block_based_options_destroy(table);
    char *err = NULL;
    rocksdb_t *db = rocksdb_open_for_read_only(opts, dir, 0, &err);
    check(err, "open_for_read_only");
    *opts_out = opts;
    *cache_out = cache;
    return db;
}

/* ---- get ------------------------------------------------------------------------------------- */

enum { GET_ARRAY, GET_PREALLOCATED, GET_PINNED };

static double run_get(rocksdb_t *db, rocksdb_readoptions_t *ro, keyfmt *k, uint64_t key_count, int single,
                      char *out, size_t out_size, int variant, double seconds) {
    uint64_t next = 0, ops = 0, acc = 0;
    char *err = NULL;
    double start = now(), end = start + seconds, t;
    if (single) {
        key_write(k, key_count / 2);
    }
    do {
        for (int i = 0; i < 1000; i++) {
            if (!single) {
                key_write(k, next);
                if (++next == key_count) {
                    next = 0;
                }
            }
            size_t len;
            if (variant == GET_ARRAY) {
                char *v = rocksdb_get(db, ro, k->buf, k->size, &len, &err);
                check(err, "get");
                if (v == NULL) {
                    die("key not found");
                }
                acc += (unsigned char) v[0];
                rocksdb_free(v);
            } else {
                rocksdb_pinnableslice_t *s = rocksdb_get_pinned(db, ro, k->buf, k->size, &err);
                check(err, "get_pinned");
                if (s == NULL) {
                    die("key not found");
                }
                const char *v = rocksdb_pinnableslice_value(s, &len);
                if (variant == GET_PREALLOCATED) {
                    memcpy(out, v, len < out_size ? len : out_size);
                    acc += (unsigned char) out[0];
                } else {
                    acc += (unsigned char) v[0];
                }
                rocksdb_pinnableslice_destroy(s);
            }
        }
        ops += 1000;
        t = now();
    } while (t < end);
    sink += acc;
    return ops / (t - start);
}

static int cmd_get(int argc, char **argv) {
    if (argc != 7 && argc != 8) {
        die("usage: capi_bench get DBDIR keyCount keySize valueSize seconds [roundRobin|single]");
    }
    const char *order = argc == 8 ? argv[7] : "roundRobin";
    int single = strcmp(order, "single") == 0;
    if (!single && strcmp(order, "roundRobin") != 0) {
        die("keyOrder must be roundRobin or single");
    }
    const char *dir = argv[2];
    uint64_t key_count = strtoull(argv[3], NULL, 10);
    size_t key_size = strtoull(argv[4], NULL, 10);
    size_t value_size = strtoull(argv[5], NULL, 10);
    double seconds = atof(argv[6]);
    rocksdb_options_t *opts;
    rocksdb_cache_t *cache;
    rocksdb_t *db = open_dataset(dir, key_count, key_size, value_size, &opts, &cache);
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    keyfmt k = key_init(key_size, key_count);
    char *out = malloc(value_size);
    static const char *names[] = {"getArray", "getPreallocated", "getPinned"};
    for (int v = GET_ARRAY; v <= GET_PINNED; v++) {
        run_get(db, ro, &k, key_count, single, out, value_size, v, seconds / 4);
        double ops = run_get(db, ro, &k, key_count, single, out, value_size, v, seconds);
        printf("GetBenchmarks,%s,keyCount=%" PRIu64 ";keyOrder=%s;keySize=%zu;valueSize=%zu,%.1f\n",
               names[v], key_count, order, key_size, value_size, ops);
        fflush(stdout);
    }
    free(out);
    free(k.buf);
    rocksdb_readoptions_destroy(ro);
    rocksdb_close(db);
    rocksdb_options_destroy(opts);
    rocksdb_cache_destroy(cache);
    return 0;
}

/* ---- batch ----------------------------------------------------------------------------------- */

static double run_batch(rocksdb_t *db, rocksdb_writeoptions_t *wo, rocksdb_writebatch_t *wb, keyfmt *k,
                        uint64_t key_count, const char *value, size_t value_size, int ops_per_batch,
                        int write_to_db, double seconds) {
    uint64_t next = 0, ops = 0;
    int in_batch = 0;
    char *err = NULL;
    double start = now(), end = start + seconds, t;
    do {
        for (int i = 0; i < 1000; i++) {
            key_write(k, next);
            if (++next == key_count) {
                next = 0;
            }
            rocksdb_writebatch_put(wb, k->buf, k->size, value, value_size);
            if (++in_batch == ops_per_batch) {
                in_batch = 0;
                if (write_to_db) {
                    rocksdb_write(db, wo, wb, &err);
                    check(err, "write");
                }
                rocksdb_writebatch_clear(wb);
            }
        }
        ops += 1000;
        t = now();
    } while (t < end);
    return ops / (t - start);
}

static int cmd_batch(int argc, char **argv) {
    if (argc != 9) {
        die("usage: capi_bench batch WORKDIR keyCount keySize valueSize numOpsPerBatch writeToDB seconds");
    }
    const char *dir = argv[2];
    uint64_t key_count = strtoull(argv[3], NULL, 10);
    size_t key_size = strtoull(argv[4], NULL, 10);
    size_t value_size = strtoull(argv[5], NULL, 10);
    int ops_per_batch = atoi(argv[6]);
    int write_to_db = atoi(argv[7]);
    double seconds = atof(argv[8]);
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(opts, 1);
    char *err = NULL;
    rocksdb_t *db = rocksdb_open(opts, dir, &err);
    check(err, "open");
    rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
    rocksdb_writebatch_t *wb = rocksdb_writebatch_create();
    keyfmt k = key_init(key_size, key_count);
    char *value = malloc(value_size);
    for (size_t i = 0; i < value_size; i++) {
        value[i] = (char) (i * 131 + 7);
    }
    run_batch(db, wo, wb, &k, key_count, value, value_size, ops_per_batch, write_to_db, seconds / 4);
    rocksdb_writebatch_clear(wb);
    double ops = run_batch(db, wo, wb, &k, key_count, value, value_size, ops_per_batch, write_to_db, seconds);
    static const char *names[] = {"putBatchArray", "putBatchNative"};
    for (int v = 0; v < 2; v++) {
        printf("WriteBatchBenchmarks,%s,keyCount=%" PRIu64 ";keySize=%zu;valueSize=%zu;numOpsPerBatch=%d;writeToDB=%s,%.1f\n",
               names[v], key_count, key_size, value_size, ops_per_batch, write_to_db ? "true" : "false", ops);
    }
    fflush(stdout);
    free(value);
    free(k.buf);
    rocksdb_writebatch_destroy(wb);
    rocksdb_writeoptions_destroy(wo);
    rocksdb_close(db);
    rocksdb_options_destroy(opts);
    return 0;
}

/* ---- scan ------------------------------------------------------------------------------------ */

static double run_scan(rocksdb_t *db, rocksdb_readoptions_t *ro, uint64_t key_count, char *kbuf, size_t ksize,
                       char *vbuf, size_t vsize, int copy, double seconds) {
    uint64_t scans = 0, acc = 0;
    double start = now(), end = start + seconds, t;
    do {
        rocksdb_iterator_t *it = rocksdb_create_iterator(db, ro);
        uint64_t n = 0;
        for (rocksdb_iter_seek_to_first(it); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
            size_t kl, vl;
            const char *key = rocksdb_iter_key(it, &kl);
            const char *value = rocksdb_iter_value(it, &vl);
            if (copy) {
                memcpy(kbuf, key, kl < ksize ? kl : ksize);
                memcpy(vbuf, value, vl < vsize ? vl : vsize);
                acc += (unsigned char) kbuf[0] + (unsigned char) vbuf[0];
            } else {
                acc += kl + vl + (uintptr_t) key + (uintptr_t) value;
            }
            n++;
        }
        char *err = NULL;
        rocksdb_iter_get_error(it, &err);
        check(err, "iterator");
        rocksdb_iter_destroy(it);
        if (n != key_count) {
            die("scan saw the wrong number of entries");
        }
        scans++;
        t = now();
    } while (t < end);
    sink += acc;
    return scans / (t - start);
}

static int cmd_scan(int argc, char **argv) {
    if (argc != 7) {
        die("usage: capi_bench scan DBDIR keyCount keySize valueSize seconds");
    }
    const char *dir = argv[2];
    uint64_t key_count = strtoull(argv[3], NULL, 10);
    size_t key_size = strtoull(argv[4], NULL, 10);
    size_t value_size = strtoull(argv[5], NULL, 10);
    double seconds = atof(argv[6]);
    rocksdb_options_t *opts;
    rocksdb_cache_t *cache;
    rocksdb_t *db = open_dataset(dir, key_count, key_size, value_size, &opts, &cache);
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    char *kbuf = malloc(key_size);
    char *vbuf = malloc(value_size);
    static const char *names[] = {"scan", "scanCopy"};
    for (int copy = 0; copy < 2; copy++) {
        run_scan(db, ro, key_count, kbuf, key_size, vbuf, value_size, copy, seconds / 4);
        double ops = run_scan(db, ro, key_count, kbuf, key_size, vbuf, value_size, copy, seconds);
        printf("IteratorBenchmarks,%s,keyCount=%" PRIu64 ";keySize=%zu;valueSize=%zu,%.3f\n",
               names[copy], key_count, key_size, value_size, ops);
        fflush(stdout);
    }
    free(kbuf);
    free(vbuf);
    rocksdb_readoptions_destroy(ro);
    rocksdb_close(db);
    rocksdb_options_destroy(opts);
    rocksdb_cache_destroy(cache);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "get") == 0) {
        return cmd_get(argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "batch") == 0) {
        return cmd_batch(argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "scan") == 0) {
        return cmd_scan(argc, argv);
    }
    fprintf(stderr, "usage: capi_bench get|batch|scan ... (see the comment at the top of capi_bench.c)\n");
    return 2;
}
