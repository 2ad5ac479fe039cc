/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute in front of live kvroute-sim engines: the behaviour users rely on, end to end. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "shm_layout/shm_layout.h"
#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define ENGINES 4

static pid_t sim_pid, feed_pid;
static uint16_t sim_port, admin_port;
static kvr_harness_t h;

static void teardown(void)
{
    kvr_harness_stop(&h);
    if (feed_pid > 0)
        kvr_test_stop(feed_pid, SIGTERM, 5000);
    feed_pid = 0;
    if (sim_pid > 0)
        kvr_test_stop(sim_pid, SIGTERM, 5000);
    sim_pid = 0;
}

TestSuite(sim, .fini = teardown, .timeout = 60.);

static void start_with(const char *policy, const char *const *more);

static void start(const char *policy)
{
    start_with(policy, NULL);
}

static void start_with(const char *policy, const char *const *more)
{
    sim_port = kvr_test_free_port_range(ENGINES);
    admin_port = kvr_test_free_port();
    cr_assert_gt(sim_port, 0);
    char port[16], admin[16], engines[8];
    snprintf(port, sizeof port, "%u", sim_port);
    snprintf(admin, sizeof admin, "%u", admin_port);
    snprintf(engines, sizeof engines, "%d", ENGINES);
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                    "--engines",
                    engines,
                    "--port",
                    port,
                    "--admin-port",
                    admin,
                    "--log-level",
                    "warn",
                    NULL};
    sim_pid = kvr_test_spawn(argv, NULL);
    for (int i = 0; i < ENGINES; i++)
        cr_assert(kvr_test_wait_port((uint16_t)(sim_port + i), 5000));
    static char urls[ENGINES][64];
    const char *extra[2 * ENGINES + 16];
    size_t k = 0;
    for (int i = 0; i < ENGINES; i++) {
        snprintf(urls[i], sizeof urls[i], "http://127.0.0.1:%u", sim_port + i);
        extra[k++] = "--engine";
        extra[k++] = urls[i];
    }
    extra[k++] = "--policy";
    extra[k++] = policy;
    extra[k++] = "--fail-threshold";
    extra[k++] = "1";
    for (size_t i = 0; more && more[i] && k < sizeof extra / sizeof extra[0] - 1; i++)
        extra[k++] = more[i];
    extra[k] = NULL;
    kvr_harness_start(&h, 0, extra);
}

static int engine_of(const char *resp)
{
    char v[64];
    if (!kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v))
        return -1;
    const char *colon = strrchr(v, ':');
    return colon ? atoi(colon + 1) - sim_port : -1;
}

Test(sim, streamed_and_whole_answers_and_models)
{
    start("round_robin");
    char *resp;
    const char *whole =
        "{\"model\":\"sim-30b-a3b\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, whole, &resp, 10000),
                 200);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"usage\""));
    free(resp);
    const char *streamed = "{\"model\":\"sim-30b-a3b\",\"max_tokens\":8,\"stream\":true,"
                           "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_assert_eq(
        kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000), 200);
    char *body = (char *)kvr_test_http_body(resp);
    cr_assert_geq(kvr_harness_dechunk(body), 0);
    cr_expect_not_null(strstr(body, "data: "));
    cr_expect_not_null(strstr(body, "data: [DONE]"));
    free(resp);
    const char *completion =
        "{\"model\":\"sim-30b-a3b\",\"max_tokens\":4,\"prompt\":\"once upon\"}";
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, completion, &resp, 10000),
                 200);
    free(resp);
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200);
    body = (char *)kvr_test_http_body(resp);
    const char *first = strstr(body, "\"id\":\"sim-30b-a3b\"");
    cr_expect(first && !strstr(first + 1, "\"id\":\"sim-30b-a3b\""),
              "the shared model is listed once: %s", body);
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

typedef struct shot_s {
    int status, engine;
} shot_t;

static void *one_shot(void *arg)
{
    shot_t *s = arg;
    char *resp = NULL;
    const char *body =
        "{\"model\":\"sim-30b-a3b\",\"max_tokens\":300,\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}";
    s->status = kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, body, &resp, 30000);
    s->engine = resp ? engine_of(resp) : -1;
    free(resp);
    return NULL;
}

Test(sim, burst_of_100_under_load_only_spreads_evenly)
{
    start("load_only");
    static shot_t shots[100];
    pthread_t t[100];
    for (int i = 0; i < 100; i++)
        cr_assert_eq(pthread_create(&t[i], NULL, one_shot, &shots[i]), 0);
    for (int i = 0; i < 100; i++)
        pthread_join(t[i], NULL);
    int per[ENGINES] = {0};
    for (int i = 0; i < 100; i++) {
        cr_expect_eq(shots[i].status, 200);
        if (shots[i].engine >= 0 && shots[i].engine < ENGINES)
            per[shots[i].engine]++;
    }
    /* 300 output tokens keep every request in flight for well over the burst's arrival */
    for (int i = 0; i < ENGINES; i++)
        cr_expect(per[i] >= 23 && per[i] <= 27, "engine %d got %d of 100", i, per[i]);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

static int turn(const char *session, char **resp)
{
    char body[256];
    snprintf(
        body, sizeof body,
        "{\"model\":\"sim-30b-a3b\",\"max_tokens\":4,\"messages\":[{\"role\":\"user\",\"content\":\"turn\"}]}");
    char headers[128];
    snprintf(headers, sizeof headers, "X-Session-ID: %s\r\n", session);
    return kvr_test_http(h.port, "POST", "/v1/chat/completions", headers, body, resp, 10000);
}

Test(sim, sticky_sessions_stay_and_a_dead_pin_is_replaced)
{
    start("sticky");
    char *resp;
    cr_assert_eq(turn("alice", &resp), 200);
    int home = engine_of(resp);
    free(resp);
    cr_assert_geq(home, 0);
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(turn("alice", &resp), 200);
        cr_expect_eq(engine_of(resp), home, "turn %d moved", i);
        free(resp);
    }
    /* new sessions spread: with everything idle each lands on a least-loaded engine */
    cr_assert_eq(turn("bob", &resp), 200);
    free(resp);

    char path[64];
    snprintf(path, sizeof path, "/admin/fault?engine=%d", home);
    cr_assert_eq(kvr_test_http(admin_port, "POST", path, NULL, "{\"crash\":true}", &resp, 3000),
                 200);
    free(resp);
    /* The simulator crashes the engine a moment after answering the fault. */
    cr_assert(kvr_test_wait_port_closed((uint16_t)(sim_port + home), 10000),
              "engine %d never crashed", home);
    cr_assert_eq(turn("alice", &resp), 200, "the session survives its engine");
    int second = engine_of(resp);
    free(resp);
    cr_expect_neq(second, home);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(turn("alice", &resp), 200);
        cr_expect_eq(engine_of(resp), second);
        free(resp);
    }
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_session_placements_total{kind=\"replaced\"}"), 1);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(sim, openai_npm_client_through_the_router)
{
    start("sticky");
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/v1", h.port);
    setenv("KVR_ROUTER_URL", url, 1);
    int st = kvr_test_run_node("router_openai.mjs", 40000);
    if (st == KVR_TEST_NODE_MISSING)
        cr_skip_test("node or the openai package missing: run scripts/install-deps.sh");
    cr_assert_eq(st, 0, "node script failed (status %d)", st);
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

static void *direct_long_request(void *arg)
{
    uint16_t port = (uint16_t)(uintptr_t)arg;
    char *resp = NULL;
    const char *body =
        "{\"model\":\"sim-30b-a3b\",\"max_tokens\":3000,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
    kvr_test_http(port, "POST", "/v1/chat/completions", NULL, body, &resp, 60000);
    free(resp);
    return NULL;
}

static long engine_eff_requests(int engine)
{
    char *resp;
    if (kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 2000) != 200) {
        free(resp);
        return -1;
    }
    char needle[64];
    snprintf(needle, sizeof needle, "\"id\":\"http://127.0.0.1:%u\"", sim_port + engine);
    const char *e = strstr(kvr_test_http_body(resp), needle);
    const char *eff = e ? strstr(e, "\"eff\":{\"requests\":") : NULL;
    long v = eff ? strtol(eff + strlen("\"eff\":{\"requests\":"), NULL, 10) : -1;
    free(resp);
    return v;
}

Test(sim, es1_through_a_live_statefeed_sees_load_the_router_did_not_send)
{
    char shm[64];
    kvr_test_unique_name(shm, sizeof shm, "/kvr-test-e2e");
    /* Load no router sent, on engines this router has nothing on: direct clients, no herd. */
    const char *more[] = {"--es", "1", "--shm", shm, NULL};
    start_with("sticky", more);
    /* the statefeed scrapes every engine's /metrics into the segment the router reads */
    const char *feed_argv[4 * ENGINES + 12];
    size_t k = 0;
    static char urls[ENGINES][64];
    feed_argv[k++] = kvr_test_bin("KVR_BIN_KVROUTE_STATEFEED");
    feed_argv[k++] = "--shm";
    feed_argv[k++] = shm;
    feed_argv[k++] = "--period-ms";
    feed_argv[k++] = "50";
    feed_argv[k++] = "--log-level";
    feed_argv[k++] = "warn";
    for (int i = 0; i < ENGINES; i++) {
        snprintf(urls[i], sizeof urls[i], "http://127.0.0.1:%u", sim_port + i);
        feed_argv[k++] = "--engine";
        feed_argv[k++] = urls[i];
    }
    feed_argv[k] = NULL;
    feed_pid = kvr_test_spawn((char *const *)feed_argv, NULL);
    cr_assert_gt(feed_pid, 0);

    /* engines 0..2 get 6 long requests each straight from "other clients"; engine 3 stays idle */
    for (int e = 0; e < ENGINES - 1; e++) {
        for (int i = 0; i < 6; i++) {
            pthread_t t;
            cr_assert_eq(
                pthread_create(&t, NULL, direct_long_request, (void *)(uintptr_t)(sim_port + e)),
                0);
            pthread_detach(t);
        }
    }
    for (int waited = 0; waited < 5000; waited += 100) {
        bool seen = true;
        for (int e = 0; e < ENGINES - 1; e++)
            seen &= engine_eff_requests(e) >= 6;
        if (seen)
            break;
        kvr_test_sleep_ms(100);
    }
    for (int e = 0; e < ENGINES - 1; e++)
        cr_assert_geq(engine_eff_requests(e), 6, "engine %d's real load never reached the router",
                      e);

    /* new sessions go where the real load is lowest, although the router sent nothing anywhere */
    for (int s = 0; s < 4; s++) {
        char session[32];
        snprintf(session, sizeof session, "e2e-%d", s);
        char *resp;
        cr_assert_eq(turn(session, &resp), 200);
        cr_expect_eq(engine_of(resp), ENGINES - 1, "session %d", s);
        free(resp);
    }
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_feed_reads_total{state=\"fresh\"}"), 0);
    kvr_harness_stop(&h);
    kvr_test_stop(feed_pid, SIGTERM, 5000);
    feed_pid = 0;
    kvr_shm_unlink(shm);
}
