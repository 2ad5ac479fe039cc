/* SPDX-License-Identifier: Apache-2.0 */
/*
 * llhttp's callbacks for the HTTP/1.1 server (http_server.c): they fill the
 * connection's request (method, target, headers, body) within the server's
 * limits, or set the status a refused request gets and stop the parser.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/http_internal.h"
#include "common/xmalloc.h"

static kvr__http_conn_t *parser_conn(llhttp_t *p)
{
    return p->data;
}

static int header_budget(kvr__http_conn_t *conn, size_t n)
{
    kvr_http_req_t *req = conn->req;
    req->header_bytes += n;
    if (req->header_bytes > conn->srv->cfg.max_header_bytes) {
        conn->err_status = 431;
        return -1;
    }
    return 0;
}

static int on_message_begin(llhttp_t *p)
{
    kvr__http_conn_t *conn = parser_conn(p);
    assert(!conn->req);
    kvr_http_req_t *req = kvr__http_req_alloc(conn->srv);
    req->srv = conn->srv;
    req->conn = conn;
    req->start_ns = kvr_clock_now_ns();
    req->content_length = KVR_HTTP_CHUNKED;
    conn->req = req;
    return 0;
}

static int on_url(llhttp_t *p, const char *at, size_t len)
{
    kvr__http_conn_t *conn = parser_conn(p);
    if (header_budget(conn, len) < 0)
        return -1;
    kvr_buf_append(&conn->req->target, at, len);
    return 0;
}

static int on_header_field(llhttp_t *p, const char *at, size_t len)
{
    kvr__http_conn_t *conn = parser_conn(p);
    kvr_http_req_t *req = conn->req;
    req->field_len += len;
    if (req->headers_done) /* trailers of a chunked body: counted, not kept */
        return header_budget(conn, len);
    if (header_budget(conn, len + 4) < 0)
        return -1;
    if (req->nheaders == 0 || req->hoffs[2 * req->nheaders - 1] != (size_t)-1) {
        /* A new header starts; terminate the previous value if its callbacks never ran. */
        if (req->in_value)
            kvr_buf_append(&req->hbuf, "", 1);
        req->in_value = 0;
        if (req->nheaders == req->hoffs_cap) {
            req->hoffs_cap = req->hoffs_cap ? req->hoffs_cap * 2 : 16;
            req->hoffs = kvr_xrealloc(req->hoffs, req->hoffs_cap * 2 * sizeof *req->hoffs);
        }
        req->hoffs[2 * req->nheaders] = req->hbuf.len;
        req->hoffs[2 * req->nheaders + 1] = (size_t)-1;
        req->nheaders++;
    }
    kvr_buf_append(&req->hbuf, at, len);
    return 0;
}

static int on_header_field_complete(llhttp_t *p)
{
    kvr__http_conn_t *conn = parser_conn(p);
    kvr_http_req_t *req = conn->req;
    if (req->field_len == 0) { /* llhttp takes ": value"; a field name is a token (RFC 9110 5.1) */
        conn->err_reason = "empty header name";
        return -1;
    }
    req->field_len = 0;
    if (req->headers_done)
        return 0;
    kvr_buf_append(&req->hbuf, "", 1);
    req->hoffs[2 * req->nheaders - 1] = req->hbuf.len;
    req->in_value = 1;
    return 0;
}

/*
 * True when the value bytes at `at` follow a line break with only blanks
 * between: an obs-fold continuation line (RFC 9112 5.2), which this llhttp
 * joins to the previous value in every mode. A proxy in front may read the
 * folded header differently (a folded Content-Length most of all), so the
 * server refuses it with 400 as the RFC allows. Blanks before a value that
 * begins on the header's own line always lead back to its ':'.
 */
static int value_after_line_break(const kvr__http_conn_t *conn, const char *at)
{
    for (const char *q = at; q > conn->exec_base;) {
        char c = *--q;
        if (c == '\n')
            return 1;
        if (c != ' ' && c != '\t' && c != '\r')
            return 0;
    }
    return conn->exec_tail_lf;
}

/*
 * True when an empty value span starts right after a line break: llhttp
 * reports an empty field value ("X-Empty:" then CRLF, which RFC 9110 5.5
 * allows) at the first byte of the next line, once it has seen that this
 * line is no continuation. A fold always has a blank between the line break
 * and where its value starts.
 */
static int empty_value_at_line_start(const kvr__http_conn_t *conn, const char *at, size_t len)
{
    if (len != 0)
        return 0;
    return at > conn->exec_base ? at[-1] == '\n' : conn->exec_tail_bare_lf;
}

static int on_header_value(llhttp_t *p, const char *at, size_t len)
{
    kvr__http_conn_t *conn = parser_conn(p);
    if (empty_value_at_line_start(conn, at, len))
        return 0;
    if (value_after_line_break(conn, at)) {
        conn->err_reason = "obsolete line folding in a header";
        return -1;
    }
    if (header_budget(conn, len) < 0)
        return -1;
    kvr_http_req_t *req = conn->req;
    if (req->headers_done)
        return 0;
    kvr_buf_append(&req->hbuf, at, len);
    return 0;
}

static int on_header_value_complete(llhttp_t *p)
{
    kvr_http_req_t *req = parser_conn(p)->req;
    if (req->headers_done)
        return 0;
    kvr_buf_append(&req->hbuf, "", 1);
    req->in_value = 0;
    return 0;
}

static int on_headers_complete(llhttp_t *p)
{
    kvr__http_conn_t *conn = parser_conn(p);
    kvr_http_req_t *req = conn->req;
    kvr_http_server_t *srv = conn->srv;

    if (req->headers_cap < req->nheaders + 1) {
        free(req->headers);
        req->headers_cap = req->nheaders + 1 > 16 ? req->nheaders + 1 : 16;
        req->headers = kvr_xmalloc(req->headers_cap * sizeof *req->headers);
    }
    req->headers_done = 1;
    req->headers[req->nheaders] = (kvr_http_header_t){NULL, NULL};
    for (size_t i = 0; i < req->nheaders; i++) {
        size_t voff = req->hoffs[2 * i + 1];
        req->headers[i].name = req->hbuf.base + req->hoffs[2 * i];
        /* A header whose value callbacks never ran has an empty value. */
        req->headers[i].value = voff == (size_t)-1 || voff >= req->hbuf.len ? ""
                                                                            : req->hbuf.base + voff;
    }
    if (req->target.len == 0)
        kvr_buf_append(&req->target, "/", 1);
    const char *q = memchr(req->target.base, '?', req->target.len);
    size_t plen = q ? (size_t)(q - req->target.base) : req->target.len;
    kvr_buf_reset(&req->path);
    kvr_buf_append(&req->path, req->target.base, plen);
    req->query = q ? q + 1 : "";
    const char *method = llhttp_method_name((llhttp_method_t)p->method);
    size_t mlen = strnlen(method, sizeof req->method - 1);
    memcpy(req->method, method, mlen);
    req->method[mlen] = '\0';
    req->http_minor = p->http_minor;
    req->keep_alive = llhttp_should_keep_alive(p);
    req->head = p->method == HTTP_HEAD;

    if (p->method == HTTP_CONNECT) {
        conn->err_status = 405;
        return -1;
    }
    /* No protocol switch is offered: the Upgrade header is ignored (RFC 9110
     * 7.8), so llhttp reads the body and any next request as HTTP/1.1 instead
     * of stopping at the message end with no request to hand over. */
    p->upgrade = 0;
    if ((p->flags & F_CONTENT_LENGTH) && p->content_length > srv->cfg.max_body_bytes) {
        conn->err_status = 413;
        return -1;
    }
    const char *expect = kvr_http_req_header(req, "expect");
    if (expect && strcasecmp(expect, "100-continue") == 0 && req->http_minor >= 1) {
        static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
        uv_buf_t buf = uv_buf_init((char *)cont, sizeof cont - 1);
        kvr__http_conn_write(conn, &buf, 1, NULL, NULL, NULL);
    }
    return 0;
}

static int on_body(llhttp_t *p, const char *at, size_t len)
{
    kvr__http_conn_t *conn = parser_conn(p);
    kvr_http_req_t *req = conn->req;
    if (req->body.len + len > conn->srv->cfg.max_body_bytes) {
        conn->err_status = 413;
        return -1;
    }
    kvr_buf_append(&req->body, at, len);
    return 0;
}

static int on_message_complete(llhttp_t *p)
{
    /* One request at a time: stop here, leftovers wait for the response. */
    parser_conn(p)->req_complete = 1;
    return HPE_PAUSED;
}

void kvr__http_parser_settings(llhttp_settings_t *settings)
{
    llhttp_settings_init(settings);
    settings->on_message_begin = on_message_begin;
    settings->on_url = on_url;
    settings->on_header_field = on_header_field;
    settings->on_header_field_complete = on_header_field_complete;
    settings->on_header_value = on_header_value;
    settings->on_header_value_complete = on_header_value_complete;
    settings->on_headers_complete = on_headers_complete;
    settings->on_body = on_body;
    settings->on_message_complete = on_message_complete;
}
