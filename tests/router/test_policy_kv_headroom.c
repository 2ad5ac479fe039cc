/* SPDX-License-Identifier: Apache-2.0 */
/* kv_headroom, the decode engine's choice: running requests and KV room together. */
#include <criterion/criterion.h>

#include "router/policies/policy_util.h"
#include "test_policy_fixture.h"

static kvr_policy_config_t cfg;
static fx_request_t rq;
static const kvr_policy_ops_t *ops;
static void *st;

static void setup(void)
{
    kvr_policy_config_defaults(&cfg);
    cfg.index_tokens_per_engine = 10000; /* the capacity assumed without the feed's */
    st = fx_policy("kv_headroom", &cfg, &ops);
}

static void teardown(void)
{
    ops->destroy(st);
}

TestSuite(policy_kv_headroom, .init = setup, .fini = teardown, .timeout = 5.);

/* A request of prompt + output tokens. */
static kvr_route_request_t *req(uint32_t prompt_tokens, uint32_t max_tokens)
{
    kvr_route_request_t *r = fx_request(&rq, 256, 1, 0, 1, KVR_NS_PER_SEC);
    r->prompt_tokens = prompt_tokens;
    r->max_tokens = max_tokens;
    return r;
}

static kvr_route_decision_t pick(const kvr_route_request_t *r, kvr_engine_view_t *v, size_t n)
{
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, r, v, n, &d);
    return d;
}

Test(policy_kv_headroom, fewest_requests_when_every_engine_has_room)
{
    kvr_engine_view_t v[3] = {fx_view(0, 5), fx_view(1, 2), fx_view(2, 4)};
    kvr_route_decision_t d = pick(req(100, 100), v, 3);
    cr_expect_eq(d.view, 1);
    cr_expect_str_eq(d.reason, "least_load_headroom");
}

Test(policy_kv_headroom, es0_skips_an_engine_whose_shadow_kv_leaves_no_room)
{
    /* engine 1 has the fewest requests, but its requests' prompts hold 8,500 of 10,000 tokens */
    kvr_engine_view_t v[2] = {fx_view(0, 3), fx_view(1, 1)};
    v[0].shadow_kv_tokens = v[0].eff_kv_tokens = 1500;
    v[1].shadow_kv_tokens = v[1].eff_kv_tokens = 8500;
    kvr_route_decision_t d = pick(req(400, 200), v, 2);
    cr_expect_eq(d.view, 0, "a decode engine without room for the prompt's KV was picked");
    cr_expect_str_eq(d.reason, "least_load_headroom");
    /* a small request still fits under the watermark there: the load decides again */
    d = pick(req(200, 100), v, 2);
    cr_expect_eq(d.view, 1);
}

Test(policy_kv_headroom, es1_reads_the_feeds_kv_usage_over_the_shadow)
{
    /* the shadow knows nothing on engine 1 (other routers' requests): the feed says 95% used */
    kvr_engine_view_t v[2] = {fx_fed_view(0, 4, 0, 64, 0.30), fx_fed_view(1, 2, 0, 64, 0.95)};
    v[0].kv_capacity_tokens = v[1].kv_capacity_tokens = 100000;
    kvr_route_decision_t d = pick(req(1000, 256), v, 2);
    cr_expect_eq(d.view, 0, "the feed's full engine was picked");
    /* at ES=0 the same fleet, usage unknown, goes by the shadow: engine 1 is the lighter */
    v[0].feed_fresh = v[1].feed_fresh = false;
    v[0].kv_usage = v[1].kv_usage = -1;
    d = pick(req(1000, 256), v, 2);
    cr_expect_eq(d.view, 1);
}

Test(policy_kv_headroom, equal_loads_go_to_the_larger_headroom)
{
    kvr_engine_view_t v[3] = {fx_fed_view(0, 2, 0, 64, 0.70), fx_fed_view(1, 2, 0, 64, 0.20),
                              fx_fed_view(2, 2, 0, 64, 0.50)};
    for (int i = 0; i < 3; i++)
        v[i].kv_capacity_tokens = 100000;
    kvr_route_decision_t d = pick(req(500, 100), v, 3);
    cr_expect_eq(d.view, 1);
}

Test(policy_kv_headroom, equal_loads_and_headroom_take_turns)
{
    kvr_engine_view_t v[3] = {fx_view(0, 1), fx_view(1, 1), fx_view(2, 1)};
    const int want[] = {0, 1, 2, 0};
    for (int i = 0; i < 4; i++)
        cr_expect_eq(pick(req(100, 10), v, 3).view, want[i], "turn %d", i);
}

Test(policy_kv_headroom, with_no_room_anywhere_the_most_headroom)
{
    kvr_engine_view_t v[3] = {fx_fed_view(0, 1, 0, 64, 0.97), fx_fed_view(1, 9, 0, 64, 0.91),
                              fx_fed_view(2, 3, 0, 64, 0.99)};
    for (int i = 0; i < 3; i++)
        v[i].kv_capacity_tokens = 100000;
    kvr_route_decision_t d = pick(req(2000, 100), v, 3);
    cr_expect_eq(d.view, 1);
    cr_expect_str_eq(d.reason, "kv_headroom_fallback");
}

Test(policy_kv_headroom, a_burst_on_an_idle_fleet_spreads_evenly)
{
    kvr_engine_view_t v[4];
    for (uint32_t i = 0; i < 4; i++)
        v[i] = fx_view(i, 0);
    for (int i = 0; i < 100; i++) {
        kvr_route_decision_t d = fx_route(ops, st, req(50, 10), v, 4);
        v[d.view].shadow_kv_tokens += 50;
        v[d.view].eff_kv_tokens += 50;
    }
    for (int i = 0; i < 4; i++)
        cr_expect_eq(v[i].eff_requests, 25);
}
