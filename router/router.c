/* SPDX-License-Identifier: Apache-2.0 */
#include "router/router.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/json_text.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "router/share.h"
#include "router/upstream.h"

/* Views are rebuilt per decision; one buffer for the whole table avoids a big stack frame. */
static kvr_engine_view_t *views_buf;
static kvr_feed_state_t *states_buf;

int kvr_router_add_engine(kvr_router_t *r, const char *url, kvr_engine_t **out)
{
    kvr_engine_t *e;
    int rc = kvr_engine_table_add(&r->engines, url, &e);
    if (rc < 0)
        return rc;
    if (!e->pool) {
        rc = kvr_upstream_pool_create(r->loop, (const struct sockaddr *)&e->addr, e->addr_len, e->host,
                                      r->cfg.keepalive_per_engine, (kvr_upstream_pool_t **)&e->pool);
        if (rc < 0) {
            kvr_engine_table_remove(&r->engines, e);
            return rc;
        }
    }
    KVR_INFO("engine_added engine=%s index=%u", e->id, e->index);
    if (out)
        *out = e;
    return 0;
}

void kvr_router_remove_engine(kvr_router_t *r, kvr_engine_t *e)
{
    if (e->removed)
        return;
    kvr_engine_table_remove(&r->engines, e);
    kvr_upstream_pool_flush(e->pool);
    if (r->policy->on_engine_removed)
        r->policy->on_engine_removed(r->policy_state, e->index);
    KVR_INFO("engine_removed engine=%s index=%u in_flight=%u", e->id, e->index, e->shadow_requests);
}

int kvr_router_init(kvr_router_t *r, uv_loop_t *loop, kvr_router_config_t *cfg)
{
    kvr_keys_init(); /* cJSON's hooks are set before any thread parses or prints */
    memset(r, 0, sizeof *r);
    r->loop = loop;
    r->cfg = *cfg;
    memset(cfg, 0, sizeof *cfg); /* the engine strings moved with it */
    r->id_prefix = ((uint64_t)getpid() << 32) ^ kvr_clock_wall_ns();
    kvr_engine_table_init(&r->engines);
    int rc = -ENOMEM;
    if (!views_buf) {
        views_buf = calloc(KVR_MAX_ENGINES, sizeof *views_buf);
        states_buf = calloc(KVR_MAX_ENGINES, sizeof *states_buf);
        if (!views_buf || !states_buf)
            goto fail_views;
    }
    rc = kvr_router_metrics_init(&r->metrics);
    if (rc < 0)
        goto fail_views;
    rc = kvr_sessions_init(&r->sessions, r->cfg.session_ttl_s * KVR_NS_PER_SEC, r->cfg.max_sessions);
    if (rc < 0)
        goto fail_metrics;
    r->policy = kvr_policy_find(r->cfg.policy);
    if (!r->policy) {
        rc = -EINVAL;
        KVR_ERROR("policy_unknown policy=%s", r->cfg.policy);
        goto fail_sessions;
    }
    rc = r->policy->create(&r->cfg.policy_config, &r->policy_state);
    if (rc < 0) {
        KVR_ERROR("policy_create_failed policy=%s error=\"%s\"", r->cfg.policy, kvr_strerror(rc));
        goto fail_sessions;
    }
    rc = kvr_admission_create(r->cfg.admission, r->cfg.max_waiting, &r->admission);
    if (rc < 0)
        goto fail_policy;
    if (r->cfg.decision_log[0]) {
        r->decision_log = fopen(r->cfg.decision_log, "a");
        if (!r->decision_log) {
            rc = -errno;
            KVR_ERROR("decision_log_open_failed path=%s error=\"%s\"", r->cfg.decision_log, strerror(errno));
            goto fail_admission;
        }
    }
    /* ES=0 builds the reader disabled: it never opens the segment. */
    kvr_feed_init(&r->feed, r->cfg.es, r->cfg.shm_name, r->cfg.max_age_ms * KVR_NS_PER_MS);
    r->feed.owner_uid = (uid_t)r->cfg.shm_owner_uid;
    if (r->cfg.share_name[0]) {
        char label[96]; /* kvr_share_init keeps what fits a row's label */
        snprintf(label, sizeof label, "%s:%d", r->cfg.listen_host, r->cfg.listen_port);
        r->share = calloc(1, sizeof *r->share);
        rc = r->share ? kvr_share_init(r->share, r->cfg.share_name, label,
                                       r->cfg.share_max_age_ms * KVR_NS_PER_MS, kvr_clock_now_ns())
                      : -ENOMEM;
        if (rc < 0)
            goto fail_engines;
    }
    for (size_t i = 0; i < r->cfg.n_engines; i++) {
        rc = kvr_router_add_engine(r, r->cfg.engines[i], NULL);
        if (rc < 0) {
            KVR_ERROR("engine_invalid engine=%s error=\"%s\"", r->cfg.engines[i], kvr_strerror(rc));
            goto fail_engines;
        }
    }
    return 0;

fail_engines:
    if (r->share) {
        kvr_share_close(r->share);
        free(r->share);
        r->share = NULL;
    }
    for (uint32_t i = 0; i < r->engines.n_slots; i++)
        kvr_upstream_pool_destroy(r->engines.engines[i]->pool);
    kvr_engine_table_close(&r->engines);
    if (r->decision_log)
        fclose(r->decision_log);
fail_admission:
    kvr_admission_destroy(r->admission);
fail_policy:
    r->policy->destroy(r->policy_state);
fail_sessions:
    kvr_sessions_close(&r->sessions);
fail_metrics:
    kvr_router_metrics_close(&r->metrics);
fail_views:
    kvr_router_config_free(&r->cfg);
    return rc;
}

void kvr_router_close(kvr_router_t *r)
{
    for (uint32_t i = 0; i < r->engines.n_slots; i++) {
        kvr_upstream_pool_destroy(r->engines.engines[i]->pool);
        r->engines.engines[i]->pool = NULL;
    }
    if (r->share) {
        kvr_share_close(r->share);
        free(r->share);
        r->share = NULL;
    }
    kvr_engine_table_close(&r->engines);
    kvr_feed_close(&r->feed);
    if (r->decision_log)
        fclose(r->decision_log);
    kvr_admission_destroy(r->admission);
    r->policy->destroy(r->policy_state);
    kvr_sessions_close(&r->sessions);
    kvr_router_metrics_close(&r->metrics);
    kvr_router_config_free(&r->cfg);
}

static bool excluded(uint32_t index, const uint32_t *exclude, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (exclude[i] == index)
            return true;
    return false;
}

bool kvr_router_has_candidate(const kvr_router_t *r, const uint32_t *exclude, size_t n_exclude)
{
    for (uint32_t i = 0; i < r->engines.n_slots; i++) {
        const kvr_engine_t *e = r->engines.engines[i];
        if (kvr_engine_is_candidate(e) && !excluded(e->index, exclude, n_exclude))
            return true;
    }
    return false;
}

static int find_view(const kvr_engine_view_t *views, size_t n, uint32_t engine)
{
    for (size_t i = 0; i < n; i++)
        if (views[i].index == engine)
            return (int)i;
    return -1;
}

/* Another router's placement, learnt as if this router had made it. */
static void share_apply_prefix(void *ctx, const uint64_t *blocks, size_t n, uint32_t engine, uint64_t now_ns)
{
    kvr_router_t *r = ctx;
    if (!r->policy->on_dispatch)
        return;
    kvr_route_request_t placed = {.block_hashes = blocks, .n_blocks = n, .now_ns = now_ns};
    r->policy->on_dispatch(r->policy_state, &placed, engine);
}

/* A pin another router made after ours (or where we have none) is the session's pin here too. */
static kvr_session_t *share_pin(kvr_router_t *r, const kvr_route_request_t *req, kvr_session_t *pin)
{
    uint32_t engine;
    if (!kvr_share_pin_lookup(r->share, req->session_id, pin ? pin->placed_ns : 0, req->now_ns,
                              r->cfg.session_ttl_s * KVR_NS_PER_SEC, &engine))
        return pin;
    if (pin && pin->engine == engine)
        return pin;
    if (!kvr_engine_table_get(&r->engines, engine))
        return pin;
    r->share->pins_applied_total++;
    return kvr_sessions_pin(&r->sessions, req->session_id, engine, req->now_ns);
}

void kvr_router_route(kvr_router_t *r, const kvr_route_request_t *req, const uint32_t *exclude,
                      size_t n_exclude, kvr_charge_t *charge, kvr_route_result_t *out)
{
    memset(out, 0, sizeof *out);
    bool oneshot = r->cfg.placement == KVR_PLACEMENT_ONESHOT && req->session_id;
    out->placement = kvr_placement_name(r->cfg.placement);
    kvr_feed_refresh(&r->feed, req->now_ns);
    if (r->share) {
        kvr_share_apply_t apply = {.prefix = share_apply_prefix, .ctx = r};
        kvr_share_sync(r->share, &r->engines, req->now_ns, &apply);
    }

    size_t n = 0;
    for (uint32_t i = 0; i < r->engines.n_slots; i++) {
        kvr_engine_t *e = r->engines.engines[i];
        if (!kvr_engine_is_candidate(e) || excluded(e->index, exclude, n_exclude))
            continue;
        states_buf[n] = kvr_feed_view(&r->feed, e, req->now_ns, true, &views_buf[n]);
        n++;
    }
    if (n == 0) {
        out->status = 503;
        out->reason = "no_candidate";
        r->metrics.no_candidate_total++;
        return;
    }

    kvr_route_decision_t d = {.view = -1, .reason = NULL};
    kvr_session_t *pin = oneshot ? kvr_sessions_get(&r->sessions, req->session_id, req->now_ns) : NULL;
    if (oneshot && r->share)
        pin = share_pin(r, req, pin);
    enum { PLACE_NEW, PLACE_REPLACED, PLACE_MIGRATED } place = PLACE_NEW;
    if (pin) {
        int v = find_view(views_buf, n, pin->engine);
        if (v < 0) {
            place = PLACE_REPLACED; /* the pin is down, removed, or failed this request */
        } else if ((r->cfg.migrate_load > 0 && views_buf[v].eff_requests > r->cfg.migrate_load && n > 1) ||
                   kvr_policy_migrate_due(&r->cfg.policy_config, views_buf, n, (size_t)v)) {
            place = PLACE_MIGRATED;
        } else {
            d.view = v;
            d.reason = "sticky_pin";
            out->pinned = true;
        }
    }
    if (d.view < 0) {
        r->policy->pick(r->policy_state, req, views_buf, n, &d);
        if (d.view < 0 || (size_t)d.view >= n) {
            out->status = 503;
            out->reason = d.reason ? d.reason : "no_candidate";
            r->metrics.no_candidate_total++;
            return;
        }
        if (place == PLACE_MIGRATED && views_buf[d.view].index == pin->engine) {
            /* Nobody is better off than the pin: stay. */
            place = PLACE_NEW;
            d.reason = "sticky_pin";
            out->pinned = true;
            pin = NULL;
        }
    }
    if (d.flags & KVR_DECISION_PRESSURE_FALLBACK)
        r->metrics.pressure_fallback_total++;

    kvr_admission_verdict_t verdict = kvr_admission_decide(r->admission, views_buf, n, &d);
    if (verdict == KVR_ADMIT_REJECT) {
        out->status = 429;
        out->reason = "admission_reject";
        out->view = views_buf[d.view >= 0 ? d.view : 0];
        return;
    }
    out->seed_lease = verdict == KVR_ADMIT_SEED_LEASE;

    if (oneshot && !out->pinned) {
        kvr_sessions_pin(&r->sessions, req->session_id, views_buf[d.view].index, req->now_ns);
        if (r->share)
            kvr_share_place_pin(r->share, r->engines.engines[views_buf[d.view].index], req->session_id,
                                req->now_ns);
        if (place == PLACE_REPLACED)
            r->metrics.sessions_replaced_total++;
        else if (place == PLACE_MIGRATED)
            r->metrics.sessions_migrated_total++;
        else
            r->metrics.sessions_placed_total++;
    } else if (oneshot) {
        kvr_session_t *s = kvr_sessions_get(&r->sessions, req->session_id, req->now_ns);
        if (s)
            kvr_sessions_touch(&r->sessions, s, req->now_ns);
    }

    kvr_engine_t *e = r->engines.engines[views_buf[d.view].index];
    out->engine = e;
    out->reason = d.reason ? d.reason : "unlabelled";
    out->prefix_match_blocks = d.prefix_match_blocks;
    out->view = views_buf[d.view];
    out->feed_state = states_buf[d.view];
    kvr_charge_begin(charge, e, req->prompt_tokens);
    if (r->share) {
        /* At once, not on the loop turn's end: a burst reaching every router together must see it. */
        kvr_share_publish(r->share, &r->engines, req->now_ns);
        kvr_share_place_prefix(r->share, e, req->block_hashes, req->n_blocks, req->now_ns);
    }
    if (r->policy->on_dispatch)
        r->policy->on_dispatch(r->policy_state, req, e->index);
    kvr_router_metrics_selection(&r->metrics, e->index, out->reason);
}

void kvr_router_engine_failed(kvr_router_t *r, kvr_engine_t *e, const char *why)
{
    e->failures_total++;
    e->consecutive_failures++;
    if (e->healthy && e->consecutive_failures >= r->cfg.fail_threshold) {
        e->healthy = false;
        e->down_since_ns = kvr_clock_now_ns();
        kvr_upstream_pool_flush(e->pool);
        KVR_WARN("engine_down engine=%s why=%s failures=%u", e->id, why, e->consecutive_failures);
    }
}

void kvr_router_engine_ok(kvr_router_t *r, kvr_engine_t *e)
{
    (void)r;
    e->consecutive_failures = 0;
    if (!e->healthy && !e->removed) {
        e->healthy = true;
        KVR_INFO("engine_up engine=%s down_ms=%llu", e->id,
                 (unsigned long long)(kvr_clock_age_ns(kvr_clock_now_ns(), e->down_since_ns) / KVR_NS_PER_MS));
    }
}

/*
 * One line per request, so it is written straight into the log's stdio
 * buffer: no document is built. Strings go through kvr_json_put_string; the
 * key order and the number types are the decision log's format (README).
 */
void kvr_router_log_decision(kvr_router_t *r, const char *request_id, const char *session_id,
                             const kvr_route_result_t *res, int status, uint32_t attempt)
{
    FILE *f = r->decision_log;
    if (!f)
        return;
    const kvr_engine_view_t *v = &res->view;
    fputs("{\"request_id\":", f);
    kvr_json_put_string(f, request_id);
    fputs(",\"session\":", f);
    kvr_json_put_string(f, session_id);
    fputs(",\"policy\":", f);
    kvr_json_put_string(f, r->cfg.policy);
    fputs(",\"placement\":", f);
    kvr_json_put_string(f, res->placement ? res->placement : "");
    fputs(",\"engine\":", f);
    kvr_json_put_string(f, res->engine ? res->engine->id : NULL);
    fputs(",\"reason\":", f);
    kvr_json_put_string(f, res->reason ? res->reason : "");
    fprintf(f,
            ",\"status\":%d,\"attempt\":%d,\"pinned\":%s,\"es\":%s,\"eff\":{\"requests\":%" PRIu32
            ",\"running\":%" PRIu32 ",\"waiting\":%" PRIu32 ",\"pending_prefill_tokens\":%" PRIu64
            ",\"kv_tokens\":%" PRIu64 "},\"shadow_requests\":%" PRIu32 ",\"feed\":",
            status, (int)attempt, res->pinned ? "true" : "false", r->cfg.es ? "true" : "false", v->eff_requests,
            v->eff_running, v->eff_waiting, v->eff_pending_prefill_tokens, v->eff_kv_tokens, v->shadow_requests);
    kvr_json_put_string(f, r->cfg.es ? kvr_feed_state_name(res->feed_state) : "off");
    char real[KVR_JSON_REAL_MAX];
    fprintf(f, ",\"feed_age_ms\":%s,\"prefix_match_blocks\":%" PRIu32 ",\"seed_lease\":%s,\"ts_ms\":%" PRIu64 "}\n",
            v->feed_fresh || v->feed_age_ns ? kvr_json_format_real(real, (double)v->feed_age_ns / 1e6) : "null",
            res->prefix_match_blocks, res->seed_lease ? "true" : "false",
            (uint64_t)(kvr_clock_wall_ns() / KVR_NS_PER_MS));
    fflush(f); /* one line per request, readable while running */
}
