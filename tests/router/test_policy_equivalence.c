/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Each prefix-aware rule's pick against a straightforward reference of its
 * scoring, on a fixed fleet of 300 engines over hundreds of decisions: the
 * reference scores every view in order from dense per-view matches, which
 * it computes from its own record of what was sent where (the longest
 * common prefix with any prompt sent to that engine). The policies take
 * shortcuts for speed at fleet scale (one pass over the views, matches of
 * the engines that hold the prompt only); the engine, the reason and the
 * matched blocks must be the reference's at every decision.
 *
 * The fleet's engine indexes are sparse and the views are not in index
 * order, loads come from a small range so ties are frequent, and some
 * cases turn on the herding guard, owner pressure, softmax sampling, KV
 * capacities that change (the index then learns budgets and evicts: the
 * reference reads a twin index that learns before it matches) and
 * engines leaving.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/rng.h"
#include "router/policy.h"
#include "router/prefix_index.h"

#define TPB KVR_PREFIX_INDEX_TOKENS_PER_BLOCK
#define EQ_ENGINES 300
#define EQ_SESSIONS 60
#define EQ_STEPS 600
#define EQ_MAX_BLOCKS 96
#define EQ_MAX_SENT (EQ_SESSIONS + 2 * EQ_STEPS)
#define EPS 1e-9
#define COOLDOWN_SLOTS 4096u

typedef struct {
    char policy[24];
    bool base;           /* cache_aware's base_pick instead of pick */
    bool owner_pressure; /* cache_aware */
    bool herd;           /* herd_slack > 0 on every view */
    bool feed;           /* fresh feed state with caps (ES=1) */
    bool caps;           /* KV capacities reported and changing: budgets, eviction */
    double temperature;  /* cost */
} eq_case_t;

typedef struct {
    uint32_t engine;
    uint32_t n;
    uint64_t sent_ns;
    uint64_t h[EQ_MAX_BLOCKS];
} eq_sent_t;

/* The reference: what was sent where, and the state of each rule's own. */
typedef struct {
    eq_sent_t sent[EQ_MAX_SENT];
    size_t n_sent;
    kvr_prefix_index_t *twin; /* caps cases: learns then matches, as documented */
    kvr_policy_config_t cfg;
    uint32_t cursor;
    uint64_t rng;
    struct {
        uint64_t prefix;
        uint64_t spilled_ns;
    } cooldown[COOLDOWN_SLOTS];
    uint32_t match[EQ_ENGINES];
    uint64_t placed[EQ_ENGINES];
    double score[EQ_ENGINES];
    uint32_t view_of[EQ_ENGINES * 37 + 5]; /* engine index -> view */
    uint32_t lcp[EQ_MAX_SENT];             /* per prompt sent, for the current request */
} eq_ref_t;

/* ---- the reference rules: every view in order, dense matches ---- */

static uint64_t uncached(const kvr_route_request_t *req, uint32_t m)
{
    const uint64_t bt = KVR_ROUTE_BLOCK_TOKENS(req);
    uint64_t prompt = req->prompt_tokens ? req->prompt_tokens : (uint64_t)req->n_blocks * bt;
    uint64_t cached = (uint64_t)m * bt;
    return prompt > cached ? prompt - cached : 0;
}

static double lmetric_score(const kvr_engine_view_t *v, uint64_t unc)
{
    return (double)(v->eff_pending_prefill_tokens + unc) * ((double)v->eff_running + 1.0);
}

static size_t ref_least_load(const kvr_engine_view_t *views, size_t n, uint32_t *cursor)
{
    uint32_t least = UINT32_MAX;
    for (size_t v = 0; v < n; v++)
        if (views[v].eff_requests < least)
            least = views[v].eff_requests;
    if (views[0].herd_slack > 0) {
        uint64_t within = (uint64_t)least + views[0].herd_slack;
        size_t pick = n;
        for (size_t v = 0; v < n; v++)
            if (views[v].eff_requests <= within &&
                (pick == n || views[v].tie_draw < views[pick].tie_draw))
                pick = v;
        if (cursor)
            *cursor = views[pick].index;
        return pick;
    }
    if (!cursor) {
        for (size_t v = 0; v < n; v++)
            if (views[v].eff_requests == least)
                return v;
    }
    size_t after = n, first = n;
    for (size_t v = 0; v < n; v++) {
        if (views[v].eff_requests != least)
            continue;
        if (first == n || views[v].index < views[first].index)
            first = v;
        if (views[v].index > *cursor && (after == n || views[v].index < views[after].index))
            after = v;
    }
    size_t pick = after != n ? after : first;
    *cursor = views[pick].index;
    return pick;
}

static size_t ref_spread(const kvr_engine_view_t *views, size_t n, const double *score, size_t best,
                         double per_request)
{
    if (views[best].herd_slack == 0 || !(per_request >= 0))
        return best;
    double within = score[best] + (double)views[best].herd_slack * per_request;
    size_t pick = best;
    for (size_t v = 0; v < n; v++)
        if (score[v] <= within && views[v].tie_draw < views[pick].tie_draw)
            pick = v;
    return pick;
}

static size_t ref_least_lmetric(eq_ref_t *r, const kvr_route_request_t *req,
                                const kvr_engine_view_t *views, size_t n)
{
    for (size_t v = 0; v < n; v++)
        r->score[v] = lmetric_score(&views[v], uncached(req, r->match[v]));
    size_t best = 0;
    for (size_t v = 1; v < n; v++)
        if (r->score[v] < r->score[best] ||
            (r->score[v] == r->score[best] && views[v].eff_requests < views[best].eff_requests))
            best = v;
    double per_request = (double)views[best].eff_pending_prefill_tokens +
                         (double)uncached(req, r->match[best]);
    return ref_spread(views, n, r->score, best, per_request);
}

static void ref_lmetric(eq_ref_t *r, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                        size_t n, kvr_route_decision_t *out)
{
    size_t pick = ref_least_lmetric(r, req, views, n);
    *out = (kvr_route_decision_t){(int)pick, "lmetric", r->match[pick], 0};
}

static void ref_lmetric_paper(eq_ref_t *r, const kvr_route_request_t *req,
                              const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    size_t best = 0;
    for (size_t v = 0; v < n; v++) {
        r->score[v] = (double)uncached(req, r->match[v]) * (double)views[v].eff_running;
        if (r->score[v] < r->score[best] ||
            (r->score[v] == r->score[best] && views[v].eff_requests < views[best].eff_requests))
            best = v;
    }
    best = ref_spread(views, n, r->score, best, (double)uncached(req, r->match[best]));
    *out = (kvr_route_decision_t){(int)best, "lmetric_paper", r->match[best], 0};
}

static void ref_cost(eq_ref_t *r, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                     size_t n, kvr_route_decision_t *out)
{
    const uint64_t bt = KVR_ROUTE_BLOCK_TOKENS(req);
    uint64_t prompt_blocks = req->prompt_tokens ? (req->prompt_tokens + bt - 1) / bt
                                                : req->n_blocks;
    double lo = INFINITY, hi = -INFINITY;
    size_t pick = 0;
    for (size_t v = 0; v < n; v++) {
        uint64_t unc = prompt_blocks > r->match[v] ? prompt_blocks - r->match[v] : 0;
        r->score[v] = r->cfg.overlap_weight * (double)unc +
                      (double)((views[v].eff_kv_tokens + bt - 1) / bt);
        if (r->score[v] < lo ||
            (r->score[v] == lo && views[v].eff_requests < views[pick].eff_requests)) {
            lo = r->score[v];
            pick = v;
        }
        if (r->score[v] > hi)
            hi = r->score[v];
    }
    if (r->cfg.temperature <= 0) {
        pick = ref_spread(views, n, r->score, pick, (double)prompt_blocks);
    } else if (hi > lo) {
        double total = 0;
        for (size_t v = 0; v < n; v++) {
            r->score[v] = exp(-((r->score[v] - lo) / (hi - lo)) / r->cfg.temperature);
            total += r->score[v];
        }
        double x = kvr_splitmix64_unit(&r->rng) * total;
        pick = n - 1;
        for (size_t v = 0; v < n; v++) {
            if (x < r->score[v]) {
                pick = v;
                break;
            }
            x -= r->score[v];
        }
    }
    *out = (kvr_route_decision_t){(int)pick, "cost", r->match[pick], 0};
}

static void ref_affinity(eq_ref_t *r, const kvr_route_request_t *req,
                         const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    uint32_t best = 0;
    for (size_t v = 0; v < n; v++)
        best = r->match[v] > best ? r->match[v] : best;
    if (best == 0) {
        size_t pick = ref_least_lmetric(r, req, views, n);
        *out = (kvr_route_decision_t){(int)pick, "cache_miss", 0, 0};
        return;
    }
    uint32_t floor = best > 1 ? best - 1 : 1;
    size_t pick = n;
    for (size_t v = 0; v < n; v++) {
        if (r->match[v] < floor)
            continue;
        if (pick == n || views[v].eff_requests < views[pick].eff_requests ||
            (views[v].eff_requests == views[pick].eff_requests && r->match[v] > r->match[pick]))
            pick = v;
    }
    double sum = 0;
    for (size_t v = 0; v < n; v++)
        sum += views[v].eff_requests;
    double threshold = r->cfg.overload_factor * (sum / (double)n) + 1.0 + 1e-9;
    const char *reason = "cache_hit";
    if ((double)views[pick].eff_requests > threshold) {
        size_t fb = n;
        double fb_score = 0;
        for (size_t v = 0; v < n; v++) {
            if ((double)views[v].eff_requests > threshold)
                continue;
            double s = lmetric_score(&views[v], uncached(req, r->match[v]));
            if (fb == n || s < fb_score ||
                (s == fb_score && views[v].eff_requests < views[fb].eff_requests)) {
                fb = v;
                fb_score = s;
            }
        }
        if (fb != n) {
            pick = fb;
            reason = "overload_fallback";
        }
    }
    *out = (kvr_route_decision_t){(int)pick, reason, r->match[pick], 0};
}

static void ref_llmd(eq_ref_t *r, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                     size_t n, kvr_route_decision_t *out)
{
    uint32_t longest = 0;
    for (size_t v = 0; v < n; v++)
        longest = r->match[v] > longest ? r->match[v] : longest;
    if (longest > 0) {
        size_t warm = n;
        for (size_t v = 0; v < n; v++)
            if (r->match[v] == longest &&
                (warm == n || views[v].eff_requests < views[warm].eff_requests))
                warm = v;
        double budget = r->cfg.llmd_prefill_tokens_per_s * (double)r->cfg.llmd_ttft_penalty_ns /
                        1e9;
        if ((double)views[warm].eff_pending_prefill_tokens <= budget) {
            *out = (kvr_route_decision_t){(int)warm, "cache_warm", longest, 0};
            return;
        }
    }
    size_t best = 0;
    for (size_t v = 0; v < n; v++) {
        r->score[v] = (double)views[v].eff_pending_prefill_tokens +
                      (double)uncached(req, r->match[v]);
        if (r->score[v] < r->score[best] ||
            (r->score[v] == r->score[best] && views[v].eff_requests < views[best].eff_requests))
            best = v;
    }
    best = ref_spread(views, n, r->score, best, (double)uncached(req, r->match[best]));
    *out = (kvr_route_decision_t){(int)best, longest > 0 ? "saturated_token_load" : "token_load",
                                  r->match[best], 0};
}

/* cache_aware: the SGLang rule, owner pressure, its base rule. */

static bool ca_hit(const eq_ref_t *r, const kvr_route_request_t *req, uint32_t m)
{
    return m > 0 && req->n_blocks > 0 && (double)m / (double)req->n_blocks > r->cfg.cache_threshold;
}

static bool ca_imbalanced(const eq_ref_t *r, const kvr_engine_view_t *views, size_t n)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t v = 0; v < n; v++) {
        lo = views[v].eff_requests < lo ? views[v].eff_requests : lo;
        hi = views[v].eff_requests > hi ? views[v].eff_requests : hi;
    }
    return hi - lo > r->cfg.balance_abs && (double)hi > r->cfg.balance_rel * (double)lo;
}

static bool ca_pressure(const kvr_engine_view_t *views, size_t n, double *pressure)
{
    bool complete = true;
    for (size_t v = 0; v < n; v++)
        if (!views[v].feed_fresh || !views[v].caps_complete || views[v].max_running == 0)
            complete = false;
    for (size_t v = 0; v < n; v++) {
        const kvr_engine_view_t *x = &views[v];
        double p = x->kv_usage >= 0 ? x->kv_usage
                   : x->kv_capacity_tokens > 0
                       ? (double)x->eff_kv_tokens / (double)x->kv_capacity_tokens
                       : 0;
        if (x->utilization > p)
            p = x->utilization;
        if (complete) {
            double occ = ((double)x->eff_running + (double)x->eff_waiting) / (double)x->max_running;
            if (occ > p)
                p = occ;
        }
        pressure[v] = p;
    }
    return complete;
}

static bool ca_cooler(const kvr_engine_view_t *views, const double *pressure, size_t a, size_t b)
{
    if (b == SIZE_MAX)
        return true;
    if (pressure[a] != pressure[b])
        return pressure[a] < pressure[b];
    return views[a].eff_requests < views[b].eff_requests;
}

static size_t ca_shortest(eq_ref_t *r, const kvr_engine_view_t *views, size_t n,
                          const double *pressure)
{
    if (pressure) {
        size_t best = SIZE_MAX;
        bool any_hot = false;
        for (size_t v = 0; v < n; v++) {
            if (pressure[v] >= r->cfg.high_watermark - EPS) {
                any_hot = true;
                continue;
            }
            if (best == SIZE_MAX || views[v].eff_requests < views[best].eff_requests)
                best = v;
        }
        if (any_hot && best != SIZE_MAX)
            return best;
    }
    return ref_least_load(views, n, &r->cursor);
}

static uint64_t *ca_cooldown(eq_ref_t *r, uint64_t prefix, bool create)
{
    size_t i = (size_t)((prefix * 0x9E3779B97F4A7C15ull) >> 52) & (COOLDOWN_SLOTS - 1);
    if (r->cooldown[i].prefix != prefix) {
        if (!create)
            return NULL;
        r->cooldown[i].prefix = prefix;
        r->cooldown[i].spilled_ns = 0;
    }
    return &r->cooldown[i].spilled_ns;
}

static void ca_done(const eq_ref_t *r, kvr_route_decision_t *out, size_t pick, const char *reason)
{
    out->view = (int)pick;
    out->reason = reason;
    out->prefix_match_blocks = r->match[pick];
}

static void ref_cache_aware(eq_ref_t *r, const kvr_route_request_t *req,
                            const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    const kvr_policy_config_t *cfg = &r->cfg;
    uint32_t best = 0;
    for (size_t v = 0; v < n; v++)
        best = r->match[v] > best ? r->match[v] : best;
    out->flags = 0;
    if (!cfg->owner_pressure) {
        if (ca_imbalanced(r, views, n)) {
            ca_done(r, out, ca_shortest(r, views, n, NULL), "balance_shortest_queue");
            return;
        }
        if (!ca_hit(r, req, best)) {
            ca_done(r, out, ca_shortest(r, views, n, NULL), "cache_miss");
            return;
        }
        size_t owner = SIZE_MAX;
        for (size_t v = 0; v < n; v++)
            if (r->match[v] == best &&
                (owner == SIZE_MAX || views[v].eff_requests < views[owner].eff_requests))
                owner = v;
        ca_done(r, out, owner, "cache_hit");
        return;
    }
    double *pressure = r->score;
    if (!ca_pressure(views, n, pressure))
        out->flags |= KVR_DECISION_PRESSURE_FALLBACK;
    if (ca_imbalanced(r, views, n)) {
        ca_done(r, out, ca_shortest(r, views, n, pressure), "balance_shortest_queue");
        return;
    }
    if (!ca_hit(r, req, best)) {
        ca_done(r, out, ca_shortest(r, views, n, pressure), "cache_miss");
        return;
    }
    size_t primary = SIZE_MAX, other = SIZE_MAX, hold = SIZE_MAX;
    uint32_t owners = 0;
    for (size_t v = 0; v < n; v++) {
        if (!ca_hit(r, req, r->match[v]))
            continue;
        owners++;
        if (ca_cooler(views, pressure, v, hold))
            hold = v;
        if (r->match[v] == best && ca_cooler(views, pressure, v, primary))
            primary = v;
    }
    const double watermark = cfg->high_watermark - EPS;
    if (pressure[primary] < watermark) {
        bool provisional = r->placed[primary] != 0 && req->now_ns >= r->placed[primary] &&
                           req->now_ns - r->placed[primary] < cfg->spill_cooldown_ns;
        ca_done(r, out, primary, provisional ? "provisional_owner" : "cache_hit");
        return;
    }
    for (size_t v = 0; v < n; v++)
        if (v != primary && ca_hit(r, req, r->match[v]) && pressure[v] < watermark &&
            ca_cooler(views, pressure, v, other))
            other = v;
    if (other != SIZE_MAX) {
        ca_done(r, out, other, "existing_owner");
        return;
    }
    uint64_t prefix = req->block_hashes[best - 1];
    uint64_t *last = ca_cooldown(r, prefix, false);
    bool cooling = last && *last != 0 && req->now_ns >= *last &&
                   req->now_ns - *last < cfg->spill_cooldown_ns;
    size_t spill = SIZE_MAX;
    if (owners < cfg->replication_ceiling && !cooling) {
        double limit = pressure[primary] - cfg->owner_slack + EPS;
        for (size_t v = 0; v < n; v++) {
            if (ca_hit(r, req, r->match[v]) || pressure[v] >= watermark || pressure[v] > limit)
                continue;
            if (ca_cooler(views, pressure, v, spill))
                spill = v;
        }
    }
    if (spill != SIZE_MAX) {
        *ca_cooldown(r, prefix, true) = req->now_ns ? req->now_ns : 1;
        ca_done(r, out, spill, "owner_pressure_spill");
        return;
    }
    ca_done(r, out, hold, "no_safe_spill_hold");
}

static void ref_cache_aware_base(eq_ref_t *r, const kvr_route_request_t *req,
                                 const kvr_engine_view_t *views, size_t n,
                                 kvr_route_decision_t *out)
{
    uint32_t best = 0;
    for (size_t v = 0; v < n; v++)
        best = r->match[v] > best ? r->match[v] : best;
    out->flags = 0;
    if (ca_imbalanced(r, views, n) || !ca_hit(r, req, best)) {
        ca_done(r, out, ref_least_load(views, n, NULL), "base_shortest_queue");
        return;
    }
    size_t owner = SIZE_MAX;
    for (size_t v = 0; v < n; v++)
        if (r->match[v] == best &&
            (owner == SIZE_MAX || views[v].eff_requests < views[owner].eff_requests))
            owner = v;
    ca_done(r, out, owner, "base_cache_hit");
}

static void ref_load_only(eq_ref_t *r, const kvr_route_request_t *req,
                          const kvr_engine_view_t *views, size_t n, kvr_route_decision_t *out)
{
    (void)req;
    size_t pick = ref_least_load(views, n, &r->cursor);
    *out = (kvr_route_decision_t){(int)pick, "least_load", 0, 0};
}

/* ---- the reference's matches ---- */

/* The longest prefix of req sent to the engine, and when its deepest block was first sent there. */
static void ref_matches(eq_ref_t *r, const kvr_route_request_t *req, const kvr_engine_view_t *views,
                        size_t n, bool twin)
{
    /* Each prompt sent once compared with the request, credited to its engine's view. */
    for (size_t v = 0; v < n; v++) {
        r->match[v] = 0;
        r->placed[v] = 0;
        r->view_of[views[v].index] = (uint32_t)v;
    }
    for (size_t s = 0; s < r->n_sent; s++) {
        const eq_sent_t *p = &r->sent[s];
        uint32_t v = r->view_of[p->engine], m = 0;
        while (m < p->n && m < req->n_blocks && p->h[m] == req->block_hashes[m])
            m++;
        r->lcp[s] = m;
        if (m > r->match[v])
            r->match[v] = m;
    }
    /* When the engine was first sent the deepest matched block: the earliest such prompt. */
    for (size_t s = 0; s < r->n_sent; s++) {
        const eq_sent_t *p = &r->sent[s];
        uint32_t v = r->view_of[p->engine];
        if (r->match[v] > 0 && r->lcp[s] >= r->match[v] &&
            (!r->placed[v] || p->sent_ns < r->placed[v]))
            r->placed[v] = p->sent_ns;
    }
    if (!twin)
        return;
    /* With budgets the index evicts: what it holds after learning them is the reference. */
    uint32_t m[EQ_ENGINES];
    uint64_t placed[EQ_ENGINES];
    kvr_prefix_index_learn(r->twin, views, n);
    kvr_prefix_index_match(r->twin, req->block_hashes, req->n_blocks, req->now_ns, views, n, m,
                           placed);
    for (size_t v = 0; v < n; v++) {
        cr_assert_leq(m[v], r->match[v], "an index never holds more than was sent");
        r->match[v] = m[v];
        r->placed[v] = m[v] ? placed[v] : 0;
    }
}

typedef void (*ref_rule_t)(eq_ref_t *, const kvr_route_request_t *, const kvr_engine_view_t *,
                           size_t, kvr_route_decision_t *);

static ref_rule_t ref_rule(const eq_case_t *c)
{
    static const struct {
        const char *name;
        ref_rule_t rule;
    } rules[] = {
        {"lmetric", ref_lmetric},     {"lmetric_paper", ref_lmetric_paper},
        {"cost", ref_cost},           {"affinity", ref_affinity},
        {"llmd", ref_llmd},           {"cache_aware", ref_cache_aware},
        {"load_only", ref_load_only},
    };
    if (c->base)
        return ref_cache_aware_base;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].name, c->policy) == 0)
            return rules[i].rule;
    cr_assert_fail("no reference for %s", c->policy);
    return NULL;
}

/* ---- the fleet and the traffic ---- */

/* Session s's prompt at a turn: a system prompt shared by its group, then its own blocks. */
static uint32_t session_prompt(uint64_t s, uint32_t turn, uint64_t *h)
{
    static const uint32_t system_blocks[6] = {0, 4, 12, 24, 40, 2};
    uint32_t sys = system_blocks[s % 6];
    uint32_t n = sys + 6 + 5 * turn;
    n = n > EQ_MAX_BLOCKS ? EQ_MAX_BLOCKS : n;
    uint64_t chain = 0x5eed;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t content = i < sys ? (s % 6) * 1000 + i : (s + 1) * 100000 + i;
        chain = kvr_rng_mix64(chain ^ (content * 0x9E3779B97F4A7C15ull));
        h[i] = chain;
    }
    return n;
}

static void set_load(kvr_engine_view_t *v, uint64_t *rng, const eq_case_t *c)
{
    v->eff_running = (uint32_t)kvr_splitmix64_below(rng, 6);
    v->eff_waiting = (uint32_t)kvr_splitmix64_below(rng, 3);
    v->eff_requests = v->eff_running + v->eff_waiting;
    v->eff_pending_prefill_tokens = 256 * kvr_splitmix64_below(rng, 3);
    v->eff_kv_tokens = 1024 * kvr_splitmix64_below(rng, 4);
    v->tie_draw = kvr_splitmix64(rng);
    if (c->feed) {
        static const double usage[] = {0.2, 0.5, 0.85, 0.95, -1};
        v->feed_fresh = true;
        v->max_running = 6;
        v->caps_complete = kvr_splitmix64_below(rng, 50) != 0; /* now and then one lacks caps */
        v->kv_usage = usage[kvr_splitmix64_below(rng, 5)];
        v->utilization = kvr_splitmix64_below(rng, 4) == 0 ? 0.93 : -1;
    }
    if (c->caps && kvr_splitmix64_below(rng, 8) == 0)
        v->kv_capacity_tokens = TPB * (40 + 20 * kvr_splitmix64_below(rng, 4));
}

static void record(eq_ref_t *r, const kvr_policy_ops_t *ops, void *state,
                   const kvr_route_request_t *req, uint32_t engine)
{
    cr_assert_lt(r->n_sent, EQ_MAX_SENT);
    eq_sent_t *p = &r->sent[r->n_sent++];
    p->engine = engine;
    p->n = (uint32_t)req->n_blocks;
    p->sent_ns = req->now_ns;
    memcpy(p->h, req->block_hashes, req->n_blocks * sizeof(uint64_t));
    if (ops->on_dispatch)
        ops->on_dispatch(state, req, engine);
    if (r->twin)
        kvr_prefix_index_insert(r->twin, req->block_hashes, req->n_blocks, engine, req->now_ns);
}

static void forget(eq_ref_t *r, const kvr_policy_ops_t *ops, void *state, uint32_t engine)
{
    size_t kept = 0;
    for (size_t s = 0; s < r->n_sent; s++)
        if (r->sent[s].engine != engine)
            r->sent[kept++] = r->sent[s];
    r->n_sent = kept;
    if (ops->on_engine_removed)
        ops->on_engine_removed(state, engine);
    if (r->twin)
        kvr_prefix_index_remove_engine(r->twin, engine);
}

ParameterizedTestParameters(policy_equivalence, pick)
{
    static eq_case_t cases[] = {
        {.policy = "cache_aware"},
        {.policy = "cache_aware", .feed = true},
        {.policy = "cache_aware", .herd = true},
        {.policy = "cache_aware", .owner_pressure = true},
        {.policy = "cache_aware", .owner_pressure = true, .feed = true},
        {.policy = "cache_aware", .owner_pressure = true, .feed = true, .herd = true},
        {.policy = "cache_aware", .owner_pressure = true, .feed = true, .caps = true},
        {.policy = "cache_aware", .base = true, .feed = true},
        {.policy = "cache_aware", .base = true, .herd = true},
        {.policy = "lmetric"},
        {.policy = "lmetric", .feed = true, .herd = true},
        {.policy = "lmetric", .caps = true},
        {.policy = "lmetric_paper"},
        {.policy = "lmetric_paper", .herd = true},
        {.policy = "cost"},
        {.policy = "cost", .herd = true},
        {.policy = "cost", .temperature = 0.5},
        {.policy = "cost", .caps = true, .feed = true},
        {.policy = "affinity"},
        {.policy = "affinity", .feed = true, .caps = true},
        {.policy = "llmd"},
        {.policy = "llmd", .herd = true},
        {.policy = "load_only"},
        {.policy = "load_only", .herd = true},
    };
    return cr_make_param_array(eq_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(eq_case_t *c, policy_equivalence, pick)
{
    eq_ref_t *r = calloc(1, sizeof *r);
    cr_assert_not_null(r);
    kvr_policy_config_defaults(&r->cfg);
    r->cfg.seed = 7;
    r->cfg.index_ttl_ns = 0;
    r->cfg.owner_pressure = c->owner_pressure;
    r->cfg.temperature = c->temperature;
    r->cfg.balance_abs = 8; /* loads range 0..7, but for a spike now and then */
    r->cfg.balance_rel = 1.5;
    r->cfg.llmd_prefill_tokens_per_s = 400; /* 400 queued tokens saturate a warm engine */
    r->cfg.index_tokens_per_engine = c->caps ? TPB * 120 : 262144;
    r->cursor = UINT32_MAX;
    r->rng = r->cfg.seed;
    if (c->caps)
        cr_assert_eq(kvr_prefix_index_create(r->cfg.index_tokens_per_engine, 0,
                                             r->cfg.index_max_blocks, &r->twin),
                     0);
    const kvr_policy_ops_t *ops = kvr_policy_find(c->policy);
    cr_assert_not_null(ops);
    void *state = NULL;
    cr_assert_eq(ops->create(&r->cfg, &state), 0);

    uint64_t rng = 0xfeed;
    kvr_engine_view_t views[EQ_ENGINES];
    memset(views, 0, sizeof views);
    for (size_t v = 0; v < EQ_ENGINES; v++) {
        views[v].index = (uint32_t)(v * 37 + 5); /* sparse, up to 11068 */
        views[v].id = "http://engine";
        views[v].kv_usage = -1;
        views[v].utilization = -1;
        views[v].dp_ranks = 1;
        views[v].herd_slack = c->herd ? 2 : 0;
        set_load(&views[v], &rng, c);
    }
    for (size_t v = EQ_ENGINES - 1; v > 0; v--) { /* views not in index order */
        size_t w = kvr_splitmix64_below(&rng, v + 1);
        kvr_engine_view_t t = views[v];
        views[v] = views[w];
        views[w] = t;
    }

    uint64_t h[EQ_MAX_BLOCKS];
    kvr_route_request_t req = {.request_id = "eq", .block_hashes = h};
    uint64_t now = 1000 * KVR_NS_PER_SEC;
    uint32_t turn[EQ_SESSIONS] = {0};
    for (uint64_t s = 0; s < EQ_SESSIONS; s++) {
        req.n_blocks = session_prompt(s, 0, h);
        req.prompt_tokens = (uint32_t)req.n_blocks * TPB;
        req.now_ns = now += 1000;
        record(r, ops, state, &req, views[kvr_splitmix64_below(&rng, EQ_ENGINES)].index);
    }
    ref_rule_t rule = ref_rule(c);
    uint32_t reasons_seen = 0, matched = 0;
    size_t spiked = 0;
    const char *reasons[16] = {0};
    for (uint32_t step = 0; step < EQ_STEPS; step++) {
        uint64_t s = kvr_splitmix64_below(&rng, EQ_SESSIONS + 6); /* some never seen */
        uint32_t t = s < EQ_SESSIONS ? ++turn[s] : 0;
        req.n_blocks = session_prompt(s < EQ_SESSIONS ? s : 1000 + step, t, h);
        req.prompt_tokens = kvr_splitmix64_below(&rng, 5) == 0
                                ? 0
                                : (uint32_t)(req.n_blocks * TPB - kvr_splitmix64_below(&rng, 16));
        /* Token keys (--block-tokens) now and then: a block then counts as 32 tokens. */
        req.block_tokens = kvr_splitmix64_below(&rng, 3) == 0 ? 32 : 0;
        now += kvr_splitmix64_below(&rng, 4) * 300 * 1000 * 1000; /* 0-0.9 s: some in cooldown */
        req.now_ns = now;
        for (int k = 0; k < 20; k++)
            set_load(&views[kvr_splitmix64_below(&rng, EQ_ENGINES)], &rng, c);
        if (step % 7 == 0) { /* a spike: imbalanced until it is gone */
            spiked = kvr_splitmix64_below(&rng, EQ_ENGINES);
            views[spiked].eff_waiting += 10;
            views[spiked].eff_requests += 10;
        } else if (step % 7 == 3) {
            set_load(&views[spiked], &rng, c);
        }

        kvr_route_decision_t want = {.view = -1}, got = {.view = -1};
        ref_matches(r, &req, views, EQ_ENGINES, c->caps);
        rule(r, &req, views, EQ_ENGINES, &want);
        if (c->base)
            ops->base_pick(state, &req, views, EQ_ENGINES, &got);
        else
            ops->pick(state, &req, views, EQ_ENGINES, &got);
        cr_assert_eq(got.view, want.view, "step %u: %s picked view %d, the reference %d (%s)", step,
                     c->policy, got.view, want.view, want.reason);
        cr_assert_str_eq(got.reason, want.reason, "step %u", step);
        cr_assert_eq(got.prefix_match_blocks, want.prefix_match_blocks, "step %u", step);
        cr_assert_eq(got.flags, want.flags, "step %u", step);
        matched += want.prefix_match_blocks > 0;
        size_t k = 0;
        while (k < reasons_seen && strcmp(reasons[k], want.reason) != 0)
            k++;
        if (k == reasons_seen && reasons_seen < 16)
            reasons[reasons_seen++] = want.reason;

        record(r, ops, state, &req, views[got.view].index);
        if (kvr_splitmix64_below(&rng, 5) == 0) /* a retry elsewhere: more holders */
            record(r, ops, state, &req, views[kvr_splitmix64_below(&rng, EQ_ENGINES)].index);
        if (step % 97 == 96)
            forget(r, ops, state, views[kvr_splitmix64_below(&rng, EQ_ENGINES)].index);
    }
    /* The traffic reaches the rules' branches: picks with and without a match, several reasons. */
    bool prefix = strcmp(c->policy, "load_only") != 0;
    bool branches = strcmp(c->policy, "cache_aware") == 0 || strcmp(c->policy, "affinity") == 0 ||
                    strcmp(c->policy, "llmd") == 0;
    if (prefix)
        cr_assert(matched >= 20 && matched <= EQ_STEPS - 20, "%s: %u picks matched", c->policy,
                  matched);
    cr_assert_geq(reasons_seen, branches ? (c->base ? 2u : 3u) : 1u, "%s: %u reasons", c->policy,
                  reasons_seen);
    ops->destroy(state);
    kvr_prefix_index_destroy(r->twin);
    free(r);
}
