/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cost: Dynamo's KV router rule — lowest overlap_weight × uncached prompt
 * blocks + active decode blocks (KV the engine holds for in-flight work).
 * With temperature > 0 the logits, normalised to [0, 1], become a softmax
 * sampled with the seeded generator, which spreads near-ties instead of
 * herding on one argmin.
 */
#include <math.h>

#include "router/policies/policy_util.h"

static int cost_create(const kvr_policy_config_t *config, void **state)
{
    kvr__indexed_t *st;
    int rc = kvr__indexed_create(config, sizeof(*st), &st);
    if (rc < 0)
        return rc;
    *state = st;
    return 0;
}

static double cost_logit(const kvr__indexed_t *st, const kvr_route_request_t *req,
                         const kvr_engine_view_t *v, uint32_t match)
{
    const uint64_t tpb = KVR_ROUTE_BLOCK_TOKENS(req);
    uint64_t prompt_blocks = req->prompt_tokens ? (req->prompt_tokens + tpb - 1) / tpb
                                                : req->n_blocks;
    uint64_t uncached = prompt_blocks > match ? prompt_blocks - match : 0;
    uint64_t decode = (v->eff_kv_tokens + tpb - 1) / tpb;
    return st->config.overlap_weight * (double)uncached + (double)decode;
}

static void cost_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                      size_t n, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = state;
    kvr__indexed_match(st, req, views, n);
    double *logit = st->score;
    double lo = INFINITY, hi = -INFINITY;
    size_t pick = 0;
    for (size_t v = 0; v < n; v++) {
        logit[v] = cost_logit(st, req, &views[v], st->match[v]);
        if (logit[v] < lo || (logit[v] == lo && views[v].eff_requests < views[pick].eff_requests)) {
            lo = logit[v];
            pick = v;
        }
        if (logit[v] > hi)
            hi = logit[v];
    }
    if (st->config.temperature <= 0) {
        /* One request more on the best: its own prompt's blocks of decode KV. */
        const uint64_t tpb = KVR_ROUTE_BLOCK_TOKENS(req);
        double own = req->prompt_tokens ? (double)((req->prompt_tokens + tpb - 1) / tpb)
                                        : (double)req->n_blocks;
        pick = kvr__policy_spread(views, n, logit, pick, own);
    } else if (hi > lo) {
        double total = 0;
        for (size_t v = 0; v < n; v++) {
            logit[v] = exp(-((logit[v] - lo) / (hi - lo)) / st->config.temperature);
            total += logit[v];
        }
        double r = kvr_splitmix64_unit(&st->rng) * total;
        pick = n - 1;
        for (size_t v = 0; v < n; v++) {
            if (r < logit[v]) {
                pick = v;
                break;
            }
            r -= logit[v];
        }
    }
    out->view = (int)pick;
    out->reason = "cost";
    out->prefix_match_blocks = st->match[pick];
    out->flags = 0;
}

const kvr_policy_ops_t kvr__policy_cost = {
    .name = "cost",
    .create = cost_create,
    .destroy = kvr__indexed_destroy,
    .pick = cost_pick,
    .on_dispatch = kvr__indexed_on_dispatch,
    .on_engine_removed = kvr__indexed_on_engine_removed,
};
