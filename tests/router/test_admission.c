/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <errno.h>

#include "router/admission.h"
#include "test_policy_fixture.h"

#define S KVR_NS_PER_SEC

static kvr_admission_t *make(kvr_admission_mode_t mode, uint32_t max_waiting)
{
    kvr_admission_t *adm = NULL;
    cr_assert_eq(kvr_admission_create(mode, max_waiting, &adm), 0);
    return adm;
}

Test(admission, mode_parse, .timeout = 5.)
{
    kvr_admission_mode_t m;
    cr_expect_eq(kvr_admission_mode_parse("off", &m), 0);
    cr_expect_eq(m, KVR_ADMISSION_OFF);
    cr_expect_eq(kvr_admission_mode_parse("shadow", &m), 0);
    cr_expect_eq(m, KVR_ADMISSION_SHADOW);
    cr_expect_eq(kvr_admission_mode_parse("enforce", &m), 0);
    cr_expect_eq(m, KVR_ADMISSION_ENFORCE);
    cr_expect_eq(kvr_admission_mode_parse("on", &m), -EINVAL);
    cr_expect_eq(kvr_admission_mode_parse(NULL, &m), -EINVAL);
}

/* The owner: 38 running + 36 waiting with max_running 38 and 32 waiting allowed. */
static void trap_fleet(kvr_engine_view_t *v)
{
    v[0] = fx_fed_view(0, 38, 36, 38, 0.7);
    v[1] = fx_fed_view(1, 0, 0, 38, 0.0);
}

Test(admission, hot_owner_never_locks_out_an_idle_peer, .timeout = 5.)
{
    kvr_admission_t *adm = make(KVR_ADMISSION_ENFORCE, 32);
    kvr_engine_view_t v[2];
    trap_fleet(v);
    kvr_route_decision_t d = {.view = 0, .reason = "cache_hit", .prefix_match_blocks = 40};
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT_SEED_LEASE);
    cr_expect_eq(d.view, 1, "the idle peer receives the request");
    cr_expect_str_eq(d.reason, "seed_lease");
    /* The lease is in flight: the peer is no longer idle but has headroom, so nothing is rejected. */
    v[1].shadow_requests = v[1].eff_requests = v[1].eff_running = 1;
    d = (kvr_route_decision_t){.view = 0, .reason = "cache_hit"};
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT);
    cr_expect_eq(d.view, 0, "admission does not route; the policy's pick stands");
    /* The lease ends and the peer is idle again: it can be seeded again. */
    kvr_admission_release_lease(adm, 1);
    v[1] = fx_fed_view(1, 0, 0, 38, 0.0);
    d = (kvr_route_decision_t){.view = 0, .reason = "cache_hit"};
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT_SEED_LEASE);
    kvr_admission_stats_t s;
    kvr_admission_stats(adm, &s);
    cr_expect_eq(s.seed_leases, 2);
    cr_expect_eq(s.rejected, 0);
    cr_expect_eq(s.admitted, 3);
    kvr_admission_destroy(adm);
}

Test(admission, one_lease_in_flight_per_peer, .timeout = 5.)
{
    kvr_admission_t *adm = make(KVR_ADMISSION_ENFORCE, 0);
    kvr_engine_view_t v[2];
    v[0] = fx_fed_view(0, 8, 0, 8, 0.5);
    v[1] = fx_fed_view(1, 0, 0, 8, 0.0);
    kvr_route_decision_t d = {.view = 0, .reason = "cache_hit"};
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT_SEED_LEASE);
    /* Same views (the feed has not seen the leased request yet): no second lease; the peer still has room. */
    d = (kvr_route_decision_t){.view = 0, .reason = "cache_hit"};
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT);
    cr_expect_eq(d.view, 0);
    kvr_admission_destroy(adm);
}

Test(admission, peer_without_complete_telemetry_gets_no_lease, .timeout = 5.)
{
    kvr_admission_t *adm = make(KVR_ADMISSION_ENFORCE, 4);
    kvr_engine_view_t v[2];
    v[0] = fx_fed_view(0, 8, 4, 8, 0.5);
    v[1] = fx_fed_view(1, 8, 4, 8, 0.5);
    v[1].caps_complete = false;
    v[1].eff_requests = v[1].eff_running = v[1].eff_waiting = 0;
    kvr_route_decision_t d = {.view = 0, .reason = "cache_hit"};
    /* Peer's counts are shadow-only zeros but its caps are partial: it is not provably idle. */
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT, "it still has headroom: no 429");
    cr_expect_eq(d.view, 0);
    kvr_admission_destroy(adm);
}

Test(admission, rejects_only_when_no_candidate_has_headroom, .timeout = 5.)
{
    kvr_admission_t *adm = make(KVR_ADMISSION_ENFORCE, 4);
    kvr_engine_view_t v[3];
    v[0] = fx_fed_view(0, 8, 4, 8, 0.9);
    v[1] = fx_fed_view(1, 8, 4, 8, 0.9);
    v[2] = fx_fed_view(2, 8, 3, 8, 0.9);
    kvr_route_decision_t d = {.view = 0, .reason = "cache_hit"};
    cr_expect_eq(kvr_admission_decide(adm, v, 3, &d), KVR_ADMIT, "engine 2 has one waiting slot");
    v[2].eff_waiting = 4;
    cr_expect_eq(kvr_admission_decide(adm, v, 3, &d), KVR_ADMIT_REJECT);
    /* A candidate whose cap is unknown cannot be shown full. */
    v[2].max_running = 0;
    cr_expect_eq(kvr_admission_decide(adm, v, 3, &d), KVR_ADMIT);
    kvr_admission_stats_t s;
    kvr_admission_stats(adm, &s);
    cr_expect_eq(s.rejected, 1);
    cr_expect_eq(s.admitted, 2);
    kvr_admission_destroy(adm);
}

Test(admission, shadow_counts_and_admits, .timeout = 5.)
{
    kvr_admission_t *adm = make(KVR_ADMISSION_SHADOW, 0);
    kvr_engine_view_t v[2];
    v[0] = fx_fed_view(0, 8, 0, 8, 0.9);
    v[1] = fx_fed_view(1, 0, 0, 8, 0.0);
    kvr_route_decision_t d = {.view = 0, .reason = "cache_hit"};
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT);
    cr_expect_eq(d.view, 0, "shadow never changes the pick");
    v[1] = fx_fed_view(1, 8, 0, 8, 0.9);
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT);
    kvr_admission_stats_t s;
    kvr_admission_stats(adm, &s);
    cr_expect_eq(s.shadow_would_reject, 1);
    cr_expect_eq(s.rejected, 0);
    cr_expect_eq(s.admitted, 2);
    kvr_admission_destroy(adm);
}

Test(admission, off_admits_everything, .timeout = 5.)
{
    kvr_admission_t *adm = make(KVR_ADMISSION_OFF, 0);
    kvr_engine_view_t v[1] = {fx_fed_view(0, 100, 100, 8, 1.0)};
    kvr_route_decision_t d = {.view = 0, .reason = "least_load"};
    cr_expect_eq(kvr_admission_decide(adm, v, 1, &d), KVR_ADMIT);
    kvr_admission_destroy(adm);
}

/*
 * The whole path the router runs: cache_aware scores (with the SGLang rule
 * alone it keeps the hot owner), then enforce admission. Whatever the
 * policy settings, the idle peer gets work and nothing is turned away.
 */
static void trap_through_policy(bool owner_pressure)
{
    kvr_policy_config_t cfg;
    kvr_policy_config_defaults(&cfg);
    cfg.index_max_blocks = 1 << 14;
    cfg.owner_pressure = owner_pressure;
    cfg.balance_abs = 1000; /* the balance gate would hide the trap */
    const kvr_policy_ops_t *ops;
    void *st = fx_policy("cache_aware", &cfg, &ops);
    kvr_admission_t *adm = make(KVR_ADMISSION_ENFORCE, 32);
    static fx_request_t rq;
    kvr_route_request_t *req = fx_request(&rq, 4096, 77, 4096, 77, 1 * S);
    ops->on_dispatch(st, req, 0);
    kvr_engine_view_t v[2];
    trap_fleet(v);
    unsigned to_peer = 0;
    for (int i = 0; i < 4; i++) {
        req = fx_request(&rq, 4096, 77, 4096, 77, (uint64_t)(10 + i) * S);
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, req, v, 2, &d);
        kvr_admission_verdict_t verdict = kvr_admission_decide(adm, v, 2, &d);
        cr_assert_neq(verdict, KVR_ADMIT_REJECT, "request %d rejected while the peer is idle", i);
        if (d.view == 1)
            to_peer++;
        ops->on_dispatch(st, req, v[d.view].index);
        if (verdict == KVR_ADMIT_SEED_LEASE)
            kvr_admission_release_lease(adm, v[d.view].index); /* it finished before the next one */
    }
    cr_expect_eq(to_peer, 4, "the peer served every request");
    kvr_admission_destroy(adm);
    ops->destroy(st);
}

Test(admission, hot_owner_trap_sglang_rule, .timeout = 5.)
{
    trap_through_policy(false);
}

Test(admission, hot_owner_trap_owner_pressure, .timeout = 5.)
{
    trap_through_policy(true);
}

Test(admission, order_parse, .timeout = 5.)
{
    kvr_admission_order_t o;
    cr_expect_eq(kvr_admission_order_parse("after", &o), 0);
    cr_expect_eq(o, KVR_ADMISSION_AFTER);
    cr_expect_eq(kvr_admission_order_parse("before", &o), 0);
    cr_expect_eq(o, KVR_ADMISSION_BEFORE);
    cr_expect_eq(kvr_admission_order_parse("first", &o), -EINVAL);
    cr_expect_eq(kvr_admission_order_parse(NULL, &o), -EINVAL);
}

/* Before routing the owner is judged alone: an idle peer neither saves the request nor gets a lease. */
Test(admission, gate_before_routing_judges_the_owner_alone, .timeout = 5.)
{
    kvr_engine_view_t v[2];
    trap_fleet(v);
    kvr_admission_t *adm = make(KVR_ADMISSION_ENFORCE, 32);
    cr_expect_eq(kvr_admission_gate(adm, &v[0]), KVR_ADMIT_REJECT);
    cr_expect_eq(kvr_admission_gate(adm, &v[1]), KVR_ADMIT);
    kvr_admission_stats_t st;
    kvr_admission_stats(adm, &st);
    cr_expect_eq(st.rejected, 1);
    cr_expect_eq(st.admitted, 1);
    cr_expect_eq(st.seed_leases, 0);
    kvr_admission_destroy(adm);

    adm = make(KVR_ADMISSION_SHADOW, 32);
    cr_expect_eq(kvr_admission_gate(adm, &v[0]), KVR_ADMIT);
    kvr_admission_stats(adm, &st);
    cr_expect_eq(st.shadow_would_reject, 1);
    cr_expect_eq(st.rejected, 0);
    kvr_admission_destroy(adm);

    adm = make(KVR_ADMISSION_OFF, 32);
    cr_expect_eq(kvr_admission_gate(adm, &v[0]), KVR_ADMIT);
    kvr_admission_destroy(adm);
}
