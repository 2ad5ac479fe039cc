/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HTTP/1.1 server: listener, connections, the parse loop over llhttp,
 * timeouts and the request object's life. llhttp's callbacks, which fill the
 * request, are in http_parse.c, its accessors in http_request.c, response
 * framing in http_response.c.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/http_internal.h"
#include "common/log.h"
#include "common/tls.h"
#include "common/xmalloc.h"

/* Pipelined input buffered while a request is dispatched before reading pauses. */
#define KVR_HTTP_MAX_PIPELINED (64u * 1024u)
/* After a refusal, how long the server keeps discarding input before closing. */
#define KVR_HTTP_LINGER_MS 2000u

static void conn_process(kvr__http_conn_t *conn, const char *data, size_t len);

/* ---- server lifetime ---- */

static void req_destroy(void *obj)
{
    kvr_http_req_t *req = obj;
    kvr_buf_close(&req->target);
    kvr_buf_close(&req->path);
    kvr_buf_close(&req->hbuf);
    free(req->hoffs);
    free(req->headers);
    kvr_buf_close(&req->body);
    free(req);
}

static void server_maybe_free(kvr_http_server_t *srv)
{
    if (!srv->destroying || srv->listener_open || srv->refuse_timer_open || srv->nconns ||
        srv->owned_reqs)
        return;
    kvr_recycle_close(&srv->free_reqs);
    free(srv->peers);
    kvr_http_closed_cb closed = srv->closed;
    void *arg = srv->closed_arg;
    free(srv);
    if (closed)
        closed(arg);
}

/*
 * Finished requests keep their buffers (target, headers, body) for the next
 * ones: otherwise every request costs seven malloc/free pairs, which showed
 * in profiles of the router at 30k+ requests/s. Large bodies are not kept.
 */
#define KVR_HTTP_FREE_REQS_MAX 256
#define KVR_HTTP_KEEP_BODY_BYTES (64u * 1024u)

static void req_free(kvr_http_req_t *req)
{
    kvr_http_server_t *srv = req->srv;
    if (srv->destroying) {
        req_destroy(req);
        return;
    }
    if (req->body.cap > KVR_HTTP_KEEP_BODY_BYTES)
        kvr_buf_close(&req->body);
    kvr_recycle_put(&srv->free_reqs, req);
}

kvr_http_req_t *kvr__http_req_alloc(kvr_http_server_t *srv)
{
    kvr_http_req_t *old = kvr_recycle_take(&srv->free_reqs);
    if (!old)
        return kvr_xcalloc(1, sizeof *old);
    kvr_http_req_t keep = *old;
    memset(old, 0, sizeof *old);
    old->target = keep.target;
    kvr_buf_reset(&old->target);
    old->path = keep.path;
    kvr_buf_reset(&old->path);
    old->hbuf = keep.hbuf;
    kvr_buf_reset(&old->hbuf);
    old->hoffs = keep.hoffs;
    old->hoffs_cap = keep.hoffs_cap;
    old->headers = keep.headers;
    old->headers_cap = keep.headers_cap;
    old->body = keep.body;
    kvr_buf_reset(&old->body);
    return old;
}

/* ---- connections ---- */

static void conn_handle_closed(uv_handle_t *handle)
{
    kvr__http_conn_t *conn = handle->data;
    if (--conn->handles_open > 0)
        return;
    kvr_http_server_t *srv = conn->srv;
    kvr_buf_close(&conn->in);
    kvr_tls_destroy(conn->tls);
    free(conn);
    srv->nconns--;
    server_maybe_free(srv);
}

static void conn_abort_req(kvr__http_conn_t *conn)
{
    kvr_http_req_t *req = conn->req;
    if (!req)
        return;
    conn->req = NULL;
    req->conn = NULL;
    if (!req->dispatched) {
        req_free(req);
        return;
    }
    req->aborted = 1;
    if (req->on_abort) {
        kvr_http_abort_cb cb = req->on_abort;
        req->on_abort = NULL;
        cb(req, req->abort_arg);
    }
}

void kvr__http_conn_close(kvr__http_conn_t *conn)
{
    if (uv_is_closing(&conn->io.handle))
        return;
    conn->state = KVR__HTTP_CLOSING;
    kvr_http_server_t *srv = conn->srv;
    if (conn->prev)
        conn->prev->next = conn->next;
    else
        srv->conns = conn->next;
    if (conn->next)
        conn->next->prev = conn->prev;
    conn->prev = conn->next = NULL;
    kvr__http_peer_remove(conn);
    if (conn->output_paused) {
        conn->output_paused = 0;
        srv->stats.paused_connections--;
    }
    uv_read_stop(&conn->io.stream);
    uv_timer_stop(&conn->timer);
    uv_close((uv_handle_t *)&conn->timer, conn_handle_closed);
    uv_close(&conn->io.handle, conn_handle_closed);
    /* After uv_close so that writes from on_abort fail fast instead of queueing. */
    conn_abort_req(conn);
}

static void conn_timer_cb(uv_timer_t *timer)
{
    kvr__http_conn_t *conn = timer->data;
    switch (conn->state) {
    case KVR__HTTP_READING:
        KVR_INFO("http_request_timeout peer=%s", conn->peer);
        kvr__http_conn_refuse(conn, 408, "request not received in time");
        break;
    case KVR__HTTP_DISPATCHED: break;
    case KVR__HTTP_IDLE:
        if (conn->output_paused) { /* the client took none of its responses for a whole idle timeout */
            KVR_INFO("http_output_timeout peer=%s queued_bytes=%zu", conn->peer,
                     conn->queued_bytes);
            conn->srv->stats.output_timeouts++;
            kvr__http_conn_close(conn);
            break;
        }
        if (conn->in.len) { /* a pipelined request waiting since the last response */
            conn_process(conn, NULL, 0);
            break;
        }
        kvr__http_conn_close(conn);
        break;
    case KVR__HTTP_CLOSING: kvr__http_conn_close(conn); break;
    }
}

static void conn_shutdown_cb(uv_shutdown_t *sreq, int status)
{
    kvr__http_conn_t *conn = sreq->data;
    /* Linger reading (and discarding) until the client closes, so a client
     * still sending its body receives the response instead of a reset. */
    if (status < 0 || uv_is_closing(&conn->io.handle))
        kvr__http_conn_close(conn);
}

/* Ends the sending side: close_notify first on TLS, then the TCP FIN. */
static int conn_shutdown(kvr__http_conn_t *conn)
{
    if (conn->tls) {
        kvr_tls_close_notify(conn->tls);
        kvr__http_conn_tls_flush(conn);
    }
    conn->shutdown.data = conn;
    return uv_shutdown(&conn->shutdown, &conn->io.stream, conn_shutdown_cb);
}

void kvr__http_conn_refuse(kvr__http_conn_t *conn, int status, const char *message)
{
    if (conn->state == KVR__HTTP_CLOSING)
        return;
    char json[512];
    int n = kvr_http_error_json(json, sizeof json, status, NULL, message);
    if (n < 0)
        n = 0;
    char head[256];
    int hn = snprintf(head, sizeof head,
                      "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
                      "Connection: close\r\n\r\n",
                      status, kvr_http_status_reason(status), n);
    char *copy = kvr_xmalloc((size_t)hn + (size_t)n);
    memcpy(copy, head, (size_t)hn);
    memcpy(copy + hn, json, (size_t)n);
    uv_buf_t buf = uv_buf_init(copy, (unsigned)(hn + n));
    if (conn->req && !conn->req->dispatched) {
        req_free(conn->req);
        conn->req = NULL;
    }
    conn->state = KVR__HTTP_CLOSING;
    kvr_buf_reset(&conn->in);
    if (kvr__http_conn_write(conn, &buf, 1, copy, NULL, NULL) < 0) {
        kvr__http_conn_close(conn);
        return;
    }
    if (conn_shutdown(conn) < 0) {
        kvr__http_conn_close(conn);
        return;
    }
    uv_timer_start(&conn->timer, conn_timer_cb, KVR_HTTP_LINGER_MS, 0);
}

static void conn_alloc_cb(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    /* One read buffer per server: input is parsed from it at once, and only
     * the bytes of a pipelined next request are copied into the connection. */
    kvr__http_conn_t *conn = handle->data;
    *buf = uv_buf_init(conn->srv->read_slab, sizeof conn->srv->read_slab);
}

/* Request bytes (as read, or as TLS decrypted them); nothing points into data afterwards. */
static void conn_input(kvr__http_conn_t *conn, const char *data, size_t len)
{
    if (conn->state == KVR__HTTP_DISPATCHED) {
        kvr_buf_append(&conn->in, data, len);
        if (conn->in.len > KVR_HTTP_MAX_PIPELINED && !conn->read_stopped) {
            uv_read_stop(&conn->io.stream);
            conn->read_stopped = 1;
        }
        return;
    }
    if (conn->in.len) { /* behind bytes already waiting: keep the order */
        kvr_buf_append(&conn->in, data, len);
        conn_process(conn, NULL, 0);
        return;
    }
    conn_process(conn, data, len);
}

static int conn_tls_plain(void *arg, const char *data, size_t len)
{
    kvr__http_conn_t *conn = arg;
    conn_input(conn, data, len);
    return conn->state == KVR__HTTP_CLOSING;
}

static void conn_tls_read(kvr__http_conn_t *conn, const char *data, size_t len)
{
    int rc = kvr_tls_input(conn->tls, data, len, conn_tls_plain, conn);
    if (uv_is_closing(&conn->io.handle))
        return;
    kvr__http_conn_tls_flush(conn); /* the handshake's answers, or an alert */
    if (rc == 0)
        return;
    if (rc == KVR_TLS_CLOSED) {
        if (conn->state == KVR__HTTP_DISPATCHED)
            KVR_INFO("http_client_gone peer=%s reason=close_notify", conn->peer);
        kvr__http_conn_close(conn);
        return;
    }
    KVR_INFO("tls_handshake_failed peer=%s established=%d why=\"%s\"", conn->peer,
             kvr_tls_established(conn->tls), kvr_tls_why(conn->tls));
    if (kvr_tls_plain_http(conn->tls) && conn->state != KVR__HTTP_CLOSING) {
        /* A client that spoke plain HTTP reads a plain answer saying what to do, then EOF. */
        kvr_tls_destroy(conn->tls);
        conn->tls = NULL;
        kvr__http_conn_refuse(conn, 400, "plain HTTP request sent to a TLS port: use https://");
        return;
    }
    kvr__http_conn_close(conn);
}

static void conn_read_cb(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    kvr__http_conn_t *conn = stream->data;
    if (nread < 0) {
        if (conn->state == KVR__HTTP_DISPATCHED)
            KVR_INFO("http_client_gone peer=%s reason=%s", conn->peer, uv_err_name((int)nread));
        kvr__http_conn_close(conn);
        return;
    }
    if (nread == 0)
        return;
    if (conn->state == KVR__HTTP_CLOSING)
        return;
    if (conn->tls) {
        conn_tls_read(conn, buf->base, (size_t)nread);
        return;
    }
    conn_input(conn, buf->base, (size_t)nread);
}

/* ---- the parse loop ---- */

static void conn_dispatch(kvr__http_conn_t *conn)
{
    kvr_http_req_t *req = conn->req;
    kvr_http_server_t *srv = conn->srv;
    kvr_buf_append(&req->body, "", 0); /* NUL-terminated, even when empty */
    conn->state = KVR__HTTP_DISPATCHED;
    uv_timer_stop(&conn->timer);
    req->dispatched = 1;
    srv->owned_reqs++;
    srv->cfg.on_request(req, srv->cfg.user);
}

/* Runs llhttp over data and remembers how the consumed bytes end, for value_after_line_break. */
static llhttp_errno_t parse(kvr__http_conn_t *conn, const char *data, size_t len)
{
    conn->exec_base = data;
    llhttp_errno_t err = llhttp_execute(&conn->parser, data, len);
    const char *end = err == HPE_OK ? data + len : llhttp_get_error_pos(&conn->parser);
    if (end && end > data)
        conn->exec_tail_bare_lf = end[-1] == '\n';
    for (const char *q = end; q && q > data;) {
        char c = *--q;
        if (c == ' ' || c == '\t' || c == '\r')
            continue;
        conn->exec_tail_lf = c == '\n';
        break;
    }
    conn->exec_base = NULL;
    return err;
}

/*
 * Parses data (bytes just read, not kept) or else the buffered input, and
 * dispatches each complete request. Bytes after a request are copied into
 * conn->in to wait for its response; the buffer is released once drained.
 */
static void conn_process(kvr__http_conn_t *conn, const char *data, size_t len)
{
    if (conn->in_process) { /* not re-entered today; never drop bytes if it were */
        if (len)
            kvr_buf_append(&conn->in, data, len);
        return;
    }
    conn->in_process = 1;
    kvr_http_server_t *srv = conn->srv;
    while ((conn->state == KVR__HTTP_IDLE && !conn->output_paused) ||
           conn->state == KVR__HTTP_READING) {
        int from_read = len > 0;
        const char *src = from_read ? data : conn->in.base;
        size_t n = from_read ? len : conn->in.len;
        if (n == 0)
            break;
        if (conn->state == KVR__HTTP_IDLE) {
            conn->state = KVR__HTTP_READING;
            uv_timer_start(&conn->timer, conn_timer_cb, srv->cfg.request_timeout_ms, 0);
        }
        llhttp_errno_t err = parse(conn, src, n);
        if (err == HPE_OK) {
            if (from_read)
                len = 0;
            else
                kvr_buf_reset(&conn->in);
            break;
        }
        if (err == HPE_PAUSED && conn->req_complete && conn->req) {
            size_t used = (size_t)(llhttp_get_error_pos(&conn->parser) - src);
            if (from_read) {
                assert(conn->in.len == 0);
                if (n > used)
                    kvr_buf_append(&conn->in, src + used, n - used);
                len = 0;
            } else {
                kvr_buf_consume(&conn->in, used);
            }
            conn->req_complete = 0;
            conn_dispatch(conn);
            continue;
        }
        /* Anything else (a parse error, or a pause the server did not ask
         * for, such as HTTP/2's preface) is refused: there is no complete
         * request to hand over. */
        int status = conn->err_status ? conn->err_status : 400;
        const char *why = status == 413      ? "request body too large"
                          : status == 431    ? "request headers too large"
                          : status == 405    ? "method not allowed"
                          : conn->err_reason ? conn->err_reason
                                             : llhttp_get_error_reason(&conn->parser);
        KVR_INFO("http_request_refused peer=%s status=%d reason=\"%s\"", conn->peer, status,
                 why ? why : "malformed request");
        char msg[160];
        snprintf(msg, sizeof msg, "%s%s", status == 400 ? "malformed HTTP request: " : "",
                 why ? why : "parse error");
        kvr__http_conn_refuse(conn, status, msg);
        break;
    }
    conn->in_process = 0;
    if (conn->in.len == 0 && conn->in.base) {
        kvr_buf_close(&conn->in);
    }
    if (conn->read_stopped && !conn->output_paused && conn->state != KVR__HTTP_DISPATCHED &&
        conn->state != KVR__HTTP_CLOSING) {
        conn->read_stopped = 0;
        uv_read_start(&conn->io.stream, conn_alloc_cb, conn_read_cb);
    }
}

void kvr__http_req_finished(kvr_http_req_t *req, int close_conn)
{
    kvr__http_conn_t *conn = req->conn;
    kvr_http_server_t *srv = req->srv;
    int keep_alive = req->keep_alive && !close_conn;
    req_free(req);
    srv->owned_reqs--;
    if (!conn) {
        server_maybe_free(srv);
        return;
    }
    conn->req = NULL;
    if (!keep_alive || srv->destroying) {
        if (close_conn) {
            kvr__http_conn_close(conn);
            return;
        }
        conn->state = KVR__HTTP_CLOSING;
        if (conn_shutdown(conn) < 0)
            kvr__http_conn_close(conn);
        else
            uv_timer_start(&conn->timer, conn_timer_cb, KVR_HTTP_LINGER_MS, 0);
        return;
    }
    conn->state = KVR__HTTP_IDLE;
    conn->err_status = 0;
    conn->err_reason = NULL;
    llhttp_resume(&conn->parser);
    if (conn->queued_bytes > KVR_HTTP_MAX_QUEUED_OUTPUT) {
        /* The client is not taking its responses: read and parse nothing more
         * (each pipelined request would queue one more response) until it
         * does. The idle timeout, restarted by each write that completes,
         * ends a client that takes nothing. */
        conn->output_paused = 1;
        srv->stats.output_pauses++;
        srv->stats.paused_connections++;
        if (!conn->read_stopped) {
            uv_read_stop(&conn->io.stream);
            conn->read_stopped = 1;
        }
        uv_timer_start(&conn->timer, conn_timer_cb, srv->cfg.idle_timeout_ms, 0);
        return;
    }
    /* A pipelined request already buffered is parsed from the loop, never from
     * inside this call: the handler finishing this one may be in the middle of
     * its own bookkeeping and must not see on_request re-entered. */
    uv_timer_start(&conn->timer, conn_timer_cb, conn->in.len ? 0 : srv->cfg.idle_timeout_ms, 0);
    if (conn->read_stopped) {
        conn->read_stopped = 0;
        uv_read_start(&conn->io.stream, conn_alloc_cb, conn_read_cb);
    }
}

void kvr__http_conn_written(kvr__http_conn_t *conn)
{
    kvr_http_server_t *srv = conn->srv;
    if (!conn->output_paused || conn->state != KVR__HTTP_IDLE)
        return;
    if (conn->queued_bytes > KVR_HTTP_MAX_QUEUED_OUTPUT / 2) {
        uv_timer_start(&conn->timer, conn_timer_cb, srv->cfg.idle_timeout_ms, 0); /* progress */
        return;
    }
    conn->output_paused = 0;
    srv->stats.paused_connections--;
    /* Parsing resumes from the loop, as after any response. */
    uv_timer_start(&conn->timer, conn_timer_cb, conn->in.len ? 0 : srv->cfg.idle_timeout_ms, 0);
    if (conn->read_stopped && conn->in.len <= KVR_HTTP_MAX_PIPELINED) {
        conn->read_stopped = 0;
        uv_read_start(&conn->io.stream, conn_alloc_cb, conn_read_cb);
    }
}

/* ---- listener ---- */

static void refused_closed(uv_handle_t *handle)
{
    free(handle);
}

/* A connection object with its timer, linked into the server; the stream is the caller's to init. */
static kvr__http_conn_t *conn_new(kvr_http_server_t *srv)
{
    kvr__http_conn_t *conn = kvr_xcalloc(1, sizeof *conn);
    conn->srv = srv;
    uv_timer_init(srv->loop, &conn->timer);
    conn->timer.data = conn;
    conn->handles_open = 2;
    srv->nconns++;
    conn->next = srv->conns;
    if (srv->conns)
        srv->conns->prev = conn;
    srv->conns = conn;
    return conn;
}

static void conn_set_peer(kvr__http_conn_t *conn, const struct sockaddr_storage *ss)
{
    char ip[48] = "?";
    int port = 0;
    if (ss->ss_family == AF_INET6) {
        uv_ip6_name((const struct sockaddr_in6 *)ss, ip, sizeof ip);
        port = ntohs(((const struct sockaddr_in6 *)ss)->sin6_port);
    } else if (ss->ss_family == AF_INET) {
        uv_ip4_name((const struct sockaddr_in *)ss, ip, sizeof ip);
        port = ntohs(((const struct sockaddr_in *)ss)->sin_port);
    } else {
        snprintf(conn->peer, sizeof conn->peer, "unix");
        return;
    }
    snprintf(conn->peer, sizeof conn->peer, "%s:%d", ip, port);
}

/* The stream is open: parse, time and read. */
static void conn_start(kvr__http_conn_t *conn)
{
    kvr_http_server_t *srv = conn->srv;
    llhttp_init(&conn->parser, HTTP_REQUEST, &srv->settings);
    /* Strict: no leniency that lets two readers frame a request differently
     * (kvr_llhttp is also built with LLHTTP_STRICT_MODE, which checks the
     * CRLF after each chunk and after every line). */
    llhttp_set_lenient_headers(&conn->parser, 0);
    llhttp_set_lenient_chunked_length(&conn->parser, 0);
    llhttp_set_lenient_keep_alive(&conn->parser, 0);
    llhttp_set_lenient_transfer_encoding(&conn->parser, 0);
    conn->parser.data = conn;
    conn->state = KVR__HTTP_IDLE;
    if (srv->cfg.tls && kvr_tls_create(srv->cfg.tls, NULL, &conn->tls) < 0) {
        KVR_WARN("tls_session_failed peer=%s error=\"out of memory\"", conn->peer);
        kvr__http_conn_close(conn);
        return;
    }
    uv_timer_start(&conn->timer, conn_timer_cb, srv->cfg.idle_timeout_ms, 0);
    uv_read_start(&conn->io.stream, conn_alloc_cb, conn_read_cb);
}

static void on_connection(uv_stream_t *listener, int status)
{
    kvr_http_server_t *srv = listener->data;
    if (status < 0) {
        KVR_WARN("http_accept_failed error=%s", uv_err_name(status));
        return;
    }
    if (srv->nconns >= srv->cfg.max_connections) {
        uv_tcp_t *t = kvr_xmalloc(sizeof *t);
        uv_tcp_init(srv->loop, t);
        if (uv_accept(listener, (uv_stream_t *)t) == 0) {
            char peer[64] = "?";
            struct sockaddr_storage ss;
            int sl = sizeof ss;
            if (uv_tcp_getpeername(t, (struct sockaddr *)&ss, &sl) == 0) {
                if (ss.ss_family == AF_INET6)
                    uv_ip6_name((const struct sockaddr_in6 *)&ss, peer, sizeof peer);
                else if (ss.ss_family == AF_INET)
                    uv_ip4_name((const struct sockaddr_in *)&ss, peer, sizeof peer);
            }
            kvr__http_refusal_count(srv, 0, peer);
        }
        uv_close((uv_handle_t *)t, refused_closed);
        return;
    }
    kvr__http_conn_t *conn = conn_new(srv);
    uv_tcp_init(srv->loop, &conn->io.tcp);
    conn->io.handle.data = conn;
    if (uv_accept(listener, &conn->io.stream) < 0) {
        kvr__http_conn_close(conn);
        return;
    }
    struct sockaddr_storage ss;
    int sl = sizeof ss;
    snprintf(conn->peer, sizeof conn->peer, "?");
    if (uv_tcp_getpeername(&conn->io.tcp, (struct sockaddr *)&ss, &sl) == 0) {
        conn_set_peer(conn, &ss);
        uint8_t family, addr[16];
        if (kvr__http_peer_key(&ss, &family, addr)) {
            uint32_t limit = srv->cfg.max_connections_per_peer;
            if (limit && kvr__http_peer_count(srv, family, addr) >= limit) {
                char *colon = strrchr(conn->peer, ':'); /* the address without the port */
                if (colon)
                    *colon = '\0';
                kvr__http_refusal_count(srv, 1, conn->peer);
                kvr__http_conn_close(conn);
                return;
            }
            kvr__http_peer_add(conn, family, addr);
        }
    }
    uv_tcp_nodelay(&conn->io.tcp, 1);
    conn_start(conn);
}

int kvr_http_server_adopt_fd(kvr_http_server_t *srv, uv_os_sock_t fd)
{
    if (!srv || srv->destroying || fd < 0)
        return -EINVAL;
    int type = 0;
    socklen_t tl = sizeof type;
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) < 0 || type != SOCK_STREAM ||
        getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
        return -EINVAL;
    if (srv->nconns >= srv->cfg.max_connections) {
        kvr__http_refusal_count(srv, 0, "adopted");
        return -EBUSY;
    }
    kvr__http_conn_t *conn = conn_new(srv);
    int rc;
    if (ss.ss_family == AF_UNIX) {
        uv_pipe_init(srv->loop, &conn->io.pipe, 0);
        conn->io.handle.data = conn;
        rc = uv_pipe_open(&conn->io.pipe, fd);
    } else {
        uv_tcp_init(srv->loop, &conn->io.tcp);
        conn->io.handle.data = conn;
        rc = uv_tcp_open(&conn->io.tcp, fd);
    }
    if (rc < 0) {
        /* The fd stays the caller's: the handle never took it. */
        kvr__http_conn_close(conn);
        return rc;
    }
    snprintf(conn->peer, sizeof conn->peer, "?");
    sl = sizeof ss;
    if (ss.ss_family == AF_UNIX || getpeername(fd, (struct sockaddr *)&ss, &sl) == 0)
        conn_set_peer(conn, &ss);
    conn_start(conn);
    return 0;
}

void kvr_http_server_config_init(kvr_http_server_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->host = "127.0.0.1";
    cfg->backlog = 511;
    cfg->max_header_bytes = KVR_HTTP_DEFAULT_MAX_HEADER_BYTES;
    cfg->max_body_bytes = KVR_HTTP_DEFAULT_MAX_BODY_BYTES;
    cfg->idle_timeout_ms = KVR_HTTP_DEFAULT_IDLE_TIMEOUT_MS;
    cfg->request_timeout_ms = KVR_HTTP_DEFAULT_REQUEST_TIMEOUT_MS;
    cfg->max_connections = KVR_HTTP_DEFAULT_MAX_CONNECTIONS;
    cfg->max_connections_per_peer = KVR_HTTP_DEFAULT_MAX_CONNECTIONS_PER_PEER;
}

static void listener_closed(uv_handle_t *handle)
{
    kvr_http_server_t *srv = handle->data;
    srv->listener_open = 0;
    server_maybe_free(srv);
}

static void listener_closed_on_error(uv_handle_t *handle)
{
    kvr_http_server_t *srv = handle->data;
    free(srv->peers);
    free(srv);
}

static void refuse_timer_closed(uv_handle_t *handle)
{
    kvr_http_server_t *srv = handle->data;
    srv->refuse_timer_open = 0;
    server_maybe_free(srv);
}

int kvr_http_server_create(uv_loop_t *loop, const kvr_http_server_config_t *cfg,
                           kvr_http_server_t **out)
{
    if (!loop || !cfg || !cfg->on_request || !out || cfg->port < 0 || cfg->port > 65535 ||
        !cfg->max_header_bytes || !cfg->idle_timeout_ms || !cfg->request_timeout_ms ||
        !cfg->max_connections || cfg->max_connections > KVR_HTTP_MAX_CONNECTIONS_LIMIT)
        return -EINVAL;
    kvr_http_server_t *srv = calloc(1, sizeof *srv);
    if (!srv)
        return -ENOMEM;
    srv->peers = calloc(KVR__HTTP_PEER_SLOTS_MIN, sizeof *srv->peers);
    if (!srv->peers) {
        free(srv);
        return -ENOMEM;
    }
    srv->peers_mask = KVR__HTTP_PEER_SLOTS_MIN - 1;
    srv->loop = loop;
    srv->cfg = *cfg;
    snprintf(srv->host, sizeof srv->host, "%s", cfg->host ? cfg->host : "127.0.0.1");
    srv->cfg.host = srv->host;
    kvr_recycle_init(&srv->free_reqs, KVR_HTTP_FREE_REQS_MAX, req_destroy);
    kvr__http_parser_settings(&srv->settings);

    struct sockaddr_storage addr;
    int rc;
    if (strchr(srv->host, ':'))
        rc = uv_ip6_addr(srv->host, cfg->port, (struct sockaddr_in6 *)&addr);
    else
        rc = uv_ip4_addr(srv->host, cfg->port, (struct sockaddr_in *)&addr);
    if (rc < 0) {
        free(srv->peers);
        free(srv);
        return -EINVAL;
    }
    rc = uv_tcp_init(loop, &srv->listener);
    if (rc < 0) {
        free(srv->peers);
        free(srv);
        return rc;
    }
    srv->listener.data = srv;
    rc = uv_tcp_bind(&srv->listener, (struct sockaddr *)&addr, 0);
    if (rc == 0)
        rc = uv_listen((uv_stream_t *)&srv->listener, cfg->backlog > 0 ? cfg->backlog : 511,
                       on_connection);
    if (rc < 0)
        goto fail_listen;
    struct sockaddr_storage bound;
    int bl = sizeof bound;
    uv_tcp_getsockname(&srv->listener, (struct sockaddr *)&bound, &bl);
    srv->port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                  : ((struct sockaddr_in *)&bound)->sin_port);
    srv->listener_open = 1;
    uv_timer_init(loop, &srv->refuse_timer);
    srv->refuse_timer.data = srv;
    srv->refuse_timer_open = 1;
    *out = srv;
    return 0;

fail_listen:
    /* The handle must be closed before its memory goes. */
    uv_close((uv_handle_t *)&srv->listener, listener_closed_on_error);
    return rc;
}

void kvr_http_server_destroy(kvr_http_server_t *srv, kvr_http_closed_cb closed, void *arg)
{
    if (!srv || srv->destroying)
        return;
    srv->destroying = 1;
    srv->closed = closed;
    srv->closed_arg = arg;
    uv_close((uv_handle_t *)&srv->listener, listener_closed);
    uv_close((uv_handle_t *)&srv->refuse_timer, refuse_timer_closed);
    while (srv->conns)
        kvr__http_conn_close(srv->conns);
}

int kvr_http_server_port(const kvr_http_server_t *srv)
{
    return srv->port;
}

size_t kvr_http_server_connections(const kvr_http_server_t *srv)
{
    return srv->nconns;
}

void kvr_http_server_stats(const kvr_http_server_t *srv, kvr_http_server_stats_t *out)
{
    *out = srv->stats;
    out->queued_bytes = 0;
    for (const kvr__http_conn_t *conn = srv->conns; conn; conn = conn->next)
        out->queued_bytes += conn->queued_bytes;
}

static size_t req_bytes(const kvr_http_req_t *req)
{
    return sizeof *req + req->target.cap + req->path.cap + req->hbuf.cap +
           req->hoffs_cap * 2 * sizeof *req->hoffs + req->headers_cap * sizeof *req->headers +
           req->body.cap;
}

size_t kvr_http_server_connection_bytes(const kvr_http_server_t *srv)
{
    size_t total = 0;
    for (const kvr__http_conn_t *conn = srv->conns; conn; conn = conn->next)
        total += sizeof *conn + conn->in.cap + (conn->req ? req_bytes(conn->req) : 0);
    return total;
}
