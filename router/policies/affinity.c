/* SPDX-License-Identifier: Apache-2.0 */
/*
 * affinity: the engine with the longest prefix match in the index, with two
 * guards. Guard B: matches within one block of the best count as equal
 * (block boundaries and LRU trimming make exact depth noisy), and the least
 * loaded of them wins. Guard A: when that engine's eff_requests exceeds
 * overload_factor × fleet mean + 1, cache reuse is no longer worth its
 * queue and the lowest LMetric wins instead (overload_fallback).
 */
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

static double overload_threshold(const kvr_engine_view_t *views, size_t n, double factor)
{
    double sum = 0;
    for (size_t v = 0; v < n; v++)
        sum += views[v].eff_requests;
    /* Tolerance for factors like 1.3 that binary floating point cannot hold exactly. */
    return factor * (sum / (double)n) + 1.0 + 1e-9;
}

/*
 * The fallback leaves out every engine above the threshold: the overloaded
 * owner's full cache hit would otherwise give it an LMetric of zero and
 * win it back.
 */
static size_t least_lmetric_below(kvr__indexed_t *st, const kvr_route_request_t *req,
                                  const kvr_engine_view_t *views, size_t n, double threshold)
{
    size_t best = n;
    double best_score = 0;
    for (size_t v = 0; v < n; v++) {
        if ((double)views[v].eff_requests > threshold)
            continue;
        double s = kvr__policy_lmetric_score(&views[v],
                                             kvr__policy_uncached_tokens(req, st->match[v]));
        if (best == n || s < best_score ||
            (s == best_score && views[v].eff_requests < views[best].eff_requests)) {
            best = v;
            best_score = s;
        }
    }
    return best;
}

static void affinity_pick(void *state, const kvr_route_request_t *req,
                          const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = state;
    uint32_t best = kvr__indexed_match(st, req, views, n);
    out->flags = 0;
    if (best == 0) {
        size_t pick = kvr__policy_least_lmetric(req, views, n, st->match);
        out->view = (int)pick;
        out->reason = "cache_miss";
        out->prefix_match_blocks = 0;
        return;
    }
    uint32_t floor = best > 1 ? best - 1 : 1;
    size_t pick = n;
    for (size_t v = 0; v < n; v++) {
        if (st->match[v] < floor)
            continue;
        if (pick == n || views[v].eff_requests < views[pick].eff_requests ||
            (views[v].eff_requests == views[pick].eff_requests && st->match[v] > st->match[pick]))
            pick = v;
    }
    /* Strictly above: a load exactly at the threshold keeps its cache hit. */
    double threshold = overload_threshold(views, n, st->config.overload_factor);
    size_t fallback;
    if ((double)views[pick].eff_requests > threshold &&
        (fallback = least_lmetric_below(st, req, views, n, threshold)) != n) {
        pick = fallback;
        out->reason = "overload_fallback";
    } else {
        out->reason = "cache_hit";
    }
    out->view = (int)pick;
    out->prefix_match_blocks = st->match[pick];
}

const kvr_policy_ops_t kvr__policy_affinity = {
    .name = "affinity",
    .create = affinity_create,
    .destroy = kvr__indexed_destroy,
    .pick = affinity_pick,
    .on_dispatch = kvr__indexed_on_dispatch,
    .on_engine_removed = kvr__indexed_on_engine_removed,
};
