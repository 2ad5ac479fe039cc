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
#include "router/fetch.h"
#include "router/health.h"
#include "router/share.h"

#define HOUSEKEEPING_MS 1000
#define HEALTH_TIMEOUT_MAX_MS 2000
#define REVIVE_WITHOUT_HEALTH_NS (5 * KVR_NS_PER_SEC)
#define METRICS_MAX_BODY (4u << 20)
#define MODELS_TIMEOUT_MS 5000
#define MODELS_MAX_BODY (1u << 20)

typedef struct check_ctx_s {
    struct kvr_router_checks_s *checks;
    uint32_t index;
    uint32_t generation; /* an answer for an engine whose index was reused since is dropped */
} check_ctx_t;

struct kvr_router_checks_s {
    kvr_router_t *r;
    kvr_fetch_t *health[KVR_MAX_ENGINES];
    kvr_fetch_t *reconcile[KVR_MAX_ENGINES];
    kvr_fetch_t *models[KVR_MAX_ENGINES];
    check_ctx_t ctx[KVR_MAX_ENGINES];
    void (*closed)(kvr_router_t *r);
    int open_handles;
};

static void on_health(void *arg, int status, const char *body, size_t len)
{
    check_ctx_t *c = arg;
    kvr_router_t *r = c->checks->r;
    (void)body;
    (void)len;
    c->checks->health[c->index] = NULL;
    kvr_engine_t *e = kvr_engine_table_lookup(&r->decider.engines, c->index, c->generation);
    if (!e || e->removed)
        return;
    if (status >= 200 && status < 300) {
        kvr_router_engine_ok(r, e);
    } else {
        KVR_DEBUG("health_failed engine=%s status=%d", e->id, status);
        kvr_router_engine_failed(r, e, "health");
    }
}

/* The engine's list as one log value: safe names, comma-separated, cut short when long. */
static const char *models_text(const kvr_model_list_t *l, char *out, size_t cap)
{
    size_t j = 0;
    out[0] = '\0';
    for (size_t i = 0; i < l->n && j + 1 < cap; i++) {
        char safe[KVR_MODEL_SAFE_MAX];
        int w = snprintf(out + j, cap - j, "%s%s", i ? "," : "", kvr_model_name_safe(l->names[i], safe, sizeof safe));
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
    kvr_router_t *r = c->checks->r;
    c->checks->models[c->index] = NULL;
    kvr_engine_t *e = kvr_engine_table_lookup(&r->decider.engines, c->index, c->generation);
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

static void refresh_models(kvr_router_t *r)
{
    struct kvr_router_checks_s *ch = r->checks;
    for (uint32_t i = 0; i < r->decider.engines.n_slots; i++) {
        kvr_engine_t *e = r->decider.engines.engines[i];
        if (!e || e->removed || e->models_pinned || ch->models[i])
            continue;
        ch->ctx[i] = (check_ctx_t){ch, i, e->generation};
        if (kvr_fetch(kvr_router_pool(r, e->index), "/v1/models", MODELS_TIMEOUT_MS, MODELS_MAX_BODY, on_models,
                      &ch->ctx[i], &ch->models[i]) < 0)
            ch->models[i] = NULL;
    }
}

static void on_health_timer(uv_timer_t *t)
{
    kvr_router_t *r = t->data;
    struct kvr_router_checks_s *ch = r->checks;
    uint64_t timeout = r->cfg.health_interval_ms < HEALTH_TIMEOUT_MAX_MS ? r->cfg.health_interval_ms
                                                                          : HEALTH_TIMEOUT_MAX_MS;
    if (timeout < 200)
        timeout = 200;
    for (uint32_t i = 0; i < r->decider.engines.n_slots; i++) {
        kvr_engine_t *e = r->decider.engines.engines[i];
        if (!e || e->removed || ch->health[i])
            continue;
        ch->ctx[i] = (check_ctx_t){ch, i, e->generation};
        if (kvr_fetch(kvr_router_pool(r, e->index), r->cfg.health_path, timeout, 64 * 1024, on_health, &ch->ctx[i], &ch->health[i]) < 0)
            ch->health[i] = NULL;
    }
    refresh_models(r);
}

static void on_reconcile(void *arg, int status, const char *body, size_t len)
{
    check_ctx_t *c = arg;
    kvr_router_t *r = c->checks->r;
    c->checks->reconcile[c->index] = NULL;
    kvr_engine_t *e = kvr_engine_table_lookup(&r->decider.engines, c->index, c->generation);
    if (!e || e->removed)
        return;
    kvr_engine_state_t st;
    memset(&st, 0, sizeof st);
    kvr_engine_kind_t kind;
    int rc = status == 200 ? kvr_engine_metrics_parse(body, len, &st, &kind, NULL) : (status < 0 ? status : -EPROTO);
    if (rc < 0) {
        r->metrics.reconcile_failures_total++;
        KVR_DEBUG("reconcile_failed engine=%s error=\"%s\"", e->id, kvr_strerror(rc));
        return;
    }
    int64_t real = (int64_t)st.running + st.waiting;
    e->reconcile_drift = (int64_t)e->shadow_requests - real;
    e->reconciled_ns = kvr_clock_now_ns();
    r->metrics.reconcile_runs_total++;
    KVR_DEBUG("reconcile engine=%s kind=%s shadow_requests=%u real_requests=%lld drift=%lld", e->id,
              kvr_engine_kind_name(kind), e->shadow_requests, (long long)real, (long long)e->reconcile_drift);
}

static void reconcile_all(kvr_router_t *r)
{
    struct kvr_router_checks_s *ch = r->checks;
    for (uint32_t i = 0; i < r->decider.engines.n_slots; i++) {
        kvr_engine_t *e = r->decider.engines.engines[i];
        if (!kvr_engine_is_candidate(e) || ch->reconcile[i])
            continue;
        ch->ctx[i] = (check_ctx_t){ch, i, e->generation};
        if (kvr_fetch(kvr_router_pool(r, e->index), "/metrics", 5000, METRICS_MAX_BODY, on_reconcile, &ch->ctx[i], &ch->reconcile[i]) < 0)
            ch->reconcile[i] = NULL;
    }
}

static void on_housekeeping(uv_timer_t *t)
{
    kvr_router_t *r = t->data;
    uint64_t now = kvr_clock_now_ns();
    kvr_decide_expire_sessions(&r->decider, now);
    if (r->cfg.health_interval_ms == 0) {
        /* Without health checks a failed engine gets another chance after a pause. */
        for (uint32_t i = 0; i < r->decider.engines.n_slots; i++) {
            kvr_engine_t *e = r->decider.engines.engines[i];
            if (e && !e->removed && !e->healthy && now - e->down_since_ns > REVIVE_WITHOUT_HEALTH_NS)
                kvr_router_engine_ok(r, e);
        }
    }
    kvr_decide_share_tick(&r->decider, now);
    if (!r->cfg.es && r->cfg.reconcile_s > 0 && now >= r->next_reconcile_ns) {
        r->next_reconcile_ns = now + r->cfg.reconcile_s * KVR_NS_PER_SEC;
        reconcile_all(r);
    }
}

static void on_share_prepare(uv_prepare_t *p)
{
    kvr_router_t *r = p->data;
    kvr_share_publish(r->share, &r->decider.engines, kvr_clock_now_ns());
}

int kvr_health_start(kvr_router_t *r)
{
    struct kvr_router_checks_s *ch = calloc(1, sizeof *ch);
    if (!ch)
        return -ENOMEM;
    ch->r = r;
    int rc = uv_timer_init(r->loop, &r->health_timer);
    if (rc < 0)
        goto fail_health;
    rc = uv_timer_init(r->loop, &r->housekeeping_timer);
    if (rc < 0)
        goto fail_housekeeping;
    rc = uv_prepare_init(r->loop, &r->share_prepare);
    if (rc < 0)
        goto fail_prepare;
    r->checks = ch;
    r->health_timer.data = r->housekeeping_timer.data = r->share_prepare.data = r;
    ch->open_handles = 3;
    /* Releases (a request ending) reach this router's row at the end of the loop turn they happen in. */
    if (r->share)
        uv_prepare_start(&r->share_prepare, on_share_prepare);
    r->timers_started = true; /* from here on the handles are closed by kvr_health_stop */
    if (r->cfg.health_interval_ms > 0) {
        rc = uv_timer_start(&r->health_timer, on_health_timer, r->cfg.health_interval_ms,
                            r->cfg.health_interval_ms);
        if (rc < 0)
            goto fail_start;
    }
    r->next_reconcile_ns = kvr_clock_now_ns() + r->cfg.reconcile_s * KVR_NS_PER_SEC;
    rc = uv_timer_start(&r->housekeeping_timer, on_housekeeping, HOUSEKEEPING_MS, HOUSEKEEPING_MS);
    if (rc < 0)
        goto fail_start;
    refresh_models(r); /* at once: pools are known before the first health period */
    return 0;

fail_start:
    KVR_ERROR("timers_start_failed error=\"%s\"", kvr_strerror(rc));
    kvr_health_stop(r, NULL);
    return rc;
fail_prepare:
    uv_close((uv_handle_t *)&r->housekeeping_timer, NULL);
fail_housekeeping:
    uv_close((uv_handle_t *)&r->health_timer, NULL);
fail_health:
    free(ch);
    KVR_ERROR("timers_init_failed error=\"%s\"", kvr_strerror(rc));
    return rc;
}

static void on_timer_closed(uv_handle_t *h)
{
    kvr_router_t *r = h->data;
    struct kvr_router_checks_s *ch = r->checks;
    if (--ch->open_handles > 0)
        return;
    void (*closed)(kvr_router_t *) = ch->closed;
    free(ch);
    r->checks = NULL;
    if (closed)
        closed(r);
}

void kvr_health_stop(kvr_router_t *r, void (*closed)(kvr_router_t *r))
{
    struct kvr_router_checks_s *ch = r->checks;
    if (!r->timers_started || !ch) {
        if (closed)
            closed(r);
        return;
    }
    r->timers_started = false;
    for (uint32_t i = 0; i < KVR_MAX_ENGINES; i++) {
        kvr_fetch_cancel(ch->health[i]);
        kvr_fetch_cancel(ch->reconcile[i]);
        kvr_fetch_cancel(ch->models[i]);
        ch->health[i] = ch->reconcile[i] = ch->models[i] = NULL;
    }
    ch->closed = closed;
    uv_close((uv_handle_t *)&r->health_timer, on_timer_closed);
    uv_close((uv_handle_t *)&r->housekeeping_timer, on_timer_closed);
    uv_close((uv_handle_t *)&r->share_prepare, on_timer_closed);
}
