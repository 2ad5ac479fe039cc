/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The upstream client on its own loop against raw engines: interim heads,
 * a connect that completed while the loop was busy (not a timeout), and an
 * engine that really is silent (a timeout). Each test ends with every
 * handle closed and uv_loop_close() == 0.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <uv.h>

#include "router/upstream.h"
#include "tests/router/fake_engine.h"

typedef struct result_s {
    int ends;
    int status;
    kvr_upstream_phase_t phase;
    int head_status;
    int heads;
    char body[256];
    size_t body_len;
} result_t;

static void on_head(void *arg, int status, const kvr_http_header_t *headers, size_t n, int64_t content_length)
{
    result_t *r = arg;
    (void)headers;
    (void)n;
    (void)content_length;
    r->heads++;
    r->head_status = status;
}

static void on_data(void *arg, const char *data, size_t len)
{
    result_t *r = arg;
    if (r->body_len + len < sizeof r->body) {
        memcpy(r->body + r->body_len, data, len);
        r->body_len += len;
        r->body[r->body_len] = '\0';
    }
}

static void on_end(void *arg, int status, kvr_upstream_phase_t phase)
{
    result_t *r = arg;
    r->ends++;
    r->status = status;
    r->phase = phase;
}

static const kvr_upstream_cbs_t cbs = {on_head, on_data, on_end, NULL};

typedef struct fixture_s {
    uv_loop_t loop;
    kvr_upstream_pool_t *pool;
    kvr_raw_engine_t *engine;
    kvr_upstream_timeouts_t timeouts;
    kvr_upstream_t *up;
    result_t result;
    uv_check_t start;          /* runs after the loop's I/O phase: the next thing the loop does is run timers */
    uv_idle_t keep_polling;    /* an idle handle makes that I/O phase poll without blocking */
    bool stall_loop;           /* block the loop after starting the request until the connect completed */
} fixture_t;

static void setup(fixture_t *f, const char *reply)
{
    memset(f, 0, sizeof *f);
    cr_assert_eq(uv_loop_init(&f->loop), 0);
    f->engine = kvr_raw_engine_start(reply);
    struct sockaddr_in a;
    uv_ip4_addr("127.0.0.1", kvr_raw_engine_port(f->engine), &a);
    cr_assert_eq(kvr_upstream_pool_create(&f->loop, (const struct sockaddr *)&a, sizeof a, "engine", 4, NULL, &f->pool), 0);
    f->timeouts = (kvr_upstream_timeouts_t){.connect_ms = 2000, .first_byte_ms = 2000, .idle_ms = 2000};
}

static void on_start(uv_check_t *t)
{
    fixture_t *f = t->data;
    uv_check_stop(t);
    uv_idle_stop(&f->keep_polling);
    static const char body[] = "{\"prompt\":\"x\"}";
    cr_assert_eq(kvr_upstream_request(f->pool, "POST", "/v1/completions", NULL, 0, body, sizeof body - 1,
                                      &f->timeouts, &cbs, &f->result, &f->up), 0);
    if (!f->stall_loop)
        return;
    /*
     * The loop is busy (as with thousands of requests taken in at once) until
     * the kernel completed the connect and the connect timeout is overdue:
     * the loop's next iteration runs its timers before its I/O.
     */
    uint64_t deadline = uv_hrtime() + 3 * f->timeouts.connect_ms * 1000000u;
    uint64_t give_up = uv_hrtime() + 5000000000u;
    while ((kvr_raw_engine_accepted(f->engine) < 1 || uv_hrtime() < deadline) && uv_hrtime() < give_up)
        ;
    cr_assert_geq(kvr_raw_engine_accepted(f->engine), 1, "the engine never accepted the connection");
}

static void on_idle(uv_idle_t *idle)
{
    (void)idle;
}

static void run(fixture_t *f)
{
    uv_check_init(&f->loop, &f->start);
    f->start.data = f;
    uv_check_start(&f->start, on_start);
    uv_idle_init(&f->loop, &f->keep_polling);
    uv_idle_start(&f->keep_polling, on_idle);
    uv_run(&f->loop, UV_RUN_DEFAULT); /* ends when the request ended and its connection closed */
}

static void teardown_fixture(fixture_t *f)
{
    uv_close((uv_handle_t *)&f->start, NULL);
    uv_close((uv_handle_t *)&f->keep_polling, NULL);
    kvr_upstream_pool_destroy(f->pool);
    uv_run(&f->loop, UV_RUN_DEFAULT);
    cr_expect_eq(uv_loop_close(&f->loop), 0, "every handle is closed");
    kvr_raw_engine_stop(f->engine);
}

static const char ok_reply[] = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\ndone";

Test(upstream, interim_heads_are_skipped, .timeout = 10.)
{
    static fixture_t f;
    setup(&f, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
              "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n"
              "HTTP/1.1 201 Created\r\nContent-Length: 4\r\nConnection: close\r\n\r\ndone");
    run(&f);
    cr_expect_eq(f.result.ends, 1);
    cr_expect_eq(f.result.status, 0);
    cr_expect_eq(f.result.heads, 1, "only the final head is handed over");
    cr_expect_eq(f.result.head_status, 201);
    cr_expect_str_eq(f.result.body, "done");
    teardown_fixture(&f);
}

Test(upstream, a_switch_of_protocols_is_a_protocol_error, .timeout = 10.)
{
    static fixture_t f;
    setup(&f, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\nxx");
    run(&f);
    cr_expect_eq(f.result.ends, 1);
    cr_expect_eq(f.result.status, -EPROTO);
    cr_expect_eq(f.result.heads, 0);
    teardown_fixture(&f);
}

Test(upstream, a_connect_done_while_the_loop_was_busy_is_not_a_timeout, .timeout = 10.)
{
    static fixture_t f;
    setup(&f, ok_reply);
    f.timeouts.connect_ms = 20;
    f.stall_loop = true;
    run(&f);
    cr_expect_eq(f.result.ends, 1);
    cr_expect_eq(f.result.status, 0, "the connect completed in time: %s", strerror(-f.result.status));
    cr_expect_eq(f.result.head_status, 200);
    teardown_fixture(&f);
}

Test(upstream, a_silent_engine_still_times_out, .timeout = 10.)
{
    static fixture_t f;
    setup(&f, NULL);
    f.timeouts.first_byte_ms = 50;
    run(&f);
    cr_expect_eq(f.result.ends, 1);
    cr_expect_eq(f.result.status, -ETIMEDOUT);
    cr_expect_eq(f.result.phase, KVR_UPSTREAM_WAIT);
    cr_expect_eq(kvr_raw_engine_requests(f.engine), 1, "the engine had the request");
    teardown_fixture(&f);
}
