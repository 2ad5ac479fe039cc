/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_BENCH_SIM_MODEL_H
#define KVR_BENCH_SIM_MODEL_H

/*
 * One simulated engine rank, without any I/O: continuous batching with
 * max_running slots and a FIFO waiting queue, chunked prefill under a token
 * budget per step, a step time from the prefill tokens and the number of
 * decoding sequences, the prefix block cache, and preemption (recompute)
 * when KV blocks run out. The caller owns time: step_begin plans a step and
 * says how long it takes, step_end applies it after that time, reporting
 * each emitted token and each finished request. Same inputs, same outputs.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/sim/kvcache.h"

/** Tokens per cache block: one 64-byte text block at KVR_BYTES_PER_TOKEN. */
#define KVR_SIM_BLOCK_TOKENS 16u

typedef struct kvr_sim_params_s {
    uint32_t max_running;        /* batch slots */
    uint32_t prefill_budget;     /* tokens scheduled per step (decode tokens count too) */
    double prefill_tokens_per_s; /* prefill throughput */
    double step_base_ms;         /* fixed cost of a step */
    double step_per_seq_ms;      /* extra cost per decoding sequence */
    uint64_t kv_tokens;          /* KV capacity */
    double step_scale;           /* multiplies every step time (slow or fast engine) */
} kvr_sim_params_t;

typedef enum {
    KVR_SIM_WAITING = 0,
    KVR_SIM_PREFILL,
    KVR_SIM_DECODE,
    KVR_SIM_DONE,
} kvr_sim_req_state_t;

typedef struct kvr_sim_req_s kvr_sim_req_t;

struct kvr_sim_req_s {
    /* set by the caller before submit */
    uint64_t id;
    uint32_t prompt_tokens;
    uint32_t max_tokens; /* tokens to generate (>= 1) */
    uint64_t *hashes;    /* full prompt blocks' chained hashes (caller-owned) */
    size_t n_hashes;
    const uint32_t
        *block_tokens; /* KVR_SIM_BLOCK_TOKENS token ids per hash (caller-owned), or NULL */
    void *owner;       /* the caller's context */
    /* Disaggregated decode: prompt tokens whose KV came from a prefill engine, held at first
     * admission without being computed (a preempted request recomputes them). 0: none. */
    uint32_t remote_kv_tokens;
    /* maintained by the model */
    kvr_sim_req_state_t state;
    uint32_t generated;
    uint32_t cached_tokens;   /* prefix-cache hit at (first) admission */
    uint32_t expected_cached; /* while waiting: the cache's match when it was queued */
    uint32_t computed;        /* tokens with KV computed in the current admission */
    uint32_t preemptions;
    uint64_t arrival_ns, first_token_ns;
    kvr_sim_req_t *prev, *next; /* waiting or running list */
    kvr_sim_block_t **held;     /* n_hashes entries while admitted */
    size_t n_private;           /* private blocks held */
    size_t n_shared;            /* held[] entries that are not NULL */
    uint32_t planned;           /* tokens scheduled in the step in flight */
    bool admitted_once;
};

typedef struct kvr_sim_list_s {
    kvr_sim_req_t *head, *tail;
    uint32_t count;
} kvr_sim_list_t;

/** What step_end reports. */
typedef enum {
    KVR_SIM_EV_TOKEN = 1, /* req->generated grew by one */
    KVR_SIM_EV_FINISHED,  /* the last token: generated == max_tokens, req left the model and
                           * the caller may free it */
} kvr_sim_event_t;

/** One event per request per step; the callback may cancel (and free) that request only. */
typedef void (*kvr_sim_event_cb)(kvr_sim_req_t *req, kvr_sim_event_t ev, void *arg);

/** Told when a prompt block becomes a cache hit (KV events); parent NULL for a prompt's first. */
typedef void (*kvr_sim_stored_cb)(void *ctx, uint64_t hash, const uint64_t *parent,
                                  const uint32_t *tokens);

typedef struct kvr_sim_model_s {
    kvr_sim_params_t params;
    kvr_sim_stored_cb on_stored; /* NULL: nobody listens */
    void *stored_ctx;
    kvr_sim_cache_t cache;
    kvr_sim_list_t waiting, running;
    bool step_in_flight;
    uint64_t step_started_ns;
    uint64_t steps;
    uint64_t last_step_ns; /* duration of the last step */
    uint64_t busy_ns;      /* sum of step durations (utilization) */
    /* counters, as engines export them */
    uint64_t prefix_queries_tokens; /* prompt tokens looked up at first admission */
    uint64_t prefix_hits_tokens;    /* of which were cache hits */
    uint64_t preemptions;
    uint64_t prompt_tokens_total; /* prompt tokens of finished requests */
    uint64_t generation_tokens_total;
    uint64_t requests_finished;
    uint32_t peak_running; /* largest running count ever seen */
} kvr_sim_model_t;

/** Fills p with the defaults documented in bench/sim/README.md. */
void kvr_sim_params_defaults(kvr_sim_params_t *p);
/** Sets up an idle model; -EINVAL for impossible parameters, -ENOMEM. */
int kvr_sim_model_init(kvr_sim_model_t *m, const kvr_sim_params_t *p);
/** Frees the cache; requests still inside are the caller's to free. */
void kvr_sim_model_close(kvr_sim_model_t *m);

/** Queues req at the tail of the waiting queue. */
void kvr_sim_model_submit(kvr_sim_model_t *m, kvr_sim_req_t *req, uint64_t now_ns);
/** Removes req wherever it is (client gone) and releases its blocks; no event follows. */
void kvr_sim_model_cancel(kvr_sim_model_t *m, kvr_sim_req_t *req);

/**
 * Admits what fits, schedules the next step and returns its duration in ns
 * (already multiplied by step_scale), or 0 when there is nothing to do.
 */
uint64_t kvr_sim_model_step_begin(kvr_sim_model_t *m, uint64_t now_ns);
/** Applies the step begun last: emits tokens, finishes requests (events via cb). */
void kvr_sim_model_step_end(kvr_sim_model_t *m, uint64_t now_ns, kvr_sim_event_cb cb, void *arg);

/** KV tokens held (used blocks × block tokens) and the capacity in tokens. */
uint64_t kvr_sim_model_kv_used_tokens(const kvr_sim_model_t *m);
uint64_t kvr_sim_model_kv_capacity_tokens(const kvr_sim_model_t *m);
/**
 * Tokens still to prefill, and the largest such remainder: an admitted
 * request's uncomputed tokens; a waiting one's tokens beyond the prefix the
 * cache held when it was queued (or preempted), as engines report it: the
 * cached part of a queued prompt is no work.
 */
void kvr_sim_model_pending_prefill(const kvr_sim_model_t *m, uint64_t *total, uint64_t *largest);

#endif
