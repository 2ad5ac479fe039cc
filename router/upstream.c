/* SPDX-License-Identifier: Apache-2.0 */
#include "router/upstream.h"

#include <assert.h>
#include <errno.h>
#include <llhttp.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/log.h"
#include "common/recycle.h"
#include "common/tls.h"
#include "common/xmalloc.h"

#define UPSTREAM_MAX_HEAD_BYTES (64 * 1024)
#define UPSTREAM_MAX_HEADERS 128
#define UPSTREAM_READ_BUF (64 * 1024)
/*
 * A timer that fires while its socket is already ready lost a race with the
 * loop, not with the engine (timers run before I/O in a libuv iteration): it
 * is re-armed this many times at most before the timeout counts.
 */
#define UPSTREAM_TIMEOUT_GRACE_MAX 16
#define UPSTREAM_TIMEOUT_GRACE_MS 50
/* The same TLS failure of one engine is logged once in this long (health checks repeat it). */
#define UPSTREAM_TLS_LOG_NS (10ull * 1000000000ull)

typedef struct up_conn_s up_conn_t;

struct kvr_upstream_pool_s {
    uv_loop_t *loop;
    struct sockaddr_storage addr;
    socklen_t addr_len;
    char host[256];
    uint32_t max_idle;
    up_conn_t *idle; /* most recently used first */
    uint32_t n_idle, n_busy, n_conns;
    bool destroyed;
    /*
     * One read buffer for every connection of the pool: a read is parsed and
     * handed over (copied by the caller) inside on_read, so nothing points
     * into it afterwards, and an idle or waiting connection holds no buffer.
     */
    char *rbuf;
    kvr_recycle_t *requests; /* finished requests kept for reuse (the owner's), or NULL */
    kvr_tls_ctx_t *tls;      /* https:// engine: the router's client context; NULL = plain */
    char server_name[256];   /* what its certificate must name, and the SNI */
    uint64_t tls_failures;
    uint64_t tls_logged_ns; /* when tls_why was last logged */
    char tls_why[128];
};

struct kvr_upstream_s {
    kvr_upstream_pool_t *pool;
    up_conn_t *conn;
    kvr_upstream_cbs_t cbs;
    void *arg;
    kvr_upstream_timeouts_t timeouts;
    kvr_upstream_phase_t phase;
    kvr_buf_t head; /* request line + headers */
    const void *body;
    size_t body_len;
    bool fresh_retry_used; /* the one replacement of a dead keep-alive connection */
    bool paused;
    /* response header collection: "name\0value\0" pairs */
    kvr_buf_t hbuf;
    size_t nh;
    bool in_value;
    bool complete;
    bool interim; /* the head being parsed is a 1xx: skipped, the real one follows */
    bool keep_alive;
    bool ended; /* on_end ran or cancel: no more callbacks */
    /* Last: written before it is read, so not cleared when a request is recycled. */
    size_t hoff[UPSTREAM_MAX_HEADERS * 2];
};

struct up_conn_s {
    uv_tcp_t tcp;
    uv_timer_t timer;
    uv_connect_t connect_req;
    uv_write_t write_req;
    kvr_upstream_pool_t *pool;
    up_conn_t *next_idle;
    llhttp_t parser;
    kvr_upstream_t *req;
    int handles;
    bool closing;
    bool connected;
    bool reused;   /* served a request before this one */
    bool got_byte; /* a response byte arrived for the current request */
    bool writing;
    uint8_t timeout_grace; /* re-arms of the current timeout because the socket was ready */
    kvr_tls_t *tls;        /* the pool's TLS, once connected */
    bool tls_request;      /* the request went into tls, its ciphertext not yet out */
};

/* A write of ciphertext: the handshake's, or the request's (then it ends the CONNECT phase). */
typedef struct {
    uv_write_t w;
    up_conn_t *conn;
    bool request;
    char *data;
} up_tls_write_t;

static void conn_close(up_conn_t *c);
static void req_fail(kvr_upstream_t *u, int status);
static int conn_start(kvr_upstream_t *u, up_conn_t *c);
static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);

/* ---- pool ---------------------------------------------------------------- */

int kvr_upstream_pool_create(uv_loop_t *loop, const struct sockaddr *addr, socklen_t addr_len,
                             const char *host_header, uint32_t max_idle, kvr_recycle_t *requests,
                             kvr_upstream_pool_t **out)
{
    kvr_upstream_pool_t *p = calloc(1, sizeof *p);
    if (!p)
        return -ENOMEM;
    p->loop = loop;
    memcpy(&p->addr, addr, addr_len);
    p->addr_len = addr_len;
    snprintf(p->host, sizeof p->host, "%s", host_header);
    p->max_idle = max_idle;
    p->requests = requests;
    *out = p;
    return 0;
}

void kvr_upstream_pool_set_tls(kvr_upstream_pool_t *p, kvr_tls_ctx_t *tls, const char *server_name)
{
    p->tls = tls;
    snprintf(p->server_name, sizeof p->server_name, "%s", server_name ? server_name : "");
}

uint64_t kvr_upstream_pool_tls_failures(const kvr_upstream_pool_t *p)
{
    return p->tls_failures;
}

static void pool_maybe_free(kvr_upstream_pool_t *p)
{
    if (p->destroyed && p->n_conns == 0) {
        free(p->rbuf);
        free(p);
    }
}

void kvr_upstream_pool_flush(kvr_upstream_pool_t *p)
{
    while (p->idle) {
        up_conn_t *c = p->idle;
        p->idle = c->next_idle;
        p->n_idle--;
        c->next_idle = NULL;
        conn_close(c);
    }
}

void kvr_upstream_pool_destroy(kvr_upstream_pool_t *p)
{
    if (!p)
        return;
    p->destroyed = true;
    kvr_upstream_pool_flush(p);
    pool_maybe_free(p);
}

void kvr_upstream_pool_stats(const kvr_upstream_pool_t *p, uint32_t *idle, uint32_t *busy)
{
    *idle = p->n_idle;
    *busy = p->n_busy;
}

static void idle_remove(kvr_upstream_pool_t *p, up_conn_t *c)
{
    for (up_conn_t **pp = &p->idle; *pp; pp = &(*pp)->next_idle) {
        if (*pp == c) {
            *pp = c->next_idle;
            c->next_idle = NULL;
            p->n_idle--;
            return;
        }
    }
}

/* ---- connection lifetime --------------------------------------------------- */

static void on_handle_closed(uv_handle_t *h)
{
    up_conn_t *c = h->data;
    if (--c->handles > 0)
        return;
    kvr_upstream_pool_t *p = c->pool;
    p->n_conns--;
    kvr_tls_destroy(c->tls);
    free(c);
    pool_maybe_free(p);
}

static void conn_close(up_conn_t *c)
{
    if (c->closing)
        return;
    c->closing = true;
    if (c->req)
        c->pool->n_busy--;
    c->req = NULL;
    uv_close((uv_handle_t *)&c->timer, on_handle_closed);
    uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
}

/*
 * Finished requests are kept with their head and header buffers for the next
 * ones: a kvr_upstream_t is a few KB, and calloc + three buffers per proxied
 * request showed in profiles. The recycler is the pool owner's (the router's,
 * shared by its pools); without one every request is allocated afresh.
 */
#define UPSTREAM_RECYCLE_MAX 256
#define UPSTREAM_KEEP_BYTES (16 * 1024)

static void destroy_req(void *obj)
{
    kvr_upstream_t *u = obj;
    kvr_buf_close(&u->head);
    kvr_buf_close(&u->hbuf);
    free(u);
}

void kvr_upstream_recycle_init(kvr_recycle_t *rec)
{
    kvr_recycle_init(rec, UPSTREAM_RECYCLE_MAX, destroy_req);
}

static void free_req(kvr_upstream_t *u)
{
    kvr_recycle_t *rec = u->pool->requests;
    if (!rec || u->head.cap > UPSTREAM_KEEP_BYTES || u->hbuf.cap > UPSTREAM_KEEP_BYTES) {
        destroy_req(u);
        return;
    }
    kvr_recycle_put(rec, u);
}

static kvr_upstream_t *alloc_req(kvr_upstream_pool_t *pool)
{
    kvr_upstream_t *u = pool->requests ? kvr_recycle_take(pool->requests) : NULL;
    if (!u)
        return kvr_xcalloc(1, sizeof(kvr_upstream_t));
    kvr_buf_t head = u->head, hbuf = u->hbuf;
    memset(u, 0, offsetof(kvr_upstream_t, hoff));
    u->head = head;
    kvr_buf_reset(&u->head);
    u->hbuf = hbuf;
    kvr_buf_reset(&u->hbuf);
    return u;
}

/* Ends the request with status; the connection must be detached or closed by the caller. */
static void req_end(kvr_upstream_t *u, int status)
{
    if (u->ended)
        return;
    u->ended = true;
    u->cbs.on_end(u->arg, status, u->phase);
    free_req(u);
}

static void timer_arm(up_conn_t *c, uint64_t ms);

/*
 * True when the event the timer waits for already happened in the kernel
 * (connect finished, response bytes or EOF waiting) and only the loop has
 * not run its I/O phase yet: after a long iteration (a burst of thousands of
 * requests) every timer armed during it is overdue before a single
 * completion is processed.
 */
static bool socket_ready(up_conn_t *c)
{
    uv_os_fd_t fd;
    if (uv_fileno((const uv_handle_t *)&c->tcp, &fd) < 0)
        return false;
    struct pollfd pfd = {.fd = fd, .events = c->connected ? POLLIN : POLLOUT};
    return poll(&pfd, 1, 0) == 1 && pfd.revents != 0;
}

static void on_timeout(uv_timer_t *t)
{
    up_conn_t *c = t->data;
    kvr_upstream_t *u = c->req;
    if (!u)
        return;
    if (c->timeout_grace < UPSTREAM_TIMEOUT_GRACE_MAX && socket_ready(c)) {
        c->timeout_grace++;
        uv_timer_start(&c->timer, on_timeout, UPSTREAM_TIMEOUT_GRACE_MS, 0);
        return;
    }
    req_fail(u, -ETIMEDOUT);
}

static void timer_arm(up_conn_t *c, uint64_t ms)
{
    c->timeout_grace = 0;
    uv_timer_start(&c->timer, on_timeout, ms, 0);
}

/*
 * Fails the request on its connection: a dead keep-alive connection gets one
 * fresh replacement when the engine cannot have seen a response start.
 */
static void req_fail(kvr_upstream_t *u, int status)
{
    up_conn_t *c = u->conn;
    bool replace = c && c->reused && !c->got_byte && !u->fresh_retry_used && status != -ETIMEDOUT;
    if (c) {
        u->conn = NULL;
        conn_close(c);
    }
    if (replace) {
        u->fresh_retry_used = true;
        u->phase = KVR_UPSTREAM_CONNECT;
        u->nh = 0;
        kvr_buf_reset(&u->hbuf);
        u->in_value = false;
        up_conn_t *fresh = kvr_xcalloc(1, sizeof *fresh);
        fresh->pool = u->pool;
        int rc = conn_start(u, fresh);
        if (rc == 0)
            return;
        status = rc;
    }
    req_end(u, status);
}

/* ---- response parsing ------------------------------------------------------ */

static int on_header_field(llhttp_t *p, const char *at, size_t len)
{
    up_conn_t *c = p->data;
    kvr_upstream_t *u = c->req;
    if (!u)
        return HPE_PAUSED;
    if (u->nh == 0 || u->in_value) {
        if (u->nh > 0)
            kvr_buf_append(&u->hbuf, "", 1);
        if (u->nh / 2 >= UPSTREAM_MAX_HEADERS)
            return -1;
        u->hoff[u->nh++] = u->hbuf.len;
        u->in_value = false;
    }
    kvr_buf_append(&u->hbuf, at, len);
    return u->hbuf.len > UPSTREAM_MAX_HEAD_BYTES ? -1 : 0;
}

static int on_header_value(llhttp_t *p, const char *at, size_t len)
{
    up_conn_t *c = p->data;
    kvr_upstream_t *u = c->req;
    if (!u)
        return HPE_PAUSED;
    if (!u->in_value) {
        kvr_buf_append(&u->hbuf, "", 1);
        u->hoff[u->nh++] = u->hbuf.len;
        u->in_value = true;
    }
    kvr_buf_append(&u->hbuf, at, len);
    return u->hbuf.len > UPSTREAM_MAX_HEAD_BYTES ? -1 : 0;
}

static int on_headers_complete(llhttp_t *p)
{
    up_conn_t *c = p->data;
    kvr_upstream_t *u = c->req;
    if (!u)
        return HPE_PAUSED;
    if (u->nh % 2 == 1) { /* a last header without a value */
        kvr_buf_append(&u->hbuf, "", 1);
        u->hoff[u->nh++] = u->hbuf.len;
    }
    if (p->status_code >= 100 && p->status_code < 200) {
        /*
         * An interim answer (100 Continue, 103 Early Hints): not the response.
         * It has no body; the final head follows on the same connection. A
         * 101 switches protocols, which a proxied request never asked for.
         */
        if (p->status_code == 101)
            return -1;
        u->interim = true;
        return 1;
    }
    kvr_buf_append(&u->hbuf, "", 1);
    kvr_http_header_t headers[UPSTREAM_MAX_HEADERS];
    size_t n = u->nh / 2;
    for (size_t i = 0; i < n; i++) {
        headers[i].name = u->hbuf.base + u->hoff[2 * i];
        headers[i].value = u->hbuf.base + u->hoff[2 * i + 1];
    }
    int64_t content_length = -1;
    if ((p->flags & F_CONTENT_LENGTH) && !(p->flags & F_CHUNKED))
        content_length = (int64_t)p->content_length;
    u->phase = KVR_UPSTREAM_BODY;
    timer_arm(c, u->timeouts.idle_ms);
    u->cbs.on_head(u->arg, p->status_code, headers, n, content_length);
    return c->req == u ? 0 : HPE_PAUSED;
}

static int on_body(llhttp_t *p, const char *at, size_t len)
{
    up_conn_t *c = p->data;
    kvr_upstream_t *u = c->req;
    if (!u)
        return HPE_PAUSED;
    u->cbs.on_data(u->arg, at, len);
    return c->req == u ? 0 : HPE_PAUSED;
}

static int on_message_complete(llhttp_t *p)
{
    up_conn_t *c = p->data;
    kvr_upstream_t *u = c->req;
    if (!u)
        return HPE_PAUSED;
    if (u->interim) {
        u->interim = false;
        u->nh = 0;
        kvr_buf_reset(&u->hbuf);
        u->in_value = false;
        return 0;
    }
    u->complete = true;
    u->keep_alive = llhttp_should_keep_alive(p);
    return HPE_PAUSED; /* one response per request: anything after it is not ours */
}

static const llhttp_settings_t parser_settings = {
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

/* The response is whole: the connection goes back to the pool when it can serve another. */
static void req_complete(up_conn_t *c, kvr_upstream_t *u, bool clean)
{
    kvr_upstream_pool_t *p = c->pool;
    u->conn = NULL;
    c->req = NULL;
    p->n_busy--;
    uv_timer_stop(&c->timer);
    if (clean && u->keep_alive && !c->writing && !p->destroyed && p->n_idle < p->max_idle) {
        c->reused = true;
        c->got_byte = false;
        if (u->paused) /* an idle connection must be read to notice the engine closing it */
            uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
        c->next_idle = p->idle;
        p->idle = c;
        p->n_idle++;
    } else {
        conn_close(c);
    }
    req_end(u, 0);
}

static void conn_feed(up_conn_t *c, const char *data, size_t len)
{
    kvr_upstream_t *u = c->req;
    llhttp_errno_t err = llhttp_execute(&c->parser, data, len);
    if (c->req != u || !u)
        return; /* cancelled from a callback: the connection is closing already */
    if (u->complete) {
        const char *pos = llhttp_get_error_pos(&c->parser);
        bool extra = pos && pos < data + len;
        req_complete(c, u, !extra);
        return;
    }
    if (err != HPE_OK) {
        KVR_DEBUG("upstream_parse_error host=%s error=%s", c->pool->host, llhttp_errno_name(err));
        req_fail(u, -EPROTO);
        return;
    }
    if (u->phase == KVR_UPSTREAM_BODY && u->cbs.on_flush)
        u->cbs.on_flush(u->arg);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    up_conn_t *c = h->data;
    kvr_upstream_pool_t *p = c->pool;
    if (!p->rbuf)
        p->rbuf = kvr_xmalloc(UPSTREAM_READ_BUF);
    *buf = uv_buf_init(p->rbuf, UPSTREAM_READ_BUF);
}

static void conn_input(up_conn_t *c, ssize_t n, const char *data);
static void tls_read(up_conn_t *c, const char *data, size_t len);

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    up_conn_t *c = s->data;
    if (n == 0 || c->closing)
        return;
    if (c->tls && n > 0)
        tls_read(c, buf->base, (size_t)n);
    else
        conn_input(c, n, buf->base);
}

/* Response bytes (as read, or as TLS decrypted them), or the end of the stream (n < 0). */
static void conn_input(up_conn_t *c, ssize_t n, const char *data)
{
    kvr_upstream_t *u = c->req;
    if (!u) {
        /* Idle keep-alive connection: EOF or stray bytes both mean it is done. */
        idle_remove(c->pool, c);
        conn_close(c);
        return;
    }
    if (n < 0) {
        if (n == UV_EOF && c->got_byte) {
            llhttp_finish(&c->parser); /* a body delimited by the connection's end completes here */
            if (c->req == u && u->complete) {
                req_complete(c, u, false);
                return;
            }
            if (c->req != u)
                return;
        }
        req_fail(u, n == UV_EOF ? -ECONNRESET : (int)n);
        return;
    }
    if (!c->got_byte) {
        c->got_byte = true;
        if (u->phase == KVR_UPSTREAM_CONNECT)
            u->phase = KVR_UPSTREAM_WAIT;
    }
    if (u->phase == KVR_UPSTREAM_BODY)
        timer_arm(c, u->timeouts.idle_ms);
    conn_feed(c, data, (size_t)n);
}

static void request_written(up_conn_t *c, int status)
{
    c->writing = false;
    if (c->closing)
        return;
    kvr_upstream_t *u = c->req;
    if (!u) {
        /* The response completed before the write callback: the connection is idle now. */
        return;
    }
    if (status < 0) {
        req_fail(u, status == UV_EPIPE ? -ECONNRESET : status);
        return;
    }
    if (u->phase == KVR_UPSTREAM_CONNECT) {
        u->phase = KVR_UPSTREAM_WAIT;
        timer_arm(c, u->timeouts.first_byte_ms);
    }
}

static void on_write(uv_write_t *w, int status)
{
    request_written(w->data, status);
}

/* ---- TLS --------------------------------------------------------------------- */

static void tls_log_failure(up_conn_t *c)
{
    kvr_upstream_pool_t *p = c->pool;
    const char *why = kvr_tls_why(c->tls);
    uint64_t now = kvr_clock_now_ns();
    p->tls_failures++;
    if (strcmp(why, p->tls_why) == 0 && now - p->tls_logged_ns < UPSTREAM_TLS_LOG_NS)
        return;
    snprintf(p->tls_why, sizeof p->tls_why, "%s", why);
    p->tls_logged_ns = now;
    KVR_WARN("engine_tls_failed host=%s server_name=%s failures=%llu why=\"%s\"", p->host,
             p->server_name, (unsigned long long)p->tls_failures, why);
}

static void on_tls_write(uv_write_t *w, int status)
{
    up_tls_write_t *tw = (up_tls_write_t *)w;
    up_conn_t *c = tw->conn;
    bool request = tw->request;
    free(tw->data);
    free(tw);
    if (request) {
        request_written(c, status);
        return;
    }
    if (status < 0 && !c->closing && c->req)
        req_fail(c->req, status == UV_EPIPE ? -ECONNRESET : status);
}

/* Writes what the session produced; the request's ciphertext ends the CONNECT phase when out. */
static int tls_flush(up_conn_t *c)
{
    char *data;
    size_t n = kvr_tls_take_output(c->tls, &data);
    if (!n)
        return 0;
    up_tls_write_t *tw = kvr_xcalloc(1, sizeof *tw);
    tw->conn = c;
    tw->data = data;
    tw->request = c->tls_request && kvr_tls_established(c->tls);
    tw->w.data = c;
    uv_buf_t b = uv_buf_init(data, (unsigned)n);
    int rc = uv_write(&tw->w, (uv_stream_t *)&c->tcp, &b, 1, on_tls_write);
    if (rc < 0) {
        free(data);
        free(tw);
        return rc;
    }
    if (tw->request) {
        c->tls_request = false;
        c->writing = true;
    }
    return 0;
}

static int tls_plain(void *arg, const char *data, size_t len)
{
    up_conn_t *c = arg;
    conn_input(c, (ssize_t)len, data);
    return c->closing;
}

static void tls_read(up_conn_t *c, const char *data, size_t len)
{
    int rc = kvr_tls_input(c->tls, data, len, tls_plain, c);
    if (c->closing)
        return;
    int frc = tls_flush(c);
    if (rc == 0 && frc == 0)
        return;
    if (rc < 0)
        tls_log_failure(c);
    if (!c->req) {
        idle_remove(c->pool, c);
        conn_close(c);
        return;
    }
    if (rc == KVR_TLS_CLOSED)
        conn_input(c, UV_EOF, NULL);
    else
        req_fail(c->req, rc < 0 ? KVR_ETLS : frc);
}

static int conn_send(up_conn_t *c, kvr_upstream_t *u)
{
    llhttp_init(&c->parser, HTTP_RESPONSE, &parser_settings);
    c->parser.data = c;
    c->got_byte = false;
    u->nh = 0;
    kvr_buf_reset(&u->hbuf);
    u->in_value = false;
    u->interim = false;
    uv_buf_t bufs[2] = {uv_buf_init(u->head.base, (unsigned)u->head.len),
                        uv_buf_init((char *)u->body, (unsigned)u->body_len)};
    unsigned nbufs = u->body_len ? 2 : 1;
    if (c->tls) {
        /* Encrypted now (kept by the session until its handshake completes). */
        if (kvr_tls_write(c->tls, bufs, nbufs) < 0)
            return -ECONNRESET;
        c->tls_request = true;
        int rc = tls_flush(c);
        if (rc < 0)
            return rc;
        timer_arm(c, u->timeouts.first_byte_ms);
        return 0;
    }
    /* Most requests fit the socket buffer: one writev now, no write watcher to arm and disarm. */
    int sent = uv_try_write((uv_stream_t *)&c->tcp, bufs, nbufs);
    size_t total = u->head.len + u->body_len;
    if (sent >= 0 && (size_t)sent == total) {
        if (u->phase == KVR_UPSTREAM_CONNECT)
            u->phase = KVR_UPSTREAM_WAIT;
        timer_arm(c, u->timeouts.first_byte_ms);
        return 0;
    }
    size_t skip = sent > 0 ? (size_t)sent : 0;
    unsigned first = 0;
    if (skip >= bufs[0].len) {
        skip -= bufs[0].len;
        first = 1;
    }
    bufs[first].base += skip;
    bufs[first].len -= (unsigned)skip;
    c->write_req.data = c;
    int rc = uv_write(&c->write_req, (uv_stream_t *)&c->tcp, bufs + first, nbufs - first, on_write);
    if (rc < 0)
        return rc;
    c->writing = true;
    if (c->reused)
        timer_arm(c, u->timeouts.first_byte_ms);
    return 0;
}

static void on_connect(uv_connect_t *cr, int status)
{
    up_conn_t *c = cr->data;
    if (c->closing)
        return;
    kvr_upstream_t *u = c->req;
    if (!u) {
        conn_close(c);
        return;
    }
    if (status < 0) {
        req_fail(u, status);
        return;
    }
    c->connected = true;
    uv_tcp_nodelay(&c->tcp, 1);
    if (c->pool->tls && kvr_tls_create(c->pool->tls, c->pool->server_name, &c->tls) < 0) {
        req_fail(u, -ENOMEM);
        return;
    }
    int rc = uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
    if (rc == 0)
        rc = conn_send(c, u);
    if (rc < 0)
        req_fail(u, rc);
    else
        timer_arm(c, u->timeouts.first_byte_ms);
}

/* Opens a new connection for u. On error c is freed (or closing) and nothing is attached. */
static int conn_start(kvr_upstream_t *u, up_conn_t *c)
{
    kvr_upstream_pool_t *p = u->pool;
    uv_tcp_init(p->loop, &c->tcp);
    uv_timer_init(p->loop, &c->timer);
    c->tcp.data = c->timer.data = c;
    c->connect_req.data = c;
    c->handles = 2;
    p->n_conns++;
    c->req = u;
    u->conn = c;
    p->n_busy++;
    int rc = uv_tcp_connect(&c->connect_req, &c->tcp, (const struct sockaddr *)&p->addr,
                            on_connect);
    if (rc < 0) {
        u->conn = NULL;
        conn_close(c);
        return rc;
    }
    timer_arm(c, u->timeouts.connect_ms);
    return 0;
}

/* ---- requests -------------------------------------------------------------- */

static void build_head(kvr_upstream_t *u, const char *method, const char *path, const char *host,
                       const kvr_http_header_t *headers, size_t n, size_t body_len)
{
    size_t cap = strlen(method) + strlen(path) + strlen(host) + 96;
    for (size_t i = 0; i < n; i++)
        cap += strlen(headers[i].name) + strlen(headers[i].value) + 4;
    /* Called for every proxied request: one reservation, then plain copies, no format parsing. */
    kvr_buf_t *head = &u->head;
    kvr_buf_reset(head);
    (void)kvr_buf_reserve(head, cap); /* appends abort on a size that cannot be */
    kvr_buf_append(head, method, strlen(method));
    kvr_buf_append(head, " ", 1);
    kvr_buf_append(head, path, strlen(path));
    kvr_buf_append(head, " HTTP/1.1\r\nHost: ", 17);
    kvr_buf_append(head, host, strlen(host));
    kvr_buf_append(head, "\r\n", 2);
    for (size_t i = 0; i < n; i++) {
        kvr_buf_append(head, headers[i].name, strlen(headers[i].name));
        kvr_buf_append(head, ": ", 2);
        kvr_buf_append(head, headers[i].value, strlen(headers[i].value));
        kvr_buf_append(head, "\r\n", 2);
    }
    if (body_len > 0 || strcmp(method, "POST") == 0) {
        char digits[24];
        size_t nd = 0;
        do {
            digits[sizeof digits - 1 - nd++] = (char)('0' + body_len % 10);
            body_len /= 10;
        } while (body_len);
        kvr_buf_append(head, "Content-Length: ", 16);
        kvr_buf_append(head, digits + sizeof digits - nd, nd);
        kvr_buf_append(head, "\r\n", 2);
    }
    kvr_buf_append(head, "\r\n", 2);
}

int kvr_upstream_request(kvr_upstream_pool_t *pool, const char *method, const char *path,
                         const kvr_http_header_t *headers, size_t nheaders, const void *body,
                         size_t body_len, const kvr_upstream_timeouts_t *timeouts,
                         const kvr_upstream_cbs_t *cbs, void *arg, kvr_upstream_t **out)
{
    if (pool->destroyed)
        return -ESHUTDOWN;
    kvr_upstream_t *u = alloc_req(pool);
    u->pool = pool;
    u->cbs = *cbs;
    u->arg = arg;
    u->timeouts = *timeouts;
    u->body = body;
    u->body_len = body_len;
    build_head(u, method, path, pool->host, headers, nheaders, body_len);

    up_conn_t *c = pool->idle;
    if (c) {
        pool->idle = c->next_idle;
        pool->n_idle--;
        c->next_idle = NULL;
        c->req = u;
        u->conn = c;
        pool->n_busy++;
        u->phase = KVR_UPSTREAM_CONNECT;
        int rc = conn_send(c, u);
        if (rc == 0) {
            *out = u;
            return 0;
        }
        u->conn = NULL;
        conn_close(c);
    }
    c = kvr_xcalloc(1, sizeof *c);
    c->pool = pool;
    u->fresh_retry_used = true; /* a fresh connection has nothing to be replaced for */
    int rc = conn_start(u, c);
    if (rc < 0) {
        free_req(u);
        return rc;
    }
    *out = u;
    return 0;
}

void kvr_upstream_cancel(kvr_upstream_t *u)
{
    if (!u || u->ended)
        return;
    u->ended = true;
    if (u->conn) {
        up_conn_t *c = u->conn;
        u->conn = NULL;
        conn_close(c);
    }
    free_req(u);
}

void kvr_upstream_pause(kvr_upstream_t *u, bool paused)
{
    if (u->paused == paused)
        return;
    u->paused = paused;
    up_conn_t *c = u->conn;
    if (!c || !c->connected || c->closing)
        return;
    if (paused) {
        uv_read_stop((uv_stream_t *)&c->tcp);
        uv_timer_stop(&c->timer); /* a slow client is not the engine's silence */
    } else {
        uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read);
        timer_arm(c,
                  u->phase == KVR_UPSTREAM_BODY ? u->timeouts.idle_ms : u->timeouts.first_byte_ms);
    }
}
