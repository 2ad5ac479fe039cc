/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_UPSTREAM_H
#define KVR_ROUTER_UPSTREAM_H

/*
 * HTTP/1.1 client towards one engine: a keep-alive connection pool per
 * engine, requests written as given (the body by reference, unchanged) and
 * responses parsed with llhttp and handed over piece by piece as they
 * arrive. One request per connection at a time.
 *
 * A request ends with exactly one on_end call, unless the caller cancels it
 * first (then no callback runs at all). A reused keep-alive connection that
 * the engine closed meanwhile is replaced by a fresh one, once, before any
 * response byte: that is the pool's business, not a retry.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

#include "common/http_server.h"
#include "common/recycle.h"

typedef struct kvr_upstream_pool_s kvr_upstream_pool_t;
typedef struct kvr_upstream_s kvr_upstream_t;

/** Where a request was when it ended. */
typedef enum {
    KVR_UPSTREAM_CONNECT = 0, /* connecting or writing: the engine has not seen the request */
    KVR_UPSTREAM_WAIT,        /* request sent, no response byte yet */
    KVR_UPSTREAM_BODY,        /* response head received */
} kvr_upstream_phase_t;

typedef struct kvr_upstream_cbs_s {
    /** Response head. content_length -1 when the body is chunked or read to EOF. */
    void (*on_head)(void *arg, int status, const kvr_http_header_t *headers, size_t n,
                    int64_t content_length);
    /** A piece of the response body (de-chunked). */
    void (*on_data)(void *arg, const char *data, size_t len);
    /**
     * The end: 0 when the whole response arrived; -ETIMEDOUT, -ECONNREFUSED,
     * -ECONNRESET, -EPROTO (unparsable response), ... otherwise, with the phase
     * it happened in. The handle is freed after this returns.
     */
    void (*on_end)(void *arg, int status, kvr_upstream_phase_t phase);
    /**
     * May be NULL. Runs after each batch of response bytes was handed over
     * (on_head / on_data) and the response is not complete yet: a caller that
     * gathers a batch into one write flushes it here.
     */
    void (*on_flush)(void *arg);
} kvr_upstream_cbs_t;

typedef struct kvr_upstream_timeouts_s {
    uint64_t connect_ms;    /* TCP connect */
    uint64_t first_byte_ms; /* request written to first response byte */
    uint64_t idle_ms;       /* longest gap between response bytes */
} kvr_upstream_timeouts_t;

/**
 * A pool for one engine. host_header: the Host value. requests: where
 * finished requests are kept for reuse (kvr_upstream_recycle_init; shared by
 * the owner's pools and outliving them), or NULL. 0 or -ENOMEM.
 */
int kvr_upstream_pool_create(uv_loop_t *loop, const struct sockaddr *addr, socklen_t addr_len,
                             const char *host_header, uint32_t max_idle, kvr_recycle_t *requests,
                             kvr_upstream_pool_t **out);
struct kvr_tls_ctx_s;
/**
 * The engine is reached over TLS with tls (NULL: plain again), its certificate
 * checked against server_name (the URL's host), which is also sent as SNI.
 * Applies to connections opened from now on.
 */
void kvr_upstream_pool_set_tls(kvr_upstream_pool_t *pool, struct kvr_tls_ctx_s *tls,
                               const char *server_name);
/** TLS handshakes and sessions with this engine that failed. */
uint64_t kvr_upstream_pool_tls_failures(const kvr_upstream_pool_t *pool);
/** Sets up a recycler of upstream requests for kvr_upstream_pool_create. */
void kvr_upstream_recycle_init(kvr_recycle_t *rec);
/** Closes idle connections; requests in flight finish, then the pool frees itself. */
void kvr_upstream_pool_destroy(kvr_upstream_pool_t *pool);
/** Closes the idle connections only (the engine went down: they are likely dead). */
void kvr_upstream_pool_flush(kvr_upstream_pool_t *pool);
/** Idle and busy connections, for /engines. */
void kvr_upstream_pool_stats(const kvr_upstream_pool_t *pool, uint32_t *idle, uint32_t *busy);

/**
 * Sends method path with headers (without Host, Content-Length, Connection:
 * added here) and body (by reference: it must stay valid until on_end or
 * cancel). 0 with *out set, or a negative errno (no callback will run).
 */
int kvr_upstream_request(kvr_upstream_pool_t *pool, const char *method, const char *path,
                         const kvr_http_header_t *headers, size_t nheaders, const void *body,
                         size_t body_len, const kvr_upstream_timeouts_t *timeouts,
                         const kvr_upstream_cbs_t *cbs, void *arg, kvr_upstream_t **out);
/** Aborts the request: its connection is closed, no callback runs afterwards. */
void kvr_upstream_cancel(kvr_upstream_t *u);
/** Stops (true) or resumes (false) reading the response: backpressure from a slow client. */
void kvr_upstream_pause(kvr_upstream_t *u, bool paused);

#endif
