/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kv_headroom: the decode half of a disaggregated pair (--pd-decode-policy).
 * A decode engine takes the whole prompt's KV at once from the prefill
 * engine and grows it a token a step, so an engine with few requests but a
 * cache nearly full is the wrong pick: the transfer waits for room, or the
 * engine preempts. Among the engines with room for the request's prompt and
 * output under --high-watermark, the fewest eff_requests; equal loads go to
 * the larger headroom, then take turns by engine index. When none has room,
 * the one with the most.
 *
 * KV in use: the feed's kv_usage where the slot is fresh (ES=1), else the
 * effective KV tokens (the shadow's at ES=0) over the engine's capacity (the
 * feed's, else --index-tokens-per-engine).
 */
#include <errno.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

typedef struct {
    kvr_policy_config_t config;
    uint32_t cursor;
} kv_headroom_t;

static int kh_create(const kvr_policy_config_t *config, void **state)
{
    kv_headroom_t *st = calloc(1, sizeof(*st));
    if (!st)
        return -ENOMEM;
    st->config = *config;
    st->cursor = UINT32_MAX;
    *state = st;
    return 0;
}

static void kh_destroy(void *state)
{
    free(state);
}

static double capacity_tokens(const kv_headroom_t *st, const kvr_engine_view_t *v)
{
    uint64_t cap = v->kv_capacity_tokens ? v->kv_capacity_tokens
                                         : st->config.index_tokens_per_engine;
    return cap ? (double)cap : 1.0;
}

/* The fraction of the engine's KV in use, 0..1 (above 1 when the shadow overcommits). */
static double kv_used(const kv_headroom_t *st, const kvr_engine_view_t *v)
{
    if (v->feed_fresh && v->kv_usage >= 0)
        return v->kv_usage;
    return (double)v->eff_kv_tokens / capacity_tokens(st, v);
}

/* The request's KV on a decode engine: its whole prompt, and the output it asks for. */
static double request_fraction(const kv_headroom_t *st, const kvr_route_request_t *req,
                               const kvr_engine_view_t *v)
{
    uint64_t prompt = req->prompt_tokens ? req->prompt_tokens
                                         : (uint64_t)req->n_blocks * KVR_ROUTE_BLOCK_TOKENS(req);
    return (double)(prompt + req->max_tokens) / capacity_tokens(st, v);
}

/* a is before b in the turn that starts after cursor. */
static bool earlier_turn(uint32_t a, uint32_t b, uint32_t cursor)
{
    bool a_after = a > cursor, b_after = b > cursor;
    if (a_after != b_after)
        return a_after;
    return a < b;
}

static void kh_pick(void *state, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                    size_t n, kvr_route_decision_t *out)
{
    kv_headroom_t *st = state;
    const double watermark = st->config.high_watermark;
    size_t best = SIZE_MAX, roomiest = SIZE_MAX;
    double best_free = 0, roomiest_free = 0;
    for (size_t v = 0; v < n; v++) {
        const kvr_engine_view_t *x = &views[v];
        double used = kv_used(st, x);
        double free_after = watermark - used - request_fraction(st, req, x);
        if (roomiest == SIZE_MAX || free_after > roomiest_free) {
            roomiest = v;
            roomiest_free = free_after;
        }
        if (free_after < 0)
            continue;
        bool better = best == SIZE_MAX || x->eff_requests < views[best].eff_requests;
        if (!better && x->eff_requests == views[best].eff_requests) {
            /* headroom differing by under a request's own share is a tie: take turns */
            double slack = request_fraction(st, req, x);
            if (free_after > best_free + slack)
                better = true;
            else if (free_after + slack >= best_free)
                better = earlier_turn(x->index, views[best].index, st->cursor);
        }
        if (better) {
            best = v;
            best_free = free_after;
        }
    }
    out->prefix_match_blocks = 0;
    out->flags = 0;
    if (best != SIZE_MAX) {
        out->view = (int)best;
        out->reason = "least_load_headroom";
    } else {
        out->view = roomiest == SIZE_MAX ? -1 : (int)roomiest;
        out->reason = "kv_headroom_fallback";
    }
    if (out->view >= 0)
        st->cursor = views[out->view].index;
}

const kvr_policy_ops_t kvr__policy_kv_headroom = {
    .name = "kv_headroom",
    .create = kh_create,
    .destroy = kh_destroy,
    .pick = kh_pick,
};
