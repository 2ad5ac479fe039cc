/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The residency torture (residency_torture.h) as a plain program, for the
 * ThreadSanitizer build (Criterion's runner cannot start under TSan): one
 * writer thread storing, removing and clearing flat out, two readers that
 * must never be told an engine holds a block that names another.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tests/shm_layout/residency_torture.h"

#define READERS 2
#define LOOKUPS 20000

typedef struct {
    kvr_residency_writer_t *w;
    const char *name;
    atomic_bool *stop;
    long wrong, hits;
} arg_t;

static void *writer_main(void *p)
{
    arg_t *a = p;
    kvr_rt_write(a->w, a->stop, 0x9e3779b97f4a7c15ull, 60 * KVR_NS_PER_SEC);
    return NULL;
}

static void *reader_main(void *p)
{
    arg_t *a = p;
    kvr_residency_reader_t r;
    if (kvr_residency_reader_open(&r, a->name, geteuid()) != 0) {
        a->wrong = -1;
        return NULL;
    }
    uint64_t x = (uint64_t)(uintptr_t)a, h[KVR_RT_BLOCKS];
    kvr_res_match_t m[KVR_RT_ENGINES];
    for (int i = 0; i < LOOKUPS; i++) {
        uint32_t slot = (uint32_t)kvr_splitmix64_below(&x, KVR_RT_ENGINES);
        uint32_t c = (uint32_t)kvr_splitmix64_below(&x, KVR_RT_CHAINS);
        for (uint32_t b = 0; b < KVR_RT_BLOCKS; b++)
            h[b] = kvr_rt_hash(slot, c, b);
        size_t n = kvr_residency_lookup(&r, h, KVR_RT_BLOCKS, m, KVR_RT_ENGINES);
        for (size_t k = 0; k < n; k++) {
            if (!kvr_rt_match_ok(&m[k], slot))
                a->wrong++;
            else
                a->hits++;
        }
    }
    kvr_residency_reader_close(&r);
    return NULL;
}

int main(void)
{
    char name[64];
    snprintf(name, sizeof name, "/kvr-tsan-residency-%d", (int)getpid());
    kvr_residency_writer_t w;
    if (kvr_residency_writer_open(&w, name, 1, KVR_RT_ENGINES) != 0) {
        fprintf(stderr, "tsan_residency: cannot create %s\n", name);
        return 1;
    }
    for (uint32_t s = 0; s < KVR_RT_ENGINES; s++) {
        kvr_residency_trust(&w, s, true);
        for (uint32_t c = 0; c < KVR_RT_CHAINS; c++)
            for (uint32_t b = 0; b < KVR_RT_BLOCKS; b++)
                kvr_residency_stored(&w, s, kvr_rt_hash(s, c, b), 0);
    }
    atomic_bool stop = false;
    arg_t wa = {.w = &w, .stop = &stop}, r[READERS];
    pthread_t wt, rt[READERS];
    pthread_create(&wt, NULL, writer_main, &wa);
    for (int i = 0; i < READERS; i++) {
        r[i] = (arg_t){.name = name};
        pthread_create(&rt[i], NULL, reader_main, &r[i]);
    }
    int failed = 0;
    for (int i = 0; i < READERS; i++) {
        pthread_join(rt[i], NULL);
        if (r[i].wrong != 0 || r[i].hits == 0) {
            fprintf(stderr, "tsan_residency: reader %d: %ld wrong holders, %ld hits\n", i,
                    r[i].wrong, r[i].hits);
            failed = 1;
        }
    }
    atomic_store(&stop, true);
    pthread_join(wt, NULL);
    kvr_residency_writer_destroy(&w);
    printf("residency torture under threads: %d passed, %d failed\n", !failed, failed);
    return failed;
}
