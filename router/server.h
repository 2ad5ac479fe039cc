/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_SERVER_H
#define KVR_ROUTER_SERVER_H

#include "router/router.h"

/** The HTTP server's request callback (user = the router): endpoints and the proxy. */
void kvr_router_on_request(kvr_http_req_t *req, void *user);

/**
 * Starts the periodic work: health checks, session expiry, ES=0
 * reconciliation. 0 or -errno.
 */
int kvr_router_start_timers(kvr_router_t *r);
/** Stops the timers and cancels checks in flight; closed(r) runs when the handles are closed. */
void kvr_router_stop_timers(kvr_router_t *r, void (*closed)(kvr_router_t *r));

#endif
