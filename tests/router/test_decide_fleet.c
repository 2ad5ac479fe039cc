/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The decision core on large fleets. The policies' passes read the views'
 * columns the core fills beside the views (router/policy.h); a twin of each
 * rule, given the same views with no columns, copies them itself, and must
 * make the same pick at every decision on a fleet whose loads, KV figures
 * and capacities come from a real segment and change between decisions.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/rng.h"
#include "router/decide.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

#define T0 (1000 * KVR_NS_PER_SEC)
#define MAX_AGE (2000 * KVR_NS_PER_MS)

static kvr_decider_t d;
static bool d_open;
static char seg_name[64];
static kvr_shm_t writer;
static bool writer_open;

static void setup(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-fleet");
}

static void teardown(void)
{
    if (d_open)
        kvr_decide_close(&d);
    d_open = false;
    if (writer_open) {
        kvr_shm_close(&writer);
        kvr_shm_unlink(seg_name);
    }
    writer_open = false;
}

TestSuite(decide_fleet, .init = setup, .fini = teardown, .timeout = 60.);

static void start(const char *policy, uint32_t engines, uint32_t capacity)
{
    kvr_decide_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.policy = policy;
    kvr_policy_config_defaults(&cfg.policy_config);
    cfg.placement = KVR_PLACEMENT_PER_REQUEST;
    cfg.admission = KVR_ADMISSION_OFF;
    cfg.session_ttl_ns = 10 * KVR_NS_PER_SEC;
    cfg.max_sessions = 100;
    cfg.fail_threshold = 1;
    cfg.es = true;
    cfg.es_no_spread = true; /* the twin draws nothing: one router, no herding guard */
    cfg.shm_name = seg_name;
    cfg.shm_owner_uid = -1;
    cfg.max_age_ns = MAX_AGE;
    cfg.max_engines = engines;
    cr_assert_eq(kvr_shm_create(&writer, seg_name, capacity), 0);
    writer_open = true;
    cr_assert_eq(kvr_decide_init(&d, &cfg), 0);
    d_open = true;
    char id[32];
    for (uint32_t i = 0; i < engines; i++) {
        snprintf(id, sizeof id, "e%u", i);
        kvr_engine_t *e;
        cr_assert_eq(kvr_decide_add_engine(&d, id, &e), 0);
        cr_assert_eq(kvr_shm_add_engine(&writer, id), (int)i, "engine i in slot i");
    }
}

/* A sample at now_ns in slot (which holds its engine under its id). */
static void publish(uint32_t slot, uint32_t running, uint32_t waiting, uint64_t pending,
                    uint64_t kv_used, uint64_t kv_capacity, uint64_t now_ns)
{
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, (uint32_t)slot, &st);
    st.sample_time_ns = st.publish_time_ns = now_ns;
    st.sample_seq++;
    st.flags = kvr_slot_with_source(KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY | KVR_SLOT_CAPS_COMPLETE |
                                        KVR_SLOT_HAS_PENDING_PREFILL,
                                    KVR_SOURCE_LOADS);
    st.running = running;
    st.waiting = waiting;
    st.max_running = 8;
    st.dp_ranks = 1;
    st.pending_prefill_tokens = pending;
    st.kv_tokens_used = kv_used;
    st.kv_tokens_capacity = kv_capacity;
    st.kv_usage = kv_capacity ? (double)kv_used / (double)kv_capacity : -1;
    kvr_shm_write_slot(&writer, (uint32_t)slot, &st);
}

#define TWIN_ENGINES 200
#define TWIN_SESSIONS 24
#define TWIN_STEPS 300
#define TWIN_BLOCKS 48

/* The decider's pick (columns from the core) against a twin's on the same views (no columns). */
static void twin_run(const char *policy)
{
    start(policy, TWIN_ENGINES, TWIN_ENGINES);
    const kvr_policy_ops_t *ops = kvr_policy_find(policy);
    cr_assert_not_null(ops);
    void *twin = NULL;
    cr_assert_eq(ops->create(&d.cfg.policy_config, &twin), 0);
    uint64_t rng = 0x7117;
    uint64_t hashes[TWIN_BLOCKS];
    static kvr_charge_t held[TWIN_STEPS];
    size_t n_held = 0;
    uint64_t now = T0;
    for (uint32_t i = 0; i < TWIN_ENGINES; i++)
        publish(i, 0, 0, 0, 0, 0, now);
    kvr_shm_heartbeat(&writer, now);
    for (uint32_t step = 0; step < TWIN_STEPS; step++) {
        now += KVR_NS_PER_MS;
        /* Loads in a small range so ties are frequent; capacities that change now and then. */
        for (int k = 0; k < 8; k++) {
            uint32_t e = (uint32_t)(kvr_splitmix64(&rng) % TWIN_ENGINES);
            uint64_t cap = kvr_splitmix64(&rng) % 3 == 0 ? 0 : 16000 * (1 + e % 3);
            publish(e, (uint32_t)(kvr_splitmix64(&rng) % 4), (uint32_t)(kvr_splitmix64(&rng) % 3),
                    (kvr_splitmix64(&rng) % 4) * 512, kvr_splitmix64(&rng) % 16000, cap, now);
        }
        kvr_shm_heartbeat(&writer, now);
        if (n_held > 0 && kvr_splitmix64(&rng) % 2 == 0) {
            size_t k = (size_t)(kvr_splitmix64(&rng) % n_held);
            kvr_decide_release_at(&d, &held[k], now);
            held[k] = held[--n_held];
            held[n_held] = (kvr_charge_t){0}; /* the next route takes it, holding no charge */
        }
        /* A session's stable prefix, then blocks of its own. */
        uint64_t session = kvr_splitmix64(&rng) % TWIN_SESSIONS;
        size_t n = 8 + (size_t)(kvr_splitmix64(&rng) % (TWIN_BLOCKS - 8));
        uint64_t chain = session + 1;
        for (size_t i = 0; i < n; i++) {
            chain = chain * 0x9E3779B97F4A7C15ull + (i < 24 ? i : kvr_splitmix64(&rng));
            hashes[i] = chain;
        }
        kvr_route_request_t req = {.request_id = "r",
                                   .block_hashes = hashes,
                                   .n_blocks = n,
                                   .prompt_tokens = (uint32_t)(n * 16),
                                   .now_ns = now};
        kvr_decide_result_t res;
        cr_assert_lt(n_held, TWIN_STEPS);
        kvr_decide_route(&d, &req, NULL, 0, &held[n_held], &res);
        cr_assert_eq(res.status, 0, "%s step %u: status %d", policy, step, res.status);
        n_held++;
        /* Every engine is a candidate, so the decision's views are the whole table. */
        kvr_route_decision_t dec = {.view = -1};
        ops->pick(twin, &req, d.views, TWIN_ENGINES, &dec);
        cr_assert(dec.view >= 0 && dec.view < TWIN_ENGINES);
        cr_assert_eq(d.views[dec.view].index, res.engine->index,
                     "%s step %u: the core's columns chose engine %u, the views %u", policy, step,
                     res.engine->index, d.views[dec.view].index);
        cr_assert_str_eq(dec.reason, res.reason, "%s step %u", policy, step);
        cr_assert_eq(dec.prefix_match_blocks, res.prefix_match_blocks, "%s step %u", policy, step);
        if (ops->on_dispatch)
            ops->on_dispatch(twin, &req, res.engine->index);
    }
    for (size_t k = 0; k < n_held; k++)
        kvr_decide_release_at(&d, &held[k], now);
    ops->destroy(twin);
}

Test(decide_fleet, lmetric_picks_from_the_columns_as_from_the_views)
{
    twin_run("lmetric");
}

Test(decide_fleet, cost_picks_from_the_columns_as_from_the_views)
{
    twin_run("cost");
}

Test(decide_fleet, cache_aware_picks_from_the_columns_as_from_the_views)
{
    twin_run("cache_aware");
}

Test(decide_fleet, affinity_picks_from_the_columns_as_from_the_views)
{
    twin_run("affinity");
}

Test(decide_fleet, llmd_picks_from_the_columns_as_from_the_views)
{
    twin_run("llmd");
}

Test(decide_fleet, lmetric_paper_picks_from_the_columns_as_from_the_views)
{
    twin_run("lmetric_paper");
}

/* The setting's ceiling, segment included: 16,384 engines, each found in its slot of a 16,384-slot segment. */
Test(decide_fleet, a_table_of_16384_engines_reads_each_ones_slot, .timeout = 120.)
{
    cr_assert_geq(KVR_MAX_ENGINES, 16384);
    start("load_only", KVR_MAX_ENGINES, KVR_MAX_ENGINES);
    uint64_t now = T0;
    const uint32_t idle = 12345;
    for (uint32_t i = 0; i < KVR_MAX_ENGINES; i++)
        publish(i, i == idle ? 0 : 3, 0, 0, 0, 0, now);
    kvr_shm_heartbeat(&writer, now);
    kvr_route_request_t req = {.request_id = "r", .prompt_tokens = 100, .now_ns = now};
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    kvr_decide_route(&d, &req, NULL, 0, &c, &res);
    cr_assert_eq(res.status, 0);
    cr_expect_eq(res.engine->index, idle, "picked %u, not the one idle engine", res.engine->index);
    cr_expect_eq(res.feed_state, KVR_FEED_FRESH);
    for (uint32_t i = 0; i < KVR_MAX_ENGINES; i++)
        cr_assert_eq(d.engines.engines[i]->feed_slot, (int)i, "engine %u not found in its slot", i);
    kvr_decide_release_at(&d, &c, now);

    /* A new table generation with two engines' slots swapped: each is found where it is now. */
    cr_assert_eq(kvr_shm_remove_engine(&writer, 7), 0);
    cr_assert_eq(kvr_shm_remove_engine(&writer, 9), 0);
    cr_assert_eq(kvr_shm_add_engine(&writer, "e9"), 7);
    cr_assert_eq(kvr_shm_add_engine(&writer, "e7"), 9);
    now += KVR_NS_PER_MS;
    for (uint32_t i = 0; i < KVR_MAX_ENGINES; i++)
        publish(i, i == 7 ? 0 : 3, 0, 0, 0, 0, now); /* slot 7, engine e9, is the idle one */
    kvr_shm_heartbeat(&writer, now);
    req.now_ns = now;
    kvr_decide_route(&d, &req, NULL, 0, &c, &res);
    cr_assert_eq(res.status, 0);
    cr_expect_str_eq(res.engine->id, "e9");
    cr_expect_eq(d.engines.engines[7]->feed_slot, 9);
    cr_expect_eq(d.engines.engines[9]->feed_slot, 7);
    kvr_decide_release_at(&d, &c, now);
}
