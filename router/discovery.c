/* SPDX-License-Identifier: Apache-2.0 */
#include "router/discovery.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/dns_watch.h"
#include "common/engine_spec.h"
#include "common/error.h"
#include "common/log.h"

struct kvr_router_discovery_s {
    kvr_discovery_env_t env;
    kvr_dns_watch_t *watches[KVR_ROUTER_MAX_ENGINE_DNS];
    size_t n_watches;
    size_t n_running; /* watches not yet stopped */
    /* Engines a name removed whose requests were still in flight: logged once they drained. */
    struct {
        uint32_t index,
            generation; /* the engine's handle: its index may be reused once it drained */
        char *id;
    } draining[KVR_MAX_ENGINES];
    uint32_t n_draining;
    void (*done)(void *ctx);
    void *done_ctx;
};

/* url is an engine id (a normalised URL); --engine and --config give specs, compared normalised. */
static bool is_static(const kvr_router_discovery_t *d, const char *url)
{
    for (size_t i = 0; i < d->env.cfg->n_engines; i++) {
        kvr_engine_spec_t spec;
        char why[128];
        const char *text = d->env.cfg->engines[i];
        if (kvr_engine_spec_parse(text, strlen(text), &spec, why, sizeof why) == 0 &&
            strcmp(spec.url, url) == 0)
            return true;
    }
    return false;
}

static int on_join(kvr_dns_watch_t *w, const char *url, void *user)
{
    (void)w;
    kvr_router_discovery_t *d = user;
    if (kvr_door_find_engine(d->env.door, url))
        return -EEXIST;
    return d->env.add(d->env.ctx, url);
}

static void on_leave(kvr_dns_watch_t *w, const char *url, void *user)
{
    kvr_router_discovery_t *d = user;
    if (is_static(d, url))
        return;
    /* Another name that answers this address too takes it over: the engine stays. */
    for (size_t i = 0; i < d->n_watches; i++) {
        kvr_dns_watch_member_t *m = d->watches[i] == w ? NULL
                                                       : kvr_dns_watch_find(d->watches[i], url);
        if (m && m->missing == 0) {
            m->owned = true;
            return;
        }
    }
    kvr_engine_t *e = kvr_door_find_engine(d->env.door, url);
    if (!e)
        return;
    KVR_INFO("discovery_engine_draining name=%s engine=%s index=%u in_flight=%u", w->spec, url,
             e->index, e->shadow_requests);
    d->env.remove(d->env.ctx, e);
    if (e->shadow_requests == 0)
        return;
    for (uint32_t i = 0; i < d->n_draining; i++)
        if (d->draining[i].index == e->index && d->draining[i].generation == e->generation)
            return;
    char *id = strdup(e->id);
    if (id && d->n_draining < KVR_MAX_ENGINES) {
        d->draining[d->n_draining].index = e->index;
        d->draining[d->n_draining].generation = e->generation;
        d->draining[d->n_draining++].id = id;
    } else {
        free(id);
    }
}

/* After each answer: the engines whose last request ended since are said to be gone. */
static void on_answered(kvr_dns_watch_t *w, void *user)
{
    (void)w;
    kvr_router_discovery_t *d = user;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < d->n_draining; i++) {
        kvr_engine_t *e = kvr_door_lookup(d->env.door, d->draining[i].index,
                                          d->draining[i].generation);
        if (e && e->removed && e->shadow_requests > 0) {
            d->draining[kept++] = d->draining[i];
            continue;
        }
        /* Drained (its index may be freed already), or back in the table. */
        if (!e || e->removed)
            KVR_INFO("discovery_engine_drained engine=%s index=%u", d->draining[i].id,
                     d->draining[i].index);
        free(d->draining[i].id);
    }
    d->n_draining = kept;
}

int kvr_router_discovery_start(const kvr_discovery_env_t *env, kvr_router_discovery_t **out)
{
    *out = NULL;
    const kvr_router_config_t *cfg = env->cfg;
    if (cfg->n_engine_dns == 0)
        return 0;
    kvr_router_discovery_t *d = calloc(1, sizeof *d);
    if (!d)
        return -ENOMEM;
    d->env = *env;
    *out = d;
    for (size_t i = 0; i < cfg->n_engine_dns; i++) {
        kvr_dns_watch_config_t wc = {
            .spec = cfg->engine_dns[i],
            .interval_ms = cfg->engine_dns_interval_s * 1000,
            .drain_after = cfg->engine_dns_drain_after,
            .max_members = kvr_door_engines(env->door)->max_engines,
            .join = on_join,
            .leave = on_leave,
            .answered = on_answered,
            .family = kvr_dns_watch_family(cfg->engine_dns_family),
            .user = d,
        };
        kvr_dns_watch_t *w = calloc(1, sizeof *w);
        int rc = w ? kvr_dns_watch_init(w, env->loop, &wc) : -ENOMEM;
        if (rc == 0)
            rc = kvr_dns_watch_start(w);
        if (rc == 0) {
            d->watches[d->n_watches++] = w;
        } else if (w) {
            kvr_dns_watch_close(w);
            free(w);
        }
        if (rc < 0) {
            KVR_ERROR("discovery_start_failed name=%s error=\"%s\"", cfg->engine_dns[i],
                      kvr_strerror(rc));
            return rc; /* kvr_router_stop closes what started */
        }
        d->n_running++;
    }
    return 0;
}

static void on_watch_stopped(kvr_dns_watch_t *w)
{
    kvr_router_discovery_t *d = w->cfg.user;
    if (--d->n_running > 0)
        return;
    void (*done)(void *) = d->done;
    d->done = NULL;
    if (done)
        done(d->done_ctx);
}

void kvr_router_discovery_stop(kvr_router_discovery_t *d, void (*done)(void *ctx), void *ctx)
{
    if (!d || d->n_running == 0) {
        done(ctx);
        return;
    }
    d->done = done;
    d->done_ctx = ctx;
    size_t n = d->n_watches;
    for (size_t i = 0; i < n; i++)
        if (!d->watches[i]->stopping)
            kvr_dns_watch_stop(d->watches[i], on_watch_stopped);
}

void kvr_router_discovery_close(kvr_router_discovery_t *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->n_watches; i++) {
        kvr_dns_watch_close(d->watches[i]);
        free(d->watches[i]);
    }
    for (uint32_t i = 0; i < d->n_draining; i++)
        free(d->draining[i].id);
    free(d);
}

bool kvr_router_discovery_owns(const kvr_router_discovery_t *d, const char *id)
{
    for (size_t i = 0; d && i < d->n_watches; i++) {
        const kvr_dns_watch_member_t *m = kvr_dns_watch_find(d->watches[i], id);
        if (m && m->owned)
            return true;
    }
    return false;
}

void kvr_router_discovery_metrics(const kvr_router_discovery_t *d, kvr_prom_writer_t *w)
{
    if (!d || !d->n_watches)
        return;
    kvr_dns_watch_metrics(w, "kvroute", d->watches, d->n_watches);
    uint32_t draining = 0;
    for (uint32_t i = 0; i < d->n_draining; i++) {
        const kvr_engine_t *e = kvr_door_lookup(d->env.door, d->draining[i].index,
                                                d->draining[i].generation);
        draining += e && e->removed && e->shadow_requests > 0;
    }
    kvr_prom_family(w, "kvroute_discovery_draining", KVR_PROM_GAUGE,
                    "engines a name removed whose in-flight requests have not all finished");
    kvr_prom_sample_u64(w, "kvroute_discovery_draining", NULL, 0, draining);
}
