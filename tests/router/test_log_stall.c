/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A router whose stderr is a pipe nobody reads keeps routing: its log lines
 * are dropped and counted, never waited for on the loop.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"

#define BODY "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
#define STREAM_BODY                                                                                \
    "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"

/* Reads what the pipe holds now and then, until needle shows up; false after timeout_ms. */
static bool read_until(int fd, const char *needle, unsigned timeout_ms)
{
    static char seen[1 << 16];
    size_t len = 0;
    for (unsigned waited = 0; waited < timeout_ms; waited += 50) {
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        if (poll(&pfd, 1, 50) <= 0)
            continue;
        if (len > sizeof seen / 2) { /* keep the tail: the needle may straddle two reads */
            memmove(seen, seen + len - 256, 256);
            len = 256;
        }
        ssize_t n = read(fd, seen + len, sizeof seen - len - 1);
        if (n <= 0)
            return false;
        len += (size_t)n;
        seen[len] = '\0';
        if (memmem(seen, len, needle, strlen(needle)))
            return true;
    }
    return false;
}

Test(log_stall, router_keeps_routing_while_nobody_reads_its_stderr, .timeout = 60.)
{
    kvr_harness_t h = {0};
    h.fleet = kvr_fake_start(1);
    h.port = kvr_test_free_port();
    h.admin_port = kvr_test_free_port();
    char listen[32], admin_listen[32], engine_url[64];
    snprintf(listen, sizeof listen, "127.0.0.1:%u", h.port);
    snprintf(admin_listen, sizeof admin_listen, "127.0.0.1:%u", h.admin_port);
    snprintf(engine_url, sizeof engine_url, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, 0));
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE"),
                    "--listen",
                    listen,
                    "--admin-listen",
                    admin_listen,
                    "--es",
                    "0",
                    "--log-level",
                    "warn",
                    "--engine",
                    engine_url,
                    NULL};

    int p[2];
    cr_assert_eq(pipe2(p, O_CLOEXEC), 0);
    fcntl(p[0], F_SETPIPE_SZ, 4096); /* the smallest a pipe gets: it fills after a few lines */
    int saved = dup(STDERR_FILENO);
    dup2(p[1], STDERR_FILENO); /* the router inherits the pipe as its stderr */
    h.pid = kvr_test_spawn(argv, NULL);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(p[1]);
    cr_assert_gt(h.pid, 0);
    cr_assert(kvr_test_wait_port(h.port, 5000), "kvroute did not listen");
    cr_assert(kvr_test_wait_port(h.admin_port, 5000), "kvroute's admin listener did not listen");

    /* Each stream the engine cuts short logs upstream_cut with its request id: ~250 bytes. */
    char headers[256], id[160];
    memset(id, 'x', 120);
    int sent = 0;
    for (; sent < 4000; sent++) {
        snprintf(headers, sizeof headers, "X-Fake: cut=1,chunks=4\r\nX-Request-ID: %.120s-%d\r\n",
                 id, sent);
        char *resp = NULL;
        int status = kvr_test_http(h.port, "POST", "/v1/chat/completions", headers, STREAM_BODY,
                                   &resp, 5000);
        cr_assert_eq(status, 200, "request %d: %s (the loop waits on its log?)", sent,
                     resp ? resp : "no answer");
        free(resp);
        if (sent % 100 == 99 && kvr_harness_metric(&h, "kvroute_log_lines_dropped_total") >= 1)
            break;
    }
    cr_assert_lt(sent, 4000, "no log line was dropped");
    cr_log_info("dropped after %d requests", sent + 1);

    char *resp = NULL;
    cr_expect_eq(kvr_test_http(h.port, "GET", "/health", NULL, NULL, &resp, 5000), 200);
    free(resp);
    resp = NULL;
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, BODY, &resp, 5000),
                 200);
    free(resp);

    /* Once someone reads, the loss is said. */
    cr_expect(read_until(p[0], "log_dropped lines=", 10000),
              "no log_dropped line once the pipe drained");
    int status = kvr_test_stop(h.pid, SIGTERM, 5000);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "kvroute exited with status %d",
              status);
    close(p[0]);
    kvr_fake_stop(h.fleet);
}
