/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dispatch segment's two seqlocks under threads, as a plain program for
 * the ThreadSanitizer build (Criterion's runner cannot start under TSan; see
 * tsan_seqlock.c): two router threads each publish one value into every
 * field of their row and append entries carrying it, while each reads the
 * other's row and the ring; any mix of two values is a torn read. TSan's own
 * reports fail it too (TSAN_OPTIONS=halt_on_error=1 is set by ctest).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "shm_layout/dispatch.h"

#define ROUNDS 20000
#define ENGINES 3

static pthread_barrier_t start_line;
static atomic_int finished;

typedef struct {
    const char *name;
    uint64_t seed;
    long torn, sums, entries, lost, skipped, dropped;
    int failed;
} arg_t;

static void *router_main(void *arg)
{
    arg_t *a = arg;
    kvr_dsp_t d;
    kvr_dsp_geometry_t geo = {4, 8, 64};
    if (kvr_dsp_open(&d, a->name, &geo, KVR_DSP_CREATE_WAIT_MS) != 0 ||
        kvr_dsp_claim(&d, "t", kvr_clock_now_ns(), KVR_NS_PER_SEC) < 0) {
        a->failed = 1;
        return NULL;
    }
    uint64_t keys[ENGINES] = {11, 22, 33};
    kvr_dsp_cursor_t cur;
    kvr_dsp_cursor_init(&d, &cur);
    pthread_barrier_wait(&start_line);
    /* Each goes on until both did their rounds, so their writes overlap whatever the scheduler does. */
    bool counted = false;
    for (uint64_t i = 1; i <= ROUNDS || atomic_load(&finished) < 2; i++) {
        if (i == ROUNDS + 1 && !counted) {
            atomic_fetch_add(&finished, 1);
            counted = true;
        }
        uint64_t v = a->seed + i;
        kvr_dsp_load_t loads[ENGINES];
        for (int e = 0; e < ENGINES; e++)
            loads[e] = (kvr_dsp_load_t){v, v, v};
        uint64_t now = kvr_clock_now_ns();
        kvr_dsp_publish(&d, keys, loads, ENGINES, now);
        kvr_dsp_heartbeat(&d, now);
        kvr_dsp_placement_t p = {
            .kind = KVR_DSP_PLACE_PREFIX, .block_count = KVR_DSP_ENTRY_BLOCKS, .engine_key = v};
        for (int b = 0; b < KVR_DSP_ENTRY_BLOCKS; b++)
            p.blocks[b] = v;
        a->dropped += kvr_dsp_append(&d, &p) != 0;
        kvr_dsp_load_t sums[ENGINES];
        kvr_dsp_sum_stats_t st;
        kvr_dsp_sum_others(&d, now, KVR_NS_PER_SEC, keys, ENGINES, sums, &st);
        if (st.live == 1) {
            a->sums++;
            for (int e = 0; e < ENGINES; e++)
                a->torn += sums[e].in_flight != sums[0].in_flight ||
                           sums[e].kv_tokens != sums[0].in_flight ||
                           sums[e].pending_prefill_tokens != sums[0].in_flight;
        }
        kvr_dsp_placement_t got;
        while (kvr_dsp_ring_next(&d, &cur, now, &got) == 0) {
            a->entries++;
            for (int b = 0; b < KVR_DSP_ENTRY_BLOCKS; b++)
                a->torn += got.blocks[b] != got.engine_key;
        }
    }
    a->lost = (long)cur.lost;
    a->skipped = (long)cur.torn;
    kvr_dsp_close(&d);
    return NULL;
}

int main(void)
{
    char name[64];
    snprintf(name, sizeof name, "/kvr-tsan-dsp-%d", (int)getpid());
    kvr_dsp_t creator;
    kvr_dsp_geometry_t geo = {4, 8, 64};
    int rc = kvr_dsp_open(&creator, name, &geo, KVR_DSP_CREATE_WAIT_MS);
    if (rc != 0) {
        fprintf(stderr, "tsan_dispatch: open: %s\n", kvr_strerror(rc));
        return 1;
    }
    pthread_barrier_init(&start_line, NULL, 2);
    arg_t args[2] = {{.name = name, .seed = 1000000}, {.name = name, .seed = 9000000}};
    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&threads[i], NULL, router_main, &args[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    kvr_dsp_close(&creator);
    kvr_dsp_unlink(name);
    int bad = 0;
    for (int i = 0; i < 2; i++) {
        printf(
            "router %d: sums %ld, entries read %ld, lost %ld, skipped %ld, dropped %ld, torn %ld\n",
            i, args[i].sums, args[i].entries, args[i].lost, args[i].skipped, args[i].dropped,
            args[i].torn);
        bad |= args[i].failed || args[i].torn != 0;
    }
    return bad;
}
