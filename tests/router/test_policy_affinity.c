/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "router/prefix_index.h"
#include "test_policy_fixture.h"

#define S KVR_NS_PER_SEC

static kvr_policy_config_t cfg;
static const kvr_policy_ops_t *ops;
static void *st;
static fx_request_t rq;

static void setup(void)
{
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 1 << 16;
}

static void teardown(void)
{
    if (st)
        ops->destroy(st);
    st = NULL;
}

Test(policy_affinity, growing_session_stays_on_its_engine, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("affinity", &cfg, &ops);
    kvr_engine_view_t v[4];
    for (uint32_t i = 0; i < 4; i++)
        v[i] = fx_view(i, 2);
    /* Session 7's turns: each prompt is the previous one plus 1 KB, shared head of 2 KB. */
    int home = -1;
    for (int turn = 0; turn < 8; turn++) {
        /* Another session lands between turns and moves the least-loaded engine around. */
        fx_route(ops, st, fx_request(&rq, 1024, 100 + turn, 0, 100 + turn, (uint64_t)turn * S), v,
                 4);
        size_t len = 2048 + 1024 * (size_t)turn;
        kvr_route_decision_t d = fx_route(
            ops, st, fx_request(&rq, len, 7, len, 7, (uint64_t)turn * S + 1), v, 4);
        if (turn == 0) {
            cr_expect_str_eq(d.reason, "cache_miss");
            home = d.view;
            continue;
        }
        cr_expect_eq(d.view, home, "turn %d", turn);
        cr_expect_str_eq(d.reason, "cache_hit");
        cr_expect_eq(d.prefix_match_blocks, (uint32_t)((2048 + 1024 * (turn - 1)) / 64),
                     "the previous turn's prompt");
        v[d.view].eff_requests--; /* the turn finished */
    }
}

/*
 * Guard A: the engine holding the match has `load`; others fill the fleet
 * so that the mean is 10 and the threshold 1.3 x 10 + 1 = 14.
 */
typedef struct {
    uint32_t loads[4];
    char reason[24];
    int want;
} guard_a_case_t;

ParameterizedTestParameters(policy_affinity, guard_a_threshold)
{
    static guard_a_case_t cases[] = {
        {{14, 10, 8, 8}, "cache_hit", 0},         /* exactly at the threshold: stays */
        {{15, 10, 8, 7}, "overload_fallback", 3}, /* one above: lowest LMetric */
        {{13, 9, 9, 9}, "cache_hit", 0},
        {{40, 0, 0, 0}, "overload_fallback", 1}, /* mean 10, far above */
        {{1, 0, 0, 0}, "cache_hit", 0}, /* the +1 keeps a lone request home on an idle fleet */
        {{2, 0, 0, 0}, "overload_fallback", 1}, /* 2 > 1.3 x 0.5 + 1 */
    };
    return cr_make_param_array(guard_a_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(guard_a_case_t *c, policy_affinity, guard_a_threshold, .init = setup,
                  .fini = teardown, .timeout = 5.)
{
    st = fx_policy("affinity", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, 4096, 5, 4096, 5, S);
    ops->on_dispatch(st, req, 0);
    kvr_engine_view_t v[4];
    for (uint32_t i = 0; i < 4; i++)
        v[i] = fx_view(i, c->loads[i]);
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 4, &d);
    cr_expect_str_eq(d.reason, c->reason);
    cr_expect_eq(d.view, c->want);
}

Test(policy_affinity, guard_b_prefers_the_lighter_of_near_equal_matches, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("affinity", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, 64 * 20, 9, 64 * 20, 9, S);
    kvr_route_request_t part = *req;
    ops->on_dispatch(st, req, 0); /* 20 blocks */
    part.n_blocks = 19;
    ops->on_dispatch(st, &part, 1); /* within one block */
    part.n_blocks = 18;
    ops->on_dispatch(st, &part, 2); /* two blocks short */
    kvr_engine_view_t v[4] = {fx_view(0, 5), fx_view(1, 3), fx_view(2, 1), fx_view(3, 4)};
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 4, &d);
    cr_expect_eq(d.view, 1);
    cr_expect_str_eq(d.reason, "cache_hit");
    cr_expect_eq(d.prefix_match_blocks, 19);
    /* Equal load: the deeper match wins (mean 3.75, no overload). */
    v[1].eff_requests = 5;
    ops->pick(st, req, v, 4, &d);
    cr_expect_eq(d.view, 0);
}

Test(policy_affinity, miss_goes_to_lowest_lmetric, .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("affinity", &cfg, &ops);
    kvr_engine_view_t v[3] = {fx_view(0, 0), fx_view(1, 0), fx_view(2, 0)};
    v[0].eff_pending_prefill_tokens = 5000;
    v[1].eff_running = 4;
    kvr_route_decision_t d = {0};
    ops->pick(st, fx_request(&rq, 2048, 1, 0, 1, S), v, 3, &d);
    cr_expect_eq(d.view, 2);
    cr_expect_str_eq(d.reason, "cache_miss");
}

Test(policy_affinity, index_full_of_old_sessions_evicts_by_lru, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    /* Room for 64 blocks per engine; one engine so every session lands on it. */
    cfg.index_tokens_per_engine = 64 * KVR_PREFIX_INDEX_TOKENS_PER_BLOCK;
    st = fx_policy("affinity", &cfg, &ops);
    kvr_engine_view_t v[1] = {fx_view(0, 0)};
    /* Eight sessions of 16 blocks: the last four fit. */
    for (unsigned s = 1; s <= 8; s++)
        fx_route(ops, st, fx_request(&rq, 1024, s, 1024, s, s * S), v, 1);
    kvr_route_decision_t d = {0};
    for (unsigned s = 1; s <= 8; s++) {
        ops->pick(st, fx_request(&rq, 1024, s, 1024, s, 9 * S), v, 1, &d);
        if (s <= 4)
            cr_expect_eq(d.prefix_match_blocks, 0, "session %u evicted", s);
        else
            cr_expect_eq(d.prefix_match_blocks, 16, "session %u kept", s);
    }
    /* Session 5 used again becomes the most recent; a new one evicts session 6 instead. */
    fx_route(ops, st, fx_request(&rq, 1024, 5, 1024, 5, 10 * S), v, 1);
    fx_route(ops, st, fx_request(&rq, 1024, 9, 1024, 9, 11 * S), v, 1);
    ops->pick(st, fx_request(&rq, 1024, 5, 1024, 5, 12 * S), v, 1, &d);
    cr_expect_eq(d.prefix_match_blocks, 16);
    ops->pick(st, fx_request(&rq, 1024, 6, 1024, 6, 12 * S), v, 1, &d);
    cr_expect_eq(d.prefix_match_blocks, 0);
}

Test(policy_affinity, removed_engine_loses_its_sessions, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("affinity", &cfg, &ops);
    kvr_engine_view_t v[2] = {fx_view(0, 0), fx_view(1, 0)};
    kvr_route_decision_t first = fx_route(ops, st, fx_request(&rq, 2048, 3, 2048, 3, S), v, 2);
    ops->on_engine_removed(st, v[first.view].index);
    kvr_route_decision_t d = {0};
    ops->pick(st, fx_request(&rq, 2048, 3, 2048, 3, 2 * S), v, 2, &d);
    cr_expect_str_eq(d.reason, "cache_miss");
}
