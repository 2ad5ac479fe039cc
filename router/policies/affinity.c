/* SPDX-License-Identifier: Apache-2.0 */
/*
 * affinity: the engine with the longest prefix match in the index, with two
 * guards. Guard B: matches within one block of the best count as equal
 * (block boundaries and LRU trimming make exact depth noisy), and the least
 * loaded of them wins. Guard A: when that engine's eff_requests exceeds
 * overload_factor × fleet mean + 1, cache reuse is no longer worth its
 * queue and the lowest LMetric wins instead (overload_fallback).
 */
#include <assert.h>

#include "router/policies/policy_util.h"

static int affinity_create(const kvr_policy_config_t *config, void **state)
{
    kvr__indexed_t *st;
    int rc = kvr__indexed_create(config, sizeof(*st), &st);
    if (rc < 0)
        return rc;
    *state = st;
    return 0;
}

/*
 * The fallback leaves out every engine above the threshold: the overloaded
 * owner's full cache hit would otherwise give it an LMetric of zero and
 * win it back.
 */
static size_t least_lmetric_below(const kvr__walk_t *w, const kvr_route_request_t *req,
                                  const kvr_engine_columns_t *c, size_t n, double threshold)
{
    size_t best = n;
    double best_score = 0;
    for (size_t v = 0; v < n; v++) {
        if ((double)c->eff_requests[v] > threshold)
            continue;
        double s = kvr__policy_lmetric_of(
            c->eff_pending_prefill_tokens[v], c->eff_running[v],
            kvr__policy_uncached_tokens(req, kvr__walk_match_at(w, c, v)));
        if (best == n || s < best_score ||
            (s == best_score && c->eff_requests[v] < c->eff_requests[best])) {
            best = v;
            best_score = s;
        }
    }
    return best;
}

/* Fewer requests, then the deeper match, then the earlier view: guard B's order. */
static bool before(uint32_t ra, uint32_t ma, size_t va, uint32_t rb, uint32_t mb, size_t vb)
{
    if (ra != rb)
        return ra < rb;
    if (ma != mb)
        return ma > mb;
    return va < vb;
}

static void affinity_pick(void *state, const kvr_route_request_t *req,
                          const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = state;
    assert(n >= 1 && n <= KVR_MAX_ENGINES);
    out->flags = 0;
    /*
     * One pass: the fleet's load for guard A, and for guard B the least
     * loaded view among those with the best match and among those one
     * block short of it (the floor is known only at the end).
     */
    kvr__walk_t w;
    kvr__indexed_walk(st, req, views, n, &w);
    const kvr_engine_columns_t *c = kvr__indexed_columns(st, req, views, n);
    uint32_t best;
    size_t top, next; /* least loaded with the best match, and with best - 1; n = none */
    double sum;
    bool stale;
    do {
        best = 0;
        top = next = n;
        sum = 0;
        stale = false;
        uint32_t top_requests = 0, next_requests = 0;
        for (size_t v = 0; v < n; v++) {
            uint32_t m = kvr__walk_match_at(&w, c, v);
            uint32_t r = c->eff_requests[v];
            stale |= kvr__walk_stale_at(&w, c, v);
            sum += r;
            if (m == 0 || m + 1 < best)
                continue;
            if (m > best) {
                /* The old best is one short of the new one, or out of reach. */
                next = m == best + 1 ? top : n;
                next_requests = top_requests;
                best = m;
                top = v;
                top_requests = r;
            } else if (m == best) {
                if (r < top_requests) {
                    top = v;
                    top_requests = r;
                }
            } else if (next == n || r < next_requests) {
                next = v;
                next_requests = r;
            }
        }
    } while (stale && kvr__indexed_relearn(st, req, views, n, &w));
    if (best == 0) {
        size_t pick = kvr__policy_least_lmetric(req, views, c, n, NULL);
        out->view = (int)pick;
        out->reason = "cache_miss";
        out->prefix_match_blocks = 0;
        return;
    }
    /* Matches within one block of the best count as equal (best 1: only the best). */
    size_t pick = top;
    if (best > 1 && next != n &&
        before(views[next].eff_requests, best - 1, next, views[top].eff_requests, best, top))
        pick = next;
    /* Strictly above: a load exactly at the threshold keeps its cache hit. */
    /* Tolerance for factors like 1.3 that binary floating point cannot hold exactly. */
    double threshold = st->config.overload_factor * (sum / (double)n) + 1.0 + 1e-9;
    size_t fallback;
    if ((double)views[pick].eff_requests > threshold &&
        (fallback = least_lmetric_below(&w, req, c, n, threshold)) != n) {
        pick = fallback;
        out->reason = "overload_fallback";
    } else {
        out->reason = "cache_hit";
    }
    out->view = (int)pick;
    out->prefix_match_blocks = kvr__walk_match(&w, &views[pick]);
}

const kvr_policy_ops_t kvr__policy_affinity = {
    .name = "affinity",
    .create = affinity_create,
    .destroy = kvr__indexed_destroy,
    .pick = affinity_pick,
    .on_dispatch = kvr__indexed_on_dispatch,
    .on_engine_removed = kvr__indexed_on_engine_removed,
};
