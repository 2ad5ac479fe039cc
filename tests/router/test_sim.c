/* SPDX-License-Identifier: Apache-2.0 */
/* kvroute in front of live kvroute-sim engines: the behaviour users rely on, end to end. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define ENGINES 4

static pid_t sim_pid;
static uint16_t sim_port, admin_port;
static kvr_harness_t h;

static void teardown(void)
{
    kvr_harness_stop(&h);
    if (sim_pid > 0)
        kvr_test_stop(sim_pid, SIGTERM, 5000);
    sim_pid = 0;
}

TestSuite(sim, .fini = teardown, .timeout = 60.);

static void start(const char *policy)
{
    sim_port = kvr_test_free_port_range(ENGINES);
    admin_port = kvr_test_free_port();
    cr_assert_gt(sim_port, 0);
    char port[16], admin[16], engines[8];
    snprintf(port, sizeof port, "%u", sim_port);
    snprintf(admin, sizeof admin, "%u", admin_port);
    snprintf(engines, sizeof engines, "%d", ENGINES);
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"), "--engines", engines, "--port", port,
                    "--admin-port", admin, "--log-level", "warn", NULL};
    sim_pid = kvr_test_spawn(argv, NULL);
    for (int i = 0; i < ENGINES; i++)
        cr_assert(kvr_test_wait_port((uint16_t)(sim_port + i), 5000));
    static char urls[ENGINES][64];
    const char *extra[2 * ENGINES + 8];
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
    const char *whole = "{\"model\":\"sim-30b-a3b\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, whole, &resp, 10000), 200);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"usage\""));
    free(resp);
    const char *streamed = "{\"model\":\"sim-30b-a3b\",\"max_tokens\":8,\"stream\":true,"
                           "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000), 200);
    char *body = (char *)kvr_test_http_body(resp);
    cr_assert_geq(kvr_harness_dechunk(body), 0);
    cr_expect_not_null(strstr(body, "data: "));
    cr_expect_not_null(strstr(body, "data: [DONE]"));
    free(resp);
    const char *completion = "{\"model\":\"sim-30b-a3b\",\"max_tokens\":4,\"prompt\":\"once upon\"}";
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, completion, &resp, 10000), 200);
    free(resp);
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200);
    body = (char *)kvr_test_http_body(resp);
    const char *first = strstr(body, "\"id\":\"sim-30b-a3b\"");
    cr_expect(first && !strstr(first + 1, "\"id\":\"sim-30b-a3b\""), "the shared model is listed once: %s", body);
    free(resp);
    cr_expect(kvr_harness_wait_zero(&h, 3000));
}

typedef struct shot_s {
    int status, engine;
} shot_t;

static void *one_shot(void *arg)
{
    shot_t *s = arg;
    char *resp = NULL;
    const char *body = "{\"model\":\"sim-30b-a3b\",\"max_tokens\":300,\"messages\":[{\"role\":\"user\",\"content\":\"go\"}]}";
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
    cr_expect(kvr_harness_wait_zero(&h, 3000));
}

static int turn(const char *session, char **resp)
{
    char body[256];
    snprintf(body, sizeof body,
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
    cr_assert_eq(kvr_test_http(admin_port, "POST", path, NULL, "{\"crash\":true}", &resp, 3000), 200);
    free(resp);
    kvr_test_sleep_ms(100);
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
    cr_expect(kvr_harness_wait_zero(&h, 3000));
}

Test(sim, openai_npm_client_through_the_router)
{
    const char *src = getenv("KVR_SOURCE_DIR");
    cr_assert_not_null(src);
    char mod[512], script[512];
    snprintf(mod, sizeof mod, "%s/tests/node/node_modules/openai/package.json", src);
    snprintf(script, sizeof script, "%s/tests/node/router_openai.mjs", src);
    if (system("command -v node >/dev/null 2>&1") != 0 || access(mod, R_OK) != 0)
        cr_skip_test("node or the openai package missing: run scripts/install-deps.sh");
    start("sticky");
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/v1", h.port);
    setenv("KVR_ROUTER_URL", url, 1);
    char node_path[256] = "/usr/bin/node";
    FILE *p = popen("command -v node", "r");
    if (p && fgets(node_path, sizeof node_path, p))
        node_path[strcspn(node_path, "\n")] = '\0';
    if (p)
        pclose(p);
    char *argv[] = {node_path, script, NULL};
    pid_t pid = kvr_test_spawn(argv, NULL);
    cr_assert_gt(pid, 0);
    int st = -1;
    for (int i = 0; i < 400; i++) {
        if (waitpid(pid, &st, WNOHANG) == pid)
            break;
        st = -1;
        kvr_test_sleep_ms(100);
    }
    if (st == -1)
        kvr_test_stop(pid, SIGKILL, 1000);
    else
        kvr_test_stop(pid, 0, 0); /* already reaped: only drops it from the cleanup list */
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "node script failed (status %d)", st);
    cr_expect(kvr_harness_wait_zero(&h, 3000));
}
