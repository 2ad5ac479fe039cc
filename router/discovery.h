/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_DISCOVERY_H
#define KVR_ROUTER_DISCOVERY_H

/*
 * --engine-dns for the gateway: one DNS watch (common/dns_watch.h) per
 * name, whose addresses become engines through the router's add and remove
 * callbacks, the same path as POST /engines and SIGHUP: a vanished engine
 * leaves the candidate set at once and is dropped when its in-flight
 * requests finished. An engine given with --engine, or by another name
 * first, is never removed by a name.
 */

#include <stdbool.h>
#include <uv.h>

#include "common/prom_writer.h"
#include "router/config.h"
#include "router/door.h"

/** What discovery uses; the router fills it. */
typedef struct kvr_discovery_env_s {
    uv_loop_t *loop;
    const kvr_router_config_t *cfg;
    kvr_door_t *door;                           /* engines by id or index, for reading */
    int (*add)(void *ctx, const char *url);     /* adds the engine at url: 0 or -errno */
    void (*remove)(void *ctx, kvr_engine_t *e); /* removes e; its in-flight requests finish */
    void *ctx;
} kvr_discovery_env_t;

typedef struct kvr_router_discovery_s kvr_router_discovery_t;

/**
 * Starts resolving every --engine-dns name (*out NULL without one). 0 or
 * -errno, logged; on error *out may hold what started, to stop and close.
 */
int kvr_router_discovery_start(const kvr_discovery_env_t *env, kvr_router_discovery_t **out);
/** Stops resolving; done(ctx) runs once no discovery handle is left on the loop (at once for NULL). */
void kvr_router_discovery_stop(kvr_router_discovery_t *d, void (*done)(void *ctx), void *ctx);
/** Frees the discovery state (NULL: nothing); after the loop ended. */
void kvr_router_discovery_close(kvr_router_discovery_t *d);
/** True when an --engine-dns name added the engine of this id (SIGHUP keeps it). */
bool kvr_router_discovery_owns(const kvr_router_discovery_t *d, const char *id);
/** The kvroute_discovery_* families (none without --engine-dns). */
void kvr_router_discovery_metrics(const kvr_router_discovery_t *d, kvr_prom_writer_t *w);

#endif
