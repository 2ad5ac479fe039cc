/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "router/prefix_index.h"
#include "test_policy_fixture.h"

/*
 * Fleets of three engines; engine 0 holds the first `cached_blocks` of the
 * request. Prompt: 2048 bytes = 512 tokens = 32 blocks.
 */
typedef struct {
    uint64_t pending[3];
    uint32_t running[3];
    uint32_t cached_blocks;
    int want;
} lmetric_case_t;

ParameterizedTestParameters(policy_lmetric, formula)
{
    static lmetric_case_t cases[] = {
        /* (pending + 512) x (running + 1): 6048, 5632, 5120 */
        {{1000, 0, 768}, {3, 10, 3}, 0, 2},
        /* engine 0 caches 25 blocks (400 tokens): (1000 + 112) x 4 = 4448 wins */
        {{1000, 0, 768}, {3, 10, 3}, 25, 0},
        /* idle fleet, nothing cached: equal scores, first engine */
        {{0, 0, 0}, {0, 0, 0}, 0, 0},
        /* decode load dominates: 512 x 1 beats 0-pending engines with big batches */
        {{0, 0, 100}, {7, 9, 0}, 0, 2},
        /* full cache hit on a busy engine: (0 + 0) x 21 = 0 */
        {{0, 0, 0}, {20, 0, 0}, 32, 0},
    };
    return cr_make_param_array(lmetric_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(lmetric_case_t *c, policy_lmetric, formula, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 4096;
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("lmetric", &cfg, &ops);
    static fx_request_t rq;
    kvr_route_request_t *req = fx_request(&rq, 2048, 1, 0, 1, KVR_NS_PER_SEC);
    cr_assert_eq(req->n_blocks, 32);
    cr_assert_eq(req->prompt_tokens, 512);
    if (c->cached_blocks) {
        kvr_route_request_t prefix = *req;
        prefix.n_blocks = c->cached_blocks;
        ops->on_dispatch(st, &prefix, 0);
    }
    kvr_engine_view_t v[3];
    for (uint32_t i = 0; i < 3; i++) {
        v[i] = fx_view(i, c->running[i]);
        v[i].eff_pending_prefill_tokens = c->pending[i];
    }
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 3, &d);
    cr_expect_eq(d.view, c->want);
    cr_expect_str_eq(d.reason, "lmetric");
    cr_expect_eq(d.prefix_match_blocks, d.view == 0 ? c->cached_blocks : 0);
    ops->destroy(st);
}
