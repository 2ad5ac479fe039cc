/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-feedsample: reads every slot of the state segment every interval
 * (1 ms by default), the way a router's decision would, and writes a line
 * whenever a slot's sample changes. A slot's age at any instant t is then
 * t - sample_time of its latest line before t, so the comparator can rebuild
 * the exact 1 ms age series from a file a thousand times smaller than one
 * line per read.
 *
 * Output (space separated; lines starting with '#' are comments):
 *   start <t_ns>
 *   s <t_ns> <slot> <sample_time_ns> <sample_seq> <flags> <running> <waiting>
 *     <pending_prefill_tokens> <max_prefill_remaining> <engine_id>
 *   end <t_ns> <reads> <overruns>
 * Times are CLOCK_MONOTONIC ns, the clock of the segment and of kvroute-replay.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/options.h"
#include "shm_layout/shm_layout.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

typedef struct {
    uint64_t sample_seq, sample_time_ns;
    uint32_t flags;
    int seen;
} slot_memo_t;

static const char usage_text[] =
    "Usage: kvroute-feedsample --shm NAME [--out FILE] [options]\n"
    "Samples the kvroute state segment and logs every new slot sample, so slot ages\n"
    "(feed freshness) can be computed at 1 ms resolution after a run. Stops on SIGINT/SIGTERM.\n\n";

typedef struct {
    const char *shm_name, *out_path;
    double interval_us, wait_s, duration_s;
} feedsample_args_t;

#define T feedsample_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_STRPTR(T, shm_name, "shm", "NAME", NULL,
                       "POSIX shm name of the segment (e.g. /kvroute-state); required"),
    KVR_OPT_ROW_STRPTR(T, out_path, "out", "FILE", NULL, "write here instead of stdout"),
    KVR_OPT_ROW_DOUBLE(T, interval_us, "interval-us", "N", "1000", 10, 100000,
                       "microseconds between reads of all slots"),
    KVR_OPT_ROW_DOUBLE(T, wait_s, "wait", "S", "10", 0, 86400,
                       "wait up to S seconds for the segment to appear"),
    KVR_OPT_ROW_DOUBLE(T, duration_s, "duration", "S", "0", 0, 10000000,
                       "stop after S seconds; 0 = until SIGINT/SIGTERM"),
    KVR_OPT_ROW_HELP,
};
#undef T

static int open_segment(kvr_shm_t *shm, const char *name, double wait_s)
{
    uint64_t deadline = kvr_clock_now_ns() + (uint64_t)(wait_s * 1e9);
    int rc;
    while ((rc = kvr_shm_open(shm, name)) != 0) {
        if (stop_requested || kvr_clock_now_ns() > deadline)
            return rc;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return 0;
}

int main(int argc, char **argv)
{
    feedsample_args_t args = {0};
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {.name = "kvroute-feedsample", .head = usage_text};
    int parsed = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    if (!args.shm_name) {
        fprintf(stderr, "kvroute-feedsample: --shm NAME is required (see --help)\n");
        return 2;
    }
    const char *name = args.shm_name, *out_path = args.out_path;
    double interval_us = args.interval_us, wait_s = args.wait_s, duration_s = args.duration_s;
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    FILE *out = stdout;
    if (out_path && !(out = fopen(out_path, "w"))) {
        fprintf(stderr, "kvroute-feedsample: cannot write %s: %s\n", out_path, strerror(errno));
        return 1;
    }
    kvr_shm_t shm;
    int rc = open_segment(&shm, name, wait_s);
    if (rc) {
        fprintf(stderr, "kvroute-feedsample: cannot open segment %s: %s\n", name, kvr_strerror(rc));
        if (out != stdout)
            fclose(out);
        return 1;
    }
    uint32_t capacity = shm.header->capacity;
    slot_memo_t *memo = calloc(capacity, sizeof(*memo));
    if (!memo) {
        kvr_shm_close(&shm);
        return 1;
    }
    uint64_t start = kvr_clock_now_ns(), reads = 0, overruns = 0;
    uint64_t interval_ns = (uint64_t)(interval_us * 1000.0);
    fprintf(out, "# kvroute-feedsample segment %s interval_ns %" PRIu64 "\n", name, interval_ns);
    fprintf(out, "start %" PRIu64 "\n", start);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    while (!stop_requested) {
        uint64_t now = kvr_clock_now_ns();
        if (duration_s > 0 && now - start > (uint64_t)(duration_s * 1e9))
            break;
        /* Only slots the header says may be in use are worth a read each tick. */
        for (uint32_t i = 0; i < capacity; i++) {
            kvr_engine_state_t st;
            uint64_t age;
            if (kvr_shm_read_slot(&shm, i, now, &st, &age) != 0)
                continue;
            slot_memo_t *m = &memo[i];
            if (m->seen && m->sample_seq == st.sample_seq &&
                m->sample_time_ns == st.sample_time_ns && m->flags == st.flags)
                continue;
            *m = (slot_memo_t){st.sample_seq, st.sample_time_ns, st.flags, 1};
            fprintf(out,
                    "s %" PRIu64 " %u %" PRIu64 " %" PRIu64 " %u %u %u %" PRIu64 " %" PRIu64
                    " %s\n",
                    now, i, st.sample_time_ns, st.sample_seq, st.flags, st.running, st.waiting,
                    st.pending_prefill_tokens, st.max_prefill_remaining, st.engine_id);
        }
        reads++;
        next.tv_nsec += (long)interval_ns;
        while (next.tv_nsec >= 1000000000L) {
            next.tv_nsec -= 1000000000L;
            next.tv_sec++;
        }
        uint64_t next_ns = (uint64_t)next.tv_sec * KVR_NS_PER_SEC + (uint64_t)next.tv_nsec;
        if (kvr_clock_now_ns() > next_ns) {
            /* Behind schedule (a busy machine): count it and skip ahead rather than burst. */
            overruns++;
            clock_gettime(CLOCK_MONOTONIC, &next);
            continue;
        }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
    }
    fprintf(out, "end %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", kvr_clock_now_ns(), reads, overruns);
    int status = 0;
    if (out != stdout && fclose(out) != 0) {
        fprintf(stderr, "kvroute-feedsample: writing %s failed\n", out_path);
        status = 1;
    }
    free(memo);
    kvr_shm_close(&shm);
    return status;
}
