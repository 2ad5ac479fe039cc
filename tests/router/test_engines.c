/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Engine indexes reused with a generation (router/engines.c, and what the
 * decision core clears when it frees one): a fleet whose engines come and go
 * under new addresses never runs out of indexes, and a new engine on a
 * reused index inherits nothing of the one before.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "router/decide.h"
#include "router/share.h"
#include "tests/support/proc.h"

#define T0 (1000 * KVR_NS_PER_SEC)
#define N_BLOCKS 8

static kvr_decider_t d;
static bool d_open;

static void teardown(void)
{
    if (d_open)
        kvr_decide_close(&d);
    d_open = false;
}

TestSuite(engines, .fini = teardown, .timeout = 30.);

static void start(const char *policy, kvr_placement_t placement, uint32_t max_engines)
{
    kvr_decide_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.policy = policy;
    kvr_policy_config_defaults(&cfg.policy_config);
    cfg.placement = placement;
    cfg.admission = KVR_ADMISSION_OFF;
    cfg.session_ttl_ns = 600 * KVR_NS_PER_SEC;
    cfg.max_sessions = 100000;
    cfg.fail_threshold = 2;
    cfg.shm_owner_uid = -1;
    cfg.max_age_ns = 2 * KVR_NS_PER_SEC;
    cfg.max_engines = max_engines;
    cr_assert_eq(kvr_decide_init(&d, &cfg), 0);
    d_open = true;
}

static kvr_engine_t *add(const char *id)
{
    kvr_engine_t *e = NULL;
    int rc = kvr_decide_add_engine(&d, id, &e);
    cr_assert_eq(rc, 0, "add %s: %d", id, rc);
    return e;
}

static uint64_t blocks[N_BLOCKS];

static kvr_route_request_t request(const char *session, uint64_t now_ns)
{
    for (size_t i = 0; i < N_BLOCKS; i++)
        blocks[i] = 0x5eed0000u + i;
    return (kvr_route_request_t){.request_id = "r",
                                 .session_id = session,
                                 .text = "",
                                 .prompt_tokens = 128,
                                 .block_hashes = blocks,
                                 .n_blocks = N_BLOCKS,
                                 .now_ns = now_ns};
}

/* A pod that restarts comes back under another address: 3,000 distinct URLs through 1,024 indexes. */
Test(engines, distinct_urls_far_past_the_index_count_never_run_out)
{
    start("cache_aware", KVR_PLACEMENT_ONESHOT, 0);
    cr_assert_eq(d.engines.max_engines, KVR_ENGINES_DEFAULT);
    enum { FLEET = 8, CHURN = 3000 };
    kvr_engine_t *fleet[FLEET];
    char id[64];
    uint32_t serial = 0;
    for (int i = 0; i < FLEET; i++) {
        snprintf(id, sizeof id, "http://10.0.%u.%u:8000", serial / 250, serial % 250);
        serial++;
        fleet[i] = add(id);
    }
    uint32_t max_generation = 0;
    for (int round = 0; round < CHURN; round++) {
        uint64_t now = T0 + (uint64_t)round * KVR_NS_PER_MS;
        char session[32];
        snprintf(session, sizeof session, "s%d", round % 50);
        kvr_route_request_t rq = request(session, now);
        kvr_charge_t c = {0};
        kvr_decide_result_t res;
        kvr_decide_route(&d, &rq, NULL, 0, &c, &res);
        cr_assert_eq(res.status, 0, "round %d", round);
        /* The oldest engine leaves, some with the request still in flight on it. */
        int leaving = round % FLEET;
        bool in_flight = round % 3 == 0 && res.engine == fleet[leaving];
        if (!in_flight)
            kvr_decide_release(&d, &c);
        kvr_decide_remove_engine(&d, fleet[leaving]);
        snprintf(id, sizeof id, "http://10.%u.%u.%u:8000", 1 + serial / 62500, serial / 250 % 250,
                 serial % 250);
        serial++;
        fleet[leaving] = add(id);
        if (fleet[leaving]->generation > max_generation)
            max_generation = fleet[leaving]->generation;
        if (in_flight) {
            kvr_decide_release(&d, &c); /* the late release: on the engine it charged */
            cr_expect_eq(fleet[leaving]->shadow_requests, 0);
        }
    }
    cr_expect_eq(serial, FLEET + CHURN);
    cr_expect_leq(d.engines.n_slots, 2 * FLEET, "indexes are reused: %u handed out",
                  d.engines.n_slots);
    cr_expect_geq(d.engines.freed_total, CHURN - FLEET);
    cr_expect_gt(max_generation, 100);
    cr_expect_eq(d.engines.count, FLEET);
    for (uint32_t i = 0; i < d.engines.n_slots; i++) {
        const kvr_engine_t *e = d.engines.engines[i];
        if (e)
            cr_expect_eq(e->shadow_requests, 0, "%s still charged", e->id);
    }
    /* Sessions are only ever pinned to engines still in the table. */
    for (const kvr_session_t *s = d.sessions.newest; s; s = s->older)
        cr_expect_not_null(kvr_engine_table_get(&d.engines, s->engine), "pin %s on a freed index",
                           s->id);
}

Test(engines, a_new_engine_on_a_reused_index_inherits_nothing)
{
    start("cache_aware", KVR_PLACEMENT_ONESHOT, 4);
    kvr_engine_t *old = add("http://10.0.0.1:8000");
    cr_assert_eq(old->index, 0);

    /* A pinned session, prefix blocks and a charge on the old engine. */
    kvr_route_request_t rq = request("chat-1", T0);
    kvr_charge_t c1 = {0}, c2 = {0};
    kvr_decide_result_t res;
    kvr_decide_route(&d, &rq, NULL, 0, &c1, &res);
    cr_assert_eq(res.engine, old);
    rq.now_ns += KVR_NS_PER_MS;
    kvr_decide_route(&d, &rq, NULL, 0, &c2, &res);
    cr_assert_eq(res.engine, old);
    cr_expect(res.pinned);
    kvr_route_request_t anon = request(NULL, T0 + 2 * KVR_NS_PER_MS);
    kvr_charge_t probe = {0};
    kvr_decide_route(&d, &anon, NULL, 0, &probe, &res);
    cr_expect_eq(res.prefix_match_blocks, N_BLOCKS, "the index holds the prompt on the old engine");
    kvr_decide_release(&d, &probe);
    kvr_decide_release(&d, &c2);
    cr_assert_eq(old->shadow_requests, 1);

    /* Removed with c1 in flight: its index stays taken, the next engine gets another. */
    kvr_decide_remove_engine(&d, old);
    kvr_engine_t *other = add("http://10.0.0.2:8000");
    cr_expect_eq(other->index, 1);
    /* What another router tells of the prompt may still reach the draining engine's index. */
    if (d.policy->on_dispatch)
        d.policy->on_dispatch(d.policy_state, &rq, 0);

    /* The late release lands on the old engine only. */
    kvr_decide_release(&d, &c1);
    cr_expect_eq(old->shadow_requests, 0);
    cr_expect_eq(other->shadow_requests, 0);
    cr_expect_eq(other->shadow_pending_prefill_tokens, 0);
    cr_expect_eq(other->shadow_kv_tokens, 0);

    kvr_engine_t *fresh = add("http://10.0.0.3:8000");
    cr_assert_eq(fresh->index, 0, "the drained index is reused");
    cr_expect_eq(fresh->generation, 1);
    cr_expect_eq(fresh->shadow_requests, 0);
    cr_expect_eq(fresh->shadow_pending_prefill_tokens, 0);
    cr_expect_eq(fresh->shadow_kv_tokens, 0);
    cr_expect_eq(fresh->dispatched_total, 0);
    cr_expect_eq(fresh->feed_slot, -1);
    cr_expect_eq(kvr_sessions_count_on(&d.sessions, 0), 0, "the old engine's pins are gone");
    cr_expect_null(kvr_engine_table_lookup(&d.engines, 0, 0), "the old handle names nothing");
    cr_expect_eq(kvr_engine_table_lookup(&d.engines, 0, 1), fresh);

    /* A second release of an old charge is a no-op, whoever holds the index now. */
    kvr_decide_release(&d, &c1);
    kvr_decide_release(&d, &c2);
    cr_expect_eq(fresh->shadow_requests, 0);
    cr_expect_eq(fresh->shadow_kv_tokens, 0);

    /* No prefix entry of the old engine matches the new one. */
    kvr_decide_remove_engine(&d, other);
    anon.now_ns += KVR_NS_PER_MS;
    kvr_decide_route(&d, &anon, NULL, 0, &probe, &res);
    cr_assert_eq(res.engine, fresh);
    cr_expect_eq(res.prefix_match_blocks, 0, "inherited %u prefix blocks", res.prefix_match_blocks);
    kvr_decide_release(&d, &probe);

    /* The session pinned to the old engine is placed anew, not served by the new one as a pin. */
    rq.now_ns = anon.now_ns + KVR_NS_PER_MS;
    kvr_decide_route(&d, &rq, NULL, 0, &c1, &res);
    cr_assert_eq(res.engine, fresh);
    cr_expect_not(res.pinned);
    cr_expect_eq(res.pin, KVR_DECIDE_PIN_NEW);
    kvr_decide_release(&d, &c1);
}

Test(engines, a_full_table_refuses_and_a_drained_engine_makes_room)
{
    start("round_robin", KVR_PLACEMENT_PER_REQUEST, 2);
    kvr_engine_t *a = add("a");
    add("b");
    kvr_engine_t *e;
    cr_expect_eq(kvr_decide_add_engine(&d, "c", &e), -ENOSPC);
    kvr_route_request_t rq = request(NULL, T0);
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    kvr_decide_route(&d, &rq, NULL, 0, &c, &res);
    cr_assert_eq(res.engine, a);
    kvr_decide_remove_engine(&d, a);
    cr_expect_eq(kvr_decide_add_engine(&d, "c", &e), -ENOSPC, "a is still finishing a request");
    cr_expect_eq(kvr_decide_add_engine(&d, "a", &e), 0, "a draining engine comes back as it is");
    cr_expect_eq(e, a);
    cr_expect_eq(a->shadow_requests, 1);
    kvr_decide_release(&d, &c);
}

/* Filling 16,384 indexes is 16,384 adds, each checking every id: the slowest test here under ASan. */
Test(engines, the_bound_is_a_setting_up_to_the_ceiling, .timeout = 120.)
{
    kvr_decide_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.policy = "load_only";
    kvr_policy_config_defaults(&cfg.policy_config);
    cfg.session_ttl_ns = KVR_NS_PER_SEC;
    cfg.max_sessions = 10;
    cfg.shm_owner_uid = -1;
    cfg.max_engines = KVR_MAX_ENGINES + 1;
    cr_expect_eq(kvr_decide_init(&d, &cfg), -EINVAL);

    start("load_only", KVR_PLACEMENT_PER_REQUEST, KVR_MAX_ENGINES);
    cr_assert_geq(KVR_MAX_ENGINES, 16384);
    char id[64];
    for (uint32_t i = 0; i < KVR_MAX_ENGINES; i++) {
        snprintf(id, sizeof id, "%u",
                 i); /* ids that differ early: the table compares each with all */
        kvr_engine_t *e = add(id);
        cr_assert_eq(e->index, i);
    }
    kvr_engine_t *e;
    cr_expect_eq(kvr_decide_add_engine(&d, "one more", &e), -ENOSPC);
    kvr_route_request_t rq = request(NULL, T0);
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    kvr_decide_route(&d, &rq, NULL, 0, &c, &res);
    cr_expect_eq(res.status, 0);
    kvr_decide_release(&d, &c);
}

/* --share: a pin another router made, read while its engine was here, does not pin to the index's next engine. */
Test(engines, a_pin_read_from_another_router_does_not_follow_a_reused_index)
{
    char name[64];
    kvr_test_unique_name(name, sizeof name, "/kvr-test-reuse-dsp");
    kvr_decider_t other;
    kvr_share_t share_d, share_o;
    uint64_t now = kvr_clock_now_ns(); /* the segment's heartbeats are on the real clock */
    start("load_only", KVR_PLACEMENT_ONESHOT, 4);
    kvr_decide_config_t cfg = d.cfg;
    cr_assert_eq(kvr_decide_init(&other, &cfg), 0);
    cr_assert_eq(kvr_share_init(&share_d, name, "d", 3 * KVR_NS_PER_SEC, 4, now), 0);
    cr_assert_eq(kvr_share_init(&share_o, name, "o", 3 * KVR_NS_PER_SEC, 4, now), 0);
    cr_assert(share_d.open && share_o.open);
    d.share = &share_d;
    other.share = &share_o;
    kvr_engine_t *mine = add("http://10.0.0.1:8000"), *theirs;
    cr_assert_eq(kvr_decide_add_engine(&other, "http://10.0.0.1:8000", &theirs), 0);

    /* The other router pins the session; this one reads the pin on its housekeeping. */
    kvr_route_request_t rq = request("chat-9", now);
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    kvr_decide_route(&other, &rq, NULL, 0, &c, &res);
    cr_assert_eq(res.engine, theirs);
    kvr_decide_release(&other, &c);
    kvr_decide_share_tick(&d, now + 1);
    uint32_t index, generation;
    cr_assert_eq(kvr_share_pin_lookup(&share_d, "chat-9", 0, now + 2, 0, &index, &generation), 1,
                 "the other router's pin was read");
    cr_assert_eq(index, 0);
    cr_assert_eq(generation, 0);

    /* The engine leaves, drains at once, and a new one takes its index. */
    kvr_decide_remove_engine(&d, mine);
    kvr_engine_t *fresh = add("http://10.0.0.9:8000");
    cr_assert_eq(fresh->index, 0);
    cr_assert_eq(fresh->generation, 1);
    rq.now_ns = now + 3;
    kvr_decide_route(&d, &rq, NULL, 0, &c, &res);
    cr_assert_eq(res.engine, fresh);
    cr_expect_not(res.pinned, "served as a pin made for the engine before");
    cr_expect_eq(share_d.pins_applied_total, 0);
    kvr_decide_release(&d, &c);

    d.share = NULL;
    other.share = NULL;
    kvr_decide_close(&other);
    kvr_share_close(&share_d);
    kvr_share_close(&share_o);
    kvr_dsp_unlink(name);
}
