/* SPDX-License-Identifier: Apache-2.0 */
#include "statefeed/http_client.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/error.h"
#include "common/xmalloc.h"

#define RECV_CHUNK 65536

struct io_uring_sqe *kvr__ring_sqe(struct io_uring *ring)
{
    struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
    if (sqe == NULL) {
        io_uring_submit(ring);
        sqe = io_uring_get_sqe(ring);
    }
    return sqe;
}

/* A linked pair must land in one submission: a chain cut by a submit boundary
 * would leave the operation without its timeout. */
static struct io_uring_sqe *ring_sqe_pair(struct io_uring *ring)
{
    if (io_uring_sq_space_left(ring) < 2)
        io_uring_submit(ring);
    if (io_uring_sq_space_left(ring) < 2)
        return NULL;
    return io_uring_get_sqe(ring);
}

bool kvr__ring_can_skip(const struct io_uring *ring)
{
    return (ring->features & IORING_FEAT_CQE_SKIP) != 0;
}

int kvr__ring_link_timeout(struct io_uring *ring, struct io_uring_sqe *sqe,
                           struct __kernel_timespec *ts, uint64_t deadline_ns)
{
    uint64_t now = kvr_clock_now_ns();
    uint64_t left = deadline_ns > now ? deadline_ns - now : 1;
    struct io_uring_sqe *t = io_uring_get_sqe(ring);
    if (t == NULL)
        return -EBUSY;
    ts->tv_sec = (long long)(left / KVR_NS_PER_SEC);
    ts->tv_nsec = (long long)(left % KVR_NS_PER_SEC);
    sqe->flags |= IOSQE_IO_LINK;
    io_uring_prep_link_timeout(t, ts, 0);
    io_uring_sqe_set_data64(t, KVR_OP_IGNORE);
    /* Its completion says nothing the guarded operation does not: skip it. */
    if (kvr__ring_can_skip(ring))
        t->flags |= IOSQE_CQE_SKIP_SUCCESS;
    return 0;
}

/* Copies the body so far into conn->body_buf, which it may then extend by extra bytes. */
static void body_own(kvr__http_client_conn_t *conn, size_t extra)
{
    if (conn->body_buf.base != NULL && conn->body == conn->body_buf.base)
        return;
    /* The old contents need not survive: the body so far lives in recv_buf. */
    kvr_buf_reset(&conn->body_buf);
    (void)kvr_buf_reserve(&conn->body_buf,
                          conn->body_len + extra < 16384 ? 16384 : conn->body_len + extra);
    kvr_buf_append(&conn->body_buf, conn->body, conn->body_len);
    conn->body = conn->body_buf.base;
}

/*
 * A body that arrives whole in one receive (the usual /metrics page) is read
 * where it lies in recv_buf; only one split across receives or chunks is
 * copied into conn->body_buf.
 */
static int on_body(llhttp_t *parser, const char *at, size_t len)
{
    kvr__http_client_conn_t *conn = parser->data;
    if (conn->body_len + len > KVR_HTTP_MAX_BODY) {
        conn->too_large = true;
        return HPE_USER;
    }
    if (conn->body_len == 0 && conn->body == NULL) {
        conn->body = at;
        conn->body_len = len;
        return 0;
    }
    body_own(conn, len);
    kvr_buf_append(&conn->body_buf, at, len);
    conn->body_len = conn->body_buf.len;
    conn->body = conn->body_buf.base;
    return 0;
}

/* The body in recv_buf gets its terminating NUL in the byte after it (a
 * receive leaves one spare byte); what follows one response is not ours. */
static void body_terminate(kvr__http_client_conn_t *conn)
{
    if (conn->body == NULL) {
        conn->body = "";
        return;
    }
    if (conn->body != conn->body_buf.base)
        ((char *)conn->recv_buf)[conn->body + conn->body_len - conn->recv_buf] = '\0';
}

static int on_headers_complete(llhttp_t *parser)
{
    kvr__http_client_conn_t *conn = parser->data;
    conn->status = parser->status_code;
    return 0;
}

static int on_message_complete(llhttp_t *parser)
{
    kvr__http_client_conn_t *conn = parser->data;
    conn->complete = true;
    /* Stop here: anything after one response on this connection is not ours. */
    return HPE_PAUSED;
}

void kvr__http_client_conn_init(kvr__http_client_conn_t *conn, const char *authority)
{
    memset(conn, 0, sizeof(*conn));
    conn->fd = -1;
    conn->op.kind = KVR_OP_HTTP;
    conn->op.owner = conn;
    conn->send_op.kind = KVR_OP_HTTP_SEND;
    conn->send_op.owner = conn;
    snprintf(conn->host_header, sizeof(conn->host_header), "%s", authority);
    llhttp_settings_init(&conn->settings);
    conn->settings.on_body = on_body;
    conn->settings.on_headers_complete = on_headers_complete;
    conn->settings.on_message_complete = on_message_complete;
}

int kvr__http_client_set_addr(kvr__http_client_conn_t *conn, const struct sockaddr *addr,
                              socklen_t addr_len)
{
    if (addr_len == 0 || addr_len > sizeof(conn->addr))
        return -EINVAL;
    kvr__http_client_disconnect(conn); /* a new address: the next request connects there */
    memcpy(&conn->addr, addr, addr_len);
    conn->addr_len = addr_len;
    return 0;
}

void kvr__http_client_disconnect(kvr__http_client_conn_t *conn)
{
    if (conn->fd >= 0)
        close(conn->fd);
    conn->fd = -1;
}

void kvr__http_client_conn_close(kvr__http_client_conn_t *conn)
{
    kvr__http_client_disconnect(conn);
    free(conn->recv_buf);
    kvr_buf_close(&conn->body_buf);
    conn->recv_buf = NULL;
    conn->body_len = 0;
}

static void finish(kvr__http_client_conn_t *conn, int result)
{
    conn->stage = KVR_HTTP_IDLE;
    body_terminate(conn);
    if (result < 0 || !llhttp_should_keep_alive(&conn->parser))
        kvr__http_client_disconnect(conn);
    conn->done(conn, result, conn->done_arg);
}

static int submit_connect(kvr__http_client_conn_t *conn, struct io_uring *ring)
{
    int fd = socket(conn->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -errno;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    struct io_uring_sqe *sqe = ring_sqe_pair(ring);
    if (sqe == NULL) {
        close(fd);
        return -EBUSY;
    }
    conn->fd = fd;
    conn->reused = false;
    conn->stage = KVR_HTTP_CONNECTING;
    io_uring_prep_connect(sqe, fd, (struct sockaddr *)&conn->addr, conn->addr_len);
    io_uring_sqe_set_data(sqe, &conn->op);
    return kvr__ring_link_timeout(ring, sqe, &conn->timeout_ts, conn->deadline_ns);
}

/*
 * One poll on an open connection is one chain: SEND -> RECV -> LINK_TIMEOUT.
 * The send's success posts no completion (IOSQE_CQE_SKIP_SUCCESS) and the
 * timeout's none either, so a poll costs one completion and one wakeup. If the
 * send fails, the kernel fails it, then cancels the receive: both completions
 * arrive, in that order, and the receive's cancellation finishes the request
 * with the send's error. MSG_WAITALL keeps a short send from breaking the link.
 */
static int submit_exchange(kvr__http_client_conn_t *conn, struct io_uring *ring)
{
    if (io_uring_sq_space_left(ring) < 3)
        io_uring_submit(ring);
    if (io_uring_sq_space_left(ring) < 3)
        return -EBUSY;
    struct io_uring_sqe *send = io_uring_get_sqe(ring);
    conn->stage = KVR_HTTP_RECEIVING;
    conn->send_error = 0;
    io_uring_prep_send(send, conn->fd, conn->request, conn->request_len,
                       MSG_NOSIGNAL | MSG_WAITALL);
    io_uring_sqe_set_data(send, &conn->send_op);
    send->flags |= IOSQE_IO_LINK | (kvr__ring_can_skip(ring) ? IOSQE_CQE_SKIP_SUCCESS : 0);
    struct io_uring_sqe *recv = io_uring_get_sqe(ring);
    io_uring_prep_recv(recv, conn->fd, conn->recv_buf, conn->recv_cap - 1, 0);
    io_uring_sqe_set_data(recv, &conn->op);
    return kvr__ring_link_timeout(ring, recv, &conn->timeout_ts, conn->deadline_ns);
}

/* defer_recv: the request alone; its success posts no completion. A request
 * of a few hundred bytes on an idle connection goes out at once. */
static int submit_send(kvr__http_client_conn_t *conn, struct io_uring *ring)
{
    struct io_uring_sqe *send = kvr__ring_sqe(ring);
    if (send == NULL)
        return -EBUSY;
    conn->stage = KVR_HTTP_SENT;
    conn->send_error = 0;
    io_uring_prep_send(send, conn->fd, conn->request, conn->request_len,
                       MSG_NOSIGNAL | MSG_WAITALL);
    io_uring_sqe_set_data(send, &conn->send_op);
    if (kvr__ring_can_skip(ring))
        send->flags |= IOSQE_CQE_SKIP_SUCCESS;
    return 0;
}

static int submit_recv(kvr__http_client_conn_t *conn, struct io_uring *ring)
{
    struct io_uring_sqe *sqe = ring_sqe_pair(ring);
    if (sqe == NULL)
        return -EBUSY;
    conn->stage = KVR_HTTP_RECEIVING;
    io_uring_prep_recv(sqe, conn->fd, conn->recv_buf, conn->recv_cap - 1, 0);
    io_uring_sqe_set_data(sqe, &conn->op);
    return kvr__ring_link_timeout(ring, sqe, &conn->timeout_ts, conn->deadline_ns);
}

/* Sends on the open connection or connects first. */
static int start_exchange(kvr__http_client_conn_t *conn, struct io_uring *ring)
{
    conn->received_total = 0;
    conn->complete = false;
    conn->too_large = false;
    conn->status = 0;
    conn->body_len = 0;
    conn->body = NULL;
    llhttp_init(&conn->parser, HTTP_RESPONSE, &conn->settings);
    conn->parser.data = conn;
    if (conn->fd >= 0) {
        conn->reused = true;
        if (conn->defer_recv && !conn->retried && kvr__ring_can_skip(ring))
            return submit_send(conn, ring);
        return submit_exchange(conn, ring);
    }
    return submit_connect(conn, ring);
}

int kvr__http_client_get(kvr__http_client_conn_t *conn, struct io_uring *ring, const char *path,
                         uint64_t timeout_ns, kvr__http_client_done_cb done, void *arg)
{
    if (kvr__http_client_busy(conn))
        return -EALREADY;
    if (conn->addr_len == 0)
        return -EDESTADDRREQ; /* the engine's name has not resolved yet */
    if (conn->recv_buf == NULL) {
        conn->recv_buf = kvr_xmalloc(RECV_CHUNK);
        conn->recv_cap = RECV_CHUNK;
    }
    int n = snprintf(conn->request, sizeof(conn->request),
                     "GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: kvroute-statefeed\r\n"
                     "Accept: */*\r\nConnection: keep-alive\r\n\r\n",
                     path, conn->host_header);
    if (n < 0 || (size_t)n >= sizeof(conn->request))
        return -ENAMETOOLONG;
    conn->request_len = (size_t)n;
    conn->deadline_ns = kvr_clock_now_ns() + timeout_ns;
    conn->done = done;
    conn->done_arg = arg;
    conn->retried = false;
    int rc = start_exchange(conn, ring);
    if (rc < 0) {
        conn->stage = KVR_HTTP_IDLE;
        kvr__http_client_disconnect(conn);
    }
    return rc;
}

/* A kept-alive connection the peer closed while idle fails on first use; that
 * is not the engine failing, so reconnect once within the same deadline. */
static bool retry_fresh(kvr__http_client_conn_t *conn, struct io_uring *ring)
{
    if (!conn->reused || conn->retried || conn->received_total > 0)
        return false;
    if (kvr_clock_now_ns() >= conn->deadline_ns)
        return false;
    conn->retried = true;
    kvr__http_client_disconnect(conn);
    return start_exchange(conn, ring) == 0;
}

static void on_recv(kvr__http_client_conn_t *conn, struct io_uring *ring, int res)
{
    if (res == 0) {
        if (retry_fresh(conn, ring))
            return;
        /* EOF: completes a body delimited by connection close, else it is cut short. */
        if (conn->received_total > 0 && llhttp_finish(&conn->parser) == HPE_OK && conn->complete) {
            kvr__http_client_disconnect(conn);
            finish(conn, 0);
            return;
        }
        finish(conn, -ECONNRESET);
        return;
    }
    conn->received_total += (size_t)res;
    llhttp_errno_t err = llhttp_execute(&conn->parser, conn->recv_buf, (size_t)res);
    if (err == HPE_PAUSED || (err == HPE_OK && conn->complete)) {
        finish(conn, 0);
        return;
    }
    if (err != HPE_OK) {
        finish(conn, conn->too_large ? -EFBIG : KVR_EPARSE);
        return;
    }
    /* The next receive overwrites recv_buf: a partial body moves out first. */
    if (conn->body != NULL && conn->body != conn->body_buf.base)
        body_own(conn, 0);
    if (submit_recv(conn, ring) < 0)
        finish(conn, -EBUSY);
}

void kvr__http_client_recv_now(kvr__http_client_conn_t *conn, struct io_uring *ring, bool probe)
{
    if (conn->stage != KVR_HTTP_SENT)
        return;
    if (conn->send_error == 0 && kvr_clock_now_ns() >= conn->deadline_ns) {
        conn->stage = KVR_HTTP_RECEIVING;
        finish(conn, -ETIMEDOUT);
        return;
    }
    if (conn->send_error != 0) {
        int err = conn->send_error;
        conn->stage = KVR_HTTP_RECEIVING;
        if ((err == -ECONNRESET || err == -EPIPE) && retry_fresh(conn, ring))
            return;
        finish(conn, err);
        return;
    }
    if (probe) {
        struct io_uring_sqe *sqe = kvr__ring_sqe(ring);
        if (sqe == NULL) {
            finish(conn, -EBUSY);
            return;
        }
        conn->stage = KVR_HTTP_PROBING;
        io_uring_prep_recv(sqe, conn->fd, conn->recv_buf, conn->recv_cap - 1, MSG_DONTWAIT);
        io_uring_sqe_set_data(sqe, &conn->op);
        return;
    }
    if (submit_recv(conn, ring) < 0)
        finish(conn, -EBUSY);
}

void kvr__http_client_on_send_cqe(kvr__http_client_conn_t *conn, int res)
{
    /* Only failures arrive here where the kernel can skip successes. */
    if (res < 0)
        conn->send_error = res;
    else if ((size_t)res < conn->request_len)
        conn->send_error = -EIO;
}

void kvr__http_client_on_cqe(kvr__http_client_conn_t *conn, struct io_uring *ring, int res)
{
    if (res == -ECANCELED && conn->send_error != 0)
        res = conn->send_error; /* the receive was cancelled because the send failed */
    else if (res == -ECANCELED)
        res = -ETIMEDOUT; /* the linked timeout fired */
    switch (conn->stage) {
    case KVR_HTTP_CONNECTING:
        if (res < 0) {
            finish(conn, res);
            return;
        }
        if (submit_exchange(conn, ring) < 0)
            finish(conn, -EBUSY);
        return;
    case KVR_HTTP_PROBING:
        if (res == -EAGAIN) {
            conn->stage = KVR_HTTP_SENT; /* nothing yet: the owner probes again */
            return;
        }
        conn->stage = KVR_HTTP_RECEIVING;
        /* fall through - the probe's completion is a receive's */
    case KVR_HTTP_RECEIVING:
        if (res < 0) {
            if ((res == -ECONNRESET || res == -EPIPE) && retry_fresh(conn, ring))
                return;
            finish(conn, res);
            return;
        }
        on_recv(conn, ring, res);
        return;
    case KVR_HTTP_SENT:
    case KVR_HTTP_IDLE: return; /* a late completion after the request ended */
    }
}
