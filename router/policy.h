/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_POLICY_H
#define KVR_ROUTER_POLICY_H

/*
 * The interface between the router core and the routing policies under
 * router/policies/ (one file per policy). The core builds one view per
 * candidate engine (healthy, in the table) with its shadow, real and
 * effective load, then asks the policy to pick. Everything runs on the
 * router's single event-loop thread, synchronously: the core applies the
 * pick to its shadow counters before it reads the next request, so a burst
 * sees every earlier pick.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/prefix_hash.h"

/**
 * One candidate engine as the policy sees it for one decision.
 *
 * Field order is for speed, not reading: at fleet scale a pick makes one or
 * two passes over thousands of views, so what the rules' passes read (the
 * index, the effective load, the caps and the KV figures) fills the first
 * 64 bytes, the feed's real state and the herding guard the next 64 (ttft
 * learns from the real state); in a view array allocated 64-byte aligned
 * (kvr_engine_views_alloc) a pass then reads one or two cache lines per
 * view instead of three. The rest is read for one view or for the pick.
 */
typedef struct kvr_engine_view_s {
    uint32_t index; /* stable engine index in the router's table (< KVR_MAX_ENGINES) */

    /*
     * Effective values when feed_fresh: this router's own in flight now plus
     * the load it did not send (eff_requests = shadow + external_requests +
     * others_since_requests), split as the shadow splits its own: running
     * up to max_running (or the sample's running when above it); tokens
     * max(shadow, real + sent since - ended since). Else shadow, split as running up to
     * max_running (all running when the cap is unknown).
     */
    uint32_t eff_requests; /* shadow_requests + external_requests + others_since_requests */
    uint32_t eff_running;
    uint32_t eff_waiting;

    /* Capacities; 0 = unknown. caps_complete: every DP rank reported max_running > 0. */
    uint32_t max_running;
    bool feed_fresh; /* ES=1, slot healthy and younger than max age */
    bool caps_complete;

    uint64_t eff_pending_prefill_tokens;
    uint64_t eff_kv_tokens;
    uint64_t kv_capacity_tokens;
    double kv_usage;    /* 0..1, max over KV pools; < 0 unknown */
    double utilization; /* 0..1 where the engine reports it; < 0 unknown */
    /* (64 bytes) */

    /* Real state from the feed (feed_fresh above); meaningful only when feed_fresh. */
    uint64_t feed_age_ns; /* age of the slot's sample (0 when no slot or a time from the future) */
    uint32_t real_running;
    uint32_t real_waiting;
    uint64_t real_pending_prefill_tokens;
    uint64_t real_kv_tokens;
    uint64_t max_prefill_remaining;

    /*
     * Herding guard. When the feed shows load this router did not send
     * (other routers read the same sample and pick the same argmin), a pick
     * whose score is within herd_slack requests' worth of the best is as
     * good as the best, and among those the lowest tie_draw wins: a seeded
     * draw of this router's, different per router. herd_slack is the other
     * routers' share of the fleet's work per unit of this router's: each of
     * them may be taking the same pick from the same sample. herd_slack 0: off (ES=0,
     * no other router seen, or --es-spread 0), the plain argmin.
     */
    uint32_t herd_slack;
    uint32_t dp_ranks;
    uint64_t tie_draw;

    const char *id; /* base URL exactly as configured */

    /* Shadow counters: what this router dispatched and has not seen finish. */
    uint32_t shadow_requests; /* in flight */
    uint64_t
        shadow_pending_prefill_tokens; /* prompt tokens of in-flight requests before first byte */
    uint64_t shadow_kv_tokens;         /* prompt + generated tokens held by in-flight requests */
    /* This router's dispatches here after the sample was taken (the sample lacks them); 0 unless
     * feed_fresh and the sent-since correction is on. */
    uint32_t sent_since_requests;
    uint64_t sent_since_tokens; /* their uncached prompt tokens */
    /* This router's requests that were in flight at the sample and ended since (the sample
     * still counts them), and the KV tokens they held. */
    uint32_t finished_since_requests;
    /* Load in the sample this router did not send: real - this router's in flight at the
     * sample, at least 0; and what other senders likely added since, from how it grew. */
    uint32_t external_requests;
    uint64_t finished_since_kv_tokens;
    uint32_t others_since_requests;
    uint8_t pad_[4]; /* to 192 bytes: each view's first 64 bytes one cache line */
} kvr_engine_view_t;

_Static_assert(offsetof(kvr_engine_view_t, feed_age_ns) == 64,
               "what a pick's passes read fills the first 64 bytes");
_Static_assert(offsetof(kvr_engine_view_t, tie_draw) + 8 <= 128,
               "the feed's real state and the herding guard the second 64");
_Static_assert(sizeof(kvr_engine_view_t) % 64 == 0, "views of an aligned array start lines");

/** A zeroed array of n views, 64-byte aligned (free with free()); NULL when out of memory. */
static inline kvr_engine_view_t *kvr_engine_views_alloc(size_t n)
{
    size_t bytes = (n ? n : 1) * sizeof(kvr_engine_view_t);
    bytes = (bytes + 63) & ~(size_t)63;
    kvr_engine_view_t *views = aligned_alloc(64, bytes);
    if (views)
        memset(views, 0, bytes);
    return views;
}

/**
 * What a pick's passes over the whole fleet read of views[0..n), one array
 * per field: index[v] == views[v].index, and so on. A pass over ten
 * thousand engines then reads 20 to 40 bytes per engine from a few dense
 * arrays instead of a view's first cache line (fetched with its neighbour),
 * and waits on memory far less. The core fills them beside the views
 * (kvr_engine_columns_set); a policy given none copies them from the views.
 */
typedef struct kvr_engine_columns_s {
    uint64_t *eff_pending_prefill_tokens;
    uint64_t *eff_kv_tokens;
    uint64_t *kv_capacity_tokens;
    double *kv_usage;
    double *utilization;
    uint32_t *index;
    uint32_t *eff_requests;
    uint32_t *eff_running;
    uint32_t *eff_waiting;
    uint32_t *max_running;
    bool *feed_fresh;
    bool *caps_complete;
} kvr_engine_columns_t;

/** Columns for n views in one allocation: 0 or -ENOMEM (free with kvr_engine_columns_close). */
static inline int kvr_engine_columns_init(kvr_engine_columns_t *c, size_t n)
{
    n = n ? n : 1;
    uint64_t *words = calloc(n, 5 * sizeof(uint64_t) + 5 * sizeof(uint32_t) + 2 * sizeof(bool));
    if (!words) {
        memset(c, 0, sizeof *c);
        return -ENOMEM;
    }
    c->eff_pending_prefill_tokens = words;
    c->eff_kv_tokens = words + n;
    c->kv_capacity_tokens = words + 2 * n;
    c->kv_usage = (double *)(words + 3 * n);
    c->utilization = (double *)(words + 4 * n);
    c->index = (uint32_t *)(words + 5 * n);
    c->eff_requests = c->index + n;
    c->eff_running = c->index + 2 * n;
    c->eff_waiting = c->index + 3 * n;
    c->max_running = c->index + 4 * n;
    c->feed_fresh = (bool *)(c->index + 5 * n);
    c->caps_complete = c->feed_fresh + n;
    return 0;
}

static inline void kvr_engine_columns_close(kvr_engine_columns_t *c)
{
    free(c->eff_pending_prefill_tokens);
    memset(c, 0, sizeof *c);
}

/** Row v of the columns from its view. */
static inline void kvr_engine_columns_set(kvr_engine_columns_t *c, size_t v,
                                          const kvr_engine_view_t *view)
{
    c->eff_pending_prefill_tokens[v] = view->eff_pending_prefill_tokens;
    c->eff_kv_tokens[v] = view->eff_kv_tokens;
    c->kv_capacity_tokens[v] = view->kv_capacity_tokens;
    c->kv_usage[v] = view->kv_usage;
    c->utilization[v] = view->utilization;
    c->index[v] = view->index;
    c->eff_requests[v] = view->eff_requests;
    c->eff_running[v] = view->eff_running;
    c->eff_waiting[v] = view->eff_waiting;
    c->max_running[v] = view->max_running;
    c->feed_fresh[v] = view->feed_fresh;
    c->caps_complete[v] = view->caps_complete;
}

/** The request as the policy sees it: routing keys already extracted. */
typedef struct kvr_route_request_s {
    const char *request_id;
    const char *session_id; /* NULL when the request has none */
    const char *model;      /* the pool: only engines serving it are candidates; NULL = any */
    const char *text;       /* routing text (messages' contents in order, or prompt) */
    size_t text_len;
    /* token_blocks: chained hashes of --block-tokens token blocks (kvr_token_hash_blocks), else
     * chained 64-byte block hashes of text (common/prefix_hash.h) */
    const uint64_t *block_hashes;
    size_t n_blocks;
    bool token_blocks;
    uint32_t block_tokens; /* tokens one block holds (--block-tokens); 0: a text block's estimate */
    uint32_t prompt_tokens;   /* prompt tokens: exact (the model's tokenizer) or bytes/4 */
    bool prompt_tokens_exact; /* counted by the model's tokenizer */
    uint32_t max_tokens;      /* requested output tokens, 0 = unknown */
    uint64_t now_ns;          /* CLOCK_MONOTONIC */
    /* The token block chain as engines' KV events name it (kvr_token_hash_blocks, not folded with
     * the pool's model), for --cache-state; set by the core from token_blocks requests, else NULL. */
    const uint64_t *token_hashes;
    size_t n_token_blocks;
    /* Where engines' own reports of their caches come from (--cache-state); set by the core,
     * NULL: the policy's own prefix index alone. */
    const struct kvr_match_source_s *match_source;
    uint8_t role; /* kvr_engine_role_t: only engines of this role are candidates */
    /* The views' columns (kvr_engine_columns_t), set by the core; NULL: the policy copies them. */
    const struct kvr_engine_columns_s *columns;
} kvr_route_request_t;

/** Tokens per block of req's block hashes: --block-tokens, or a 64-byte text block at bytes/4. */
#define KVR_ROUTE_BLOCK_TOKENS(req)                                                                \
    ((uint64_t)((req)->block_tokens ? (req)->block_tokens                                          \
                                    : KVR_PREFIX_BLOCK_BYTES / KVR_BYTES_PER_TOKEN))

/**
 * Matches an engine reported itself (router/cache_state.h): the one step
 * every prefix-aware policy takes after its own index (policies/indexed.c).
 */
typedef struct kvr_match_source_s {
    /**
     * Replaces match_blocks[v] (in blocks of KVR_ROUTE_BLOCK_TOKENS(req) tokens, as the index
     * counts) for each view whose engine's cache the source knows; own is the index's
     * longest match. Returns the longest match over the views afterwards.
     */
    uint32_t (*apply)(void *ctx, const struct kvr_route_request_s *req,
                      const kvr_engine_view_t *views, size_t n, uint32_t *match_blocks,
                      uint32_t own);
    void *ctx;
} kvr_match_source_t;

/* Flags a policy may set on its decision; the core counts them in /metrics. */
#define KVR_DECISION_PRESSURE_FALLBACK                                                             \
    (1u << 0) /* cache_aware: caps incomplete, fell back fleet-wide */
#define KVR_DECISION_INPUT_CLAMPED                                                                 \
    (1u << 1) /* ttft: an absurd feed value or learned figure was clamped */

/** A policy's answer. reason is a static label counted in /metrics and logged. */
typedef struct kvr_route_decision_s {
    int view;           /* index into the views array, or -1 when no engine fits */
    const char *reason; /* e.g. "least_load", "cache_hit", "overload_fallback" */
    uint32_t
        prefix_match_blocks; /* matched prefix blocks on the chosen engine (0 if not tracked) */
    uint32_t flags;          /* KVR_DECISION_* */
} kvr_route_decision_t;

/** Tunables of every policy, with defaults from kvr_policy_config_defaults(). */
typedef struct kvr_policy_config_s {
    uint64_t seed; /* random, power_of_two, cost sampling */
    /* affinity */
    double overload_factor; /* guard A: 1.3 */
    /* cache_aware */
    uint32_t balance_abs;         /* 64 */
    double balance_rel;           /* 1.5 */
    double cache_threshold;       /* 0.3 */
    bool owner_pressure;          /* off by default: the SGLang rule as it ships */
    double high_watermark;        /* 0.90 */
    double owner_slack;           /* 0.10 */
    uint32_t replication_ceiling; /* owners per prefix */
    uint64_t spill_cooldown_ns;   /* one spill per prefix per cooldown */
    /* cost */
    double overlap_weight;
    double temperature; /* 0 = argmin, > 0 softmax sampling */
    /* prefix index */
    uint64_t index_tokens_per_engine; /* LRU budget when the feed does not tell the KV capacity */
    uint64_t index_ttl_ns;
    uint64_t
        index_max_blocks; /* (block, engine) entries over the whole fleet: bounds the index's memory */
    /* migration of pinned sessions (sticky, affinity) */
    double
        migrate_factor; /* re-home when the pin's eff_requests > factor x fleet mean + 1; 0 = off */
    /* ttft: priors of a new engine, the weight of the delay imposed on others, the learning rate */
    double ttft_prefill_tokens_per_s; /* 10000 */
    double ttft_step_ms;              /* 12: decode step of an empty batch */
    double ttft_step_per_seq_ms;      /* 0.15: added per running sequence */
    double ttft_others_weight;        /* 0.5: seconds of others' delay per second of own TTFT */
    double ttft_learn_rate;           /* 0.2: EWMA weight of a new observation */
    uint64_t
        ttft_output_tokens; /* 128: output length of running requests until max_tokens are seen */
    /* llmd: sticky to the cache-warm engine until its queued prefill exceeds rate x penalty */
    double llmd_prefill_tokens_per_s; /* 10000 */
    uint64_t llmd_ttft_penalty_ns;    /* 1 s */
} kvr_policy_config_t;

/** One answer's first byte as the router saw it, for policies that learn engine speed. */
typedef struct kvr_first_byte_s {
    uint32_t engine_index;
    uint32_t prompt_tokens;
    uint64_t uncached_tokens; /* prompt minus the prefix match counted at dispatch */
    uint64_t
        queued_prefill_tokens; /* the engine's eff pending prefill at dispatch, this request excluded */
    uint32_t running;          /* the engine's eff_running at dispatch */
    uint32_t waiting;          /* its eff_waiting at dispatch */
    uint32_t max_running;      /* its batch cap (0 unknown) */
    uint64_t ttft_ns;          /* dispatch of this attempt to the answer's first body byte */
} kvr_first_byte_t;

typedef struct kvr_policy_ops_s {
    const char *name;
    /** Allocates the policy's state; 0 or -errno. */
    int (*create)(const kvr_policy_config_t *config, void **state);
    void (*destroy)(void *state);
    /** Chooses one of views[0..n) (n >= 1, all healthy candidates) for req. */
    void (*pick)(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                 size_t n, kvr_route_decision_t *out);
    /**
     * The engine the policy's base rule alone would pick (cache_aware: the
     * cache owner, with no owner pressure), changing no state the next pick
     * reads. Admission before routing judges it. May be NULL: pick is the
     * base rule.
     */
    void (*base_pick)(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                      size_t n, kvr_route_decision_t *out);
    /** The core dispatched req to engine_index (the pick, a pin or a retry); may be NULL. */
    void (*on_dispatch)(void *state, const kvr_route_request_t *req, uint32_t engine_index);
    /**
     * engine_index left the table; forget it. Called again when the index is
     * freed for reuse (what the policy learnt meanwhile is then forgotten
     * too). May be NULL.
     */
    void (*on_engine_removed)(void *state, uint32_t engine_index);
    /** The first body byte of a streamed answer arrived. May be NULL. */
    void (*on_first_byte)(void *state, const kvr_first_byte_t *fb);
} kvr_policy_ops_t;

/**
 * Upper bound on engine indexes in one router's table: the most --max-engines
 * accepts. Per-index arrays of the policies are sized by it (heap, touched
 * only for indexes in use); the table itself by --max-engines.
 */
#define KVR_MAX_ENGINES 16384

/** The policy registered under name ("round_robin", "load_only", ...), or NULL. */
const kvr_policy_ops_t *kvr_policy_find(const char *name);
/** Writes the registered policy names, comma-separated, for --help and errors. */
void kvr_policy_list(FILE *out);
/** Fills config with the documented defaults. */
void kvr_policy_config_defaults(kvr_policy_config_t *config);
/**
 * Applies one policy option ("overload-factor", "0.5"): 0, -ENOENT when the
 * key is not a policy option, -EINVAL when the value does not parse or is out of range.
 */
int kvr_policy_config_set(kvr_policy_config_t *config, const char *key, const char *value);
/** The policy options' table bound to config, for the router's flag parser and --help. */
kvr_opt_set_t kvr_policy_config_options(kvr_policy_config_t *config);
/** Writes the policy options with their defaults and meaning, for --help. */
void kvr_policy_config_help(FILE *out);
/**
 * True when a session pinned to views[pinned] should be placed again
 * because its engine's eff_requests exceeds migrate_factor x fleet mean + 1
 * (never when migrate_factor is 0). The core re-runs the policy and counts it.
 */
bool kvr_policy_migrate_due(const kvr_policy_config_t *config, const kvr_engine_view_t *views,
                            size_t n, size_t pinned);

#endif
