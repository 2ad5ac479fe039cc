/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_FLEETSIM_FLEETSIM_H
#define KVR_BENCH_FLEETSIM_FLEETSIM_H

/*
 * kvroute-fleetsim: the whole system in virtual time. Clients replay a trace,
 * M routers (the router's own decision code, bench/fleetsim/router_side.c)
 * place each request on one of N engines (the engine model of kvroute-sim,
 * bench/sim/model.h), a feed writer publishes engine state into a real
 * statefeed segment on a period, with per-engine latency, and the routers
 * read it as they do in production. One thread, one event heap, a clock in
 * virtual nanoseconds: the same inputs and seed give the same bytes.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/fleetsim/disagg.h"
#include "bench/fleetsim/router_side.h"
#include "bench/fleetsim/tokens.h"
#include "bench/replay/replay.h"
#include "bench/replay/trace.h"
#include "bench/sim/model.h"
#include "common/rng.h"
#include "shm_layout/shm_layout.h"

#define KVR_FLEET_MAX_ENGINES 256
#define KVR_FLEET_MAX_ROUTERS 64
#define KVR_FLEET_MAX_DP 64

/** A window of virtual time, seconds from the start, during which a fault holds. */
typedef struct kvr_fleet_window_s {
    double from_s, to_s;
} kvr_fleet_window_t;

/** The feed as one engine's telemetry behaves. */
typedef struct kvr_fleet_feed_params_s {
    kvr_source_t source;      /* scrape, loads or push */
    double latency_ms;        /* from the poll's start (sample time) to its publish */
    double jitter_ms;         /* uniform extra latency in [0, jitter) */
    kvr_fleet_window_t stall; /* no sample is published: the slot ages */
    kvr_fleet_window_t lie;   /* samples report an idle engine */
} kvr_fleet_feed_params_t;

typedef struct kvr_fleet_engine_cfg_s {
    kvr_sim_params_t params; /* the whole engine's slots and KV; split over DP ranks */
    kvr_fleet_feed_params_t feed;
} kvr_fleet_engine_cfg_t;

typedef enum {
    KVR_FLEET_BAD_FATAL = 0, /* an invalid trace line stops before the run */
    KVR_FLEET_BAD_SKIP,      /* it is reported, skipped and counted */
} kvr_fleet_bad_input_t;

typedef struct kvr_fleet_config_s {
    uint32_t n_engines;
    uint32_t dp;
    kvr_fleet_engine_cfg_t engines[KVR_FLEET_MAX_ENGINES];
    double step_jitter; /* step time x (1 + jitter x u), u uniform in [-1, 1) */
    uint32_t n_routers;
    double feed_period_ms;     /* 0: no feed at all */
    bool kv_events;            /* engines' KV events feed a residency table (cache_events.h) */
    double kv_events_delay_ms; /* from an engine's store or eviction to the table */
    kvr_fleet_window_t writer_stall; /* the writer's heartbeat stops */
    double net_latency_ms;           /* one way, per hop: client-router, router-engine */
    double
        read_round_ms; /* a request body's every 64 KiB after the first arrives this much later */
    double rate;       /* arrival rate multiplier: timestamps divided by it */
    double arrival_jitter_ms; /* each send moved later by uniform [0, jitter) */
    bool closed_loop;
    double think_ms;
    double retry_429_ms; /* a 429 is sent again this long after the client saw it; 0 = no retry */
    uint32_t retry_429_max; /* retries per request before its 429 ends it */
    uint32_t block_size;    /* trace tokens per hash id */
    uint64_t limit;         /* first N requests only, 0 = all */
    int first_turn_engine; /* >= 0: the first turns of the first first_turn_sessions sessions go there directly */
    uint32_t first_turn_sessions;
    bool
        head_at_first_token; /* the engine's response head waits for the first token (not the default) */
    kvr_fleet_disagg_config_t disagg; /* prefill-only and decode-only engines (disagg.h) */
    uint64_t seed;
    kvr_fleet_tokens_t *tokens; /* --tokenizer (the caller's); NULL: prompts are bytes/4 */
    const char *run_id;
    bool progress;
} kvr_fleet_config_t;

typedef struct kvr_fleet_s kvr_fleet_t;

/** Fills the defaults documented in --help. */
void kvr_fleet_config_defaults(kvr_fleet_config_t *cfg);

/** Counts of a finished run, for the summary and --stats. */
typedef struct kvr_fleet_stats_s {
    uint64_t virtual_ns; /* first send to last end */
    double wall_s;
    double cpu_s; /* this process's CPU time over the run (a loaded machine stretches wall) */
    uint64_t events;
    size_t sent, finished, refused;
    uint64_t answers_429; /* every 429 a client got, retried or final */
    uint32_t fleet_peak_running;
    uint64_t feed_samples, feed_publishes;
} kvr_fleet_stats_t;

/**
 * Builds the fleet for trace (borrowed) and the routers (created by the caller,
 * owned by the fleet from here on). records may be NULL. shm_name: the segment
 * to create when feed is true (kept until kvr_fleet_destroy, then unlinked).
 * 0 or -errno with a reason in err; either way *out is set and goes to
 * kvr_fleet_destroy.
 */
int kvr_fleet_create(kvr_fleet_t **out, const kvr_fleet_config_t *cfg, const kvr_trace_t *trace,
                     kvr_fleet_router_t **routers, bool feed, const char *shm_name, FILE *records,
                     char *err, size_t err_len);
/**
 * Logs every slot publish to out in kvroute-feedsample's format (start, one
 * "s" line per new sample, end), virtual times, so bench/ablate/compare.py's
 * freshness table reads it. Call before kvr_fleet_run; out stays the caller's.
 */
void kvr_fleet_log_feed(kvr_fleet_t *f, FILE *out);
/** Runs to the end: every request finished or refused, or SIGINT/SIGTERM. */
void kvr_fleet_run(kvr_fleet_t *f);
/** True when the last run stopped on a signal. */
bool kvr_fleet_interrupted(void);
void kvr_fleet_stats(const kvr_fleet_t *f, kvr_fleet_stats_t *out);
/** The per-request results (trace order), for kvr_replay_print_summary. */
const kvr_replay_result_t *kvr_fleet_results(const kvr_fleet_t *f, size_t *n_selected);
/** Writes the end-of-run state as JSON: engines, routers' shadow counters, feed. */
void kvr_fleet_write_stats(const kvr_fleet_t *f, FILE *out);
/** Destroys routers, engines and the segment (unlinked). */
void kvr_fleet_destroy(kvr_fleet_t *f);

/** The base URL engine i is known by ("http://127.0.0.1:<20000+i>"). */
void kvr_fleet_engine_url(uint32_t index, char *out, size_t len);

#endif
