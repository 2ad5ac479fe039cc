/* SPDX-License-Identifier: Apache-2.0 */
/*
 * llmd: llm-d's default rule, sticky until saturated. The cache-warm
 * engine is the one holding the longest prefix of the request (fewer
 * eff_requests among equal matches, then the first view); the request
 * stays there while its queued prefill (eff_pending_prefill_tokens) is at
 * most llmd-prefill-tokens-per-s × llmd-ttft-penalty-ms, the TTFT the
 * cache hit may cost. Past that, or with no engine holding any prefix,
 * it goes on token load: fewest queued prefill tokens plus this request's
 * own uncached tokens on that engine, ties to fewer eff_requests.
 */
#include <assert.h>

#include "router/policies/policy_util.h"

static int llmd_create(const kvr_policy_config_t *config, void **state)
{
    kvr__indexed_t *st;
    int rc = kvr__indexed_create(config, sizeof(*st), &st);
    if (rc < 0)
        return rc;
    *state = st;
    return 0;
}

static void llmd_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                      size_t n, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = state;
    const kvr_policy_config_t *cfg = &st->config;
    assert(n >= 1 && n <= KVR_MAX_ENGINES);
    out->flags = 0;
    /* One pass finds the longest match and its least loaded holder, the cache-warm engine. */
    kvr__walk_t w;
    kvr__indexed_walk(st, req, views, n, &w);
    const kvr_engine_columns_t *c = kvr__indexed_columns(st, req, views, n);
    uint32_t longest;
    size_t warm;
    bool stale;
    do {
        longest = 0;
        warm = n;
        stale = false;
        uint32_t warm_requests = 0;
        for (size_t v = 0; v < n; v++) {
            uint32_t m = kvr__walk_match_at(&w, c, v);
            stale |= kvr__walk_stale_at(&w, c, v);
            if (m > 0 && (m > longest || (m == longest && c->eff_requests[v] < warm_requests))) {
                longest = m;
                warm = v;
                warm_requests = c->eff_requests[v];
            }
        }
    } while (stale && kvr__indexed_relearn(st, req, views, n, &w));
    if (longest > 0) {
        double budget = cfg->llmd_prefill_tokens_per_s * (double)cfg->llmd_ttft_penalty_ns / 1e9;
        if ((double)views[warm].eff_pending_prefill_tokens <= budget) {
            out->view = (int)warm;
            out->reason = "cache_warm";
            out->prefix_match_blocks = longest;
            return;
        }
    }
    size_t best = 0;
    for (size_t v = 0; v < n; v++) {
        st->score[v] = (double)c->eff_pending_prefill_tokens[v] +
                       (double)kvr__policy_uncached_tokens(req, kvr__walk_match_at(&w, c, v));
        if (v > 0 &&
            (st->score[v] < st->score[best] ||
             (st->score[v] == st->score[best] && c->eff_requests[v] < c->eff_requests[best])))
            best = v;
    }
    uint32_t best_match = kvr__walk_match(&w, &views[best]);
    best = kvr__policy_spread(views, n, st->score, best,
                              (double)kvr__policy_uncached_tokens(req, best_match));
    out->view = (int)best;
    out->reason = longest > 0 ? "saturated_token_load" : "token_load";
    out->prefix_match_blocks = kvr__walk_match(&w, &views[best]);
}

const kvr_policy_ops_t kvr__policy_llmd = {
    .name = "llmd",
    .create = llmd_create,
    .destroy = kvr__indexed_destroy,
    .pick = llmd_pick,
    .on_dispatch = kvr__indexed_on_dispatch,
    .on_engine_removed = kvr__indexed_on_engine_removed,
};
