/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-seqlock: what one slot read and one slot write cost, in
 * nanoseconds, over a real shm object: reads with no writer, with a writer
 * at 20 Hz (statefeed's steady state), and with a writer flat out on
 * another thread; writes with no reader. Prints figures, asserts nothing.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/shm_layout.h"

#define ROUNDS 5

typedef struct {
    kvr_shm_t *shm;
    atomic_bool stop;
    uint64_t period_ns; /* 0 = flat out */
    uint64_t writes;
} writer_t;

static void *writer_main(void *p)
{
    writer_t *w = p;
    kvr_engine_state_t s;
    kvr_shm_writer_state(w->shm, 0, &s);
    while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
        s.sample_seq++;
        s.running = (uint32_t)s.sample_seq;
        s.sample_time_ns = kvr_clock_now_ns();
        kvr_shm_write_slot(w->shm, 0, &s);
        w->writes++;
        if (w->period_ns) {
            struct timespec ts = {0, (long)w->period_ns};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

static bool cached_reads; /* time kvr_shm_read_slot_cached instead */

/* Median over ROUNDS of the mean ns per read across n reads. */
static double time_reads(kvr_shm_t *shm, long n, long *busy)
{
    double rounds[ROUNDS];
    kvr_engine_state_t s;
    kvr_shm_slot_cache_t cache = {.valid = false};
    uint64_t age, sink = 0;
    *busy = 0;
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t t0 = kvr_clock_now_ns();
        for (long i = 0; i < n; i++) {
            int rc = cached_reads ? kvr_shm_read_slot_cached(shm, 0, t0, &cache, &age)
                                  : kvr_shm_read_slot(shm, 0, t0, &s, &age);
            if (rc == 0)
                sink += cached_reads ? cache.state.running : s.running;
            else
                (*busy)++;
        }
        rounds[r] = (double)(kvr_clock_now_ns() - t0) / (double)n;
    }
    for (int i = 1; i < ROUNDS; i++)
        for (int j = i; j > 0 && rounds[j] < rounds[j - 1]; j--) {
            double t = rounds[j];
            rounds[j] = rounds[j - 1];
            rounds[j - 1] = t;
        }
    if (sink == 42)
        fputc(' ', stderr);
    return rounds[ROUNDS / 2];
}

static double time_writes(kvr_shm_t *shm, long n)
{
    kvr_engine_state_t s;
    kvr_shm_writer_state(shm, 0, &s);
    uint64_t t0 = kvr_clock_now_ns();
    for (long i = 0; i < n; i++) {
        s.sample_seq = (uint64_t)i;
        kvr_shm_write_slot(shm, 0, &s);
    }
    return (double)(kvr_clock_now_ns() - t0) / (double)n;
}

static void with_writer(kvr_shm_t *shm, kvr_shm_t *reader, const char *label, uint64_t period_ns,
                        long n)
{
    writer_t w = {.shm = shm, .period_ns = period_ns};
    pthread_t t;
    pthread_create(&t, NULL, writer_main, &w);
    usleep(20000);
    long busy;
    double ns = time_reads(reader, n, &busy);
    atomic_store(&w.stop, true);
    pthread_join(t, NULL);
    printf("%-28s %8.1f ns/read   busy %ld of %ld   writer stores %llu\n", label, ns, busy,
           n * ROUNDS, (unsigned long long)w.writes);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    if (n <= 0) {
        fprintf(stderr, "usage: kvroute-bench-seqlock [READS_PER_ROUND]\n");
        return 2;
    }
    char name[64];
    snprintf(name, sizeof name, "/kvr-bench-seqlock-%d", (int)getpid());
    kvr_shm_t shm;
    int rc = kvr_shm_create(&shm, name, 8);
    if (rc < 0) {
        fprintf(stderr, "kvroute-bench-seqlock: create: %s\n", kvr_strerror(rc));
        return 1;
    }
    kvr_shm_add_engine(&shm, "http://127.0.0.1:30000");
    kvr_shm_t reader;
    if ((rc = kvr_shm_open(&reader, name)) < 0) {
        fprintf(stderr, "kvroute-bench-seqlock: open: %s\n", kvr_strerror(rc));
        return 1;
    }
    printf("slot: %u bytes (%zu payload words), %ld reads per round, median of %d rounds\n",
           KVR_SHM_SLOT_SIZE, KVR_SLOT_WORDS, n, ROUNDS);
    long busy;
    double ns = time_reads(&reader, n, &busy);
    printf("%-28s %8.1f ns/read   busy %ld\n", "read, no writer", ns, busy);
    with_writer(&shm, &reader, "read, writer at 20 Hz", 50 * KVR_NS_PER_MS, n);
    with_writer(&shm, &reader, "read, writer flat out", 0, n);
    cached_reads = true;
    ns = time_reads(&reader, n, &busy);
    printf("%-28s %8.1f ns/read   busy %ld\n", "cached read, no writer", ns, busy);
    with_writer(&shm, &reader, "cached read, writer 20 Hz", 50 * KVR_NS_PER_MS, n);
    with_writer(&shm, &reader, "cached read, flat out", 0, n);
    printf("%-28s %8.1f ns/write\n", "write, no reader", time_writes(&shm, n));
    kvr_shm_close(&reader);
    kvr_shm_close(&shm);
    kvr_shm_unlink(name);
    return 0;
}
