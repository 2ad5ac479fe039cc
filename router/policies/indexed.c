/* SPDX-License-Identifier: Apache-2.0 */
/* What the policies share: load picks, LMetric pick, prefix-index state. */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

size_t kvr__policy_least_load(const kvr_engine_view_t *views, size_t n, uint32_t *cursor)
{
    assert(n >= 1);
    if (views[0].herd_slack > 0) {
        uint32_t least = UINT32_MAX;
        for (size_t v = 0; v < n; v++)
            if (views[v].eff_requests < least)
                least = views[v].eff_requests;
        /* Other routers read the same sample: any engine within the slack, by this router's draw. */
        uint64_t within = (uint64_t)least + views[0].herd_slack;
        size_t pick = n;
        for (size_t v = 0; v < n; v++)
            if (views[v].eff_requests <= within &&
                (pick == n || views[v].tie_draw < views[pick].tie_draw))
                pick = v;
        if (cursor)
            *cursor = views[pick].index;
        return pick;
    }
    /*
     * One pass. Among equals, the smallest engine index above the cursor,
     * else the smallest overall: a rotation that survives engines joining
     * and leaving. Without a cursor, the first of them.
     */
    const uint32_t at = cursor ? *cursor : 0;
    uint32_t least = UINT32_MAX, first_index = 0, after_index = 0;
    size_t least_first = 0, first = n, after = n;
    for (size_t v = 0; v < n; v++) {
        uint32_t r = views[v].eff_requests, index = views[v].index;
        if (r > least)
            continue;
        if (r < least) {
            least = r;
            least_first = first = v;
            first_index = index;
            after = index > at ? v : n;
            after_index = index;
            continue;
        }
        if (index < first_index) {
            first = v;
            first_index = index;
        }
        if (index > at && (after == n || index < after_index)) {
            after = v;
            after_index = index;
        }
    }
    if (!cursor)
        return least_first;
    size_t pick = after != n ? after : first;
    *cursor = views[pick].index;
    return pick;
}

size_t kvr__policy_least_lmetric(const kvr_route_request_t *req, const kvr_engine_view_t *views,
                                 const kvr_engine_columns_t *c, size_t n,
                                 const uint32_t *match_blocks)
{
    assert(n >= 1);
    size_t best = 0;
    double best_score = 0;
    for (size_t v = 0; v < n; v++) {
        double s = kvr__policy_lmetric_of(
            c->eff_pending_prefill_tokens[v], c->eff_running[v],
            kvr__policy_uncached_tokens(req, match_blocks ? match_blocks[v] : 0));
        if (v == 0 || s < best_score ||
            (s == best_score && c->eff_requests[v] < c->eff_requests[best])) {
            best = v;
            best_score = s;
        }
    }
    if (views[best].herd_slack == 0)
        return best;
    /* One more request in the best's batch: its prefill load times one more running. */
    double per_request = (double)views[best].eff_pending_prefill_tokens +
                         (double)kvr__policy_uncached_tokens(req,
                                                             match_blocks ? match_blocks[best] : 0);
    double within = best_score + (double)views[best].herd_slack * per_request;
    size_t pick = best;
    for (size_t v = 0; v < n; v++) {
        double s = kvr__policy_lmetric_score(
            &views[v], kvr__policy_uncached_tokens(req, match_blocks ? match_blocks[v] : 0));
        if (s <= within && views[v].tie_draw < views[pick].tie_draw)
            pick = v;
    }
    return pick;
}

size_t kvr__policy_least_lmetric_walk(kvr__indexed_t *st, const kvr_route_request_t *req,
                                      const kvr_engine_view_t *views, size_t n, kvr__walk_t *w)
{
    assert(n >= 1 && n <= KVR_MAX_ENGINES);
    kvr__indexed_walk(st, req, views, n, w);
    const kvr_engine_columns_t *c = kvr__indexed_columns(st, req, views, n);
    size_t best;
    double best_score;
    bool stale;
    /* The prompt's tokens, hoisted: the pass is the pick's cost at fleet scale. */
    const uint64_t prompt = kvr__policy_uncached_tokens(req, 0);
    const uint64_t block_tokens = KVR_ROUTE_BLOCK_TOKENS(req);
    do {
        best = 0;
        best_score = INFINITY; /* scores are finite: the first view takes it */
        stale = false;
        uint32_t best_requests = 0;
        for (size_t v = 0; v < n; v++) {
            stale |= kvr__walk_stale_at(w, c, v);
            uint64_t cached = (uint64_t)kvr__walk_match_at(w, c, v) * block_tokens;
            uint64_t uncached = prompt > cached ? prompt - cached : 0;
            double s = kvr__policy_lmetric_of(c->eff_pending_prefill_tokens[v], c->eff_running[v],
                                              uncached);
            /* One test on the common path: most views score above the best. */
            if (s <= best_score && (s < best_score || c->eff_requests[v] < best_requests)) {
                best = v;
                best_score = s;
                best_requests = c->eff_requests[v];
            }
        }
    } while (stale && kvr__indexed_relearn(st, req, views, n, w));
    if (views[best].herd_slack == 0)
        return best;
    /* One more request in the best's batch: its prefill load times one more running. */
    double per_request = (double)views[best].eff_pending_prefill_tokens +
                         (double)kvr__policy_uncached_tokens(req, kvr__walk_match(w, &views[best]));
    double within = best_score + (double)views[best].herd_slack * per_request;
    size_t pick = best;
    for (size_t v = 0; v < n; v++) {
        double s = kvr__policy_lmetric_score(
            &views[v], kvr__policy_uncached_tokens(req, kvr__walk_match(w, &views[v])));
        if (s <= within && views[v].tie_draw < views[pick].tie_draw)
            pick = v;
    }
    return pick;
}

size_t kvr__policy_spread(const kvr_engine_view_t *views, size_t n, const double *score,
                          size_t best, double per_request)
{
    if (views[best].herd_slack == 0 || !(per_request >= 0))
        return best;
    double within = score[best] + (double)views[best].herd_slack * per_request;
    size_t pick = best;
    for (size_t v = 0; v < n; v++)
        if (score[v] <= within && views[v].tie_draw < views[pick].tie_draw)
            pick = v;
    return pick;
}

int kvr__indexed_create(const kvr_policy_config_t *config, size_t size, kvr__indexed_t **out)
{
    assert(size >= sizeof(kvr__indexed_t));
    kvr__indexed_t *st = calloc(1, size);
    if (!st)
        return -ENOMEM;
    st->config = *config;
    st->rng = config->seed;
    st->cursor = UINT32_MAX;
    int rc = kvr_engine_columns_init(&st->columns, KVR_MAX_ENGINES);
    if (rc < 0)
        goto fail_columns;
    rc = kvr_prefix_index_create(config->index_tokens_per_engine, config->index_ttl_ns,
                                 config->index_max_blocks, &st->index);
    if (rc < 0)
        goto fail_index;
    *out = st;
    return 0;

fail_index:
    kvr_engine_columns_close(&st->columns);
fail_columns:
    free(st);
    return rc;
}

void kvr__indexed_destroy(void *state)
{
    kvr__indexed_t *st = state;
    if (!st)
        return;
    kvr_prefix_index_destroy(st->index);
    kvr_engine_columns_close(&st->columns);
    free(st);
}

const kvr_engine_columns_t *kvr__indexed_columns(kvr__indexed_t *st, const kvr_route_request_t *req,
                                                 const kvr_engine_view_t *views, size_t n)
{
    if (req->columns)
        return req->columns;
    assert(n <= KVR_MAX_ENGINES);
    for (size_t v = 0; v < n; v++)
        kvr_engine_columns_set(&st->columns, v, &views[v]);
    return &st->columns;
}

void kvr__indexed_walk(kvr__indexed_t *st, const kvr_route_request_t *req,
                       const kvr_engine_view_t *views, size_t n, kvr__walk_t *w)
{
    const kvr_match_source_t *src = req->match_source;
    bool sourced = src != NULL && src->apply != NULL;
    if (sourced)
        kvr_prefix_index_learn(st->index, views, n); /* no stale budget after the source */
    kvr_prefix_index_walk(st->index, req->block_hashes, req->n_blocks, req->now_ns);
    w->match = kvr_prefix_index_matches(st->index);
    w->budget = kvr_prefix_index_budgets(st->index);
    w->relearnt = sourced;
    if (!sourced)
        return;
    /* --cache-state: where the engines report their caches, their reports win over the guess. */
    uint32_t own = 0;
    for (size_t v = 0; v < n; v++) {
        st->match[v] = kvr__walk_match(w, &views[v]);
        own = st->match[v] > own ? st->match[v] : own;
    }
    (void)src->apply(src->ctx, req, views, n, st->match, own);
    for (size_t v = 0; v < n; v++)
        if (views[v].index < KVR_MAX_ENGINES)
            st->sourced[views[v].index] = st->match[v];
    w->match = st->sourced;
}

bool kvr__indexed_relearn(kvr__indexed_t *st, const kvr_route_request_t *req,
                          const kvr_engine_view_t *views, size_t n, kvr__walk_t *w)
{
    if (w->relearnt)
        return false;
    kvr_prefix_index_learn(st->index, views, n);
    kvr__indexed_walk(st, req, views, n, w);
    w->relearnt = true;
    return true;
}

uint32_t kvr__indexed_match(kvr__indexed_t *st, const kvr_route_request_t *req,
                            const kvr_engine_view_t *views, size_t n)
{
    assert(n <= KVR_MAX_ENGINES);
    kvr__walk_t w;
    kvr__indexed_walk(st, req, views, n, &w);
    for (;;) {
        uint32_t best = 0;
        bool stale = false;
        for (size_t v = 0; v < n; v++) {
            uint32_t m = kvr__walk_match(&w, &views[v]);
            st->match[v] = m;
            stale |= kvr__walk_stale(&w, &views[v]);
            best = m > best ? m : best;
        }
        if (!stale || !kvr__indexed_relearn(st, req, views, n, &w))
            return best;
    }
}

void kvr__indexed_on_dispatch(void *state, const kvr_route_request_t *req, uint32_t engine_index)
{
    kvr__indexed_t *st = state;
    if (engine_index >= KVR_MAX_ENGINES)
        return;
    kvr_prefix_index_insert(st->index, req->block_hashes, req->n_blocks, engine_index, req->now_ns);
}

void kvr__indexed_on_engine_removed(void *state, uint32_t engine_index)
{
    kvr__indexed_t *st = state;
    if (engine_index < KVR_MAX_ENGINES)
        kvr_prefix_index_remove_engine(st->index, engine_index);
}
