/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lmetric: lowest (eff_pending_prefill + uncached prompt tokens on that
 * engine) × (eff_running + 1). The first factor is the prefill work the
 * request would queue behind plus its own, the second the decode batch it
 * would slow down: cache reuse and load traded in one number.
 */
#include "router/policies/policy_util.h"

static int lmetric_create(const kvr_policy_config_t *config, void **state)
{
    kvr__indexed_t *st;
    int rc = kvr__indexed_create(config, sizeof(*st), &st);
    if (rc < 0)
        return rc;
    *state = st;
    return 0;
}

static void lmetric_pick(void *state, const kvr_route_request_t *req,
                         const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = state;
    kvr__walk_t w;
    size_t pick = kvr__policy_least_lmetric_walk(st, req, views, n, &w);
    out->view = (int)pick;
    out->reason = "lmetric";
    out->prefix_match_blocks = kvr__walk_match(&w, &views[pick]);
    out->flags = 0;
}

const kvr_policy_ops_t kvr__policy_lmetric = {
    .name = "lmetric",
    .create = lmetric_create,
    .destroy = kvr__indexed_destroy,
    .pick = lmetric_pick,
    .on_dispatch = kvr__indexed_on_dispatch,
    .on_engine_removed = kvr__indexed_on_engine_removed,
};
