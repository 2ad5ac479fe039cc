/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --cache-state: a prefix-aware policy's match of an engine comes from the
 * residency table where the table trusts the engine (auto, events), from
 * the router's own index otherwise (auto, own, a request without token
 * hashes, a table that is down or another writer's). The test writes a state
 * segment and a residency table on a virtual clock and routes with the real
 * decision core; the decision log says where each match came from.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/rng.h"
#include "router/decide.h"
#include "shm_layout/residency.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

#define T0 (1000 * KVR_NS_PER_SEC)
#define MAX_AGE (2000 * KVR_NS_PER_MS)
#define ENGINES 3
#define BLOCKS 8

static kvr_decider_t d;
static bool d_open;
static char seg_name[64], table_name[96];
static kvr_shm_t seg;
static kvr_residency_writer_t table;
static int slot_of[ENGINES];
static uint64_t tokens[BLOCKS], text[BLOCKS];

static void setup(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-cache-state");
    cr_assert_eq(kvr_shm_create(&seg, seg_name, 8), 0);
    cr_assert_eq(kvr_residency_name(table_name, sizeof table_name, seg_name), 0);
    cr_assert_eq(kvr_residency_writer_open(&table, table_name, 1, 8), 0);
    kvr_residency_writer_tick(&table, T0, 0);
    /* The segment lists the engines in another order than the router: slots are not indexes. */
    for (int i = ENGINES - 1; i >= 0; i--) {
        char id[16];
        snprintf(id, sizeof id, "sim-%d", i);
        slot_of[i] = kvr_shm_add_engine(&seg, id);
        cr_assert_geq(slot_of[i], 0);
        kvr_engine_state_t st;
        kvr_shm_writer_state(&seg, (uint32_t)slot_of[i], &st);
        st.sample_time_ns = T0 - KVR_NS_PER_MS;
        st.sample_seq = 1;
        st.flags = kvr_slot_with_source(KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY, KVR_SOURCE_LOADS);
        kvr_shm_write_slot(&seg, (uint32_t)slot_of[i], &st);
    }
    kvr_shm_heartbeat(&seg, T0);
    uint64_t x = 42;
    for (int i = 0; i < BLOCKS; i++) {
        tokens[i] = kvr_splitmix64(&x) | 1;
        text[i] = kvr_splitmix64(&x) | 1;
    }
}

static void teardown(void)
{
    if (d_open)
        kvr_decide_close(&d);
    d_open = false;
    kvr_residency_writer_destroy(&table);
    kvr_shm_close(&seg);
    kvr_shm_unlink(seg_name);
}

TestSuite(cache_state, .init = setup, .fini = teardown, .timeout = 10.);

static void start(const char *policy, kvr_cache_state_mode_t mode)
{
    kvr_decide_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.policy = policy;
    kvr_policy_config_defaults(&cfg.policy_config);
    cfg.placement = KVR_PLACEMENT_PER_REQUEST;
    cfg.admission = KVR_ADMISSION_OFF;
    cfg.session_ttl_ns = 10 * KVR_NS_PER_SEC;
    cfg.max_sessions = 100;
    cfg.fail_threshold = 2;
    cfg.es = true;
    cfg.shm_name = seg_name;
    cfg.shm_owner_uid = -1;
    cfg.max_age_ns = MAX_AGE;
    cfg.cache_state = mode;
    cr_assert_eq(kvr_decide_init(&d, &cfg), 0);
    d_open = true;
    for (int i = 0; i < ENGINES; i++) {
        char id[16];
        snprintf(id, sizeof id, "sim-%d", i);
        kvr_engine_t *e;
        cr_assert_eq(kvr_decide_add_engine(&d, id, &e), 0);
    }
}

/* Engine i holds the first n token blocks in tier, as its KV events said. */
static void holds(int engine, int n, uint32_t tier)
{
    for (int b = 0; b < n; b++)
        cr_assert_eq(kvr_residency_stored(&table, (uint32_t)slot_of[engine], tokens[b], tier), 0);
    kvr_residency_trust(&table, (uint32_t)slot_of[engine], true);
}

/* A request keyed on its tokens (a pool with --tokenizer), or on text hashes that differ per salt. */
static kvr_route_request_t request(bool with_tokens, uint64_t salt)
{
    static uint64_t text_now[BLOCKS];
    for (int i = 0; i < BLOCKS; i++)
        text_now[i] = text[i] ^ salt;
    return (kvr_route_request_t){.request_id = "r",
                                 .text = "",
                                 .block_hashes = with_tokens ? tokens : text_now,
                                 .n_blocks = BLOCKS,
                                 .token_blocks = with_tokens,
                                 .block_tokens = with_tokens ? 16 : 0,
                                 .prompt_tokens = BLOCKS * 16,
                                 .now_ns = T0};
}

/* Engine i's state-segment slot: its sample taken at sample_ns, healthy or not. */
static void slot_sample(int engine, uint64_t sample_ns, bool healthy)
{
    kvr_engine_state_t st;
    kvr_shm_writer_state(&seg, (uint32_t)slot_of[engine], &st);
    st.sample_time_ns = sample_ns;
    st.sample_seq++;
    st.flags = kvr_slot_with_source(KVR_SLOT_IN_USE | (healthy ? KVR_SLOT_HEALTHY : 0),
                                    KVR_SOURCE_LOADS);
    kvr_shm_write_slot(&seg, (uint32_t)slot_of[engine], &st);
}

static void route(const kvr_route_request_t *req, kvr_decide_result_t *res)
{
    kvr_charge_t c = {0};
    kvr_decide_route(&d, req, NULL, 0, &c, res);
    cr_assert_not_null(res->engine, "no engine: %s", res->reason);
    kvr_decide_release(&d, &c);
}

static char *log_line(const kvr_decide_result_t *res)
{
    static char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    kvr_decide_log(&d, f, "r", NULL, res, 200, 1, 1);
    fclose(f);
    return buf;
}

Test(cache_state, auto_takes_a_trusted_engines_match_from_the_table)
{
    holds(2, BLOCKS, KVR_RES_TIER_GPU);
    start("cache_aware", KVR_CACHE_STATE_AUTO);
    kvr_decide_result_t res;
    kvr_route_request_t req = request(true, 1);
    route(&req, &res);
    cr_expect_str_eq(res.engine->id, "sim-2", "the engine holding the prefix, by its events");
    cr_expect_eq(res.prefix_match_blocks, BLOCKS);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_EVENTS);
    cr_expect_eq(d.cache.lookups_total, 1);
    cr_expect_eq(d.cache.hits_total[KVR_MATCH_FROM_EVENTS], 1);
    const char *line = log_line(&res);
    cr_expect_not_null(strstr(line, "\"prompt_tokens_exact\":false,\"match_source\":\"events\","
                                    "\"matches\":[{\"engine\":\"sim-2\",\"blocks\":8,"
                                    "\"source\":\"events\"}],\"seed_lease\""),
                       "%s", line);

    /* The engine's blocks are cleared; every engine trusted: the table says none holds anything. */
    kvr_residency_cleared(&table, (uint32_t)slot_of[2]);
    kvr_residency_trust(&table, (uint32_t)slot_of[0], true);
    kvr_residency_trust(&table, (uint32_t)slot_of[1], true);
    req = request(true, 2);
    route(&req, &res);
    cr_expect_eq(res.prefix_match_blocks, 0);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_EVENTS);
    cr_expect_eq(d.cache.untrusted_engines, 0);
}

Test(cache_state, auto_uses_the_own_index_for_an_untrusted_engine)
{
    start("cache_aware", KVR_CACHE_STATE_AUTO);
    /* The own index learns sim-1 from a dispatch; the table does not vouch for any engine. */
    kvr_route_request_t req = request(true, 7);
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    uint32_t not1[2] = {0, 2};
    kvr_decide_route(&d, &req, not1, 2, &c, &res);
    cr_assert_str_eq(res.engine->id, "sim-1");
    kvr_decide_release(&d, &c);
    route(&req, &res);
    cr_expect_str_eq(res.engine->id, "sim-1");
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_OWN);
    cr_expect_eq(res.prefix_match_blocks, BLOCKS);
    cr_expect_eq(d.cache.untrusted_engines, ENGINES);
    cr_expect_eq(d.cache.untrusted_total, 1 + ENGINES, "sim-1 alone, then every candidate");
    cr_expect_not_null(strstr(log_line(&res), "\"match_source\":\"own\""));
    /* events: the table alone, so the own index's guess does not count. */
    kvr_decide_close(&d);
    d_open = false;
    start("cache_aware", KVR_CACHE_STATE_EVENTS);
    kvr_decide_route(&d, &req, not1, 2, &c, &res);
    kvr_decide_release(&d, &c);
    route(&req, &res);
    cr_expect_eq(res.prefix_match_blocks, 0);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_EVENTS);
}

Test(cache_state, host_blocks_count_less_than_gpu_blocks)
{
    holds(1, BLOCKS, KVR_RES_TIER_HOST); /* 8 blocks off the GPU: credited as 4 */
    holds(2, 6, KVR_RES_TIER_GPU);
    start("cache_aware", KVR_CACHE_STATE_AUTO);
    kvr_decide_result_t res;
    kvr_route_request_t req = request(true, 3);
    route(&req, &res);
    cr_expect_str_eq(res.engine->id, "sim-2");
    cr_expect_eq(res.prefix_match_blocks, 6);
    cr_assert_eq(res.n_matches, 2);
    cr_expect_eq(res.matches[0].blocks, 6, "deepest first");
    cr_expect_eq(res.matches[1].blocks, 4);
    cr_expect_eq(res.matches[1].from, KVR_MATCH_FROM_EVENTS);
}

Test(cache_state, own_mode_and_untokenized_requests_never_read_the_table)
{
    holds(2, BLOCKS, KVR_RES_TIER_GPU);
    start("cache_aware", KVR_CACHE_STATE_OWN);
    kvr_decide_result_t res;
    kvr_route_request_t req = request(true, 4);
    route(&req, &res);
    cr_expect_eq(res.prefix_match_blocks, 0);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_OWN);
    cr_expect_eq(d.cache.lookups_total, 0);
    cr_expect(!d.cache.open, "own never opens the table");
    kvr_decide_close(&d);
    d_open = false;
    start("cache_aware", KVR_CACHE_STATE_EVENTS);
    req = request(false, 5);
    route(&req, &res);
    cr_expect_eq(res.prefix_match_blocks, 0);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_OWN, "no token hashes: the own index");
    cr_expect_eq(d.cache.no_tokens_total, 1);
    cr_expect_eq(d.cache.lookups_total, 0);
}

Test(cache_state, a_stale_or_foreign_table_falls_back_to_the_own_index)
{
    holds(2, BLOCKS, KVR_RES_TIER_GPU);
    holds(0, 0, KVR_RES_TIER_GPU); /* trusted, holding nothing: every match is the table's */
    holds(1, 0, KVR_RES_TIER_GPU);
    start("cache_aware", KVR_CACHE_STATE_AUTO);
    kvr_decide_result_t res;
    /* Another writer's table: its slots would name another segment's engines. */
    atomic_store(&table.header->writer_pid, 1);
    kvr_route_request_t req = request(true, 6);
    route(&req, &res);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_OWN);
    cr_expect_eq(res.prefix_match_blocks, 0);
    cr_expect_eq(d.cache.table_down_total, 1);
    atomic_store(&table.header->writer_pid, (int64_t)getpid());
    /* Reopened a second later; a heartbeat past the max age is a table down too. */
    req.now_ns = T0 + KVR_NS_PER_SEC + 1;
    kvr_shm_heartbeat(&seg, req.now_ns);
    route(&req, &res);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_EVENTS);
    req.now_ns = T0 + 3 * KVR_NS_PER_SEC;
    kvr_shm_heartbeat(&seg, req.now_ns);
    route(&req, &res);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_OWN);
    cr_expect_eq(d.cache.table_down_total, 2);
    kvr_residency_writer_tick(&table, req.now_ns, 0);
    for (int i = 0; i < ENGINES; i++)
        slot_sample(i, req.now_ns - KVR_NS_PER_MS, true); /* the engines' samples are fresh too */
    route(&req, &res);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_EVENTS);
}

Test(cache_state, an_engine_whose_slot_is_not_fresh_is_not_read_from_the_table)
{
    holds(2, BLOCKS, KVR_RES_TIER_GPU);
    holds(0, 0, KVR_RES_TIER_GPU);
    holds(1, 0, KVR_RES_TIER_GPU);
    /* sim-2's slot is older than the max age: the writer no longer hears from that engine. */
    slot_sample(2, T0 - MAX_AGE - KVR_NS_PER_MS, true);
    start("cache_aware", KVR_CACHE_STATE_AUTO);
    kvr_decide_result_t res;
    kvr_route_request_t req = request(true, 8);
    route(&req, &res);
    cr_expect_str_neq(res.engine->id, "sim-2",
                      "a stale slot's blocks are not the table's to vouch");
    cr_expect_eq(res.prefix_match_blocks, 0);
    cr_expect_eq(d.cache.hits_total[KVR_MATCH_FROM_EVENTS], 0);
    cr_expect_eq(d.cache.stale_slots_total, 1);
    cr_expect_eq(d.cache.untrusted_engines, 1);
    const char *line = log_line(&res);
    cr_expect_not_null(strstr(line, "\"matches\":[]"), "%s", line);

    /* Unhealthy (the writer's polls fail): the same, in events mode a match of 0. */
    kvr_decide_close(&d);
    d_open = false;
    slot_sample(2, T0 - KVR_NS_PER_MS, false);
    start("cache_aware", KVR_CACHE_STATE_EVENTS);
    req = request(true, 9);
    route(&req, &res);
    cr_expect_eq(res.prefix_match_blocks, 0);
    cr_expect_eq(d.cache.hits_total[KVR_MATCH_FROM_EVENTS], 0);
    cr_expect_eq(d.cache.stale_slots_total, 1);

    /* Fresh and healthy again: its blocks count. */
    slot_sample(2, T0 - KVR_NS_PER_MS, true);
    route(&req, &res);
    cr_expect_str_eq(res.engine->id, "sim-2");
    cr_expect_eq(res.prefix_match_blocks, BLOCKS);
    cr_expect_eq(res.match_from, KVR_MATCH_FROM_EVENTS);
}

Test(cache_state, a_decision_counts_one_lookup_when_admission_walks_first)
{
    holds(2, BLOCKS, KVR_RES_TIER_GPU);
    kvr_decide_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.policy = "cache_aware";
    kvr_policy_config_defaults(&cfg.policy_config);
    cfg.placement = KVR_PLACEMENT_PER_REQUEST;
    cfg.admission = KVR_ADMISSION_OFF;
    cfg.admission_order = KVR_ADMISSION_BEFORE; /* the base pick walks the index before the pick */
    cfg.session_ttl_ns = 10 * KVR_NS_PER_SEC;
    cfg.max_sessions = 100;
    cfg.fail_threshold = 2;
    cfg.es = true;
    cfg.shm_name = seg_name;
    cfg.shm_owner_uid = -1;
    cfg.max_age_ns = MAX_AGE;
    cfg.cache_state = KVR_CACHE_STATE_AUTO;
    cr_assert_eq(kvr_decide_init(&d, &cfg), 0);
    d_open = true;
    for (int i = 0; i < ENGINES; i++) {
        char id[16];
        snprintf(id, sizeof id, "sim-%d", i);
        kvr_engine_t *e;
        cr_assert_eq(kvr_decide_add_engine(&d, id, &e), 0);
    }
    kvr_decide_result_t res;
    for (uint64_t i = 0; i < 3; i++) {
        kvr_route_request_t req = request(true, 10 + i);
        route(&req, &res);
        cr_expect_str_eq(res.engine->id, "sim-2");
        cr_expect_eq(res.match_from, KVR_MATCH_FROM_EVENTS);
    }
    kvr_route_request_t text_req = request(false, 20);
    route(&text_req, &res);
    cr_expect_eq(d.cache.lookups_total, 3, "one lookup per decision, not per walk");
    cr_expect_eq(d.cache.hits_total[KVR_MATCH_FROM_EVENTS], 3);
    cr_expect_eq(d.cache.no_tokens_total, 1);
    cr_expect_eq(res.n_matches, 0);
}
