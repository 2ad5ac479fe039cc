/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_HTTP_SERVER_H
#define KVR_COMMON_HTTP_SERVER_H

/*
 * A small HTTP/1.1 server on libuv + llhttp, shared by the router, the engine
 * simulator and statefeed's metrics endpoint.
 *
 * Model: one request callback. The server reads a request completely (headers
 * and body, bounded) before calling it, so a handler always sees the whole
 * body. Each connection carries one request at a time: bytes of a pipelined
 * next request are buffered and parsed only after the current response ends,
 * so responses go out in request order. Reading continues while a request is
 * in flight so that a client that disconnects is noticed at once (on_abort).
 * Between requests, a connection whose queued response bytes exceed
 * KVR_HTTP_MAX_QUEUED_OUTPUT stops reading and parsing until the client has
 * taken them; if it takes nothing for idle_timeout_ms it is closed.
 *
 * Connections beyond max_connections, or beyond max_connections_per_peer
 * from one client address, are accepted and closed at once; they are counted
 * (kvr_http_server_stats) and logged at most once a second, with how many
 * were refused since the last line.
 *
 * Responses are either whole (kvr_http_respond, with Content-Length) or
 * streamed (kvr_http_stream_begin, then writes, then kvr_http_stream_end),
 * chunked or with a Content-Length known in advance. Server-sent events are a
 * chunked stream of "data: ...\n\n" writes.
 *
 * Errors the server produces itself are OpenAI-shaped JSON
 * ({"error":{"message":...,"type":...,"code":<status>}}): 400 malformed
 * request, 405 CONNECT, 408 request not read in time, 413 body larger than
 * max_body_bytes (refused from Content-Length before the body is read, or
 * as a chunked body grows past it), 431 request line + headers larger than
 * max_header_bytes. After any of these the connection is closed. The server
 * never switches protocols: a request with Upgrade (WebSocket, h2c) is read
 * and answered as plain HTTP/1.1, the Upgrade header ignored as RFC 9110
 * 7.8 allows, and the connection stays open for the next request; the
 * client learns of the refusal from the absence of 101. HTTP/2's preface
 * ("PRI * HTTP/2.0") is refused with 400. "Expect: 100-continue" is
 * answered before the body is read.
 *
 * Lifetime of a request (kvr_http_req_t):
 *  - It is created by the server and handed to on_request. From then on the
 *    handler owns it until it calls exactly one finishing function:
 *    kvr_http_respond(), kvr_http_respond_error(), kvr_http_stream_end() or
 *    kvr_http_req_abandon(). The request is freed inside (or shortly after)
 *    that call; the pointer must not be used afterwards.
 *  - If the client goes away (EOF, reset, write error) or the server is
 *    destroyed while the handler still owns the request, the on_abort
 *    callback (if registered) runs once. The request stays valid: writes
 *    return -EPIPE and do nothing, and the handler must still finish it
 *    (kvr_http_req_abandon() or any other finishing function), typically
 *    from on_abort itself or when its pending work is cancelled.
 *  - A handler may finish the request synchronously inside on_request.
 *
 * Everything runs on the loop thread; no function here is thread-safe.
 */

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

typedef struct kvr_http_server_s kvr_http_server_t;
typedef struct kvr_http_req_s kvr_http_req_t;

/** One header line; name and value are NUL-terminated. */
typedef struct kvr_http_header_s {
    const char *name;
    const char *value;
} kvr_http_header_t;

/** Called once per complete request; the handler owns req until it finishes it. */
typedef void (*kvr_http_request_cb)(kvr_http_req_t *req, void *user);
/** Called once when the client of a request still owned by its handler went away. */
typedef void (*kvr_http_abort_cb)(kvr_http_req_t *req, void *arg);
/** Called when every byte queued on the request's connection has been written. */
typedef void (*kvr_http_drain_cb)(kvr_http_req_t *req, void *arg);
/** Called once when a by-reference write completed (status 0) or was dropped (negative errno). */
typedef void (*kvr_http_write_cb)(void *arg, int status);
/** Called once when a destroyed server has released every handle and request. */
typedef void (*kvr_http_closed_cb)(void *arg);

#define KVR_HTTP_DEFAULT_MAX_HEADER_BYTES (16u * 1024u)
#define KVR_HTTP_DEFAULT_MAX_BODY_BYTES (8u * 1024u * 1024u)
#define KVR_HTTP_DEFAULT_IDLE_TIMEOUT_MS 60000u
#define KVR_HTTP_DEFAULT_REQUEST_TIMEOUT_MS 30000u
#define KVR_HTTP_DEFAULT_MAX_CONNECTIONS 4096u
#define KVR_HTTP_DEFAULT_MAX_CONNECTIONS_PER_PEER 1024u
/* Upper bound for max_connections: the per-peer table is sized from it. */
#define KVR_HTTP_MAX_CONNECTIONS_LIMIT 1048576u
/*
 * Response bytes a connection may have queued (written by handlers, not yet
 * taken by the socket) before its pipelined input waits: a client that sends
 * requests and never reads holds at most this plus one response, not one
 * response per request it sent. Reading and parsing resume once the queue
 * is down to half of it.
 */
#define KVR_HTTP_MAX_QUEUED_OUTPUT (64u * 1024u)

/** Content length meaning "unknown: send chunked" for kvr_http_stream_begin. */
#define KVR_HTTP_CHUNKED (-1)

typedef struct kvr_http_server_config_s {
    const char *host;        /* address to bind, IPv4 or IPv6 literal; default "127.0.0.1" */
    int port;                /* 0 picks a free port (see kvr_http_server_port) */
    int backlog;             /* listen() backlog; default 511 */
    size_t max_header_bytes; /* request line + header bytes; beyond → 431 */
    size_t max_body_bytes;   /* request body bytes; beyond → 413 */
    uint32_t
        idle_timeout_ms; /* no request under way (from accept, between keep-alive requests) → closed */
    uint32_t request_timeout_ms; /* first byte to complete request; beyond → 408 (slow clients) */
    uint32_t max_connections;    /* further connections are accepted and closed at once */
    uint32_t max_connections_per_peer; /* same, per client IP address (TCP only); 0: no limit */
    kvr_http_request_cb on_request;
    void *user; /* passed to on_request */
    /* TLS on every connection (common/tls.h; the caller keeps it alive); NULL = plain HTTP */
    struct kvr_tls_ctx_s *tls;
} kvr_http_server_config_t;

/** What the server refused and paused, for a program's /metrics. */
typedef struct kvr_http_server_stats_s {
    uint64_t refused_max_connections; /* accepted and closed: max_connections were open */
    uint64_t refused_per_peer;        /* accepted and closed: the peer had its share open */
    uint64_t output_pauses;           /* times a connection's input waited for its output */
    uint64_t output_timeouts;         /* connections closed: paused output not taken in time */
    size_t paused_connections;        /* connections whose input waits now */
    size_t queued_bytes;              /* response bytes queued on all connections */
} kvr_http_server_stats_t;

/** Fills cfg with the defaults above (host 127.0.0.1, port 0, no callback). */
void kvr_http_server_config_init(kvr_http_server_config_t *cfg);

/** Binds and listens; -EINVAL for a bad config, -EADDRINUSE etc. from the socket calls. */
int kvr_http_server_create(uv_loop_t *loop, const kvr_http_server_config_t *cfg,
                           kvr_http_server_t **out);

/**
 * Stops listening, closes every connection (requests still owned by handlers
 * get on_abort) and frees the server once every handle is closed and every
 * owned request is finished; closed(arg) runs then (may be NULL).
 */
void kvr_http_server_destroy(kvr_http_server_t *srv, kvr_http_closed_cb closed, void *arg);

/** The port actually bound (useful with port 0). */
int kvr_http_server_port(const kvr_http_server_t *srv);

/** Connections currently open. */
size_t kvr_http_server_connections(const kvr_http_server_t *srv);

/**
 * Raises the process's open-file soft limit to its hard limit (each
 * connection is a descriptor), logs it, and warns when it is too low for
 * `connections` (the sum of the program's max_connections); *nofile (may be
 * NULL) gets it. 0, or a negative errno when it could not be read or raised.
 */
int kvr_http_raise_fd_limit(uint64_t connections, uint64_t *nofile);

struct kvr_prom_writer_s;
/**
 * Writes <prefix>_http_connections, _http_connections_refused_total{reason=
 * "total"|"per_peer"}, _http_output_paused_total and _http_output_timeouts_total.
 */
void kvr_http_server_write_metrics(const kvr_http_server_t *srv, struct kvr_prom_writer_s *w,
                                   const char *prefix);

/** Refusal and backpressure counts since the server was created. */
void kvr_http_server_stats(const kvr_http_server_t *srv, kvr_http_server_stats_t *out);

/**
 * Memory held for the open connections: connection objects, input buffered
 * and not yet parsed, and the requests being read or served (their target,
 * headers and body). Input is parsed straight from the read and only the
 * bytes of a pipelined next request are kept, so an idle connection holds
 * about a kilobyte. Queued response bytes are not included
 * (kvr_http_stream_queued counts them).
 */
size_t kvr_http_server_connection_bytes(const kvr_http_server_t *srv);

/**
 * Serves an already connected stream socket (TCP, or a Unix socket such as
 * one end of a socketpair) as if the listener had accepted it: for tests and
 * fuzzing, which drive the server without a network. On 0 the server owns
 * fd and closes it with the connection; on a negative errno (-EINVAL: not a
 * stream socket or the server is being destroyed, -EBUSY: max_connections
 * reached, counted like a refused connection) the caller keeps it.
 */
int kvr_http_server_adopt_fd(kvr_http_server_t *srv, uv_os_sock_t fd);

/* ---- the request ---- */

/** Method name, e.g. "GET", "POST". */
const char *kvr_http_req_method(const kvr_http_req_t *req);
/** Path of the request target without the query, e.g. "/v1/loads" (not percent-decoded). */
const char *kvr_http_req_path(const kvr_http_req_t *req);
/** Query string after '?', "" when absent (not percent-decoded). */
const char *kvr_http_req_query(const kvr_http_req_t *req);
/**
 * Value of query parameter name copied into out (NUL-terminated, truncated to
 * cap); 1 when present (possibly empty value), 0 when absent.
 */
int kvr_http_req_query_param(const kvr_http_req_t *req, const char *name, char *out, size_t cap);
/** First header with this name (case-insensitive), NULL when absent. */
const char *kvr_http_req_header(const kvr_http_req_t *req, const char *name);
/** Number of request headers, and the i-th one in arrival order. */
size_t kvr_http_req_header_count(const kvr_http_req_t *req);
const kvr_http_header_t *kvr_http_req_header_at(const kvr_http_req_t *req, size_t i);
/** The whole body (chunked bodies already de-chunked), NUL-terminated; *len its length. */
const char *kvr_http_req_body(const kvr_http_req_t *req, size_t *len);
/** Peer address as "ip:port". */
const char *kvr_http_req_peer(const kvr_http_req_t *req);
/** Monotonic time (kvr_clock_now_ns) when the request's first byte arrived. */
uint64_t kvr_http_req_start_ns(const kvr_http_req_t *req);
/** Server user pointer (config.user). */
void *kvr_http_req_server_user(const kvr_http_req_t *req);
/** Per-request user pointer for the handler's own state. */
void kvr_http_req_set_data(kvr_http_req_t *req, void *data);
void *kvr_http_req_data(const kvr_http_req_t *req);
/** True once the client went away (writes are then dropped). */
int kvr_http_req_aborted(const kvr_http_req_t *req);
/** Registers the abort callback (replaces any earlier one). Runs at most once. */
void kvr_http_req_on_abort(kvr_http_req_t *req, kvr_http_abort_cb cb, void *arg);

/* ---- whole responses (each finishes the request) ---- */

/**
 * Sends status, Content-Type (NULL: none), extra headers and body with a
 * Content-Length. Returns 0, or -EPIPE when the client is already gone (the
 * request is finished either way).
 */
int kvr_http_respond(kvr_http_req_t *req, int status, const char *content_type,
                     const kvr_http_header_t *headers, size_t nheaders, const void *body,
                     size_t len);

/**
 * OpenAI-shaped JSON error: {"error":{"message","type","param":null,"code"}}, code a
 * string named from the status (rate_limit_exceeded, service_unavailable, ...) or null.
 * type NULL picks one from the status (invalid_request_error for 4xx,
 * rate_limit_error for 429, server_error for 5xx). Extra headers (e.g.
 * Retry-After) may be given. Finishes the request like kvr_http_respond.
 */
int kvr_http_respond_error(kvr_http_req_t *req, int status, const char *type, const char *message,
                           const kvr_http_header_t *headers, size_t nheaders);

/** Writes the OpenAI error JSON for (status, type, message) into out; returns its length or -ENOSPC. */
int kvr_http_error_json(char *out, size_t cap, int status, const char *type, const char *message);

/** Standard reason phrase ("Not Found"); "Unknown" for codes it does not know. */
const char *kvr_http_status_reason(int status);

/* ---- streamed responses ---- */

/**
 * Sends the status line and headers. content_length KVR_HTTP_CHUNKED (-1)
 * streams with Transfer-Encoding: chunked; a value >= 0 sends it as
 * Content-Length and the writes must add up to it exactly. -EPIPE when the
 * client is gone, -EALREADY when a response was already begun.
 */
int kvr_http_stream_begin(kvr_http_req_t *req, int status, const char *content_type,
                          const kvr_http_header_t *headers, size_t nheaders,
                          int64_t content_length);

/** Copies len bytes and queues them (as one chunk when chunked). 0, or -EPIPE when the client is gone. */
int kvr_http_stream_write(kvr_http_req_t *req, const void *data, size_t len);

/**
 * Queues len bytes without copying: data must stay valid until done(arg,
 * status) runs, which happens exactly once when the call returned 0 (status 0
 * written, negative errno dropped). On a negative return done is not called.
 */
int kvr_http_stream_write_ref(kvr_http_req_t *req, const void *data, size_t len,
                              kvr_http_write_cb done, void *arg);

/** Bytes queued on the connection and not yet written to the socket (backpressure). */
size_t kvr_http_stream_queued(const kvr_http_req_t *req);

/**
 * Registers a callback run each time the queued bytes fall to zero while the
 * request is still owned (replaces any earlier one): pause the producer when
 * kvr_http_stream_queued() is high, resume it here.
 */
void kvr_http_req_on_drain(kvr_http_req_t *req, kvr_http_drain_cb cb, void *arg);

/**
 * Ends the response (the terminating chunk when chunked) and finishes the
 * request; the connection then serves its next request. A Content-Length
 * stream that is short is closed instead, so the client sees it truncated.
 * Without kvr_http_stream_begin it sends an empty 200.
 */
int kvr_http_stream_end(kvr_http_req_t *req);

/**
 * Finishes the request without a (complete) response: the connection is
 * closed, so a client mid-stream sees the stream cut. Used after on_abort,
 * or to cut a stream (upstream failed after bytes flowed). A handler that
 * wants a client to hang (a stalled engine) simply keeps the request and
 * abandons it from on_abort.
 */
void kvr_http_req_abandon(kvr_http_req_t *req);

#endif
