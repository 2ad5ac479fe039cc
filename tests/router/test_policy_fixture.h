/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_TESTS_ROUTER_TEST_POLICY_FIXTURE_H
#define KVR_TESTS_ROUTER_TEST_POLICY_FIXTURE_H

/*
 * Hand-made fleets for the policy suites: views as the router core builds
 * them, requests with their block hashes, and a dispatch that updates the
 * shadow-derived load the way the core does inside a pick.
 */

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/prefix_hash.h"
#include "router/policy.h"

#define FX_MAX_BLOCKS 4096

typedef struct {
    char text[FX_MAX_BLOCKS * KVR_PREFIX_BLOCK_BYTES];
    uint64_t hashes[FX_MAX_BLOCKS];
    kvr_route_request_t req;
} fx_request_t;

/** An engine with no feed: shadow only, caps and usage unknown. */
static inline kvr_engine_view_t fx_view(uint32_t index, uint32_t requests)
{
    kvr_engine_view_t v;
    memset(&v, 0, sizeof(v));
    v.index = index;
    v.id = "http://engine";
    v.shadow_requests = requests;
    v.eff_requests = requests;
    v.eff_running = requests;
    v.kv_usage = -1;
    v.utilization = -1;
    v.dp_ranks = 1;
    return v;
}

/** An engine with fresh feed state and, when max_running > 0, complete caps. */
static inline kvr_engine_view_t fx_fed_view(uint32_t index, uint32_t running, uint32_t waiting,
                                            uint32_t max_running, double kv_usage)
{
    kvr_engine_view_t v = fx_view(index, running + waiting);
    v.feed_fresh = true;
    v.real_running = running;
    v.real_waiting = waiting;
    v.eff_running = running;
    v.eff_waiting = waiting;
    v.max_running = max_running;
    v.caps_complete = max_running > 0;
    v.kv_usage = kv_usage;
    return v;
}

/** Deterministic text: a shared head of `shared` bytes from seed_a, then seed_b up to len. */
static inline void fx_text(char *out, size_t len, unsigned seed_a, size_t shared, unsigned seed_b)
{
    for (size_t i = 0; i < len; i++) {
        uint32_t x = (uint32_t)i * 0x9E3779B1u ^ (i < shared ? seed_a : seed_b) * 0x85EBCA77u;
        x ^= x >> 15;
        x *= 0x2C1B3C6Du;
        x ^= x >> 12;
        out[i] = (char)('a' + x % 26u);
    }
}

static inline kvr_route_request_t *fx_request(fx_request_t *r, size_t len, unsigned seed_a,
                                              size_t shared, unsigned seed_b, uint64_t now_ns)
{
    cr_assert(len <= sizeof(r->text));
    fx_text(r->text, len, seed_a, shared, seed_b);
    memset(&r->req, 0, sizeof(r->req));
    r->req.request_id = "req";
    r->req.text = r->text;
    r->req.text_len = len;
    r->req.n_blocks = kvr_prefix_hash_blocks(r->text, len, r->hashes, FX_MAX_BLOCKS);
    r->req.block_hashes = r->hashes;
    r->req.prompt_tokens = (uint32_t)(len / KVR_BYTES_PER_TOKEN);
    r->req.now_ns = now_ns;
    return &r->req;
}

static inline void *fx_policy(const char *name, const kvr_policy_config_t *cfg,
                              const kvr_policy_ops_t **ops)
{
    *ops = kvr_policy_find(name);
    cr_assert_not_null(*ops, "policy %s registered", name);
    void *state = NULL;
    cr_assert_eq((*ops)->create(cfg, &state), 0);
    return state;
}

/** Picks, then dispatches as the core would: index told, load of the pick raised. */
static inline kvr_route_decision_t fx_route(const kvr_policy_ops_t *ops, void *state,
                                            const kvr_route_request_t *req,
                                            kvr_engine_view_t *views, size_t n)
{
    kvr_route_decision_t d = {.view = -1};
    ops->pick(state, req, views, n, &d);
    cr_assert(d.view >= 0 && (size_t)d.view < n, "pick %d in range", d.view);
    cr_assert_not_null(d.reason);
    if (ops->on_dispatch)
        ops->on_dispatch(state, req, views[d.view].index);
    views[d.view].shadow_requests++;
    views[d.view].eff_requests++;
    views[d.view].eff_running++;
    return d;
}

#endif
