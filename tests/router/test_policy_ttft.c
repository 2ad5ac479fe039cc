/* SPDX-License-Identifier: Apache-2.0 */
#include <criterion/criterion.h>
#include <errno.h>
#include <math.h>
#include <criterion/parameterized.h>

#include "router/admission.h"
#include "router/prefix_index.h"
#include "test_policy_fixture.h"

#define S KVR_NS_PER_SEC
#define MS KVR_NS_PER_MS
#define PROMPT 2560 /* 40 blocks, 640 tokens */

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

typedef struct {
    uint32_t running, waiting, max_running;
    uint64_t pending;     /* eff pending prefill tokens */
    uint64_t kv_held;     /* eff KV tokens */
    uint64_t kv_capacity; /* 0 = unknown */
    uint32_t held_blocks; /* leading blocks of the request this engine was sent earlier */
} engine_case_t;

typedef struct {
    char name[80];
    engine_case_t e[3];
    double others_weight; /* < 0: the default */
    int want;
} ttft_case_t;

#define IDLE                                                                                       \
    {                                                                                              \
        0, 0, 64, 0, 0, 0, 0                                                                       \
    }

ParameterizedTestParameters(policy_ttft, decisions)
{
    static ttft_case_t cases[] = {
        {"idle fleet: lowest engine index", {IDLE, IDLE, IDLE}, -1, 0},
        {"equal load: the cached engine", {IDLE, {0, 0, 64, 0, 0, 0, 40}, IDLE}, -1, 1},
        {"partial match: the deeper one",
         {{0, 0, 64, 0, 0, 0, 10}, IDLE, {0, 0, 64, 0, 0, 0, 30}},
         -1,
         2},
        {"hot-owner trap: 38 running + long pending prefill loses to an idle peer",
         {{38, 116, 64, 400000, 0, 0, 40}, IDLE, {4, 0, 64, 2000, 0, 0, 0}},
         -1,
         1},
        {"short queue on the owner: the hit is worth the wait",
         {{2, 0, 64, 300, 0, 0, 40}, IDLE, IDLE},
         -1,
         0},
        {"owner's wait exceeds a peer's whole prefill: the peer",
         {{2, 0, 64, 800, 0, 0, 40}, IDLE, IDLE},
         -1,
         1},
        {"KV full of running work: the match still counts, an LRU keeps the recent prefix",
         {{10, 0, 64, 0, 10000, 10000, 40}, IDLE, IDLE},
         -1,
         0},
        {"KV with room: the same match wins",
         {{10, 0, 64, 0, 1000, 100000, 40}, IDLE, IDLE},
         -1,
         0},
        {"big batch pays for the delay it suffers",
         {{60, 0, 64, 0, 0, 0, 0}, {0, 0, 64, 1000, 0, 0, 0}, {60, 0, 64, 0, 0, 0, 0}},
         -1,
         1},
        {"others weight 0: own TTFT only",
         {{60, 0, 64, 0, 0, 0, 0}, {0, 0, 64, 1000, 0, 0, 0}, {60, 0, 64, 0, 0, 0, 0}},
         0,
         0},
        {"full batch: the wait for a slot, not only the prefill queued",
         {{38, 36, 38, 0, 0, 0, 40}, IDLE, IDLE},
         -1,
         1},
        {"full batch, cap unknown: no slot model", {{38, 36, 0, 0, 0, 0, 40}, IDLE, IDLE}, -1, 0},
        {"equal scores: fewer requests",
         {{0, 1, 64, 0, 0, 0, 0}, {0, 0, 64, 0, 0, 0, 0}, {0, 1, 64, 0, 0, 0, 0}},
         -1,
         1},
    };
    return cr_make_param_array(ttft_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

static void build_fleet(const engine_case_t *e, kvr_engine_view_t *v,
                        const kvr_route_request_t *req)
{
    for (uint32_t i = 0; i < 3; i++) {
        v[i] = fx_fed_view(i, e[i].running, e[i].waiting, e[i].max_running, 0.1);
        v[i].eff_pending_prefill_tokens = v[i].real_pending_prefill_tokens = e[i].pending;
        v[i].eff_kv_tokens = v[i].real_kv_tokens = e[i].kv_held;
        v[i].kv_capacity_tokens = e[i].kv_capacity;
        if (e[i].held_blocks) {
            kvr_route_request_t prefix = *req;
            prefix.n_blocks = e[i].held_blocks;
            prefix.prompt_tokens = e[i].held_blocks * KVR_PREFIX_INDEX_TOKENS_PER_BLOCK;
            prefix.now_ns = 1 * S;
            ops->on_dispatch(st, &prefix, i);
        }
    }
}

ParameterizedTest(ttft_case_t *c, policy_ttft, decisions, .init = setup, .fini = teardown,
                  .timeout = 5.)
{
    if (c->others_weight >= 0)
        cfg.ttft_others_weight = c->others_weight;
    st = fx_policy("ttft", &cfg, &ops);
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 11, PROMPT, 11, 100 * S);
    cr_assert_eq(req->n_blocks, 40);
    kvr_engine_view_t v[3];
    build_fleet(c->e, v, req);
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 3, &d);
    cr_expect_eq(d.view, c->want, "%s: view %d", c->name, d.view);
    cr_expect_str_eq(d.reason, "ttft", "%s", c->name);
    cr_expect_eq(d.prefix_match_blocks, c->e[d.view >= 0 ? d.view : 0].held_blocks, "%s: match",
                 c->name);
    cr_expect_eq(d.flags, 0, "%s: nothing clamped", c->name);
}

/* Two engines with the same pending prefill; returns the pick for a cold 640-token prompt. */
static int pick_equal_fleet(uint64_t now_ns, uint32_t *flags)
{
    kvr_engine_view_t v[2] = {fx_fed_view(0, 4, 0, 64, 0.1), fx_fed_view(1, 4, 0, 64, 0.1)};
    for (int i = 0; i < 2; i++) {
        v[i].eff_pending_prefill_tokens = 20000;
        v[i].feed_fresh = false; /* a probe: it must not be a feed sample itself */
    }
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 99, 0, 99, now_ns);
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 2, &d);
    if (flags)
        *flags = d.flags;
    return d.view;
}

/* Feed samples every 50 ms: engine 0 drains 5k tokens/s, engine 1 20k tokens/s. */
static void feed_drain(uint64_t start_ns, int samples, uint32_t *flags_or)
{
    uint64_t pending0 = 50000, pending1 = 50000;
    for (int s = 0; s < samples; s++) {
        uint64_t now = start_ns + (uint64_t)s * 50 * MS;
        kvr_engine_view_t v[2] = {fx_fed_view(0, 4, 0, 64, 0.1), fx_fed_view(1, 4, 0, 64, 0.1)};
        v[0].real_pending_prefill_tokens = v[0].eff_pending_prefill_tokens = pending0;
        v[1].real_pending_prefill_tokens = v[1].eff_pending_prefill_tokens = pending1;
        v[0].feed_age_ns = v[1].feed_age_ns = 3 * MS;
        /* Several decisions see the same sample: only a new one is learned from. */
        for (int k = 0; k < 3; k++) {
            kvr_route_request_t *req = fx_request(&rq, 64, 7, 64, 7, now + (uint64_t)k * MS);
            v[0].feed_age_ns = v[1].feed_age_ns = 3 * MS + (uint64_t)k * MS;
            kvr_route_decision_t d = {.view = -1};
            ops->pick(st, req, v, 2, &d);
            cr_assert(d.view == 0 || d.view == 1);
            *flags_or |= d.flags;
        }
        pending0 -= 250;
        pending1 -= 1000;
    }
}

Test(policy_ttft, a_feed_drain_teaches_no_rate, .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    cr_expect_eq(pick_equal_fleet(1 * S, NULL), 0, "priors: equal engines, lower index");
    uint32_t flags = 0;
    /* Pending falls 4x faster on engine 1: hits found by the engine and others' sends read alike. */
    feed_drain(2 * S, 30, &flags);
    cr_expect_eq(flags, 0, "plausible samples clamp nothing");
    cr_expect_eq(pick_equal_fleet(10 * S, NULL), 0, "still equal engines, lower index");
}

Test(policy_ttft, learn_rate_zero_keeps_the_priors, .init = setup, .fini = teardown, .timeout = 5.)
{
    cfg.ttft_learn_rate = 0;
    st = fx_policy("ttft", &cfg, &ops);
    uint32_t flags = 0;
    feed_drain(2 * S, 30, &flags);
    cr_expect_eq(pick_equal_fleet(10 * S, NULL), 0);
}

Test(policy_ttft, full_batch_intervals_are_not_prefill_speed, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* Engine 0 sits at max_running: its queue drains slowly because no slot frees, not for lack of speed. */
    for (int s = 0; s < 30; s++) {
        kvr_engine_view_t v[2] = {fx_fed_view(0, 64, 10, 64, 0.1), fx_fed_view(1, 4, 0, 64, 0.1)};
        v[0].real_pending_prefill_tokens = v[0].eff_pending_prefill_tokens = 50000 -
                                                                             (uint64_t)s * 20;
        v[1].real_pending_prefill_tokens = v[1].eff_pending_prefill_tokens = 50000 -
                                                                             (uint64_t)s * 500;
        kvr_route_request_t *req = fx_request(&rq, 64, 7, 64, 7, 2 * S + (uint64_t)s * 50 * MS);
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, req, v, 2, &d);
    }
    /* Engine 1 learned 10k/s (the prior), engine 0 learned nothing: still equal. */
    cr_expect_eq(pick_equal_fleet(10 * S, NULL), 0);
}

Test(policy_ttft, learns_a_slow_engine_from_first_bytes, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    for (int i = 0; i < 20; i++) {
        /* 10,640 tokens of prefill took 4 s on engine 0 (~2.7k/s), 1 s on engine 1 (~10.6k/s). */
        kvr_first_byte_t slow = {.engine_index = 0,
                                 .prompt_tokens = 640,
                                 .uncached_tokens = 640,
                                 .queued_prefill_tokens = 10000,
                                 .running = 4,
                                 .ttft_ns = 4 * S};
        kvr_first_byte_t fast = slow;
        fast.engine_index = 1;
        fast.ttft_ns = 1 * S;
        ops->on_first_byte(st, &slow);
        ops->on_first_byte(st, &fast);
    }
    uint32_t flags = 0;
    cr_expect_eq(pick_equal_fleet(10 * S, &flags), 1);
    cr_expect_eq(flags, 0);
}

Test(policy_ttft, a_burst_within_one_feed_sample_spreads_by_what_this_router_sent, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* Four cold prompts within 1 ms, one feed sample: the shadow prefill charge is gone by the next. */
    int on[2] = {0, 0};
    for (int k = 0; k < 4; k++) {
        kvr_engine_view_t v[2] = {fx_fed_view(0, 4, 0, 64, 0.1), fx_fed_view(1, 4, 0, 64, 0.1)};
        uint64_t now = 10 * S + (uint64_t)k * 250000;
        v[0].feed_age_ns = v[1].feed_age_ns = 3 * MS + (uint64_t)k * 250000;
        kvr_route_request_t *req = fx_request(&rq, 4 * PROMPT, 40 + (uint32_t)k, 0,
                                              40 + (uint32_t)k, now);
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, req, v, 2, &d);
        cr_assert(d.view == 0 || d.view == 1);
        on[d.view]++;
        ops->on_dispatch(st, req, (uint32_t)d.view);
    }
    cr_expect_eq(on[0], 2, "the prefill just sent counts as queued until the feed shows it");
    cr_expect_eq(on[1], 2);
}

Test(policy_ttft, a_first_byte_that_waited_for_a_batch_slot_is_not_a_slow_prefill, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    for (int i = 0; i < 20; i++) {
        /* A full batch (38 of 38, 36 waiting): the 4 s are mostly the wait for a slot (~2.2 s predicted). */
        kvr_first_byte_t fb = {.engine_index = 0,
                               .prompt_tokens = 640,
                               .uncached_tokens = 640,
                               .queued_prefill_tokens = 10000,
                               .running = 38,
                               .waiting = 36,
                               .max_running = 38,
                               .ttft_ns = 4 * S};
        ops->on_first_byte(st, &fb);
    }
    uint32_t flags = 0;
    cr_expect_eq(pick_equal_fleet(10 * S, &flags), 0,
                 "engine 0 keeps its prior rate: equal engines, lower index");
    cr_expect_eq(flags, 0);
}

Test(policy_ttft, learns_slow_decode_steps_from_first_bytes, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* A slower figure is learned a tenth as fast as a faster one. */
    for (int i = 0; i < 100; i++) {
        /* A cached prompt: its first byte is one decode step, 60 ms on engine 0 (5x the prior). */
        kvr_first_byte_t fb = {.engine_index = 0,
                               .prompt_tokens = 640,
                               .uncached_tokens = 16,
                               .queued_prefill_tokens = 0,
                               .running = 0,
                               .ttft_ns = 60 * MS};
        ops->on_first_byte(st, &fb);
    }
    kvr_engine_view_t v[2] = {fx_fed_view(0, 0, 0, 64, 0.1), fx_fed_view(1, 0, 0, 64, 0.1)};
    v[1].eff_pending_prefill_tokens =
        200; /* 20 ms of prefill: less than engine 0's extra 48 ms of step */
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, fx_request(&rq, PROMPT, 5, 0, 5, 10 * S), v, 2, &d);
    cr_expect_eq(d.view, 1);
    cr_expect_eq(d.flags, 0);
}

Test(policy_ttft, a_fast_engine_is_learned_at_the_edge_without_a_count, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* Sub-millisecond first bytes (a small model, loopback): below the step range, but not absurd. */
    for (int i = 0; i < 20; i++) {
        kvr_first_byte_t fb = {.engine_index = 1,
                               .prompt_tokens = 4,
                               .uncached_tokens = 4,
                               .running = 0,
                               .ttft_ns = 700000};
        ops->on_first_byte(st, &fb);
    }
    kvr_engine_view_t v[2] = {fx_fed_view(0, 0, 0, 64, 0.1), fx_fed_view(1, 0, 0, 64, 0.1)};
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, fx_request(&rq, 64, 5, 0, 5, 10 * S), v, 2, &d);
    cr_expect_eq(d.flags, 0, "not bad input");
    cr_expect_eq(d.view, 1, "its steps are learned shorter");
}

Test(policy_ttft, engine_removed_starts_again_from_the_prior, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    for (int i = 0; i < 20; i++) {
        kvr_first_byte_t slow = {.engine_index = 0,
                                 .uncached_tokens = 640,
                                 .queued_prefill_tokens = 10000,
                                 .running = 4,
                                 .ttft_ns = 4 * S};
        ops->on_first_byte(st, &slow);
    }
    cr_expect_eq(pick_equal_fleet(10 * S, NULL), 1);
    ops->on_engine_removed(st, 0);
    cr_expect_eq(pick_equal_fleet(11 * S, NULL), 0, "a new engine at index 0 gets the prior");
}

/* ---- bad input: clamped, counted (KVR_DECISION_INPUT_CLAMPED), never out of the views ---- */

Test(policy_ttft, priors_that_would_divide_by_zero_or_make_nan_are_refused, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    ops = kvr_policy_find("ttft");
    cr_assert_not_null(ops);
    kvr_policy_config_t bad[9];
    for (int i = 0; i < 9; i++)
        bad[i] = cfg;
    bad[0].ttft_prefill_tokens_per_s = 0;
    bad[1].ttft_prefill_tokens_per_s = -10000;
    bad[2].ttft_prefill_tokens_per_s = NAN;
    bad[3].ttft_prefill_tokens_per_s = INFINITY;
    bad[4].ttft_step_ms = 0;
    bad[5].ttft_step_per_seq_ms = NAN;
    bad[6].ttft_others_weight = -1;
    bad[7].ttft_learn_rate = NAN;
    bad[8].ttft_output_tokens = 0;
    for (int i = 0; i < 9; i++) {
        void *state = (void *)1;
        cr_expect_eq(ops->create(&bad[i], &state), -EINVAL, "config %d", i);
        cr_expect_eq(state, (void *)1, "config %d: nothing allocated", i);
    }
    void *state = NULL;
    cr_expect_eq(ops->create(&cfg, &state), 0, "the defaults are valid");
    ops->destroy(state);
}

Test(policy_ttft, rates_driven_to_zero_or_huge_stay_finite_and_in_range, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* First bytes that say a prefill took an hour (rate toward 0) on engine 0 and 1 ns on engine 1 (toward infinity). */
    for (int i = 0; i < 200; i++) {
        kvr_first_byte_t slow = {.engine_index = 0,
                                 .uncached_tokens = 640,
                                 .queued_prefill_tokens = 10000,
                                 .ttft_ns = 3599ull * S};
        kvr_first_byte_t fast = slow;
        fast.engine_index = 1;
        fast.ttft_ns = 1;
        ops->on_first_byte(st, &slow);
        ops->on_first_byte(st, &fast);
    }
    /* Feed samples that say engine 2 drained nothing at all while busy: a zero rate is not learned. */
    for (int s = 0; s < 30; s++) {
        kvr_engine_view_t v[1] = {fx_fed_view(2, 4, 0, 64, 0.1)};
        v[0].real_pending_prefill_tokens = v[0].eff_pending_prefill_tokens = 50000;
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, fx_request(&rq, 64, 1, 64, 1, 2 * S + (uint64_t)s * 50 * MS), v, 1, &d);
        cr_assert_eq(d.view, 0);
    }
    uint32_t any = 0;
    for (int k = 0; k < 3; k++) {
        kvr_engine_view_t v[3] = {fx_fed_view(0, 0, 0, 64, 0.1), fx_fed_view(1, 0, 0, 64, 0.1),
                                  fx_fed_view(2, 0, 0, 64, 0.1)};
        v[k].eff_pending_prefill_tokens = UINT64_MAX; /* and one absurd queue, in turn on each */
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, fx_request(&rq, PROMPT, 3, 0, 3, (10 + (uint64_t)k) * S), v, 3, &d);
        cr_assert(d.view >= 0 && d.view < 3, "a pick in range");
        cr_expect_neq(d.view, k, "the absurd queue is avoided");
        any |= d.flags;
        if (k != 1)
            cr_expect_eq(d.view, 1,
                         "the engine learned fastest (at the rate bound), not one divided by zero");
    }
    cr_expect(any & KVR_DECISION_INPUT_CLAMPED, "counted");
}

Test(policy_ttft, huge_pending_prefill_is_clamped_and_avoided, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    kvr_engine_view_t v[2] = {fx_fed_view(0, 0, 0, 64, 0.1), fx_fed_view(1, 30, 0, 64, 0.1)};
    v[0].eff_pending_prefill_tokens = v[0].real_pending_prefill_tokens = UINT64_MAX;
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, fx_request(&rq, PROMPT, 3, 0, 3, 10 * S), v, 2, &d);
    cr_expect_eq(d.view, 1);
    cr_expect(d.flags & KVR_DECISION_INPUT_CLAMPED);
    /* Every engine absurd: still a pick in range, deterministic. */
    v[1].eff_pending_prefill_tokens = UINT64_MAX;
    d = (kvr_route_decision_t){.view = -1};
    ops->pick(st, fx_request(&rq, PROMPT, 3, 0, 3, 11 * S), v, 2, &d);
    cr_expect_eq(d.view, 0);
    cr_expect(d.flags & KVR_DECISION_INPUT_CLAMPED);
}

Test(policy_ttft, absurd_drain_is_clamped, .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* Pending falls from 1e12 to 1 in 50 ms: 2e13 tokens/s, far above prior x 100. */
    uint64_t pending[] = {1000000000000ull, 1};
    uint32_t flags = 0;
    for (int s = 0; s < 2; s++) {
        kvr_engine_view_t v[2] = {fx_fed_view(0, 4, 0, 64, 0.1), fx_fed_view(1, 4, 0, 64, 0.1)};
        v[0].real_pending_prefill_tokens = pending[s];
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, fx_request(&rq, 64, 1, 64, 1, 2 * S + (uint64_t)s * 50 * MS), v, 2, &d);
        cr_assert(d.view == 0 || d.view == 1);
        flags |= d.flags;
    }
    cr_expect(flags & KVR_DECISION_INPUT_CLAMPED);
}

Test(policy_ttft, sample_time_going_backwards_is_counted, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    kvr_engine_view_t v[1] = {fx_fed_view(0, 4, 0, 64, 0.1)};
    v[0].real_pending_prefill_tokens = 5000;
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, fx_request(&rq, 64, 1, 64, 1, 10 * S), v, 1, &d);
    cr_expect_eq(d.flags, 0);
    /* The next decision sees a sample taken before the previous one. */
    v[0].feed_age_ns = 2 * S;
    ops->pick(st, fx_request(&rq, 64, 1, 64, 1, 10 * S + 50 * MS), v, 1, &d);
    cr_expect(d.flags & KVR_DECISION_INPUT_CLAMPED);
    cr_expect_eq(d.view, 0);
    /* An age larger than the clock itself. */
    v[0].feed_age_ns = UINT64_MAX;
    ops->pick(st, fx_request(&rq, 64, 1, 64, 1, 11 * S), v, 1, &d);
    cr_expect(d.flags & KVR_DECISION_INPUT_CLAMPED);
}

Test(policy_ttft, pending_rising_teaches_nothing, .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* Engine 0's pending grows (another router's traffic): a negative drain is not a rate of zero. */
    for (int s = 0; s < 30; s++) {
        kvr_engine_view_t v[2] = {fx_fed_view(0, 4, 0, 64, 0.1), fx_fed_view(1, 4, 0, 64, 0.1)};
        v[0].real_pending_prefill_tokens = 1000 + (uint64_t)s * 5000;
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, fx_request(&rq, 64, 1, 64, 1, 2 * S + (uint64_t)s * 50 * MS), v, 2, &d);
        cr_expect_eq(d.flags, 0);
    }
    cr_expect_eq(pick_equal_fleet(10 * S, NULL), 0, "engine 0 keeps its prior rate");
}

Test(policy_ttft, absurd_first_bytes_are_counted_not_learned, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    kvr_first_byte_t zero = {
        .engine_index = 0, .uncached_tokens = 640, .queued_prefill_tokens = 10000, .ttft_ns = 0};
    kvr_first_byte_t forever = zero;
    forever.ttft_ns = UINT64_MAX;
    kvr_first_byte_t outside = zero;
    outside.engine_index = KVR_MAX_ENGINES + 5;
    outside.ttft_ns = 1;
    for (int i = 0; i < 20; i++) {
        ops->on_first_byte(st, &zero);
        ops->on_first_byte(st, &forever);
        ops->on_first_byte(st, &outside);
    }
    uint32_t flags = 0;
    cr_expect_eq(pick_equal_fleet(10 * S, &flags), 0, "nothing learned: equal engines");
    cr_expect(flags & KVR_DECISION_INPUT_CLAMPED, "reported on the next decision");
    cr_expect_eq(pick_equal_fleet(11 * S, &flags), 0);
    cr_expect_eq(flags, 0, "reported once");
    /* A first byte 1 ns after dispatch for 10k tokens: a rate far above the bound, clamped. */
    kvr_first_byte_t instant = zero;
    instant.ttft_ns = 1;
    ops->on_first_byte(st, &instant);
    pick_equal_fleet(12 * S, &flags);
    cr_expect(flags & KVR_DECISION_INPUT_CLAMPED);
}

Test(policy_ttft, engine_index_outside_the_table, .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    kvr_engine_view_t v[2] = {fx_fed_view(KVR_MAX_ENGINES + 3, 0, 0, 64, 0.1),
                              fx_fed_view(2, 8, 0, 64, 0.1)};
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, fx_request(&rq, PROMPT, 3, 0, 3, 10 * S), v, 2, &d);
    cr_expect_eq(d.view, 0, "scored with the priors, never written to the table");
    ops->on_dispatch(st, &rq.req, KVR_MAX_ENGINES + 3);
    ops->on_engine_removed(st, KVR_MAX_ENGINES + 3);
}

/* ---- with admission: the seeding lease still catches what the prediction does not model ---- */

Test(policy_ttft, hot_owner_trap_with_admission_enforce, .init = setup, .fini = teardown,
     .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    kvr_admission_t *adm = NULL;
    cr_assert_eq(kvr_admission_create(KVR_ADMISSION_ENFORCE, 32, &adm), 0);
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 11, PROMPT, 11, 100 * S);
    kvr_engine_view_t v[3];
    engine_case_t owner = {38, 36, 38, 120000, 0, 0, 40}, peer = IDLE;
    peer.max_running = 38;
    engine_case_t fleet[3] = {owner, peer, peer};
    build_fleet(fleet, v, req); /* only the first two are used */

    /* The owner's queued prefill alone exceeds the peer's whole prefill: the peer, by the rule itself. */
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 1);
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT);
    cr_expect_eq(d.view, 1);

    /*
     * The owner's batch is full, but its requests are one-token answers
     * (a slot frees every step) and its queue holds no prefill: the
     * prediction keeps the 40-block hit on the owner, and admission, which
     * judges headroom, moves it to the idle peer under a seeding lease.
     */
    v[0].eff_pending_prefill_tokens = v[0].real_pending_prefill_tokens = 0;
    req->now_ns = 101 * S; /* a later feed sample says so */
    kvr_route_request_t shortreq = *req;
    shortreq.max_tokens = 1;
    for (int i = 0; i < 40; i++)
        ops->on_dispatch(st, &shortreq, 0);
    d = (kvr_route_decision_t){.view = -1};
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 0);
    cr_expect_eq(kvr_admission_decide(adm, v, 2, &d), KVR_ADMIT_SEED_LEASE);
    cr_expect_eq(d.view, 1);
    cr_expect_str_eq(d.reason, "seed_lease");
    kvr_admission_stats_t s;
    kvr_admission_stats(adm, &s);
    cr_expect_eq(s.seed_leases, 1);
    cr_expect_eq(s.rejected, 0);
    kvr_admission_destroy(adm);
}

/* Oneshot placement calls pick once per session and on_dispatch for every turn: no per-request state assumed. */
Test(policy_ttft, dispatch_without_pick, .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    kvr_engine_view_t v[2] = {fx_fed_view(0, 0, 0, 64, 0.1), fx_fed_view(1, 0, 0, 64, 0.1)};
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 21, PROMPT, 21, 10 * S);
    for (int turn = 0; turn < 5; turn++)
        ops->on_dispatch(st, req, 1);
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 1, "the turns recorded by dispatch alone count as cached");
    cr_expect_eq(d.prefix_match_blocks, 40);
}

Test(policy_ttft, without_a_feed_the_prefill_this_router_sent_stays_queued, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /*
     * ES=0: a long cold prompt went to engine 0 and its response head came
     * back, so the shadow shows it running with nothing pending; engine 1
     * runs two decodes. The next cold prompt, 1 ms later, must see the
     * first one's prefill still ahead of it on engine 0.
     */
    kvr_engine_view_t v[2] = {fx_view(0, 0), fx_view(1, 2)};
    kvr_route_request_t *req = fx_request(&rq, 16 * PROMPT, 50, 0, 50, 10 * S);
    req->prompt_tokens = 12000;
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 2, &d);
    cr_assert_eq(d.view, 0, "idle engine first");
    ops->on_dispatch(st, req, 0);
    v[0] = fx_view(0, 1);
    req = fx_request(&rq, 16 * PROMPT, 51, 0, 51, 10 * S + MS);
    req->prompt_tokens = 12000;
    d = (kvr_route_decision_t){.view = -1};
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 1, "12000 tokens are still queued on engine 0");
}

Test(policy_ttft, without_a_feed_first_bytes_are_learned_behind_the_backlog_this_router_sent,
     .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /*
     * ES=0: rounds of four cold 10k-token prompts sent together to engine 0,
     * which prefills 10k tokens/s, so the k-th answer's first byte comes
     * after k s. The shadow shows nothing pending at each dispatch (the
     * earlier ones' response heads released it): read against eff pending,
     * the k-th first byte says 10k tokens took k s, and the rate learned
     * collapses to a fraction of the engine's, which then keeps the
     * backlog it was sent queued for many times longer than it lasts.
     */
    for (uint32_t round = 0; round < 10; round++) {
        uint64_t now = 10 * S + (uint64_t)round * 100 * S;
        for (uint32_t k = 0; k < 4; k++) {
            kvr_route_request_t *req = fx_request(&rq, 16 * PROMPT, 60 + round * 4 + k, 0,
                                                  60 + round * 4 + k, now);
            req->prompt_tokens = 10000;
            ops->on_dispatch(st, req, 0);
        }
        for (uint32_t k = 0; k < 4; k++) {
            kvr_first_byte_t fb = {.engine_index = 0,
                                   .prompt_tokens = 10000,
                                   .uncached_tokens = 10000,
                                   .queued_prefill_tokens = 0,
                                   .running = k,
                                   .ttft_ns = (k + 1) * S};
            ops->on_first_byte(st, &fb);
        }
    }
    uint32_t flags = 0;
    cr_expect_eq(pick_equal_fleet(2000 * S, &flags), 0,
                 "engine 0 is learned at about its 10k tokens/s: equal engines, lower index");
    cr_expect_eq(flags, 0);
}

Test(policy_ttft, answers_that_waited_for_what_the_model_does_not_see_do_not_make_an_engine_slow,
     .init = setup, .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /*
     * Engine 0 prefills 10k tokens/s, but every other answer also waited
     * 9 s for something the model does not see (KV room, an evicted
     * prefix): a mean of the samples makes it ~5.5k/s. Engine 1 answers
     * every time at 7k/s. The figure follows the faster answers: engine 0
     * stays the faster one.
     */
    for (int i = 0; i < 60; i++) {
        kvr_first_byte_t fb = {.engine_index = 0,
                               .prompt_tokens = 640,
                               .uncached_tokens = 640,
                               .queued_prefill_tokens = 9360,
                               .running = 0,
                               .ttft_ns = (i % 2 ? 10 : 1) * S};
        ops->on_first_byte(st, &fb);
        kvr_first_byte_t slow = fb;
        slow.engine_index = 1;
        slow.ttft_ns = 10000 * S / 7000;
        ops->on_first_byte(st, &slow);
    }
    uint32_t flags = 0;
    cr_expect_eq(pick_equal_fleet(10 * S, &flags), 0);
    cr_expect_eq(flags, 0);
}

Test(policy_ttft, a_cache_warm_engine_that_answers_late_for_unseen_work_gives_way, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /*
     * ES=0, several routers: engine 0 holds this router's prefix but answers
     * each pick 3 s after the ~0.1 s predicted, behind requests of other
     * routers this router cannot see; engine 1, cold, answers on time. Its
     * shadow shows both idle, so the cache-warm engine 0 would win every
     * pick. The late answers are learned as a wait on engine 0, and a short
     * prompt is then better prefilled on engine 1.
     */
    int on[2] = {0, 0};
    for (uint32_t k = 0; k < 40; k++) {
        kvr_engine_view_t v[2] = {fx_view(0, 0), fx_view(1, 0)};
        kvr_route_request_t *req = fx_request(&rq, PROMPT, 5, PROMPT / 2, 100 + k,
                                              10 * S + (uint64_t)k * 5 * S);
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, req, v, 2, &d);
        cr_assert(d.view == 0 || d.view == 1);
        cr_expect_eq(d.flags, 0);
        on[d.view]++;
        ops->on_dispatch(st, req, (uint32_t)d.view);
        kvr_first_byte_t fb = {.engine_index = (uint32_t)d.view,
                               .prompt_tokens = req->prompt_tokens,
                               .uncached_tokens = req->prompt_tokens,
                               .ttft_ns = d.view == 0 ? 3 * S : 80 * MS};
        ops->on_first_byte(st, &fb);
    }
    cr_expect_gt(on[1], on[0], "engine 0 took %d of 40 picks", on[0]);
    kvr_engine_view_t v[2] = {fx_view(0, 0), fx_view(1, 0)};
    kvr_route_request_t *req = fx_request(&rq, PROMPT, 5, PROMPT / 2, 999, 300 * S);
    kvr_route_decision_t d = {.view = -1};
    ops->pick(st, req, v, 2, &d);
    cr_expect_eq(d.view, 1, "the engine whose answers come 3 s late gives way");
}

Test(policy_ttft, answers_on_time_leave_the_cache_warm_engine_chosen, .init = setup,
     .fini = teardown, .timeout = 5.)
{
    st = fx_policy("ttft", &cfg, &ops);
    /* One router, answers as predicted: nothing unseen, the prefix keeps every pick on engine 0. */
    for (uint32_t k = 0; k < 40; k++) {
        kvr_engine_view_t v[2] = {fx_view(0, 0), fx_view(1, 0)};
        kvr_route_request_t *req = fx_request(&rq, PROMPT, 5, PROMPT / 2, 100 + k,
                                              10 * S + (uint64_t)k * 5 * S);
        kvr_route_decision_t d = {.view = -1};
        ops->pick(st, req, v, 2, &d);
        cr_expect_eq(d.view, 0, "pick %u", k);
        ops->on_dispatch(st, req, 0);
        kvr_first_byte_t fb = {.engine_index = 0,
                               .prompt_tokens = req->prompt_tokens,
                               .uncached_tokens = req->prompt_tokens / 2,
                               .ttft_ns = 45 * MS};
        ops->on_first_byte(st, &fb);
    }
}
