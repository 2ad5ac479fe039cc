/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_ROUTER_INTERNAL_H
#define KVR_ROUTER_ROUTER_INTERNAL_H

/*
 * The router's parts, as router/router.c creates and wires them. Only
 * router.c (and its white-box test) includes this: every other module gets
 * its own narrow environment (kvr_proxy_env_t, kvr_server_env_t,
 * kvr_health_env_t, kvr_discovery_env_t, kvr_metrics_view_t) and the
 * decider door (router/door.h).
 */

#include "router/router.h"

#include "router/decide.h"
#include "router/discovery.h"
#include "router/door.h"
#include "router/health.h"
#include "router/metrics.h"
#include "router/proxy.h"
#include "router/server.h"
#include "router/upstream.h"

struct kvr_router_s {
    uv_loop_t *loop;
    kvr_router_config_t cfg;
    kvr_decider_t decider; /* engines, shadow counters, sessions, feed, policy, admission */
    /*
     * The upstream pool of each engine index (--max-engines entries), and
     * the generation of the engine it was made for: kept while the engine is
     * out or removed (a removed engine that comes back reuses it); replaced
     * when its index is given to another engine; otherwise destroyed only by
     * kvr_router_stop / kvr_router_destroy.
     */
    kvr_upstream_pool_t **pools;
    uint32_t *pool_generations;
    kvr_recycle_t upstream_requests; /* the pools' finished upstream requests, kept for reuse */
    kvr_router_metrics_t metrics;
    kvr_door_t door;             /* the one way into decider */
    kvr_proxy_env_t proxy;       /* the proxy's parts, the drain state among them */
    kvr_metrics_view_t view;     /* what /metrics and /engines read */
    kvr_server_env_t server_env; /* what the endpoints use */
    kvr_http_server_t *server;
    kvr_http_server_t *admin_server;   /* --admin-listen; NULL when off */
    kvr_apikeys_t *apikeys;            /* --api-keys-file in force; NULL = no client keys */
    struct kvr_tls_ctx_s *client_tls;  /* --tls-cert on the client listener; NULL = plain */
    struct kvr_tls_ctx_s *admin_tls;   /* the same pair on --admin-listen, counted apart */
    struct kvr_tls_ctx_s *engine_tls;  /* https:// engines: --engine-ca or the system store */
    kvr_health_t *health;              /* timers and checks; NULL when not started */
    kvr_router_discovery_t *discovery; /* --engine-dns, NULL when none */
    struct kvr_share_s *share;         /* --share, NULL when off */
    struct kvr_router_add_s *adds;     /* engines waiting for their name's address */
    uint64_t tokenizer_reloads; /* SIGHUP loads of --tokenizer started: the latest one applies */
    void (*on_drained)(kvr_router_t *r); /* draining and the last request finished */
    void (*on_stopped)(kvr_router_t *r); /* kvr_router_stop finished */
};

#endif
