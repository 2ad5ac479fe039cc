/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_STATEFEED_HTTP_CLIENT_H
#define KVR_STATEFEED_HTTP_CLIENT_H

/*
 * An HTTP/1.1 GET client over io_uring, one keep-alive connection per
 * engine. Every socket operation is submitted with a linked timeout
 * (IOSQE_IO_LINK + IORING_OP_LINK_TIMEOUT) bounded by the request's
 * deadline, so a stalled peer costs its own request and nothing else.
 * Responses are parsed with llhttp.
 */

#include <liburing.h>
#include <llhttp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "common/buf.h"
#include "statefeed/op.h"

#define KVR_HTTP_MAX_BODY (8u << 20) /* a /metrics page larger than this is refused */

typedef enum {
    KVR_HTTP_IDLE = 0, /* no request in flight (connection may be open) */
    KVR_HTTP_CONNECTING,
    KVR_HTTP_RECEIVING, /* request sent (or being sent, linked) and the answer awaited */
    KVR_HTTP_SENT,      /* defer_recv: request sent, receive not posted yet */
    KVR_HTTP_PROBING,   /* defer_recv: a receive that does not wait is posted */
} kvr__http_client_stage_t;

typedef struct kvr__http_client_conn_s kvr__http_client_conn_t;

/** Called once per request with 0 (status and body filled) or a negative code. */
typedef void (*kvr__http_client_done_cb)(kvr__http_client_conn_t *conn, int result, void *arg);

struct kvr__http_client_conn_s {
    int fd; /* -1 when not connected */
    kvr__http_client_stage_t stage;
    bool reused;  /* the request went out on a kept-alive connection */
    bool retried; /* already reconnected once for this request */
    struct sockaddr_storage addr;
    socklen_t addr_len;
    char host_header[160];
    char request[512];
    size_t request_len;
    int send_error;       /* the linked send's failure, reported by the cancelled receive */
    uint64_t deadline_ns; /* CLOCK_MONOTONIC */
    struct __kernel_timespec timeout_ts;
    kvr__op_t op;      /* connect and receive completions */
    kvr__op_t send_op; /* send completions (failures only, where the kernel can skip) */
    llhttp_t parser;
    llhttp_settings_t settings;
    char *recv_buf;
    size_t recv_cap;
    size_t received_total; /* bytes of this response so far */
    bool complete;
    bool too_large;
    int status;         /* HTTP status of the last response */
    const char *body;   /* NUL-terminated, in recv_buf or body_buf; valid until the next request */
    kvr_buf_t body_buf; /* owned copy, only for a body that spans receives */
    size_t body_len;
    kvr__http_client_done_cb done;
    void *done_arg;
    /* Set by the owner: a request on an open connection posts only the send;
     * kvr__http_client_recv_now posts the receive once the answer has likely arrived,
     * so it completes inside that submission instead of waking the thread. */
    bool defer_recv;
};

/**
 * Prepares conn for the engine at authority ("host:port", the Host header);
 * no address yet (kvr__http_client_set_addr gives it: names are resolved by
 * the caller, off the ring's thread).
 */
void kvr__http_client_conn_init(kvr__http_client_conn_t *conn, const char *authority);

/** Sets where the next connection goes (an open one is dropped): 0 or -EINVAL. */
int kvr__http_client_set_addr(kvr__http_client_conn_t *conn, const struct sockaddr *addr,
                              socklen_t addr_len);

/** Closes the socket and frees buffers; no request may be in flight. */
void kvr__http_client_conn_close(kvr__http_client_conn_t *conn);

/**
 * Starts GET path (which includes the URL's base path) with a deadline
 * timeout_ns from now. Returns 0 (done will be called) or a negative code
 * (done will not be called).
 */
int kvr__http_client_get(kvr__http_client_conn_t *conn, struct io_uring *ring, const char *path,
                         uint64_t timeout_ns, kvr__http_client_done_cb done, void *arg);

/**
 * defer_recv: for a request in stage KVR_HTTP_SENT, posts a receive that
 * takes what has arrived without waiting (probe: an empty socket puts the
 * request back in KVR_HTTP_SENT) or one that waits, bounded by the request's
 * deadline; or finishes the request with the send's failure or a timeout.
 */
void kvr__http_client_recv_now(kvr__http_client_conn_t *conn, struct io_uring *ring, bool probe);

/** Feeds one completion of conn's op (kind KVR_OP_HTTP). */
void kvr__http_client_on_cqe(kvr__http_client_conn_t *conn, struct io_uring *ring, int res);

/** Feeds one completion of conn's send_op (kind KVR_OP_HTTP_SEND). */
void kvr__http_client_on_send_cqe(kvr__http_client_conn_t *conn, int res);

/** True when the kernel can skip successful completions (IOSQE_CQE_SKIP_SUCCESS). */
bool kvr__ring_can_skip(const struct io_uring *ring);

/** Drops the connection (the next request reconnects). */
void kvr__http_client_disconnect(kvr__http_client_conn_t *conn);

/** True while a request is in flight. */
static inline bool kvr__http_client_busy(const kvr__http_client_conn_t *conn)
{
    return conn->stage != KVR_HTTP_IDLE;
}

/**
 * Gets an SQE, submitting pending ones when the ring is full. Returns NULL
 * only when the kernel takes nothing more right now.
 */
struct io_uring_sqe *kvr__ring_sqe(struct io_uring *ring);

/**
 * Prepares a link timeout after sqe (sqe gets IOSQE_IO_LINK) that expires at
 * deadline_ns; ts must live until the ring is submitted. Its own completion
 * is skipped where the kernel can. Returns 0 or -EBUSY when no SQE was
 * available (sqe then runs without a timeout).
 */
int kvr__ring_link_timeout(struct io_uring *ring, struct io_uring_sqe *sqe,
                           struct __kernel_timespec *ts, uint64_t deadline_ns);

#endif
