/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every policy owes the core, whatever its rule: a pick in range with
 * a known reason label, on fleets with and without feed state (ES=1 and
 * ES=0), with sparse engine indices, engines leaving, and one engine.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "test_policy_fixture.h"

typedef struct {
    char policy[24];
    bool owner_pressure;
    bool feed; /* ES=1: fresh slots with caps */
} all_case_t;

ParameterizedTestParameters(policy_all, contract)
{
    static all_case_t cases[] = {
        {"round_robin", false, false},  {"round_robin", false, true},
        {"random", false, false},       {"random", false, true},
        {"power_of_two", false, false}, {"power_of_two", false, true},
        {"load_only", false, false},    {"load_only", false, true},
        {"sticky", false, true},        {"lmetric", false, false},
        {"lmetric", false, true},       {"affinity", false, false},
        {"affinity", false, true},      {"cache_aware", false, false},
        {"cache_aware", false, true},   {"cache_aware", true, false},
        {"cache_aware", true, true},    {"cost", false, false},
        {"cost", false, true},          {"ttft", false, false},
        {"ttft", false, true},          {"llmd", false, false},
        {"llmd", false, true},          {"lmetric_paper", false, false},
        {"lmetric_paper", false, true}, {"kv_headroom", false, false},
        {"kv_headroom", false, true},
    };
    return cr_make_param_array(all_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

static const char *const labels[] = {
    "round_robin",
    "random",
    "power_of_two",
    "least_load",
    "lmetric",
    "cache_hit",
    "cache_miss",
    "overload_fallback",
    "balance_shortest_queue",
    "provisional_owner",
    "existing_owner",
    "owner_pressure_spill",
    "no_safe_spill_hold",
    "cost",
    "ttft",
    "cache_warm",
    "token_load",
    "saturated_token_load",
    "lmetric_paper",
    "least_load_headroom",
    "kv_headroom_fallback",
};

static bool known_label(const char *reason)
{
    for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
        if (strcmp(labels[i], reason) == 0)
            return true;
    return false;
}

static uint64_t rng = 12345;

static uint32_t next(uint32_t below)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % below);
}

static kvr_engine_view_t random_view(uint32_t index, bool feed)
{
    if (!feed) {
        kvr_engine_view_t v = fx_view(index, next(20));
        v.eff_pending_prefill_tokens = next(5000);
        v.eff_kv_tokens = next(100000);
        return v;
    }
    kvr_engine_view_t v = fx_fed_view(index, next(40), next(20), 32 + next(32), next(100) / 100.0);
    v.eff_pending_prefill_tokens = next(5000);
    v.eff_kv_tokens = next(100000);
    v.kv_capacity_tokens = next(2) ? 0 : 4096 + next(100000);
    return v;
}

ParameterizedTest(all_case_t *c, policy_all, contract, .timeout = 10.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 1 << 14;
    cfg.owner_pressure = c->owner_pressure;
    const kvr_policy_ops_t *ops;
    void *st = fx_policy(c->policy, &cfg, &ops);
    static fx_request_t rq;
    kvr_engine_view_t v[16];
    for (int round = 0; round < 400; round++) {
        size_t n = 1 + next(16);
        for (size_t i = 0; i < n; i++)
            v[i] = random_view((uint32_t)(i * 61 + round % 7) % KVR_MAX_ENGINES, c->feed);
        /* Sessions come back often enough to hit the index. */
        unsigned session = next(12);
        size_t len = 64 + next(6000);
        kvr_route_request_t *req = fx_request(&rq, len, session, len - next(64), round,
                                              (uint64_t)round * 50000000);
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, req, v, n, &d);
        cr_assert(d.view >= 0 && (size_t)d.view < n, "%s: view %d of %zu", c->policy, d.view, n);
        cr_assert_not_null(d.reason);
        cr_assert(known_label(d.reason), "%s: label %s", c->policy, d.reason);
        cr_assert_leq(d.prefix_match_blocks, req->n_blocks);
        /* Only owner pressure falls back, and only when some candidate lacks fresh caps. */
        cr_assert_eq(!!(d.flags & KVR_DECISION_PRESSURE_FALLBACK), c->owner_pressure && !c->feed,
                     "%s flags", c->policy);
        if (ops->on_dispatch)
            ops->on_dispatch(st, req, v[d.view].index);
        if (ops->on_engine_removed && next(50) == 0)
            ops->on_engine_removed(st, v[next((uint32_t)n)].index);
    }
    ops->destroy(st);
}

Test(policy_all, es0_cache_aware_falls_back_and_says_so, .timeout = 5.)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 1 << 12;
    cfg.owner_pressure = true;
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("cache_aware", &cfg, &ops);
    static fx_request_t rq;
    kvr_engine_view_t v[3] = {fx_view(0, 3), fx_view(1, 1), fx_view(2, 2)};
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, fx_request(&rq, 1024, 1, 1024, 1, KVR_NS_PER_SEC), v, 3, &d);
    cr_expect(d.flags & KVR_DECISION_PRESSURE_FALLBACK, "no feed: no caps, fleet-wide fallback");
    cr_expect_eq(d.view, 1);
    ops->destroy(st);
}
