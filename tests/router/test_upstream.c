/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The upstream client on its own loop against raw and scripted engines:
 * interim heads, a connect that completed while the loop was busy (not a
 * timeout), an engine that really is silent (a timeout), keep-alive reuse,
 * the idle limit, and an idle connection the engine closed. Each test ends
 * with every handle closed and uv_loop_close() == 0.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <uv.h>

#include "router/upstream.h"
#include "tests/support/fake_engine.h"

typedef struct result_s {
    int ends;
    int status;
    kvr_upstream_phase_t phase;
    int head_status;
    int heads;
    char body[256];
    size_t body_len;
} result_t;

static void on_head(void *arg, int status, const kvr_http_header_t *headers, size_t n,
                    int64_t content_length)
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
    uv_check_t
        start; /* runs after the loop's I/O phase: the next thing the loop does is run timers */
    uv_idle_t keep_polling; /* an idle handle makes that I/O phase poll without blocking */
    bool stall_loop; /* block the loop after starting the request until the connect completed */
} fixture_t;

static void setup(fixture_t *f, const char *reply)
{
    memset(f, 0, sizeof *f);
    cr_assert_eq(uv_loop_init(&f->loop), 0);
    f->engine = kvr_raw_engine_start(reply);
    struct sockaddr_in a;
    uv_ip4_addr("127.0.0.1", kvr_raw_engine_port(f->engine), &a);
    cr_assert_eq(kvr_upstream_pool_create(&f->loop, (const struct sockaddr *)&a, sizeof a, "engine",
                                          4, NULL, &f->pool),
                 0);
    f->timeouts = (kvr_upstream_timeouts_t){
        .connect_ms = 2000, .first_byte_ms = 2000, .idle_ms = 2000};
}

static void on_start(uv_check_t *t)
{
    fixture_t *f = t->data;
    uv_check_stop(t);
    uv_idle_stop(&f->keep_polling);
    static const char body[] = "{\"prompt\":\"x\"}";
    cr_assert_eq(kvr_upstream_request(f->pool, "POST", "/v1/completions", NULL, 0, body,
                                      sizeof body - 1, &f->timeouts, &cbs, &f->result, &f->up),
                 0);
    if (!f->stall_loop)
        return;
    /*
     * The loop is busy (as with thousands of requests taken in at once) until
     * the kernel completed the connect and the connect timeout is overdue:
     * the loop's next iteration runs its timers before its I/O.
     */
    uint64_t deadline = uv_hrtime() + 3 * f->timeouts.connect_ms * 1000000u;
    uint64_t give_up = uv_hrtime() + 5000000000u;
    while ((kvr_raw_engine_accepted(f->engine) < 1 || uv_hrtime() < deadline) &&
           uv_hrtime() < give_up)
        ;
    cr_assert_geq(kvr_raw_engine_accepted(f->engine), 1,
                  "the engine never accepted the connection");
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

static const char ok_reply[] =
    "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\ndone";

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
    cr_expect_eq(f.result.status, 0, "the connect completed in time: %s",
                 strerror(-f.result.status));
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

/* ---- the pool against a scripted keep-alive engine ----------------------- */

typedef struct pool_fixture_s {
    uv_loop_t loop;
    kvr_fake_fleet_t *fleet;
    kvr_upstream_pool_t *pool;
    kvr_upstream_timeouts_t timeouts;
} pool_fixture_t;

static void pool_setup(pool_fixture_t *p, uint32_t max_idle)
{
    memset(p, 0, sizeof *p);
    cr_assert_eq(uv_loop_init(&p->loop), 0);
    p->fleet = kvr_fake_start(1);
    struct sockaddr_in a;
    uv_ip4_addr("127.0.0.1", kvr_fake_port(p->fleet, 0), &a);
    cr_assert_eq(kvr_upstream_pool_create(&p->loop, (const struct sockaddr *)&a, sizeof a, "engine",
                                          max_idle, NULL, &p->pool),
                 0);
    p->timeouts = (kvr_upstream_timeouts_t){
        .connect_ms = 5000, .first_byte_ms = 5000, .idle_ms = 5000};
}

static void pool_teardown(pool_fixture_t *p)
{
    kvr_upstream_pool_destroy(p->pool);
    uv_run(&p->loop, UV_RUN_DEFAULT);
    cr_expect_eq(uv_loop_close(&p->loop), 0, "every handle is closed");
    kvr_fake_stop(p->fleet);
}

static void pool_start(pool_fixture_t *p, result_t *r)
{
    static const char body[] = "{\"prompt\":\"x\"}";
    kvr_upstream_t *up;
    memset(r, 0, sizeof *r);
    cr_assert_eq(kvr_upstream_request(p->pool, "POST", "/v1/completions", NULL, 0, body,
                                      sizeof body - 1, &p->timeouts, &cbs, r, &up),
                 0);
}

/* Runs the loop until every result in rs has ended (the pooled connections keep it alive). */
static void pool_wait(pool_fixture_t *p, result_t *rs, int n)
{
    for (int i = 0; i < n; i++)
        while (rs[i].ends == 0)
            uv_run(&p->loop, UV_RUN_ONCE);
    for (int i = 0; i < n; i++) {
        cr_assert_eq(rs[i].status, 0, "request %d ended with %d", i, rs[i].status);
        cr_expect_eq(rs[i].head_status, 200);
    }
}

static uint32_t pool_idle(const pool_fixture_t *p)
{
    uint32_t idle, busy;
    kvr_upstream_pool_stats(p->pool, &idle, &busy);
    cr_expect_eq(busy, 0, "no request in flight, yet %u connections busy", busy);
    return idle;
}

Test(upstream, a_keep_alive_connection_is_reused, .timeout = 10.)
{
    pool_fixture_t p;
    pool_setup(&p, 4);
    result_t r;
    for (int i = 0; i < 3; i++) {
        pool_start(&p, &r);
        pool_wait(&p, &r, 1);
        cr_expect_eq(pool_idle(&p), 1, "the connection went back to the pool");
    }
    cr_expect_eq(kvr_fake_connections(p.fleet, 0), 1, "three requests, one connection");
    cr_expect_eq(kvr_fake_requests(p.fleet, 0), 3);
    pool_teardown(&p);
}

Test(upstream, the_pool_keeps_at_most_max_idle_connections, .timeout = 10.)
{
    pool_fixture_t p;
    pool_setup(&p, 1);
    result_t r[3];
    for (int i = 0; i < 3; i++)
        pool_start(&p, &r[i]); /* all at once: one connection each */
    pool_wait(&p, r, 3);
    cr_expect_eq(kvr_fake_connections(p.fleet, 0), 3);
    cr_expect_eq(pool_idle(&p), 1, "connections past max_idle are closed, not kept");
    pool_teardown(&p);
}

Test(upstream, an_idle_connection_the_engine_closed_is_forgotten, .timeout = 10.)
{
    pool_fixture_t p;
    pool_setup(&p, 4);
    result_t r;
    pool_start(&p, &r);
    pool_wait(&p, &r, 1);
    cr_assert_eq(pool_idle(&p), 1);
    kvr_fake_drop_connections(p.fleet, 0); /* the engine's idle timeout, say */
    while (pool_idle(&p) != 0)             /* the pool reads the EOF of its idle connection */
        uv_run(&p.loop, UV_RUN_ONCE);
    pool_start(&p, &r);
    pool_wait(&p, &r, 1);
    cr_expect_eq(kvr_fake_connections(p.fleet, 0), 2, "the next request opened a new connection");
    pool_teardown(&p);
}
