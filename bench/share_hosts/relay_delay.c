/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-relay-delay: how long a placement made on one host takes to be
 * known on another through two statefeeds relaying with --share. It acts as
 * a router on host A (a row in dispatch segment A, session pins appended to
 * A's ring) and as a router on host B (a cursor on B's ring), and times each
 * pin from its append on A to its arrival in B's ring, where B's routers
 * apply it before their next decision. Both "hosts" share this machine's
 * CLOCK_MONOTONIC, so the delay needs no clock agreement.
 *
 *   kvroute-relay-delay --a NAME --b NAME [--count N] [--interval-ms MS]
 * (pauses between pins are uniform in 0..MS, default 60)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/options.h"
#include "common/rng.h"
#include "shm_layout/dispatch.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void nap_us(long us)
{
    struct timespec ts = {.tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

typedef struct {
    const char *a_name, *b_name;
    unsigned count, interval_ms;
} relay_delay_args_t;

#define T relay_delay_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_STRPTR(T, a_name, "a", "NAME", NULL,
                       "dispatch segment the pins are placed in (required)"),
    KVR_OPT_ROW_STRPTR(T, b_name, "b", "NAME", NULL,
                       "dispatch segment they must arrive in (required)"),
    KVR_OPT_ROW_U64(T, count, "count", "N", "200", 1, 100000, "pins to time"),
    KVR_OPT_ROW_U64(T, interval_ms, "interval-ms", "MS", "60", 0, 3600000,
                    "pauses between pins are uniform in 0..MS"),
    KVR_OPT_ROW_HELP,
};
#undef T

int main(int argc, char **argv)
{
    relay_delay_args_t args;
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-relay-delay",
        .head = "usage: kvroute-relay-delay --a NAME --b NAME [--count N] [--interval-ms MS]\n\n"
                "Places pins in dispatch segment A and times each until it arrives in B (through\n"
                "the statefeeds' relay).\n\n"};
    memset(&args, 0, sizeof args);
    int parsed = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (args.a_name == NULL || args.b_name == NULL) {
        fprintf(stderr, "kvroute-relay-delay: --a and --b are required\n");
        return 2;
    }
    const char *a_name = args.a_name, *b_name = args.b_name;
    unsigned count = args.count, interval_ms = args.interval_ms;
    kvr_dsp_t a, b;
    kvr_dsp_geometry_t geo = KVR_DSP_DEFAULT_GEOMETRY;
    int rc = kvr_dsp_open(&a, a_name, &geo, 1000);
    if (rc == 0)
        rc = kvr_dsp_open(&b, b_name, &geo, 1000);
    if (rc < 0) {
        fprintf(stderr, "kvroute-relay-delay: cannot open the dispatch segments (%d)\n", rc);
        return 1;
    }
    uint64_t now = kvr_clock_now_ns();
    if (kvr_dsp_claim(&a, "relay-delay-bench", now, 3 * KVR_NS_PER_SEC) < 0 ||
        kvr_dsp_claim(&b, "relay-delay-bench", now, 3 * KVR_NS_PER_SEC) < 0) {
        fprintf(stderr, "kvroute-relay-delay: no free row\n");
        return 1;
    }
    kvr_dsp_cursor_t cur;
    kvr_dsp_cursor_init(&b, &cur);
    uint64_t *delay = calloc(count, sizeof *delay);
    uint64_t engine = kvr_dsp_engine_key("http://bench.invalid:1");
    unsigned missed = 0;
    uint64_t rng = kvr_clock_now_ns();
    /* Warm-up: until a pin arrives, the link is not up (a subscriber's cursor starts at its first table). */
    for (unsigned w = 0;; w++) {
        if (w == 100) {
            fprintf(
                stderr,
                "kvroute-relay-delay: no pin crossed in 10 s: are the statefeeds relaying with --share?\n");
            return 1;
        }
        kvr_dsp_placement_t p = {.kind = KVR_DSP_PLACE_SESSION,
                                 .engine_key = engine,
                                 .session_hash = 0x77000000ull + w,
                                 .time_ns = kvr_clock_now_ns()};
        kvr_dsp_append(&a, &p);
        nap_us(100000);
        kvr_dsp_placement_t got;
        bool arrived = false;
        while (kvr_dsp_ring_next(&b, &cur, kvr_clock_now_ns(), &got) == 0)
            arrived = true;
        if (arrived)
            break;
    }
    for (unsigned i = 0; i < count; i++) {
        uint64_t hash = 0x6b7672000000ull + i + 1;
        uint64_t t0 = kvr_clock_now_ns();
        kvr_dsp_placement_t p = {.kind = KVR_DSP_PLACE_SESSION,
                                 .engine_key = engine,
                                 .session_hash = hash,
                                 .time_ns = t0};
        kvr_dsp_heartbeat(&a, t0);
        kvr_dsp_heartbeat(&b, t0);
        if (kvr_dsp_append(&a, &p) < 0) {
            missed++;
            continue;
        }
        bool seen = false;
        while (!seen && kvr_clock_age_ns(kvr_clock_now_ns(), t0) < 2 * KVR_NS_PER_SEC) {
            kvr_dsp_placement_t got;
            while (!seen && kvr_dsp_ring_next(&b, &cur, kvr_clock_now_ns(), &got) == 0)
                if (got.session_hash == hash) {
                    delay[i - missed] = kvr_clock_now_ns() - t0;
                    seen = true;
                }
            if (!seen)
                nap_us(50);
        }
        if (!seen)
            missed++;
        /* A random pause, so the pins land at every phase of the statefeeds' period
         * (a fixed one would place each pin at the same distance from the next export). */
        nap_us((long)kvr_splitmix64_below(&rng, (size_t)interval_ms * 1000 + 1));
    }
    unsigned n = count - missed;
    qsort(delay, n, sizeof *delay, cmp_u64);
    if (n == 0) {
        printf("placements=%u arrived=0\n", count);
        return 1;
    }
    printf("placements=%u arrived=%u lost=%llu torn=%llu\n", count, n, (unsigned long long)cur.lost,
           (unsigned long long)cur.torn);
    printf("delay_ms p50=%.2f p90=%.2f p99=%.2f max=%.2f\n", delay[n / 2] / 1e6,
           delay[n * 9 / 10] / 1e6, delay[n * 99 / 100] / 1e6, delay[n - 1] / 1e6);
    free(delay);
    kvr_dsp_close(&a);
    kvr_dsp_close(&b);
    return missed > 0;
}
