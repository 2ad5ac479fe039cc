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

/* Of an engine's KV usage (< 0 unknown), eff KV tokens and KV capacity. */
static inline double kv_fraction_of(double kv_usage, uint64_t kv_tokens, uint64_t kv_capacity)
{
    if (kv_usage >= 0)
        return kv_usage;
    if (kv_capacity > 0)
        return (double)kv_tokens / (double)kv_capacity;
    return 0;
}

static double kv_fraction(const kvr_engine_view_t *v)
{
    return kv_fraction_of(v->kv_usage, v->eff_kv_tokens, v->kv_capacity_tokens);
}

/*
 * Scheduler occupancy only counts when every candidate can be judged by it:
 * mixing occupancy on some engines with KV usage on others would make the
 * engines without caps look cool and draw every spill. Without complete
 * caps and fresh state everywhere (complete false), the whole decision uses
 * KV usage and utilization (fail open), and says so in its flags.
 */
static double pressure_of(const kvr_engine_view_t *v, bool complete)
{
    double p = kv_fraction(v);
    if (v->utilization > p)
        p = v->utilization;
    if (complete) {
        double occupancy = ((double)v->eff_running + (double)v->eff_waiting) /
                           (double)v->max_running;
        if (occupancy > p)
            p = occupancy;
    }
    return p;
}

/*
 * occupancy >= t as pressure_of computes occupancy, without its division
 * where the product says the answer: one pass over ten thousand views
 * would spend most of its time dividing. Exact: the margin is far above
 * the rounding of either side.
 */
static inline bool occupancy_at_least(uint32_t running, uint32_t waiting, uint32_t max_running,
                                      double t)
{
    double busy = (double)running + (double)waiting;
    double cap = (double)max_running;
    if (t > 0 && busy < t * cap * (1 - 1e-9))
        return false;
    return busy / cap >= t;
}

static inline bool fully_fed(const kvr_engine_columns_t *c, size_t v)
{
    return c->feed_fresh[v] & c->caps_complete[v] & (c->max_running[v] != 0);
}

/* Lower pressure, then fewer requests, then the earlier view (a, when b is none or equal). */
static bool cooler(double pa, uint32_t ra, double pb, uint32_t rb, bool b_none)
{
    if (b_none)
        return true;
    if (pa != pb)
        return pa < pb;
    return ra < rb;
}

/* A match covering more than cache_threshold of the prompt: one predicate for the rule and for owners. */
static bool cache_hit(const kvr_policy_config_t *cfg, const kvr_route_request_t *req,
                      uint32_t match)
{
    return match > 0 && req->n_blocks > 0 &&
           (double)match / (double)req->n_blocks > cfg->cache_threshold;
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

/*
 * What the rule reads of the fleet, learnt in one pass over the views (at
 * ten thousand engines each pass costs more than the prefix walk, and the
 * cost is the work per view, so the pass does only what every decision
 * needs): the longest match and its least loaded owner, the load range of
 * the balance check, and with owner pressure whether every view is fed
 * with caps and the views where the request is a cache hit. The shortest
 * queue, needed only when the fleet is imbalanced or the request misses,
 * makes a pass of its own (shortest_queue).
 */
typedef struct {
    uint32_t best;   /* longest match over the views */
    size_t owner;    /* fewest eff_requests among the views with the best match, first */
    uint32_t lo, hi; /* eff_requests range */
    size_t lo_first; /* the first view with lo eff_requests */
    bool complete;   /* every view fresh with complete caps */
    size_t n_hits;   /* views where the request is a cache hit, in order: ca->base.match */
    const kvr_engine_columns_t *columns; /* the views' (kvr__indexed_columns) */
} scan_t;

static inline bool scan_views(cache_aware_t *ca, const kvr_route_request_t *req,
                              const kvr_engine_columns_t *columns, size_t n,
                              const kvr__walk_t *walk_in, bool pressure, scan_t *out)
{
    const kvr_policy_config_t *cfg = &ca->base.config;
    uint32_t *hits = ca->base.match;
    /* Copies, so that the stores to hits do not force the arrays' addresses to be read again. */
    const kvr_engine_columns_t col = *columns;
    const kvr__walk_t walk = *walk_in;
    const kvr_engine_columns_t *c = &col;
    const kvr__walk_t *w = &walk;
    /* Locals, not *out, so that the stores to hits do not force them through memory. */
    uint32_t best = 0, owner_requests = 0, lo = UINT32_MAX, hi = 0;
    size_t owner = SIZE_MAX, lo_first = 0, n_hits = 0;
    bool complete = true, stale = false;
    for (size_t v = 0; v < n; v++) {
        uint32_t m = kvr__walk_match_at(w, c, v);
        uint32_t r = c->eff_requests[v];
        stale |= kvr__walk_stale_at(w, c, v);
        if (m > 0) {
            if (m > best || (m == best && r < owner_requests)) {
                best = m;
                owner = v;
                owner_requests = r;
            }
            if (pressure && cache_hit(cfg, req, m))
                hits[n_hits++] = (uint32_t)v;
        }
        hi = r > hi ? r : hi;
        if (r < lo) {
            lo = r;
            lo_first = v;
        }
    }
    /* Apart, over three dense arrays the compiler can vectorise: the pass above keeps its registers. */
    for (size_t v = 0; pressure && v < n; v++)
        complete &= fully_fed(c, v);
    *out = (scan_t){.best = best,
                    .owner = owner,
                    .lo = lo,
                    .hi = hi,
                    .lo_first = lo_first,
                    .complete = complete,
                    .n_hits = n_hits,
                    .columns = columns};
    return stale;
}

/* The pass, made again when it found a budget to learn (then the walk is made again first). */
static void scan(cache_aware_t *ca, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                 size_t n, kvr__walk_t *w, bool pressure, scan_t *sc)
{
    kvr__indexed_walk(&ca->base, req, views, n, w);
    const kvr_engine_columns_t *c = kvr__indexed_columns(&ca->base, req, views, n);
    bool again;
    do {
        bool stale = pressure ? scan_views(ca, req, c, n, w, true, sc)
                              : scan_views(ca, req, c, n, w, false, sc);
        again = stale && kvr__indexed_relearn(&ca->base, req, views, n, w);
    } while (again);
}

/* SGLang's balance check: both the absolute and the relative gap must be exceeded. */
static bool imbalanced(const kvr_policy_config_t *cfg, const scan_t *sc)
{
    return sc->hi - sc->lo > cfg->balance_abs && (double)sc->hi > cfg->balance_rel * (double)sc->lo;
}

static void finish(kvr_route_decision_t *out, const kvr__walk_t *w, const kvr_engine_view_t *views,
                   size_t pick, const char *reason)
{
    out->view = (int)pick;
    out->reason = reason;
    out->prefix_match_blocks = kvr__walk_match(w, &views[pick]);
}

/*
 * Shortest queue, in one pass: the least loaded view; among equals the
 * lowest engine index above the cursor, else the lowest (as
 * kvr__policy_least_load, whose herding guard takes over when on). With
 * pressure known, the least loaded view under the watermark first when
 * some view is at or above it.
 */
static size_t shortest_queue(cache_aware_t *ca, const kvr_engine_view_t *views, size_t n,
                             const scan_t *sc, bool pressure)
{
    const double watermark = ca->base.config.high_watermark - EPS;
    const uint32_t cursor = ca->shortest_cursor, lo = sc->lo;
    const bool complete = sc->complete;
    const bool herd = views[0].herd_slack > 0;
    size_t low = SIZE_MAX, after = SIZE_MAX, cool = SIZE_MAX;
    uint32_t low_index = 0, after_index = 0, cool_requests = 0;
    bool any_hot = false;
    const kvr_engine_columns_t *c = sc->columns;
    for (size_t v = 0; v < n; v++) {
        uint32_t r = c->eff_requests[v], index = c->index[v];
        if (r == lo && !herd) {
            if (low == SIZE_MAX || index < low_index) {
                low = v;
                low_index = index;
            }
            if (index > cursor && (after == SIZE_MAX || index < after_index)) {
                after = v;
                after_index = index;
            }
        }
        if (!pressure)
            continue;
        double p = kv_fraction_of(c->kv_usage[v], c->eff_kv_tokens[v], c->kv_capacity_tokens[v]);
        if (c->utilization[v] > p)
            p = c->utilization[v];
        if (p >= watermark || (complete && occupancy_at_least(c->eff_running[v], c->eff_waiting[v],
                                                              c->max_running[v], watermark)))
            any_hot = true;
        else if (cool == SIZE_MAX || r < cool_requests) {
            cool = v;
            cool_requests = r;
        }
    }
    if (any_hot && cool != SIZE_MAX)
        return cool;
    if (herd)
        return kvr__policy_least_load(views, n, &ca->shortest_cursor);
    size_t pick = after != SIZE_MAX ? after : low;
    ca->shortest_cursor = views[pick].index;
    return pick;
}

static void owner_pressure_pick(cache_aware_t *ca, const kvr_route_request_t *req,
                                const kvr_engine_view_t *views, size_t n, const kvr__walk_t *w,
                                const scan_t *sc, kvr_route_decision_t *out)
{
    kvr__indexed_t *st = &ca->base;
    const kvr_policy_config_t *cfg = &st->config;
    const bool complete = sc->complete;
    if (!complete)
        out->flags |= KVR_DECISION_PRESSURE_FALLBACK;

    if (imbalanced(cfg, sc)) {
        finish(out, w, views, shortest_queue(ca, views, n, sc, true), "balance_shortest_queue");
        return;
    }
    if (!cache_hit(cfg, req, sc->best)) {
        finish(out, w, views, shortest_queue(ca, views, n, sc, true), "cache_miss");
        return;
    }

    /* Owners: views where this request would be a cache hit. The primary holds the deepest match. */
    const uint32_t *hits = st->match;
    double *hit_pressure = st->score;
    size_t primary = SIZE_MAX, other = SIZE_MAX, hold = SIZE_MAX; /* into hits */
    uint32_t owners = 0;
    for (size_t k = 0; k < sc->n_hits; k++) {
        const kvr_engine_view_t *x = &views[hits[k]];
        double p = hit_pressure[k] = pressure_of(x, complete);
        owners++;
        if (hold == SIZE_MAX ||
            cooler(p, x->eff_requests, hit_pressure[hold], views[hits[hold]].eff_requests, false))
            hold = k;
        if (kvr__walk_match(w, x) == sc->best &&
            (primary == SIZE_MAX || cooler(p, x->eff_requests, hit_pressure[primary],
                                           views[hits[primary]].eff_requests, false)))
            primary = k;
    }
    assert(primary != SIZE_MAX); /* the best match is itself a cache hit */
    const double watermark = cfg->high_watermark - EPS;
    const kvr_engine_view_t *pv = &views[hits[primary]];
    if (hit_pressure[primary] < watermark) {
        /*
         * Placed within the cooldown: an earlier request of this burst chose
         * the owner and is likely still in prefill; following it coalesces
         * the burst on one copy of the prefix.
         */
        uint64_t placed = kvr_prefix_index_placed_ns(st->index, req->block_hashes, sc->best,
                                                     pv->index);
        bool provisional = placed != 0 && req->now_ns >= placed &&
                           req->now_ns - placed < cfg->spill_cooldown_ns;
        finish(out, w, views, hits[primary], provisional ? "provisional_owner" : "cache_hit");
        return;
    }
    for (size_t k = 0; k < sc->n_hits; k++) {
        if (k != primary && hit_pressure[k] < watermark &&
            (other == SIZE_MAX ||
             cooler(hit_pressure[k], views[hits[k]].eff_requests, hit_pressure[other],
                    views[hits[other]].eff_requests, false)))
            other = k;
    }
    if (other != SIZE_MAX) {
        finish(out, w, views, hits[other], "existing_owner");
        return;
    }

    /* A spill: the one pass over the fleet this path adds, taken only with a hot primary. */
    uint64_t prefix = req->block_hashes[sc->best - 1];
    size_t spill = SIZE_MAX;
    double spill_pressure = 0;
    if (owners < cfg->replication_ceiling && !in_cooldown(ca, prefix, req->now_ns)) {
        double limit = hit_pressure[primary] - cfg->owner_slack + EPS;
        for (size_t v = 0; v < n; v++) {
            if (cache_hit(cfg, req, kvr__walk_match(w, &views[v])))
                continue;
            double p = pressure_of(&views[v], complete);
            if (p >= watermark || p > limit)
                continue;
            if (cooler(p, views[v].eff_requests, spill_pressure,
                       spill == SIZE_MAX ? 0 : views[spill].eff_requests, spill == SIZE_MAX)) {
                spill = v;
                spill_pressure = p;
            }
        }
    }
    if (spill != SIZE_MAX) {
        uint64_t *last = cooldown_slot(ca, prefix, true);
        *last = req->now_ns ? req->now_ns : 1;
        finish(out, w, views, spill, "owner_pressure_spill");
        return;
    }
    finish(out, w, views, hits[hold], "no_safe_spill_hold");
}

static void cache_aware_pick(void *state, const kvr_route_request_t *req,
                             const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    cache_aware_t *ca = state;
    const kvr_policy_config_t *cfg = &ca->base.config;
    assert(n >= 1 && n <= KVR_MAX_ENGINES);
    kvr__walk_t w;
    scan_t sc;
    scan(ca, req, views, n, &w, cfg->owner_pressure, &sc);
    out->flags = 0;
    if (cfg->owner_pressure) {
        owner_pressure_pick(ca, req, views, n, &w, &sc, out);
        return;
    }
    if (imbalanced(cfg, &sc)) {
        finish(out, &w, views, shortest_queue(ca, views, n, &sc, false), "balance_shortest_queue");
        return;
    }
    if (!cache_hit(cfg, req, sc.best)) {
        finish(out, &w, views, shortest_queue(ca, views, n, &sc, false), "cache_miss");
        return;
    }
    finish(out, &w, views, sc.owner, "cache_hit");
}

/* SGLang's rule with no owner pressure and no rotation of the shortest queue's cursor. */
static void cache_aware_base_pick(void *state, const kvr_route_request_t *req,
                                  const kvr_engine_view_t *views, size_t n,
                                  kvr_route_decision_t *out)
{
    cache_aware_t *ca = state;
    const kvr_policy_config_t *cfg = &ca->base.config;
    assert(n >= 1 && n <= KVR_MAX_ENGINES);
    kvr__walk_t w;
    scan_t sc;
    scan(ca, req, views, n, &w, false, &sc);
    out->flags = 0;
    if (imbalanced(cfg, &sc) || !cache_hit(cfg, req, sc.best)) {
        size_t pick = views[0].herd_slack > 0 ? kvr__policy_least_load(views, n, NULL)
                                              : sc.lo_first;
        finish(out, &w, views, pick, "base_shortest_queue");
        return;
    }
    finish(out, &w, views, sc.owner, "base_cache_hit");
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
