/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Engine names are resolved off the event loop: kvroute runs with a
 * resolver that holds every query (tests/support/stub_dns.h), and answers
 * GET /health while POST /engines waits for the name; the POST is answered
 * once the resolver answers, and a client that left meanwhile costs nothing.
 */
#include <criterion/criterion.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"
#include "tests/support/stub_dns.h"

#define NAME "slow.kvroute.test"
#define AUTH "Authorization: Bearer s3cret\r\n"

static kvr_stub_dns_t dns;
static kvr_harness_t h;
static char config_path[128];

static void teardown(void)
{
    kvr_stub_dns_release(&dns); /* a resolver still waiting ends before kvroute is stopped */
    if (h.pid > 0)
        kvr_harness_stop(&h);
    kvr_stub_dns_stop(&dns);
    if (config_path[0])
        unlink(config_path);
}

TestSuite(resolve, .fini = teardown, .timeout = 60.);

static void start_router_with(const char *config)
{
    char why[160];
    if (!kvr_stub_dns_start(&dns, "127.0.0.1", why, sizeof why))
        cr_skip_test("%s", why);
    setenv("KVR_BIN_KVROUTE",
           kvr_scratch_hosts_wrapper(&dns.files, kvr_test_bin("KVR_BIN_KVROUTE")), 1);
    const char *extra[] = {
        "--admin-token", "s3cret", "--log-level", "info", config ? "--config" : NULL, config, NULL};
    kvr_harness_start(&h, 0, extra);
}

static void start_router(void)
{
    start_router_with(NULL);
}

/* Sends POST /engines for url on a connection of its own and returns it unread. */
static int post_engine(const char *url)
{
    int fd = kvr_test_connect(h.admin_port);
    cr_assert_geq(fd, 0);
    char body[160], req[512];
    int body_len = snprintf(body, sizeof body, "{\"url\":\"%s\"}", url);
    int len = snprintf(req, sizeof req,
                       "POST /engines HTTP/1.1\r\nHost: x\r\n" AUTH
                       "Content-Type: application/json\r\nContent-Length: %d\r\n"
                       "Connection: close\r\n\r\n%s",
                       body_len, body);
    cr_assert_eq(write(fd, req, (size_t)len), len);
    return fd;
}

/* Reads the whole answer on fd (the server closes it); NUL-terminated. */
static void read_answer(int fd, char *out, size_t cap, unsigned timeout_ms)
{
    size_t n = 0;
    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        cr_assert_gt(poll(&p, 1, (int)timeout_ms), 0, "no answer to POST /engines");
        ssize_t got = read(fd, out + n, cap - 1 - n);
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    out[n] = '\0';
}

static bool readable_now(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

Test(resolve, health_answers_while_a_posted_engine_name_resolves)
{
    start_router();
    uint16_t engine_port = kvr_test_free_port();
    char url[96], answer[2048];
    snprintf(url, sizeof url, "http://" NAME ":%u", engine_port);
    int fd = post_engine(url);
    cr_assert(kvr_stub_dns_wait_queries(&dns, 1, 20000), "kvroute never asked the resolver");

    /* The resolver holds the query: the loop must still serve. */
    char *resp = NULL;
    int status = kvr_test_http(h.port, "GET", "/health", NULL, NULL, &resp, 10000);
    free(resp);
    cr_assert_eq(status, 200, "GET /health was not answered while a name resolved (%d)", status);
    cr_expect(!readable_now(fd), "POST /engines answered before its name resolved");

    kvr_stub_dns_release(&dns);
    read_answer(fd, answer, sizeof answer, 20000);
    close(fd);
    cr_assert(strncmp(answer, "HTTP/1.1 201", 12) == 0, "%s", answer);
    cr_expect(strstr(answer, url), "the engine id is the URL: %s", answer);
}

Test(resolve, a_client_gone_while_its_name_resolves_is_not_answered)
{
    start_router();
    uint16_t engine_port = kvr_test_free_port();
    char url[96];
    snprintf(url, sizeof url, "http://" NAME ":%u", engine_port);
    int fd = post_engine(url);
    cr_assert(kvr_stub_dns_wait_queries(&dns, 1, 20000), "kvroute never asked the resolver");
    close(fd); /* the admin client gives up */
    /* The server sees the close while the name is still pending. */
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/health", NULL, NULL, &resp, 10000), 200);
    free(resp);
    kvr_stub_dns_release(&dns);
    /* The add still happens: the engine is listed, and kvroute is alive to say so. */
    cr_assert(kvr_test_wait_file_contains(h.log_path, "engine_added engine=http://" NAME, 20000),
              "see %s", h.log_path);
    cr_assert_eq(kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 10000), 200);
    cr_expect(strstr(resp, url), "%s", resp);
    free(resp);
}

Test(resolve, a_name_that_does_not_resolve_or_parse_is_a_clear_error)
{
    start_router();
    kvr_stub_dns_release(&dns);
    char *resp = NULL;
    int status = kvr_test_http(h.admin_port, "POST", "/engines", AUTH,
                               "{\"url\":\"http://nx.kvroute.test:1\"}", &resp, 20000);
    cr_expect_eq(status, 400);
    cr_expect(strstr(resp, "\"error\"") && strstr(resp, "does not resolve"), "%s", resp);
    free(resp);
    status = kvr_test_http(h.admin_port, "POST", "/engines", AUTH,
                           "{\"url\":\"http://bad_host..x:1\"}", &resp, 10000);
    cr_expect_eq(status, 400);
    cr_expect(strstr(resp, "\"error\"") && strstr(resp, "empty label"), "%s", resp);
    free(resp);
    status = kvr_test_http(h.admin_port, "POST", "/engines", AUTH, "{\"url\":\"http://h:1/v1\"}",
                           &resp, 10000);
    cr_expect_eq(status, 400);
    cr_expect(strstr(resp, "path is not allowed"), "%s", resp);
    free(resp);
}

Test(resolve, sighup_adds_a_named_engine_once_it_resolves)
{
    kvr_test_unique_name(config_path, sizeof config_path, "/tmp/kvroute-resolve-cfg");
    FILE *f = fopen(config_path, "w");
    cr_assert_not_null(f);
    fputs("# no engines yet\n", f);
    fclose(f);
    start_router_with(config_path);
    uint16_t engine_port = kvr_test_free_port();
    char url[96], needle[160];
    snprintf(url, sizeof url, "http://" NAME ":%u", engine_port);
    f = fopen(config_path, "w");
    fprintf(f, "engine %s\n", url);
    fclose(f);
    kill(h.pid, SIGHUP);
    cr_assert(kvr_stub_dns_wait_queries(&dns, 1, 20000), "the reload never asked the resolver");
    char *resp = NULL;
    int status = kvr_test_http(h.port, "GET", "/health", NULL, NULL, &resp, 10000);
    free(resp);
    cr_assert_eq(status, 200, "GET /health was not answered while a reload resolved (%d)", status);
    snprintf(needle, sizeof needle, "engine_added engine=%s", url);
    cr_expect(!kvr_test_file_contains(h.log_path, needle), "added before its name resolved");
    kvr_stub_dns_release(&dns);
    cr_assert(kvr_test_wait_file_contains(h.log_path, needle, 20000), "see %s", h.log_path);
}
