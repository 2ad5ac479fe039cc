/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTTP server as a client reaches it: a server on a private loop serves
 * one end of a socketpair (kvr_http_server_adopt_fd); the input is written to
 * the other end, then the write side is shut down, and the loop runs until
 * the server has closed the connection, been destroyed and released every
 * handle (uv_loop_close() == 0).
 *
 * Input: the first byte sets how the rest is cut into writes, one per loop
 * iteration so that each arrives in its own read: 0 = one write, n = pieces
 * of n bytes (at most 64 pieces). The rest is the byte stream.
 *
 * Handlers cover every way a request ends: whole responses, chunked and
 * Content-Length streams (a short one too), by-reference writes, an error
 * with extra headers, abandon, an answer deferred to the next loop
 * iteration, so pipelined bytes wait behind a request in flight, and one
 * larger than KVR_HTTP_MAX_QUEUED_OUTPUT, so they wait for the output too.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "common/http_server.h"
#include "common/log.h"

#define MAX_PIECES 64

typedef struct {
    uv_loop_t loop;
    kvr_http_server_t *server;
    uv_pipe_t client;
    uv_idle_t feeder;
    uv_shutdown_t shutdown;
    const uint8_t *data;
    size_t size, sent, piece;
    int server_closed;
    int client_closing;
} fuzz_t;

typedef struct {
    uv_timer_t timer;
    kvr_http_req_t *req;
} deferred_t;

/* ---- handlers ---- */

static void deferred_closed(uv_handle_t *handle)
{
    free(handle->data);
}

static void deferred_fire(uv_timer_t *timer)
{
    deferred_t *d = timer->data;
    size_t len;
    const char *body = kvr_http_req_body(d->req, &len);
    kvr_http_respond(d->req, 200, "text/plain", NULL, 0, body, len);
    uv_close((uv_handle_t *)&d->timer, deferred_closed);
}

static void deferred_abort(kvr_http_req_t *req, void *arg)
{
    deferred_t *d = arg;
    uv_timer_stop(&d->timer);
    uv_close((uv_handle_t *)&d->timer, deferred_closed);
    kvr_http_req_abandon(req);
}

static void ref_done(void *arg, int status)
{
    (void)arg;
    (void)status;
}

static void on_request(kvr_http_req_t *req, void *user)
{
    fuzz_t *f = user;
    const char *path = kvr_http_req_path(req);
    char value[32];
    int tagged = kvr_http_req_query_param(req, "tag", value, sizeof value);
    size_t headers = 0;
    for (size_t i = 0; i < kvr_http_req_header_count(req); i++)
        headers += kvr_http_req_header_at(req, i) != NULL;
    if (headers != kvr_http_req_header_count(req))
        abort();
    (void)tagged;
    (void)kvr_http_req_header(req, "content-type");
    (void)kvr_http_req_peer(req);
    size_t len;
    const char *body = kvr_http_req_body(req, &len);
    if (!body || body[len] != '\0')
        abort(); /* the body is always NUL-terminated */

    if (strcmp(path, "/stream") == 0) {
        static const char ref[] = "by reference";
        kvr_http_stream_begin(req, 200, "text/event-stream", NULL, 0, KVR_HTTP_CHUNKED);
        kvr_http_stream_write(req, "data: one\n\n", 11);
        kvr_http_stream_write(req, body, len);
        kvr_http_stream_write_ref(req, ref, sizeof ref - 1, ref_done, NULL);
        kvr_http_stream_write(req, "", 0);
        kvr_http_stream_end(req);
    } else if (strcmp(path, "/length") == 0) {
        kvr_http_stream_begin(req, 200, "text/plain", NULL, 0, 10);
        kvr_http_stream_write(req, "hello", 5);
        if (len % 2 == 0)
            kvr_http_stream_write(req, "world", 5);
        kvr_http_stream_end(req); /* short when the body length is odd: closed */
    } else if (strcmp(path, "/later") == 0) {
        deferred_t *d = calloc(1, sizeof *d);
        d->req = req;
        uv_timer_init(&f->loop, &d->timer);
        d->timer.data = d;
        kvr_http_req_on_abort(req, deferred_abort, d);
        uv_timer_start(&d->timer, deferred_fire, 0, 0);
    } else if (strcmp(path, "/big") == 0) {
        /* Larger than the output bound: pipelined requests behind it wait for the drain. */
        static char big[KVR_HTTP_MAX_QUEUED_OUTPUT + 4096];
        memset(big, 'b', sizeof big);
        kvr_http_respond(req, 200, "application/octet-stream", NULL, 0, big, sizeof big);
    } else if (strcmp(path, "/abandon") == 0) {
        kvr_http_req_abandon(req);
    } else if (strcmp(path, "/error") == 0) {
        kvr_http_header_t retry = {"Retry-After", "1"};
        kvr_http_respond_error(req, 429, NULL, body, &retry, 1);
    } else {
        kvr_http_respond(req, 200, "text/plain", NULL, 0, body, len);
    }
}

/* ---- the client end ---- */

static void server_closed(void *arg)
{
    ((fuzz_t *)arg)->server_closed = 1;
}

static void client_closed(uv_handle_t *handle)
{
    (void)handle;
}

/* The server closed its end: nothing more will come. */
static void client_finish(fuzz_t *f)
{
    if (f->client_closing)
        return;
    f->client_closing = 1;
    if (uv_is_active((uv_handle_t *)&f->feeder))
        uv_idle_stop(&f->feeder);
    uv_close((uv_handle_t *)&f->feeder, NULL);
    uv_close((uv_handle_t *)&f->client, client_closed);
    kvr_http_server_destroy(f->server, server_closed, f);
}

static void client_alloc(uv_handle_t *handle, size_t suggested, uv_buf_t *buf)
{
    (void)handle;
    (void)suggested;
    static char sink[16384];
    *buf = uv_buf_init(sink, sizeof sink);
}

static void client_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf)
{
    (void)buf;
    if (nread < 0)
        client_finish(stream->data);
}

static void client_written(uv_write_t *w, int status)
{
    (void)status;
    free(w);
}

static void client_shut(uv_shutdown_t *s, int status)
{
    (void)s;
    (void)status;
}

/* One piece per loop iteration: the server reads each before the next is written. */
static void feed(uv_idle_t *idle)
{
    fuzz_t *f = idle->data;
    if (f->sent == f->size) {
        uv_idle_stop(idle);
        f->shutdown.data = f;
        uv_shutdown(&f->shutdown, (uv_stream_t *)&f->client, client_shut);
        return;
    }
    size_t n = f->size - f->sent;
    if (n > f->piece)
        n = f->piece;
    uv_write_t *w = malloc(sizeof *w);
    uv_buf_t buf = uv_buf_init((char *)f->data + f->sent, (unsigned)n);
    if (uv_write(w, (uv_stream_t *)&f->client, &buf, 1, client_written) < 0)
        free(w);
    f->sent += n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    signal(SIGPIPE, SIG_IGN);
    kvr_log_init("fuzz", KVR_LOG_ERROR);
    fuzz_t f;
    memset(&f, 0, sizeof f);
    f.data = data + 1;
    f.size = size - 1;
    f.piece = data[0] ? data[0] : (f.size ? f.size : 1);
    if (f.piece < (f.size + MAX_PIECES - 1) / MAX_PIECES)
        f.piece = (f.size + MAX_PIECES - 1) / MAX_PIECES;

    int sv[2];
    if (uv_loop_init(&f.loop) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        abort();
    kvr_http_server_config_t cfg;
    kvr_http_server_config_init(&cfg);
    cfg.on_request = on_request;
    cfg.user = &f;
    cfg.max_header_bytes = 2048; /* small limits, so inputs reach 431 and 413 */
    cfg.max_body_bytes = 1024;
    if (kvr_http_server_create(&f.loop, &cfg, &f.server) != 0 ||
        kvr_http_server_adopt_fd(f.server, sv[1]) != 0)
        abort();
    uv_pipe_init(&f.loop, &f.client, 0);
    f.client.data = &f;
    if (uv_pipe_open(&f.client, sv[0]) != 0)
        abort();
    uv_read_start((uv_stream_t *)&f.client, client_alloc, client_read);
    uv_idle_init(&f.loop, &f.feeder);
    f.feeder.data = &f;
    uv_idle_start(&f.feeder, feed);

    uv_run(&f.loop, UV_RUN_DEFAULT);
    if (!f.server_closed || uv_loop_close(&f.loop) != 0)
        abort(); /* a handle or request outlived the server */
    return 0;
}
