/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "router/prefix_index.h"
#include "test_policy_fixture.h"

/*
 * LMetric as published: new prefill tokens x batch size. Fleets of three
 * engines; engine 0 holds the first `cached_blocks` of the request.
 * Prompt: 2048 bytes = 512 tokens = 32 blocks.
 */
typedef struct {
    uint64_t pending[3];
    uint32_t running[3];
    uint32_t cached_blocks;
    int want;
} paper_case_t;

ParameterizedTestParameters(policy_lmetric_paper, formula)
{
    static paper_case_t cases[] = {
        /* 512 x running: 1536, 5120, 1024; queued prefill does not count */
        {{0, 0, 100000}, {3, 10, 2}, 0, 2},
        /* engine 0 caches 25 blocks: 112 x 4 = 448 beats 512 x 1 */
        {{1000, 0, 0}, {4, 1, 3}, 25, 0},
        /* nothing running anywhere: all 0, fewer requests (all equal) then the first */
        {{5000, 0, 0}, {0, 0, 0}, 0, 0},
        /* an idle engine scores 0 even behind a long queue: where lmetric would not go */
        {{0, 90000, 0}, {2, 0, 1}, 0, 1},
    };
    return cr_make_param_array(paper_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(paper_case_t *c, policy_lmetric_paper, formula, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 4096;
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("lmetric_paper", &cfg, &ops);
    static fx_request_t rq;
    kvr_route_request_t *req = fx_request(&rq, 2048, 1, 0, 1, KVR_NS_PER_SEC);
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
    cr_expect_str_eq(d.reason, "lmetric_paper");
    cr_expect_eq(d.prefix_match_blocks, d.view == 0 ? c->cached_blocks : 0);
    ops->destroy(st);
}

Test(policy_lmetric_paper, near_equal_picks_are_drawn_when_other_routers_show, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("lmetric_paper", &cfg, &ops);
    static fx_request_t rq;
    kvr_route_request_t *req = fx_request(&rq, 2048, 2, 0, 2, KVR_NS_PER_SEC);
    /* 512 x 1 against 512 x 2: within one request's worth; the lower draw wins. */
    kvr_engine_view_t v[2] = {fx_view(0, 1), fx_view(1, 2)};
    v[0].herd_slack = v[1].herd_slack = 1;
    v[0].tie_draw = 9;
    v[1].tie_draw = 3;
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 1);
    v[0].herd_slack = v[1].herd_slack = 0;
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 0, "no slack: the plain argmin");
    ops->destroy(st);
}
