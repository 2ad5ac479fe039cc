/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute's OpenAI surface in front of live kvroute-sim engines: every
 * forwarded route, GET /v1/models/{id}, wrong methods and OpenAI's error shape.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define ENGINES 2

static pid_t sim_pid;
static uint16_t sim_port;
static kvr_harness_t h;
static char decisions[128];

static void teardown(void)
{
    kvr_harness_stop(&h);
    if (sim_pid > 0) {
        int status = kvr_test_stop(sim_pid, SIGTERM, 5000);
        cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "kvroute-sim exited with %d",
                  status);
    }
    sim_pid = 0;
    if (decisions[0])
        unlink(decisions);
}

TestSuite(server, .fini = teardown, .timeout = 60.);

static void start(void)
{
    sim_port = kvr_test_free_port_range(ENGINES);
    uint16_t admin_port = kvr_test_free_port();
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
    char name[64];
    kvr_test_unique_name(name, sizeof name, "kvr-server-decisions");
    snprintf(decisions, sizeof decisions, "/tmp/%s.jsonl", name);
    const char *extra[2 * ENGINES + 8];
    size_t k = 0;
    for (int i = 0; i < ENGINES; i++) {
        snprintf(urls[i], sizeof urls[i], "http://127.0.0.1:%u", sim_port + i);
        extra[k++] = "--engine";
        extra[k++] = urls[i];
    }
    extra[k++] = "--decision-log";
    extra[k++] = decisions;
    extra[k] = NULL;
    kvr_harness_start(&h, 0, extra);
    /* Until every engine's /v1/models is learnt, an unlisted model is forwarded, not a 404. */
    for (int i = 0; i < ENGINES; i++) {
        char sample[224];
        snprintf(sample, sizeof sample,
                 "kvroute_engine_serves_model{engine=\"%s\",model=\"sim-30b-a3b\"}", urls[i]);
        cr_assert(kvr_harness_wait_metric(&h, sample, 1, 10000), "%s never learnt", sample);
    }
}

/* OpenAI's error: message, type, param and code, code a string or null, never a number. */
static void expect_openai_error(const char *resp, const char *type, const char *code)
{
    const char *body = kvr_test_http_body(resp);
    cr_assert_not_null(body);
    cr_expect(strncmp(body, "{\"error\":{\"message\":", 20) == 0, "error body: %s", body);
    char want[128];
    snprintf(want, sizeof want, "\"type\":\"%s\"", type);
    cr_expect_not_null(strstr(body, want), "type %s in %s", type, body);
    cr_expect_not_null(strstr(body, "\"param\":"), "param in %s", body);
    if (code)
        snprintf(want, sizeof want, "\"code\":\"%s\"", code);
    else
        snprintf(want, sizeof want, "\"code\":null");
    cr_expect_not_null(strstr(body, want), "%s in %s", want, body);
}

static const struct {
    const char *path, *body, *answer;
} routes[] = {
    {"/v1/embeddings", "{\"model\":\"sim-30b-a3b\",\"input\":\"hello\"}", "\"embedding\""},
    {"/v1/embeddings", "{\"model\":\"sim-30b-a3b\",\"input\":[\"a\",\"b\"]}", "\"embedding\""},
    {"/v1/responses", "{\"model\":\"sim-30b-a3b\",\"input\":\"hi\",\"instructions\":\"be brief\"}",
     "\"object\":\"response\""},
    {"/v1/responses",
     "{\"model\":\"sim-30b-a3b\",\"input\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
     "\"object\":\"response\""},
    {"/tokenize", "{\"model\":\"sim-30b-a3b\",\"prompt\":\"hello\"}", "\"tokens\""},
    {"/detokenize", "{\"model\":\"sim-30b-a3b\",\"tokens\":[1,2,3]}", "\"prompt\""},
};
#define N_ROUTES (sizeof routes / sizeof routes[0])

Test(server, each_route_is_forwarded_counted_and_logged)
{
    start();
    for (size_t i = 0; i < N_ROUTES; i++) {
        char *resp = NULL;
        cr_assert_eq(
            kvr_test_http(h.port, "POST", routes[i].path, NULL, routes[i].body, &resp, 10000), 200,
            "%s: %s", routes[i].path, resp ? resp : "(none)");
        char engine[64];
        cr_expect_not_null(kvr_harness_header(resp, "X-Kvroute-Engine", engine, sizeof engine),
                           "%s answered by an engine", routes[i].path);
        cr_expect_not_null(strstr(kvr_test_http_body(resp), routes[i].answer), "%s: %s",
                           routes[i].path, resp);
        free(resp);
    }
    cr_expect(
        kvr_harness_wait_metric(&h, "kvroute_requests_total{status=\"200\"}", N_ROUTES, 10000));
    cr_expect(kvr_harness_wait_zero(&h, 10000), "no shadow counter left charged");
    cr_expect(kvr_test_wait_file_contains(decisions, "\"status\":200", 10000));
}

Test(server, an_unknown_model_is_model_not_found_on_every_route)
{
    start();
    for (size_t i = 0; i < N_ROUTES; i++) {
        char body[256];
        snprintf(body, sizeof body, "{\"model\":\"no-such-model\",\"input\":\"x\"}");
        char *resp = NULL;
        cr_assert_eq(kvr_test_http(h.port, "POST", routes[i].path, NULL, body, &resp, 10000), 404,
                     "%s", routes[i].path);
        expect_openai_error(resp, "invalid_request_error", "model_not_found");
        free(resp);
    }
    cr_expect(kvr_harness_wait_zero(&h, 10000));
}

Test(server, models_by_id)
{
    start();
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models/sim-30b-a3b", NULL, NULL, &resp, 5000),
                 200);
    const char *body = kvr_test_http_body(resp);
    cr_expect(strncmp(body, "{\"id\":\"sim-30b-a3b\"", 19) == 0, "one model object: %s", body);
    cr_expect_not_null(strstr(body, "\"object\":\"model\""));
    cr_expect_not_null(strstr(body, "\"created\":"));
    cr_expect_not_null(strstr(body, "\"owned_by\":"));
    cr_expect_null(strstr(body, "\"data\""), "not the list: %s", body);
    free(resp);
    /* Percent-encoded, the same id. */
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models/sim%2D30b-a3b", NULL, NULL, &resp, 5000),
                 200);
    free(resp);
    const char *unknown[] = {"/v1/models/nope", "/v1/models/org/sim-30b-a3b",
                             "/v1/models/sim-30b-a3b%00", "/v1/models/%zz"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        cr_assert_eq(kvr_test_http(h.port, "GET", unknown[i], NULL, NULL, &resp, 5000), 404, "%s",
                     unknown[i]);
        expect_openai_error(resp, "invalid_request_error", "model_not_found");
        free(resp);
    }
}

Test(server, wrong_methods_are_405_with_allow)
{
    start();
    struct {
        const char *method, *path, *allow;
    } cases[] = {
        {"GET", "/v1/embeddings", "POST"},         {"GET", "/v1/responses", "POST"},
        {"DELETE", "/tokenize", "POST"},           {"GET", "/detokenize", "POST"},
        {"POST", "/v1/models/sim-30b-a3b", "GET"}, {"POST", "/v1/models", "GET"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *resp = NULL;
        cr_assert_eq(kvr_test_http(h.port, cases[i].method, cases[i].path, NULL,
                                   cases[i].method[0] == 'P' ? "{}" : NULL, &resp, 5000),
                     405, "%s %s", cases[i].method, cases[i].path);
        char allow[32];
        cr_expect_not_null(kvr_harness_header(resp, "Allow", allow, sizeof allow));
        cr_expect_str_eq(allow, cases[i].allow);
        expect_openai_error(resp, "invalid_request_error", "method_not_allowed");
        free(resp);
    }
}

Test(server, errors_the_router_writes_are_openai_shaped)
{
    start();
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/nowhere", NULL, NULL, &resp, 5000), 404);
    expect_openai_error(resp, "invalid_request_error", NULL);
    free(resp);
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/embeddings", NULL, "{not json", &resp, 5000),
                 400);
    expect_openai_error(resp, "invalid_request_error", NULL);
    cr_expect_null(strstr(kvr_test_http_body(resp), "\"code\":400"));
    free(resp);
}

typedef struct {
    int want;
} lines_t;

static bool log_has_lines(void *arg)
{
    lines_t *l = arg;
    FILE *f = fopen(decisions, "r");
    if (!f)
        return false;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n >= l->want;
}

Test(server, a_tokenize_prompt_is_no_prefix_to_match)
{
    start();
    /* Long enough for several 64-byte blocks: a chat with it would match its own prefix next time. */
    char body[1024];
    char prompt[600];
    for (size_t i = 0; i < sizeof prompt - 1; i++)
        prompt[i] = (char)('a' + i % 26);
    prompt[sizeof prompt - 1] = '\0';
    snprintf(body, sizeof body, "{\"model\":\"sim-30b-a3b\",\"prompt\":\"%s\"}", prompt);
    for (int i = 0; i < 2; i++) {
        char *resp = NULL;
        cr_assert_eq(kvr_test_http(h.port, "POST", "/tokenize", NULL, body, &resp, 10000), 200);
        free(resp);
    }
    lines_t l = {2};
    cr_assert(kvr_test_wait_until(log_has_lines, &l, 10000));
    FILE *f = fopen(decisions, "r");
    cr_assert_not_null(f);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        cr_expect_not_null(strstr(line, "\"prefix_match_blocks\":0,"), "line %d: %s", n, line);
        cr_expect_not_null(strstr(line, "\"matches\":[]"), "no engine holds it: %s", line);
        n++;
    }
    fclose(f);
    cr_expect_eq(n, 2);
}
