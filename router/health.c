/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The router's periodic work: engine health checks (engines that fail leave
 * the candidate set and come back when they answer again), session expiry,
 * and with ES=0 the comparison of shadow counters against each engine's own
 * /metrics, the only view of real load a router without a feed has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/engine_metrics.h"
#include "common/error.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "router/fetch.h"
#include "router/health.h"
#include "router/share.h"
#include "router/upstream.h"

#define HOUSEKEEPING_MS 1000
#define HEALTH_TIMEOUT_MAX_MS 2000
/*
 * A check answered late is still an answer: checks of one engine never overlap, so the timeout
 * may outlast the period. Below a second, a loaded host's scheduling delay alone fails checks.
 */
#define HEALTH_TIMEOUT_MIN_MS 1000
#define REVIVE_WITHOUT_HEALTH_NS (5 * KVR_NS_PER_SEC)
#define METRICS_MAX_BODY (4u << 20)
#define MODELS_TIMEOUT_MS 5000
#define MODELS_MAX_BODY (1u << 20)

typedef struct check_ctx_s {
    struct kvr_health_s *checks;
    uint32_t index;
    uint32_t generation; /* an answer for an engine whose index was reused since is dropped */
} check_ctx_t;

struct kvr_health_s {
    kvr_health_env_t env;
    uv_timer_t health_timer;
    uv_timer_t housekeeping_timer; /* session expiry, ES=0 reconciliation */
    uv_prepare_t share_prepare;    /* publishes this router's row once per loop turn */
    uint64_t next_reconcile_ns;
    kvr_fetch_t *health[KVR_MAX_ENGINES];
    kvr_fetch_t *reconcile[KVR_MAX_ENGINES];
    kvr_fetch_t *models[KVR_MAX_ENGINES];
    check_ctx_t ctx[KVR_MAX_ENGINES];
    bool stopping;
    void (*closed)(void *ctx);
    void *closed_ctx;
    int open_handles;
};

static void on_health(void *arg, int status, const char *body, size_t len)
{
    check_ctx_t *c = arg;
    kvr_health_t *h = c->checks;
    (void)body;
    (void)len;
    c->checks->health[c->index] = NULL;
    kvr_engine_t *e = kvr_door_lookup(h->env.door, c->index, c->generation);
    if (!e || e->removed)
        return;
    if (status >= 200 && status < 300) {
        kvr_door_engine_ok(h->env.door, e);
    } else {
        KVR_DEBUG("health_failed engine=%s status=%d", e->id, status);
        kvr_door_engine_failed(h->env.door, e, "health");
    }
}

/* The engine's list as one log value: safe names, comma-separated, cut short when long. */
static const char *models_text(const kvr_model_list_t *l, char *out, size_t cap)
{
    size_t j = 0;
    out[0] = '\0';
    for (size_t i = 0; i < l->n && j + 1 < cap; i++) {
        char safe[KVR_MODEL_SAFE_MAX];
        int w = snprintf(out + j, cap - j, "%s%s", i ? "," : "",
                         kvr_model_name_safe(l->names[i], safe, sizeof safe));
        j = w < 0 || (size_t)w >= cap - j ? cap - 1 : j + (size_t)w;
    }
    return out;
}

/*
 * A failed or empty answer keeps the last known list: an engine that
 * served model A a moment ago most likely still does, and one that never
 * told stays a candidate for any model. Logged when the state changes.
 */
static void on_models(void *arg, int status, const char *body, size_t len)
{
    check_ctx_t *c = arg;
    kvr_health_t *h = c->checks;
    c->checks->models[c->index] = NULL;
    kvr_engine_t *e = kvr_door_lookup(h->env.door, c->index, c->generation);
    if (!e || e->removed || e->models_pinned)
        return;
    kvr_model_list_t list = {0};
    char err[160] = "";
    int rc;
    if (status < 0) {
        rc = status;
        snprintf(err, sizeof err, "%s", kvr_strerror(status));
    } else if (status < 200 || status >= 300) {
        rc = -EPROTO;
        snprintf(err, sizeof err, "status %d", status);
    } else {
        rc = kvr_models_parse(body, len, &list, err, sizeof err);
    }
    char text[512];
    if (rc < 0) {
        e->models_failures_total++;
        if (!e->models_failing)
            KVR_WARN("engine_models_failed engine=%s error=\"%s\" kept=\"%s\"", e->id, err,
                     models_text(&e->models, text, sizeof text));
        e->models_failing = true;
        return;
    }
    if (rc > 0) { /* ambiguous ids dropped: the rest is used, the answer counts as failing */
        e->models_failures_total++;
        if (!e->models_failing)
            KVR_WARN("engine_models_failed engine=%s error=\"%s\"", e->id, err);
        e->models_failing = true;
    } else {
        if (e->models_failing)
            KVR_INFO("engine_models_recovered engine=%s", e->id);
        e->models_failing = false;
        if (err[0])
            KVR_DEBUG("engine_models_partial engine=%s note=\"%s\"", e->id, err);
    }
    if (!kvr_model_list_equal(&e->models, &list)) {
        kvr_model_list_move(&e->models, &list);
        KVR_INFO("engine_models engine=%s n=%zu models=\"%s\"", e->id, e->models.n,
                 models_text(&e->models, text, sizeof text));
    }
    kvr_model_list_close(&list);
}

static void refresh_models(kvr_health_t *h)
{
    kvr_health_t *ch = h;
    const kvr_engine_table_t *t = kvr_door_engines(h->env.door);
    for (uint32_t i = 0; i < t->n_slots; i++) {
        kvr_engine_t *e = t->engines[i];
        if (!e || e->removed || e->models_pinned || ch->models[i])
            continue;
        ch->ctx[i] = (check_ctx_t){ch, i, e->generation};
        if (kvr_fetch(kvr_door_pool(h->env.door, e->index), "/v1/models", MODELS_TIMEOUT_MS,
                      MODELS_MAX_BODY, on_models, &ch->ctx[i], &ch->models[i]) < 0)
            ch->models[i] = NULL;
    }
}

static void on_health_timer(uv_timer_t *t)
{
    kvr_health_t *h = t->data;
    kvr_health_t *ch = h;
    const kvr_engine_table_t *tab = kvr_door_engines(h->env.door);
    uint64_t timeout = h->env.cfg->health_interval_ms < HEALTH_TIMEOUT_MAX_MS
                           ? h->env.cfg->health_interval_ms
                           : HEALTH_TIMEOUT_MAX_MS;
    if (timeout < HEALTH_TIMEOUT_MIN_MS)
        timeout = HEALTH_TIMEOUT_MIN_MS;
    for (uint32_t i = 0; i < tab->n_slots; i++) {
        kvr_engine_t *e = tab->engines[i];
        if (!e || e->removed || ch->health[i])
            continue;
        ch->ctx[i] = (check_ctx_t){ch, i, e->generation};
        if (kvr_fetch(kvr_door_pool(h->env.door, e->index), h->env.cfg->health_path, timeout,
                      64 * 1024, on_health, &ch->ctx[i], &ch->health[i]) < 0)
            ch->health[i] = NULL;
    }
    refresh_models(h);
}

static void on_reconcile(void *arg, int status, const char *body, size_t len)
{
    check_ctx_t *c = arg;
    kvr_health_t *h = c->checks;
    c->checks->reconcile[c->index] = NULL;
    kvr_engine_t *e = kvr_door_lookup(h->env.door, c->index, c->generation);
    if (!e || e->removed)
        return;
    kvr_engine_state_t st;
    memset(&st, 0, sizeof st);
    kvr_engine_kind_t kind;
    int rc = status == 200 ? kvr_engine_metrics_parse(body, len, &st, &kind, NULL)
                           : (status < 0 ? status : -EPROTO);
    if (rc < 0) {
        h->env.metrics->reconcile_failures_total++;
        KVR_DEBUG("reconcile_failed engine=%s error=\"%s\"", e->id, kvr_strerror(rc));
        return;
    }
    int64_t real = (int64_t)st.running + st.waiting;
    e->reconcile_drift = (int64_t)e->shadow_requests - real;
    e->reconciled_ns = kvr_clock_now_ns();
    h->env.metrics->reconcile_runs_total++;
    KVR_DEBUG("reconcile engine=%s kind=%s shadow_requests=%u real_requests=%lld drift=%lld", e->id,
              kvr_engine_kind_name(kind), e->shadow_requests, (long long)real,
              (long long)e->reconcile_drift);
}

static void reconcile_all(kvr_health_t *h)
{
    kvr_health_t *ch = h;
    const kvr_engine_table_t *t = kvr_door_engines(h->env.door);
    for (uint32_t i = 0; i < t->n_slots; i++) {
        kvr_engine_t *e = t->engines[i];
        if (!kvr_engine_is_candidate(e) || ch->reconcile[i])
            continue;
        ch->ctx[i] = (check_ctx_t){ch, i, e->generation};
        if (kvr_fetch(kvr_door_pool(h->env.door, e->index), "/metrics", 5000, METRICS_MAX_BODY,
                      on_reconcile, &ch->ctx[i], &ch->reconcile[i]) < 0)
            ch->reconcile[i] = NULL;
    }
}

static void on_housekeeping(uv_timer_t *t)
{
    kvr_health_t *h = t->data;
    const kvr_engine_table_t *tab = kvr_door_engines(h->env.door);
    uint64_t now = kvr_clock_now_ns();
    kvr_door_expire_sessions(h->env.door, now);
    if (h->env.cfg->health_interval_ms == 0) {
        /* Without health checks a failed engine gets another chance after a pause. */
        for (uint32_t i = 0; i < tab->n_slots; i++) {
            kvr_engine_t *e = tab->engines[i];
            if (e && !e->removed && !e->healthy &&
                now - e->down_since_ns > REVIVE_WITHOUT_HEALTH_NS)
                kvr_door_engine_ok(h->env.door, e);
        }
    }
    kvr_door_share_tick(h->env.door, now);
    if (!h->env.cfg->es && h->env.cfg->reconcile_s > 0 && now >= h->next_reconcile_ns) {
        h->next_reconcile_ns = now + h->env.cfg->reconcile_s * KVR_NS_PER_SEC;
        reconcile_all(h);
    }
}

static void on_share_prepare(uv_prepare_t *p)
{
    kvr_health_t *h = p->data;
    kvr_share_publish(h->env.share, kvr_door_engines(h->env.door), kvr_clock_now_ns());
}

static void on_timer_closed(uv_handle_t *handle);

int kvr_health_start(const kvr_health_env_t *env, kvr_health_t **out)
{
    *out = NULL;
    kvr_health_t *h = calloc(1, sizeof *h);
    if (!h)
        return -ENOMEM;
    h->env = *env;
    int rc = uv_timer_init(env->loop, &h->health_timer);
    if (rc < 0)
        goto fail_health;
    rc = uv_timer_init(env->loop, &h->housekeeping_timer);
    if (rc < 0)
        goto fail_housekeeping;
    rc = uv_prepare_init(env->loop, &h->share_prepare);
    if (rc < 0)
        goto fail_prepare;
    h->health_timer.data = h->housekeeping_timer.data = h->share_prepare.data = h;
    h->open_handles = 3; /* from here on the handles are closed by kvr_health_stop */
    /* Releases (a request ending) reach this router's row at the end of the loop turn they happen in. */
    if (env->share)
        uv_prepare_start(&h->share_prepare, on_share_prepare);
    if (env->cfg->health_interval_ms > 0) {
        rc = uv_timer_start(&h->health_timer, on_health_timer, env->cfg->health_interval_ms,
                            env->cfg->health_interval_ms);
        if (rc < 0)
            goto fail_start;
    }
    h->next_reconcile_ns = kvr_clock_now_ns() + env->cfg->reconcile_s * KVR_NS_PER_SEC;
    rc = uv_timer_start(&h->housekeeping_timer, on_housekeeping, HOUSEKEEPING_MS, HOUSEKEEPING_MS);
    if (rc < 0)
        goto fail_start;
    refresh_models(h); /* at once: pools are known before the first health period */
    *out = h;
    return 0;

fail_start:
    KVR_ERROR("timers_start_failed error=\"%s\"", kvr_strerror(rc));
    kvr_health_stop(h, NULL, NULL);
    return rc;
fail_prepare:
    h->open_handles = 2; /* h is freed when the last of them is closed */
    h->stopping = true;
    h->housekeeping_timer.data = h->health_timer.data = h;
    uv_close((uv_handle_t *)&h->housekeeping_timer, on_timer_closed);
    uv_close((uv_handle_t *)&h->health_timer, on_timer_closed);
    KVR_ERROR("timers_init_failed error=\"%s\"", kvr_strerror(rc));
    return rc;
fail_housekeeping:
    h->open_handles = 1;
    h->stopping = true;
    h->health_timer.data = h;
    uv_close((uv_handle_t *)&h->health_timer, on_timer_closed);
    KVR_ERROR("timers_init_failed error=\"%s\"", kvr_strerror(rc));
    return rc;
fail_health:
    free(h);
    KVR_ERROR("timers_init_failed error=\"%s\"", kvr_strerror(rc));
    return rc;
}

static void on_timer_closed(uv_handle_t *handle)
{
    kvr_health_t *h = handle->data;
    if (--h->open_handles > 0)
        return;
    void (*closed)(void *) = h->closed;
    void *ctx = h->closed_ctx;
    free(h);
    if (closed)
        closed(ctx);
}

void kvr_health_stop(kvr_health_t *h, void (*closed)(void *ctx), void *ctx)
{
    if (!h || h->stopping) {
        if (closed)
            closed(ctx);
        return;
    }
    h->stopping = true;
    for (uint32_t i = 0; i < KVR_MAX_ENGINES; i++) {
        kvr_fetch_cancel(h->health[i]);
        kvr_fetch_cancel(h->reconcile[i]);
        kvr_fetch_cancel(h->models[i]);
        h->health[i] = h->reconcile[i] = h->models[i] = NULL;
    }
    h->closed = closed;
    h->closed_ctx = ctx;
    uv_close((uv_handle_t *)&h->health_timer, on_timer_closed);
    uv_close((uv_handle_t *)&h->housekeeping_timer, on_timer_closed);
    uv_close((uv_handle_t *)&h->share_prepare, on_timer_closed);
}

/* ---- /readiness ---- */

static int compare_pool_models(const void *key, const void *pool)
{
    return strcmp(key, ((const kvr_readiness_pool_t *)pool)->model);
}

void kvr_health_readiness(const kvr_door_t *door, kvr_readiness_mode_t mode, kvr_readiness_t *out)
{
    memset(out, 0, sizeof *out);
    const kvr_engine_table_t *t = kvr_door_engines(door);
    for (uint32_t i = 0; i < t->n_slots; i++) {
        const kvr_engine_t *e = t->engines[i];
        if (!e || e->removed)
            continue;
        out->engines++;
        if (kvr_engine_is_candidate(e)) {
            out->healthy++;
            if (e->models.n == 0)
                out->unlisted_healthy++;
        }
    }
    /* The pools are the models the engines list, a down engine's last good list included. */
    size_t n = kvr_door_served_models(door, NULL, 0);
    if (n > 0) {
        const char **models = kvr_xmalloc(n * sizeof *models);
        n = kvr_door_served_models(door, models, n);
        out->pools = kvr_xcalloc(n, sizeof *out->pools);
        for (size_t k = 0; k < n; k++)
            out->pools[k].model = models[k];
        free(models);
        out->n_pools = n;
    }
    for (uint32_t i = 0; i < t->n_slots && out->n_pools > 0; i++) {
        const kvr_engine_t *e = t->engines[i];
        if (!e || e->removed)
            continue;
        for (size_t m = 0; m < e->models.n; m++) {
            kvr_readiness_pool_t *pool = bsearch(e->models.names[m], out->pools, out->n_pools,
                                                 sizeof *out->pools, compare_pool_models);
            if (!pool) /* cannot happen: served_models holds every listed name */
                continue;
            pool->engines++; /* a list holds each name once (kvr_model_list_add) */
            pool->healthy += kvr_engine_is_candidate(e);
        }
    }
    /* An engine whose list is not known yet takes any model, so it keeps every pool up (routing agrees). */
    for (size_t k = 0; k < out->n_pools; k++)
        out->pools_down += out->pools[k].healthy == 0 && out->unlisted_healthy == 0;
    out->ready = out->healthy > 0 && (mode == KVR_READINESS_ANY_POOL || out->pools_down == 0);
}

void kvr_health_readiness_close(kvr_readiness_t *r)
{
    free(r->pools);
    r->pools = NULL;
    r->n_pools = 0;
}
