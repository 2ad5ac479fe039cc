/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "router/prefix_index.h"
#include "test_policy_fixture.h"

/* Prompt: 2560 bytes = 640 tokens = 40 blocks. */
typedef struct {
    double overlap_weight;
    uint64_t kv_tokens[3];
    uint32_t cached_blocks[3];
    int want;
} cost_case_t;

ParameterizedTestParameters(policy_cost, formula)
{
    static cost_case_t cases[] = {
        /* w=1: 40+10=50, 10+30=40, 40+0=40 -> tie on 40, fewer requests (all 0) -> first: 1 */
        {1.0, {160, 480, 0}, {0, 30, 0}, 1},
        /* w=2: 80+10=90, 20+30=50, 80+0=80 */
        {2.0, {160, 480, 0}, {0, 30, 0}, 1},
        /* w=0.1: 4+10=14, 1+30=31, 4+0=4 -> the idle engine despite no cache */
        {0.1, {160, 480, 0}, {0, 30, 0}, 2},
        /* a full hit costs only the engine's decode blocks */
        {1.0, {1600, 0, 0}, {40, 0, 0}, 1},
        {1.0, {160, 320, 320}, {40, 0, 0}, 0},
    };
    return cr_make_param_array(cost_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

static void dispatch_prefix(const kvr_policy_ops_t *ops, void *st, const kvr_route_request_t *req,
                            uint32_t blocks, uint32_t engine)
{
    if (!blocks)
        return;
    kvr_route_request_t prefix = *req;
    prefix.n_blocks = blocks;
    ops->on_dispatch(st, &prefix, engine);
}

ParameterizedTest(cost_case_t *c, policy_cost, formula, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 4096;
    cfg.overlap_weight = c->overlap_weight;
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("cost", &cfg, &ops);
    static fx_request_t rq;
    kvr_route_request_t *req = fx_request(&rq, 2560, 3, 0, 3, KVR_NS_PER_SEC);
    cr_assert_eq(req->n_blocks, 40);
    kvr_engine_view_t v[3];
    for (uint32_t i = 0; i < 3; i++) {
        v[i] = fx_view(i, 0);
        v[i].eff_kv_tokens = c->kv_tokens[i];
        dispatch_prefix(ops, st, req, c->cached_blocks[i], i);
    }
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 3, &d);
    cr_expect_eq(d.view, c->want);
    cr_expect_str_eq(d.reason, "cost");
    ops->destroy(st);
}

Test(policy_cost, temperature_samples_seeded_and_favours_the_cheap, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 4096;
    cfg.temperature = 0.5;
    cfg.seed = 99;
    const kvr_policy_ops_t *ops;
    void *a = fx_policy("cost", &cfg, &ops);
    void *b = fx_policy("cost", &cfg, &ops);
    static fx_request_t rq;
    kvr_route_request_t *req = fx_request(&rq, 2560, 3, 0, 3, KVR_NS_PER_SEC);
    /* logits 40, 50, 60: normalised 0, 0.5, 1 -> weights 1, e^-1, e^-2 */
    kvr_engine_view_t v[3] = {fx_view(0, 0), fx_view(1, 0), fx_view(2, 0)};
    v[1].eff_kv_tokens = 160;
    v[2].eff_kv_tokens = 320;
    unsigned seen[3] = {0};
    for (int i = 0; i < 3000; i++) {
        kvr_route_decision_t da = {0}, db = {0};
        ops->pick(a, req, v, 3, &da);
        ops->pick(b, req, v, 3, &db);
        cr_assert_eq(da.view, db.view, "same seed, same samples");
        seen[da.view]++;
    }
    /* Expected shares 0.665, 0.245, 0.090. */
    cr_expect(seen[0] > 1800 && seen[0] < 2200, "cheapest %u", seen[0]);
    cr_expect(seen[1] > 550 && seen[1] < 900, "middle %u", seen[1]);
    cr_expect(seen[2] > 150 && seen[2] < 400, "dearest %u", seen[2]);
    ops->destroy(a);
    ops->destroy(b);
}
