/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_REPLAY_REPLAY_H
#define KVR_BENCH_REPLAY_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/replay/client.h"
#include "bench/replay/trace.h"

/* What the replayer keeps per trace request: the request and when it went out. */
typedef struct kvr_replay_result_s {
    kvr_replay_req_t req;
    bool sent, finished;
    double due_rel_ms;  /* when the schedule wanted it sent, ms after the start */
    double send_rel_ms; /* when it was sent */
    bool has_router;    /* several routers took parts of the trace: the record says which */
    uint32_t router;
    bool has_retries; /* the client retries a 429: the record says how many it got */
    uint32_t retries_429;
} kvr_replay_result_t;

/** True when the request finished with a 2xx status and no transport or stream error. */
bool kvr_replay_result_ok(const kvr_replay_result_t *res);

/** Writes the request's JSON line (see bench/replay/README.md for the fields). */
void kvr_replay_write_record(FILE *out, const kvr_trace_request_t *tr,
                             const kvr_replay_result_t *res, const char *run_id, uint64_t start_ns);

/** Prints TTFT and end-to-end percentiles, throughput, cache hit rate, errors and engines. */
void kvr_replay_print_summary(FILE *out, const kvr_trace_t *trace,
                              const kvr_replay_result_t *results, size_t n_selected);

/**
 * Links each session's requests among the first n in turn order (turn, then
 * timestamp, then position): next[i] is the session's request after i or
 * SIZE_MAX. Returns prev[] (malloc'd, SIZE_MAX for a session's first
 * request); *rc = -ENOMEM on failure (and NULL).
 */
size_t *kvr_replay_link_sessions(const kvr_trace_t *trace, size_t n, size_t *next, int *rc);

/** The p-th percentile (0..100) of v[0..n) by linear interpolation; sorts v. NAN when n == 0. */
double kvr_replay_percentile(double *v, size_t n, double p);

#endif
