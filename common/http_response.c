/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HTTP/1.1 responses: status line and headers, whole bodies with
 * Content-Length, streamed bodies (chunked or with a known length), the
 * OpenAI-shaped error body, and the write queue with its backpressure count.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/http_internal.h"
#include "common/tls.h"
#include "common/xmalloc.h"

typedef struct {
    uv_write_t w;
    kvr__http_conn_t *conn;
    size_t bytes;
    void *owned;
    kvr_http_write_cb done;
    void *arg;
    char chunk_head[24]; /* "<hex>\r\n" for by-reference chunks */
} http_write_t;

const char *kvr_http_status_reason(int status)
{
    switch (status) {
    case 100: return "Continue";
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 301: return "Moved Permanently";
    case 302: return "Found";
    case 304: return "Not Modified";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 411: return "Length Required";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "Unknown";
    }
}

int kvr_http_error_json(char *out, size_t cap, int status, const char *type, const char *message)
{
    if (!type)
        type = status == 429   ? "rate_limit_error"
               : status >= 500 ? "server_error"
                               : "invalid_request_error";
    /* OpenAI's shape: "code" is a string naming the error, or null; never the HTTP status. */
    const char *code = status == 405   ? "method_not_allowed"
                       : status == 413 ? "request_too_large"
                       : status == 429 ? "rate_limit_exceeded"
                       : status == 503 ? "service_unavailable"
                       : status == 504 ? "timeout"
                                       : NULL;
    cJSON *doc = cJSON_CreateObject();
    cJSON *error = cJSON_AddObjectToObject(doc, "error");
    if (!cJSON_AddStringToObject(error, "message", message ? message : "") ||
        !cJSON_AddStringToObject(error, "type", type) || !cJSON_AddNullToObject(error, "param") ||
        !(code ? cJSON_AddStringToObject(error, "code", code)
               : cJSON_AddNullToObject(error, "code"))) {
        cJSON_Delete(doc);
        return -ENOMEM;
    }
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text)
        return -ENOMEM;
    size_t n = strlen(text);
    if (n >= cap) {
        cJSON_free(text);
        return -ENOSPC;
    }
    memcpy(out, text, n + 1);
    cJSON_free(text);
    return (int)n;
}

/* ---- the write queue ---- */

static void write_cb(uv_write_t *w, int status)
{
    http_write_t *hw = (http_write_t *)w;
    kvr__http_conn_t *conn = hw->conn;
    conn->queued_bytes -= hw->bytes;
    if (hw->done)
        hw->done(hw->arg, status);
    free(hw->owned);
    free(hw);
    if (status < 0) {
        /* The client is gone; closing aborts the request it had in flight. */
        kvr__http_conn_close(conn);
        return;
    }
    if (conn->output_paused) {
        kvr__http_conn_written(conn);
        return;
    }
    if (conn->queued_bytes == 0 && conn->req && conn->req->on_drain)
        conn->req->on_drain(conn->req, conn->req->drain_arg);
}

/* Queues bufs on the stream as they are; bytes is what the queue counts them as. */
static int queue_write(kvr__http_conn_t *conn, const uv_buf_t *bufs, unsigned nbufs, void *owned,
                       size_t bytes, kvr_http_write_cb done, void *arg)
{
    http_write_t *hw = kvr_xcalloc(1, sizeof *hw);
    hw->conn = conn;
    hw->owned = owned;
    hw->done = done;
    hw->arg = arg;
    hw->bytes = bytes;
    int rc = uv_write(&hw->w, &conn->io.stream, bufs, nbufs, write_cb);
    if (rc < 0) {
        free(owned);
        free(hw);
        return rc == UV_EPIPE ? -EPIPE : rc;
    }
    conn->queued_bytes += hw->bytes;
    return 0;
}

/*
 * Encrypts bufs and queues the ciphertext, counted as the plaintext's
 * length so that backpressure reads the same with and without TLS. With
 * try_first (no completion callback wanted) the socket gets it at once when
 * nothing is queued ahead, as conn_write_now does for plain HTTP.
 */
static int tls_write(kvr__http_conn_t *conn, const uv_buf_t *bufs, unsigned nbufs,
                     kvr_http_write_cb done, void *arg, int try_first)
{
    size_t plain = 0;
    for (unsigned i = 0; i < nbufs; i++)
        plain += bufs[i].len;
    if (kvr_tls_write(conn->tls, bufs, nbufs) < 0)
        return -EPIPE;
    char *cipher = NULL;
    size_t n = kvr_tls_take_output(conn->tls, &cipher);
    size_t sent = 0;
    if (try_first && conn->queued_bytes == 0 && n) {
        uv_buf_t b = uv_buf_init(cipher, (unsigned)n);
        int rc = uv_try_write(&conn->io.stream, &b, 1);
        if (rc > 0)
            sent = (size_t)rc;
        if (sent == n) {
            free(cipher);
            return 0;
        }
    }
    uv_buf_t b = uv_buf_init(cipher ? cipher + sent : (char *)"", (unsigned)(n - sent));
    if (sent) { /* the rest moves to its own buffer: write_cb frees what it was given */
        char *rest = kvr_xmalloc(n - sent);
        memcpy(rest, cipher + sent, n - sent);
        free(cipher);
        cipher = rest;
        b = uv_buf_init(rest, (unsigned)(n - sent));
    }
    return queue_write(conn, &b, 1, cipher, plain, done, arg);
}

int kvr__http_conn_write(kvr__http_conn_t *conn, const uv_buf_t *bufs, unsigned nbufs, void *owned,
                         kvr_http_write_cb done, void *arg)
{
    if (uv_is_closing(&conn->io.handle)) {
        free(owned);
        return -EPIPE;
    }
    if (conn->tls) {
        int rc = tls_write(conn, bufs, nbufs, done, arg, 0);
        free(owned); /* encrypted: the plaintext is no longer needed */
        return rc;
    }
    size_t bytes = 0;
    for (unsigned i = 0; i < nbufs; i++)
        bytes += bufs[i].len;
    return queue_write(conn, bufs, nbufs, owned, bytes, done, arg);
}

void kvr__http_conn_tls_flush(kvr__http_conn_t *conn)
{
    char *cipher;
    size_t n = kvr_tls_take_output(conn->tls, &cipher);
    if (!n)
        return;
    if (uv_is_closing(&conn->io.handle)) {
        free(cipher);
        return;
    }
    uv_buf_t b = uv_buf_init(cipher, (unsigned)n);
    if (queue_write(conn, &b, 1, cipher, 0, NULL, NULL) < 0)
        kvr__http_conn_close(conn);
}

/*
 * Writes bufs at once when nothing is queued ahead of them (one writev, no
 * write request, no callback, no POLLOUT watcher to arm and disarm: the
 * drain of a finished uv_write costs an epoll_ctl per response). Whatever
 * the socket does not take is copied and queued like any other write. For
 * callers that need no completion callback and have no drain to report.
 */
static int conn_write_now(kvr__http_conn_t *conn, uv_buf_t *bufs, unsigned nbufs)
{
    if (uv_is_closing(&conn->io.handle))
        return -EPIPE;
    if (conn->tls)
        return tls_write(conn, bufs, nbufs, NULL, NULL, 1);
    size_t total = 0;
    for (unsigned i = 0; i < nbufs; i++)
        total += bufs[i].len;
    size_t sent = 0;
    if (conn->queued_bytes == 0) {
        int rc = uv_try_write(&conn->io.stream, bufs, nbufs);
        if (rc > 0)
            sent = (size_t)rc;
        if (sent == total)
            return 0;
    }
    char *rest = kvr_xmalloc(total - sent);
    size_t len = 0, skip = sent;
    for (unsigned i = 0; i < nbufs; i++) {
        size_t n = bufs[i].len;
        if (skip >= n) {
            skip -= n;
            continue;
        }
        memcpy(rest + len, bufs[i].base + skip, n - skip);
        len += n - skip;
        skip = 0;
    }
    uv_buf_t buf = uv_buf_init(rest, (unsigned)len);
    return kvr__http_conn_write(conn, &buf, 1, rest, NULL, NULL);
}

/* ---- framing ---- */

/* Decimal digits of v at the end of out (24 bytes); returns where they start. */
static char *put_u64(char *out, uint64_t v)
{
    char *p = out + 24;
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return p;
}

/* Status line and headers; framing is the Content-Length, or -1 chunked, or -2 none. */
static void build_head(kvr_buf_t *sb, const kvr_http_req_t *req, int status,
                       const char *content_type, const kvr_http_header_t *headers, size_t nheaders,
                       int64_t framing)
{
    /* Every response passes here: plain copies, no format parsing. */
    char num[24];
    char *d = put_u64(num, status < 0 ? 0u : (uint64_t)status);
    kvr_buf_append(sb, "HTTP/1.1 ", 9);
    kvr_buf_append(sb, d, (size_t)(num + sizeof num - d));
    kvr_buf_append(sb, " ", 1);
    kvr_buf_append_str(sb, kvr_http_status_reason(status));
    kvr_buf_append(sb, "\r\n", 2);
    if (content_type) {
        kvr_buf_append_str(sb, "Content-Type: ");
        kvr_buf_append_str(sb, content_type);
        kvr_buf_append_str(sb, "\r\n");
    }
    for (size_t i = 0; i < nheaders; i++) {
        kvr_buf_append_str(sb, headers[i].name);
        kvr_buf_append_str(sb, ": ");
        kvr_buf_append_str(sb, headers[i].value);
        kvr_buf_append_str(sb, "\r\n");
    }
    if (framing >= 0) {
        d = put_u64(num, (uint64_t)framing);
        kvr_buf_append(sb, "Content-Length: ", 16);
        kvr_buf_append(sb, d, (size_t)(num + sizeof num - d));
        kvr_buf_append(sb, "\r\n", 2);
    } else if (framing == KVR_HTTP_CHUNKED) {
        kvr_buf_append_str(sb, "Transfer-Encoding: chunked\r\n");
    }
    kvr_buf_append_str(sb, req->keep_alive ? "Connection: keep-alive\r\n\r\n"
                                           : "Connection: close\r\n\r\n");
}

int kvr_http_respond(kvr_http_req_t *req, int status, const char *content_type,
                     const kvr_http_header_t *headers, size_t nheaders, const void *body,
                     size_t len)
{
    if (req->resp != KVR__HTTP_RESP_NONE)
        return -EALREADY;
    kvr__http_conn_t *conn = req->conn;
    if (!conn || req->aborted) {
        kvr__http_req_finished(req, 0);
        return -EPIPE;
    }
    if (conn->srv->destroying)
        req->keep_alive = 0;
    /* Head and body leave in one writev, straight from where they are. */
    char stack[2048];
    kvr_buf_t sb;
    kvr_buf_init_in(&sb, stack, sizeof stack);
    build_head(&sb, req, status, content_type, headers, nheaders, (int64_t)len);
    uv_buf_t bufs[2] = {uv_buf_init(sb.base, (unsigned)sb.len),
                        uv_buf_init((char *)body, (unsigned)len)};
    int rc = conn_write_now(conn, bufs, !req->head && len ? 2 : 1);
    kvr_buf_close(&sb);
    kvr__http_req_finished(req, rc < 0);
    return rc < 0 ? -EPIPE : 0;
}

int kvr_http_respond_error(kvr_http_req_t *req, int status, const char *type, const char *message,
                           const kvr_http_header_t *headers, size_t nheaders)
{
    char json[1024];
    int n = kvr_http_error_json(json, sizeof json, status, type, message);
    if (n < 0) /* a message too long for the buffer: say less rather than nothing */
        n = kvr_http_error_json(json, sizeof json, status, type, kvr_http_status_reason(status));
    return kvr_http_respond(req, status, "application/json", headers, nheaders, json,
                            n < 0 ? 0 : (size_t)n);
}

int kvr_http_stream_begin(kvr_http_req_t *req, int status, const char *content_type,
                          const kvr_http_header_t *headers, size_t nheaders, int64_t content_length)
{
    if (req->resp != KVR__HTTP_RESP_NONE)
        return -EALREADY;
    kvr__http_conn_t *conn = req->conn;
    if (!conn || req->aborted)
        return -EPIPE;
    if (conn->srv->destroying)
        req->keep_alive = 0;
    int64_t framing = content_length;
    if (content_length < 0) {
        req->chunked = 1;
        framing = KVR_HTTP_CHUNKED;
        if (req->http_minor == 0) {
            /* HTTP/1.0 has no chunked encoding: the body ends when the connection does. */
            req->chunked = 0;
            req->raw_until_close = 1;
            req->keep_alive = 0;
            framing = -2;
        }
    }
    req->content_length = content_length;
    kvr_buf_t sb = KVR_BUF_INIT;
    build_head(&sb, req, status, content_type, headers, nheaders, framing);
    size_t head_len = 0;
    char *head = kvr_buf_release(&sb, &head_len);
    uv_buf_t buf = uv_buf_init(head, (unsigned)head_len);
    int rc = kvr__http_conn_write(conn, &buf, 1, head, NULL, NULL);
    if (rc < 0)
        return -EPIPE;
    req->resp = KVR__HTTP_RESP_STREAMING;
    return 0;
}

static int stream_check(kvr_http_req_t *req, size_t len)
{
    if (!req->conn || req->aborted)
        return -EPIPE;
    if (req->resp != KVR__HTTP_RESP_STREAMING)
        return -EINVAL;
    if (!req->chunked && req->content_length >= 0 &&
        req->written + (int64_t)len > req->content_length)
        return -EINVAL;
    return 0;
}

int kvr_http_stream_write(kvr_http_req_t *req, const void *data, size_t len)
{
    int rc = stream_check(req, len);
    if (rc < 0)
        return rc;
    /* A zero-length chunk would end a chunked body; HEAD responses carry none. */
    if (len == 0 || req->head) {
        req->written += (int64_t)len;
        return 0;
    }
    char *copy;
    size_t total;
    if (req->chunked) {
        char headline[24];
        int hn = snprintf(headline, sizeof headline, "%zx\r\n", len);
        total = (size_t)hn + len + 2;
        copy = kvr_xmalloc(total);
        memcpy(copy, headline, (size_t)hn);
        memcpy(copy + hn, data, len);
        memcpy(copy + hn + len, "\r\n", 2);
    } else {
        total = len;
        copy = kvr_xmalloc(len);
        memcpy(copy, data, len);
    }
    uv_buf_t buf = uv_buf_init(copy, (unsigned)total);
    rc = kvr__http_conn_write(req->conn, &buf, 1, copy, NULL, NULL);
    if (rc < 0)
        return -EPIPE;
    req->written += (int64_t)len;
    return 0;
}

int kvr_http_stream_write_ref(kvr_http_req_t *req, const void *data, size_t len,
                              kvr_http_write_cb done, void *arg)
{
    int rc = stream_check(req, len);
    if (rc < 0)
        return rc;
    if (len == 0 || req->head) {
        /* Nothing to send, but the contract promises exactly one done call. */
        static const char nothing[1];
        uv_buf_t empty = uv_buf_init((char *)nothing, 0);
        rc = kvr__http_conn_write(req->conn, &empty, 1, NULL, done, arg);
        if (rc < 0)
            return -EPIPE;
        req->written += (int64_t)len;
        return 0;
    }
    static const char crlf[] = "\r\n";
    uv_buf_t bufs[3];
    unsigned n = 0;
    char headline[24];
    if (req->chunked) {
        int hn = snprintf(headline, sizeof headline, "%zx\r\n", len);
        /* The chunk line must outlive this call: it is copied into the write. */
        char *line = kvr_xmalloc((size_t)hn);
        memcpy(line, headline, (size_t)hn);
        bufs[n++] = uv_buf_init(line, (unsigned)hn);
        bufs[n++] = uv_buf_init((char *)data, (unsigned)len);
        bufs[n++] = uv_buf_init((char *)crlf, 2);
        rc = kvr__http_conn_write(req->conn, bufs, n, line, done, arg);
    } else {
        bufs[n++] = uv_buf_init((char *)data, (unsigned)len);
        rc = kvr__http_conn_write(req->conn, bufs, n, NULL, done, arg);
    }
    if (rc < 0)
        return -EPIPE;
    req->written += (int64_t)len;
    return 0;
}

int kvr_http_stream_end(kvr_http_req_t *req)
{
    if (req->resp == KVR__HTTP_RESP_NONE)
        return kvr_http_respond(req, 200, NULL, NULL, 0, NULL, 0);
    if (!req->conn || req->aborted) {
        kvr__http_req_finished(req, 0);
        return -EPIPE;
    }
    if (req->chunked && !req->head) {
        static const char last[] = "0\r\n\r\n";
        uv_buf_t buf = uv_buf_init((char *)last, sizeof last - 1);
        if (kvr__http_conn_write(req->conn, &buf, 1, NULL, NULL, NULL) < 0) {
            kvr__http_req_finished(req, 1);
            return -EPIPE;
        }
    }
    int short_body = !req->chunked && req->content_length >= 0 && !req->head &&
                     req->written != req->content_length;
    /* A short Content-Length body can only be signalled by closing. */
    kvr__http_req_finished(req, short_body);
    return short_body ? -EPIPE : 0;
}

void kvr_http_req_abandon(kvr_http_req_t *req)
{
    kvr__http_req_finished(req, 1);
}
