/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_HEALTH_H
#define KVR_ROUTER_HEALTH_H

/*
 * The router's periodic work on its loop: engine health checks, session
 * expiry, the revival of failed engines without health checks, and with
 * ES=0 the reconciliation of shadow counters against each engine's /metrics.
 * It reaches engines through the decider door (engine_ok / engine_failed,
 * the upstream pools), never the router itself.
 */

#include <uv.h>

#include "router/config.h"
#include "router/door.h"
#include "router/metrics.h"

struct kvr_share_s;

/** What the periodic work uses; the router fills it. */
typedef struct kvr_health_env_s {
    uv_loop_t *loop;
    const kvr_router_config_t *cfg;
    kvr_door_t *door;
    kvr_router_metrics_t *metrics; /* reconciliation counts */
    struct kvr_share_s
        *share; /* --share: this router's row is published each loop turn; NULL when off */
} kvr_health_env_t;

typedef struct kvr_health_s kvr_health_t;

/**
 * Starts the timers (health checks only with --health-interval-ms > 0).
 * 0 with *out set, or -errno with *out NULL (what started closes itself).
 */
int kvr_health_start(const kvr_health_env_t *env, kvr_health_t **out);
/**
 * Stops the timers and cancels the checks in flight; h is freed and
 * closed(ctx) runs once their handles are closed (at once when h is NULL).
 */
void kvr_health_stop(kvr_health_t *h, void (*closed)(void *ctx), void *ctx);

/** One model pool for /readiness: the engines whose list names model. */
typedef struct kvr_readiness_pool_s {
    const char *model; /* valid until an engine's list changes */
    uint32_t healthy;  /* of those, candidates for new requests */
    uint32_t engines;
} kvr_readiness_pool_t;

/** What /readiness says; kvr_health_readiness fills it. */
typedef struct kvr_readiness_s {
    bool ready;
    uint32_t engines, healthy;   /* the whole table */
    uint32_t unlisted_healthy;   /* healthy engines whose list is not known: they serve any model */
    kvr_readiness_pool_t *pools; /* sorted by model; NULL when no engine lists one */
    size_t n_pools, pools_down;  /* a pool is down when no healthy engine serves its model */
} kvr_readiness_t;

/**
 * Counts the engines per model pool; out->ready as mode says (a table of
 * engines that list no model is one pool). kvr_health_readiness_close frees.
 */
void kvr_health_readiness(const kvr_door_t *door, kvr_readiness_mode_t mode, kvr_readiness_t *out);
/** Frees what kvr_health_readiness allocated. */
void kvr_health_readiness_close(kvr_readiness_t *r);

#endif
