/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute's client-side limits as a client meets them: a client pipelining
 * requests it never reads makes the router stop reading, not buffer every
 * response; one address holding its --max-connections-per-peer does not keep
 * another out; refusals are counted in /metrics; an empty header value is a
 * header like any other.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

static int connect_from(const char *source, uint16_t port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    cr_assert_geq(fd, 0);
    struct sockaddr_in src = {.sin_family = AF_INET};
    inet_pton(AF_INET, source, &src.sin_addr);
    cr_assert_eq(bind(fd, (struct sockaddr *)&src, sizeof src), 0, "bind %s: %s", source,
                 strerror(errno));
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(port)};
    dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&dst, sizeof dst), 0, "connect: %s",
                 strerror(errno));
    struct timeval tv = {.tv_sec = 5};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    return fd;
}

/* One GET on fd; the status, or -1 when the connection closed first. */
static int get_status(int fd, const char *path)
{
    char req[256];
    int n = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
    if (send(fd, req, (size_t)n, MSG_NOSIGNAL) != n)
        return -1;
    char buf[16384];
    size_t len = 0;
    for (;;) {
        ssize_t got = recv(fd, buf + len, sizeof buf - 1 - len, 0);
        if (got <= 0)
            return -1;
        len += (size_t)got;
        buf[len] = '\0';
        char *end = strstr(buf, "\r\n\r\n");
        const char *cl = strcasestr(buf, "content-length:");
        if (end && cl && len >= (size_t)(end + 4 - buf) + strtoul(cl + 15, NULL, 10))
            return atoi(buf + 9);
        if (len >= sizeof buf - 1)
            return -1;
    }
}

static bool closed_by_peer(int fd)
{
    char c;
    ssize_t n = recv(fd, &c, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
}

Test(router_client_limits, one_address_at_its_limit_leaves_room_for_another, .timeout = 60.)
{
    static const char *const args[] = {
        "--max-connections", "8", "--max-connections-per-peer", "2", "--log-level", "info", NULL};
    kvr_harness_t h;
    kvr_harness_start(&h, 0, args);
    int a1 = connect_from("127.0.0.2", h.port);
    int a2 = connect_from("127.0.0.2", h.port);
    cr_assert_eq(get_status(a1, "/health"), 200);
    cr_assert_eq(get_status(a2, "/health"), 200);
    int a3 = connect_from("127.0.0.2", h.port);
    cr_assert(closed_by_peer(a3), "a third connection from 127.0.0.2 is refused");
    close(a3);
    int b = connect_from("127.0.0.3", h.port);
    cr_assert_eq(get_status(b, "/health"), 200, "another address is served");
    close(b);
    cr_assert(kvr_harness_wait_metric(
        &h, "kvroute_http_connections_refused_total{reason=\"per_peer\"}", 1, 10000));
    cr_assert_eq(kvr_harness_metric(&h, "kvroute_http_connections_refused_total{reason=\"total\"}"),
                 0);
    /* The log's writer is its own thread: the line lands after the counter, so wait for it. */
    cr_assert(kvr_test_wait_file_contains(
        h.log_path, "http_connections_refused reason=max_connections_per_peer", 10000));
    cr_assert(kvr_test_file_contains(h.log_path, "fd_limit nofile="));
    close(a1);
    close(a2);
    cr_assert_eq(kvr_harness_stop(&h), 0);
}

/* Enough /health answers (~110 bytes) to overflow the kernel's socket buffers on loopback. */
#define PIPELINED 60000

Test(router_client_limits, pipelined_requests_never_read_pause_the_connection, .timeout = 120.)
{
    kvr_harness_t h;
    kvr_harness_start(&h, 0, NULL);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int small = 4096;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    struct sockaddr_in dst = {.sin_family = AF_INET, .sin_port = htons(h.port)};
    dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    cr_assert_eq(connect(fd, (struct sockaddr *)&dst, sizeof dst), 0);
    /* The client port: /health, since /metrics is on the admin listener. */
    static const char one[] = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
    size_t total = (sizeof one - 1) * PIPELINED;
    char *reqs = malloc(total);
    for (int i = 0; i < PIPELINED; i++)
        memcpy(reqs + (size_t)i * (sizeof one - 1), one, sizeof one - 1);
    /* Non-blocking: the router may stop taking them, which is the point. */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    size_t sent = 0;
    while (sent < total) {
        ssize_t n = send(fd, reqs + sent, total - sent, MSG_NOSIGNAL);
        if (n <= 0)
            break;
        sent += (size_t)n;
    }
    free(reqs);
    cr_assert(kvr_harness_wait_metric_reach(&h, "kvroute_http_output_paused_total", 1, 30000),
              "the router stopped reading a client that reads nothing");
    /* Everything sent is answered, each response whole, once the client reads. */
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    struct timeval tv = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sent = total; /* a blocking send for whatever did not go in */
    size_t want = sent / (sizeof one - 1);
    size_t cap = 1 << 20, len = 0, at = 0, complete = 0;
    char *buf = malloc(cap + 1);
    while (complete < want) {
        buf[len] = '\0';
        char *end = len > at ? strstr(buf + at, "\r\n\r\n") : NULL;
        const char *cl = end ? strcasestr(buf + at, "content-length:") : NULL;
        if (end && cl && cl < end && len >= (size_t)(end + 4 - buf) + strtoul(cl + 15, NULL, 10)) {
            cr_assert_eq(strncmp(buf + at, "HTTP/1.1 200 ", 13), 0, "response %zu", complete);
            at = (size_t)(end + 4 - buf) + strtoul(cl + 15, NULL, 10);
            complete++;
            continue;
        }
        if (at > 0) { /* keep only the response being read */
            memmove(buf, buf + at, len - at);
            len -= at;
            at = 0;
        }
        cr_assert_lt(len, cap);
        ssize_t n = recv(fd, buf + len, cap - len, 0);
        cr_assert_gt(n, 0, "response %zu of %zu: %s", complete, want,
                     n < 0 ? strerror(errno) : "closed");
        len += (size_t)n;
    }
    free(buf);
    close(fd);
    cr_assert_eq(kvr_harness_stop(&h), 0);
}

Test(router_client_limits, empty_header_value_is_served, .timeout = 60.)
{
    kvr_harness_t h;
    kvr_harness_start(&h, 0, NULL);
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/health", "X-Empty:\r\n", NULL, &resp, 5000), 200,
                 "%s", resp ? resp : "");
    free(resp);
    cr_assert_eq(kvr_harness_stop(&h), 0);
}
