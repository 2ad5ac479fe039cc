/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/router/fake_engine.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "common/http_server.h"

typedef struct fake_req_s fake_req_t;

typedef struct fake_engine_s {
    kvr_fake_fleet_t *fleet;
    int index;
    kvr_http_server_t *srv;
    uint16_t port;
    char force[128];
    atomic_uint requests, aborted;
} fake_engine_t;

struct kvr_fake_fleet_s {
    uv_loop_t loop;
    uv_async_t wake;
    pthread_t thread;
    pthread_mutex_t lock;
    fake_engine_t engines[KVR_FAKE_MAX];
    int n;
    atomic_int release_pending, stop_pending;
    atomic_uint held;
    fake_req_t *parked;
    int servers_open;
};

struct fake_req_s {
    fake_engine_t *engine;
    kvr_http_req_t *req;
    uv_timer_t timer;
    int status, chunks, interval_ms, delay_ms, cut, hang, hold;
    int sent;
    bool timer_open;
    fake_req_t *next_parked;
};

static int script_int(const char *script, const char *key, int dflt)
{
    size_t kl = strlen(key);
    for (const char *p = script; p && *p;) {
        if (strncmp(p, key, kl) == 0 && p[kl] == '=')
            return atoi(p + kl + 1);
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return dflt;
}

static void on_timer_closed(uv_handle_t *h)
{
    free(h->data);
}

static void fake_free(fake_req_t *fr)
{
    if (fr->timer_open) {
        uv_timer_stop(&fr->timer);
        uv_close((uv_handle_t *)&fr->timer, on_timer_closed);
    } else {
        free(fr);
    }
}

static void unpark(fake_req_t *fr)
{
    kvr_fake_fleet_t *f = fr->engine->fleet;
    for (fake_req_t **pp = &f->parked; *pp; pp = &(*pp)->next_parked) {
        if (*pp == fr) {
            *pp = fr->next_parked;
            atomic_fetch_sub(&f->held, 1);
            return;
        }
    }
}

static void on_abort(kvr_http_req_t *req, void *arg)
{
    fake_req_t *fr = arg;
    atomic_fetch_add(&fr->engine->aborted, 1);
    unpark(fr);
    kvr_http_req_abandon(req);
    fake_free(fr);
}

static void respond_whole(fake_req_t *fr)
{
    char body[256];
    if (fr->status >= 400) {
        int n = snprintf(body, sizeof body, "{\"error\":{\"message\":\"scripted\",\"type\":\"server_error\",\"code\":%d}}",
                         fr->status);
        kvr_http_respond(fr->req, fr->status, "application/json", NULL, 0, body, (size_t)n);
    } else {
        int n = snprintf(body, sizeof body, "{\"engine\":%d,\"choices\":[{\"message\":{\"content\":\"hi\"}}]}",
                         fr->engine->index);
        kvr_http_respond(fr->req, 200, "application/json", NULL, 0, body, (size_t)n);
    }
    fake_free(fr);
}

static void on_stream_tick(uv_timer_t *t)
{
    fake_req_t *fr = t->data;
    if (fr->sent == 0 && fr->chunks >= 0) {
        /* first tick after delay_ms: the head */
    }
    if (fr->cut > 0 && fr->sent >= fr->cut) {
        kvr_http_req_abandon(fr->req); /* the engine dies mid-stream */
        fake_free(fr);
        return;
    }
    char ev[128];
    if (fr->sent < fr->chunks) {
        int n = snprintf(ev, sizeof ev, "data: {\"engine\":%d,\"n\":%d}\n\n", fr->engine->index, fr->sent);
        kvr_http_stream_write(fr->req, ev, (size_t)n);
        fr->sent++;
        uv_timer_start(&fr->timer, on_stream_tick, (uint64_t)fr->interval_ms, 0);
        return;
    }
    static const char done[] = "data: [DONE]\n\n";
    kvr_http_stream_write(fr->req, done, sizeof done - 1);
    kvr_http_stream_end(fr->req);
    fake_free(fr);
}

static void start_response(fake_req_t *fr)
{
    if (fr->chunks <= 0 && fr->cut <= 0) {
        respond_whole(fr);
        return;
    }
    kvr_http_stream_begin(fr->req, 200, "text/event-stream", NULL, 0, KVR_HTTP_CHUNKED);
    on_stream_tick(&fr->timer);
}

static void on_delay(uv_timer_t *t)
{
    start_response(t->data);
}

static void on_request(kvr_http_req_t *req, void *user)
{
    fake_engine_t *e = user;
    kvr_fake_fleet_t *f = e->fleet;
    const char *path = kvr_http_req_path(req);
    if (strcmp(kvr_http_req_method(req), "GET") == 0) {
        char body[256];
        int n;
        if (strcmp(path, "/v1/models") == 0)
            n = snprintf(body, sizeof body, "{\"object\":\"list\",\"data\":[{\"id\":\"m-%d\",\"object\":\"model\"},"
                                            "{\"id\":\"shared\",\"object\":\"model\"}]}", e->index);
        else if (strcmp(path, "/metrics") == 0)
            n = snprintf(body, sizeof body, "vllm:num_requests_running 0\nvllm:num_requests_waiting 0\n");
        else
            n = snprintf(body, sizeof body, "{\"status\":\"ok\"}");
        kvr_http_respond(req, 200, "application/json", NULL, 0, body, (size_t)n);
        return;
    }
    atomic_fetch_add(&e->requests, 1);
    char script[128];
    pthread_mutex_lock(&f->lock);
    snprintf(script, sizeof script, "%s", e->force);
    pthread_mutex_unlock(&f->lock);
    if (!script[0]) {
        const char *h = kvr_http_req_header(req, "X-Fake");
        snprintf(script, sizeof script, "%s", h ? h : "");
    }
    fake_req_t *fr = calloc(1, sizeof *fr);
    fr->engine = e;
    fr->req = req;
    fr->status = script_int(script, "status", 200);
    fr->chunks = script_int(script, "chunks", 0);
    fr->interval_ms = script_int(script, "interval_ms", 5);
    fr->delay_ms = script_int(script, "delay_ms", 0);
    fr->cut = script_int(script, "cut", 0);
    fr->hang = script_int(script, "hang", 0);
    fr->hold = script_int(script, "hold", 0);
    if (script_int(script, "echo", 0)) {
        /* What arrived, byte for byte: its length and FNV-1a hash. */
        size_t len;
        const unsigned char *body = (const unsigned char *)kvr_http_req_body(req, &len);
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < len; i++)
            h = (h ^ body[i]) * 1099511628211ull;
        char out[128];
        int n = snprintf(out, sizeof out, "{\"len\":%zu,\"fnv\":\"%016llx\"}", len, (unsigned long long)h);
        kvr_http_respond(req, 200, "application/json", NULL, 0, out, (size_t)n);
        free(fr);
        return;
    }
    uv_timer_init(&f->loop, &fr->timer);
    fr->timer.data = fr;
    fr->timer_open = true;
    kvr_http_req_on_abort(req, on_abort, fr);
    if (fr->hang)
        return;
    if (fr->hold) {
        fr->next_parked = f->parked;
        f->parked = fr;
        atomic_fetch_add(&f->held, 1);
        return;
    }
    if (fr->delay_ms > 0)
        uv_timer_start(&fr->timer, on_delay, (uint64_t)fr->delay_ms, 0);
    else
        start_response(fr);
}

static void on_server_closed(void *arg)
{
    kvr_fake_fleet_t *f = arg;
    if (--f->servers_open == 0)
        uv_close((uv_handle_t *)&f->wake, NULL);
}

static void on_wake(uv_async_t *a)
{
    kvr_fake_fleet_t *f = a->data;
    if (atomic_exchange(&f->release_pending, 0)) {
        while (f->parked) {
            fake_req_t *fr = f->parked;
            f->parked = fr->next_parked;
            atomic_fetch_sub(&f->held, 1);
            start_response(fr);
        }
    }
    if (atomic_exchange(&f->stop_pending, 0)) {
        while (f->parked) {
            fake_req_t *fr = f->parked;
            f->parked = fr->next_parked;
            atomic_fetch_sub(&f->held, 1);
            respond_whole(fr);
        }
        for (int i = 0; i < f->n; i++)
            kvr_http_server_destroy(f->engines[i].srv, on_server_closed, f);
    }
}

static void *run(void *arg)
{
    kvr_fake_fleet_t *f = arg;
    uv_run(&f->loop, UV_RUN_DEFAULT);
    return NULL;
}

kvr_fake_fleet_t *kvr_fake_start(int n)
{
    cr_assert_leq(n, KVR_FAKE_MAX);
    kvr_fake_fleet_t *f = calloc(1, sizeof *f);
    f->n = n;
    pthread_mutex_init(&f->lock, NULL);
    uv_loop_init(&f->loop);
    uv_async_init(&f->loop, &f->wake, on_wake);
    f->wake.data = f;
    for (int i = 0; i < n; i++) {
        fake_engine_t *e = &f->engines[i];
        e->fleet = f;
        e->index = i;
        kvr_http_server_config_t cfg;
        kvr_http_server_config_init(&cfg);
        cfg.port = 0;
        cfg.max_body_bytes = 16u << 20;
        cfg.on_request = on_request;
        cfg.user = e;
        cr_assert_eq(kvr_http_server_create(&f->loop, &cfg, &e->srv), 0);
        e->port = (uint16_t)kvr_http_server_port(e->srv);
        f->servers_open++;
    }
    cr_assert_eq(pthread_create(&f->thread, NULL, run, f), 0);
    return f;
}

void kvr_fake_stop(kvr_fake_fleet_t *f)
{
    if (!f)
        return;
    atomic_store(&f->stop_pending, 1);
    uv_async_send(&f->wake);
    pthread_join(f->thread, NULL);
    uv_loop_close(&f->loop);
    pthread_mutex_destroy(&f->lock);
    free(f);
}

uint16_t kvr_fake_port(const kvr_fake_fleet_t *f, int i)
{
    return f->engines[i].port;
}

void kvr_fake_force(kvr_fake_fleet_t *f, int i, const char *script)
{
    pthread_mutex_lock(&f->lock);
    snprintf(f->engines[i].force, sizeof f->engines[i].force, "%s", script);
    pthread_mutex_unlock(&f->lock);
}

void kvr_fake_release(kvr_fake_fleet_t *f)
{
    atomic_store(&f->release_pending, 1);
    uv_async_send(&f->wake);
}

unsigned kvr_fake_requests(const kvr_fake_fleet_t *f, int i)
{
    if (i >= 0)
        return atomic_load(&f->engines[i].requests);
    unsigned n = 0;
    for (int k = 0; k < f->n; k++)
        n += atomic_load(&f->engines[k].requests);
    return n;
}

unsigned kvr_fake_aborted(const kvr_fake_fleet_t *f, int i)
{
    if (i >= 0)
        return atomic_load(&f->engines[i].aborted);
    unsigned n = 0;
    for (int k = 0; k < f->n; k++)
        n += atomic_load(&f->engines[k].aborted);
    return n;
}

unsigned kvr_fake_held(const kvr_fake_fleet_t *f)
{
    return atomic_load(&f->held);
}

/* ---- raw engine ------------------------------------------------------------ */

struct kvr_raw_engine_s {
    pthread_t thread;
    int listen_fd;
    int stop_pipe[2];
    uint16_t port;
    char *reply;               /* NULL: read requests, never answer */
    atomic_uint requests, accepted;
    int silent_fds[64];
    int n_silent;
};

/* Reads one request (head, then Content-Length bytes of body); false on EOF, error or timeout. */
static bool raw_read_request(int fd)
{
    char buf[65536];
    size_t len = 0, want = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (len < sizeof buf - 1 && poll(&p, 1, 5000) == 1) {
        ssize_t n = read(fd, buf + len, sizeof buf - 1 - len);
        if (n <= 0)
            return false;
        len += (size_t)n;
        buf[len] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        if (!end)
            continue;
        if (want == 0) {
            want = (size_t)(end + 4 - buf);
            for (char *line = strstr(buf, "\r\n"); line && line < end; line = strstr(line + 2, "\r\n"))
                if (strncasecmp(line + 2, "Content-Length:", 15) == 0)
                    want += strtoul(line + 17, NULL, 10);
        }
        if (len >= want)
            return true;
    }
    return false;
}

static void *raw_run(void *arg)
{
    kvr_raw_engine_t *e = arg;
    for (;;) {
        struct pollfd p[2] = {{.fd = e->listen_fd, .events = POLLIN}, {.fd = e->stop_pipe[0], .events = POLLIN}};
        if (poll(p, 2, -1) < 0 || p[1].revents)
            return NULL;
        int fd = accept(e->listen_fd, NULL, NULL);
        if (fd < 0)
            continue;
        atomic_fetch_add(&e->accepted, 1);
        if (!e->reply) {
            if (e->n_silent < (int)(sizeof e->silent_fds / sizeof e->silent_fds[0]) && raw_read_request(fd)) {
                atomic_fetch_add(&e->requests, 1);
                e->silent_fds[e->n_silent++] = fd; /* held open, unanswered, until stop */
                continue;
            }
            close(fd);
            continue;
        }
        if (raw_read_request(fd)) {
            atomic_fetch_add(&e->requests, 1);
            size_t n = strlen(e->reply), off = 0;
            while (off < n) {
                ssize_t w = write(fd, e->reply + off, n - off);
                if (w <= 0)
                    break;
                off += (size_t)w;
            }
        }
        close(fd);
    }
}

kvr_raw_engine_t *kvr_raw_engine_start(const char *reply)
{
    kvr_raw_engine_t *e = calloc(1, sizeof *e);
    e->reply = reply ? strdup(reply) : NULL;
    e->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    cr_assert_geq(e->listen_fd, 0);
    struct sockaddr_in a = {.sin_family = AF_INET};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    cr_assert_eq(bind(e->listen_fd, (struct sockaddr *)&a, sizeof a), 0);
    cr_assert_eq(listen(e->listen_fd, 64), 0);
    socklen_t alen = sizeof a;
    cr_assert_eq(getsockname(e->listen_fd, (struct sockaddr *)&a, &alen), 0);
    e->port = ntohs(a.sin_port);
    cr_assert_eq(pipe(e->stop_pipe), 0);
    cr_assert_eq(pthread_create(&e->thread, NULL, raw_run, e), 0);
    return e;
}

uint16_t kvr_raw_engine_port(const kvr_raw_engine_t *e)
{
    return e->port;
}

unsigned kvr_raw_engine_requests(const kvr_raw_engine_t *e)
{
    return atomic_load(&e->requests);
}

unsigned kvr_raw_engine_accepted(const kvr_raw_engine_t *e)
{
    return atomic_load(&e->accepted);
}

void kvr_raw_engine_stop(kvr_raw_engine_t *e)
{
    if (!e)
        return;
    cr_assert_eq(write(e->stop_pipe[1], "x", 1), 1);
    pthread_join(e->thread, NULL);
    for (int i = 0; i < e->n_silent; i++)
        close(e->silent_fds[i]);
    close(e->listen_fd);
    close(e->stop_pipe[0]);
    close(e->stop_pipe[1]);
    free(e->reply);
    free(e);
}
