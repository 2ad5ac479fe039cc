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
    kvr__indexed_match(st, req, views, n);
    size_t best = 0;
    for (size_t v = 0; v < n; v++) {
        st->score[v] = (double)kvr__policy_uncached_tokens(req, st->match[v]) *
                       (double)views[v].eff_running;
        if (v > 0 &&
            (st->score[v] < st->score[best] ||
             (st->score[v] == st->score[best] && views[v].eff_requests < views[best].eff_requests)))
            best = v;
    }
    /* One more in the best's batch adds its new prefill tokens once more. */
    best = kvr__policy_spread(views, n, st->score, best,
                              (double)kvr__policy_uncached_tokens(req, st->match[best]));
    out->view = (int)best;
    out->reason = "lmetric_paper";
    out->prefix_match_blocks = st->match[best];
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
