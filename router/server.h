/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_SERVER_H
#define KVR_ROUTER_SERVER_H

/*
 * The router's endpoints: inference paths go to the proxy, the rest
 * (/health, /readiness, /metrics, /engines, /v1/models) are answered here;
 * the client and the admin listener each have a dispatcher.
 * It sees the router only through kvr_server_env_t, which the router fills.
 */

#include "common/engine_spec.h"
#include "common/http_server.h"
#include "router/config.h"
#include "router/apikeys.h"
#include "router/door.h"
#include "router/metrics.h"
#include "router/models.h"
#include "router/proxy.h"

/** How an engine add that POST /engines asked for ended (kvr_router_added_fn without the router). */
typedef void (*kvr_server_added_fn)(int status, const char *url, kvr_engine_t *e, const char *why,
                                    void *arg);

typedef struct kvr_server_env_s {
    const kvr_router_config_t *cfg;
    kvr_door_t *door;
    kvr_proxy_env_t *proxy;         /* inference requests, and the drain state */
    const kvr_metrics_view_t *view; /* /metrics, /engines */
    kvr_apikeys_t *const *apikeys; /* the client keys in force (a reload swaps them); NULL = none */
    /* POST /engines and DELETE /engines/ID: the router's own add and remove. */
    void (*add_engine)(void *ctx, const kvr_engine_spec_t *spec, kvr_model_list_t *pinned,
                       kvr_server_added_fn done, void *arg);
    void (*remove_engine)(void *ctx, kvr_engine_t *e);
    void *ctx;
} kvr_server_env_t;

/**
 * The client listener's request callback (user = the kvr_server_env_t): the
 * API (keys checked when there are any), /health, /readiness, and the admin
 * endpoints only with --admin-on-client-port.
 */
void kvr_router_on_request(kvr_http_req_t *req, void *user);
/** The admin listener's: /metrics, /engines, /health, /readiness. */
void kvr_router_on_admin_request(kvr_http_req_t *req, void *user);

#endif
