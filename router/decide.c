/* SPDX-License-Identifier: Apache-2.0 */
#include "router/share.h"
#include "router/decide.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/json_text.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "router/prefix_index.h"

int kvr_decide_init(kvr_decider_t *d, const kvr_decide_config_t *cfg)
{
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    const char *policy = cfg->policy ? cfg->policy : "";
    if (strlen(policy) >= sizeof d->policy_name || (cfg->es && !cfg->shm_name) ||
        cfg->shm_owner_uid > (int64_t)UINT32_MAX - 1) {
        KVR_ERROR("decide_config_invalid policy=%.64s shm_owner_uid=%lld", policy,
                  (long long)cfg->shm_owner_uid);
        return -EINVAL;
    }
    snprintf(d->policy_name, sizeof d->policy_name, "%s", policy);
    snprintf(d->shm_name, sizeof d->shm_name, "%s", cfg->shm_name ? cfg->shm_name : "");
    d->cfg.policy = d->policy_name;
    d->cfg.shm_name = d->shm_name;
    if (d->cfg.fail_threshold == 0)
        d->cfg.fail_threshold = 1;
    int rc = kvr_engine_table_init(&d->engines, cfg->max_engines);
    if (rc < 0) {
        KVR_ERROR("decide_config_invalid max_engines=%u limit=%u", cfg->max_engines,
                  KVR_MAX_ENGINES);
        return rc;
    }
    d->cfg.max_engines = d->engines.max_engines;

    rc = -ENOMEM;
    d->views = kvr_engine_views_alloc(d->engines.max_engines);
    d->states = calloc(d->engines.max_engines, sizeof *d->states);
    if (!d->views || !d->states || kvr_engine_columns_init(&d->columns, d->engines.max_engines) < 0)
        goto fail_views;
    rc = kvr_sessions_init(&d->sessions, cfg->session_ttl_ns, cfg->max_sessions);
    if (rc < 0)
        goto fail_views;
    d->policy = kvr_policy_find(d->policy_name);
    if (!d->policy) {
        rc = -EINVAL;
        KVR_ERROR("policy_unknown policy=%s", d->policy_name);
        goto fail_sessions;
    }
    rc = d->policy->create(&d->cfg.policy_config, &d->policy_state);
    if (rc < 0) {
        KVR_ERROR("policy_create_failed policy=%s error=\"%s\"", d->policy_name, kvr_strerror(rc));
        goto fail_sessions;
    }
    if (cfg->decode_policy && cfg->decode_policy[0]) {
        d->decode_policy = kvr_policy_find(cfg->decode_policy);
        rc = d->decode_policy
                 ? d->decode_policy->create(&d->cfg.policy_config, &d->decode_policy_state)
                 : -EINVAL;
        if (rc < 0) {
            KVR_ERROR("decode_policy_failed policy=%.64s error=\"%s\"", cfg->decode_policy,
                      kvr_strerror(rc));
            d->decode_policy = NULL;
            goto fail_policy;
        }
    }
    d->cfg.decode_policy = NULL; /* the caller's string: not kept */
    rc = kvr_admission_create(cfg->admission, cfg->max_waiting, &d->admission);
    if (rc < 0)
        goto fail_decode_policy;
    /* ES=0 builds the reader disabled: it never opens the segment. */
    kvr_feed_init(&d->feed, cfg->es, d->shm_name, cfg->max_age_ns);
    d->feed.add_sent = !cfg->es_max_only;
    d->feed.spread = !cfg->es_no_spread;
    d->feed.spread_rng = cfg->spread_seed;
    if (cfg->shm_owner_uid >= 0)
        d->feed.owner_uid = (uid_t)cfg->shm_owner_uid;
    rc = kvr_cache_state_init(&d->cache, cfg->cache_state, &d->engines, &d->feed, d->shm_name,
                              d->feed.owner_uid, cfg->max_age_ns);
    if (rc < 0)
        goto fail_admission;
    if (cfg->cache_state == KVR_CACHE_STATE_EVENTS && !cfg->es)
        KVR_WARN("cache_state_needs_es mode=%s: engines are found in the residency table by "
                 "their segment slot; with ES=0 no match is known",
                 kvr_cache_state_names[cfg->cache_state]);
    return 0;

fail_admission:
    kvr_admission_destroy(d->admission);
    kvr_feed_close(&d->feed);
fail_decode_policy:
    if (d->decode_policy)
        d->decode_policy->destroy(d->decode_policy_state);
fail_policy:
    d->policy->destroy(d->policy_state);
fail_sessions:
    kvr_sessions_close(&d->sessions);
fail_views:
    free(d->views);
    free(d->states);
    kvr_engine_columns_close(&d->columns);
    d->views = NULL;
    d->states = NULL;
    kvr_engine_table_close(&d->engines);
    return rc;
}

void kvr_decide_close(kvr_decider_t *d)
{
    kvr_engine_table_close(&d->engines);
    kvr_cache_state_close(&d->cache);
    kvr_feed_close(&d->feed);
    kvr_admission_destroy(d->admission);
    if (d->policy)
        d->policy->destroy(d->policy_state);
    if (d->decode_policy)
        d->decode_policy->destroy(d->decode_policy_state);
    kvr_sessions_close(&d->sessions);
    free(d->views);
    free(d->states);
    kvr_engine_columns_close(&d->columns);
    free(d->pool_hashes);
    free(d->pool_session);
    memset(d, 0, sizeof *d);
}

/*
 * Index reuse. A removed engine's index is freed once its last charge is
 * released, and a later engine may get it with the next generation. Each
 * thing kept under an index is made unable to reach the new engine:
 *  - the engine struct (shadow counters, feed slot and its cache, totals)
 *    is freed and the new engine gets a zeroed one; a charge points at the
 *    struct it charged, which lives until that charge is released;
 *  - the policy's state (prefix index entries, per-engine models) is
 *    cleared again by on_engine_removed, as placements learnt from other
 *    routers may have reached the draining engine;
 *  - session pins on the index are dropped;
 *  - --share's cached engine key is forgotten, and other routers' pins
 *    carry the generation they were read under (router/share.c);
 *  - the router's upstream pool and health checks carry the generation
 *    (router/router.c, router/health.c).
 * The free is deferred to the next add, decision or housekeeping, never done
 * inside a release or a removal: their callers still read the engine.
 */
static void reclaim_engines(kvr_decider_t *d)
{
    if (!d->reclaim_due)
        return;
    d->reclaim_due = false;
    for (uint32_t i = 0; i < d->engines.n_slots; i++) {
        kvr_engine_t *e = d->engines.engines[i];
        if (!e || !e->removed || e->shadow_requests != 0)
            continue;
        if (d->policy->on_engine_removed)
            d->policy->on_engine_removed(d->policy_state, i);
        if (d->decode_policy && d->decode_policy->on_engine_removed)
            d->decode_policy->on_engine_removed(d->decode_policy_state, i);
        kvr_sessions_forget_engine(&d->sessions, i);
        if (d->share)
            kvr_share_forget_engine(d->share, i);
        KVR_DEBUG("engine_index_freed engine=%s index=%u generation=%u", e->id, i, e->generation);
        (void)kvr_engine_table_free(&d->engines, e);
    }
}

int kvr_decide_add_engine(kvr_decider_t *d, const char *id, kvr_engine_t **out)
{
    reclaim_engines(d); /* a removed engine of the same id still draining comes back as it is */
    return kvr_engine_table_add(&d->engines, id, out);
}

bool kvr_decide_remove_engine(kvr_decider_t *d, kvr_engine_t *e)
{
    if (e->removed)
        return false;
    kvr_engine_table_remove(&d->engines, e);
    if (d->policy->on_engine_removed)
        d->policy->on_engine_removed(d->policy_state, e->index);
    if (d->decode_policy && d->decode_policy->on_engine_removed)
        d->decode_policy->on_engine_removed(d->decode_policy_state, e->index);
    d->reclaim_due = true;
    return true;
}

void kvr_decide_reclaim(kvr_decider_t *d)
{
    reclaim_engines(d);
}

kvr_engine_t *kvr_decide_find_engine(const kvr_decider_t *d, const char *id)
{
    return kvr_engine_table_find(&d->engines, id);
}

kvr_engine_t *kvr_decide_engine(const kvr_decider_t *d, uint32_t index)
{
    return kvr_engine_table_get(&d->engines, index);
}

static bool excluded(uint32_t index, const uint32_t *exclude, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (exclude[i] == index)
            return true;
    return false;
}

bool kvr_decide_has_candidate(const kvr_decider_t *d, const uint32_t *exclude, size_t n_exclude)
{
    return kvr_decide_has_candidate_for(d, NULL, exclude, n_exclude);
}

bool kvr_decide_has_candidate_for(const kvr_decider_t *d, const char *model,
                                  const uint32_t *exclude, size_t n_exclude)
{
    for (uint32_t i = 0; i < d->engines.n_slots; i++) {
        const kvr_engine_t *e = d->engines.engines[i];
        if (kvr_engine_is_candidate(e) && kvr_engine_serves(e, model) &&
            !excluded(e->index, exclude, n_exclude))
            return true;
    }
    return false;
}

bool kvr_decide_has_role_candidate(const kvr_decider_t *d, const char *model, uint8_t role,
                                   const uint32_t *exclude, size_t n_exclude)
{
    for (uint32_t i = 0; i < d->engines.n_slots; i++) {
        const kvr_engine_t *e = d->engines.engines[i];
        if (kvr_engine_is_candidate(e) && e->role == role && kvr_engine_serves(e, model) &&
            !excluded(e->index, exclude, n_exclude))
            return true;
    }
    return false;
}

kvr_pool_t kvr_decide_resolve_model(const kvr_decider_t *d, const char *model, char *resolved,
                                    size_t cap)
{
    if (cap)
        resolved[0] = '\0';
    bool any_unlisted = false;
    const char *only = NULL;
    for (uint32_t i = 0; i < d->engines.n_slots; i++) {
        const kvr_engine_t *e = d->engines.engines[i];
        if (!e || e->removed)
            continue;
        if (e->models.n == 0) {
            any_unlisted = true;
            continue;
        }
        if (model) {
            if (kvr_model_list_has(&e->models, model))
                return KVR_POOL_LISTED;
            continue;
        }
        for (size_t m = 0; m < e->models.n; m++) {
            if (!only)
                only = e->models.names[m];
            else if (strcmp(only, e->models.names[m]) != 0)
                return KVR_POOL_AMBIGUOUS;
        }
    }
    if (model)
        return any_unlisted ? KVR_POOL_UNLISTED : KVR_POOL_UNKNOWN;
    if (!only)
        return KVR_POOL_ANY;
    snprintf(resolved, cap, "%s", only);
    return KVR_POOL_LISTED;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t kvr_decide_served_models(const kvr_decider_t *d, const char **out, size_t cap)
{
    size_t total = 0;
    for (uint32_t i = 0; i < d->engines.n_slots; i++) {
        const kvr_engine_t *e = d->engines.engines[i];
        if (e && !e->removed)
            total += e->models.n;
    }
    if (total == 0)
        return 0;
    const char **all = kvr_xmalloc(total * sizeof *all);
    size_t n = 0;
    for (uint32_t i = 0; i < d->engines.n_slots; i++) {
        const kvr_engine_t *e = d->engines.engines[i];
        for (size_t m = 0; e && !e->removed && m < e->models.n; m++)
            all[n++] = e->models.names[m];
    }
    qsort(all, n, sizeof *all, compare_names);
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && strcmp(all[i], all[i - 1]) == 0)
            continue;
        if (distinct < cap)
            out[distinct] = all[i];
        distinct++;
    }
    free(all);
    return distinct;
}

/*
 * One pool's keys are not another's: a prefix cached for model A is no hit
 * for model B, nor is a session's pin. The model is folded into each block
 * hash (equal hashes still mean equal text up to that block, now within
 * one model) and into the session id, so the prefix index, the session
 * table and the share ring key by pool without knowing of pools.
 */
static const kvr_route_request_t *pool_request(kvr_decider_t *d, const kvr_route_request_t *req,
                                               kvr_route_request_t *pooled)
{
    if (!req->model)
        return req;
    *pooled = *req;
    uint64_t seed = XXH3_64bits(req->model, strlen(req->model));
    if (req->n_blocks > 0) {
        if (req->n_blocks > d->pool_hashes_cap) {
            free(d->pool_hashes);
            d->pool_hashes = kvr_xmalloc(req->n_blocks * sizeof *d->pool_hashes);
            d->pool_hashes_cap = req->n_blocks;
        }
        for (size_t i = 0; i < req->n_blocks; i++)
            d->pool_hashes[i] = XXH3_64bits_withSeed(&req->block_hashes[i],
                                                     sizeof req->block_hashes[i], seed);
        pooled->block_hashes = d->pool_hashes;
    }
    if (req->session_id) {
        size_t need = strlen(req->model) + strlen(req->session_id) + 24;
        if (need > d->pool_session_cap) {
            free(d->pool_session);
            d->pool_session = kvr_xmalloc(need);
            d->pool_session_cap = need;
        }
        /* The length prefix keeps ("a/b", "c") and ("a", "b/c") apart. */
        snprintf(d->pool_session, need, "%zu:%s/%s", strlen(req->model), req->model,
                 req->session_id);
        pooled->session_id = d->pool_session;
    }
    return pooled;
}

static int find_view(const kvr_engine_view_t *views, size_t n, uint32_t engine)
{
    for (size_t i = 0; i < n; i++)
        if (views[i].index == engine)
            return (int)i;
    return -1;
}

/* Another router's placement, learnt as if this router had made it. */
static void share_apply_prefix(void *ctx, const uint64_t *blocks, size_t n, uint32_t engine,
                               uint64_t now_ns)
{
    kvr_decider_t *d = ctx;
    if (!d->policy->on_dispatch)
        return;
    kvr_route_request_t placed = {.block_hashes = blocks, .n_blocks = n, .now_ns = now_ns};
    d->policy->on_dispatch(d->policy_state, &placed, engine);
}

/* A pin another router made after ours (or where we have none) is the session's pin here too. */
static kvr_session_t *share_pin(kvr_decider_t *d, const kvr_route_request_t *req,
                                kvr_session_t *pin)
{
    uint32_t engine, generation;
    if (!kvr_share_pin_lookup(d->share, req->session_id, pin ? pin->placed_ns : 0, req->now_ns,
                              d->sessions.ttl_ns, &engine, &generation))
        return pin;
    if (pin && pin->engine == engine)
        return pin;
    if (!kvr_engine_table_lookup(&d->engines, engine, generation))
        return pin; /* read for an engine whose index was freed since */
    d->share->pins_applied_total++;
    return kvr_sessions_pin(&d->sessions, req->session_id, engine, req->now_ns);
}

void kvr_decide_share_tick(kvr_decider_t *d, uint64_t now_ns)
{
    if (!d->share)
        return;
    kvr_share_apply_t apply = {.prefix = share_apply_prefix, .ctx = d};
    kvr_share_tick(d->share, &d->engines, now_ns, &apply);
}

/*
 * One decision's working state, handed from step to step of kvr_decide_route:
 * the candidates' views, the session pin and what becomes of it, and the
 * policy's (or the pin's) choice.
 */
typedef struct route_step_s {
    kvr_decider_t *d;
    const kvr_route_request_t *req; /* keyed by pool (pool_request) */
    kvr_engine_view_t *views;
    size_t n;
    bool oneshot; /* oneshot placement and a session id: the pin is consulted */
    bool before;  /* admission before routing (the peer gateway's order) */
    bool gated;   /* admit_before judged the base rule's engine */
    kvr_session_t *pin;
    kvr_decide_pin_t place;
    kvr_route_decision_t dec;
} route_step_t;

/* Every healthy candidate serving the model and not excluded gets a view; false: none (503). */
static bool route_views(route_step_t *st, const uint32_t *exclude, size_t n_exclude,
                        kvr_decide_result_t *out)
{
    kvr_decider_t *d = st->d;
    for (uint32_t i = 0; i < d->engines.n_slots; i++) {
        kvr_engine_t *e = d->engines.engines[i];
        if (!kvr_engine_is_candidate(e) || e->role != st->req->role ||
            !kvr_engine_serves(e, st->req->model) || excluded(e->index, exclude, n_exclude))
            continue;
        d->states[st->n] = kvr_feed_view(&d->feed, e, st->req->now_ns, true, &st->views[st->n]);
        st->n++;
    }
    if (st->n > 0) {
        kvr_feed_mark_herd(&d->feed, st->views, st->n);
        /* After every change to the views: the policies read these for them. */
        for (size_t v = 0; v < st->n; v++)
            kvr_engine_columns_set(&d->columns, v, &st->views[v]);
        return true;
    }
    out->status = 503;
    out->reason = "no_candidate";
    return false;
}

/* The pin's engine carries more than --migrate-load, or the policy's own rule says re-home. */
static bool route_migrate_due(const route_step_t *st, size_t v)
{
    const kvr_decider_t *d = st->d;
    return (d->cfg.migrate_load > 0 && st->views[v].eff_requests > d->cfg.migrate_load &&
            st->n > 1) ||
           kvr_policy_migrate_due(&d->cfg.policy_config, st->views, st->n, v);
}

/*
 * Oneshot: the session's pin (ours, or a later one another router made)
 * serves the request unless its engine is no candidate (replaced) or is
 * overloaded (migrated); a session with no pin is placed new.
 */
static void route_pinned(route_step_t *st, kvr_decide_result_t *out)
{
    kvr_decider_t *d = st->d;
    st->place = KVR_DECIDE_PIN_NEW;
    st->pin = st->oneshot ? kvr_sessions_get(&d->sessions, st->req->session_id, st->req->now_ns)
                          : NULL;
    if (st->oneshot && d->share)
        st->pin = share_pin(d, st->req, st->pin);
    if (!st->pin)
        return;
    int v = find_view(st->views, st->n, st->pin->engine);
    if (v < 0) {
        st->place = KVR_DECIDE_PIN_REPLACED; /* the pin is down, removed, or failed this request */
    } else if (route_migrate_due(st, (size_t)v)) {
        st->place = KVR_DECIDE_PIN_MIGRATED;
    } else {
        st->dec.view = v;
        st->dec.reason = "sticky_pin";
        out->pinned = true;
    }
}

/* The policy deciding req: --pd-decode-policy's for a disaggregated decode, else --policy's. */
static const kvr_policy_ops_t *req_policy(const kvr_decider_t *d, const kvr_route_request_t *req,
                                          void **state)
{
    if (d->decode_policy && req->role == KVR_ENGINE_ROLE_DECODE) {
        *state = d->decode_policy_state;
        return d->decode_policy;
    }
    *state = d->policy_state;
    return d->policy;
}

/*
 * The peer gateway's order: the base rule's engine is judged before the
 * policy runs. False when it was rejected (429, nothing charged).
 */
static bool admit_before(route_step_t *st, kvr_decide_result_t *out)
{
    kvr_decider_t *d = st->d;
    void *state;
    const kvr_policy_ops_t *policy = req_policy(d, st->req, &state);
    if (!st->before || !policy->base_pick)
        return true;
    kvr_route_decision_t base = {.view = -1, .reason = NULL};
    policy->base_pick(state, st->req, st->views, st->n, &base);
    if (base.view < 0 || (size_t)base.view >= st->n)
        return true;
    st->gated = true;
    if (kvr_admission_gate(d->admission, &st->views[base.view]) != KVR_ADMIT_REJECT)
        return true;
    out->status = 429;
    out->reason = "admission_reject";
    out->view = st->views[base.view];
    return false;
}

/* The policy's choice among the views; false when it chose none (503). */
static bool pick(route_step_t *st, kvr_decide_result_t *out)
{
    void *state;
    const kvr_policy_ops_t *policy = req_policy(st->d, st->req, &state);
    policy->pick(state, st->req, st->views, st->n, &st->dec);
    if (st->dec.view >= 0 && (size_t)st->dec.view < st->n)
        return true;
    out->status = 503;
    out->reason = st->dec.reason ? st->dec.reason : "no_candidate";
    return false;
}

/* A migration the policy sends back to the pin's own engine: nobody is better off than the pin, stay. */
static void route_migrate(route_step_t *st, kvr_decide_result_t *out)
{
    if (st->place != KVR_DECIDE_PIN_MIGRATED || st->views[st->dec.view].index != st->pin->engine)
        return;
    st->place = KVR_DECIDE_PIN_NEW;
    st->dec.reason = "sticky_pin";
    out->pinned = true;
    st->pin = NULL;
}

/*
 * Admission of the chosen engine: in kvroute's order (after) with the other
 * candidates in sight and seeding leases; in the peer gateway's order the
 * engine alone, unless admit_before judged one already. False when rejected.
 */
static bool admit_after(route_step_t *st, kvr_decide_result_t *out)
{
    kvr_decider_t *d = st->d;
    kvr_admission_verdict_t verdict;
    if (!st->before)
        verdict = kvr_admission_decide(d->admission, st->views, st->n, &st->dec);
    else if (!st->gated)
        verdict = kvr_admission_gate(
            d->admission, &st->views[st->dec.view]); /* a pin, or a policy with no base rule */
    else
        verdict = KVR_ADMIT;
    if (verdict == KVR_ADMIT_REJECT) {
        out->status = 429;
        out->reason = "admission_reject";
        out->view = st->views[st->dec.view >= 0 ? st->dec.view : 0];
        return false;
    }
    out->seed_lease = verdict == KVR_ADMIT_SEED_LEASE;
    return true;
}

/* Oneshot: a new placement becomes the session's pin (shared with --share); a kept pin is touched. */
static void route_pin_session(route_step_t *st, kvr_decide_result_t *out)
{
    kvr_decider_t *d = st->d;
    const kvr_route_request_t *req = st->req;
    if (!st->oneshot)
        return;
    if (!out->pinned) {
        kvr_sessions_pin(&d->sessions, req->session_id, st->views[st->dec.view].index, req->now_ns);
        out->pin = st->place;
        if (d->share)
            kvr_share_place_pin(d->share, d->engines.engines[st->views[st->dec.view].index],
                                req->session_id, req->now_ns);
    } else {
        kvr_session_t *s = kvr_sessions_get(&d->sessions, req->session_id, req->now_ns);
        if (s)
            kvr_sessions_touch(&d->sessions, s, req->now_ns);
    }
}

/* The chosen engine is charged, the other routers and the policy told of the dispatch. */
static void route_dispatch(route_step_t *st, kvr_charge_t *charge, kvr_decide_result_t *out)
{
    kvr_decider_t *d = st->d;
    const kvr_route_request_t *req = st->req;
    kvr_engine_t *e = d->engines.engines[st->views[st->dec.view].index];
    out->engine = e;
    out->reason = st->dec.reason ? st->dec.reason : "unlabelled";
    out->prefix_match_blocks = st->dec.prefix_match_blocks;
    out->view = st->views[st->dec.view];
    out->feed_state = d->states[st->dec.view];
    out->match_from = kvr_cache_state_from(&d->cache, (size_t)st->dec.view);
    out->n_matches = d->cache.n_deepest;
    memcpy(out->matches, d->cache.deepest, d->cache.n_deepest * sizeof out->matches[0]);
    kvr_charge_begin(charge, e, req->prompt_tokens);
    uint64_t cached = (uint64_t)st->dec.prefix_match_blocks * KVR_ROUTE_BLOCK_TOKENS(req);
    charge->sent_ns = kvr_feed_note_sent(
        &d->feed, e, req->now_ns, req->prompt_tokens > cached ? req->prompt_tokens - cached : 0);
    charge->seed_lease = out->seed_lease;
    if (d->share) {
        /* At once, not at the loop turn's end: a burst reaching every router together must see it. */
        kvr_share_publish(d->share, &d->engines, req->now_ns);
        kvr_share_place_prefix(d->share, e, req->block_hashes, req->n_blocks, req->now_ns);
    }
    void *state;
    const kvr_policy_ops_t *policy = req_policy(d, req, &state);
    if (policy->on_dispatch)
        policy->on_dispatch(state, req, e->index);
}

void kvr_decide_route(kvr_decider_t *d, const kvr_route_request_t *given, const uint32_t *exclude,
                      size_t n_exclude, kvr_charge_t *charge, kvr_decide_result_t *out)
{
    kvr_route_request_t pooled, with_core;
    route_step_t st = {
        .d = d,
        .req = pool_request(d, given, &pooled),
        .views = d->views,
        .before = d->cfg.admission_order == KVR_ADMISSION_BEFORE,
        .dec = {.view = -1, .reason = NULL},
    };
    memset(out, 0, sizeof *out);
    out->prompt_tokens = given->prompt_tokens;
    out->prompt_tokens_exact = given->prompt_tokens_exact;
    kvr_cache_state_begin(&d->cache);
    with_core = *st.req;
    with_core.columns = &d->columns;         /* filled with the views (route_views) */
    if (kvr_cache_state_source(&d->cache)) { /* the policies' match step reads it (indexed.c) */
        with_core.match_source = kvr_cache_state_source(&d->cache);
        /* The chain as the engines' events name it: the given one, not folded with the model. */
        with_core.token_hashes = given->token_blocks ? given->block_hashes : NULL;
        with_core.n_token_blocks = given->token_blocks ? given->n_blocks : 0;
    }
    st.req = &with_core;
    st.oneshot = d->cfg.placement == KVR_PLACEMENT_ONESHOT && st.req->session_id;
    out->placement = d->cfg.placement == KVR_PLACEMENT_ONESHOT ? "oneshot" : "per-request";
    reclaim_engines(d);
    kvr_feed_refresh(&d->feed, st.req->now_ns);
    if (d->share) {
        kvr_share_apply_t apply = {.prefix = share_apply_prefix, .ctx = d};
        kvr_share_sync(d->share, &d->engines, st.req->now_ns, &apply);
    }
    if (!route_views(&st, exclude, n_exclude, out))
        return;
    route_pinned(&st, out);
    if (st.dec.view < 0) {
        if (!admit_before(&st, out) || !pick(&st, out))
            return;
        route_migrate(&st, out);
    }
    out->pressure_fallback = (st.dec.flags & KVR_DECISION_PRESSURE_FALLBACK) != 0;
    out->input_clamped = (st.dec.flags & KVR_DECISION_INPUT_CLAMPED) != 0;
    if (!admit_after(&st, out))
        return;
    route_pin_session(&st, out);
    route_dispatch(&st, charge, out);
}

void kvr_decide_release(kvr_decider_t *d, kvr_charge_t *charge)
{
    kvr_decide_release_at(d, charge, kvr_clock_now_ns());
}

void kvr_decide_release_at(kvr_decider_t *d, kvr_charge_t *charge, uint64_t now_ns)
{
    kvr_engine_t *e = charge->engine;
    if (e && charge->seed_lease)
        kvr_admission_release_lease(d->admission, e->index);
    charge->seed_lease = false;
    if (e)
        kvr_feed_note_end(&d->feed, e, charge->sent_ns, charge->kv_tokens, now_ns);
    kvr_charge_end(charge);
    if (e && e->removed && e->shadow_requests == 0)
        d->reclaim_due =
            true; /* freed at the next add, decision or housekeeping: the caller still reads e */
}

bool kvr_decide_engine_failed(kvr_decider_t *d, kvr_engine_t *e, const char *why, uint64_t now_ns)
{
    e->failures_total++;
    e->consecutive_failures++;
    if (!e->healthy || e->consecutive_failures < d->cfg.fail_threshold)
        return false;
    e->healthy = false;
    e->down_since_ns = now_ns;
    KVR_WARN("engine_down engine=%s why=%s failures=%u", e->id, why, e->consecutive_failures);
    return true;
}

void kvr_decide_first_byte(kvr_decider_t *d, const kvr_route_request_t *req,
                           const kvr_decide_result_t *res, uint64_t now_ns)
{
    if (!d->policy->on_first_byte || !res->engine)
        return;
    uint64_t cached = (uint64_t)res->prefix_match_blocks * KVR_ROUTE_BLOCK_TOKENS(req);
    kvr_first_byte_t fb = {
        .engine_index = res->engine->index,
        .prompt_tokens = req->prompt_tokens,
        .uncached_tokens = req->prompt_tokens > cached ? req->prompt_tokens - cached : 0,
        .queued_prefill_tokens = res->view.eff_pending_prefill_tokens,
        .running = res->view.eff_running,
        .waiting = res->view.eff_waiting,
        .max_running = res->view.max_running,
        .ttft_ns = now_ns > req->now_ns ? now_ns - req->now_ns : 0,
    };
    d->policy->on_first_byte(d->policy_state, &fb);
}

void kvr_decide_engine_ok(kvr_decider_t *d, kvr_engine_t *e, uint64_t now_ns)
{
    (void)d;
    e->consecutive_failures = 0;
    if (!e->healthy && !e->removed) {
        e->healthy = true;
        KVR_INFO("engine_up engine=%s down_ms=%llu", e->id,
                 (unsigned long long)(kvr_clock_age_ns(now_ns, e->down_since_ns) / KVR_NS_PER_MS));
    }
}

size_t kvr_decide_expire_sessions(kvr_decider_t *d, uint64_t now_ns)
{
    reclaim_engines(d);
    return kvr_sessions_expire(&d->sessions, now_ns);
}

void kvr_decide_refresh_feed(kvr_decider_t *d, uint64_t now_ns)
{
    kvr_feed_refresh(&d->feed, now_ns);
}

kvr_feed_state_t kvr_decide_view(kvr_decider_t *d, kvr_engine_t *e, uint64_t now_ns,
                                 kvr_engine_view_t *view)
{
    return kvr_feed_view(&d->feed, e, now_ns, false, view);
}

/*
 * One line per request, so it is written straight into the stdio buffer: no
 * document is built. Strings go through kvr_json_put_string; the key order
 * and the number types are the decision log's format (router/README.md).
 */
void kvr_decide_log(const kvr_decider_t *d, FILE *f, const char *request_id, const char *session_id,
                    const kvr_decide_result_t *res, int status, uint32_t attempt, uint64_t ts_ms)
{
    const kvr_engine_view_t *v = &res->view;
    fputs("{\"request_id\":", f);
    kvr_json_put_string(f, request_id);
    fputs(",\"session\":", f);
    kvr_json_put_string(f, session_id);
    fputs(",\"policy\":", f);
    kvr_json_put_string(f, d->cfg.policy);
    fputs(",\"placement\":", f);
    kvr_json_put_string(f, res->placement ? res->placement : "");
    fputs(",\"engine\":", f);
    kvr_json_put_string(f, res->engine ? res->engine->id : NULL);
    if (res->prefill_engine) {
        fputs(",\"prefill_engine\":", f);
        kvr_json_put_string(f, res->prefill_engine);
    }
    fputs(",\"reason\":", f);
    kvr_json_put_string(f, res->reason ? res->reason : "");
    fprintf(f,
            ",\"status\":%d,\"attempt\":%d,\"pinned\":%s,\"es\":%s,\"eff\":{\"requests\":%" PRIu32
            ",\"running\":%" PRIu32 ",\"waiting\":%" PRIu32 ",\"pending_prefill_tokens\":%" PRIu64
            ",\"kv_tokens\":%" PRIu64 "},\"shadow_requests\":%" PRIu32
            ",\"sent_since_sample\":%" PRIu32 ",\"feed\":",
            status, (int)attempt, res->pinned ? "true" : "false", d->cfg.es ? "true" : "false",
            v->eff_requests, v->eff_running, v->eff_waiting, v->eff_pending_prefill_tokens,
            v->eff_kv_tokens, v->shadow_requests, v->sent_since_requests);
    kvr_json_put_string(f, d->cfg.es ? kvr_feed_state_name(res->feed_state) : "off");
    char real[KVR_JSON_REAL_MAX];
    fprintf(f,
            ",\"feed_age_ms\":%s,\"prefix_match_blocks\":%" PRIu32 ",\"prompt_tokens\":%" PRIu32
            ",\"prompt_tokens_exact\":%s,\"match_source\":\"%s\"",
            v->feed_fresh || v->feed_age_ns
                ? kvr_json_format_real(real, (double)v->feed_age_ns / 1e6)
                : "null",
            res->prefix_match_blocks, res->prompt_tokens,
            res->prompt_tokens_exact ? "true" : "false", kvr_match_from_name(res->match_from));
    /* The deepest candidates' matches and where each came from (--cache-state). */
    fputs(",\"matches\":[", f);
    for (size_t i = 0; i < res->n_matches && i < KVR_CACHE_LOG_MATCHES; i++) {
        const kvr_cache_match_t *m = &res->matches[i];
        const kvr_engine_t *e = kvr_engine_table_lookup(&d->engines, m->engine_index,
                                                        m->engine_generation);
        fputs(i ? ",{\"engine\":" : "{\"engine\":", f);
        kvr_json_put_string(f, e ? e->id : NULL);
        fprintf(f, ",\"blocks\":%" PRIu32 ",\"source\":\"%s\"}", m->blocks,
                kvr_match_from_name((kvr_match_from_t)m->from));
    }
    fprintf(f, "],\"seed_lease\":%s,\"ts_ms\":%" PRIu64 "}\n", res->seed_lease ? "true" : "false",
            ts_ms);
    fflush(f); /* one line per request, readable while running */
}
