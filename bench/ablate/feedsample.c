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
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/clock.h"
#include "common/error.h"
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

static void usage(FILE *f)
{
    fprintf(f,
        "Usage: kvroute-feedsample --shm NAME [--out FILE] [options]\n"
        "Samples the kvroute state segment and logs every new slot sample, so slot ages\n"
        "(feed freshness) can be computed at 1 ms resolution after a run. Stops on SIGINT/SIGTERM.\n\n"
        "  --shm NAME        POSIX shm name of the segment (e.g. /kvroute-state)\n"
        "  --out FILE        write here instead of stdout\n"
        "  --interval-us N   time between reads of all slots (default 1000)\n"
        "  --wait S          wait up to S seconds for the segment to appear (default 10)\n"
        "  --duration S      stop after S seconds (default: until signalled)\n"
        "  -h, --help        this text\n");
}

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
    static const struct option longopts[] = {
        {"shm", required_argument, 0, 's'}, {"out", required_argument, 0, 'o'},
        {"interval-us", required_argument, 0, 'i'}, {"wait", required_argument, 0, 'w'},
        {"duration", required_argument, 0, 'd'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0},
    };
    const char *name = NULL, *out_path = NULL;
    double interval_us = 1000, wait_s = 10, duration_s = 0;
    int c;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        char *end = NULL;
        switch (c) {
        case 's': name = optarg; break;
        case 'o': out_path = optarg; break;
        case 'i': interval_us = strtod(optarg, &end); break;
        case 'w': wait_s = strtod(optarg, &end); break;
        case 'd': duration_s = strtod(optarg, &end); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
        if (end && (*end || end == optarg)) {
            fprintf(stderr, "kvroute-feedsample: invalid number '%s'\n", optarg);
            return 2;
        }
    }
    if (!name || interval_us < 10 || wait_s < 0 || duration_s < 0) {
        fprintf(stderr, "kvroute-feedsample: --shm is required and numbers must be positive (see --help)\n");
        return 2;
    }
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
            if (m->seen && m->sample_seq == st.sample_seq && m->sample_time_ns == st.sample_time_ns &&
                m->flags == st.flags)
                continue;
            *m = (slot_memo_t){st.sample_seq, st.sample_time_ns, st.flags, 1};
            fprintf(out, "s %" PRIu64 " %u %" PRIu64 " %" PRIu64 " %u %u %u %" PRIu64 " %" PRIu64 " %s\n", now,
                    i, st.sample_time_ns, st.sample_seq, st.flags, st.running, st.waiting,
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
