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

/** Prompt tokens the engine must still prefill given its matched blocks. */
static inline uint64_t kvr__policy_uncached_tokens(const kvr_route_request_t *req,
                                                   uint32_t match_blocks)
{
    uint64_t prompt = req->prompt_tokens ? req->prompt_tokens
                                         : (uint64_t)req->n_blocks * KVR_ROUTE_BLOCK_TOKENS(req);
    uint64_t cached = (uint64_t)match_blocks * KVR_ROUTE_BLOCK_TOKENS(req);
    return prompt > cached ? prompt - cached : 0;
}

/** LMetric: prefill load × (decode load + 1). */
static inline double kvr__policy_lmetric_score(const kvr_engine_view_t *v, uint64_t uncached_tokens)
{
    return (double)(v->eff_pending_prefill_tokens + uncached_tokens) *
           ((double)v->eff_running + 1.0);
}

/**
 * The view with the lowest eff_requests; ties go to the first engine index
 * after *cursor (round robin among equals), and *cursor moves to the pick.
 * With cursor NULL ties go to the first view.
 */
size_t kvr__policy_least_load(const kvr_engine_view_t *views, size_t n, uint32_t *cursor);

/** The view with the lowest LMetric given per-view matches (NULL = none); ties → fewer requests, then first. */
size_t kvr__policy_least_lmetric(const kvr_route_request_t *req, const kvr_engine_view_t *views,
                                 size_t n, const uint32_t *match_blocks);

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
    uint32_t match[KVR_MAX_ENGINES];  /* per view, for the current decision */
    uint64_t placed[KVR_MAX_ENGINES]; /* per view, for the current decision */
    double score[KVR_MAX_ENGINES];    /* per view scratch */
} kvr__indexed_t;

/** Allocates an indexed state (extra bytes after it for the policy's own fields). 0 or -errno. */
int kvr__indexed_create(const kvr_policy_config_t *config, size_t size, kvr__indexed_t **out);
void kvr__indexed_destroy(void *state);
/** Learns budgets from the views and fills st->match / st->placed; returns the best match. */
uint32_t kvr__indexed_match(kvr__indexed_t *st, const kvr_route_request_t *req,
                            const kvr_engine_view_t *views, size_t n);
void kvr__indexed_on_dispatch(void *state, const kvr_route_request_t *req, uint32_t engine_index);
void kvr__indexed_on_engine_removed(void *state, uint32_t engine_index);

#endif
