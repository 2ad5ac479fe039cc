/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTTP server on a loop thread, driven by plain blocking sockets from the
 * test thread: what clients see (status, framing, keep-alive, limits,
 * timeouts) and what handlers learn (abort on disconnect), ending with every
 * handle closed and uv_loop_close() == 0.
 */
#include <arpa/inet.h>
#include <assert.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

#include "common/http_server.h"
#include "tests/support/proc.h"

static uv_loop_t loop;
static uv_async_t stop_async;
static uv_async_t tick_async;
static pthread_t loop_thread;
static kvr_http_server_t *server;
static int port;
static atomic_int aborts;
static atomic_int finished_streams;
static atomic_int server_closed;
static atomic_int ref_done;
static atomic_int drains;
static atomic_size_t max_queued;
static uv_async_t probe_async;
static atomic_int probes;
static atomic_size_t probed_connections;
static atomic_size_t probed_bytes;
static uv_async_t adopt_async;
static atomic_int adopt_fd;
static atomic_int adopt_rc;
static atomic_int adopts;
static atomic_int hangs;
static atomic_int bigs;
static atomic_int blobs;
static atomic_size_t probed_queued;
static atomic_size_t probed_paused;
static atomic_ullong probed_pauses;
static atomic_ullong probed_output_timeouts;
static atomic_ullong probed_refused_total;
static atomic_ullong probed_refused_peer;

#define BIG_CHUNK (128 * 1024)
#define BLOB_BYTES (16 * 1024)
#define BIG_CHUNKS 64

/* ---- handlers ---- */

typedef struct {
    uv_timer_t timer;
    kvr_http_req_t *req;
    int left;
} ticker_t;

static void ticker_closed(uv_handle_t *h)
{
    free(h->data);
}

static void ticker_stop(ticker_t *t)
{
    uv_timer_stop(&t->timer);
    t->timer.data = t;
    uv_close((uv_handle_t *)&t->timer, ticker_closed);
}

static void ticker_cb(uv_timer_t *timer)
{
    ticker_t *t = timer->data;
    if (t->left == 0) {
        kvr_http_stream_end(t->req);
        atomic_fetch_add(&finished_streams, 1);
        ticker_stop(t);
        return;
    }
    char line[64];
    int n = snprintf(line, sizeof line, "data: tick %d\n\n", t->left);
    kvr_http_stream_write(t->req, line, (size_t)n);
    if (t->left > 0)
        t->left--;
}

static void ticker_abort(kvr_http_req_t *req, void *arg)
{
    ticker_t *t = arg;
    atomic_fetch_add(&aborts, 1);
    ticker_stop(t);
    kvr_http_req_abandon(req);
}

static void hang_abort(kvr_http_req_t *req, void *arg)
{
    (void)arg;
    atomic_fetch_add(&aborts, 1);
    kvr_http_req_abandon(req);
}

static void ref_written(void *arg, int status)
{
    (void)arg;
    if (status == 0)
        atomic_fetch_add(&ref_done, 1);
}

static void big_drained(kvr_http_req_t *req, void *arg)
{
    (void)arg;
    atomic_fetch_add(&drains, 1);
    kvr_http_stream_end(req);
}

static void on_request(kvr_http_req_t *req, void *user)
{
    (void)user;
    const char *path = kvr_http_req_path(req);
    if (strcmp(path, "/echo") == 0) {
        size_t len;
        const char *body = kvr_http_req_body(req, &len);
        char tag[128];
        kvr_http_req_query_param(req, "tag", tag, sizeof tag);
        const char *xid = kvr_http_req_header(req, "x-request-id");
        kvr_http_header_t extra[] = {{"X-Method", kvr_http_req_method(req)},
                                     {"X-Tag", tag},
                                     {"X-Request-ID", xid ? xid : "none"}};
        kvr_http_respond(req, 200, "text/plain", extra, 3, body, len);
    } else if (strcmp(path, "/stream") == 0 || strcmp(path, "/forever") == 0) {
        ticker_t *t = calloc(1, sizeof *t);
        t->req = req;
        t->left = strcmp(path, "/stream") == 0 ? 3 : -1;
        uv_timer_init(&loop, &t->timer);
        t->timer.data = t;
        kvr_http_req_on_abort(req, ticker_abort, t);
        kvr_http_stream_begin(req, 200, "text/event-stream", NULL, 0, KVR_HTTP_CHUNKED);
        uv_timer_start(&t->timer, ticker_cb, 5, 5);
    } else if (strcmp(path, "/ref") == 0) {
        static const char parts[3][8] = {"alpha ", "beta ", "gamma"};
        kvr_http_stream_begin(req, 200, "text/plain", NULL, 0, KVR_HTTP_CHUNKED);
        for (int i = 0; i < 3; i++)
            kvr_http_stream_write_ref(req, parts[i], strlen(parts[i]), ref_written, NULL);
        kvr_http_stream_end(req);
    } else if (strcmp(path, "/big") == 0) {
        static char chunk[BIG_CHUNK];
        memset(chunk, 'z', sizeof chunk);
        kvr_http_stream_begin(req, 200, "application/octet-stream", NULL, 0, KVR_HTTP_CHUNKED);
        for (int i = 0; i < BIG_CHUNKS; i++)
            kvr_http_stream_write(req, chunk, sizeof chunk);
        atomic_store(&max_queued, kvr_http_stream_queued(req));
        atomic_fetch_add(&bigs, 1);
        /* Ends once the client has taken everything: the router's backpressure pattern. */
        kvr_http_req_on_drain(req, big_drained, NULL);
    } else if (strcmp(path, "/blob") == 0) {
        static char blob[BLOB_BYTES];
        memset(blob, 'b', sizeof blob);
        char tag[32];
        kvr_http_req_query_param(req, "tag", tag, sizeof tag);
        kvr_http_header_t extra[] = {{"X-Tag", tag}};
        atomic_fetch_add(&blobs, 1);
        kvr_http_respond(req, 200, "application/octet-stream", extra, 1, blob, sizeof blob);
    } else if (strcmp(path, "/hang") == 0) {
        kvr_http_req_on_abort(req, hang_abort, NULL);
        atomic_fetch_add(&hangs, 1);
    } else if (strcmp(path, "/length") == 0) {
        kvr_http_stream_begin(req, 200, "text/plain", NULL, 0, 10);
        kvr_http_stream_write(req, "hello", 5);
        kvr_http_stream_write(req, "world", 5);
        kvr_http_stream_end(req);
    } else {
        kvr_http_respond_error(req, 404, NULL, "no such path", NULL, 0);
    }
}

/* ---- the loop thread ---- */

static void server_gone(void *arg)
{
    (void)arg;
    atomic_store(&server_closed, 1);
}

static void walk_close(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

static void stop_cb(uv_async_t *a)
{
    (void)a;
    kvr_http_server_destroy(server, server_gone, NULL);
    uv_close((uv_handle_t *)&stop_async, NULL);
    uv_close((uv_handle_t *)&tick_async, NULL);
    uv_close((uv_handle_t *)&probe_async, NULL);
    uv_close((uv_handle_t *)&adopt_async, NULL);
}

static void tick_cb(uv_async_t *a)
{
    (void)a;
}

/* The server's own accounting, read on the loop thread. */
static void probe_cb(uv_async_t *a)
{
    (void)a;
    atomic_store(&probed_connections, kvr_http_server_connections(server));
    atomic_store(&probed_bytes, kvr_http_server_connection_bytes(server));
    kvr_http_server_stats_t st;
    kvr_http_server_stats(server, &st);
    atomic_store(&probed_queued, st.queued_bytes);
    atomic_store(&probed_paused, st.paused_connections);
    atomic_store(&probed_pauses, st.output_pauses);
    atomic_store(&probed_output_timeouts, st.output_timeouts);
    atomic_store(&probed_refused_total, st.refused_max_connections);
    atomic_store(&probed_refused_peer, st.refused_per_peer);
    atomic_fetch_add(&probes, 1);
}

static void adopt_cb(uv_async_t *a)
{
    (void)a;
    atomic_store(&adopt_rc, kvr_http_server_adopt_fd(server, atomic_load(&adopt_fd)));
    atomic_fetch_add(&adopts, 1);
}

/* kvr_http_server_adopt_fd(fd) on the loop thread; returns its result. */
static int adopt(int fd)
{
    int seen = atomic_load(&adopts);
    atomic_store(&adopt_fd, fd);
    uv_async_send(&adopt_async);
    while (atomic_load(&adopts) == seen)
        usleep(1000);
    return atomic_load(&adopt_rc);
}

/* Probes until the server has `connections` open; returns the bytes they hold. */
static size_t probe_when_open(size_t connections)
{
    for (int i = 0; i < 300; i++) {
        int seen = atomic_load(&probes);
        uv_async_send(&probe_async);
        while (atomic_load(&probes) == seen)
            usleep(1000);
        if (atomic_load(&probed_connections) == connections)
            return atomic_load(&probed_bytes);
        usleep(10000);
    }
    cr_assert_fail("the server never had %zu connections open", connections);
    return 0;
}

static void *loop_main(void *arg)
{
    (void)arg;
    uv_run(&loop, UV_RUN_DEFAULT);
    return NULL;
}

typedef void (*tweak_fn)(kvr_http_server_config_t *cfg);

static void start(tweak_fn tweak)
{
    cr_assert_eq(uv_loop_init(&loop), 0);
    kvr_http_server_config_t cfg;
    kvr_http_server_config_init(&cfg);
    cfg.on_request = on_request;
    cfg.max_body_bytes = 1024;
    cfg.max_header_bytes = 2048;
    if (tweak)
        tweak(&cfg);
    cr_assert_eq(kvr_http_server_create(&loop, &cfg, &server), 0);
    port = kvr_http_server_port(server);
    cr_assert_gt(port, 0);
    uv_async_init(&loop, &stop_async, stop_cb);
    uv_async_init(&loop, &tick_async, tick_cb);
    uv_async_init(&loop, &probe_async, probe_cb);
    uv_async_init(&loop, &adopt_async, adopt_cb);
    pthread_create(&loop_thread, NULL, loop_main, NULL);
}

static void stop(void)
{
    uv_async_send(&stop_async);
    pthread_join(loop_thread, NULL);
    cr_assert(atomic_load(&server_closed), "server closed callback ran");
    uv_walk(&loop, walk_close, NULL);
    uv_run(&loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(&loop), 0, "every handle closed");
}

/* ---- a blocking client ---- */

static int client(void)
{
    int fd = kvr_test_connect((uint16_t)port);
    cr_assert_geq(fd, 0, "connect: %s", strerror(errno));
    struct timeval tv = {.tv_sec = 3};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static void send_all(int fd, const char *s, size_t len)
{
    while (len) {
        ssize_t n = send(fd, s, len, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        s += n;
        len -= (size_t)n;
    }
}

static void send_str(int fd, const char *s)
{
    send_all(fd, s, strlen(s));
}

/* Reads one response (Content-Length or chunked) into out; returns its status or -1. */
static int read_response(int fd, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (;;) {
        char *end = strstr(out, "\r\n\r\n");
        if (end) {
            const char *cl = strcasestr(out, "content-length:");
            size_t head = (size_t)(end + 4 - out);
            if (cl && cl < end) {
                size_t want = head + strtoul(cl + 15, NULL, 10);
                if (len >= want)
                    break;
            } else if (strcasestr(out, "transfer-encoding: chunked")) {
                if (strstr(end, "\r\n0\r\n\r\n") || strstr(end + 2, "\n0\r\n\r\n"))
                    break;
            }
        }
        if (len + 1 >= cap)
            return -1;
        ssize_t n = recv(fd, out + len, cap - 1 - len, 0);
        if (n <= 0)
            return len ? atoi(out + 9) : -1;
        len += (size_t)n;
        out[len] = '\0';
    }
    return atoi(out + 9);
}

/* True when the peer closed the connection (recv returns 0 or a reset). */
static int peer_closed(int fd)
{
    char c;
    ssize_t n = recv(fd, &c, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
}

static uint64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Waits until *counter reaches value; fails the test when it does not within
 * a safety deadline far above any wait on a loaded machine. */
#define wait_for(counter, value) wait_for_counter(counter, value, #counter)
static void wait_for_counter(atomic_int *counter, int value, const char *name)
{
    uint64_t deadline = monotonic_ms() + 10000;
    while (atomic_load(counter) < value) {
        if (monotonic_ms() >= deadline)
            cr_assert_fail("%s stayed at %d, never reached %d", name, atomic_load(counter), value);
        usleep(1000);
    }
}

/* The bytes the server holds for its connections, read on the loop thread. */
static size_t probe_bytes(void)
{
    int seen = atomic_load(&probes);
    uv_async_send(&probe_async);
    while (atomic_load(&probes) == seen)
        usleep(1000);
    return atomic_load(&probed_bytes);
}

/*
 * Waits until the server has read and parsed the start of a request on its
 * only connection (it then holds the request: more bytes than `idle`), so
 * that whatever the client sends next arrives in another read.
 */
static void wait_server_read_part(size_t idle)
{
    uint64_t deadline = monotonic_ms() + 10000;
    while (probe_bytes() <= idle) {
        if (monotonic_ms() >= deadline)
            cr_assert_fail("the server never read the first part of the request");
        usleep(1000);
    }
}

/* ---- tests ---- */

Test(http_server, keep_alive_serves_several_requests_on_one_connection, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    char buf[4096];
    for (int i = 0; i < 3; i++) {
        send_str(fd, "GET /echo?tag=t1&x=2 HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc\r\n\r\n");
        cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
        cr_assert(strstr(buf, "Connection: keep-alive"));
        cr_assert(strstr(buf, "X-Tag: t1"), "query parameter parsed");
        cr_assert(strstr(buf, "X-Request-ID: abc"), "header lookup is case-insensitive");
    }
    close(fd);
    stop();
}

Test(http_server, pipelined_requests_are_answered_in_order, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nfirst"
                 "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nsecond");
    /* Both responses may arrive in one read: collect until the second is whole. */
    char buf[4096] = "";
    size_t len = 0;
    while (!strstr(buf, "second") && len < sizeof buf - 1) {
        ssize_t n = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        cr_assert_gt(n, 0);
        len += (size_t)n;
        buf[len] = '\0';
    }
    char *first = strstr(buf, "\r\n\r\nfirst");
    char *second = strstr(buf, "\r\n\r\nsecond");
    cr_assert(first && second && first < second, "responses in request order");
    cr_assert_eq(strncmp(buf, "HTTP/1.1 200", 12), 0);
    cr_assert_eq(strncmp(first + 9, "HTTP/1.1 200", 12), 0);
    close(fd);
    stop();
}

Test(http_server, pipelined_request_waits_for_an_async_response, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(
        fd,
        "GET /stream HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?tag=after HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[8192] = "";
    size_t len = 0;
    while (!strstr(buf, "X-Tag: after") && len < sizeof buf - 1) {
        ssize_t n = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        cr_assert_gt(n, 0);
        len += (size_t)n;
        buf[len] = '\0';
    }
    char *end_of_stream = strstr(buf, "\r\n0\r\n\r\n");
    char *second = strstr(buf, "X-Tag: after");
    cr_assert(end_of_stream && end_of_stream < second,
              "the stream ends before the next answer starts");
    close(fd);
    stop();
}

Test(http_server, backpressure_is_reported_and_drain_fires, .timeout = 20.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
    wait_for(&bigs, 1); /* the handler wrote 8 MiB at once while nobody reads */
    cr_assert_gt(atomic_load(&max_queued), 0, "bytes the socket could not take are counted");
    cr_assert_eq(atomic_load(&drains), 0, "no drain while the client does not read");
    size_t cap = (size_t)BIG_CHUNK * BIG_CHUNKS + 65536, len = 0;
    char *buf = malloc(cap + 1);
    buf[0] = '\0';
    for (;;) {
        ssize_t n = recv(fd, buf + len, cap - len, 0);
        cr_assert_gt(n, 0, "stream complete before EOF");
        len += (size_t)n;
        buf[len] = '\0';
        if (len >= 5 && memcmp(buf + len - 5, "0\r\n\r\n", 5) == 0)
            break;
    }
    cr_assert_gt(len, (size_t)BIG_CHUNK * BIG_CHUNKS);
    wait_for(&drains, 1);
    cr_assert_eq(atomic_load(&drains), 1);
    free(buf);
    close(fd);
    stop();
}

Test(http_server, chunked_request_body_is_delivered_whole, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    size_t idle = probe_when_open(1);
    send_str(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "5\r\nhello\r\n");
    wait_server_read_part(idle); /* the second chunk comes in another read */
    send_str(fd, "6\r\n world\r\n0\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    cr_assert(strstr(buf, "Content-Length: 11\r\n"));
    cr_assert(strstr(buf, "\r\n\r\nhello world"));
    close(fd);
    stop();
}

Test(http_server, trailers_are_accepted_and_ignored, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                 "3\r\nabc\r\n0\r\nX-Trailer: yes\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    cr_assert(strstr(buf, "\r\n\r\nabc"));
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200, "the connection goes on");
    close(fd);
    stop();
}

Test(http_server, by_reference_writes_call_back_once_each, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET /ref HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    cr_assert(strstr(buf, "6\r\nalpha \r\n5\r\nbeta \r\n5\r\ngamma\r\n0\r\n\r\n"), "%s", buf);
    wait_for(&ref_done, 3);
    cr_assert_eq(atomic_load(&ref_done), 3);
    close(fd);
    stop();
}

/* The server does not switch protocols: an Upgrade request is answered as plain
 * HTTP/1.1 and the connection goes on, so a byte after it starts a new request. */
Test(http_server, upgrade_request_then_one_more_byte_keeps_the_server_alive, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 404, "answered as a plain request");
    cr_assert_null(strstr(buf, "101"), "no protocol switch");
    send_str(fd, "G");
    send_str(fd, "ET /echo?tag=same HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200, "the byte began the next request");
    cr_assert(strstr(buf, "X-Tag: same"));
    close(fd);
    int fd2 = client();
    send_str(fd2, "GET /echo?tag=new HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_assert_eq(read_response(fd2, buf, sizeof buf), 200, "the server is still alive");
    close(fd2);
    stop();
}

Test(http_server, upgrade_request_with_a_body_is_read_as_http, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "POST /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n"
                 "Content-Length: 4\r\n\r\nbody"
                 "GET /echo?tag=next HTTP/1.1\r\nHost: x\r\n\r\n");
    /* Both responses may arrive in one read: collect until the second is whole. */
    char buf[4096] = "";
    size_t len = 0;
    while (!strstr(buf, "X-Tag: next") && len < sizeof buf - 1) {
        ssize_t n = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        cr_assert_gt(n, 0, "the pipelined request is served");
        len += (size_t)n;
        buf[len] = '\0';
    }
    cr_assert_eq(strncmp(buf, "HTTP/1.1 200", 12), 0);
    char *body = strstr(buf, "\r\n\r\nbody");
    cr_assert(body && body < strstr(buf, "X-Tag: next"), "the body was read as HTTP");
    close(fd);
    stop();
}

Test(http_server, expect_continue_gets_an_interim_response, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd,
             "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n");
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof buf - 1, 0);
    cr_assert_gt(n, 0);
    buf[n] = '\0';
    cr_assert(strstr(buf, "HTTP/1.1 100 Continue"));
    send_str(fd, "abc");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    close(fd);
    stop();
}

/* Folding is judged on the bytes, wherever the reads split them. */
Test(http_server, header_split_across_reads_is_folded_only_after_a_line_break, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    size_t idle = probe_when_open(1);
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Request-Id: ab");
    wait_server_read_part(idle);
    send_str(fd, "  cd\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200, "a value split mid-line is one value");
    cr_assert(strstr(buf, "X-Request-ID: ab  cd\r\n"), "%s", buf);
    /* A fresh connection, so that the server holds nothing but the new part. */
    close(fd);
    fd = client();
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    idle = probe_when_open(1);
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Request-Id: ab\r\n");
    wait_server_read_part(idle);
    send_str(fd, " cd\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 400, "a continuation line is refused");
    cr_assert(strstr(buf, "folding"), "%s", buf);
    close(fd);
    stop();
}

typedef struct {
    char request[3000];
    int status;
    char type[32];
} refusal_case_t;

static refusal_case_t *refusal_cases(size_t *count)
{
    static refusal_case_t cases[24];
    size_t n = 0;
    snprintf(cases[n].request, sizeof cases[n].request,
             "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n");
    cases[n++].status = 413;
    snprintf(cases[n].request, sizeof cases[n].request,
             "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
             "400\r\n%01024d\r\n400\r\n%01024d\r\n0\r\n\r\n",
             0, 0);
    cases[n++].status = 413;
    char big[2500];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    snprintf(cases[n].request, sizeof cases[n].request, "GET /echo HTTP/1.1\r\nX-Big: %s\r\n\r\n",
             big);
    cases[n++].status = 431;
    snprintf(cases[n].request, sizeof cases[n].request, "GARBAGE\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "GET /echo HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request, "CONNECT example.com:443 HTTP/1.1\r\n\r\n");
    cases[n++].status = 405;
    snprintf(cases[n].request, sizeof cases[n].request, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    cases[n++].status = 400;
    /* Strict parsing: what a lenient reader would take one way and another reader another. */
    snprintf(cases[n].request, sizeof cases[n].request,
             "GET /echo HTTP/1.1\r\nHost: x\r\nX-Folded: one\r\n two\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "GET /echo HTTP/1.1\r\nHost: x\r\nX-Folded:\r\n\ttwo\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n 3\r\n\r\nabc");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
             "5\r\nhelloXX0\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
             "5zz\r\nhello\r\n0\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
             "5\rXhello\r\n0\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request, "GET /echo HTTP/1.1\r\nHost : x\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "GET /echo HTTP/1.1\r\nHost: x\r\n: v\r\n\r\n");
    cases[n++].status = 400;
    snprintf(
        cases[n].request, sizeof cases[n].request,
        "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n: v\r\n\r\n");
    cases[n++].status = 400;
    snprintf(cases[n].request, sizeof cases[n].request,
             "GET /echo HTTP/1.1\r\nHost: x\rX-Other: y\r\n\r\n");
    cases[n++].status = 400;
    assert(n <= sizeof cases / sizeof cases[0]);
    for (size_t i = 0; i < n; i++)
        snprintf(cases[i].type, sizeof cases[i].type, "invalid_request_error");
    *count = n;
    return cases;
}

ParameterizedTestParameters(http_server, refusals)
{
    size_t n;
    refusal_case_t *cases = refusal_cases(&n);
    return cr_make_param_array(refusal_case_t, cases, n);
}

ParameterizedTest(refusal_case_t *c, http_server, refusals, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, c->request);
    char buf[8192];
    int status = read_response(fd, buf, sizeof buf);
    cr_assert_eq(status, c->status, "status %d for case expecting %d", status, c->status);
    cr_assert(strstr(buf, "Connection: close"));
    cr_assert(strstr(buf, "{\"error\":{"), "OpenAI-shaped error body");
    /* OpenAI's "code" is a string or null, never the status as a number. */
    const char *code = strstr(buf, "\"param\":null,\"code\":");
    cr_assert(code, "param and code present: %s", buf);
    code += strlen("\"param\":null,\"code\":");
    cr_assert(*code == '"' || strncmp(code, "null", 4) == 0, "code not a number: %s", buf);
    cr_assert(strstr(buf, c->type));
    cr_assert(peer_closed(fd), "connection closed after a refusal");
    close(fd);
    stop();
}

static void short_timeouts(kvr_http_server_config_t *cfg)
{
    cfg->request_timeout_ms = 200;
    cfg->idle_timeout_ms = 200;
}

Test(http_server, slow_client_gets_408, .timeout = 10.)
{
    start(short_timeouts);
    int fd = client();
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 408);
    cr_assert(strstr(buf, "invalid_request_error"));
    close(fd);
    stop();
}

Test(http_server, idle_keep_alive_connection_is_closed, .timeout = 10.)
{
    start(short_timeouts);
    int fd = client();
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    cr_assert(peer_closed(fd), "idle connection closed by the server");
    close(fd);
    stop();
}

Test(http_server, connection_that_never_sends_is_closed_after_the_idle_timeout, .timeout = 10.)
{
    start(short_timeouts);
    int fd = client();
    cr_assert(peer_closed(fd), "a silent connection is closed by the server");
    close(fd);
    probe_when_open(0);
    stop();
}

Test(http_server, streamed_response_is_chunked_and_connection_reused, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    char buf[8192];
    send_str(fd, "GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    cr_assert(strstr(buf, "Transfer-Encoding: chunked"));
    cr_assert(strstr(buf, "data: tick 3\n\n"));
    cr_assert(strstr(buf, "data: tick 1\n\n"));
    send_str(fd, "GET /length HTTP/1.1\r\nHost: x\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    cr_assert(strstr(buf, "Content-Length: 10\r\n"));
    cr_assert(strstr(buf, "\r\n\r\nhelloworld"));
    close(fd);
    wait_for(&finished_streams, 1);
    cr_assert_eq(atomic_load(&aborts), 0);
    stop();
}

Test(http_server, http10_stream_ends_with_close, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET /stream HTTP/1.0\r\n\r\n");
    char buf[8192];
    size_t len = 0;
    ssize_t n;
    while ((n = recv(fd, buf + len, sizeof buf - 1 - len, 0)) > 0)
        len += (size_t)n;
    buf[len] = '\0';
    cr_assert(strstr(buf, "Connection: close"));
    cr_assert_null(strstr(buf, "chunked"), "no chunked framing for HTTP/1.0");
    cr_assert(strstr(buf, "\r\n\r\ndata: tick 3\n\n"));
    close(fd);
    stop();
}

Test(http_server, client_disconnect_mid_stream_fires_abort_once, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET /forever HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[512];
    cr_assert_gt(recv(fd, buf, sizeof buf, 0), 0, "stream started");
    close(fd);
    wait_for(&aborts, 1);
    cr_assert_eq(atomic_load(&aborts), 1);
    int fd2 = client();
    send_str(fd2, "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n");
    wait_for(&hangs, 1); /* the handler holds it: a close now is an abort */
    close(fd2);
    wait_for(&aborts, 2);
    cr_assert_eq(atomic_load(&aborts), 2);
    stop();
}

Test(http_server, destroy_aborts_requests_in_flight, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n");
    wait_for(&hangs, 1);
    stop();
    cr_assert_eq(atomic_load(&aborts), 1, "the pending handler learned of the shutdown");
    cr_assert(peer_closed(fd));
    close(fd);
}

static void large_bodies(kvr_http_server_config_t *cfg)
{
    cfg->max_body_bytes = 256 * 1024;
}

#define MANY_CONNECTIONS 64
#define LARGE_BODY (200 * 1024)

/* Buffers follow the input: nothing is reserved per connection up front, and
 * what a large request needed is released when it is answered. */
Test(http_server, idle_connections_hold_little_memory, .timeout = 20.)
{
    start(large_bodies);
    int fds[MANY_CONNECTIONS];
    for (int i = 0; i < MANY_CONNECTIONS; i++)
        fds[i] = client();
    size_t silent = probe_when_open(MANY_CONNECTIONS);
    cr_assert_lt(silent / MANY_CONNECTIONS, 2048, "a connection that sent nothing holds %zu bytes",
                 silent / MANY_CONNECTIONS);

    char head[128];
    snprintf(head, sizeof head, "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n",
             LARGE_BODY);
    char *body = malloc(LARGE_BODY);
    memset(body, 'b', LARGE_BODY);
    size_t cap = LARGE_BODY + 4096;
    char *resp = malloc(cap);
    for (int i = 0; i < MANY_CONNECTIONS; i++) {
        send_str(fds[i], head);
        send_all(fds[i], body, LARGE_BODY);
        cr_assert_eq(read_response(fds[i], resp, cap), 200);
    }
    size_t after = probe_when_open(MANY_CONNECTIONS);
    cr_assert_lt(after / MANY_CONNECTIONS, 2048,
                 "a connection idle after a %d-byte request holds %zu bytes", LARGE_BODY,
                 after / MANY_CONNECTIONS);
    free(resp);
    free(body);
    for (int i = 0; i < MANY_CONNECTIONS; i++)
        close(fds[i]);
    stop();
}

/* Bytes of a pipelined request wait in the connection only until it is parsed. */
Test(http_server, pipelined_bytes_are_counted_and_released_once_served, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n");
    size_t hanging = 0;
    for (int i = 0; i < 300 && hanging < 1024; i++)
        hanging = probe_when_open(1); /* the connection and its request, once read */
    cr_assert_geq(hanging, 1024);
    char queued[1200];
    int n = snprintf(queued, sizeof queued,
                     "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n");
    memset(queued + n, 'q', 1000);
    queued[n + 1000] = '\0';
    send_str(fd, queued);
    size_t waiting = hanging;
    for (int i = 0; i < 300 && waiting < hanging + 1000; i++)
        waiting = probe_when_open(1);
    cr_assert_geq(waiting, hanging + 1000,
                  "pipelined bytes behind a request in flight are counted");
    close(fd);
    wait_for(&aborts, 1);
    probe_when_open(0);
    int fd2 = client();
    send_str(fd2,
             "GET /echo HTTP/1.1\r\nHost: x\r\n\r\nGET /echo?tag=two HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[4096] = "";
    size_t len = 0;
    while (!strstr(buf, "X-Tag: two") && len < sizeof buf - 1) {
        ssize_t got = recv(fd2, buf + len, sizeof buf - 1 - len, 0);
        cr_assert_gt(got, 0);
        len += (size_t)got;
        buf[len] = '\0';
    }
    size_t served = probe_when_open(1);
    cr_assert_lt(served, hanging, "nothing left buffered once both are answered (%zu bytes)",
                 served);
    close(fd2);
    stop();
}

Test(http_server, adopted_socketpair_is_served_like_an_accepted_connection, .timeout = 10.)
{
    start(NULL);
    int sv[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    struct timeval tv = {.tv_sec = 3};
    setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    cr_assert_eq(adopt(sv[1]), 0);
    send_str(sv[0], "GET /echo?tag=pair HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(sv[0], buf, sizeof buf), 200);
    cr_assert(strstr(buf, "X-Tag: pair"));
    send_str(sv[0], "GARBAGE\r\n\r\n");
    cr_assert_eq(read_response(sv[0], buf, sizeof buf), 400);
    cr_assert(peer_closed(sv[0]), "closed after a refusal");
    close(sv[0]);

    int dgram = socket(AF_INET, SOCK_DGRAM, 0);
    cr_assert_eq(adopt(dgram), -EINVAL, "only stream sockets are served");
    close(dgram);
    int pipes[2];
    cr_assert_eq(pipe(pipes), 0);
    cr_assert_eq(adopt(pipes[0]), -EINVAL, "a pipe is not a socket");
    close(pipes[0]);
    close(pipes[1]);
    stop();
}

static void one_connection(kvr_http_server_config_t *cfg)
{
    cfg->max_connections = 1;
}

Test(http_server, connections_beyond_the_limit_are_closed, .timeout = 10.)
{
    start(one_connection);
    int fd = client();
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200);
    int fd2 = client();
    cr_assert(peer_closed(fd2));
    close(fd2);
    close(fd);
    stop();
}

Test(http_server, unknown_path_error_from_handler, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    send_str(fd, "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n");
    char buf[4096];
    cr_assert_eq(read_response(fd, buf, sizeof buf), 404);
    cr_assert(strstr(buf,
                     "{\"error\":{\"message\":\"no such path\",\"type\":\"invalid_request_error\","
                     "\"param\":null,\"code\":null}}"));
    close(fd);
    stop();
}

Test(http_server, error_json_escapes_and_picks_type)
{
    char out[256];
    cr_assert_gt(kvr_http_error_json(out, sizeof out, 503, NULL, "a \"quoted\"\nline"), 0);
    cr_assert_str_eq(out, "{\"error\":{\"message\":\"a \\\"quoted\\\"\\nline\",\"type\":"
                          "\"server_error\",\"param\":null,\"code\":\"service_unavailable\"}}");
    cr_assert_gt(kvr_http_error_json(out, sizeof out, 400, NULL, "bad"), 0);
    cr_assert(strstr(out, "\"param\":null,\"code\":null}}"), "%s", out);
    cr_assert_gt(kvr_http_error_json(out, sizeof out, 429, NULL, "slow down"), 0);
    cr_assert(strstr(out, "rate_limit_error"));
    cr_assert(strstr(out, "\"code\":\"rate_limit_exceeded\""), "%s", out);
    cr_assert_eq(kvr_http_error_json(out, 8, 400, NULL, "too long for this"), -ENOSPC);
}

/* ---- empty header values ---- */

Test(http_server, empty_header_value_is_accepted, .timeout = 10.)
{
    start(NULL);
    int fd = client();
    char buf[4096];
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nX-Request-Id: after\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200, "%s", buf);
    cr_assert(strstr(buf, "X-Request-ID: after\r\n"), "%s", buf);
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Request-Id:   \r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200, "%s", buf);
    cr_assert(strstr(buf, "X-Request-ID: \r\n"), "an empty value is present and empty: %s", buf);
    close(fd);

    /* The line break of the empty value at the end of one read, the next line in another. */
    fd = client();
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    size_t idle = probe_when_open(1);
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Empty:\r\n");
    wait_server_read_part(idle);
    send_str(fd, "X-Request-Id: split\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 200, "%s", buf);
    cr_assert(strstr(buf, "X-Request-ID: split\r\n"), "%s", buf);
    close(fd);

    /* A continuation of an empty value is still folding. */
    fd = client();
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    idle = probe_when_open(1);
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Empty:\r\n");
    wait_server_read_part(idle);
    send_str(fd, " folded\r\n\r\n");
    cr_assert_eq(read_response(fd, buf, sizeof buf), 400, "%s", buf);
    cr_assert(strstr(buf, "folding"), "%s", buf);
    close(fd);
    stop();
}

/* ---- output backpressure ---- */

#define PIPELINED_BLOBS 200

/* A socketpair served by the server, with small kernel buffers so that what
 * the client does not read stays in the server's own queue. */
static int small_buffer_pair(void)
{
    int sv[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    int small = 4096;
    setsockopt(sv[1], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    setsockopt(sv[0], SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    struct timeval tv = {.tv_sec = 3};
    setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    cr_assert_eq(adopt(sv[1]), 0);
    return sv[0];
}

static void send_pipelined_blobs(int fd)
{
    static char reqs[PIPELINED_BLOBS * 64];
    size_t len = 0;
    for (int i = 0; i < PIPELINED_BLOBS; i++)
        len += (size_t)snprintf(reqs + len, sizeof reqs - len,
                                "GET /blob?tag=%d HTTP/1.1\r\nHost: x\r\n\r\n", i);
    send_all(fd, reqs, len);
}

/* Probes until the server paused the connection or answered every request. */
static void wait_paused_or_served(void)
{
    uint64_t deadline = monotonic_ms() + 10000;
    for (;;) {
        probe_bytes();
        if (atomic_load(&probed_paused) == 1 || atomic_load(&blobs) == PIPELINED_BLOBS)
            return;
        if (monotonic_ms() >= deadline)
            cr_assert_fail("neither paused nor done: %d answered", atomic_load(&blobs));
        usleep(1000);
    }
}

Test(http_server, pipelined_requests_wait_while_the_client_does_not_read, .timeout = 20.)
{
    start(NULL);
    int fd = small_buffer_pair();
    send_pipelined_blobs(fd);
    wait_paused_or_served();
    size_t one_response = BLOB_BYTES + 512;
    cr_assert_leq(atomic_load(&probed_queued), KVR_HTTP_MAX_QUEUED_OUTPUT + one_response,
                  "%zu response bytes queued for a client that reads nothing (%d of %d answered)",
                  atomic_load(&probed_queued), atomic_load(&blobs), PIPELINED_BLOBS);
    cr_assert_lt(atomic_load(&blobs), PIPELINED_BLOBS, "requests wait instead of being answered");
    cr_assert_eq(atomic_load(&probed_paused), 1);

    /* Everything arrives, complete and in order, once the client reads. */
    size_t cap = (size_t)PIPELINED_BLOBS * (BLOB_BYTES + 512);
    char *all = malloc(cap + 1);
    size_t len = 0, at = 0;
    int complete = 0;
    while (complete < PIPELINED_BLOBS) {
        all[len] = '\0';
        char *end = len > at ? strstr(all + at, "\r\n\r\n") : NULL;
        const char *cl = end ? strcasestr(all + at, "content-length:") : NULL;
        if (end && cl && cl < end && len >= (size_t)(end + 4 - all) + strtoul(cl + 15, NULL, 10)) {
            char tag[32];
            snprintf(tag, sizeof tag, "X-Tag: %d\r\n", complete);
            cr_assert_eq(strncmp(all + at, "HTTP/1.1 200 ", 13), 0, "response %d", complete);
            char *tag_at = strstr(all + at, tag);
            cr_assert(tag_at && tag_at < end, "response %d in order", complete);
            size_t body = strtoul(cl + 15, NULL, 10);
            cr_assert_eq(body, BLOB_BYTES, "response %d complete", complete);
            at = (size_t)(end + 4 - all) + body;
            complete++;
            continue;
        }
        cr_assert_lt(len, cap, "more bytes than %d responses", PIPELINED_BLOBS);
        ssize_t n = recv(fd, all + len, cap - len, 0);
        cr_assert_gt(n, 0, "response %d: %s", complete, n < 0 ? strerror(errno) : "closed");
        len += (size_t)n;
    }
    cr_assert_eq(at, len, "nothing after the last response");
    free(all);
    probe_bytes();
    cr_assert_geq(atomic_load(&probed_pauses), 1);
    cr_assert_eq(atomic_load(&probed_paused), 0, "resumed once drained");
    cr_assert_eq(atomic_load(&probed_queued), 0);
    close(fd);
    stop();
}

Test(http_server, paused_client_that_never_reads_is_closed_after_the_idle_timeout, .timeout = 20.)
{
    start(short_timeouts);
    int fd = small_buffer_pair();
    send_pipelined_blobs(fd);
    uint64_t deadline = monotonic_ms() + 10000;
    while (probe_bytes(), atomic_load(&probed_output_timeouts) < 1) {
        if (monotonic_ms() >= deadline)
            cr_assert_fail("a paused connection was never timed out");
        usleep(5000);
    }
    probe_when_open(0);
    cr_assert_lt(atomic_load(&blobs), PIPELINED_BLOBS);
    cr_assert_eq(atomic_load(&probed_paused), 0);
    close(fd);
    stop();
}

/* ---- connection limits ---- */

/* A client connected from a chosen loopback address (127.0.0.0/8 is all loopback). */
static int client_from(const char *source)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in src = {.sin_family = AF_INET};
    inet_pton(AF_INET, source, &src.sin_addr);
    cr_assert_eq(bind(fd, (struct sockaddr *)&src, sizeof src), 0, "bind %s: %s", source,
                 strerror(errno));
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&dst, sizeof dst), 0, "connect: %s",
                 strerror(errno));
    struct timeval tv = {.tv_sec = 3};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

static int served(int fd)
{
    char buf[4096];
    send_str(fd, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
    return read_response(fd, buf, sizeof buf) == 200;
}

static void two_per_peer(kvr_http_server_config_t *cfg)
{
    cfg->max_connections = 16;
    cfg->max_connections_per_peer = 2;
}

Test(http_server, one_peer_at_its_limit_does_not_lock_out_another, .timeout = 10.)
{
    start(two_per_peer);
    int a1 = client_from("127.0.0.2");
    int a2 = client_from("127.0.0.2");
    cr_assert(served(a1));
    cr_assert(served(a2));
    int a3 = client_from("127.0.0.2");
    cr_assert(peer_closed(a3), "a third connection from the same address is refused");
    close(a3);
    int b = client_from("127.0.0.3");
    cr_assert(served(b), "another address is still served");
    probe_bytes();
    cr_assert_eq(atomic_load(&probed_refused_peer), 1);
    cr_assert_eq(atomic_load(&probed_refused_total), 0);
    /* A closed connection gives its place back. */
    close(a1);
    probe_when_open(2);
    int a4 = client_from("127.0.0.2");
    cr_assert(served(a4));
    close(a4);
    close(a2);
    close(b);
    stop();
}

static void one_per_peer(kvr_http_server_config_t *cfg)
{
    cfg->max_connections = 128;
    cfg->max_connections_per_peer = 1;
}

#define PEERS 40

/* Enough addresses that the server's table of them grows, and empties again. */
Test(http_server, many_peers_are_counted_apart, .timeout = 20.)
{
    start(one_per_peer);
    int fds[PEERS];
    char addr[32];
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < PEERS; i++) {
            snprintf(addr, sizeof addr, "127.0.1.%d", i + 1);
            fds[i] = client_from(addr);
            cr_assert(served(fds[i]), "%s round %d", addr, round);
        }
        for (int i = 0; i < PEERS; i++) {
            snprintf(addr, sizeof addr, "127.0.1.%d", i + 1);
            int again = client_from(addr);
            cr_assert(peer_closed(again), "a second connection from %s is refused", addr);
            close(again);
        }
        for (int i = 0; i < PEERS; i++)
            close(fds[i]);
        probe_when_open(0);
    }
    cr_assert_eq(atomic_load(&probed_refused_peer), 2 * PEERS);
    stop();
}

#define REFUSALS 200

/* The refusal lines in a log file, and the refusals they report. */
static int refusal_lines(const char *path, long *reported)
{
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char line[1024];
    int lines = 0;
    *reported = 0;
    while (fgets(line, sizeof line, f)) {
        const char *r = strstr(line, "http_connections_refused ");
        if (!r)
            continue;
        lines++;
        const char *n = strstr(r, " refused=");
        if (n)
            *reported += strtol(n + 9, NULL, 10);
    }
    fclose(f);
    return lines;
}

Test(http_server, refusals_are_counted_and_logged_once_a_second, .timeout = 30.)
{
    char path[] = "/tmp/kvr_http_refusals_XXXXXX";
    int logfd = mkstemp(path);
    cr_assert_geq(logfd, 0);
    int saved = dup(2);
    dup2(logfd, 2);
    start(one_connection);
    int held = client();
    cr_assert(served(held));
    uint64_t t0 = monotonic_ms();
    for (int i = 0; i < REFUSALS; i++) {
        int fd = client();
        cr_assert(peer_closed(fd), "connection %d refused", i);
        close(fd);
    }
    uint64_t deadline = monotonic_ms() + 10000;
    while (probe_bytes(), atomic_load(&probed_refused_total) < REFUSALS) {
        cr_assert_lt(monotonic_ms(), deadline, "refusals counted: %llu",
                     (unsigned long long)atomic_load(&probed_refused_total));
        usleep(1000);
    }
    cr_assert_eq(atomic_load(&probed_refused_total), REFUSALS);
    /* The last line, written once its second is over, brings the total up to every refusal. */
    long reported = 0;
    int lines = 0;
    while ((lines = refusal_lines(path, &reported)), reported < REFUSALS) {
        cr_assert_lt(monotonic_ms(), deadline, "log lines report %ld refusals", reported);
        usleep(5000);
    }
    uint64_t elapsed_ms = monotonic_ms() - t0;
    dup2(saved, 2);
    close(saved);
    close(logfd);
    unlink(path);
    cr_assert_eq(reported, REFUSALS);
    cr_assert_geq(lines, 1);
    cr_assert_leq((uint64_t)lines, elapsed_ms / 1000 + 1, "%d lines in %llu ms", lines,
                  (unsigned long long)elapsed_ms);
    close(held);
    stop();
}
