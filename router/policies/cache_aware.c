/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cache_aware: the SGLang gateway's rule, plus owner pressure.
 *
 * The SGLang rule: an imbalanced fleet (max − min eff_requests > balance_abs
 * and max > balance_rel × min) goes to the shortest queue; otherwise a
 * request whose best prefix match covers more than cache_threshold of its
 * blocks goes to the owner of that match; otherwise to the shortest queue.
 *
 * Owner pressure (owner_pressure on) exists because the rule alone traps a
 * hot prefix owner: measured fleets had an owner at 38 running + 116
 * waiting while peers sat idle, since the match rate kept winning and the
 * balance check looks at requests, not at the scheduler's capacity. So the
 * owner's pressure is judged first, and an owner at or above the high
 * watermark hands the prefix to another owner or, bounded by a replication
 * ceiling and a cooldown, spills it to a clearly cooler engine.
 */
#include <assert.h>
#include <stdlib.h>

#include "router/policies/policy_util.h"

/* Cooldowns per prefix: direct-mapped, so memory is fixed; a collision at worst allows one early spill. */
#define COOLDOWN_SLOTS 4096u

typedef struct {
    kvr__indexed_t base; /* first: the shared kvr__indexed_* functions take this state */
    uint32_t shortest_cursor;
    struct {
        uint64_t prefix;
        uint64_t spilled_ns;
    } cooldown[COOLDOWN_SLOTS];
} cache_aware_t;

/* Tolerance for thresholds that binary floating point cannot hold exactly (0.9, 0.1). */
#define EPS 1e-9

static int cache_aware_create(const kvr_policy_config_t *config, void **state)
{
    kvr__indexed_t *st;
    int rc = kvr__indexed_create(config, sizeof(cache_aware_t), &st);
    if (rc < 0)
        return rc;
    ((cache_aware_t *)st)->shortest_cursor = UINT32_MAX;
    *state = st;
    return 0;
}

static double kv_fraction(const kvr_engine_view_t *v)
{
    if (v->kv_usage >= 0)
        return v->kv_usage;
    if (v->kv_capacity_tokens > 0)
        return (double)v->eff_kv_tokens / (double)v->kv_capacity_tokens;
    return 0;
}

/*
 * Scheduler occupancy only counts when every candidate can be judged by it:
 * mixing occupancy on some engines with KV usage on others would make the
 * engines without caps look cool and draw every spill. Without complete
 * caps and fresh state everywhere, the whole decision uses KV usage and
 * utilization (fail open), and says so in its flags.
 */
static bool fill_pressure(const kvr_engine_view_t *views, size_t n, double *pressure)
{
    bool complete = true;
    for (size_t v = 0; v < n; v++)
        if (!views[v].feed_fresh || !views[v].caps_complete || views[v].max_running == 0)
            complete = false;
    for (size_t v = 0; v < n; v++) {
        double p = kv_fraction(&views[v]);
        if (views[v].utilization > p)
            p = views[v].utilization;
        if (complete) {
            double occupancy = ((double)views[v].eff_running + (double)views[v].eff_waiting) /
                               (double)views[v].max_running;
            if (occupancy > p)
                p = occupancy;
        }
        pressure[v] = p;
    }
    return complete;
}

/* Lower pressure, then fewer requests, then the earlier view. */
static bool cooler(const kvr_engine_view_t *views, const double *pressure, size_t a, size_t b)
{
    if (b == SIZE_MAX)
        return true;
    if (pressure[a] != pressure[b])
        return pressure[a] < pressure[b];
    return views[a].eff_requests < views[b].eff_requests;
}

/* A match covering more than cache_threshold of the prompt: one predicate for the rule and for owners. */
static bool cache_hit(const kvr_policy_config_t *cfg, const kvr_route_request_t *req,
                      uint32_t match)
{
    return match > 0 && req->n_blocks > 0 &&
           (double)match / (double)req->n_blocks > cfg->cache_threshold;
}

/* SGLang's balance check: both the absolute and the relative gap must be exceeded. */
static bool imbalanced(const kvr_policy_config_t *cfg, const kvr_engine_view_t *views, size_t n)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t v = 0; v < n; v++) {
        if (views[v].eff_requests < lo)
            lo = views[v].eff_requests;
        if (views[v].eff_requests > hi)
            hi = views[v].eff_requests;
    }
    return hi - lo > cfg->balance_abs && (double)hi > cfg->balance_rel * (double)lo;
}

static uint64_t *cooldown_slot(cache_aware_t *ca, uint64_t prefix, bool create)
{
    size_t i = (size_t)((prefix * 0x9E3779B97F4A7C15ull) >> 52) & (COOLDOWN_SLOTS - 1);
    if (ca->cooldown[i].prefix != prefix) {
        if (!create)
            return NULL;
        ca->cooldown[i].prefix = prefix;
        ca->cooldown[i].spilled_ns = 0;
    }
    return &ca->cooldown[i].spilled_ns;
}

static bool in_cooldown(cache_aware_t *ca, uint64_t prefix, uint64_t now_ns)
{
    uint64_t *last = cooldown_slot(ca, prefix, false);
    uint64_t cooldown = ca->base.config.spill_cooldown_ns;
    return last && *last != 0 && now_ns >= *last && now_ns - *last < cooldown;
}

static void finish(kvr_route_decision_t *out, const kvr__indexed_t *st, size_t pick,
                   const char *reason)
{
    out->view = (int)pick;
    out->reason = reason;
    out->prefix_match_blocks = st->match[pick];
}

/* Shortest queue; with pressure known, engines under the watermark first. */
static size_t shortest_queue(cache_aware_t *ca, const kvr_engine_view_t *views, size_t n,
                             const double *pressure)
{
    if (pressure) {
        size_t best = SIZE_MAX;
        bool any_hot = false;
        for (size_t v = 0; v < n; v++) {
            if (pressure[v] >= ca->base.config.high_watermark - EPS) {
                any_hot = true;
                continue;
            }
            if (best == SIZE_MAX || views[v].eff_requests < views[best].eff_requests)
                best = v;
        }
        if (any_hot && best != SIZE_MAX)
            return best;
    }
    return kvr__policy_least_load(views, n, &ca->shortest_cursor);
}

static void owner_pressure_pick(cache_aware_t *ca, const kvr_route_request_t *req,
                                const kvr_engine_view_t *views, size_t n, uint32_t best,
                                kvr_route_decision_t *out)
{
    kvr__indexed_t *st = &ca->base;
    const kvr_policy_config_t *cfg = &st->config;
    double *pressure = st->score;
    if (!fill_pressure(views, n, pressure))
        out->flags |= KVR_DECISION_PRESSURE_FALLBACK;

    if (imbalanced(cfg, views, n)) {
        finish(out, st, shortest_queue(ca, views, n, pressure), "balance_shortest_queue");
        return;
    }
    if (!cache_hit(cfg, req, best)) {
        finish(out, st, shortest_queue(ca, views, n, pressure), "cache_miss");
        return;
    }

    /* Owners: engines where this request would be a cache hit. The primary holds the deepest match. */
    size_t primary = SIZE_MAX, other = SIZE_MAX, hold = SIZE_MAX;
    uint32_t owners = 0;
    for (size_t v = 0; v < n; v++) {
        if (!cache_hit(cfg, req, st->match[v]))
            continue;
        owners++;
        if (cooler(views, pressure, v, hold))
            hold = v;
        if (st->match[v] == best) {
            if (cooler(views, pressure, v, primary))
                primary = v;
        }
    }
    assert(primary != SIZE_MAX); /* the best match is itself a cache hit */
    const double watermark = cfg->high_watermark - EPS;
    if (pressure[primary] < watermark) {
        /*
         * Placed within the cooldown: an earlier request of this burst chose
         * the owner and is likely still in prefill; following it coalesces
         * the burst on one copy of the prefix.
         */
        bool provisional = st->placed[primary] != 0 && req->now_ns >= st->placed[primary] &&
                           req->now_ns - st->placed[primary] < cfg->spill_cooldown_ns;
        finish(out, st, primary, provisional ? "provisional_owner" : "cache_hit");
        return;
    }
    for (size_t v = 0; v < n; v++) {
        if (v != primary && cache_hit(cfg, req, st->match[v]) && pressure[v] < watermark &&
            cooler(views, pressure, v, other))
            other = v;
    }
    if (other != SIZE_MAX) {
        finish(out, st, other, "existing_owner");
        return;
    }

    uint64_t prefix = req->block_hashes[best - 1];
    size_t spill = SIZE_MAX;
    if (owners < cfg->replication_ceiling && !in_cooldown(ca, prefix, req->now_ns)) {
        double limit = pressure[primary] - cfg->owner_slack + EPS;
        for (size_t v = 0; v < n; v++) {
            if (cache_hit(cfg, req, st->match[v]) || pressure[v] >= watermark ||
                pressure[v] > limit)
                continue;
            if (cooler(views, pressure, v, spill))
                spill = v;
        }
    }
    if (spill != SIZE_MAX) {
        uint64_t *last = cooldown_slot(ca, prefix, true);
        *last = req->now_ns ? req->now_ns : 1;
        finish(out, st, spill, "owner_pressure_spill");
        return;
    }
    finish(out, st, hold, "no_safe_spill_hold");
}

static void cache_aware_pick(void *state, const kvr_route_request_t *req,
                             const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    cache_aware_t *ca = state;
    kvr__indexed_t *st = &ca->base;
    const kvr_policy_config_t *cfg = &st->config;
    uint32_t best = kvr__indexed_match(st, req, views, n);
    out->flags = 0;
    if (cfg->owner_pressure) {
        owner_pressure_pick(ca, req, views, n, best, out);
        return;
    }
    if (imbalanced(cfg, views, n)) {
        finish(out, st, shortest_queue(ca, views, n, NULL), "balance_shortest_queue");
        return;
    }
    if (!cache_hit(cfg, req, best)) {
        finish(out, st, shortest_queue(ca, views, n, NULL), "cache_miss");
        return;
    }
    size_t owner = SIZE_MAX;
    for (size_t v = 0; v < n; v++)
        if (st->match[v] == best &&
            (owner == SIZE_MAX || views[v].eff_requests < views[owner].eff_requests))
            owner = v;
    finish(out, st, owner, "cache_hit");
}

/* SGLang's rule with no owner pressure and no rotation of the shortest queue's cursor. */
static void cache_aware_base_pick(void *state, const kvr_route_request_t *req,
                                  const kvr_engine_view_t *views, size_t n,
                                  kvr_route_decision_t *out)
{
    cache_aware_t *ca = state;
    kvr__indexed_t *st = &ca->base;
    const kvr_policy_config_t *cfg = &st->config;
    uint32_t best = kvr__indexed_match(st, req, views, n);
    out->flags = 0;
    if (imbalanced(cfg, views, n) || !cache_hit(cfg, req, best)) {
        finish(out, st, kvr__policy_least_load(views, n, NULL), "base_shortest_queue");
        return;
    }
    size_t owner = SIZE_MAX;
    for (size_t v = 0; v < n; v++)
        if (st->match[v] == best &&
            (owner == SIZE_MAX || views[v].eff_requests < views[owner].eff_requests))
            owner = v;
    finish(out, st, owner, "base_cache_hit");
}

const kvr_policy_ops_t kvr__policy_cache_aware = {
    .name = "cache_aware",
    .create = cache_aware_create,
    .destroy = kvr__indexed_destroy,
    .pick = cache_aware_pick,
    .base_pick = cache_aware_base_pick,
    .on_dispatch = kvr__indexed_on_dispatch,
    .on_engine_removed = kvr__indexed_on_engine_removed,
};
