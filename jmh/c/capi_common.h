/*
 * capi_bench's shared pieces (see capi_bench.c for what the program measures): the clock, error
 * exits, the Java key format, the result sink and the CAPI_VARIANT filter, all inline; and the
 * commands defined in capi_writes.c.
 */
#ifndef CAPI_COMMON_H
#define CAPI_COMMON_H

#include <rocksdb/c.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline void check(char *err, const char *what) {
    if (err != NULL) {
        fprintf(stderr, "capi_bench: %s: %s\n", what, err);
        exit(1);
    }
}

static inline void die(const char *msg) {
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

static inline keyfmt key_init(size_t key_size, uint64_t key_count) {
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

static volatile uint64_t sink __attribute__((unused)); /* keeps results observable */

/* Whether the loop printed as NAME should run: all do, unless CAPI_VARIANT names one (bench.sh runs
 * the C loop right after each benchmark pair, for that pair's variant alone). */
static inline int wanted(const char *name) {
    const char *only = getenv("CAPI_VARIANT");
    return only == NULL || *only == '\0' || (name != NULL && strcmp(only, name) == 0);
}

/* Fills a value buffer with the bytes every loop writes. */
static inline char *value_init(size_t value_size) {
    char *value = malloc(value_size);
    for (size_t i = 0; i < value_size; i++) {
        value[i] = (char) (i * 131 + 7);
    }
    return value;
}

/* The arguments every command starts with (after its name): DIR keyCount keySize valueSize. */
typedef struct {
    const char *dir;
    uint64_t key_count;
    size_t key_size;
    size_t value_size;
} args;

static inline args args_parse(char **argv) {
    args a = {argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10)};
    return a;
}

/* A fresh database with default options under DIR (create_if_missing); the caller destroys *opts_out
 * after closing it. */
static inline rocksdb_t *open_fresh(const char *dir, rocksdb_options_t **opts_out) {
    rocksdb_options_t *opts = rocksdb_options_create();
    rocksdb_options_set_create_if_missing(opts, 1);
    char *err = NULL;
    rocksdb_t *db = rocksdb_open(opts, dir, &err);
    check(err, "open");
    *opts_out = opts;
    return db;
}

/* capi_writes.c */
int cmd_batch(int argc, char **argv);
int cmd_txn(int argc, char **argv);

#endif
