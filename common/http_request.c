/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a handler reads of a request: method, path, query, headers, body,
 * peer, and its per-request data and callbacks. The request's life (parsing,
 * dispatch, finish) is in http_server.c.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/http_internal.h"

const char *kvr_http_req_method(const kvr_http_req_t *req)
{
    return req->method;
}

const char *kvr_http_req_path(const kvr_http_req_t *req)
{
    return req->path.base;
}

const char *kvr_http_req_query(const kvr_http_req_t *req)
{
    return req->query;
}

int kvr_http_req_query_param(const kvr_http_req_t *req, const char *name, char *out, size_t cap)
{
    size_t nlen = strlen(name);
    const char *p = req->query;
    while (*p) {
        const char *end = strchr(p, '&');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        size_t klen = eq ? (size_t)(eq - p) : len;
        if (klen == nlen && memcmp(p, name, nlen) == 0) {
            if (out && cap) {
                size_t vlen = eq ? len - klen - 1 : 0;
                if (vlen >= cap)
                    vlen = cap - 1;
                if (vlen)
                    memcpy(out, eq + 1, vlen);
                out[vlen] = '\0';
            }
            return 1;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return 0;
}

const char *kvr_http_req_header(const kvr_http_req_t *req, const char *name)
{
    for (size_t i = 0; req->headers_done && i < req->nheaders; i++)
        if (strcasecmp(req->headers[i].name, name) == 0)
            return req->headers[i].value;
    return NULL;
}

size_t kvr_http_req_header_count(const kvr_http_req_t *req)
{
    return req->nheaders;
}

const kvr_http_header_t *kvr_http_req_header_at(const kvr_http_req_t *req, size_t i)
{
    return req->headers_done && i < req->nheaders ? &req->headers[i] : NULL;
}

const char *kvr_http_req_body(const kvr_http_req_t *req, size_t *len)
{
    if (len)
        *len = req->body.len;
    return req->body.base;
}

const char *kvr_http_req_peer(const kvr_http_req_t *req)
{
    return req->conn ? req->conn->peer : "gone";
}

uint64_t kvr_http_req_start_ns(const kvr_http_req_t *req)
{
    return req->start_ns;
}

void *kvr_http_req_server_user(const kvr_http_req_t *req)
{
    return req->srv->cfg.user;
}

void kvr_http_req_set_data(kvr_http_req_t *req, void *data)
{
    req->data = data;
}

void *kvr_http_req_data(const kvr_http_req_t *req)
{
    return req->data;
}

int kvr_http_req_aborted(const kvr_http_req_t *req)
{
    return req->aborted || !req->conn;
}

void kvr_http_req_on_abort(kvr_http_req_t *req, kvr_http_abort_cb cb, void *arg)
{
    req->on_abort = cb;
    req->abort_arg = arg;
}

void kvr_http_req_on_drain(kvr_http_req_t *req, kvr_http_drain_cb cb, void *arg)
{
    req->on_drain = cb;
    req->drain_arg = arg;
}

size_t kvr_http_stream_queued(const kvr_http_req_t *req)
{
    return req->conn ? req->conn->queued_bytes : 0;
}
