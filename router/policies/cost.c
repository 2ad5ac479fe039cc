/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cost: Dynamo's KV router rule — lowest overlap_weight × uncached prompt
 * blocks + active decode blocks (KV the engine holds for in-flight work).
 * With temperature > 0 the logits, normalised to [0, 1], become a softmax
 * sampled with the seeded generator, which spreads near-ties instead of
 * herding on one argmin.
 */
#include <assert.h>
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

/* What cost_logit needs of the request, computed once per pick. */
typedef struct {
    uint64_t tpb;           /* tokens per block */
    unsigned shift;         /* log2(tpb) when tpb is a power of two, else 64 */
    uint64_t prompt_blocks; /* the prompt in blocks, rounded up */
} cost_req_t;

static cost_req_t cost_req(const kvr_route_request_t *req)
{
    cost_req_t c = {.tpb = KVR_ROUTE_BLOCK_TOKENS(req), .shift = 64};
    c.prompt_blocks = req->prompt_tokens ? (req->prompt_tokens + c.tpb - 1) / c.tpb : req->n_blocks;
    if ((c.tpb & (c.tpb - 1)) == 0)
        c.shift = (unsigned)__builtin_ctzll(c.tpb);
    return c;
}

/* A shift, not a division, for the usual power-of-two block: the same quotient for any sum. */
static inline uint64_t blocks_of(const cost_req_t *c, uint64_t tokens)
{
    uint64_t rounded = tokens + c->tpb - 1;
    return c->shift < 64 ? rounded >> c->shift : rounded / c->tpb;
}

/* Of an engine's eff KV tokens and its match. */
static double cost_logit(const kvr__indexed_t *st, const cost_req_t *c, uint64_t eff_kv_tokens,
                         uint32_t match)
{
    uint64_t uncached = c->prompt_blocks > match ? c->prompt_blocks - match : 0;
    uint64_t decode = blocks_of(c, eff_kv_tokens);
    return st->config.overlap_weight * (double)uncached + (double)decode;
}

static void cost_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                      size_t n, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = state;
    assert(n >= 1 && n <= KVR_MAX_ENGINES);
    kvr__walk_t w;
    kvr__indexed_walk(st, req, views, n, &w);
    const kvr_engine_columns_t *col = kvr__indexed_columns(st, req, views, n);
    double *logit = st->score;
    const cost_req_t c = cost_req(req);
    /* One pass over the views; the logits are kept only for sampling or the herding guard. */
    const bool keep = st->config.temperature > 0 || views[0].herd_slack > 0;
    double lo, hi;
    size_t pick;
    bool stale;
    do {
        lo = INFINITY;
        hi = -INFINITY;
        pick = 0;
        stale = false;
        uint32_t pick_requests = 0;
        for (size_t v = 0; v < n; v++) {
            stale |= kvr__walk_stale_at(&w, col, v);
            double l = cost_logit(st, &c, col->eff_kv_tokens[v], kvr__walk_match_at(&w, col, v));
            if (keep)
                logit[v] = l;
            /* One test on the common path: most views cost more than the best. */
            if (l <= lo && (l < lo || col->eff_requests[v] < pick_requests)) {
                lo = l;
                pick = v;
                pick_requests = col->eff_requests[v];
            }
            if (l > hi)
                hi = l;
        }
    } while (stale && kvr__indexed_relearn(st, req, views, n, &w));
    if (st->config.temperature <= 0) {
        if (views[pick].herd_slack > 0) {
            if (!keep)
                for (size_t v = 0; v < n; v++)
                    logit[v] = cost_logit(st, &c, col->eff_kv_tokens[v],
                                          kvr__walk_match_at(&w, col, v));
            /* One request more on the best: its own prompt's blocks of decode KV. */
            const uint64_t tpb = KVR_ROUTE_BLOCK_TOKENS(req);
            double own = req->prompt_tokens ? (double)((req->prompt_tokens + tpb - 1) / tpb)
                                            : (double)req->n_blocks;
            pick = kvr__policy_spread(views, n, logit, pick, own);
        }
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
    out->prefix_match_blocks = kvr__walk_match(&w, &views[pick]);
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
