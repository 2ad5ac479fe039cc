/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_FETCH_H
#define KVR_ROUTER_FETCH_H

/*
 * A whole-body GET towards one engine over its upstream pool, for the
 * router's own needs: health checks, the /v1/models union, ES=0
 * reconciliation against /metrics.
 */

#include <stddef.h>
#include <stdint.h>

#include "router/upstream.h"

typedef struct kvr_fetch_s kvr_fetch_t;

/** status: the HTTP status, or a negative errno when no whole response arrived. */
typedef void (*kvr_fetch_cb)(void *arg, int status, const char *body, size_t len);

/**
 * GETs path from pool with timeout_ms for each phase; the body is kept up to
 * max_body bytes (beyond: -EFBIG). 0 with *out set (cb runs exactly once
 * unless kvr_fetch_cancel is called first), or a negative errno.
 */
int kvr_fetch(kvr_upstream_pool_t *pool, const char *path, uint64_t timeout_ms, size_t max_body,
              kvr_fetch_cb cb, void *arg, kvr_fetch_t **out);
/** Cancels a fetch: cb does not run. */
void kvr_fetch_cancel(kvr_fetch_t *f);

#endif
