/* SPDX-License-Identifier: Apache-2.0 */
/* The io_uring HTTP client: keep-alive, deadlines, refused and reset peers. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/clock.h"
#include "common/engine_spec.h"
#include "common/error.h"
#include "statefeed/http_client.h"
#include "tests/support/fake_engine.h"
#include "tests/support/proc.h"

typedef struct {
    int calls;
    int result;
} outcome_t;

static void on_done(kvr__http_client_conn_t *conn, int result, void *arg)
{
    (void)conn;
    outcome_t *o = arg;
    o->calls++;
    o->result = result;
}

/* The client for an engine URL of a literal address (the daemon resolves names itself). */
static int conn_init(kvr__http_client_conn_t *c, const char *url)
{
    kvr_engine_spec_t spec;
    struct sockaddr_storage addr;
    socklen_t addr_len;
    char err[160];
    int rc = kvr_engine_spec_parse_url(url, &spec, err, sizeof err);
    if (rc == 0)
        rc = kvr_engine_spec_literal(&spec, &addr, &addr_len);
    if (rc < 0)
        return rc;
    kvr__http_client_conn_init(c, kvr_engine_spec_authority(&spec));
    return kvr__http_client_set_addr(c, (const struct sockaddr *)&addr, addr_len);
}

/* Runs the ring until the request finished; returns its result. */
static int get(struct io_uring *ring, kvr__http_client_conn_t *c, const char *path,
               uint64_t timeout_ms)
{
    outcome_t o = {0, 0};
    int rc = kvr__http_client_get(c, ring, path, timeout_ms * KVR_NS_PER_MS, on_done, &o);
    if (rc < 0)
        return rc;
    while (o.calls == 0) {
        cr_assert_geq(io_uring_submit_and_wait(ring, 1), 0);
        struct io_uring_cqe *cqe;
        unsigned head, seen = 0;
        io_uring_for_each_cqe (ring, head, cqe) {
            kvr__op_t *op = io_uring_cqe_get_data(cqe);
            if (op != NULL && op->kind == KVR_OP_HTTP)
                kvr__http_client_on_cqe(op->owner, ring, cqe->res);
            else if (op != NULL && op->kind == KVR_OP_HTTP_SEND)
                kvr__http_client_on_send_cqe(op->owner, cqe->res);
            seen++;
        }
        io_uring_cq_advance(ring, seen);
    }
    cr_assert_eq(o.calls, 1, "done called more than once");
    cr_assert_not(kvr__http_client_busy(c));
    return o.result;
}

static struct io_uring ring;
static kvr_fake_fleet_t *resp;

static void setup(void)
{
    cr_assert_eq(io_uring_queue_init(64, &ring, 0), 0);
    resp = kvr_fake_start(1);
}

static void teardown(void)
{
    kvr_fake_stop(resp);
    io_uring_queue_exit(&ring);
}

TestSuite(feed_http, .init = setup, .fini = teardown, .timeout = 10.);

Test(feed_http, keep_alive_reuses_one_connection)
{
    kvr_fake_set_bodies(resp, 0, "vllm:num_requests_running 1\n", NULL);
    char url[64];
    snprintf(url, sizeof(url), "http://127.0.0.1:%u", kvr_fake_port(resp, 0));
    kvr__http_client_conn_t c;
    cr_assert_eq(conn_init(&c, url), 0);
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(get(&ring, &c, "/metrics", 2000), 0);
        cr_expect_eq(c.status, 200);
        cr_expect_str_eq(c.body, "vllm:num_requests_running 1\n");
    }
    cr_expect_eq(kvr_fake_connections(resp, 0), 1, "keep-alive not kept");
    cr_expect_eq(get(&ring, &c, "/v1/loads", 2000), 0);
    cr_expect_eq(c.status, 404);
    kvr__http_client_conn_close(&c);
}

Test(feed_http, stalled_peer_times_out)
{
    kvr_fake_set_bodies(resp, 0, "x 1\n", NULL);
    kvr_fake_set_mode(resp, 0, KVR_FAKE_STALL);
    char url[64];
    snprintf(url, sizeof(url), "http://127.0.0.1:%u", kvr_fake_port(resp, 0));
    kvr__http_client_conn_t c;
    cr_assert_eq(conn_init(&c, url), 0);
    cr_expect_eq(get(&ring, &c, "/metrics", 100), -ETIMEDOUT);
    cr_expect_eq(c.fd, -1, "a timed-out connection must not be reused");
    kvr__http_client_conn_close(&c);
}

Test(feed_http, refused_and_recovered)
{
    kvr_fake_set_bodies(resp, 0, "x 1\n", NULL);
    char url[64];
    snprintf(url, sizeof(url), "http://127.0.0.1:%u", kvr_fake_port(resp, 0));
    kvr__http_client_conn_t c;
    cr_assert_eq(conn_init(&c, url), 0);
    cr_assert_eq(get(&ring, &c, "/metrics", 2000), 0);
    /* The peer drops every connection and comes back: the kept-alive socket
     * is dead, the client notices and reconnects within the same request. */
    kvr_fake_set_mode(resp, 0, KVR_FAKE_DOWN);
    int rc = get(&ring, &c, "/metrics", 2000);
    cr_expect_eq(rc, -ECONNREFUSED, "a down peer answered %d (%s)", rc, kvr_strerror(rc));
    kvr_fake_set_mode(resp, 0, KVR_FAKE_OK);
    cr_expect_eq(get(&ring, &c, "/metrics", 2000), 0);
    cr_expect_eq(c.status, 200);
    kvr__http_client_conn_close(&c);
}

/* The tests above rely on a mode change being done when it returns: a port
 * set down refuses the very next connection, one set back up accepts it. */
Test(feed_http, fake_engine_mode_holds_on_return)
{
    uint16_t port = kvr_fake_port(resp, 0);
    for (int round = 0; round < 20; round++) {
        kvr_fake_set_mode(resp, 0, KVR_FAKE_DOWN);
        cr_assert_not(kvr_test_wait_port(port, 0), "round %d: a down port accepted a connection",
                      round);
        kvr_fake_set_mode(resp, 0, KVR_FAKE_OK);
        cr_assert(kvr_test_wait_port(port, 0), "round %d: a port set up refused a connection",
                  round);
    }
}

Test(feed_http, idle_connection_closed_by_peer_is_retried)
{
    kvr_fake_set_bodies(resp, 0, "x 1\n", NULL);
    char url[64];
    snprintf(url, sizeof(url), "http://127.0.0.1:%u", kvr_fake_port(resp, 0));
    kvr__http_client_conn_t c;
    cr_assert_eq(conn_init(&c, url), 0);
    cr_assert_eq(get(&ring, &c, "/metrics", 2000), 0);
    kvr_fake_drop_connections(resp, 0);
    int rc = get(&ring, &c, "/metrics", 2000);
    cr_expect_eq(rc, 0, "a stale keep-alive socket failed the poll: %d", rc);
    cr_expect_eq(kvr_fake_connections(resp, 0), 2);
    kvr__http_client_conn_close(&c);
}
