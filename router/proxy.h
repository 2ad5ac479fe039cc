/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_PROXY_H
#define KVR_ROUTER_PROXY_H

/*
 * The request path: keys, routing through the decider door, the upstream
 * attempt and its retries, the answer streamed back. It sees the router
 * only through kvr_proxy_env_t, which the router (router/router.c) fills.
 */

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "common/http_server.h"
#include "common/recycle.h"
#include "router/config.h"
#include "router/door.h"
#include "router/metrics.h"
#include "router/tokenizers.h"

/** Proxied requests in flight, and who hears when the last one ends while draining. */
typedef struct kvr_drain_s {
    uint32_t in_flight; /* proxied requests not finished */
    bool draining;      /* set by the router's drain: /health says so and new requests get 503 */
    void (*on_drained)(void *ctx); /* draining and in_flight reached 0 */
    void *ctx;
} kvr_drain_t;

/** What the proxy works with: the router's parts it may touch, nothing else. */
typedef struct kvr_proxy_env_s {
    uv_loop_t *loop;
    const kvr_router_config_t *cfg;
    kvr_door_t *door;
    kvr_router_metrics_t *metrics;
    kvr_recycle_t proxies; /* finished requests' state kept for the next ones */
    kvr_drain_t drain;
    uint64_t request_seq; /* for generated request ids */
    uint64_t id_prefix;
    kvr_tokenizer_set_t *tokenizers;     /* --tokenizer models, NULL: none; the router swaps it */
    struct kvr_turn_cache_s *turn_cache; /* --tokenize-cache-mb, NULL: off */
    uint64_t tokenize_log_ns;      /* last tokenize_fallback log line (at most one a second) */
    uint64_t tokenize_log_skipped; /* fallbacks not logged since */
    uint64_t pd_room_rng;          /* SGLang's bootstrap rooms: a splitmix64 stream */
    struct proxy_s *in_flight;     /* every proxied request not finished, for the cut at shutdown */
} kvr_proxy_env_t;

/** Fills env (its recycler, a request id prefix of this process); the caller sets the drain's callback. */
void kvr_proxy_env_init(kvr_proxy_env_t *env, uv_loop_t *loop, const kvr_router_config_t *cfg,
                        kvr_door_t *door, kvr_router_metrics_t *metrics);
/** Frees what kvr_proxy_env_init made; once no proxied request is left. */
void kvr_proxy_env_close(kvr_proxy_env_t *env);

/**
 * Proxies one inference request (body complete): extracts the routing keys,
 * routes, forwards the body unchanged, streams the answer back, retries
 * before the first byte, and releases the shadow charge on every path.
 * Finishes req in all cases.
 */
void kvr_proxy_handle(kvr_proxy_env_t *env, kvr_http_req_t *req);

/**
 * Ends every request in flight now, at a shutdown that cannot wait for them
 * (the drain timeout, a second signal): a client that has the answer's head
 * gets an SSE error event when it streams (OpenAI's SDKs raise it), then the
 * body is cut; one still waiting for an engine gets a 503. Requests whose
 * keys a worker thread is reading finish when it is done. Returns how many
 * were ended; their bytes are queued on the client connections, which close
 * once those are written.
 */
size_t kvr_proxy_cut_all(kvr_proxy_env_t *env, const char *why);

/** Copies a client's X-Request-ID when it is sane, else generates one. */
void kvr_proxy_request_id(kvr_proxy_env_t *env, const char *given, char *out, size_t cap);

#endif
