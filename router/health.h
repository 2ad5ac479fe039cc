/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_HEALTH_H
#define KVR_ROUTER_HEALTH_H

/*
 * The router's periodic work on its loop: engine health checks, session
 * expiry, the revival of failed engines without health checks, and with
 * ES=0 the reconciliation of shadow counters against each engine's /metrics.
 */

#include "router/router.h"

/**
 * Starts the timers (health checks only with --health-interval-ms > 0).
 * 0 or -errno (nothing started, nothing to stop).
 */
int kvr_health_start(kvr_router_t *r);
/**
 * Stops the timers and cancels the checks in flight; closed(r) runs once
 * their handles are closed (at once when nothing was started).
 */
void kvr_health_stop(kvr_router_t *r, void (*closed)(kvr_router_t *r));

#endif
