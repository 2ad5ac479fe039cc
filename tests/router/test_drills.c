/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fault drills: the real kvroute in front of real kvroute-sim engines on
 * loopback, with the faults a fleet sees: an engine process killed
 * mid-stream, an engine stalled before and after its first byte, a burst of
 * 2,000 streams on a cold pool, SIGTERM with streams in flight. Each drill
 * waits on events (a byte on a socket, a metric reaching a value), is
 * bounded, and ends with the router's counters back at zero.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define MAX_SIM_ENGINES 4
#define BURST_STREAMS 2000
/* kvroute holds a client and an engine socket per stream, plus its own few. */
#define BURST_FDS_NEEDED (2 * BURST_STREAMS + 256)

static kvr_harness_t h;
static pid_t sim_pid;
static uint16_t sim_port, admin_port;

static void teardown(void)
{
    kvr_harness_stop(&h);
    if (sim_pid > 0)
        kvr_test_stop(sim_pid, SIGKILL, 5000);
    sim_pid = 0;
}

TestSuite(drills, .fini = teardown, .timeout = 60.);

static const char stream_body[] = "{\"model\":\"sim-30b-a3b\",\"stream\":true,\"max_tokens\":%d,"
                                  "\"messages\":[{\"role\":\"user\",\"content\":\"drill\"}]}";

/* n simulated engines in one kvroute-sim process, more: extra sim flags (NULL-terminated). */
static void start_sim(int n, const char *const *more)
{
    sim_port = kvr_test_free_port_range((unsigned)n);
    admin_port = kvr_test_free_port();
    cr_assert_gt(sim_port, 0);
    char port[16], admin[16], engines[8];
    snprintf(port, sizeof port, "%u", sim_port);
    snprintf(admin, sizeof admin, "%u", admin_port);
    snprintf(engines, sizeof engines, "%d", n);
    const char *argv[32] = {kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                            "--engines",
                            engines,
                            "--port",
                            port,
                            "--admin-port",
                            admin,
                            "--log-level",
                            "warn"};
    size_t k = 9;
    for (size_t i = 0; more && more[i] && k < 31; i++)
        argv[k++] = more[i];
    argv[k] = NULL;
    sim_pid = kvr_test_spawn((char *const *)argv, NULL);
    cr_assert_gt(sim_pid, 0);
    for (int i = 0; i < n; i++)
        cr_assert(kvr_test_wait_port((uint16_t)(sim_port + i), 5000), "kvroute-sim did not listen");
    cr_assert(kvr_test_wait_port(admin_port, 5000));
}

/* kvroute in front of the simulated engines; more: extra kvroute flags (NULL-terminated). */
static void start_router(int n, const char *const *more)
{
    static char urls[MAX_SIM_ENGINES][64];
    const char *extra[2 * MAX_SIM_ENGINES + 24];
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        snprintf(urls[i], sizeof urls[i], "http://127.0.0.1:%u", sim_port + i);
        extra[k++] = "--engine";
        extra[k++] = urls[i];
    }
    for (size_t i = 0; more && more[i] && k < sizeof extra / sizeof extra[0] - 1; i++)
        extra[k++] = more[i];
    extra[k] = NULL;
    kvr_harness_start(&h, 0, extra);
}

/* A nonblocking connect for the bursts (many under way at once); else kvr_test_connect. */
static int connect_port(uint16_t port, bool nonblocking)
{
    if (!nonblocking) {
        int fd = kvr_test_connect(port);
        cr_assert_geq(fd, 0, "connect: %s", strerror(errno));
        return fd;
    }
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    int rc = connect(fd, (struct sockaddr *)&a, sizeof a);
    cr_assert(rc == 0 || (nonblocking && errno == EINPROGRESS), "connect: %s", strerror(errno));
    return fd;
}

static int format_request(char *out, size_t cap, int max_tokens)
{
    char body[256];
    int bn = snprintf(body, sizeof body, stream_body, max_tokens);
    return snprintf(out, cap,
                    "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                    "Content-Length: %d\r\n\r\n%s",
                    bn, body);
}

/* Opens a stream through kvroute and returns its socket once the first event arrived. */
static int open_stream(int max_tokens, char *buf, size_t cap)
{
    int fd = connect_port(h.port, false);
    char req[512];
    int n = format_request(req, sizeof req, max_tokens);
    cr_assert_eq(write(fd, req, (size_t)n), n);
    size_t len = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (len + 1 < cap && poll(&p, 1, 10000) == 1) {
        ssize_t r = read(fd, buf + len, cap - len - 1);
        cr_assert_gt(r, 0, "the stream ended before its first event");
        len += (size_t)r;
        buf[len] = '\0';
        if (strstr(buf, "data: "))
            return fd;
    }
    cr_assert_fail("no first event within 10 s");
    return -1;
}

/* Appends everything until EOF (bounded by timeout_ms of silence) to buf; returns the total length. */
static size_t read_to_eof(int fd, char *buf, size_t len, size_t cap, unsigned timeout_ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (len + 1 < cap && poll(&p, 1, (int)timeout_ms) == 1) {
        ssize_t r = read(fd, buf + len, cap - len - 1);
        if (r <= 0)
            break;
        len += (size_t)r;
        buf[len] = '\0';
    }
    return len;
}

static void admin_fault(int engine, const char *json)
{
    char path[64], *resp;
    snprintf(path, sizeof path, "/admin/fault?engine=%d", engine);
    cr_assert_eq(kvr_test_http(admin_port, "POST", path, NULL, json, &resp, 3000), 200, "%s", resp);
    free(resp);
}

/* Polls a /metrics sample until it reaches want; false after timeout_ms. */
static bool wait_metric(const char *sample, double want, unsigned timeout_ms)
{
    for (unsigned waited = 0; waited <= timeout_ms; waited += 20) {
        if (kvr_harness_metric(&h, sample) == want)
            return true;
        kvr_test_sleep_ms(20);
    }
    return false;
}

static void expect_router_idle(void)
{
    cr_expect(kvr_harness_wait_zero(&h, 10000), "shadow counters back to zero");
    cr_expect(wait_metric("kvroute_in_flight", 0, 5000), "nothing left in flight");
}

/* The body after the head, de-chunked in place: its length, or -1 when the last chunk is missing. */
static long stream_body_of(char *resp)
{
    char *body = strstr(resp, "\r\n\r\n");
    cr_assert_not_null(body, "no response head: %s", resp);
    memmove(resp, body + 4, strlen(body + 4) + 1);
    return kvr_harness_dechunk(resp);
}

Test(drills, engine_process_killed_mid_stream)
{
    /* failure table: not retried */
    start_sim(1, NULL);
    start_router(1, NULL);
    static char buf[1 << 20];
    /* 20,000 tokens at the default speed: seconds of stream, far more than the drill needs */
    int fd = open_stream(20000, buf, sizeof buf);
    cr_expect_gt(kvr_harness_shadow_total(&h), 0);
    cr_assert_eq(kvr_test_stop(sim_pid, SIGKILL, 5000) >= 0, 1);
    sim_pid = 0;
    size_t len = read_to_eof(fd, buf, strlen(buf), sizeof buf, 5000);
    close(fd);
    cr_assert_gt(len, 0);
    cr_expect_null(strstr(buf, "[DONE]"));
    cr_expect_lt(stream_body_of(buf), 0, "the stream must be cut, not ended with its last chunk");
    cr_expect_not_null(strstr(buf, "data: {\"error\":{"), "the client is told with an error event");
    expect_router_idle();
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_upstream_cut_total"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_retries_total{cause=\"reset\"}"), 0,
                 "a stream the client has part of is not sent again");
}

Test(drills, engine_stall_before_the_first_byte_is_retried_elsewhere)
{
    /* failure table: retried */
    start_sim(2, NULL);
    const char *more[] = {"--policy", "round_robin",      "--first-byte-timeout-ms",
                          "300",      "--fail-threshold", "100",
                          NULL};
    start_router(2, more);
    admin_fault(0, "{\"stall\":true}");
    char req_body[256], *resp;
    snprintf(req_body, sizeof req_body, stream_body, 8);
    for (int i = 0; i < 2; i++) { /* one of the two lands on the stalled engine first */
        cr_assert_eq(
            kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, req_body, &resp, 10000),
            200, "%s", resp);
        char engine[64];
        cr_assert_not_null(kvr_harness_header(resp, "X-Kvroute-Engine", engine, sizeof engine));
        char want[64];
        snprintf(want, sizeof want, "http://127.0.0.1:%u", sim_port + 1);
        cr_expect_str_eq(engine, want, "the answer comes from the engine that is not stalled");
        cr_expect_geq(stream_body_of(resp), 0);
        cr_expect_not_null(strstr(resp, "[DONE]"));
        free(resp);
    }
    double timeouts = kvr_harness_metric(&h,
                                         "kvroute_upstream_timeouts_total{kind=\"first_byte\"}");
    cr_expect_geq(timeouts, 1, "the stalled engine was tried");
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_retries_total{cause=\"first_byte_timeout\"}"),
                 timeouts, "every first-byte timeout was retried elsewhere");
    expect_router_idle();
    admin_fault(0, "{\"clear\":true}");
}

Test(drills, engine_stall_after_the_first_byte_ends_in_an_idle_timeout_error)
{
    start_sim(1, NULL);
    const char *more[] = {"--idle-timeout-ms", "300", NULL};
    start_router(1, more);
    static char buf[1 << 20];
    int fd = open_stream(20000, buf, sizeof buf);
    admin_fault(0, "{\"stall\":true}");
    size_t len = read_to_eof(fd, buf, strlen(buf), sizeof buf, 5000);
    close(fd);
    cr_assert_gt(len, 0);
    cr_expect_lt(stream_body_of(buf), 0, "the stream must be cut, not ended with its last chunk");
    cr_expect_not_null(strstr(buf, "data: {\"error\":{"));
    cr_expect_not_null(strstr(buf, "\"code\":\"timeout\""));
    expect_router_idle();
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_upstream_timeouts_total{kind=\"idle\"}"), 1);
    admin_fault(0, "{\"clear\":true}");
}

/* Descriptors for a burst: raised to the hard limit when needed (children inherit it). */
static void ensure_fd_limit(rlim_t need)
{
    struct rlimit rl;
    cr_assert_eq(getrlimit(RLIMIT_NOFILE, &rl), 0);
    if (rl.rlim_cur >= need)
        return;
    cr_assert(
        rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need,
        "RLIMIT_NOFILE hard limit %llu is below the %llu descriptors a %d-stream burst needs; "
        "raise it (ulimit -Hn, or LimitNOFILE= in a unit)",
        (unsigned long long)rl.rlim_max, (unsigned long long)need, BURST_STREAMS);
    rl.rlim_cur = need;
    cr_assert_eq(setrlimit(RLIMIT_NOFILE, &rl), 0, "setrlimit: %s", strerror(errno));
}

typedef struct burst_conn_s {
    int fd;
    int status;
    size_t sent, bytes;
    bool chunked;
    char tail
        [48]; /* the last bytes received: a whole stream ends with [DONE] (and the last chunk) */
} burst_conn_t;

Test(drills, burst_of_2000_streams_on_a_cold_pool_gets_no_5xx, .timeout = 120.)
{
    ensure_fd_limit(BURST_FDS_NEEDED);
    const char *sim_more[] = {"--time-scale", "20", "--max-running", "512", NULL};
    start_sim(4, sim_more);
    /*
     * A connect timeout far below the time the router's loop needs to take
     * in 2,000 requests: connects that completed in the kernel meanwhile must
     * not count as timed out because their timer ran before the loop's I/O.
     */
    const char *more[] = {
        "--connect-timeout-ms", "50",
        /* health checks answered by engines busy with the burst: allowed their 2 s */
        "--health-interval-ms", "2000", NULL};
    start_router(4, more);
    static burst_conn_t conns[BURST_STREAMS];
    static struct pollfd pfds[BURST_STREAMS];
    char req[512];
    int req_len = format_request(req, sizeof req, 4);
    for (int i = 0; i < BURST_STREAMS; i++) {
        conns[i] = (burst_conn_t){.fd = connect_port(h.port, true), .status = -1};
        pfds[i] = (struct pollfd){.fd = conns[i].fd, .events = POLLOUT};
    }
    int open = BURST_STREAMS;
    while (open > 0) {
        int n = poll(pfds, BURST_STREAMS, 30000);
        cr_assert_gt(n, 0, "the burst stalled with %d streams open", open);
        for (int i = 0; i < BURST_STREAMS; i++) {
            burst_conn_t *c = &conns[i];
            if (pfds[i].fd < 0 || !pfds[i].revents)
                continue;
            if (pfds[i].events & POLLOUT) {
                ssize_t w = write(c->fd, req + c->sent, (size_t)req_len - c->sent);
                if (w > 0)
                    c->sent += (size_t)w;
                if (w < 0 && errno != EAGAIN) {
                    cr_log_error("stream %d: write: %s", i, strerror(errno));
                    c->sent = (size_t)req_len; /* counted as a failure below: no status */
                }
                if (c->sent == (size_t)req_len)
                    pfds[i].events = POLLIN;
                continue;
            }
            char buf[16384];
            ssize_t r = read(c->fd, buf, sizeof buf);
            if (r < 0 && errno == EAGAIN)
                continue;
            if (r > 0) {
                if (c->bytes == 0) {
                    sscanf(buf, "HTTP/1.1 %d", &c->status);
                    /* a stream that arrived in one piece is passed on whole, with a Content-Length */
                    c->chunked = memmem(buf, (size_t)r, "Transfer-Encoding: chunked", 26) != NULL;
                }
                c->bytes += (size_t)r;
                size_t keep = (size_t)r < sizeof c->tail ? (size_t)r : sizeof c->tail;
                memmove(c->tail, c->tail + keep, sizeof c->tail - keep);
                memcpy(c->tail + sizeof c->tail - keep, buf + r - (ssize_t)keep, keep);
                continue;
            }
            close(c->fd);
            pfds[i].fd = -1;
            open--;
        }
    }
    int ok = 0, server_errors = 0, other = 0, incomplete = 0;
    for (int i = 0; i < BURST_STREAMS; i++) {
        if (conns[i].status == 200)
            ok++;
        else if (conns[i].status >= 500)
            server_errors++;
        else
            other++;
        if (conns[i].status == 200 &&
            (!memmem(conns[i].tail, sizeof conns[i].tail, "data: [DONE]", 12) ||
             (conns[i].chunked &&
              memcmp(conns[i].tail + sizeof conns[i].tail - 5, "0\r\n\r\n", 5) != 0))) {
            if (incomplete++ < 3) {
                char shown[4 * sizeof conns[i].tail + 1];
                size_t k = 0;
                for (size_t j = 0; j < sizeof conns[i].tail; j++)
                    k += (size_t)snprintf(shown + k, sizeof shown - k,
                                          isprint((unsigned char)conns[i].tail[j]) ? "%c"
                                                                                   : "\\x%02x",
                                          (unsigned char)conns[i].tail[j]);
                cr_log_error("stream %d ended after %zu bytes with: %s", i, conns[i].bytes, shown);
            }
        }
    }
    cr_log_info(
        "burst: %d x 200, %d x 5xx, %d other, %d incomplete; connect timeouts %g, connect retries %g",
        ok, server_errors, other, incomplete,
        kvr_harness_metric(&h, "kvroute_upstream_timeouts_total{kind=\"connect\"}"),
        kvr_harness_metric(&h, "kvroute_retries_total{cause=\"connect\"}"));
    cr_expect_eq(server_errors, 0, "%d of %d streams got a 5xx", server_errors, BURST_STREAMS);
    cr_expect_eq(ok, BURST_STREAMS, "%d of %d streams got 200 (%d other)", ok, BURST_STREAMS,
                 other);
    cr_expect_eq(incomplete, 0, "%d streams ended without [DONE] and the last chunk", incomplete);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_upstream_timeouts_total{kind=\"connect\"}"), 0);
    for (int i = 0; i < 4; i++) {
        char sample[96];
        snprintf(sample, sizeof sample, "kvroute_engine_healthy{engine=\"http://127.0.0.1:%u\"}",
                 sim_port + i);
        cr_expect_eq(kvr_harness_metric(&h, sample), 1, "engine %d was marked down by the burst",
                     i);
    }
    expect_router_idle();
}

Test(drills, sigterm_drains_streams_in_flight_and_refuses_new_requests)
{
    start_sim(2, NULL);
    start_router(2, NULL);
    enum { STREAMS = 8 };
    static char bufs[STREAMS][1 << 16];
    int fds[STREAMS];
    for (int i = 0; i < STREAMS; i++)
        fds[i] = open_stream(200, bufs[i],
                             sizeof bufs[i]); /* a few seconds each at the default speed */
    cr_assert_eq(kill(h.pid, SIGTERM), 0);
    /* draining (the signal is handled on kvroute's loop): readiness goes 503, new requests get 503 */
    char *resp;
    int status = -1;
    for (int tries = 0; tries < 300 && status != 503; tries++) {
        if (tries)
            kvr_test_sleep_ms(10);
        status = kvr_test_http(h.port, "GET", "/readiness", NULL, NULL, &resp, 3000);
        free(resp);
    }
    cr_expect_eq(status, 503, "readiness while draining");
    char req_body[256];
    snprintf(req_body, sizeof req_body, stream_body, 4);
    status = kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, req_body, &resp, 3000);
    cr_expect_eq(status, 503, "a new request while draining: %s", resp);
    cr_expect(resp && strstr(resp, "shutting down"));
    free(resp);
    for (int i = 0; i < STREAMS; i++) {
        read_to_eof(fds[i], bufs[i], strlen(bufs[i]), sizeof bufs[i], 10000);
        close(fds[i]);
        cr_expect_not_null(strstr(bufs[i], "[DONE]"), "stream %d completes during the drain", i);
        cr_expect_geq(stream_body_of(bufs[i]), 0, "stream %d ends with its last chunk", i);
    }
    status = kvr_test_stop(h.pid, SIGTERM, 10000);
    h.pid = 0;
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "kvroute exits 0 after the drain: %d",
              status);
}

Test(drills, a_storm_of_sigterms_during_the_exit_still_ends_in_exit_0)
{
    start_sim(1, NULL);
    start_router(1, NULL);
    /* The first signal starts an idle shutdown; the others land while the router closes. */
    int status = 0;
    pid_t done = 0;
    for (int sent = 0; done == 0 && sent < 200000; sent++) {
        kill(h.pid, SIGTERM);
        done = waitpid(h.pid, &status, WNOHANG);
    }
    if (done == 0)
        done = waitpid(h.pid, &status, 0); /* bounded by the drain timeout: nothing is in flight */
    cr_assert_eq(done, h.pid);
    h.pid = 0;
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "kvroute exits 0 whatever signals arrive during its exit: status %d (signal %d)",
              status, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
