/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lmetric_paper: LMetric as published — lowest (new prefill tokens of this
 * request on that engine) × (batch size there), ties to fewer
 * eff_requests, then the first view. New prefill tokens are the prompt less
 * the prefix match; batch size is eff_running. Unlike `lmetric` (lmetric.c),
 * it counts neither the prefill already queued on the engine nor a +1 on
 * the batch: a full cache hit, or an engine with nothing running, scores 0
 * whatever waits there, so the tie-break decides among idle engines.
 */
#include <assert.h>
#include <math.h>

#include "router/policies/policy_util.h"

static int lmetric_paper_create(const kvr_policy_config_t *config, void **state)
{
    kvr__indexed_t *st;
    int rc = kvr__indexed_create(config, sizeof(*st), &st);
    if (rc < 0)
        return rc;
    *state = st;
    return 0;
}

static void lmetric_paper_pick(void *state, const kvr_route_request_t *req,
                               const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = state;
    assert(n >= 1 && n <= KVR_MAX_ENGINES);
    kvr__walk_t w;
    kvr__indexed_walk(st, req, views, n, &w);
    const kvr_engine_columns_t *c = kvr__indexed_columns(st, req, views, n);
    /* One pass over the views; the scores are kept for the herding guard only. */
    const bool keep = views[0].herd_slack > 0;
    size_t best;
    bool stale;
    do {
        best = 0;
        stale = false;
        double best_score = INFINITY; /* scores are finite: the first view takes it */
        uint32_t best_requests = 0;
        for (size_t v = 0; v < n; v++) {
            stale |= kvr__walk_stale_at(&w, c, v);
            double s = (double)kvr__policy_uncached_tokens(req, kvr__walk_match_at(&w, c, v)) *
                       (double)c->eff_running[v];
            if (keep)
                st->score[v] = s;
            /* One test on the common path: most views score above the best. */
            if (s <= best_score && (s < best_score || c->eff_requests[v] < best_requests)) {
                best = v;
                best_score = s;
                best_requests = c->eff_requests[v];
            }
        }
    } while (stale && kvr__indexed_relearn(st, req, views, n, &w));
    uint32_t best_match = kvr__walk_match(&w, &views[best]);
    if (views[best].herd_slack > 0) {
        if (!keep)
            for (size_t v = 0; v < n; v++)
                st->score[v] = (double)kvr__policy_uncached_tokens(req,
                                                                   kvr__walk_match(&w, &views[v])) *
                               (double)views[v].eff_running;
        /* One more in the best's batch adds its new prefill tokens once more. */
        best = kvr__policy_spread(views, n, st->score, best,
                                  (double)kvr__policy_uncached_tokens(req, best_match));
    }
    out->view = (int)best;
    out->reason = "lmetric_paper";
    out->prefix_match_blocks = kvr__walk_match(&w, &views[best]);
    out->flags = 0;
}

const kvr_policy_ops_t kvr__policy_lmetric_paper = {
    .name = "lmetric_paper",
    .create = lmetric_paper_create,
    .destroy = kvr__indexed_destroy,
    .pick = lmetric_paper_pick,
    .on_dispatch = kvr__indexed_on_dispatch,
    .on_engine_removed = kvr__indexed_on_engine_removed,
};
