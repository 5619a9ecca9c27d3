/*
 * capi_bench batch and txn: the write-batch and transaction loops (see capi_bench.c's header
 * comment for what each prints and measures).
 */
#include "capi_common.h"

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

int cmd_batch(int argc, char **argv) {
    if (argc != 9) {
        die("usage: capi_bench batch WORKDIR keyCount keySize valueSize numOpsPerBatch writeToDB seconds");
    }
    const args a = args_parse(argv);
    int ops_per_batch = atoi(argv[6]);
    int write_to_db = atoi(argv[7]);
    double seconds = atof(argv[8]);
    rocksdb_options_t *opts;
    rocksdb_t *db = open_fresh(a.dir, &opts);
    rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
    rocksdb_writebatch_t *wb = rocksdb_writebatch_create();
    keyfmt k = key_init(a.key_size, a.key_count);
    char *value = value_init(a.value_size);
    run_batch(db, wo, wb, &k, a.key_count, value, a.value_size, ops_per_batch, write_to_db, seconds / 4);
    rocksdb_writebatch_clear(wb);
    double ops = run_batch(db, wo, wb, &k, a.key_count, value, a.value_size, ops_per_batch, write_to_db, seconds);
    static const char *names[] = {"putBatchArray", "putBatchNative"};
    for (int v = 0; v < 2; v++) {
        printf("WriteBatchBenchmarks,%s,keyCount=%" PRIu64 ";keySize=%zu;valueSize=%zu;numOpsPerBatch=%d;writeToDB=%s,%.1f\n",
               names[v], a.key_count, a.key_size, a.value_size, ops_per_batch, write_to_db ? "true" : "false", ops);
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

/* ---- txn ------------------------------------------------------------------------------------- */

enum { TXN_TEN_PUTS, TXN_LOCKED_UPDATE, TXN_OPTIMISTIC, TXN_WBWI };

static double run_txn(int variant, rocksdb_transactiondb_t *tdb, rocksdb_optimistictransactiondb_t *odb,
                      rocksdb_options_t *opts, keyfmt *k, uint64_t key_count, const char *value, size_t value_size,
                      double seconds) {
    rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
    rocksdb_readoptions_t *ro = rocksdb_readoptions_create();
    rocksdb_transaction_options_t *to = rocksdb_transaction_options_create();
    rocksdb_optimistictransaction_options_t *oo = rocksdb_optimistictransaction_options_create();
    rocksdb_writebatch_wi_t *wbwi = rocksdb_writebatch_wi_create(0, 1);
    rocksdb_transaction_t *txn = NULL;
    uint64_t next = 0, ops = 0;
    int in_batch = 0;
    unsigned acc = 0;
    char *err = NULL;
    size_t len;
    double start = now(), end = start + seconds, t;
    do {
        for (int i = 0; i < 100; i++) {
            if (variant == TXN_WBWI) {
                if (++in_batch == 1000) {
                    rocksdb_writebatch_wi_clear(wbwi);
                    in_batch = 0;
                }
                key_write(k, next);
                if (++next == key_count) {
                    next = 0;
                }
                rocksdb_writebatch_wi_put(wbwi, k->buf, k->size, value, value_size);
                char *v = rocksdb_writebatch_wi_get_from_batch(wbwi, opts, k->buf, k->size, &len, &err);
                check(err, "get_from_batch");
                acc += (unsigned char) v[0];
                rocksdb_free(v);
                continue;
            }
            txn = variant == TXN_OPTIMISTIC ? rocksdb_optimistictransaction_begin(odb, wo, oo, txn)
                                            : rocksdb_transaction_begin(tdb, wo, to, txn);
            int puts = variant == TXN_TEN_PUTS ? 10 : 1;
            for (int j = 0; j < puts; j++) {
                key_write(k, next);
                if (++next == key_count) {
                    next = 0;
                }
                if (variant != TXN_TEN_PUTS) {
                    char *v = rocksdb_transaction_get_for_update(txn, ro, k->buf, k->size, &len, 1, &err);
                    check(err, "get_for_update");
                    if (v != NULL) {
                        acc += (unsigned char) v[0];
                        rocksdb_free(v);
                    }
                }
                rocksdb_transaction_put(txn, k->buf, k->size, value, value_size, &err);
                check(err, "transaction_put");
            }
            rocksdb_transaction_commit(txn, &err);
            check(err, "commit");
        }
        ops += 100;
        t = now();
    } while (t < end);
    sink += acc;
    if (txn != NULL) {
        rocksdb_transaction_destroy(txn);
    }
    rocksdb_writebatch_wi_destroy(wbwi);
    rocksdb_optimistictransaction_options_destroy(oo);
    rocksdb_transaction_options_destroy(to);
    rocksdb_readoptions_destroy(ro);
    rocksdb_writeoptions_destroy(wo);
    return ops / (t - start);
}

int cmd_txn(int argc, char **argv) {
    if (argc != 7) {
        die("usage: capi_bench txn WORKDIR keyCount keySize valueSize seconds");
    }
    const args a = args_parse(argv);
    double seconds = atof(argv[6]);
    static const char *names[] = {"tenPuts", "lockedUpdate", "optimisticCommit", "wbwiPutGet"};
    char *value = value_init(a.value_size);
    for (int v = 0; v < 4; v++) {
        if (!wanted(names[v])) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", a.dir, names[v]);
        rocksdb_options_t *opts = rocksdb_options_create();
        rocksdb_options_set_create_if_missing(opts, 1);
        char *err = NULL;
        rocksdb_transactiondb_t *tdb = NULL;
        rocksdb_optimistictransactiondb_t *odb = NULL;
        rocksdb_transactiondb_options_t *tdo = rocksdb_transactiondb_options_create();
        if (v == TXN_OPTIMISTIC) {
            odb = rocksdb_optimistictransactiondb_open(opts, path, &err);
        } else {
            tdb = rocksdb_transactiondb_open(opts, tdo, path, &err);
        }
        check(err, "open");
        keyfmt k = key_init(a.key_size, a.key_count);
        run_txn(v, tdb, odb, opts, &k, a.key_count, value, a.value_size, seconds / 4);
        double ops = run_txn(v, tdb, odb, opts, &k, a.key_count, value, a.value_size, seconds);
        printf("TransactionBenchmarks,%s,keyCount=%" PRIu64 ";keySize=%zu;valueSize=%zu,%.1f\n", names[v], a.key_count,
               a.key_size, a.value_size, ops);
        fflush(stdout);
        free(k.buf);
        if (odb != NULL) {
            rocksdb_optimistictransactiondb_close(odb);
        } else {
            rocksdb_transactiondb_close(tdb);
        }
        rocksdb_transactiondb_options_destroy(tdo);
        rocksdb_options_destroy(opts);
    }
    free(value);
    return 0;
}
