/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>

#include "router/policies/policy_util.h"
#include "test_policy_fixture.h"

static kvr_policy_config_t cfg;
static fx_request_t rq;

static void setup(void)
{
    kvr_policy_config_defaults(&cfg);
}

static kvr_route_request_t *req(void)
{
    return fx_request(&rq, 256, 1, 0, 1, KVR_NS_PER_SEC);
}

Test(policy_round_robin, takes_engines_in_turn, .init = setup, .timeout = 5.)
{
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("round_robin", &cfg, &ops);
    kvr_engine_view_t v[3] = {fx_view(4, 9), fx_view(1, 0), fx_view(7, 3)};
    const uint32_t want[] = {1, 4, 7, 1, 4, 7};
    for (size_t i = 0; i < 6; i++) {
        kvr_route_decision_t d = {0};
        ops->pick(st, req(), v, 3, &d);
        cr_expect_eq(v[d.view].index, want[i], "pick %zu", i);
        cr_expect_str_eq(d.reason, "round_robin");
    }
    ops->destroy(st);
}

Test(policy_round_robin, turn_survives_an_engine_leaving, .init = setup, .timeout = 5.)
{
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("round_robin", &cfg, &ops);
    kvr_engine_view_t v[3] = {fx_view(0, 0), fx_view(1, 0), fx_view(2, 0)};
    kvr_route_decision_t d = {0};
    ops->pick(st, req(), v, 3, &d);
    cr_expect_eq(v[d.view].index, 0);
    kvr_engine_view_t without1[2] = {fx_view(0, 0), fx_view(2, 0)};
    ops->pick(st, req(), without1, 2, &d);
    cr_expect_eq(without1[d.view].index, 2, "engine 1 gone: 2 is next, not 0 again");
    ops->pick(st, req(), v, 3, &d);
    cr_expect_eq(v[d.view].index, 1, "engine 1 is back: it has waited longest");
    ops->pick(st, req(), v, 3, &d);
    cr_expect_eq(v[d.view].index, 0);
    ops->destroy(st);
}

Test(policy_round_robin, interleaved_pools_each_take_turns, .init = setup, .timeout = 5.)
{
    /* Requests of two model pools alternate; each pool's engines still take turns. */
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("round_robin", &cfg, &ops);
    kvr_engine_view_t alpha[2] = {fx_view(0, 0), fx_view(1, 0)};
    kvr_engine_view_t beta[2] = {fx_view(2, 0), fx_view(3, 0)};
    unsigned served[4] = {0};
    for (int i = 0; i < 8; i++) {
        kvr_route_decision_t d = {0};
        kvr_engine_view_t *pool = i % 2 ? beta : alpha;
        ops->pick(st, req(), pool, 2, &d);
        served[pool[d.view].index]++;
    }
    for (int e = 0; e < 4; e++)
        cr_expect_eq(served[e], 2, "engine %d served %u", e, served[e]);
    ops->destroy(st);
}

Test(policy_random, seeded_and_covers_the_fleet, .init = setup, .timeout = 5.)
{
    const kvr_policy_ops_t *ops;
    cfg.seed = 1234;
    void *a = fx_policy("random", &cfg, &ops);
    void *b = fx_policy("random", &cfg, &ops);
    kvr_engine_view_t v[5];
    for (uint32_t i = 0; i < 5; i++)
        v[i] = fx_view(i, 0);
    unsigned seen[5] = {0};
    for (int i = 0; i < 500; i++) {
        kvr_route_decision_t da = {0}, db = {0};
        ops->pick(a, req(), v, 5, &da);
        ops->pick(b, req(), v, 5, &db);
        cr_assert_eq(da.view, db.view, "same seed, same sequence");
        cr_assert_str_eq(da.reason, "random");
        seen[da.view]++;
    }
    for (int i = 0; i < 5; i++)
        cr_expect_gt(seen[i], 50, "engine %d picked %u of 500", i, seen[i]);
    ops->destroy(a);
    ops->destroy(b);
}

/* The policies' draws in [0, n) are the high half of a 64-bit draw times n, worked out without a
 * 128-bit type; the values below are that product's high half computed with exact integers. */
Test(policy_util, rng_below_is_the_high_half_of_draw_times_n, .timeout = 5.)
{
    cr_expect_eq(kvr_rng_mul_high64(UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
    cr_expect_eq(kvr_rng_mul_high64(1ull << 63, 2), 1);
    cr_expect_eq(kvr_rng_mul_high64(1ull << 32, 1ull << 32), 1);
    cr_expect_eq(kvr_rng_mul_high64(0xFFFFFFFFull, 0xFFFFFFFFull), 0);
    cr_expect_eq(kvr_rng_mul_high64(0, UINT64_MAX), 0);
    cr_expect_eq(kvr_rng_mul_high64(0x123456789ABCDEF0ull, 0xFEDCBA9876543210ull),
                 0x121FA00AD77D7422ull);

    /* A seeded sequence stays what it was, so a seed picks the same engines as before. */
    uint64_t state = 1234;
    const uint64_t n[] = {5, 5, 5, 7, 1000, 1ull << 40, 3, UINT64_MAX};
    const uint64_t want[] = {3, 2, 1, 2, 722, 759130398348ull, 1, 4199148429166567582ull};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        cr_expect_eq(kvr_splitmix64_below(&state, (size_t)n[i]), want[i], "draw %zu", i);
}

Test(policy_power_of_two, never_picks_the_most_loaded, .init = setup, .timeout = 5.)
{
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("power_of_two", &cfg, &ops);
    kvr_engine_view_t v[4] = {fx_view(0, 2), fx_view(1, 0), fx_view(2, 3), fx_view(3, 1)};
    unsigned seen[4] = {0};
    for (int i = 0; i < 400; i++) {
        kvr_route_decision_t d = {0};
        ops->pick(st, req(), v, 4, &d);
        cr_assert_str_eq(d.reason, "power_of_two");
        seen[d.view]++;
    }
    cr_expect_eq(seen[2], 0, "the busiest engine always loses its pair");
    cr_expect_gt(seen[1], seen[3]);
    cr_expect_gt(seen[3], seen[0]);
    cr_expect_gt(seen[0], 0, "sampling still reaches engines that are not the minimum");
    kvr_route_decision_t d = {0};
    ops->pick(st, req(), v, 1, &d);
    cr_expect_eq(d.view, 0, "a fleet of one");
    ops->destroy(st);
}

Test(policy_load_only, lowest_eff_requests, .init = setup, .timeout = 5.)
{
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("load_only", &cfg, &ops);
    kvr_engine_view_t v[3] = {fx_view(0, 5), fx_view(1, 2), fx_view(2, 4)};
    kvr_route_decision_t d = {0};
    ops->pick(st, req(), v, 3, &d);
    cr_expect_eq(d.view, 1);
    cr_expect_str_eq(d.reason, "least_load");
    ops->destroy(st);
}

Test(policy_load_only, burst_on_idle_fleet_spreads_evenly, .init = setup, .timeout = 5.)
{
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("load_only", &cfg, &ops);
    kvr_engine_view_t v[4];
    for (uint32_t i = 0; i < 4; i++)
        v[i] = fx_view(i, 0);
    for (int i = 0; i < 100; i++)
        fx_route(ops, st, req(), v, 4);
    for (int i = 0; i < 4; i++)
        cr_expect_eq(v[i].eff_requests, 25);
    ops->destroy(st);
}

Test(policy_load_only, ties_take_turns, .init = setup, .timeout = 5.)
{
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("load_only", &cfg, &ops);
    kvr_engine_view_t v[3] = {fx_view(0, 1), fx_view(1, 1), fx_view(2, 1)};
    const int want[] = {0, 1, 2, 0};
    for (int i = 0; i < 4; i++) {
        kvr_route_decision_t d = {0};
        ops->pick(st, req(), v, 3, &d); /* loads unchanged: a tie every time */
        cr_expect_eq(d.view, want[i]);
    }
    ops->destroy(st);
}
