/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The seqlock torture test (DPDK's rte_seqlock test, see torture.h): with
 * threads (also run under ThreadSanitizer) and with the writer in another
 * process over a real shm object. Plus the writer that died mid-write.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/shm_layout.h"
#include "tests/shm_layout/torture.h"
#include "tests/support/proc.h"

#define READS_PER_READER 200000
/* A read proves nothing unless a write overlapped it: a reader goes on past
 * READS_PER_READER until it has seen this many overlaps, or MAX_READS. */
#define OVERLAPS_WANTED 100
#define MAX_READS 20000000L

typedef struct {
    kvr_shm_t *shm;
    atomic_bool *stop;
    bool cached; /* read through kvr_shm_read_slot_cached */
    long torn, ok, busy;
    long overlapped; /* reads during which the counter was odd or moved */
} torture_arg_t;

static void *reader_main(void *p)
{
    torture_arg_t *arg = p;
    kvr_engine_state_t s;
    kvr_shm_slot_cache_t cache = {.valid = false};
    const kvr_shm_slot_t *slot = kvr_shm_slot(arg->shm, 0);
    for (long i = 0; i < MAX_READS && (i < READS_PER_READER || arg->overlapped < OVERLAPS_WANTED);
         i++) {
        int rc;
        uint64_t before = atomic_load_explicit(&slot->seq, memory_order_acquire);
        if (arg->cached) {
            rc = kvr_shm_read_slot_cached(arg->shm, 0, kvr_clock_now_ns(), &cache, NULL);
            s = cache.state;
        } else {
            rc = kvr_shm_read_slot(arg->shm, 0, kvr_clock_now_ns(), &s, NULL);
        }
        uint64_t after = atomic_load_explicit(&slot->seq, memory_order_acquire);
        if ((before & 1) || after != before)
            arg->overlapped++;
        if (rc == KVR_ESHM_BUSY)
            arg->busy++;
        else if (rc != 0 || !kvr_torture_consistent(&s))
            arg->torn++;
        else
            arg->ok++;
    }
    return NULL;
}

static void *writer_main(void *p)
{
    torture_arg_t *arg = p;
    kvr_torture_write(arg->shm, arg->stop, 0x9e3779b97f4a7c15ull, 60 * KVR_NS_PER_SEC);
    return NULL;
}

Test(seqlock, threads_never_see_a_torn_read, .timeout = 60.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-seqlock");
    kvr_shm_t shm;
    cr_assert_eq(kvr_shm_create(&shm, name, 4), 0);
    cr_assert_eq(kvr_shm_add_engine(&shm, "http://127.0.0.1:1"), 0);
    kvr_engine_state_t first;
    kvr_torture_fill(&first, 1);
    kvr_shm_write_slot(&shm, 0, &first);

    atomic_bool stop = false;
    torture_arg_t w = {.shm = &shm, .stop = &stop};
    /* One reader copies every time, one reuses its copy while the counter is unchanged. */
    torture_arg_t r[2] = {{.shm = &shm}, {.shm = &shm, .cached = true}};
    pthread_t wt, rt[2];
    pthread_create(&wt, NULL, writer_main, &w);
    for (int i = 0; i < 2; i++)
        pthread_create(&rt[i], NULL, reader_main, &r[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(rt[i], NULL);
    atomic_store(&stop, true);
    pthread_join(wt, NULL);
    for (int i = 0; i < 2; i++) {
        cr_expect_eq(r[i].torn, 0, "reader %d accepted %ld torn copies", i, r[i].torn);
        cr_expect_gt(r[i].ok, 0, "reader %d never got a consistent copy", i);
        cr_expect_geq(r[i].overlapped, OVERLAPS_WANTED,
                      "reader %d: only %ld reads overlapped a write", i, r[i].overlapped);
    }
    kvr_shm_close(&shm);
    kvr_shm_unlink(name);
}

Test(seqlock, writer_in_another_process_never_tears_a_read, .timeout = 60.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-seqlock-proc");
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_TORTURE_WRITER"), name, "30", NULL};
    pid_t pid = kvr_test_spawn(argv, NULL);
    cr_assert_gt(pid, 0);

    kvr_shm_t reader;
    int rc = -ENOENT;
    kvr_engine_state_t s;
    for (int i = 0; i < 500 && rc != 0; i++) {
        rc = kvr_shm_open(&reader, name);
        if (rc == 0 && kvr_shm_read_slot(&reader, 0, 0, &s, NULL) != 0) {
            kvr_shm_close(&reader);
            rc = -EAGAIN;
        }
        if (rc != 0)
            kvr_test_sleep_ms(10);
    }
    cr_assert_eq(rc, 0, "writer never published its slot: %s", kvr_strerror(rc));

    torture_arg_t r = {.shm = &reader};
    reader_main(&r);
    cr_expect(kvr_test_alive(pid), "the writer was still writing during the reads");
    kvr_test_stop(pid, SIGKILL, 1000);
    cr_expect_eq(r.torn, 0, "accepted %ld torn copies", r.torn);
    cr_expect_gt(r.ok, 0, "never got a consistent copy while the writer ran");
    cr_expect_geq(r.overlapped, OVERLAPS_WANTED, "only %ld reads overlapped a write", r.overlapped);
    kvr_shm_close(&reader);
    kvr_shm_unlink(name);
}

Test(seqlock, writer_dead_mid_write_makes_readers_give_up, .timeout = 10.)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-seqlock-dead");
    kvr_shm_t shm;
    cr_assert_eq(kvr_shm_create(&shm, name, 4), 0);
    cr_assert_eq(kvr_shm_add_engine(&shm, "http://127.0.0.1:1"), 0);
    /* What a writer killed between its two counter stores leaves behind. */
    kvr_shm_slot_t *slot = kvr_shm_slot(&shm, 0);
    atomic_fetch_add(&slot->seq, 1);
    kvr_engine_state_t s;
    kvr_shm_slot_cache_t cache = {.valid = false};
    for (int i = 0; i < 1000; i++) {
        cr_assert_eq(kvr_shm_read_slot(&shm, 0, kvr_clock_now_ns(), &s, NULL), KVR_ESHM_BUSY);
        cr_assert_eq(kvr_shm_read_slot_cached(&shm, 0, kvr_clock_now_ns(), &cache, NULL),
                     KVR_ESHM_BUSY);
    }
    cr_assert_eq(kvr_shm_find(&shm, "http://127.0.0.1:1"), -ENOENT);
    kvr_shm_close(&shm);
    kvr_shm_unlink(name);
}
