/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>

#include "router/prefix_index.h"
#include "test_policy_fixture.h"

/* Prompt: 2048 bytes = 512 tokens = 32 blocks; engine 1 holds its first 24. */
static kvr_policy_config_t cfg;
static const kvr_policy_ops_t *ops;
static void *st;
static fx_request_t rq;

static void setup(void)
{
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 4096;
    cfg.llmd_prefill_tokens_per_s = 10000;
    cfg.llmd_ttft_penalty_ns = 100 * KVR_NS_PER_MS; /* saturated above 1000 queued tokens */
    st = fx_policy("llmd", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, 2048, 1, 0, 1, KVR_NS_PER_SEC);
    kvr_route_request_t prefix = *req;
    prefix.n_blocks = 24;
    ops->on_dispatch(st, &prefix, 1);
}

static void teardown(void)
{
    ops->destroy(st);
}

static kvr_route_decision_t pick(uint64_t pending1, uint32_t running1)
{
    kvr_route_request_t *req = fx_request(&rq, 2048, 1, 0, 1, KVR_NS_PER_SEC);
    kvr_engine_view_t v[3] = {fx_view(0, 0), fx_view(1, running1), fx_view(2, 1)};
    v[1].eff_pending_prefill_tokens = pending1;
    v[2].eff_pending_prefill_tokens = 300;
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 3, &d);
    return d;
}

Test(policy_llmd, stays_on_the_cache_warm_engine_however_busy_until_saturated, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    kvr_route_decision_t d = pick(1000, 30);
    cr_expect_eq(d.view, 1, "30 running, 1000 queued tokens: not saturated");
    cr_expect_str_eq(d.reason, "cache_warm");
    cr_expect_eq(d.prefix_match_blocks, 24);
}

Test(policy_llmd, past_the_penalty_routes_on_token_load, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    /* 1001 + 128 on the warm engine, 0 + 512 on engine 0, 300 + 512 on engine 2. */
    kvr_route_decision_t d = pick(1001, 0);
    cr_expect_eq(d.view, 0);
    cr_expect_str_eq(d.reason, "saturated_token_load");
}

Test(policy_llmd, token_load_counts_the_cached_part_as_free, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    ops->destroy(st);
    cfg.llmd_ttft_penalty_ns = 0;
    st = fx_policy("llmd", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, 2048, 1, 0, 1, KVR_NS_PER_SEC);
    kvr_route_request_t prefix = *req;
    prefix.n_blocks = 24;
    ops->on_dispatch(st, &prefix, 1);
    /* Saturated at any queue: 300 + 128 on the warm engine beats 512 on the idle one. */
    kvr_route_decision_t d = pick(300, 5);
    cr_expect_eq(d.view, 1);
    cr_expect_str_eq(d.reason, "saturated_token_load");
}

Test(policy_llmd, no_prefix_anywhere_is_token_load, .init = setup, .fini = teardown, .timeout = 5.)
{
    kvr_route_request_t *req = fx_request(&rq, 2048, 7, 0, 7, KVR_NS_PER_SEC);
    kvr_engine_view_t v[2] = {fx_view(0, 3), fx_view(1, 0)};
    v[0].eff_pending_prefill_tokens = 0;
    v[1].eff_pending_prefill_tokens = 100;
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 0, "fewest queued tokens, running aside");
    cr_expect_str_eq(d.reason, "token_load");
}
