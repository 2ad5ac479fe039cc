/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The threaded seqlock torture (torture.h) as a plain program, for the
 * ThreadSanitizer build: Criterion's runner cannot start under TSan
 * (Criterion issue #274: its inheritable arena mapping fails), so this is
 * the seqlock suite that TSan runs. TSan's own reports fail it too
 * (TSAN_OPTIONS=halt_on_error=1 is set by ctest).
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/shm_layout.h"
#include "tests/shm_layout/torture.h"

#define READERS 2
#define READS 100000

typedef struct {
    kvr_shm_t *shm;
    atomic_bool *stop;
    bool cached;
    long torn, ok;
} arg_t;

static void *writer_main(void *p)
{
    arg_t *a = p;
    kvr_torture_write(a->shm, a->stop, 0x9e3779b97f4a7c15ull, 60 * KVR_NS_PER_SEC);
    return NULL;
}

static void *reader_main(void *p)
{
    arg_t *a = p;
    kvr_engine_state_t s;
    kvr_shm_slot_cache_t cache = {.valid = false};
    for (int i = 0; i < READS; i++) {
        int rc;
        if (a->cached) {
            rc = kvr_shm_read_slot_cached(a->shm, 0, kvr_clock_now_ns(), &cache, NULL);
            s = cache.state;
        } else {
            rc = kvr_shm_read_slot(a->shm, 0, kvr_clock_now_ns(), &s, NULL);
        }
        if (rc == KVR_ESHM_BUSY)
            continue;
        if (rc != 0 || !kvr_torture_consistent(&s))
            a->torn++;
        else
            a->ok++;
    }
    return NULL;
}

static int torture(void)
{
    char name[64];
    snprintf(name, sizeof name, "/kvr-tsan-seqlock-%d", (int)getpid());
    kvr_shm_t shm;
    int rc = kvr_shm_create(&shm, name, 2);
    if (rc < 0 || kvr_shm_add_engine(&shm, "http://127.0.0.1:1") != 0) {
        fprintf(stderr, "tsan_seqlock: segment: %s\n", kvr_strerror(rc));
        return 1;
    }
    atomic_bool stop = false;
    arg_t w = {.shm = &shm, .stop = &stop}, r[READERS];
    pthread_t wt, rt[READERS];
    kvr_engine_state_t first;
    kvr_torture_fill(&first, 1);
    kvr_shm_write_slot(&shm, 0, &first);
    pthread_create(&wt, NULL, writer_main, &w);
    for (int i = 0; i < READERS; i++) {
        r[i] = (arg_t){.shm = &shm, .cached = i % 2 == 1};
        pthread_create(&rt[i], NULL, reader_main, &r[i]);
    }
    int failed = 0;
    for (int i = 0; i < READERS; i++) {
        pthread_join(rt[i], NULL);
        if (r[i].torn || !r[i].ok) {
            fprintf(stderr, "tsan_seqlock: reader %d: %ld torn, %ld consistent\n", i, r[i].torn,
                    r[i].ok);
            failed = 1;
        }
    }
    atomic_store(&stop, true);
    pthread_join(wt, NULL);
    kvr_shm_close(&shm);
    kvr_shm_unlink(name);
    return failed;
}

int main(void)
{
    int failed = torture();
    printf("seqlock torture under threads: %d passed, %d failed\n", !failed, failed);
    return failed;
}
