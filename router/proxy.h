/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_PROXY_H
#define KVR_ROUTER_PROXY_H

#include "router/router.h"

/**
 * Proxies one inference request (body complete): extracts the routing keys,
 * routes, forwards the body unchanged, streams the answer back, retries
 * before the first byte, and releases the shadow charge on every path.
 * Finishes req in all cases.
 */
void kvr_proxy_handle(kvr_router_t *r, kvr_http_req_t *req);

/** Sets up the recycler of proxied requests' state (the router's r->proxies). */
void kvr_proxy_recycle_init(kvr_recycle_t *rec);

/** Copies a client's X-Request-ID when it is sane, else generates one. */
void kvr_proxy_request_id(kvr_router_t *r, const char *given, char *out, size_t cap);

#endif
