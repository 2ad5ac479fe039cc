/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_SERVER_H
#define KVR_ROUTER_SERVER_H

#include "router/router.h"

/** The HTTP server's request callback (user = the router): endpoints and the proxy. */
void kvr_router_on_request(kvr_http_req_t *req, void *user);

#endif
