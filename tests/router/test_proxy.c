/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute end to end in front of scripted engines: what passes through
 * untouched, what is retried, what each failure answers, and that the
 * shadow counters return to zero after every one of them.
 */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

static kvr_harness_t h;

static void teardown(void)
{
    kvr_harness_stop(&h);
}

TestSuite(proxy, .fini = teardown, .timeout = 30.);

static const char chat[] =
    "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";
static const char chat_stream[] =
    "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hello there\"}]}";

static int post(const char *headers, const char *body, char **resp)
{
    return kvr_test_http(h.port, "POST", "/v1/chat/completions", headers, body, resp, 5000);
}

/* n requests in a row, each answered 200 by fleet engine i. */
static void expect_answers_from(int i, int n)
{
    char want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, i));
    for (int k = 0; k < n; k++) {
        char *resp, v[64];
        cr_assert_eq(post(NULL, chat, &resp), 200, "request %d", k);
        cr_expect_str_eq(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v), want);
        free(resp);
    }
}

static int connect_router(void)
{
    int fd = kvr_test_connect(h.port);
    cr_assert_geq(fd, 0, "connect to kvroute: %s", strerror(errno));
    return fd;
}

/* Reads until needle shows up (true) or timeout/EOF (false). */
static bool read_until(int fd, const char *needle, char *buf, size_t cap, unsigned timeout_ms)
{
    size_t len = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (len + 1 < cap && poll(&p, 1, (int)timeout_ms) > 0) {
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = '\0';
        if (strstr(buf, needle))
            return true;
    }
    return false;
}

Test(proxy, non_streamed_answer_passes_with_request_id_and_engine_header)
{
    kvr_harness_start(&h, 2, NULL);
    char *resp;
    cr_assert_eq(post("X-Request-ID: my-req-1\r\n", chat, &resp), 200);
    char v[128];
    cr_expect_str_eq(kvr_harness_header(resp, "X-Request-ID", v, sizeof v), "my-req-1");
    cr_assert_not_null(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v));
    cr_expect_eq(strncmp(v, "http://127.0.0.1:", 17), 0);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"choices\""));
    free(resp);
    /* without one, an id is generated and echoed */
    cr_assert_eq(post(NULL, chat, &resp), 200);
    cr_expect_not_null(kvr_harness_header(resp, "X-Request-ID", v, sizeof v));
    cr_expect_gt(strlen(v), 4);
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, engine_header_can_be_turned_off)
{
    const char *extra[] = {"--engine-header", "off", NULL};
    kvr_harness_start(&h, 1, extra);
    char *resp;
    cr_assert_eq(post(NULL, chat, &resp), 200);
    char v[128];
    cr_expect_null(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v));
    free(resp);
}

Test(proxy, sse_stream_arrives_untouched)
{
    kvr_harness_start(&h, 1, NULL);
    char *resp;
    cr_assert_eq(post("X-Fake: chunks=5,interval_ms=10\r\n", chat_stream, &resp), 200);
    char v[64];
    cr_expect_str_eq(kvr_harness_header(resp, "Content-Type", v, sizeof v), "text/event-stream");
    char *body = (char *)kvr_test_http_body(resp);
    cr_assert_geq(kvr_harness_dechunk(body), 0, "stream must end with a clean last chunk");
    char want[1024] = "";
    for (int i = 0; i < 5; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want),
                 "data: {\"engine\":0,\"n\":%d}\n\n", i);
    strcat(want, "data: [DONE]\n\n");
    cr_expect_str_eq(body, want);
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_requests_total{status=\"200\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_ttft_seconds_count"), 1);
}

/* The first body byte of each streamed answer reaches the policy; plausible answers clamp nothing. */
Test(proxy, ttft_policy_learns_from_streamed_first_bytes)
{
    const char *extra[] = {"--policy", "ttft", NULL};
    kvr_harness_start(&h, 2, extra);
    for (int i = 0; i < 6; i++) {
        char *resp;
        cr_assert_eq(post("X-Fake: chunks=3,interval_ms=5\r\n", chat_stream, &resp), 200);
        free(resp);
        cr_assert_eq(post(NULL, chat, &resp), 200);
        free(resp);
    }
    cr_expect(kvr_harness_wait_zero(&h, 2000));
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_requests_total{status=\"200\"}"), 12);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_policy_input_clamped_total"), 0);
    double ttft = 0;
    char sample[160];
    for (int e = 0; e < 2; e++) {
        snprintf(
            sample, sizeof sample,
            "kvroute_selections_total{engine=\"http://127.0.0.1:%u\",policy=\"ttft\",reason=\"ttft\"}",
            kvr_fake_port(h.fleet, e));
        double v = kvr_harness_metric(&h, sample);
        ttft += v > 0 ? v : 0;
    }
    cr_expect_eq(ttft, 12, "every request scored by ttft");
}

typedef struct burst_arg_s {
    int status;
    char engine[64];
} burst_arg_t;

static void *burst_one(void *arg)
{
    burst_arg_t *b = arg;
    char *resp = NULL;
    b->status = kvr_test_http(h.port, "POST", "/v1/chat/completions", "X-Fake: hold=1\r\n", chat,
                              &resp, 15000);
    if (resp && !kvr_harness_header(resp, "X-Kvroute-Engine", b->engine, sizeof b->engine))
        b->engine[0] = '\0';
    free(resp);
    return NULL;
}

static bool all_held(void *arg)
{
    (void)arg;
    return kvr_fake_held(h.fleet) >= 100;
}

static bool engine0_aborted(void *arg)
{
    (void)arg;
    return kvr_fake_aborted(h.fleet, 0) >= 1;
}

Test(proxy, burst_of_100_under_load_only_spreads_evenly, .timeout = 60.)
{
    const char *extra[] = {"--policy", "load_only", NULL};
    kvr_harness_start(&h, 4, extra);
    static burst_arg_t args[100];
    pthread_t threads[100];
    for (int i = 0; i < 100; i++)
        cr_assert_eq(pthread_create(&threads[i], NULL, burst_one, &args[i]), 0);
    cr_assert(kvr_test_wait_until(all_held, NULL, 30000),
              "only %u of 100 requests reached the engines", kvr_fake_held(h.fleet));
    cr_expect_eq(kvr_harness_shadow_total(&h) > 0, 1, "held requests are in the shadow counters");
    kvr_fake_release(h.fleet);
    for (int i = 0; i < 100; i++)
        pthread_join(threads[i], NULL);
    int per_engine[4] = {0};
    for (int i = 0; i < 100; i++) {
        cr_expect_eq(args[i].status, 200);
        for (int e = 0; e < 4; e++) {
            char url[64];
            snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_fake_port(h.fleet, e));
            if (strcmp(args[i].engine, url) == 0)
                per_engine[e]++;
        }
    }
    for (int e = 0; e < 4; e++)
        cr_expect_eq(per_engine[e], 25, "engine %d got %d of 100", e, per_engine[e]);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, client_disconnect_mid_stream_aborts_upstream_and_releases)
{
    /* failure table: not retried */
    kvr_harness_start(&h, 1, NULL);
    int fd = connect_router();
    char req[512];
    int n = snprintf(
        req, sizeof req,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Fake: chunks=200,interval_ms=20\r\n"
        "Content-Length: %zu\r\n\r\n%s",
        strlen(chat_stream), chat_stream);
    cr_assert_eq(write(fd, req, (size_t)n), n);
    char buf[8192];
    cr_assert(read_until(fd, "data:", buf, sizeof buf, 3000));
    cr_expect_gt(kvr_harness_shadow_total(&h), 0);
    close(fd);
    cr_expect(kvr_test_wait_until(engine0_aborted, NULL, 10000),
              "the engine's request must be aborted too");
    cr_expect_eq(kvr_fake_aborted(h.fleet, 0), 1);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_client_aborts_total"), 1);
    cr_expect_eq(kvr_fake_requests(h.fleet, -1), 1, "nothing is sent again for a client that left");
}

/* Asserts that body (raw chunked bytes) is a stream cut before its last chunk, ending in an error event. */
static void expect_cut_with_error_event(char *body)
{
    cr_expect_lt(kvr_harness_dechunk(body), 0,
                 "a cut stream must not end with the terminating chunk");
    cr_expect_not_null(strstr(body, "data: {\"error\":{"),
                       "an SSE error event tells the client: %s", body);
    cr_expect_null(strstr(body, "[DONE]"));
}

Test(proxy, engine_crash_mid_stream_sends_an_error_event_and_cuts_the_stream)
{
    kvr_harness_start(&h, 1, NULL);
    char *resp;
    cr_assert_eq(post("X-Fake: chunks=10,interval_ms=10,cut=2\r\n", chat_stream, &resp), 200);
    char *body = (char *)kvr_test_http_body(resp);
    cr_expect_not_null(strstr(body, "\"n\":1"));
    cr_expect_null(strstr(body, "\"n\":2"));
    expect_cut_with_error_event(body);
    cr_expect_not_null(strstr(body, "\"type\":\"server_error\""));
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_upstream_cut_total"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_in_flight"), 0);
    /* the connection was the client's only; the router still serves */
    cr_assert_eq(post(NULL, chat, &resp), 200);
    free(resp);
}

Test(proxy, interim_100_continue_is_skipped_and_the_final_answer_reaches_the_client)
{
    static const char reply[] =
        "HTTP/1.1 100 Continue\r\n\r\n"
        "HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n"
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n"
        "Connection: close\r\n\r\n{\"final\":true}\n";
    kvr_raw_engine_t *raw = kvr_raw_engine_start(reply);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_raw_engine_port(raw));
    const char *extra[] = {"--engine", url, NULL};
    kvr_harness_start(&h, 0, extra);
    char *resp;
    int status = post(NULL, chat, &resp);
    kvr_raw_engine_stop(raw);
    cr_assert_eq(status, 200, "the interim head is not the answer: %s", resp);
    cr_expect_str_eq(kvr_test_http_body(resp), "{\"final\":true}\n");
    cr_expect_null(strstr(resp, "100 Continue"), "nothing of the interim heads reaches the client");
    cr_expect_null(strstr(resp, "Link:"));
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, an_upstream_101_is_a_protocol_error_not_an_answer)
{
    static const char reply[] =
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        "not http any more";
    kvr_raw_engine_t *raw = kvr_raw_engine_start(reply);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_raw_engine_port(raw));
    const char *extra[] = {"--engine", url, "--health-interval-ms", "600000", NULL};
    kvr_harness_start(&h, 0, extra);
    char *resp;
    int status = post(NULL, chat, &resp);
    kvr_raw_engine_stop(raw);
    cr_expect_eq(status, 502, "a protocol switch nobody asked for: %s", resp);
    cr_expect_null(strstr(resp, "not http"));
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, retries_after_5xx_and_refused_connect_before_any_byte)
{
    /* failure table: retried */
    uint16_t dead = kvr_test_free_port();
    char dead_url[64];
    snprintf(dead_url, sizeof dead_url, "http://127.0.0.1:%u", dead);
    const char *extra[] = {
        "--policy", "round_robin",          "--engine", dead_url,           "--retries",
        "2",        "--health-interval-ms", "60000",    "--fail-threshold", "100",
        NULL};
    kvr_harness_start(&h, 2, extra);
    kvr_fake_force(h.fleet, 0, "status=503");
    expect_answers_from(1, 6);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_retries_total{cause=\"status_5xx\"}"), 0);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_retries_total{cause=\"connect\"}"), 0);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    /* with no other engine left, the engine's own 5xx reaches the client */
    kvr_fake_force(h.fleet, 1, "status=500");
    char *resp;
    int status = post(NULL, chat, &resp);
    cr_expect(status == 500 || status == 503 || status == 502, "got %d", status);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"error\""));
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, an_attempt_that_cannot_start_is_retried_on_the_next_engine)
{
    /* failure table: retried */
    /* A multicast address: connect() fails at once (ENETUNREACH), the upstream request never starts. */
    const char *extra[] = {"--policy",
                           "round_robin",
                           "--engine",
                           "http://224.0.0.1:9",
                           "--health-interval-ms",
                           "60000",
                           "--fail-threshold",
                           "100",
                           NULL};
    kvr_harness_start(&h, 1, extra);
    expect_answers_from(0, 4);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_retries_total{cause=\"connect\"}"), 0);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, an_engine_closing_without_an_answer_is_retried_elsewhere)
{
    /* failure table: retried */
    const char *extra[] = {"--policy", "round_robin",      "--health-interval-ms",
                           "60000",    "--fail-threshold", "100",
                           NULL};
    kvr_harness_start(&h, 2, extra);
    kvr_fake_force(h.fleet, 0, "drop=1");
    expect_answers_from(1, 4);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_retries_total{cause=\"reset\"}"), 0);
    /* with no engine left that answers, the client is told */
    kvr_fake_force(h.fleet, 1, "drop=1");
    char *resp;
    cr_expect_eq(post(NULL, chat, &resp), 502);
    cr_expect_not_null(
        strstr(kvr_test_http_body(resp), "the engine closed the connection without an answer"),
        "%s", resp);
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, dead_engine_leaves_the_candidate_set_and_returns)
{
    const char *extra[] = {"--fail-threshold", "1", NULL};
    kvr_harness_start(&h, 2, extra);
    char *resp;
    kvr_fake_force(h.fleet, 0, "status=503");
    /* 5xx answers take engine 0 out; health checks (200) bring it back */
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(post(NULL, chat, &resp), 200);
        free(resp);
    }
    char sample[128];
    snprintf(sample, sizeof sample, "kvroute_engine_failures_total{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    cr_expect_gt(kvr_harness_metric(&h, sample), 0);
    kvr_fake_force(h.fleet, 0, "");
    snprintf(sample, sizeof sample, "kvroute_engine_healthy{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    /* health checks every 200 ms bring it back */
    cr_assert(kvr_harness_wait_metric(&h, sample, 1, 10000), "engine 0 never healthy again");
    unsigned before = kvr_fake_requests(h.fleet, 0);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(post(NULL, chat, &resp), 200);
        free(resp);
    }
    cr_expect_gt(kvr_fake_requests(h.fleet, 0), before, "a recovered engine is routed to again");
}

Test(proxy, first_byte_and_idle_timeouts)
{
    const char *extra[] = {"--first-byte-timeout-ms", "300", "--idle-timeout-ms", "300", NULL};
    kvr_harness_start(&h, 1, extra);
    char *resp;
    cr_assert_eq(post("X-Fake: hang=1\r\n", chat, &resp), 504);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"code\":\"timeout\""));
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    cr_expect(kvr_test_wait_until(engine0_aborted, NULL, 10000),
              "the timed-out request was not aborted upstream");
    cr_expect_eq(kvr_fake_aborted(h.fleet, 0), 1);

    cr_assert_eq(post("X-Fake: chunks=3,interval_ms=1000\r\n", chat_stream, &resp), 200);
    char *body = (char *)kvr_test_http_body(resp);
    cr_expect_not_null(strstr(body, "\"n\":0"));
    expect_cut_with_error_event(body);
    cr_expect_not_null(strstr(body, "\"code\":\"timeout\""),
                       "a stalled stream's error event says timeout: %s", body);
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_upstream_timeouts_total{kind=\"first_byte\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_upstream_timeouts_total{kind=\"idle\"}"), 1);
}

Test(proxy, bad_input_gets_its_status)
{
    const char *extra[] = {"--max-body-bytes",
                           "2048",
                           "--max-header-bytes",
                           "2048",
                           "--request-timeout-ms",
                           "300",
                           NULL};
    kvr_harness_start(&h, 1, extra);
    char *resp;
    cr_expect_eq(post(NULL, "{\"messages\": [", &resp), 400);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"invalid_request_error\""));
    free(resp);
    cr_expect_eq(kvr_test_http(h.port, "GET", "/v1/chat/completions", NULL, NULL, &resp, 3000),
                 405);
    free(resp);
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v2/nothing", NULL, chat, &resp, 3000), 404);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"error\""));
    free(resp);
    char *big = malloc(4096);
    memset(big, 'a', 4095);
    big[4095] = '\0';
    cr_expect_eq(post(NULL, big, &resp), 413);
    free(resp);
    char headers[4096];
    snprintf(headers, sizeof headers, "X-Big: %.3000s\r\n", big);
    cr_expect_eq(post(headers, chat, &resp), 431);
    free(resp);
    free(big);
    /* a slow client: half a request, then nothing */
    int fd = connect_router();
    const char partial[] =
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"mess";
    cr_assert_eq(write(fd, partial, sizeof partial - 1), (ssize_t)sizeof partial - 1);
    char buf[2048];
    cr_expect(read_until(fd, "408", buf, sizeof buf, 3000), "a slow client gets 408");
    close(fd);
    cr_expect_eq(kvr_fake_requests(h.fleet, -1), 0, "nothing bad reached the engine");
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    cr_expect_eq(kvr_test_http(h.port, "GET", "/health", NULL, NULL, &resp, 3000), 200);
    free(resp);
}

/* True once the router closed fd (EOF or reset); false only if nothing happens in 10 s. */
static bool closed_by_router(int fd)
{
    char buf[512];
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (poll(&p, 1, 10000) > 0) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n <= 0)
            return true;
    }
    return false;
}

Test(proxy, upgrade_request_then_a_byte_and_idle_clients)
{
    const char *extra[] = {"--client-idle-timeout-ms", "300", NULL};
    kvr_harness_start(&h, 1, extra);
    int fd = connect_router();
    const char upgrade[] =
        "GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n";
    cr_assert_eq(write(fd, upgrade, sizeof upgrade - 1), (ssize_t)sizeof upgrade - 1);
    char buf[2048];
    cr_expect(read_until(fd, "HTTP/1.1 200", buf, sizeof buf, 3000), "answered as plain HTTP/1.1");
    cr_assert_eq(write(fd, "G", 1), 1);
    close(fd);
    char *resp;
    cr_expect_eq(kvr_test_http(h.port, "GET", "/health", NULL, NULL, &resp, 3000), 200,
                 "the router survived the byte after an Upgrade request");
    free(resp);

    int silent = connect_router();
    cr_expect(closed_by_router(silent), "a connection that never sends is closed");
    close(silent);
    int idle = connect_router();
    const char health[] = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
    cr_assert_eq(write(idle, health, sizeof health - 1), (ssize_t)sizeof health - 1);
    cr_expect(read_until(idle, "\r\n\r\n", buf, sizeof buf, 3000));
    cr_expect(closed_by_router(idle), "a keep-alive connection idle after its request is closed");
    close(idle);
}

Test(proxy, models_are_the_union_of_the_engines)
{
    kvr_harness_start(&h, 2, NULL);
    kvr_fake_set_models(h.fleet, 0, "m-0,shared");
    kvr_fake_set_models(h.fleet, 1, "shared,m-1");
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 3000), 200);
    const char *body = kvr_test_http_body(resp);
    cr_expect_not_null(strstr(body, "\"m-0\""));
    cr_expect_not_null(strstr(body, "\"m-1\""));
    const char *first = strstr(body, "\"shared\"");
    cr_expect(first && !strstr(first + 1, "\"shared\""),
              "a model two engines serve is listed once");
    free(resp);
}

static const char *const info_log[] = {"--log-level", "info", NULL};

/* A streamed chat request to the fake engine (X-Fake: fake), read up to its first event into buf. */
static int open_stream(const char *fake, char *buf, size_t cap)
{
    int fd = connect_router();
    char req[512];
    int n = snprintf(req, sizeof req,
                     "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nX-Fake: %s\r\n"
                     "Content-Length: %zu\r\n\r\n%s",
                     fake, strlen(chat_stream), chat_stream);
    cr_assert_eq(write(fd, req, (size_t)n), n);
    cr_assert(read_until(fd, "data:", buf, cap, 3000));
    return fd;
}

Test(proxy, sigterm_drains_in_flight_requests_then_exits)
{
    kvr_harness_start(&h, 1, info_log);
    char buf[16384];
    int fd = open_stream("chunks=10,interval_ms=50", buf, sizeof buf);
    kill(h.pid, SIGTERM);
    cr_expect(read_until(fd, "[DONE]", buf + strlen(buf), sizeof buf - strlen(buf), 5000),
              "the in-flight stream finishes after SIGTERM");
    close(fd);
    /* Drained, it exits by itself: a second signal would mean "exit now". */
    int status = kvr_test_wait_exit(h.pid, 10000);
    h.pid = 0;
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    cr_expect(kvr_test_file_contains(h.log_path, "shutdown why=drained"), "see %s", h.log_path);
}

/* A stream a shutdown ended: read to its close; it ends in the shutdown's error event, cut. */
static void expect_shutdown_cut(int fd, char *buf, size_t cap)
{
    size_t len = strlen(buf);
    cr_expect_not(read_until(fd, "[DONE]", buf + len, cap - len, 10000),
                  "the stream in flight was cut");
    char *body = strstr(buf, "\r\n\r\n");
    cr_assert_not_null(body, "%s", buf);
    body += 4;
    cr_expect_not_null(strstr(body, "\"message\":\"the router is shutting down\""), "%s", body);
    expect_cut_with_error_event(body);
}

Test(proxy, second_sigterm_while_draining_exits_at_once)
{
    kvr_harness_start(&h, 1, info_log);
    char buf[65536];
    int fd = open_stream("chunks=1000,interval_ms=20", buf, sizeof buf);
    kill(h.pid, SIGTERM);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "draining signal=SIGTERM", 10000), "see %s",
              h.log_path);
    cr_assert(kvr_test_alive(h.pid), "the first SIGTERM drains, it does not exit");
    kill(h.pid, SIGTERM);
    /* The 20 s stream is cut: the router exits long before it would end. */
    int status = kvr_test_wait_exit(h.pid, 10000);
    h.pid = 0;
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    cr_expect(kvr_test_file_contains(h.log_path, "shutdown why=second_signal"), "see %s",
              h.log_path);
    expect_shutdown_cut(fd, buf, sizeof buf);
    close(fd);
}

/* --drain-timeout-s passes with a stream still going: the client is told, then the body is cut. */
Test(proxy, drain_timeout_ends_a_stream_with_an_error_event)
{
    /* failure table: not retried */
    const char *extra[] = {"--log-level", "info", "--drain-timeout-s", "1", NULL};
    kvr_harness_start(&h, 1, extra);
    char buf[65536];
    int fd = open_stream("chunks=1000,interval_ms=20", buf, sizeof buf);
    kill(h.pid, SIGTERM);
    expect_shutdown_cut(fd, buf, sizeof buf);
    close(fd);
    int status = kvr_test_wait_exit(h.pid, 10000);
    h.pid = 0;
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    cr_expect(kvr_test_file_contains(h.log_path, "shutdown why=drain_timeout"), "see %s",
              h.log_path);
    cr_expect(kvr_test_file_contains(h.log_path, "shutdown_cut requests=1"), "see %s", h.log_path);
}

Test(proxy, admin_adds_and_removes_engines_behind_the_token)
{
    const char *extra[] = {"--admin-token", "s3cret", NULL};
    kvr_harness_start(&h, 2, extra);
    char *resp;
    char body[128];
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%u\"}", kvr_fake_port(h.fleet, 1));
    cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", NULL, body, &resp, 3000), 401);
    free(resp);
    cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                               body, &resp, 3000),
                 409, "already there");
    free(resp);
    char path[128];
    snprintf(path, sizeof path, "/engines/http%%3A%%2F%%2F127.0.0.1%%3A%u",
             kvr_fake_port(h.fleet, 1));
    cr_expect_eq(kvr_test_http(h.admin_port, "DELETE", path, NULL, NULL, &resp, 3000), 401);
    free(resp);
    cr_expect_eq(kvr_test_http(h.admin_port, "DELETE", path, "Authorization: Bearer s3cret\r\n",
                               NULL, &resp, 3000),
                 200);
    free(resp);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(post(NULL, chat, &resp), 200);
        free(resp);
    }
    cr_expect_eq(kvr_fake_requests(h.fleet, 1), 0, "a removed engine gets nothing");
    cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                               body, &resp, 3000),
                 201);
    free(resp);
    cr_expect_eq(kvr_test_http(h.admin_port, "DELETE", "/engines/http%3A%2F%2Fnope",
                               "Authorization: Bearer s3cret\r\n", NULL, &resp, 3000),
                 404);
    free(resp);
}

Test(proxy, sighup_reloads_the_engine_list)
{
    char cfg_path[128];
    kvr_test_unique_name(cfg_path, sizeof cfg_path, "/tmp/kvroute-test-cfg");
    kvr_fake_fleet_t *fleet = kvr_fake_start(2);
    FILE *f = fopen(cfg_path, "w");
    fprintf(f, "# engines\nengine http://127.0.0.1:%u\npolicy round_robin\n",
            kvr_fake_port(fleet, 0));
    fclose(f);
    const char *extra[] = {"--config", cfg_path, NULL};
    kvr_harness_start(&h, 0, extra);
    h.fleet = fleet;
    char *resp;
    cr_assert_eq(post(NULL, chat, &resp), 200);
    free(resp);
    f = fopen(cfg_path, "w");
    fprintf(f, "engine http://127.0.0.1:%u\n", kvr_fake_port(fleet, 1));
    fclose(f);
    kill(h.pid, SIGHUP);
    char gone[96];
    snprintf(gone, sizeof gone, "kvroute_engine_healthy{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(fleet, 1));
    cr_assert(kvr_harness_wait_metric(&h, gone, 1, 10000),
              "the reloaded engine never showed up healthy");
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(post(NULL, chat, &resp), 200);
        free(resp);
    }
    cr_expect_eq(kvr_fake_requests(fleet, 0), 1);
    cr_expect_eq(kvr_fake_requests(fleet, 1), 3);
    unlink(cfg_path);
}

Test(proxy, metrics_pass_promtool_and_es0_reconciles_against_engine_metrics)
{
    const char *extra[] = {"--reconcile-s", "1", NULL};
    kvr_harness_start(&h, 2, extra);
    char *resp;
    cr_assert_eq(post("X-Fake: chunks=2\r\n", chat_stream, &resp), 200);
    free(resp);
    cr_assert_eq(post("X-Fake: status=400\r\n", chat, &resp), 400);
    free(resp);
    /* --reconcile-s 1: two runs take about 2 s; the deadline is a safety net. */
    cr_assert(kvr_harness_wait_metric_reach(&h, "kvroute_reconcile_runs_total", 2, 20000),
              "reconcile ran %g times", kvr_harness_metric(&h, "kvroute_reconcile_runs_total"));
    char sample[128];
    snprintf(sample, sizeof sample,
             "kvroute_engine_reconcile_drift{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    cr_expect_eq(kvr_harness_metric(&h, sample), 0,
                 "nothing in flight, the engine says 0: no drift");
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_requests_total{status=\"400\"}"), 1);
    if (system("command -v promtool >/dev/null 2>&1") != 0)
        cr_skip_test("promtool missing: apt-get install prometheus");
    cr_assert_eq(kvr_test_http(h.admin_port, "GET", "/metrics", NULL, NULL, &resp, 3000), 200);
    char path[128];
    kvr_test_unique_name(path, sizeof path, "/tmp/kvroute-test-metrics");
    FILE *f = fopen(path, "w");
    fputs(kvr_test_http_body(resp), f);
    fclose(f);
    free(resp);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "promtool check metrics < %s >/dev/null 2>&1", path);
    int rc = system(cmd);
    unlink(path);
    cr_expect_eq(rc, 0, "promtool check metrics rejects /metrics");
}

Test(proxy, a_large_body_reaches_the_engine_byte_for_byte)
{
    kvr_harness_start(&h, 1, NULL);
    /* an agentic prompt: 600 KB of text with escapes, unicode and odd spacing */
    size_t cap = 700 * 1024, n = 0;
    char *body = malloc(cap);
    n += (size_t)snprintf(body + n, cap - n,
                          "{ \"messages\" : [ {\"role\":\"system\",\"content\":\"");
    while (n < 600 * 1024)
        n += (size_t)snprintf(body + n, cap - n,
                              "caf\\u00e9 \\\"quoted\\\" tab\\t \xc3\xa9t\xc3\xa9 %zu ", n);
    n += (size_t)snprintf(body + n, cap - n, "\"}],\n \"stream\": false }\n");
    uint64_t want = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        want = (want ^ (unsigned char)body[i]) * 1099511628211ull;
    char *resp;
    cr_assert_eq(post("X-Fake: echo=1\r\n", body, &resp), 200);
    char expect[128];
    snprintf(expect, sizeof expect, "{\"len\":%zu,\"fnv\":\"%016llx\"}", n,
             (unsigned long long)want);
    cr_expect_str_eq(kvr_test_http_body(resp), expect);
    free(resp);
    free(body);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(proxy, client_leaving_while_a_large_body_is_parsed_off_the_loop)
{
    kvr_harness_start(&h, 1, NULL);
    size_t n = 6u << 20;
    char *body = malloc(n + 64);
    size_t len = (size_t)snprintf(body, 64, "{\"messages\":[{\"role\":\"user\",\"content\":\"");
    memset(body + len, 'x', n - len - 8);
    len = n - 8;
    len += (size_t)snprintf(body + len, 64, "\"}]}");
    for (int round = 0; round < 3; round++) {
        int fd = connect_router();
        char head[256];
        int hn = snprintf(head, sizeof head,
                          "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                          "X-Fake: chunks=50,interval_ms=20\r\nContent-Length: %zu\r\n\r\n",
                          len);
        cr_assert_eq(write(fd, head, (size_t)hn), hn);
        size_t off = 0;
        while (off < len) {
            ssize_t w = write(fd, body + off, len - off);
            cr_assert_gt(w, 0);
            off += (size_t)w;
        }
        close(fd); /* gone while the router parses (or just after) */
    }
    free(body);
    /*
     * The router may still be reading the last body when the test gets
     * here: in_flight is 0 before that request exists. Each one counts its
     * abort once it was read whole and its client's close seen.
     */
    cr_expect(kvr_harness_wait_metric_reach(&h, "kvroute_client_aborts_total", 3, 20000),
              "the three clients' aborts were never counted");
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    cr_expect(kvr_harness_wait_metric(&h, "kvroute_in_flight", 0, 10000),
              "requests left in flight");
    /* Exactly one abort per client; read through the wait, which retries a /metrics
     * fetch that a loaded machine let time out instead of reading it as a count. */
    cr_expect(kvr_harness_wait_metric(&h, "kvroute_client_aborts_total", 3, 10000),
              "aborts %g, not 3", kvr_harness_metric(&h, "kvroute_client_aborts_total"));
    char *resp;
    cr_expect_eq(post(NULL, chat, &resp), 200, "kvroute still serves");
    free(resp);
}

static bool one_held(void *arg)
{
    return kvr_fake_held(arg) >= 1;
}

static void *post_in_thread(void *arg)
{
    burst_arg_t *b = arg;
    char *resp = NULL;
    b->status = kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, chat, &resp, 15000);
    if (!resp || !kvr_harness_header(resp, "X-Kvroute-Engine", b->engine, sizeof b->engine))
        b->engine[0] = '\0';
    free(resp);
    return NULL;
}

/*
 * A retry excludes the engines it tried by handle: the index of an engine tried, freed while
 * the next attempt was in flight and given to a new engine, does not keep the new one out.
 */
Test(proxy, a_retry_does_not_exclude_a_new_engine_on_a_tried_index)
{
    kvr_fake_fleet_t *fleet = kvr_fake_start(3);
    cr_assert_not_null(fleet);
    const char *extra[] = {"--policy",
                           "round_robin",
                           "--retries",
                           "2",
                           "--admin-token",
                           "s3cret",
                           "--health-interval-ms",
                           "60000",
                           "--fail-threshold",
                           "100",
                           NULL};
    kvr_harness_start_router(&h, fleet, 2, extra); /* engines 0 and 1; engine 2 joins later */
    /* Round robin: once engine 1 answered, the next request goes to engine 0 first. */
    char one[64];
    snprintf(one, sizeof one, "http://127.0.0.1:%u", kvr_fake_port(fleet, 1));
    for (int k = 0;; k++) {
        cr_assert_lt(k, 4, "engine 1 answered none of 4 requests");
        char *warm = NULL, v[64];
        cr_assert_eq(post(NULL, chat, &warm), 200);
        bool from_one = strcmp(kvr_harness_header(warm, "X-Kvroute-Engine", v, sizeof v), one) == 0;
        free(warm);
        if (from_one)
            break;
    }
    unsigned before0 = kvr_fake_requests(fleet, 0);
    kvr_fake_force(fleet, 0, "status=503");
    kvr_fake_force(fleet, 1, "hold=1,status=503");
    burst_arg_t b = {0};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, post_in_thread, &b), 0);
    cr_assert(kvr_test_wait_until(one_held, fleet, 10000), "engine 1 holds no request");
    cr_assert_eq(kvr_fake_requests(fleet, 0), before0 + 1, "engine 0 was not tried first");
    /* Engine 0 leaves (nothing in flight: its index is freed), engine 2 takes its index. */
    char path[128], body[128], *resp = NULL;
    snprintf(path, sizeof path, "/engines/http%%3A%%2F%%2F127.0.0.1%%3A%u",
             kvr_fake_port(fleet, 0));
    cr_assert_eq(kvr_test_http(h.admin_port, "DELETE", path, "Authorization: Bearer s3cret\r\n",
                               NULL, &resp, 3000),
                 200);
    free(resp);
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%u\"}", kvr_fake_port(fleet, 2));
    cr_assert_eq(kvr_test_http(h.admin_port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                               body, &resp, 3000),
                 201);
    free(resp);
    /* Engine 1 answers 503: the retry goes to engine 2. */
    kvr_fake_release(fleet);
    pthread_join(t, NULL);
    char want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%u", kvr_fake_port(fleet, 2));
    cr_expect_eq(b.status, 200, "the retry found no engine");
    cr_expect_str_eq(b.engine, want);
    cr_expect_eq(kvr_fake_requests(fleet, 2), 1);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
    kvr_harness_stop(&h);
    kvr_fake_stop(fleet);
}
