/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/statefeed/responder.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/support/proc.h"

#define MAX_ENGINES 16
#define MAX_CONNS 8

typedef struct {
    int fd;
    char buf[4096];
    size_t len;
} conn_t;

typedef struct {
    uint16_t port;
    int listen_fd;
    responder_mode_t mode;
    bool drop; /* close the open connections at the next apply */
    char *metrics, *loads;
    unsigned requests, connections;
    conn_t conns[MAX_CONNS];
} engine_t;

/*
 * Only the serving thread closes or opens sockets, and never while it is in
 * poll(): a socket closed by another thread during poll() stays open until
 * poll() returns (the wait queue holds a reference), so a listener "closed"
 * that way still accepts a connection and resets it a moment later. A change
 * bumps `wanted`, wakes the thread through wake_fd and waits until `applied`
 * catches up, so a caller sees the change done when the call returns.
 */
struct responder_s {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t applied_cond;
    int wake_fd;
    bool stop;
    uint64_t wanted, applied;
    unsigned n;
    engine_t engines[MAX_ENGINES];
};

static int listen_on(uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(fd, 64) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void close_conn(conn_t *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->len = 0;
}

/* Answers every complete request in the buffer (called with the lock held). */
static void serve(engine_t *e, conn_t *c)
{
    char *end;
    while ((end = memmem(c->buf, c->len, "\r\n\r\n", 4)) != NULL) {
        if (e->mode == RESPONDER_STALL)
            return;
        size_t req_len = (size_t)(end - c->buf) + 4;
        const char *body = NULL;
        if (strncmp(c->buf, "GET /metrics ", 13) == 0)
            body = e->metrics;
        else if (strncmp(c->buf, "GET /v1/loads", 13) == 0)
            body = e->loads;
        char head[256];
        int status = body ? 200 : 404;
        const char *text = body ? body : "not found";
        int hl = snprintf(head, sizeof(head),
                          "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n\r\n",
                          status, body ? "OK" : "Not Found", strlen(text));
        if (send(c->fd, head, (size_t)hl, MSG_NOSIGNAL) < 0 ||
            send(c->fd, text, strlen(text), MSG_NOSIGNAL) < 0) {
            close_conn(c);
            return;
        }
        e->requests++;
        memmove(c->buf, c->buf + req_len, c->len - req_len);
        c->len -= req_len;
    }
}

/*
 * Brings every engine's sockets to its mode (called by the serving thread
 * with the lock held). False while a listener could not be reopened yet.
 */
static bool apply(responder_t *r)
{
    bool done = true;
    for (unsigned i = 0; i < r->n; i++) {
        engine_t *e = &r->engines[i];
        if (e->mode == RESPONDER_DOWN || e->drop) {
            for (int k = 0; k < MAX_CONNS; k++)
                close_conn(&e->conns[k]);
            e->drop = false;
        }
        if (e->mode == RESPONDER_DOWN && e->listen_fd >= 0) {
            close(e->listen_fd);
            e->listen_fd = -1;
        }
        if (e->mode != RESPONDER_DOWN && e->listen_fd < 0) {
            e->listen_fd = listen_on(e->port);
            done &= e->listen_fd >= 0;
        }
        if (e->mode == RESPONDER_OK) /* requests held by a stall are answered now */
            for (int k = 0; k < MAX_CONNS; k++)
                if (e->conns[k].fd >= 0)
                    serve(e, &e->conns[k]);
    }
    return done;
}

static void *run(void *arg)
{
    responder_t *r = arg;
    for (;;) {
        struct pollfd pfds[MAX_ENGINES * (MAX_CONNS + 1) + 1];
        void *who[MAX_ENGINES * (MAX_CONNS + 1) + 1];
        int kinds[MAX_ENGINES * (MAX_CONNS + 1) + 1];
        nfds_t n = 0;
        pthread_mutex_lock(&r->lock);
        if (r->stop) {
            pthread_mutex_unlock(&r->lock);
            return NULL;
        }
        uint64_t wanted = r->wanted;
        /* A port can stay busy a moment after its listener closed; retry soon. */
        int poll_ms = -1;
        if (apply(r)) {
            r->applied = wanted;
            pthread_cond_broadcast(&r->applied_cond);
        } else {
            poll_ms = 5;
        }
        pfds[n] = (struct pollfd){.fd = r->wake_fd, .events = POLLIN};
        who[n] = NULL;
        kinds[n++] = -1;
        for (unsigned i = 0; i < r->n; i++) {
            engine_t *e = &r->engines[i];
            if (e->listen_fd >= 0) {
                pfds[n] = (struct pollfd){.fd = e->listen_fd, .events = POLLIN};
                who[n] = e;
                kinds[n++] = 0;
            }
            for (int k = 0; k < MAX_CONNS; k++) {
                if (e->conns[k].fd >= 0) {
                    pfds[n] = (struct pollfd){.fd = e->conns[k].fd, .events = POLLIN};
                    who[n] = &e->conns[k];
                    kinds[n++] = (int)i + 1;
                }
            }
        }
        pthread_mutex_unlock(&r->lock);
        poll(pfds, n, poll_ms);
        pthread_mutex_lock(&r->lock);
        for (nfds_t j = 0; j < n; j++) {
            if (!(pfds[j].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (kinds[j] < 0) {
                uint64_t count;
                if (read(r->wake_fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
                    abort();
                continue;
            }
            if (kinds[j] == 0) {
                engine_t *e = who[j];
                if (e->listen_fd != pfds[j].fd)
                    continue;
                int fd = accept4(e->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (fd < 0)
                    continue;
                int k = 0;
                while (k < MAX_CONNS && e->conns[k].fd >= 0)
                    k++;
                if (k == MAX_CONNS) {
                    close(fd);
                    continue;
                }
                e->conns[k].fd = fd;
                e->conns[k].len = 0;
                e->connections++;
                continue;
            }
            engine_t *e = &r->engines[kinds[j] - 1];
            conn_t *c = who[j];
            if (c->fd != pfds[j].fd)
                continue;
            ssize_t got = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len, 0);
            if (got <= 0) {
                if (got < 0 && errno == EAGAIN)
                    continue;
                close_conn(c);
                continue;
            }
            c->len += (size_t)got;
            serve(e, c);
            if (c->fd >= 0 && c->len == sizeof(c->buf))
                close_conn(c);
        }
        pthread_mutex_unlock(&r->lock);
    }
}

responder_t *responder_start(unsigned n)
{
    if (n > MAX_ENGINES)
        return NULL;
    responder_t *r = calloc(1, sizeof(*r));
    if (r == NULL)
        return NULL;
    r->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (r->wake_fd < 0) {
        free(r);
        return NULL;
    }
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->applied_cond, NULL);
    r->n = n;
    for (unsigned i = 0; i < n; i++) {
        engine_t *e = &r->engines[i];
        for (int k = 0; k < MAX_CONNS; k++)
            e->conns[k].fd = -1;
        /* A port outside the ephemeral range, so that nothing else takes it
         * while the engine is down. */
        e->listen_fd = -1;
        for (int tries = 0; tries < 16 && e->listen_fd < 0; tries++) {
            e->port = kvr_test_free_port();
            e->listen_fd = e->port ? listen_on(e->port) : -1;
        }
        if (e->listen_fd < 0) {
            for (unsigned j = 0; j < i; j++)
                close(r->engines[j].listen_fd);
            close(r->wake_fd);
            pthread_cond_destroy(&r->applied_cond);
            pthread_mutex_destroy(&r->lock);
            free(r);
            return NULL;
        }
    }
    pthread_create(&r->thread, NULL, run, r);
    return r;
}

void responder_stop(responder_t *r)
{
    pthread_mutex_lock(&r->lock);
    r->stop = true;
    uint64_t one = 1;
    if (write(r->wake_fd, &one, sizeof(one)) != sizeof(one))
        abort();
    pthread_mutex_unlock(&r->lock);
    pthread_join(r->thread, NULL);
    for (unsigned i = 0; i < r->n; i++) {
        engine_t *e = &r->engines[i];
        if (e->listen_fd >= 0)
            close(e->listen_fd);
        for (int k = 0; k < MAX_CONNS; k++)
            close_conn(&e->conns[k]);
        free(e->metrics);
        free(e->loads);
    }
    close(r->wake_fd);
    pthread_cond_destroy(&r->applied_cond);
    pthread_mutex_destroy(&r->lock);
    free(r);
}

uint16_t responder_port(const responder_t *r, unsigned i)
{
    return r->engines[i].port;
}

void responder_set_bodies(responder_t *r, unsigned i, const char *metrics, const char *loads)
{
    pthread_mutex_lock(&r->lock);
    engine_t *e = &r->engines[i];
    free(e->metrics);
    free(e->loads);
    e->metrics = metrics ? strdup(metrics) : NULL;
    e->loads = loads ? strdup(loads) : NULL;
    pthread_mutex_unlock(&r->lock);
}

/* Wakes the serving thread and waits until it applied every change so far
 * (called with the lock held). */
static void wait_applied(responder_t *r)
{
    uint64_t want = ++r->wanted;
    uint64_t one = 1;
    if (write(r->wake_fd, &one, sizeof(one)) != sizeof(one))
        abort();
    while (r->applied < want)
        pthread_cond_wait(&r->applied_cond, &r->lock);
}

void responder_set_mode(responder_t *r, unsigned i, responder_mode_t mode)
{
    pthread_mutex_lock(&r->lock);
    r->engines[i].mode = mode;
    wait_applied(r);
    pthread_mutex_unlock(&r->lock);
}

void responder_drop_connections(responder_t *r, unsigned i)
{
    pthread_mutex_lock(&r->lock);
    r->engines[i].drop = true;
    wait_applied(r);
    pthread_mutex_unlock(&r->lock);
}

unsigned responder_requests(responder_t *r, unsigned i)
{
    pthread_mutex_lock(&r->lock);
    unsigned v = r->engines[i].requests;
    pthread_mutex_unlock(&r->lock);
    return v;
}

unsigned responder_connections(responder_t *r, unsigned i)
{
    pthread_mutex_lock(&r->lock);
    unsigned v = r->engines[i].connections;
    pthread_mutex_unlock(&r->lock);
    return v;
}
