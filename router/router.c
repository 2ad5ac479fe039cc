/* SPDX-License-Identifier: Apache-2.0 */
#include "router/router.h"
#include "router/router_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/engine_spec.h"
#include "common/error.h"
#include "common/json_text.h"
#include "common/log.h"
#include "common/tls.h"
#include "common/xmalloc.h"
#include "router/share.h"
#include "tokens/turn_cache.h"

/* Pinned models replace what /v1/models said; none given: learnt again from it. */
static void set_pinned_models(kvr_engine_t *e, kvr_model_list_t *pinned)
{
    bool was_pinned = e->models_pinned;
    e->models_pinned = pinned->n > 0;
    if (e->models_pinned || was_pinned)
        kvr_model_list_move(&e->models, pinned);
    e->models_failing = false;
}

/* Engine ids become addresses here: the decision core knows them by id only. */
static int add_at(kvr_router_t *r, const kvr_engine_spec_t *spec, kvr_model_list_t *pinned,
                  const struct sockaddr *addr, socklen_t addr_len, kvr_engine_t **out)
{
    if (kvr_decide_find_engine(&r->decider, spec->url))
        return -EEXIST;
    kvr_engine_t *e;
    int rc = kvr_decide_add_engine(&r->decider, spec->url, &e);
    if (rc < 0)
        return rc;
    if (r->pool_generations[e->index] != e->generation) {
        /* The index was freed and given to this engine: what was kept under it was the one before's. */
        kvr_upstream_pool_destroy(r->pools[e->index]);
        r->pools[e->index] = NULL;
        memset(&r->metrics.selections[e->index], 0, sizeof r->metrics.selections[e->index]);
        r->pool_generations[e->index] = e->generation;
    }
    if (!r->pools[e->index]) {
        rc = kvr_upstream_pool_create(r->loop, addr, addr_len, kvr_engine_spec_authority(spec),
                                      r->cfg.keepalive_per_engine, &r->upstream_requests,
                                      &r->pools[e->index]);
        if (rc < 0) {
            kvr_decide_remove_engine(&r->decider, e);
            return rc;
        }
    }
    kvr_upstream_pool_set_tls(r->pools[e->index], spec->tls ? r->engine_tls : NULL, spec->host);
    set_pinned_models(e, pinned);
    e->role = spec->role;
    e->bootstrap_port = spec->bootstrap_port;
    KVR_INFO("engine_added engine=%s index=%u models=%s role=%s", e->id, e->index,
             e->models_pinned ? "pinned" : "learnt", kvr_engine_role_name(e->role));
    if (out)
        *out = e;
    return 0;
}

int kvr_router_add_engine(kvr_router_t *r, const char *text, kvr_engine_t **out)
{
    char why[300];
    kvr_engine_spec_t spec;
    kvr_model_list_t pinned = {0};
    struct sockaddr_storage addr;
    socklen_t addr_len;
    int rc = kvr_models_parse_spec(text, &spec, &pinned, why, sizeof why);
    if (rc < 0) {
        KVR_WARN("engine_spec_invalid error=\"%s\"", why);
        return rc;
    }
    if (kvr_decide_find_engine(&r->decider, spec.url))
        rc = -EEXIST;
    else
        rc = kvr_engine_spec_resolve_now(&spec, &addr, &addr_len, why, sizeof why);
    if (rc == 0)
        rc = add_at(r, &spec, &pinned, (const struct sockaddr *)&addr, addr_len, out);
    else if (rc != -EEXIST)
        KVR_WARN("engine_unresolved engine=%s error=\"%s\"", spec.url, why);
    kvr_model_list_close(&pinned);
    return rc;
}

/* An add waiting for its host's name on libuv's threadpool. */
struct kvr_router_add_s {
    uv_getaddrinfo_t req;
    kvr_router_t *r;
    kvr_engine_spec_t spec;
    kvr_model_list_t pinned;
    kvr_router_added_fn done;
    void *arg;
    bool from_reload;
    bool superseded; /* a later reload or the router's stop: nothing is added */
    struct kvr_router_add_s *next, **prev;
};

static void add_unlink(struct kvr_router_add_s *a)
{
    *a->prev = a->next;
    if (a->next)
        a->next->prev = a->prev;
}

static void on_add_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
    struct kvr_router_add_s *a = req->data;
    kvr_router_t *r = a->r;
    add_unlink(a);
    kvr_engine_t *e = NULL;
    char why[300] = "";
    int rc;
    if (a->superseded) {
        rc = -ECANCELED;
        snprintf(why, sizeof why, "cancelled: the router stopped or a later reload replaced it");
    } else if (status < 0 || !res) {
        /* A name that does not exist is the caller's mistake; a resolver that fails may pass. */
        rc = status == UV_EAI_AGAIN || status == UV_EAI_FAIL || status == UV_EAI_MEMORY
                 ? -EAGAIN
                 : -EHOSTUNREACH;
        snprintf(why, sizeof why, "host %s does not resolve: %s", a->spec.host,
                 status < 0 ? uv_strerror(status) : "no address");
    } else {
        rc = add_at(r, &a->spec, &a->pinned, res->ai_addr, res->ai_addrlen, &e);
        if (rc < 0)
            snprintf(why, sizeof why, "%s", kvr_strerror(rc));
    }
    uv_freeaddrinfo(res);
    kvr_model_list_close(&a->pinned);
    a->done(r, rc, a->spec.url, e, why, a->arg);
    free(a);
}

void kvr_router_add_engine_async(kvr_router_t *r, const kvr_engine_spec_t *spec,
                                 kvr_model_list_t *pinned, bool from_reload,
                                 kvr_router_added_fn done, void *arg)
{
    struct sockaddr_storage addr;
    socklen_t addr_len;
    kvr_engine_t *e = NULL;
    int rc = kvr_decide_find_engine(&r->decider, spec->url) ? -EEXIST : 0;
    if (rc == 0 && kvr_engine_spec_literal(spec, &addr, &addr_len) == 0)
        rc = add_at(r, spec, pinned, (const struct sockaddr *)&addr, addr_len, &e);
    else if (rc == 0)
        rc = 1; /* a name: resolved below */
    if (rc <= 0) {
        kvr_model_list_close(pinned);
        done(r, rc, spec->url, e, rc < 0 ? kvr_strerror(rc) : "", arg);
        return;
    }
    struct kvr_router_add_s *a = kvr_xcalloc(1, sizeof *a);
    a->r = r;
    a->spec = *spec;
    a->spec.options = ""; /* the text it pointed into may not outlive this call */
    kvr_model_list_move(&a->pinned, pinned);
    a->done = done;
    a->arg = arg;
    a->from_reload = from_reload;
    a->req.data = a;
    char port[8];
    snprintf(port, sizeof port, "%u", (unsigned)spec->port);
    struct addrinfo hints = {
        .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_NUMERICSERV};
    rc = uv_getaddrinfo(r->loop, &a->req, on_add_resolved, a->spec.host, port, &hints);
    if (rc < 0) {
        char why[320];
        snprintf(why, sizeof why, "cannot start resolving %s: %s", a->spec.host, uv_strerror(rc));
        kvr_model_list_close(&a->pinned);
        free(a);
        done(r, -EAGAIN, spec->url, NULL, why, arg);
        return;
    }
    a->next = r->adds;
    a->prev = &r->adds;
    if (r->adds)
        r->adds->prev = &a->next;
    r->adds = a;
}

/* Resolutions in flight add nothing: the reload's (a newer list replaces them) or all (stop). */
static void adds_supersede(kvr_router_t *r, bool reload_only)
{
    for (struct kvr_router_add_s *a = r->adds; a; a = a->next) {
        if (reload_only && !a->from_reload)
            continue;
        a->superseded = true;
        (void)uv_cancel((uv_req_t *)&a->req); /* one already running ends by itself */
    }
}

void kvr_router_remove_engine(kvr_router_t *r, kvr_engine_t *e)
{
    if (!kvr_decide_remove_engine(&r->decider, e))
        return;
    kvr_upstream_pool_flush(r->pools[e->index]);
    KVR_INFO("engine_removed engine=%s index=%u in_flight=%u", e->id, e->index, e->shadow_requests);
}

/* The one place pools are destroyed: each idle connection closes, busy ones end with their requests. */
static void pools_destroy(kvr_router_t *r)
{
    for (uint32_t i = 0; r->pools && i < r->decider.engines.max_engines; i++) {
        kvr_upstream_pool_destroy(r->pools[i]);
        r->pools[i] = NULL;
    }
}

/* Frees this router's row (the others stop counting it at once) and the sharing state. */
static void share_destroy(kvr_router_t *r)
{
    if (!r->share)
        return;
    kvr_share_close(r->share);
    free(r->share);
    r->share = NULL;
    r->decider.share = NULL;
    r->view.share = NULL;
}

/* The parts' callbacks into the router: the add and remove paths every source of engines shares. */
static int add_engine_url(void *ctx, const char *url)
{
    return kvr_router_add_engine(ctx, url, NULL);
}

typedef struct server_add_s {
    kvr_server_added_fn done;
    void *arg;
} server_add_t;

static void on_server_added(kvr_router_t *r, int status, const char *url, kvr_engine_t *e,
                            const char *why, void *arg)
{
    (void)r;
    server_add_t *a = arg;
    kvr_server_added_fn done = a->done;
    void *done_arg = a->arg;
    free(a);
    done(status, url, e, why, done_arg);
}

static void add_engine_async(void *ctx, const kvr_engine_spec_t *spec, kvr_model_list_t *pinned,
                             kvr_server_added_fn done, void *arg)
{
    server_add_t *a = kvr_xmalloc(sizeof *a);
    *a = (server_add_t){done, arg};
    kvr_router_add_engine_async(ctx, spec, pinned, false, on_server_added, a);
}

static void remove_engine(void *ctx, kvr_engine_t *e)
{
    kvr_router_remove_engine(ctx, e);
}

static void on_proxy_drained(void *ctx)
{
    kvr_router_t *r = ctx;
    if (r->on_drained)
        r->on_drained(r);
}

static void discovery_metrics(void *ctx, kvr_prom_writer_t *w)
{
    kvr_router_t *r = ctx;
    kvr_router_discovery_metrics(r->discovery, w);
    kvr_apikeys_metrics(r->apikeys, w);
    const kvr_tls_ctx_t *tls[] = {r->client_tls, r->admin_tls, r->engine_tls};
    const char *sides[] = {"client", "admin", "engine"};
    kvr_tls_write_metrics(w, "kvroute", tls, sides, 3);
}

/* The listeners' pair and the engines' trust; a failure stops start-up. */
static int tls_setup(kvr_router_t *r)
{
    char err[PATH_MAX + 200];
    int rc = kvr_tls_client_ctx_create(r->cfg.engine_ca, r->cfg.engine_tls_insecure, &r->engine_tls,
                                       err, sizeof err);
    if (rc < 0) {
        KVR_ERROR("engine_tls_failed error=\"%s\"", err);
        return rc;
    }
    if (r->cfg.engine_tls_insecure)
        KVR_WARN("engine_tls_insecure hint=\"https:// engines' certificates are not checked: "
                 "anyone on the path can pose as an engine; pin a CA with --engine-ca\"");
    if (!r->cfg.tls_cert[0])
        return 0;
    rc = kvr_tls_server_ctx_create(r->cfg.tls_cert, r->cfg.tls_key, &r->client_tls, err,
                                   sizeof err);
    if (rc == 0 && r->cfg.admin_listen_host[0])
        rc = kvr_tls_server_ctx_create(r->cfg.tls_cert, r->cfg.tls_key, &r->admin_tls, err,
                                       sizeof err);
    if (rc < 0) {
        KVR_ERROR("tls_load_failed error=\"%s\"", err);
        return rc;
    }
    char what[512];
    kvr_tls_ctx_describe(r->client_tls, what, sizeof what);
    KVR_INFO("tls_loaded cert=%s subject=\"%s\"", r->cfg.tls_cert, what);
    return 0;
}

static void tls_close(kvr_router_t *r)
{
    kvr_tls_ctx_destroy(r->client_tls);
    kvr_tls_ctx_destroy(r->admin_tls);
    kvr_tls_ctx_destroy(r->engine_tls);
    r->client_tls = r->admin_tls = r->engine_tls = NULL;
}

/* SIGHUP: a new pair replaces the one in force only when it loads; connections open keep theirs. */
static void tls_reload(kvr_router_t *r)
{
    char err[PATH_MAX + 200];
    kvr_tls_ctx_t *ctxs[] = {r->client_tls, r->admin_tls};
    for (size_t i = 0; i < 2; i++) {
        if (!ctxs[i])
            continue;
        if (kvr_tls_ctx_reload(ctxs[i], err, sizeof err) < 0) {
            KVR_ERROR("tls_reload_failed error=\"%s\" keeping=old", err);
            return;
        }
    }
    char what[512];
    kvr_tls_ctx_describe(r->client_tls, what, sizeof what);
    KVR_INFO("tls_reloaded cert=%s subject=\"%s\"", r->cfg.tls_cert, what);
}

/* A new keys file replaces the keys in force only when it reads; the old ones stay otherwise. */
static int load_api_keys(kvr_router_t *r)
{
    kvr_apikeys_t *fresh;
    char err[400];
    int rc = kvr_apikeys_load(r->cfg.api_keys_file, &fresh, err, sizeof err);
    if (rc < 0) {
        KVR_ERROR("api_keys_load_failed error=\"%s\" keeping=%zu", err,
                  kvr_apikeys_count(r->apikeys));
        return rc;
    }
    kvr_apikeys_carry_counts(fresh, r->apikeys);
    kvr_apikeys_destroy(r->apikeys);
    r->apikeys = fresh;
    KVR_INFO("api_keys_loaded file=%s keys=%zu", r->cfg.api_keys_file, kvr_apikeys_count(fresh));
    return 0;
}

static bool loopback_host(const char *host)
{
    unsigned char a[16];
    if (inet_pton(AF_INET, host, a) == 1)
        return a[0] == 127;
    if (inet_pton(AF_INET6, host, a) == 1)
        return memcmp(a, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\1", 16) == 0;
    return strcmp(host, "localhost") == 0;
}

/* Every part gets its narrow environment here, and only here. */
static void wire(kvr_router_t *r, FILE *decision_log)
{
    r->door = (kvr_door_t){.decider = &r->decider,
                           .pools = r->pools,
                           .metrics = &r->metrics,
                           .decision_log = decision_log};
    kvr_proxy_env_init(&r->proxy, r->loop, &r->cfg, &r->door, &r->metrics);
    r->proxy.drain.on_drained = on_proxy_drained;
    r->proxy.drain.ctx = r;
    r->view = (kvr_metrics_view_t){
        .cfg = &r->cfg,
        .decider = &r->decider,
        .pools = r->pools,
        .metrics = &r->metrics,
        .in_flight = &r->proxy.drain.in_flight,
        .more = discovery_metrics,
        .more_ctx = r,
    };
    r->server_env = (kvr_server_env_t){
        .cfg = &r->cfg,
        .door = &r->door,
        .proxy = &r->proxy,
        .view = &r->view,
        .apikeys = &r->apikeys,
        .add_engine = add_engine_async,
        .remove_engine = remove_engine,
        .ctx = r,
    };
}

int kvr_router_create(uv_loop_t *loop, kvr_router_config_t *cfg, kvr_router_t **out)
{
    kvr_keys_init(); /* cJSON's hooks are set before any thread parses or prints */
    *out = NULL;
    kvr_router_t *r = calloc(1, sizeof *r);
    if (!r) {
        kvr_router_config_free(cfg);
        return -ENOMEM;
    }
    r->loop = loop;
    r->cfg = *cfg;
    memset(cfg, 0, sizeof *cfg); /* the engine strings moved with it */
    kvr_upstream_recycle_init(&r->upstream_requests);
    FILE *decision_log = NULL;
    int rc = kvr_router_metrics_init(&r->metrics);
    if (rc < 0)
        goto fail_metrics;
    kvr_decide_config_t dcfg;
    kvr_router_config_decide(&r->cfg, &dcfg);
    rc = kvr_decide_init(&r->decider, &dcfg);
    if (rc < 0)
        goto fail_decider;
    r->pools = calloc(r->decider.engines.max_engines, sizeof *r->pools);
    r->pool_generations = calloc(r->decider.engines.max_engines, sizeof *r->pool_generations);
    if (!r->pools || !r->pool_generations) {
        rc = -ENOMEM;
        goto fail_log;
    }
    if (r->cfg.decision_log[0]) {
        decision_log = fopen(r->cfg.decision_log, "a");
        if (!decision_log) {
            rc = -errno;
            KVR_ERROR("decision_log_open_failed path=%s error=\"%s\"", r->cfg.decision_log,
                      strerror(errno));
            goto fail_log;
        }
    }
    wire(r, decision_log);
    if ((rc = tls_setup(r)) < 0)
        goto fail_tls;
    if (r->cfg.api_keys_file[0] && (rc = load_api_keys(r)) < 0)
        goto fail_keys;
    char why[640];
    rc = kvr_tokenizer_set_load(r->cfg.tokenizers, r->cfg.n_tokenizers, NULL, &r->proxy.tokenizers,
                                why, sizeof why);
    if (rc < 0) {
        KVR_ERROR("tokenizer_load_failed error=\"%s\"", why);
        goto fail_engines;
    }
    for (size_t i = 0; r->proxy.tokenizers && i < r->proxy.tokenizers->n; i++)
        KVR_INFO("tokenizer_loaded model=%s dir=%s chat_template=%s block_tokens=%u",
                 r->proxy.tokenizers->models[i]->model, r->proxy.tokenizers->models[i]->dir,
                 r->proxy.tokenizers->models[i]->chat_template ? "yes" : "none",
                 r->cfg.block_tokens);
    if (r->cfg.tokenize_cache_mb &&
        (rc = kvr_turn_cache_create(r->cfg.tokenize_cache_mb << 20, &r->proxy.turn_cache)) < 0) {
        KVR_ERROR("tokenize_cache_failed error=\"%s\"", kvr_strerror(rc));
        goto fail_engines;
    }
    r->view.turn_cache = r->proxy.turn_cache;
    if (r->cfg.share_name[0]) {
        char label[96]; /* kvr_share_init keeps what fits a row's label */
        snprintf(label, sizeof label, "%s:%d", r->cfg.listen_host, r->cfg.listen_port);
        r->share = calloc(1, sizeof *r->share);
        rc = r->share ? kvr_share_init(r->share, r->cfg.share_name, label,
                                       r->cfg.share_max_age_ms * KVR_NS_PER_MS,
                                       r->decider.engines.max_engines, kvr_clock_now_ns())
                      : -ENOMEM;
        if (rc < 0)
            goto fail_engines;
        r->decider.share = r->share;
        r->view.share = r->share;
    }
    for (size_t i = 0; i < r->cfg.n_engines; i++) {
        rc = kvr_router_add_engine(r, r->cfg.engines[i], NULL);
        if (rc < 0) {
            KVR_ERROR("engine_invalid engine=%s error=\"%s\"", r->cfg.engines[i], kvr_strerror(rc));
            goto fail_engines;
        }
    }
    *out = r;
    return 0;

fail_engines:
    kvr_tokenizer_set_unref(r->proxy.tokenizers);
    kvr_turn_cache_destroy(r->proxy.turn_cache);
    share_destroy(r);
    kvr_apikeys_destroy(r->apikeys);
fail_keys:
    pools_destroy(r);
fail_tls:
    tls_close(r);
    kvr_proxy_env_close(&r->proxy);
    if (decision_log)
        fclose(decision_log);
fail_log:
    free(r->pools);
    free(r->pool_generations);
    r->pools = NULL;
    kvr_decide_close(&r->decider);
fail_decider:
    kvr_router_metrics_close(&r->metrics);
fail_metrics:
    kvr_recycle_close(&r->upstream_requests);
    kvr_router_config_free(&r->cfg);
    free(r);
    return rc;
}

void kvr_router_destroy(kvr_router_t *r)
{
    if (!r)
        return;
    kvr_router_discovery_close(r->discovery);
    share_destroy(r);
    kvr_apikeys_destroy(r->apikeys);
    pools_destroy(r);
    /* The loop ran to its end: no proxied or upstream request is left to come back. */
    kvr_tokenizer_set_unref(r->proxy.tokenizers);
    kvr_turn_cache_destroy(r->proxy.turn_cache);
    kvr_proxy_env_close(&r->proxy);
    kvr_recycle_close(&r->upstream_requests);
    tls_close(r);
    free(r->pools);
    free(r->pool_generations);
    r->pools = NULL;
    kvr_decide_close(&r->decider);
    if (r->door.decision_log)
        fclose(r->door.decision_log);
    kvr_router_metrics_close(&r->metrics);
    kvr_router_config_free(&r->cfg);
    free(r);
}

int kvr_router_start(kvr_router_t *r)
{
    kvr_http_server_config_t scfg;
    kvr_http_server_config_init(&scfg);
    scfg.host = r->cfg.listen_host;
    scfg.port = r->cfg.listen_port;
    scfg.max_header_bytes = r->cfg.max_header_bytes;
    scfg.max_body_bytes = r->cfg.max_body_bytes;
    scfg.request_timeout_ms = (uint32_t)r->cfg.request_timeout_ms;
    scfg.idle_timeout_ms = (uint32_t)r->cfg.client_idle_timeout_ms;
    scfg.max_connections = r->cfg.max_connections;
    scfg.max_connections_per_peer = r->cfg.max_connections_per_peer;
    scfg.on_request = kvr_router_on_request;
    scfg.user = &r->server_env;
    scfg.tls = r->client_tls;
    int rc = kvr_http_server_create(r->loop, &scfg, &r->server);
    if (rc < 0) {
        r->server = NULL; /* the caller says which address could not be bound */
        return rc;
    }
    r->view.server = r->server;
    if (r->cfg.admin_listen_host[0]) {
        scfg.host = r->cfg.admin_listen_host;
        scfg.port = r->cfg.admin_listen_port;
        scfg.max_connections = 64; /* scrapers and operators, not clients */
        scfg.max_connections_per_peer = 0;
        scfg.on_request = kvr_router_on_admin_request;
        scfg.tls = r->admin_tls;
        rc = kvr_http_server_create(r->loop, &scfg, &r->admin_server);
        if (rc < 0) {
            r->admin_server = NULL;
            KVR_ERROR("admin_listen_failed address=%s:%d error=\"%s\"", r->cfg.admin_listen_host,
                      r->cfg.admin_listen_port, kvr_strerror(rc));
            return rc;
        }
    }
    if (r->cfg.admin_on_client_port)
        KVR_WARN("admin_on_client_port hint=\"/metrics and /engines are served to every client; "
                 "scrape --admin-listen instead\"");
    if (!r->cfg.api_keys_file[0] && !loopback_host(r->cfg.listen_host))
        KVR_WARN("no_client_auth listen=%s:%d hint=\"any client may use the API; add "
                 "--api-keys-file\"",
                 r->cfg.listen_host, r->cfg.listen_port);
    kvr_health_env_t henv = {.loop = r->loop,
                             .cfg = &r->cfg,
                             .door = &r->door,
                             .metrics = &r->metrics,
                             .share = r->share};
    rc = kvr_health_start(&henv, &r->health);
    if (rc < 0)
        return rc;
    kvr_discovery_env_t denv = {
        .loop = r->loop,
        .cfg = &r->cfg,
        .door = &r->door,
        .add = add_engine_url,
        .remove = remove_engine,
        .ctx = r,
    };
    return kvr_router_discovery_start(&denv, &r->discovery);
}

static void on_timers_closed(void *ctx);

static void on_discovery_stopped(void *ctx)
{
    kvr_router_t *r = ctx;
    pools_destroy(r);
    void (*stopped)(kvr_router_t *) = r->on_stopped;
    r->on_stopped = NULL;
    if (stopped)
        stopped(r);
}

static void on_server_closed(void *arg)
{
    kvr_router_t *r = arg;
    r->server = NULL;
    r->view.server = NULL;
    kvr_health_t *h = r->health;
    r->health = NULL;
    kvr_health_stop(h, on_timers_closed, r);
}

static void on_timers_closed(void *ctx)
{
    kvr_router_t *r = ctx;
    kvr_router_discovery_stop(r->discovery, on_discovery_stopped, r);
}

static void on_admin_server_closed(void *arg)
{
    kvr_router_t *r = arg;
    r->admin_server = NULL;
    if (r->server)
        kvr_http_server_destroy(r->server, on_server_closed, r);
    else
        on_server_closed(r);
}

static void close_servers(kvr_router_t *r)
{
    adds_supersede(r, false);
    if (r->admin_server)
        kvr_http_server_destroy(r->admin_server, on_admin_server_closed, r);
    else
        on_admin_server_closed(r);
}

/* How long a stop waits for the error events of the requests it cut to reach their clients. */
#define ROUTER_CUT_FLUSH_MS 1000
#define ROUTER_CUT_POLL_MS 10

typedef struct cut_flush_s {
    uv_timer_t timer;
    kvr_router_t *r;
    uint64_t deadline_ns;
} cut_flush_t;

static void on_cut_flush_closed(uv_handle_t *h)
{
    free(h->data);
}

static void on_cut_flush_tick(uv_timer_t *t)
{
    cut_flush_t *f = t->data;
    kvr_router_t *r = f->r;
    kvr_http_server_stats_t st;
    kvr_http_server_stats(r->server, &st);
    bool late = kvr_clock_now_ns() >= f->deadline_ns;
    if (st.queued_bytes > 0 && !late)
        return;
    if (st.queued_bytes > 0)
        KVR_WARN("shutdown_flush_timeout queued_bytes=%zu", st.queued_bytes);
    uv_close((uv_handle_t *)t, on_cut_flush_closed);
    close_servers(r);
}

void kvr_router_stop(kvr_router_t *r, void (*stopped)(kvr_router_t *r))
{
    r->on_stopped = stopped;
    size_t cut = kvr_proxy_cut_all(&r->proxy, "the router is shutting down");
    if (cut == 0 || !r->server) {
        close_servers(r);
        return;
    }
    /* Closing the server now would drop the error events just queued: wait until they are written. */
    KVR_INFO("shutdown_cut requests=%zu", cut);
    cut_flush_t *f = kvr_xcalloc(1, sizeof *f);
    f->r = r;
    f->deadline_ns = kvr_clock_now_ns() + ROUTER_CUT_FLUSH_MS * KVR_NS_PER_MS;
    uv_timer_init(r->loop, &f->timer);
    f->timer.data = f;
    uv_timer_start(&f->timer, on_cut_flush_tick, 0, ROUTER_CUT_POLL_MS);
}

static void on_reload_added(kvr_router_t *r, int status, const char *url, kvr_engine_t *e,
                            const char *why, void *arg)
{
    (void)r;
    (void)e;
    (void)arg;
    if (status < 0 && status != -EEXIST && status != -ECANCELED)
        KVR_ERROR("reload_engine_invalid engine=%s error=\"%s\"", url, why);
}

/* A SIGHUP's --tokenizer set, loaded on the threadpool (a vocabulary takes seconds). */
typedef struct tokenizer_reload_s {
    uv_work_t work;
    kvr_router_t *r;
    uint64_t generation;
    char *specs[2 * KVR_ROUTER_MAX_TOKENIZERS];
    size_t n;
    kvr_tokenizer_set_t *old; /* held: its unchanged entries are shared */
    kvr_tokenizer_set_t *fresh;
    int rc;
    char err[640];
} tokenizer_reload_t;

static void on_tokenizer_load(uv_work_t *w)
{
    tokenizer_reload_t *t = w->data;
    t->rc = kvr_tokenizer_set_load(t->specs, t->n, t->old, &t->fresh, t->err, sizeof t->err);
}

static void on_tokenizer_loaded(uv_work_t *w, int status)
{
    tokenizer_reload_t *t = w->data;
    kvr_router_t *r = t->r;
    if (status < 0 || t->rc < 0) {
        KVR_ERROR("tokenizer_reload_failed error=\"%s\" kept=%zu",
                  status < 0 ? uv_strerror(status) : t->err,
                  r->proxy.tokenizers ? r->proxy.tokenizers->n : 0);
    } else if (t->generation != r->tokenizer_reloads) {
        kvr_tokenizer_set_unref(t->fresh); /* a later SIGHUP's set replaces this one */
    } else {
        kvr_tokenizer_set_t *old = r->proxy.tokenizers;
        r->proxy.tokenizers = t->fresh; /* requests under way keep the set they took */
        kvr_tokenizer_set_unref(old);
        KVR_INFO("tokenizers_reloaded models=%zu", t->fresh ? t->fresh->n : 0);
    }
    kvr_tokenizer_set_unref(t->old);
    for (size_t i = 0; i < t->n; i++)
        free(t->specs[i]);
    free(t);
}

/* --tokenizer lines of the command line stay; the file's replace the file's earlier ones. */
static void reload_tokenizers(kvr_router_t *r, const kvr_router_config_t *fresh)
{
    tokenizer_reload_t *t = kvr_xcalloc(1, sizeof *t);
    t->r = r;
    t->generation = ++r->tokenizer_reloads;
    for (size_t i = 0; i < r->cfg.n_tokenizers; i++)
        if (!r->cfg.tokenizer_from_file[i])
            t->specs[t->n++] = kvr_xstrdup(r->cfg.tokenizers[i]);
    for (size_t i = 0; i < fresh->n_tokenizers; i++)
        t->specs[t->n++] = kvr_xstrdup(fresh->tokenizers[i]);
    t->old = kvr_tokenizer_set_ref(r->proxy.tokenizers);
    t->work.data = t;
    int rc = uv_queue_work(r->loop, &t->work, on_tokenizer_load, on_tokenizer_loaded);
    if (rc < 0) {
        t->rc = rc;
        snprintf(t->err, sizeof t->err, "%s", uv_strerror(rc));
        on_tokenizer_loaded(&t->work, 0);
    }
}

/*
 * The engine list of --config becomes the table (engines --engine-dns added
 * stay); other flags keep their start-up values.
 */
/* logrotate renames the file, then SIGHUP: new records go to a new file at the path. */
static void reopen_decision_log(kvr_router_t *r)
{
    FILE *fresh = fopen(r->cfg.decision_log, "a");
    if (!fresh) {
        KVR_ERROR("decision_log_reopen_failed path=%s error=\"%s\" kept=old_file",
                  r->cfg.decision_log, strerror(errno));
        return;
    }
    if (r->door.decision_log)
        fclose(r->door.decision_log);
    r->door.decision_log = fresh;
    KVR_INFO("decision_log_reopened path=%s", r->cfg.decision_log);
}

int kvr_router_reload(kvr_router_t *r)
{
    if (r->cfg.decision_log[0])
        reopen_decision_log(r);
    if (r->cfg.api_keys_file[0])
        load_api_keys(r); /* a file that does not read keeps the keys in force, logged */
    if (r->client_tls)
        tls_reload(r);
    if (!r->cfg.config_file[0]) {
        if (r->cfg.api_keys_file[0] || r->client_tls || r->cfg.decision_log[0])
            return 0;
        KVR_WARN("reload_ignored why=no_config_file");
        return -ENOENT;
    }
    kvr_router_config_t fresh;
    kvr_router_config_defaults(&fresh);
    char err[512];
    int rc = kvr_router_config_load_file(&fresh, r->cfg.config_file, err, sizeof err);
    if (rc < 0) {
        KVR_ERROR("reload_failed error=\"%s\"", err);
        r->metrics.config_reloads_total[KVR_RELOAD_FAILED]++;
        kvr_router_config_free(&fresh);
        return rc;
    }
    const char *ignored[32];
    size_t n_ignored = r->cfg.file_at_start ? kvr_router_config_unreloadable(r->cfg.file_at_start,
                                                                             &fresh, ignored, 32)
                                            : 0;
    for (size_t i = 0; i < n_ignored; i++)
        KVR_WARN("reload_ignored setting=%s hint=\"restart to change it\"", ignored[i]);
    r->metrics.config_reloads_total[n_ignored ? KVR_RELOAD_PARTIAL : KVR_RELOAD_OK]++;
    size_t removed = 0, resolving = 0;
    kvr_engine_table_t *t = &r->decider.engines;
    for (uint32_t i = 0; i < t->n_slots; i++) {
        kvr_engine_t *e = t->engines[i];
        if (!e || e->removed) /* a freed index, or an engine draining */
            continue;
        bool keep = false;
        for (size_t j = 0; j < fresh.n_engines && !keep; j++) {
            char why[160];
            kvr_engine_spec_t spec;
            kvr_model_list_t pinned = {0};
            keep = kvr_models_parse_spec(fresh.engines[j], &spec, &pinned, why, sizeof why) == 0 &&
                   strcmp(spec.url, e->id) == 0;
            if (keep) {
                set_pinned_models(e, &pinned); /* the spec's models= may have changed */
                e->role = spec.role;           /* and its role= */
                e->bootstrap_port = spec.bootstrap_port;
            }
            kvr_model_list_close(&pinned);
        }
        if (!keep && !kvr_router_discovery_owns(r->discovery, e->id)) {
            kvr_router_remove_engine(r, e);
            removed++;
        }
    }
    /* New engines join as their names resolve, off the loop; this list replaces an older one's. */
    adds_supersede(r, true);
    for (size_t j = 0; j < fresh.n_engines; j++) {
        char why[160];
        kvr_engine_spec_t spec;
        kvr_model_list_t pinned = {0};
        rc = kvr_models_parse_spec(fresh.engines[j], &spec, &pinned, why, sizeof why);
        if (rc < 0) {
            KVR_ERROR("reload_engine_invalid engine=%s error=\"%s\"", fresh.engines[j], why);
            continue;
        }
        if (kvr_decide_find_engine(&r->decider, spec.url)) {
            kvr_model_list_close(&pinned);
            continue;
        }
        resolving++;
        kvr_router_add_engine_async(r, &spec, &pinned, true, on_reload_added, NULL);
    }
    reload_tokenizers(r, &fresh);
    kvr_router_config_free(&fresh);
    KVR_INFO("reloaded config=%s adding=%zu removed=%zu engines=%u", r->cfg.config_file, resolving,
             removed, t->count);
    return 0;
}

void kvr_router_drain(kvr_router_t *r, void (*drained)(kvr_router_t *r))
{
    r->proxy.drain.draining = true;
    r->on_drained = drained;
}

bool kvr_router_draining(const kvr_router_t *r)
{
    return r->proxy.drain.draining;
}

uint32_t kvr_router_in_flight(const kvr_router_t *r)
{
    return r->proxy.drain.in_flight;
}

uv_loop_t *kvr_router_loop(const kvr_router_t *r)
{
    return r->loop;
}

const kvr_router_config_t *kvr_router_config(const kvr_router_t *r)
{
    return &r->cfg;
}

int kvr_router_port(const kvr_router_t *r)
{
    return r->server ? kvr_http_server_port(r->server) : -1;
}

int kvr_router_admin_port(const kvr_router_t *r)
{
    return r->admin_server ? kvr_http_server_port(r->admin_server) : -1;
}

kvr_door_t *kvr_router_door(kvr_router_t *r)
{
    return &r->door;
}
