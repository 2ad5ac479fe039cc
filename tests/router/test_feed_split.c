/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The feed's split of a sample into this router's part and the rest: eff =
 * own in flight now + what the sample holds that is not this router's. A
 * sample taken before some of this router's requests ended still counts
 * them; read as is against the shadow (max), it makes the engine look
 * busier than it is, and one router with ES=1 routes worse than with ES=0.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "router/decide.h"
#include "shm_layout/shm_layout.h"
#include "tests/support/proc.h"

#define MAX_AGE (2000 * KVR_NS_PER_MS)

static kvr_decider_t d;
static bool d_open;
static char seg_name[64];
static kvr_shm_t writer;
static bool writer_open;

static void start(const char *policy, size_t n_engines)
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
    cfg.shm_name = seg_name;
    cfg.shm_owner_uid = -1;
    cfg.max_age_ns = MAX_AGE;
    cfg.es = true;
    cr_assert_eq(kvr_decide_init(&d, &cfg), 0);
    d_open = true;
    for (size_t i = 0; i < n_engines; i++) {
        char id[64];
        snprintf(id, sizeof id, "sim-%zu", i);
        kvr_engine_t *e;
        cr_assert_eq(kvr_decide_add_engine(&d, id, &e), 0);
    }
    cr_assert_eq(kvr_shm_create(&writer, seg_name, 8), 0);
    writer_open = true;
}

static void setup(void)
{
    kvr_test_unique_name(seg_name, sizeof seg_name, "/kvr-test-feed-split");
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

TestSuite(feed_split, .init = setup, .fini = teardown, .timeout = 10.);

/* Times are CLOCK_MONOTONIC: a release stamps its end with it. */
static void publish(const char *id, uint32_t running, uint32_t waiting, uint64_t sample_ns)
{
    int slot = kvr_shm_find(&writer, id);
    if (slot < 0)
        slot = kvr_shm_add_engine(&writer, id);
    cr_assert_geq(slot, 0);
    kvr_engine_state_t st;
    kvr_shm_writer_state(&writer, (uint32_t)slot, &st);
    st.sample_time_ns = sample_ns;
    st.publish_time_ns = sample_ns;
    st.sample_seq++;
    st.flags = kvr_slot_with_source(KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY | KVR_SLOT_CAPS_COMPLETE |
                                        KVR_SLOT_HAS_PENDING_PREFILL,
                                    KVR_SOURCE_LOADS);
    st.running = running;
    st.waiting = waiting;
    st.max_running = 8;
    st.dp_ranks = 1;
    st.kv_tokens_used = 1000;
    st.kv_tokens_capacity = 100000;
    st.kv_usage = 0.01;
    kvr_shm_write_slot(&writer, (uint32_t)slot, &st);
    kvr_shm_heartbeat(&writer, kvr_clock_now_ns());
}

static kvr_route_request_t request(uint64_t now_ns)
{
    return (kvr_route_request_t){
        .request_id = "r", .text = "", .prompt_tokens = 100, .now_ns = now_ns};
}

static kvr_engine_t *route(uint64_t now_ns, uint32_t exclude, size_t n_exclude, kvr_charge_t *c,
                           kvr_decide_result_t *res)
{
    kvr_route_request_t req = request(now_ns);
    kvr_decide_route(&d, &req, &exclude, n_exclude, c, res);
    cr_assert_not_null(res->engine);
    return res->engine;
}

Test(feed_split, one_router_reads_a_sample_that_predates_its_own_ends_as_its_shadow)
{
    start("load_only", 2);
    uint64_t t0 = kvr_clock_now_ns() - 100 * KVR_NS_PER_MS;
    kvr_charge_t on0[4] = {0}, on1[2] = {0};
    kvr_decide_result_t res;
    for (int i = 0; i < 4; i++)
        cr_assert_eq(route(t0, 1, 1, &on0[i], &res)->index, 0);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(route(t0, 0, 1, &on1[i], &res)->index, 1);
    /* The sample, 10 ms later, shows all six; then three of sim-0's end. */
    publish("sim-0", 4, 0, t0 + 10 * KVR_NS_PER_MS);
    publish("sim-1", 2, 0, t0 + 10 * KVR_NS_PER_MS);
    for (int i = 0; i < 3; i++)
        kvr_decide_release(&d, &on0[i]);
    kvr_charge_t c = {0};
    kvr_engine_t *e = route(kvr_clock_now_ns(), 0, 0, &c, &res);
    cr_expect_eq(e->index, 0, "sim-0 holds 1 of this router's, sim-1 2: the shadow is exact");
    cr_expect(res.view.feed_fresh);
    cr_expect_eq(res.view.finished_since_requests, 3);
    cr_expect_eq(res.view.external_requests, 0);
    cr_expect_eq(res.view.eff_requests, 1, "not the sample's 4");
    cr_expect_eq(res.view.herd_slack, 0, "no other router shows");
    kvr_decide_release(&d, &c);
    kvr_decide_release(&d, &on0[3]);
    for (int i = 0; i < 2; i++)
        kvr_decide_release(&d, &on1[i]);
}

Test(feed_split, load_this_router_did_not_send_adds_to_its_own)
{
    start("load_only", 2);
    uint64_t t0 = kvr_clock_now_ns() - 100 * KVR_NS_PER_MS;
    kvr_charge_t own[2] = {0};
    kvr_decide_result_t res;
    for (int i = 0; i < 2; i++)
        cr_assert_eq(route(t0, 1, 1, &own[i], &res)->index, 0);
    /* sim-0: own 2 + 3 from elsewhere; one of the own ends after the sample. */
    publish("sim-0", 5, 0, t0 + 10 * KVR_NS_PER_MS);
    publish("sim-1", 0, 0, t0 + 10 * KVR_NS_PER_MS);
    kvr_decide_release(&d, &own[0]);
    kvr_engine_view_t v;
    uint64_t now = kvr_clock_now_ns();
    kvr_decide_refresh_feed(&d, now);
    cr_assert_eq(kvr_decide_view(&d, kvr_decide_find_engine(&d, "sim-0"), now, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.external_requests, 3);
    cr_expect_eq(v.eff_requests, 4, "own 1 now + 3 external");
    cr_expect_eq(v.eff_running, 4);
    cr_expect_eq(v.eff_kv_tokens, 100 + 1000 * 3 / 5,
                 "own KV + the external share of the sample's");
    /* A sample short of what was sent (the engine has not seen it yet) is no negative load. */
    publish("sim-0", 0, 0, now);
    cr_expect_eq(kvr_decide_view(&d, kvr_decide_find_engine(&d, "sim-0"), now, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.external_requests, 0);
    cr_expect_eq(v.eff_requests, 1);
    cr_expect_eq(v.eff_running + v.eff_waiting, 1);
    kvr_decide_release(&d, &own[1]);
}

Test(feed_split, absurd_counts_saturate_and_never_wrap_to_idle)
{
    start("load_only", 2);
    uint64_t now = kvr_clock_now_ns();
    publish("sim-0", UINT32_MAX, UINT32_MAX, now);
    publish("sim-1", 3, 0, now);
    kvr_charge_t c = {0};
    kvr_decide_result_t res;
    cr_expect_eq(route(now + 1, 0, 0, &c, &res)->index, 1);
    kvr_engine_view_t v;
    kvr_decide_view(&d, kvr_decide_find_engine(&d, "sim-0"), now + 2, &v);
    cr_expect_eq(v.eff_requests, UINT32_MAX);
    cr_expect_eq(v.eff_running, UINT32_MAX);
    kvr_decide_release(&d, &c);
}

/* A sample with most of its queue still waiting for prefill: st.max_running is 8 (publish). */
Test(feed_split, one_router_splits_its_own_requests_as_the_shadow_does_not_as_the_sample)
{
    start("lmetric_paper", 2);
    uint64_t t0 = kvr_clock_now_ns() - 100 * KVR_NS_PER_MS;
    kvr_charge_t on0[6] = {0}, on1[3] = {0};
    kvr_decide_result_t res;
    for (int i = 0; i < 6; i++)
        cr_assert_eq(route(t0, 1, 1, &on0[i], &res)->index, 0);
    for (int i = 0; i < 3; i++)
        cr_assert_eq(route(t0, 0, 1, &on1[i], &res)->index, 1);
    /* sim-0 runs one of the six and queues five behind its prefill; sim-1 runs its three. */
    publish("sim-0", 1, 5, t0 + 10 * KVR_NS_PER_MS);
    publish("sim-1", 3, 0, t0 + 10 * KVR_NS_PER_MS);
    kvr_engine_view_t v;
    uint64_t now = kvr_clock_now_ns();
    kvr_decide_refresh_feed(&d, now);
    cr_assert_eq(kvr_decide_view(&d, kvr_decide_find_engine(&d, "sim-0"), now, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.external_requests, 0);
    cr_expect_eq(v.eff_running, 6, "all six of this router's, as ES=0 counts them");
    cr_expect_eq(v.eff_waiting, 0);
    /* lmetric_paper reads the batch alone: the sample's split made sim-0's queue look idle. */
    kvr_charge_t c = {0};
    cr_expect_eq(route(now, 0, 0, &c, &res)->index, 1, "sim-1 runs 3, sim-0 holds 6");
    kvr_decide_release(&d, &c);
    for (int i = 0; i < 6; i++)
        kvr_decide_release(&d, &on0[i]);
    for (int i = 0; i < 3; i++)
        kvr_decide_release(&d, &on1[i]);
}

Test(feed_split, external_requests_run_up_to_the_batch_cap_as_own_ones_do)
{
    start("load_only", 2);
    uint64_t t0 = kvr_clock_now_ns() - 100 * KVR_NS_PER_MS;
    kvr_charge_t own[6] = {0};
    kvr_decide_result_t res;
    for (int i = 0; i < 6; i++)
        cr_assert_eq(route(t0, 1, 1, &own[i], &res)->index, 0);
    /* 6 own + 6 from elsewhere; the engine runs 2 and queues 10 behind their prefill. */
    publish("sim-0", 2, 10, t0 + 10 * KVR_NS_PER_MS);
    publish("sim-1", 0, 0, t0 + 10 * KVR_NS_PER_MS);
    kvr_engine_view_t v;
    uint64_t now = kvr_clock_now_ns();
    kvr_decide_refresh_feed(&d, now);
    cr_assert_eq(kvr_decide_view(&d, kvr_decide_find_engine(&d, "sim-0"), now, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.external_requests, 6);
    cr_expect_eq(v.eff_requests, 12);
    cr_expect_eq(v.eff_running, 8, "12 in flight run up to the cap of 8, as the shadow's own do");
    cr_expect_eq(v.eff_waiting, 4);
    for (int i = 0; i < 6; i++)
        kvr_decide_release(&d, &own[i]);
}

Test(feed_split, others_sent_since_the_sample_hold_kv_too)
{
    start("load_only", 2);
    uint64_t t0 = kvr_clock_now_ns() - 100 * KVR_NS_PER_MS;
    kvr_charge_t own = {0};
    kvr_decide_result_t res;
    cr_assert_eq(route(t0, 1, 1, &own, &res)->index, 0);
    publish("sim-1", 0, 0, t0 + 10 * KVR_NS_PER_MS);
    /* sim-0: this router's one alone, then 10 ms later 4 more from elsewhere. */
    publish("sim-0", 1, 0, t0 + 10 * KVR_NS_PER_MS);
    kvr_engine_view_t v;
    kvr_engine_t *e = kvr_decide_find_engine(&d, "sim-0");
    uint64_t now = kvr_clock_now_ns();
    kvr_decide_refresh_feed(&d, now);
    cr_assert_eq(kvr_decide_view(&d, e, now, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.external_requests, 0);
    publish("sim-0", 5, 0, t0 + 20 * KVR_NS_PER_MS);
    now = kvr_clock_now_ns();
    cr_assert_eq(kvr_decide_view(&d, e, now, &v), KVR_FEED_FRESH);
    cr_expect_eq(v.external_requests, 4);
    /* 400 a second, half of it in the EWMA, over >= 80 ms: more than the 4, so the 4. */
    cr_expect_eq(v.others_since_requests, 4);
    cr_expect_eq(v.eff_requests, 9);
    cr_expect_eq(v.eff_kv_tokens, 100 + 1000 * 4 / 5 + 4 * (1000 / 5),
                 "own + the external share + the others since at the sample's size each");
    kvr_decide_release(&d, &own);
}
