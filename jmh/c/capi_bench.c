/*
 * capi_bench: the physical limit for the JMH comparison. The same loops as the Java benchmarks,
 * written directly against RocksDB's C API and linked (by scripts/bench.sh) to the very library
 * file inside the rocksdbjni jar that both Java bindings use. No binding, no JVM: what is left is
 * the engine and the C API's own per-call costs.
 *
 *   capi_bench get   DBDIR   keyCount keySize valueSize seconds [keyOrder]
 *       point reads of a dataset (written by io.rocksffm.jmh.Datasets), keys round-robin
 *       (keyOrder roundRobin, the default), random (the same xorshift sequence as
 *       io.rocksffm.jmh.Bench.KeyChooser) or always the middle key (single). Each JMH row's limit
 *       is the cheapest C call sequence that delivers what that row's Java call delivers:
 *       getArray        a value of its own that the caller frees (the Java calls return a new
 *                       byte[]): rocksdb_get (one malloc'd copy) + rocksdb_free. (On 10.x,
 *                       rocksdb_get_into_buffer_cf into a scratch buffer + malloc + memcpy + free
 *                       is the other way; it copies twice, and measured within this machine's noise of
 *                       rocksdb_get, never clearly faster.)
 *       getIntoArray,   the value copied into the caller's preallocated buffer: one
 *       getPreallocated rocksdb_get_into_buffer_cf (RocksDB 10.9+), into a buffer of valueSize
 *                       bytes. Both rows are that one loop. Engines without it (Debian's 7.8.3)
 *                       get rocksdb_get_pinned + memcpy + rocksdb_pinnableslice_destroy instead,
 *                       with a note on stderr. The header this file compiles against (7.8.3) lacks
 *                       the function: it is resolved at run time with dlsym(RTLD_DEFAULT, ...)
 *                       through a typedef of its documented prototype.
 *       getPinned       rocksdb_get_pinned, read the first value byte, destroy
 *   capi_bench put   WORKDIR keyCount keySize valueSize seconds
 *       rocksdb_put of round-robin keys with the same value bytes every time, default write
 *       options (WAL on, no sync), into a fresh database with default options (create_if_missing):
 *       what PutBenchmarks does. putArray, putDirect and putSegment differ only in how Java
 *       hands over the bytes; in C all three are one rocksdb_put, so one loop is printed for
 *       all three. The loop first runs untimed as long as it is then measured (the JMH runs
 *       warm up for as long as they measure, and a put's cost depends on how much has been
 *       written: memtable flushes, compactions). WORKDIR must be empty or absent.
 *   capi_bench batch WORKDIR keyCount keySize valueSize numOpsPerBatch writeToDB seconds
 *       rocksdb_writebatch_put of round-robin keys into one reused batch; every numOpsPerBatch
 *       puts, rocksdb_write (if writeToDB is 1) and rocksdb_writebatch_clear. WORKDIR must be
 *       empty or absent (a fresh database with default options is created there).
 *   capi_bench scan  DBDIR   keyCount keySize valueSize seconds
 *       full forward scans of a dataset: new iterator, seek_to_first, every entry, destroy:
 *       scan      rocksdb_iter_key + rocksdb_iter_value (pointers, no copy)
 *       scanCopy  the same plus memcpy of key and value into preallocated buffers
 *
 *   capi_bench txn   WORKDIR keyCount keySize valueSize seconds
 *       TransactionBenchmarks' four loops, each on a fresh database under WORKDIR (default
 *       options, default write options), one reused transaction (old_txn), round-robin keys:
 *       tenPuts           rocksdb_transaction_begin, 10 rocksdb_transaction_put, commit
 *       lockedUpdate      begin, rocksdb_transaction_get_for_update (exclusive; the value freed),
 *                         put, commit
 *       optimisticCommit  rocksdb_optimistictransaction_begin, get_for_update, put, commit
 *       wbwiPutGet        rocksdb_writebatch_wi_put + rocksdb_writebatch_wi_get_from_batch (the
 *                         value freed); the batch cleared every 1000 ops
 *
 * Datasets are opened read-only with the options the Java benchmarks use: defaults plus an LRU
 * block cache of data + 25% + 64 MiB (io.rocksffm.jmh.Bench.blockCacheBytes).
 *
 * Output, one line per measurement, for io.rocksffm.jmh.report.Report:
 *   class,variant,params,ops_per_s      (params as k=v;k=v, matching the JMH parameter names)
 * An op is what the JMH benchmark of the same class and variant counts as one: one get, one put,
 * one put into the batch, one full scan. Except for put, each loop runs untimed for a quarter of
 * `seconds` first. With CAPI_VARIANT set to a variant's name, get, scan and txn run only the loop
 * printed under that name (bench.sh runs the C loop right after each pair, for its variant).
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "capi_common.h"

#include <dlfcn.h>

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

/* ---- get ----------------------------------------------------------------------------------- */

/* rocksdb_get_into_buffer_cf (RocksDB 10.9+; not in the 7.8.3 header this file compiles against),
 * from its documented prototype: copies the value into buffer if it fits (returns 1), else copies
 * nothing (returns 0); *vallen is the value's size, *found 0 when the key is absent. */
typedef unsigned char (*get_into_buffer_cf_fn)(rocksdb_t *db, const rocksdb_readoptions_t *options,
                                               rocksdb_column_family_handle_t *column_family, const char *key,
                                               size_t keylen, char *buffer, size_t buffer_size, size_t *vallen,
                                               unsigned char *found, char **errptr);

/* rocksdb_get_default_column_family_handle is 10.x only as well (added in 8.x). */
typedef rocksdb_column_family_handle_t *(*get_default_cf_fn)(rocksdb_t *db);

/* The keyOrder parameter: io.rocksffm.jmh.Bench.KeyChooser, the same sequences. */
enum { ORDER_ROUND_ROBIN, ORDER_RANDOM, ORDER_SINGLE };

typedef struct {
    int mode;
    uint64_t key_count, next, state;
} chooser;

static chooser chooser_init(int mode, uint64_t key_count) {
    chooser c = {mode, key_count, 0, 0x2545F4914F6CDD1Dull};
    return c;
}

static inline uint64_t chooser_next(chooser *c) {
    if (c->mode == ORDER_ROUND_ROBIN) {
        uint64_t i = c->next;
        c->next = i + 1 == c->key_count ? 0 : i + 1;
        return i;
    }
    if (c->mode == ORDER_RANDOM) {
        uint64_t x = c->state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        c->state = x;
        uint64_t r = (x * 0x2545F4914F6CDD1Dull) >> 32; /* 32 random bits */
        return (r * c->key_count) >> 32;
    }
    return c->key_count / 2;
}

enum { GET_ARRAY, GET_INTO_BUFFER, GET_PINNED, GET_PINNED_COPY };

typedef struct {
    rocksdb_t *db;
    rocksdb_readoptions_t *ro;
    rocksdb_column_family_handle_t *cf;  /* NULL unless into_buffer */
    get_into_buffer_cf_fn into_buffer;   /* NULL on engines without it */
} getter;

static double run_get(getter *g, keyfmt *k, uint64_t key_count, int order, char *out, size_t out_size,
                      int variant, double seconds) {
    uint64_t ops = 0, acc = 0;
    chooser c = chooser_init(order, key_count);
    char *err = NULL;
    double start = now(), end = start + seconds, t;
    if (order == ORDER_SINGLE) {
        key_write(k, key_count / 2);
    }
    do {
        for (int i = 0; i < 1000; i++) {
            if (order != ORDER_SINGLE) {
                key_write(k, chooser_next(&c));
            }
            size_t len;
            if (variant == GET_ARRAY) {
                char *v = rocksdb_get(g->db, g->ro, k->buf, k->size, &len, &err);
                check(err, "get");
                if (v == NULL) {
                    die("key not found");
                }
                acc += (unsigned char) v[0];
                rocksdb_free(v);
            } else if (variant == GET_INTO_BUFFER) {
                unsigned char found;
                unsigned char fits = g->into_buffer(g->db, g->ro, g->cf, k->buf, k->size, out, out_size, &len,
                                                    &found, &err);
                check(err, "get_into_buffer_cf");
                if (!found) {
                    die("key not found");
                }
                if (!fits) {
                    die("value larger than valueSize");
                }
                acc += (unsigned char) out[0];
            } else {
                rocksdb_pinnableslice_t *s = rocksdb_get_pinned(g->db, g->ro, k->buf, k->size, &err);
                check(err, "get_pinned");
                if (s == NULL) {
                    die("key not found");
                }
                const char *v = rocksdb_pinnableslice_value(s, &len);
                if (variant == GET_PINNED_COPY) {
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

static int parse_order(const char *order) {
    if (strcmp(order, "roundRobin") == 0) {
        return ORDER_ROUND_ROBIN;
    }
    if (strcmp(order, "random") == 0) {
        return ORDER_RANDOM;
    }
    if (strcmp(order, "single") == 0) {
        return ORDER_SINGLE;
    }
    die("keyOrder must be roundRobin, random or single");
    return -1;
}

static int cmd_get(int argc, char **argv) {
    if (argc != 7 && argc != 8) {
        die("usage: capi_bench get DBDIR keyCount keySize valueSize seconds [roundRobin|random|single]");
    }
    const char *order_name = argc == 8 ? argv[7] : "roundRobin";
    int order = parse_order(order_name);
    const args a = args_parse(argv);
    double seconds = atof(argv[6]);
    rocksdb_options_t *opts;
    rocksdb_cache_t *cache;
    getter g = {0};
    g.db = open_dataset(a.dir, a.key_count, a.key_size, a.value_size, &opts, &cache);
    g.ro = rocksdb_readoptions_create();
    g.into_buffer = (get_into_buffer_cf_fn) dlsym(RTLD_DEFAULT, "rocksdb_get_into_buffer_cf");
    get_default_cf_fn default_cf = (get_default_cf_fn) dlsym(RTLD_DEFAULT, "rocksdb_get_default_column_family_handle");
    if (g.into_buffer != NULL && default_cf != NULL) {
        g.cf = default_cf(g.db);
    } else {
        g.into_buffer = NULL;
        fprintf(stderr, "capi_bench: the engine has no rocksdb_get_into_buffer_cf (RocksDB < 10.9): "
                        "getIntoArray and getPreallocated measure rocksdb_get_pinned + memcpy instead\n");
    }
    keyfmt k = key_init(a.key_size, a.key_count);
    char *out = malloc(a.value_size);
    /* one loop per distinct C call sequence; getIntoArray and getPreallocated share one */
    static const struct {
        int variant;
        const char *names[2];
    } loops[] = {
        {GET_ARRAY, {"getArray", NULL}},
        {GET_INTO_BUFFER, {"getIntoArray", "getPreallocated"}},
        {GET_PINNED, {"getPinned", NULL}},
    };
    for (size_t l = 0; l < sizeof loops / sizeof loops[0]; l++) {
        if (!wanted(loops[l].names[0]) && !wanted(loops[l].names[1])) {
            continue;
        }
        int v = loops[l].variant;
        if (v == GET_INTO_BUFFER && g.into_buffer == NULL) {
            v = GET_PINNED_COPY;
        }
        run_get(&g, &k, a.key_count, order, out, a.value_size, v, seconds / 4);
        double ops = run_get(&g, &k, a.key_count, order, out, a.value_size, v, seconds);
        for (int n = 0; n < 2 && loops[l].names[n] != NULL; n++) {
            printf("GetBenchmarks,%s,keyCount=%" PRIu64 ";keyOrder=%s;keySize=%zu;valueSize=%zu,%.1f\n",
                   loops[l].names[n], a.key_count, order_name, a.key_size, a.value_size, ops);
        }
        fflush(stdout);
    }
    free(out);
    free(k.buf);
    if (g.cf != NULL) {
        rocksdb_column_family_handle_destroy(g.cf);
    }
    rocksdb_readoptions_destroy(g.ro);
    rocksdb_close(g.db);
    rocksdb_options_destroy(opts);
    rocksdb_cache_destroy(cache);
    return 0;
}

/* ---- put ------------------------------------------------------------------------------------- */

static double run_put(rocksdb_t *db, rocksdb_writeoptions_t *wo, keyfmt *k, uint64_t key_count, uint64_t *next,
                      const char *value, size_t value_size, double seconds) {
    uint64_t ops = 0;
    char *err = NULL;
    double start = now(), end = start + seconds, t;
    do {
        for (int i = 0; i < 100; i++) {
            key_write(k, *next);
            if (++*next == key_count) {
                *next = 0;
            }
            rocksdb_put(db, wo, k->buf, k->size, value, value_size, &err);
            check(err, "put");
        }
        ops += 100;
        t = now();
    } while (t < end);
    return ops / (t - start);
}

static int cmd_put(int argc, char **argv) {
    if (argc != 7) {
        die("usage: capi_bench put WORKDIR keyCount keySize valueSize seconds");
    }
    const args a = args_parse(argv);
    double seconds = atof(argv[6]);
    rocksdb_options_t *opts;
    rocksdb_t *db = open_fresh(a.dir, &opts);
    rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
    keyfmt k = key_init(a.key_size, a.key_count);
    /* incompressible bytes, like the Java side's io.rocksffm.jmh.Bench.value */
    char *value = malloc(a.value_size);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < a.value_size; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        value[i] = (char) (x >> 24);
    }
    uint64_t next = 0;
    run_put(db, wo, &k, a.key_count, &next, value, a.value_size, seconds);
    double ops = run_put(db, wo, &k, a.key_count, &next, value, a.value_size, seconds);
    static const char *names[] = {"putArray", "putDirect", "putSegment"};
    for (int v = 0; v < 3; v++) {
        printf("PutBenchmarks,%s,keyCount=%" PRIu64 ";keySize=%zu;valueSize=%zu,%.1f\n",
               names[v], a.key_count, a.key_size, a.value_size, ops);
    }
    fflush(stdout);
    free(value);
    free(k.buf);
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
    const args a = args_parse(argv);
    double seconds = atof(argv[6]);
    rocksdb_options_t *opts;
    rocksdb_cache_t *cache;
    rocksdb_t *db = open_dataset(a.dir, a.key_count, a.key_size, a.value_size, &opts, &cache);
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    char *kbuf = malloc(a.key_size);
    char *vbuf = malloc(a.value_size);
    static const char *names[] = {"scan", "scanCopy"};
    for (int copy = 0; copy < 2; copy++) {
        if (!wanted(names[copy])) {
            continue;
        }
        run_scan(db, ro, a.key_count, kbuf, a.key_size, vbuf, a.value_size, copy, seconds / 4);
        double ops = run_scan(db, ro, a.key_count, kbuf, a.key_size, vbuf, a.value_size, copy, seconds);
        printf("IteratorBenchmarks,%s,keyCount=%" PRIu64 ";keySize=%zu;valueSize=%zu,%.3f\n",
               names[copy], a.key_count, a.key_size, a.value_size, ops);
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
    if (argc >= 2 && strcmp(argv[1], "put") == 0) {
        return cmd_put(argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "batch") == 0) {
        return cmd_batch(argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "txn") == 0) {
        return cmd_txn(argc, argv);
    }
    if (argc >= 2 && strcmp(argv[1], "scan") == 0) {
        return cmd_scan(argc, argv);
    }
    fprintf(stderr, "usage: capi_bench get|put|batch|txn|scan ... (see the comment at the top of capi_bench.c)\n");
    return 2;
}
