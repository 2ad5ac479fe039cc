/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/support/fake_engine.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "common/http_server.h"
#include "tests/support/proc.h"

typedef struct fake_req_s fake_req_t;
typedef struct stalled_s stalled_t;

typedef struct fake_engine_s {
    kvr_fake_fleet_t *fleet;
    int index;
    uint16_t port;
    /* Set by the test thread under the fleet's lock, applied by the loop thread. */
    char force[128];
    kvr_fake_mode_t mode;
    bool drop;
    bool bodies_set;
    char *metrics, *loads;
    char models[256]; /* comma-separated ids /v1/models lists */
    /* Loop thread only. */
    kvr_http_server_t *srv; /* serves what the listener accepts; replaced to drop connections */
    bool srv_closing;
    int listen_fd; /* -1 while down */
    uv_poll_t *listen_poll;
    uv_timer_t retry; /* the port can stay busy a moment after its listener closed */
    stalled_t *stalled;
    atomic_uint requests, aborted, polls, connections;
} fake_engine_t;

struct kvr_fake_fleet_s {
    uv_loop_t loop;
    uv_async_t wake;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t applied_cond;
    uint64_t wanted, applied; /* under lock: changes asked for, changes done */
    fake_engine_t engines[KVR_FAKE_MAX];
    int n;
    atomic_int release_pending, stop_pending;
    atomic_uint held;
    fake_req_t *parked;
    bool stopping;
    int handles_open; /* servers, listener polls and retry timers not yet closed */
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

/* A request read while the engine stalls: answered when it is OK again. */
struct stalled_s {
    fake_engine_t *engine;
    kvr_http_req_t *req;
    stalled_t *next;
};

static void reconcile(kvr_fake_fleet_t *f);
static void handle_request(fake_engine_t *e, kvr_http_req_t *req);

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
        int n = snprintf(
            body, sizeof body,
            "{\"error\":{\"message\":\"scripted\",\"type\":\"server_error\",\"code\":%d}}",
            fr->status);
        kvr_http_respond(fr->req, fr->status, "application/json", NULL, 0, body, (size_t)n);
    } else {
        int n = snprintf(body, sizeof body,
                         "{\"engine\":%d,\"choices\":[{\"message\":{\"content\":\"hi\"}}]}",
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
        int n = snprintf(ev, sizeof ev, "data: {\"engine\":%d,\"n\":%d}\n\n", fr->engine->index,
                         fr->sent);
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

static void on_stalled_abort(kvr_http_req_t *req, void *arg)
{
    stalled_t *s = arg;
    for (stalled_t **pp = &s->engine->stalled; *pp; pp = &(*pp)->next) {
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    }
    kvr_http_req_abandon(req);
    free(s);
}

static void answer_get(fake_engine_t *e, kvr_http_req_t *req)
{
    kvr_fake_fleet_t *f = e->fleet;
    const char *path = kvr_http_req_path(req);
    pthread_mutex_lock(&f->lock);
    if (e->bodies_set) {
        const char *body = NULL;
        if (strcmp(path, "/metrics") == 0)
            body = e->metrics;
        else if (strcmp(path, "/v1/loads") == 0)
            body = e->loads;
        if (body)
            kvr_http_respond(req, 200, "text/plain", NULL, 0, body, strlen(body));
        else
            kvr_http_respond(req, 404, "text/plain", NULL, 0, "not found", 9);
        pthread_mutex_unlock(&f->lock);
        atomic_fetch_add(&e->polls, 1);
        return;
    }
    char models[sizeof e->models];
    memcpy(models, e->models, sizeof models);
    pthread_mutex_unlock(&f->lock);
    char body[1024];
    int n;
    if (strcmp(path, "/v1/models") == 0) {
        n = snprintf(body, sizeof body, "{\"object\":\"list\",\"data\":[");
        const char *sep = "";
        for (char *save = NULL, *id = strtok_r(models, ",", &save); id;
             id = strtok_r(NULL, ",", &save)) {
            n += snprintf(body + n, sizeof body - (size_t)n,
                          "%s{\"id\":\"%s\",\"object\":\"model\"}", sep, id);
            sep = ",";
        }
        n += snprintf(body + n, sizeof body - (size_t)n, "]}");
    } else if (strcmp(path, "/metrics") == 0)
        n = snprintf(body, sizeof body,
                     "vllm:num_requests_running 0\nvllm:num_requests_waiting 0\n");
    else
        n = snprintf(body, sizeof body, "{\"status\":\"ok\"}");
    kvr_http_respond(req, 200, "application/json", NULL, 0, body, (size_t)n);
    atomic_fetch_add(&e->polls, 1);
}

static void on_request(kvr_http_req_t *req, void *user)
{
    fake_engine_t *e = user;
    pthread_mutex_lock(&e->fleet->lock);
    bool stall = e->mode == KVR_FAKE_STALL;
    pthread_mutex_unlock(&e->fleet->lock);
    if (stall) {
        stalled_t *s = calloc(1, sizeof *s);
        s->engine = e;
        s->req = req;
        s->next = e->stalled;
        e->stalled = s;
        kvr_http_req_on_abort(req, on_stalled_abort, s);
        return;
    }
    handle_request(e, req);
}

static void handle_request(fake_engine_t *e, kvr_http_req_t *req)
{
    kvr_fake_fleet_t *f = e->fleet;
    if (strcmp(kvr_http_req_method(req), "GET") == 0) {
        answer_get(e, req);
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
    if (script_int(script, "drop", 0)) {
        kvr_http_req_abandon(req); /* the connection closes with no answer at all */
        return;
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
        int n = snprintf(out, sizeof out, "{\"len\":%zu,\"fnv\":\"%016llx\"}", len,
                         (unsigned long long)h);
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

/* ---- sockets, on the loop thread ---------------------------------------- */

static void on_handle_closed(uv_handle_t *h)
{
    kvr_fake_fleet_t *f = h->loop->data;
    if (h->type == UV_POLL)
        free(h);
    if (--f->handles_open == 0)
        uv_close((uv_handle_t *)&f->wake, NULL);
}

static int listen_on(uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 || listen(fd, 128) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void on_listen_readable(uv_poll_t *p, int status, int events)
{
    fake_engine_t *e = p->data;
    (void)events;
    if (status < 0 || e->listen_fd < 0 || !e->srv || e->srv_closing)
        return;
    for (;;) {
        int fd = accept4(e->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        atomic_fetch_add(&e->connections, 1);
        if (kvr_http_server_adopt_fd(e->srv, fd) < 0)
            close(fd);
    }
}

/* Stops watching the listener; connections wait in its backlog meanwhile. */
static void pause_listener(fake_engine_t *e)
{
    if (e->listen_poll)
        uv_poll_stop(e->listen_poll);
}

static void close_listener(fake_engine_t *e)
{
    if (e->listen_fd < 0)
        return;
    /* Out of epoll first: libuv must not watch a closed descriptor. */
    uv_poll_stop(e->listen_poll);
    uv_close((uv_handle_t *)e->listen_poll, on_handle_closed);
    e->listen_poll = NULL;
    close(e->listen_fd);
    e->listen_fd = -1;
}

static bool open_listener(fake_engine_t *e)
{
    if (e->listen_fd >= 0)
        return true;
    e->listen_fd = listen_on(e->port);
    if (e->listen_fd < 0)
        return false;
    e->listen_poll = calloc(1, sizeof *e->listen_poll);
    cr_assert_eq(uv_poll_init_socket(&e->fleet->loop, e->listen_poll, e->listen_fd), 0);
    e->listen_poll->data = e;
    e->fleet->handles_open++;
    return true;
}

static void on_server_closed(void *arg)
{
    fake_engine_t *e = arg;
    kvr_fake_fleet_t *f = e->fleet;
    e->srv = NULL;
    e->srv_closing = false;
    if (--f->handles_open == 0)
        uv_close((uv_handle_t *)&f->wake, NULL);
    else if (!f->stopping)
        uv_async_send(&f->wake); /* reconcile again, outside whatever closed the server */
}

static void create_server(fake_engine_t *e)
{
    kvr_http_server_config_t cfg;
    kvr_http_server_config_init(&cfg);
    cfg.port = 0; /* its own listener stays unused: connections come from the engine's port */
    cfg.max_body_bytes = 16u << 20;
    cfg.on_request = on_request;
    cfg.user = e;
    cr_assert_eq(kvr_http_server_create(&e->fleet->loop, &cfg, &e->srv), 0);
    e->fleet->handles_open++;
}

static void on_retry(uv_timer_t *t)
{
    reconcile(t->loop->data);
}

/*
 * Brings every engine's sockets to what the test asked for. Done (the
 * waiting caller is told) once no engine has a server closing or a port
 * still busy; the callbacks of those call it again.
 */
static void reconcile(kvr_fake_fleet_t *f)
{
    pthread_mutex_lock(&f->lock);
    uint64_t wanted = f->wanted;
    bool done = true;
    for (int i = 0; i < f->n; i++) {
        fake_engine_t *e = &f->engines[i];
        if (e->srv_closing) {
            done = false;
            continue;
        }
        if (e->mode == KVR_FAKE_DOWN)
            close_listener(e);
        if ((e->mode == KVR_FAKE_DOWN || e->drop) && e->srv) {
            e->drop = false;
            pause_listener(e);
            e->srv_closing = true; /* closes every connection; stalled requests are aborted */
            kvr_http_server_destroy(e->srv, on_server_closed, e);
            done = false;
            continue;
        }
        e->drop = false;
        if (e->mode == KVR_FAKE_DOWN)
            continue;
        if (!e->srv)
            create_server(e);
        if (!open_listener(e)) {
            done = false;
            uv_timer_start(&e->retry, on_retry, 5, 0);
            continue;
        }
        uv_poll_start(e->listen_poll, UV_READABLE, on_listen_readable);
        if (e->mode == KVR_FAKE_OK) {
            while (e->stalled) {
                stalled_t *s = e->stalled;
                e->stalled = s->next;
                kvr_http_req_on_abort(s->req, NULL, NULL);
                pthread_mutex_unlock(&f->lock);
                handle_request(e, s->req);
                pthread_mutex_lock(&f->lock);
                free(s);
            }
        }
    }
    if (done && f->applied < wanted) {
        f->applied = wanted;
        pthread_cond_broadcast(&f->applied_cond);
    }
    pthread_mutex_unlock(&f->lock);
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
        f->stopping = true;
        while (f->parked) {
            fake_req_t *fr = f->parked;
            f->parked = fr->next_parked;
            atomic_fetch_sub(&f->held, 1);
            respond_whole(fr);
        }
        for (int i = 0; i < f->n; i++) {
            fake_engine_t *e = &f->engines[i];
            close_listener(e);
            uv_timer_stop(&e->retry);
            uv_close((uv_handle_t *)&e->retry, on_handle_closed);
            if (e->srv && !e->srv_closing) {
                e->srv_closing = true;
                kvr_http_server_destroy(e->srv, on_server_closed, e);
            }
        }
        return;
    }
    if (!f->stopping)
        reconcile(f);
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
    pthread_cond_init(&f->applied_cond, NULL);
    cr_assert_eq(uv_loop_init(&f->loop), 0);
    f->loop.data = f;
    uv_async_init(&f->loop, &f->wake, on_wake);
    f->wake.data = f;
    for (int i = 0; i < n; i++) {
        fake_engine_t *e = &f->engines[i];
        e->fleet = f;
        e->index = i;
        snprintf(e->models, sizeof e->models, "m");
        e->listen_fd = -1;
        uv_timer_init(&f->loop, &e->retry);
        f->handles_open++;
        for (int tries = 0; tries < 16 && e->listen_fd < 0; tries++) {
            e->port = kvr_test_free_port_range(1);
            if (e->port != 0)
                open_listener(e);
        }
        cr_assert_geq(e->listen_fd, 0, "no free port for engine %d", i);
        create_server(e);
        uv_poll_start(e->listen_poll, UV_READABLE, on_listen_readable);
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
    cr_assert_eq(uv_loop_close(&f->loop), 0, "a fake engine handle was left open");
    for (int i = 0; i < f->n; i++) {
        free(f->engines[i].metrics);
        free(f->engines[i].loads);
    }
    pthread_cond_destroy(&f->applied_cond);
    pthread_mutex_destroy(&f->lock);
    free(f);
}

/* Wakes the loop thread and waits until it applied every change so far (called with the lock held). */
static void wait_applied(kvr_fake_fleet_t *f)
{
    uint64_t want = ++f->wanted;
    uv_async_send(&f->wake);
    while (f->applied < want)
        pthread_cond_wait(&f->applied_cond, &f->lock);
}

void kvr_fake_set_mode(kvr_fake_fleet_t *f, int i, kvr_fake_mode_t mode)
{
    pthread_mutex_lock(&f->lock);
    f->engines[i].mode = mode;
    wait_applied(f);
    pthread_mutex_unlock(&f->lock);
}

void kvr_fake_drop_connections(kvr_fake_fleet_t *f, int i)
{
    pthread_mutex_lock(&f->lock);
    f->engines[i].drop = true;
    wait_applied(f);
    pthread_mutex_unlock(&f->lock);
}

void kvr_fake_set_bodies(kvr_fake_fleet_t *f, int i, const char *metrics, const char *loads)
{
    pthread_mutex_lock(&f->lock);
    fake_engine_t *e = &f->engines[i];
    free(e->metrics);
    free(e->loads);
    e->metrics = metrics ? strdup(metrics) : NULL;
    e->loads = loads ? strdup(loads) : NULL;
    e->bodies_set = true;
    pthread_mutex_unlock(&f->lock);
}

void kvr_fake_set_models(kvr_fake_fleet_t *f, int i, const char *models)
{
    pthread_mutex_lock(&f->lock);
    snprintf(f->engines[i].models, sizeof f->engines[i].models, "%s", models);
    pthread_mutex_unlock(&f->lock);
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

static unsigned count(const kvr_fake_fleet_t *f, int i, size_t offset)
{
    unsigned n = 0;
    for (int k = i >= 0 ? i : 0; k < (i >= 0 ? i + 1 : f->n); k++)
        n += atomic_load((atomic_uint *)((char *)&f->engines[k] + offset));
    return n;
}

unsigned kvr_fake_requests(const kvr_fake_fleet_t *f, int i)
{
    return count(f, i, offsetof(fake_engine_t, requests));
}

unsigned kvr_fake_aborted(const kvr_fake_fleet_t *f, int i)
{
    return count(f, i, offsetof(fake_engine_t, aborted));
}

unsigned kvr_fake_polls(const kvr_fake_fleet_t *f, int i)
{
    return count(f, i, offsetof(fake_engine_t, polls));
}

unsigned kvr_fake_connections(const kvr_fake_fleet_t *f, int i)
{
    return count(f, i, offsetof(fake_engine_t, connections));
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
    char *reply; /* NULL: read requests, never answer */
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
            for (char *line = strstr(buf, "\r\n"); line && line < end;
                 line = strstr(line + 2, "\r\n"))
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
        struct pollfd p[2] = {{.fd = e->listen_fd, .events = POLLIN},
                              {.fd = e->stop_pipe[0], .events = POLLIN}};
        if (poll(p, 2, -1) < 0 || p[1].revents)
            return NULL;
        int fd = accept(e->listen_fd, NULL, NULL);
        if (fd < 0)
            continue;
        atomic_fetch_add(&e->accepted, 1);
        if (!e->reply) {
            if (e->n_silent < (int)(sizeof e->silent_fds / sizeof e->silent_fds[0]) &&
                raw_read_request(fd)) {
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
    e->listen_fd = -1;
    for (int tries = 0; tries < 16 && e->listen_fd < 0; tries++) {
        e->port = kvr_test_free_port_range(1);
        if (e->port != 0)
            e->listen_fd = listen_on(e->port);
    }
    cr_assert_geq(e->listen_fd, 0, "no free port for the raw engine");
    /* The thread blocks in poll and accept: back to blocking accepts. */
    int fl = fcntl(e->listen_fd, F_GETFL);
    cr_assert_eq(fcntl(e->listen_fd, F_SETFL, fl & ~O_NONBLOCK), 0);
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
