/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_POLICIES_POLICY_UTIL_H
#define KVR_ROUTER_POLICIES_POLICY_UTIL_H

/*
 * What the policies under router/policies/ share and nobody else uses: the
 * seeded generator, the load and LMetric scores, and the prefix-index state
 * of the cache-aware policies (indexed.c).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"
#include "router/policy.h"
#include "router/prefix_index.h"

/* Every registered policy, defined one per file. */
extern const kvr_policy_ops_t kvr__policy_round_robin;
extern const kvr_policy_ops_t kvr__policy_random;
extern const kvr_policy_ops_t kvr__policy_power_of_two;
extern const kvr_policy_ops_t kvr__policy_load_only;
extern const kvr_policy_ops_t kvr__policy_lmetric;
extern const kvr_policy_ops_t kvr__policy_affinity;
extern const kvr_policy_ops_t kvr__policy_cache_aware;
extern const kvr_policy_ops_t kvr__policy_cost;
extern const kvr_policy_ops_t kvr__policy_ttft;
extern const kvr_policy_ops_t kvr__policy_llmd;
extern const kvr_policy_ops_t kvr__policy_lmetric_paper;
extern const kvr_policy_ops_t kvr__policy_kv_headroom;

/** Prompt tokens the engine must still prefill given its matched blocks. */
static inline uint64_t kvr__policy_uncached_tokens(const kvr_route_request_t *req,
                                                   uint32_t match_blocks)
{
    uint64_t prompt = req->prompt_tokens ? req->prompt_tokens
                                         : (uint64_t)req->n_blocks * KVR_ROUTE_BLOCK_TOKENS(req);
    uint64_t cached = (uint64_t)match_blocks * KVR_ROUTE_BLOCK_TOKENS(req);
    return prompt > cached ? prompt - cached : 0;
}

/** LMetric: prefill load × (decode load + 1), of an engine's eff pending prefill and running. */
static inline double kvr__policy_lmetric_of(uint64_t pending_prefill_tokens, uint32_t running,
                                            uint64_t uncached_tokens)
{
    return (double)(pending_prefill_tokens + uncached_tokens) * ((double)running + 1.0);
}

/** kvr__policy_lmetric_of the view. */
static inline double kvr__policy_lmetric_score(const kvr_engine_view_t *v, uint64_t uncached_tokens)
{
    return kvr__policy_lmetric_of(v->eff_pending_prefill_tokens, v->eff_running, uncached_tokens);
}

/**
 * The view with the lowest eff_requests; ties go to the first engine index
 * after *cursor (round robin among equals), and *cursor moves to the pick.
 * With cursor NULL ties go to the first view.
 */
size_t kvr__policy_least_load(const kvr_engine_view_t *views, size_t n, uint32_t *cursor);

/**
 * The view with the lowest LMetric given per-view matches (NULL = none); ties → fewer requests,
 * then first. columns: the views' (kvr__indexed_columns).
 */
size_t kvr__policy_least_lmetric(const kvr_route_request_t *req, const kvr_engine_view_t *views,
                                 const kvr_engine_columns_t *columns, size_t n,
                                 const uint32_t *match_blocks);

/**
 * The herding guard (router/policy.h herd_slack): best, or the view with
 * the lowest tie_draw among those scoring within herd_slack × per_request
 * of score[best] (lower is better). best itself when herd_slack is 0.
 */
size_t kvr__policy_spread(const kvr_engine_view_t *views, size_t n, const double *score,
                          size_t best, double per_request);

/** State shared by the policies that consult the prefix index. */
typedef struct kvr__indexed_s {
    kvr_policy_config_t config;
    kvr_prefix_index_t *index;
    uint64_t rng;
    uint32_t cursor;
    uint32_t match[KVR_MAX_ENGINES]; /* per view, for the current decision (kvr__indexed_match) */
    uint32_t
        sourced[KVR_MAX_ENGINES];  /* per engine index: the walk's matches after a match source */
    double score[KVR_MAX_ENGINES]; /* per view scratch */
    kvr_engine_columns_t columns;  /* the views' columns when the caller gave none */
} kvr__indexed_t;

/*
 * One decision's walk of the prefix index, for a policy that reads each
 * view's match in its own pass over the views instead of a per-view array
 * filled by a pass of its own: at ten thousand engines every pass over the
 * views costs more than the walk. The pass also checks the budgets
 * (kvr__walk_stale); when one is stale, kvr__indexed_relearn learns them and
 * walks again, and the pass is made again.
 */
typedef struct kvr__walk_s {
    const uint32_t *match;  /* per engine index */
    const uint64_t *budget; /* per engine index */
    bool relearnt;
} kvr__walk_t;

/**
 * Walks the index for req over views[0..n) (no budget learnt yet). With a
 * match source (--cache-state), the budgets are learnt first and the walk's
 * matches are the source's where it knows the engine: every prefix-aware
 * rule reads the same answer.
 */
void kvr__indexed_walk(kvr__indexed_t *st, const kvr_route_request_t *req,
                       const kvr_engine_view_t *views, size_t n, kvr__walk_t *w);

/** The view's matched blocks in the walk. */
static inline uint32_t kvr__walk_match(const kvr__walk_t *w, const kvr_engine_view_t *v)
{
    return v->index < KVR_MAX_ENGINES ? w->match[v->index] : 0;
}

/** The view's KV capacity is not its engine's budget in the index. */
static inline bool kvr__walk_stale(const kvr__walk_t *w, const kvr_engine_view_t *v)
{
    return kvr_prefix_index_budget_differs(w->budget, v);
}

/**
 * req's columns of views[0..n) (router/policy.h), or the views' own copied
 * into st's when the caller gave none: the passes over the fleet read these.
 */
const kvr_engine_columns_t *kvr__indexed_columns(kvr__indexed_t *st, const kvr_route_request_t *req,
                                                 const kvr_engine_view_t *views, size_t n);

/** kvr__walk_match of view v, read from its columns. */
static inline uint32_t kvr__walk_match_at(const kvr__walk_t *w, const kvr_engine_columns_t *c,
                                          size_t v)
{
    uint32_t index = c->index[v];
    return index < KVR_MAX_ENGINES ? w->match[index] : 0;
}

/** kvr__walk_stale of view v, read from its columns. */
static inline bool kvr__walk_stale_at(const kvr__walk_t *w, const kvr_engine_columns_t *c, size_t v)
{
    return kvr_prefix_index_capacity_differs(w->budget, c->index[v], c->kv_capacity_tokens[v]);
}

/**
 * A pass found a stale budget: learns the views' capacities and walks
 * again, as learning then matching would have; true when the caller must
 * make its pass again, false when the walk was relearnt already.
 */
bool kvr__indexed_relearn(kvr__indexed_t *st, const kvr_route_request_t *req,
                          const kvr_engine_view_t *views, size_t n, kvr__walk_t *w);

/**
 * kvr__policy_least_lmetric over the walk of req, in one pass over the views
 * (two with the herding guard); w then holds the walk, for the pick's match.
 */
size_t kvr__policy_least_lmetric_walk(kvr__indexed_t *st, const kvr_route_request_t *req,
                                      const kvr_engine_view_t *views, size_t n, kvr__walk_t *w);

/** Allocates an indexed state (extra bytes after it for the policy's own fields). 0 or -errno. */
int kvr__indexed_create(const kvr_policy_config_t *config, size_t size, kvr__indexed_t **out);
void kvr__indexed_destroy(void *state);
/** Learns budgets from the views and fills st->match per view; returns the best match. */
uint32_t kvr__indexed_match(kvr__indexed_t *st, const kvr_route_request_t *req,
                            const kvr_engine_view_t *views, size_t n);
void kvr__indexed_on_dispatch(void *state, const kvr_route_request_t *req, uint32_t engine_index);
void kvr__indexed_on_engine_removed(void *state, uint32_t engine_index);

#endif
