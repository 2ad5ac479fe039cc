/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "router/prefix_index.h"
#include "test_policy_fixture.h"

#define S KVR_NS_PER_SEC
#define MS KVR_NS_PER_MS
#define PROMPT 2560 /* 40 blocks */

static kvr_policy_config_t cfg;
static const kvr_policy_ops_t *ops;
static void *st;
static fx_request_t rq;

static void setup(void)
{
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 1 << 16;
    cfg.owner_pressure = true;
    cfg.spill_cooldown_ns = 1000 * MS;
    cfg.replication_ceiling = 3;
}

static void teardown(void)
{
    if (st)
        ops->destroy(st);
    st = NULL;
}

typedef struct {
    uint32_t running, waiting, max_running, dp_ranks;
    bool caps, fresh;
    double kv, util;
    uint32_t held_blocks; /* leading blocks of the request this engine was sent earlier */
} engine_case_t;

typedef struct {
    char name[64];
    engine_case_t e[4];
    uint32_t ceiling; /* 0: the suite's 3 */
    int want;
    char reason[24];
    bool fallback;
} pressure_case_t;

/* An engine with complete, fresh telemetry on one DP rank. */
#define FED(run, wait, max, kv, held)                                                              \
    {                                                                                              \
        run, wait, max, 1, true, true, kv, -1, held                                                \
    }
#define IDLE FED(0, 0, 64, 0.0, 0)

ParameterizedTestParameters(policy_cache_aware, owner_pressure)
{
    static pressure_case_t cases[] = {
        {"below watermark: owner keeps it",
         {FED(30, 0, 64, 0.3, 40), IDLE, IDLE, IDLE},
         0,
         0,
         "cache_hit",
         false},
        {"above watermark: spill to the coolest",
         {FED(58, 6, 64, 0.5, 40), FED(10, 0, 64, 0.1, 0), FED(5, 0, 64, 0.05, 0),
          FED(20, 0, 64, 0.2, 0)},
         0,
         2,
         "owner_pressure_spill",
         false},
        {"exactly at the watermark spills",
         {FED(90, 0, 100, 0.2, 40), FED(10, 0, 100, 0.1, 0), FED(50, 0, 100, 0.1, 0),
          FED(50, 0, 100, 0.1, 0)},
         0,
         1,
         "owner_pressure_spill",
         false},
        {"multi-DP: summed caps, below",
         {{100, 0, 128, 4, true, true, 0.5, -1, 40}, IDLE, IDLE, IDLE},
         0,
         0,
         "cache_hit",
         false},
        {"multi-DP: summed caps, above",
         {{110, 10, 128, 4, true, true, 0.5, -1, 40},
          FED(3, 0, 64, 0.1, 0),
          IDLE,
          FED(1, 0, 64, 0.0, 0)},
         0,
         2,
         "owner_pressure_spill",
         false},
        {"partial caps on a peer: fleet-wide fallback",
         {FED(60, 10, 64, 0.5, 40), IDLE, {0, 0, 64, 2, false, true, 0.0, -1, 0}, IDLE},
         0,
         0,
         "cache_hit",
         true},
        {"stale peer: fleet-wide fallback",
         {FED(60, 10, 64, 0.5, 40), {0, 0, 64, 1, true, false, 0.0, -1, 0}, IDLE, IDLE},
         0,
         0,
         "cache_hit",
         true},
        {"Prometheus counts, duplicated across TP, no caps",
         {{120, 20, 0, 1, false, true, 0.45, -1, 40},
          {4, 0, 0, 1, false, true, 0.1, -1, 0},
          {2, 0, 0, 1, false, true, 0.1, -1, 0},
          {0, 0, 0, 1, false, true, 0.1, -1, 0}},
         0,
         0,
         "cache_hit",
         true},
        {"fallback still spills on KV usage",
         {{10, 0, 0, 1, false, true, 0.95, -1, 40},
          {4, 0, 0, 1, false, true, 0.5, -1, 0},
          {2, 0, 0, 1, false, true, 0.2, -1, 0},
          {0, 0, 0, 1, false, true, 0.85, -1, 0}},
         0,
         2,
         "owner_pressure_spill",
         true},
        {"utilization counts as pressure",
         {{10, 0, 64, 1, true, true, 0.1, 0.95, 40}, IDLE, FED(3, 0, 64, 0.0, 0), IDLE},
         0,
         1,
         "owner_pressure_spill",
         false},
        {"existing owner below watermark preferred",
         {FED(64, 10, 64, 0.6, 40), FED(20, 0, 64, 0.4, 20), IDLE, IDLE},
         0,
         1,
         "existing_owner",
         false},
        {"existing owner also hot: spill",
         {FED(64, 10, 64, 0.6, 40), FED(61, 0, 64, 0.4, 20), FED(1, 0, 64, 0.0, 0), IDLE},
         0,
         3,
         "owner_pressure_spill",
         false},
        {"every spill candidate saturated: hold",
         {FED(64, 0, 64, 0.5, 40), FED(61, 0, 64, 0.5, 0), FED(59, 0, 64, 0.5, 0),
          FED(62, 0, 64, 0.5, 0)},
         0,
         0,
         "no_safe_spill_hold",
         false},
        {"candidates not slack cooler: hold",
         {FED(59, 0, 64, 0.5, 40), FED(55, 0, 64, 0.5, 0), FED(56, 0, 64, 0.5, 0),
          FED(57, 0, 64, 0.5, 0)},
         0,
         0,
         "no_safe_spill_hold",
         false},
        {"exactly owner-slack cooler spills",
         {FED(95, 0, 100, 0.5, 40), FED(85, 0, 100, 0.5, 0), FED(86, 0, 100, 0.5, 0),
          FED(99, 0, 100, 0.5, 0)},
         0,
         1,
         "owner_pressure_spill",
         false},
        {"hold picks the least-pressured owner",
         {FED(64, 8, 64, 0.5, 40), FED(63, 0, 64, 0.5, 40), FED(62, 0, 64, 0.5, 0),
          FED(63, 0, 64, 0.5, 0)},
         0,
         1,
         "no_safe_spill_hold",
         false},
        {"replication ceiling reached: hold",
         {FED(64, 8, 64, 0.5, 40), FED(61, 0, 64, 0.5, 40), IDLE, IDLE},
         2,
         1,
         "no_safe_spill_hold",
         false},
        {"below the ceiling: spill",
         {FED(64, 8, 64, 0.5, 40), FED(61, 0, 64, 0.5, 40), IDLE, IDLE},
         3,
         2,
         "owner_pressure_spill",
         false},
        {"low match rate: shortest queue, hot engines skipped",
         {FED(0, 0, 64, 0.95, 8), FED(3, 0, 64, 0.5, 0), FED(2, 0, 64, 0.5, 0),
          FED(4, 0, 64, 0.5, 0)},
         0,
         2,
         "cache_miss",
         false},
    };
    return cr_make_param_array(pressure_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

static void build_fleet(const engine_case_t *e, kvr_engine_view_t *v,
                        const kvr_route_request_t *req)
{
    for (uint32_t i = 0; i < 4; i++) {
        v[i] = fx_fed_view(i, e[i].running, e[i].waiting, e[i].max_running, e[i].kv);
        v[i].dp_ranks = e[i].dp_ranks;
        v[i].caps_complete = e[i].caps;
        v[i].feed_fresh = e[i].fresh;
        v[i].utilization = e[i].util;
        if (e[i].held_blocks) {
            kvr_route_request_t prefix = *req;
            prefix.n_blocks = e[i].held_blocks;
            prefix.now_ns = 1 * S;
            ops->on_dispatch(st, &prefix, i);
        }
    }
}

ParameterizedTest(pressure_case_t *c, policy_cache_aware, owner_pressure, .init = setup,
                  .fini = teardown, .timeout = 5.)
{
    cfg.balance_abs = 1000; /* these cases are about pressure, not the balance gate */
    if (c->ceiling)
        cfg.replication_ceiling = c->ceiling;
    st = fx_policy("cache_aware", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 11, PROMPT, 11, 100 * S);
    cr_assert_eq(req->n_blocks, 40);
    kvr_engine_view_t v[4];
    build_fleet(c->e, v, req);
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 4, &d);
    cr_expect_eq(d.view, c->want, "%s: view %d", c->name, d.view);
    cr_expect_str_eq(d.reason, c->reason, "%s", c->name);
    cr_expect_eq(!!(d.flags & KVR_DECISION_PRESSURE_FALLBACK), c->fallback, "%s: fallback flag",
                 c->name);
}

/* Three engines cool, the owner hot; returns the decision for a request at now. */
static kvr_route_decision_t hot_prefix_request(kvr_engine_view_t *v, uint64_t now_ns)
{
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 12, PROMPT, 12, now_ns);
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 4, &d);
    if (ops->on_dispatch)
        ops->on_dispatch(st, req, v[d.view].index);
    return d;
}

Test(policy_cache_aware, cooldown_and_ceiling_bound_spills, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    cfg.balance_abs = 1000;
    st = fx_policy("cache_aware", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 12, PROMPT, 12, 1 * S);
    kvr_engine_view_t v[4];
    const engine_case_t fleet[4] = {FED(64, 4, 64, 0.5, 40), FED(5, 0, 64, 0.1, 0),
                                    FED(8, 0, 64, 0.1, 0), FED(9, 0, 64, 0.1, 0)};
    build_fleet(fleet, v, req);

    kvr_route_decision_t d = hot_prefix_request(v, 100 * S);
    cr_expect_str_eq(d.reason, "owner_pressure_spill");
    cr_expect_eq(d.view, 1);
    /* The new replica fills up at once; the coolest non-owner is now engine 2. */
    v[1] = fx_fed_view(1, 62, 0, 64, 0.5);
    d = hot_prefix_request(v, 100 * S + 400 * MS);
    cr_expect_str_eq(d.reason, "no_safe_spill_hold", "within the cooldown");
    cr_expect_eq(d.view, 1, "the least-pressured owner");
    d = hot_prefix_request(v, 101 * S + 500 * MS);
    cr_expect_str_eq(d.reason, "owner_pressure_spill", "cooldown over");
    cr_expect_eq(d.view, 2);
    /* Three owners now: the ceiling stops a fourth even long after the cooldown. */
    v[2] = fx_fed_view(2, 63, 0, 64, 0.5);
    d = hot_prefix_request(v, 110 * S);
    cr_expect_str_eq(d.reason, "no_safe_spill_hold");
    cr_expect_eq(d.view, 1);
}

Test(policy_cache_aware, burst_on_a_hot_prefix_spills_once, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    cfg.balance_abs = 1000;
    st = fx_policy("cache_aware", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 12, PROMPT, 12, 1 * S);
    kvr_engine_view_t v[4];
    const engine_case_t fleet[4] = {FED(64, 4, 64, 0.5, 40), IDLE, IDLE, IDLE};
    build_fleet(fleet, v, req);
    int spills = 0, target = -1;
    for (int i = 0; i < 10; i++) {
        kvr_route_decision_t d = fx_route(ops, st, fx_request(&rq, PROMPT, 12, PROMPT, 12, 100 * S),
                                          v, 4);
        if (strcmp(d.reason, "owner_pressure_spill") == 0) {
            spills++;
            target = d.view;
        } else {
            /* The replica holds the whole prefix now and was placed this instant. */
            cr_expect_str_eq(d.reason, "provisional_owner", "request %d", i);
            cr_expect_eq(d.view, target);
        }
    }
    cr_expect_eq(spills, 1);
}

Test(policy_cache_aware, concurrent_first_requests_coalesce, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("cache_aware", &cfg, &ops);
    kvr_engine_view_t v[4];
    for (uint32_t i = 0; i < 4; i++)
        v[i] = fx_fed_view(i, 0, 0, 64, 0.0);
    int owner = -1;
    for (unsigned i = 0; i < 8; i++) {
        /* One new 2 KB system prompt, a different 128-byte question each. */
        kvr_route_decision_t d = fx_route(
            ops, st, fx_request(&rq, 2048 + 128, 21, 2048, 900 + i, 50 * S), v, 4);
        if (i == 0) {
            cr_expect_str_eq(d.reason, "cache_miss");
            owner = d.view;
        } else {
            cr_expect_eq(d.view, owner, "request %u", i);
            cr_expect_str_eq(d.reason, "provisional_owner");
        }
        cr_expect_not(d.flags & KVR_DECISION_PRESSURE_FALLBACK);
    }
    cr_expect_eq(v[owner].eff_requests, 8);
    /* Later, the owner is settled: an ordinary cache hit. */
    kvr_route_decision_t d = fx_route(ops, st, fx_request(&rq, 2048 + 128, 21, 2048, 999, 60 * S),
                                      v, 4);
    cr_expect_eq(d.view, owner);
    cr_expect_str_eq(d.reason, "cache_hit");
}

Test(policy_cache_aware, sglang_rule_without_owner_pressure, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    cfg.owner_pressure = false;
    st = fx_policy("cache_aware", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 13, PROMPT, 13, 1 * S);
    kvr_engine_view_t v[4];
    /* The hot owner keeps its prefix: the rule alone sees a match, not a scheduler. */
    const engine_case_t fleet[4] = {FED(38, 20, 38, 0.5, 40), IDLE, IDLE, IDLE};
    build_fleet(fleet, v, req);
    req->now_ns = 100 * S;
    kvr_route_decision_t d = {0};
    ops->pick(st, req, v, 4, &d);
    cr_expect_eq(d.view, 0);
    cr_expect_str_eq(d.reason, "cache_hit");
    cr_expect_eq(d.prefix_match_blocks, 40);
    /* Imbalance: max - min > 64 and max > 1.5 x min → shortest queue. */
    v[0].eff_requests = 70;
    v[1].eff_requests = 5;
    v[2].eff_requests = 3;
    v[3].eff_requests = 4;
    ops->pick(st, req, v, 4, &d);
    cr_expect_eq(d.view, 2);
    cr_expect_str_eq(d.reason, "balance_shortest_queue");
    /* 64 apart exactly is not imbalanced. */
    v[0].eff_requests = 67;
    ops->pick(st, req, v, 4, &d);
    cr_expect_str_eq(d.reason, "cache_hit");
    /* A weak match (below 30% of the prompt) goes to the shortest queue. */
    v[0].eff_requests = 10;
    kvr_route_request_t *other = fx_request(&rq, PROMPT, 13, 64 * 12, 14, 100 * S);
    ops->pick(st, other, v, 4, &d);
    cr_expect_str_eq(d.reason, "cache_miss");
    cr_expect_eq(d.view, 2);
}
