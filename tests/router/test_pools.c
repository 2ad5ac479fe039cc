/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Model pools end to end: kvroute in front of two kvroute-sim fleets, one
 * serving "alpha" and one "beta", each learnt from the engines' /v1/models.
 * No request crosses pools, an unknown model is OpenAI's 404, a body without
 * a model is a 400 while two models are served, and prefixes and session
 * pins are owned per pool.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define PER_POOL 2

static pid_t sim_pid[2];
static uint16_t sim_port[2];
static kvr_harness_t h;
static char decision_log[128];

static void teardown(void)
{
    kvr_harness_stop(&h);
    for (int p = 0; p < 2; p++) {
        if (sim_pid[p] > 0)
            kvr_test_stop(sim_pid[p], SIGTERM, 5000);
        sim_pid[p] = 0;
    }
    if (decision_log[0])
        unlink(decision_log);
    decision_log[0] = '\0';
}

TestSuite(pools, .fini = teardown, .timeout = 60.);

static const char *const pool_model[2] = {"alpha", "beta"};

static void start_sim(int p)
{
    sim_port[p] = kvr_test_free_port_range(PER_POOL);
    cr_assert_gt(sim_port[p], 0);
    char port[16], engines[8];
    snprintf(port, sizeof port, "%u", sim_port[p]);
    snprintf(engines, sizeof engines, "%d", PER_POOL);
    char *argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                    "--engines",
                    engines,
                    "--port",
                    port,
                    "--model",
                    (char *)pool_model[p],
                    "--log-level",
                    "warn",
                    NULL};
    sim_pid[p] = kvr_test_spawn(argv, NULL);
    for (int i = 0; i < PER_POOL; i++)
        cr_assert(kvr_test_wait_port((uint16_t)(sim_port[p] + i), 5000));
}

/*
 * Both fleets behind one router. spec_suffix: appended to every --engine
 * (e.g. ",model=alpha,model=beta" pins both models on every engine).
 */
static void start(const char *policy, const char *spec_suffix, const char *const *more)
{
    start_sim(0);
    start_sim(1);
    static char specs[2 * PER_POOL][128];
    const char *extra[4 * PER_POOL + 16];
    size_t k = 0;
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < PER_POOL; i++) {
            char *s = specs[p * PER_POOL + i];
            snprintf(s, sizeof specs[0], "http://127.0.0.1:%u%s", sim_port[p] + i,
                     spec_suffix ? spec_suffix : "");
            extra[k++] = "--engine";
            extra[k++] = s;
        }
    }
    kvr_test_unique_name(decision_log, sizeof decision_log, "/tmp/kvroute-pools-decisions");
    extra[k++] = "--policy";
    extra[k++] = policy;
    extra[k++] = "--decision-log";
    extra[k++] = decision_log;
    for (size_t i = 0; more && more[i]; i++)
        extra[k++] = more[i];
    extra[k] = NULL;
    kvr_harness_start(&h, 0, extra);
    if (spec_suffix)
        return;
    /* The pools are learnt from /v1/models at start-up: wait for every engine's list. */
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < PER_POOL; i++) {
            char sample[160];
            snprintf(sample, sizeof sample,
                     "kvroute_engine_serves_model{engine=\"http://127.0.0.1:%u\",model=\"%s\"}",
                     sim_port[p] + i, pool_model[p]);
            cr_assert(kvr_harness_wait_metric(&h, sample, 1, 5000), "%s never learnt", sample);
        }
    }
}

/* The pool (0 alpha, 1 beta) of the engine that served resp, -1 when none did. */
static int pool_of(const char *resp)
{
    char v[64];
    if (!kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v))
        return -1;
    const char *colon = strrchr(v, ':');
    int port = colon ? atoi(colon + 1) : -1;
    for (int p = 0; p < 2; p++)
        if (port >= sim_port[p] && port < sim_port[p] + PER_POOL)
            return p;
    return -1;
}

static int engine_port(const char *resp)
{
    char v[64];
    if (!kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v))
        return -1;
    const char *colon = strrchr(v, ':');
    return colon ? atoi(colon + 1) : -1;
}

static int chat(const char *model, const char *session, const char *content, char **resp)
{
    char body[2048], headers[128] = "";
    if (model)
        snprintf(
            body, sizeof body,
            "{\"model\":\"%s\",\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}",
            model, content);
    else
        snprintf(body, sizeof body,
                 "{\"max_tokens\":2,\"messages\":[{\"role\":\"user\",\"content\":\"%s\"}]}",
                 content);
    if (session)
        snprintf(headers, sizeof headers, "X-Session-ID: %s\r\n", session);
    return kvr_test_http(h.port, "POST", "/v1/chat/completions", headers, body, resp, 5000);
}

Test(pools, no_request_crosses_pools)
{
    start("round_robin", NULL, NULL);
    int served[2][PER_POOL] = {{0}};
    for (int i = 0; i < 40; i++) {
        int p = i % 2;
        char *resp;
        char content[64];
        snprintf(content, sizeof content, "request %d", i);
        cr_assert_eq(chat(pool_model[p], NULL, content, &resp), 200, "%s", resp ? resp : "");
        int got = pool_of(resp);
        cr_expect_eq(got, p, "a %s request was served by %d: %s", pool_model[p], got, resp);
        if (got == p)
            served[p][engine_port(resp) - sim_port[p]]++;
        free(resp);
    }
    /* Round robin within each pool: both engines of each pool got their share. */
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < PER_POOL; i++)
            cr_expect_eq(served[p][i], 10, "pool %d engine %d served %d", p, i, served[p][i]);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_model_requests_total{model=\"alpha\"}"), 20);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_model_requests_total{model=\"beta\"}"), 20);

    /* GET /v1/models is the union, each model once. */
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200);
    const char *body = kvr_test_http_body(resp);
    const char *a = strstr(body, "\"id\":\"alpha\""), *b = strstr(body, "\"id\":\"beta\"");
    cr_expect(a && !strstr(a + 1, "\"id\":\"alpha\"") && b && !strstr(b + 1, "\"id\":\"beta\""),
              "%s", body);
    free(resp);

    /* /engines carries each engine's models and where they came from. */
    cr_assert_eq(kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 5000), 200);
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    free(resp);
    const cJSON *e;
    int learnt = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "engines"))
    {
        const cJSON *models = cJSON_GetObjectItemCaseSensitive(e, "models");
        const cJSON *source = cJSON_GetObjectItemCaseSensitive(e, "models_source");
        cr_expect(cJSON_IsArray(models) && cJSON_GetArraySize(models) == 1);
        learnt += cJSON_IsString(source) && strcmp(source->valuestring, "learned") == 0;
    }
    cr_expect_eq(learnt, 2 * PER_POOL);
    cJSON_Delete(doc);
}

Test(pools, unknown_model_is_openai_404_model_not_found)
{
    start("round_robin", NULL, NULL);
    char *resp;
    cr_assert_eq(chat("gamma", NULL, "hi", &resp), 404, "%s", resp ? resp : "");
    cJSON *doc = cJSON_Parse(kvr_test_http_body(resp));
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(doc, "error");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(err, "code");
    const cJSON *param = cJSON_GetObjectItemCaseSensitive(err, "param");
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(err, "type");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(err, "message");
    cr_assert(cJSON_IsString(code) && cJSON_IsString(param) && cJSON_IsString(type) &&
                  cJSON_IsString(msg),
              "%s", resp);
    cr_expect_str_eq(code->valuestring, "model_not_found");
    cr_expect_str_eq(param->valuestring, "model");
    cr_expect_str_eq(type->valuestring, "invalid_request_error");
    cr_expect_str_eq(msg->valuestring,
                     "The model `gamma` does not exist. Served models: alpha, beta");
    cr_expect_eq(pool_of(resp), -1, "no engine saw it");
    cJSON_Delete(doc);
    free(resp);

    /* Odd bytes: a control character, a quote and a backslash (not UTF-8 is a 400, below). */
    const char *odd =
        "{\"model\":\"a\\u0001\\\"\\\\\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, odd, &resp, 5000), 404,
                 "%s", resp);
    doc = cJSON_Parse(kvr_test_http_body(resp));
    msg = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "error"),
                                           "message");
    cr_assert(cJSON_IsString(msg), "the error is JSON: %s", resp);
    cr_expect_str_eq(msg->valuestring,
                     "The model `a\\x01\\x22\\x5c` does not exist. Served models: alpha, beta");
    cJSON_Delete(doc);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_model_not_found_total"), 2);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_model_requests_other_total"), 2);
    cr_expect(!kvr_test_file_contains(h.log_path, "\x01"), "no raw control byte reaches the log");
}

Test(pools, missing_model_is_400_with_two_pools_and_not_a_string_is_400)
{
    start("round_robin", NULL, NULL);
    char *resp;
    cr_assert_eq(chat(NULL, NULL, "hi", &resp), 400, "%s", resp ? resp : "");
    cr_expect(strstr(kvr_test_http_body(resp), "alpha, beta"), "%s", resp);
    free(resp);
    const char *number = "{\"model\":7,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, number, &resp, 5000),
                 400);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_model_missing_total"), 1);
}

/* The decision log's lines, in order, parsed. */
static size_t read_decisions(cJSON **out, size_t cap)
{
    FILE *f = fopen(decision_log, "r");
    cr_assert(f);
    char line[4096];
    size_t n = 0;
    while (n < cap && fgets(line, sizeof line, f))
        out[n++] = cJSON_Parse(line);
    fclose(f);
    return n;
}

static bool decisions_reach(void *arg)
{
    size_t want = *(size_t *)arg;
    FILE *f = fopen(decision_log, "r");
    size_t n = 0;
    for (int c; f && (c = fgetc(f)) != EOF;)
        n += c == '\n';
    if (f)
        fclose(f);
    return n >= want;
}

static double number_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

Test(pools, prefixes_and_sessions_are_owned_per_pool)
{
    /* Every engine serves both models: only the keys keep the pools apart. */
    const char *more[] = {"--placement", "oneshot", NULL};
    start("affinity", ",model=alpha,model=beta", more);
    char prompt[1024];
    for (size_t i = 0; i < 16; i++)
        memcpy(prompt + i * 60, "a shared system prompt of sixty bytes, long enough to hash..", 60);
    prompt[960] = '\0';

    char *resp;
    cr_assert_eq(chat("alpha", NULL, prompt, &resp), 200);
    free(resp);
    cr_assert_eq(chat("alpha", NULL, prompt, &resp), 200);
    free(resp);
    cr_assert_eq(chat("beta", NULL, prompt, &resp), 200);
    free(resp);
    /* One session in both pools: a pin in each, neither replacing the other. */
    cr_assert_eq(chat("alpha", "s-1", "turn one", &resp), 200);
    int alpha_home = engine_port(resp);
    free(resp);
    cr_assert_eq(chat("beta", "s-1", "turn one", &resp), 200);
    free(resp);
    cr_assert_eq(chat("alpha", "s-1", "turn two", &resp), 200);
    cr_expect_eq(engine_port(resp), alpha_home, "the alpha pin survived the beta request");
    free(resp);

    size_t want = 6;
    cr_assert(kvr_test_wait_until(decisions_reach, &want, 5000));
    cJSON *d[8] = {0};
    size_t n = read_decisions(d, 8);
    cr_assert_eq(n, 6);
    cr_expect_eq(number_of(d[0], "prefix_match_blocks"), 0, "first alpha request: nothing cached");
    cr_expect_eq(number_of(d[1], "prefix_match_blocks"), 15,
                 "second alpha request: alpha's prefix owner");
    cr_expect_eq(number_of(d[2], "prefix_match_blocks"), 0,
                 "beta: alpha's prefix owner is not beta's");
    const cJSON *pinned = cJSON_GetObjectItemCaseSensitive(d[4], "pinned");
    cr_expect(cJSON_IsFalse(pinned), "the beta turn of s-1 is not served from the alpha pin");
    pinned = cJSON_GetObjectItemCaseSensitive(d[5], "pinned");
    cr_expect(cJSON_IsTrue(pinned), "the alpha pin still holds");
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_session_placements_total{kind=\"replaced\"}"), 0);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_session_placements_total{kind=\"new\"}"), 2);
    for (size_t i = 0; i < n; i++)
        cJSON_Delete(d[i]);
}

Test(pools, one_model_served_is_the_default_pool)
{
    /* Both fleets pinned to alpha: a body without a model goes to the one pool. */
    start("round_robin", ",model=alpha", NULL);
    char *resp;
    cr_assert_eq(chat(NULL, NULL, "hi", &resp), 200, "%s", resp ? resp : "");
    cr_expect_neq(pool_of(resp), -1);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_model_requests_total{model=\"alpha\"}"), 1);
    cr_assert_eq(chat("beta", NULL, "hi", &resp), 404);
    free(resp);
}

/* ---- engines whose /v1/models cannot be used ---- */

static kvr_raw_engine_t *raw;

static void raw_teardown(void)
{
    kvr_harness_stop(&h);
    kvr_raw_engine_stop(raw);
    raw = NULL;
}

TestSuite(pools_bad_lists, .fini = raw_teardown, .timeout = 30.);

static int post_model_on(uint16_t port, const char *model, char **resp)
{
    char body[256];
    snprintf(body, sizeof body,
             "{\"model\":\"%s\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", model);
    return kvr_test_http(port, "POST", "/v1/chat/completions", NULL, body, resp, 5000);
}

Test(pools_bad_lists, malformed_list_leaves_the_engine_serving_any_model)
{
    /* Every path gets the same 200 with a truncated JSON body: health passes, /v1/models cannot parse. */
    raw = kvr_raw_engine_start(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\n"
        "Connection: close\r\n\r\n{\"data\":");
    char url[64], sample[128];
    snprintf(url, sizeof url, "http://127.0.0.1:%u", kvr_raw_engine_port(raw));
    const char *extra[] = {"--engine", url, "--log-level", "info", NULL};
    kvr_harness_start(&h, 0, extra);
    snprintf(sample, sizeof sample, "kvroute_engine_models_failures_total{engine=\"%s\"}", url);
    cr_assert(kvr_harness_wait_metric_reach(&h, sample, 1, 5000));
    cr_expect(kvr_test_wait_file_contains(h.log_path, "engine_models_failed", 5000));
    snprintf(sample, sizeof sample, "kvroute_engine_models{engine=\"%s\"}", url);
    cr_expect_eq(kvr_harness_metric(&h, sample), 0);
    char *resp;
    const char *body =
        "{\"model\":\"whatever\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, body, &resp, 5000),
                 200, "%s", resp);
    free(resp);
}

Test(pools, an_engine_that_stops_listing_keeps_its_last_list)
{
    /* The scripted engine lists what it is told until its bodies are set; then /v1/models is a 404. */
    const char *extra[] = {"--health-path", "/metrics", NULL};
    kvr_harness_start(&h, 1, extra);
    kvr_fake_set_models(h.fleet, 0, "m-0,shared"); /* learnt at the next health period */
    char sample[160];
    snprintf(sample, sizeof sample, "kvroute_engine_models{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    cr_assert(kvr_harness_wait_metric(&h, sample, 2, 5000));
    kvr_fake_set_bodies(h.fleet, 0, "# idle\n", NULL);
    char failures[160];
    snprintf(failures, sizeof failures,
             "kvroute_engine_models_failures_total{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    cr_assert(kvr_harness_wait_metric_reach(&h, failures, 1, 5000));
    cr_expect_eq(kvr_harness_metric(&h, sample), 2, "the last known list is kept");
    char *resp;
    const char *body =
        "{\"model\":\"shared\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, body, &resp, 5000),
                 200, "%s", resp);
    free(resp);
    body = "{\"model\":\"m-1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, body, &resp, 5000),
                 404, "%s", resp);
    free(resp);
    /* GET /v1/models serves the list routing uses: the last good one, not a 502. */
    cr_expect_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200, "%s",
                 resp);
    const char *list = kvr_test_http_body(resp);
    cr_expect(list && strstr(list, "\"id\":\"m-0\"") && strstr(list, "\"id\":\"shared\""), "%s",
              list ? list : resp);
    free(resp);
}

Test(pools, v1_models_is_the_union_of_fresh_and_last_good_lists)
{
    kvr_harness_start(&h, 2, NULL);
    kvr_fake_set_models(h.fleet, 0, "a-0");
    kvr_fake_set_models(h.fleet, 1, "b-1");
    char sample[160];
    for (int i = 0; i < 2; i++) {
        snprintf(sample, sizeof sample,
                 "kvroute_engine_serves_model{engine=\"http://127.0.0.1:%u\",model=\"%c-%d\"}",
                 kvr_fake_port(h.fleet, i), i ? 'b' : 'a', i);
        cr_assert(kvr_harness_wait_metric(&h, sample, 1, 5000), "%s", sample);
    }
    /* Engine 1 now answers a list with no usable id: its last good list stands in. */
    kvr_fake_set_models(h.fleet, 1, "");
    snprintf(sample, sizeof sample,
             "kvroute_engine_models_failures_total{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 1));
    cr_assert(kvr_harness_wait_metric_reach(&h, sample, 1, 5000));
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200, "%s",
                 resp);
    const char *list = kvr_test_http_body(resp);
    cr_expect(strstr(list, "\"id\":\"a-0\"") && strstr(list, "\"id\":\"b-1\""), "%s", list);
    free(resp);
}

/*
 * An engine's id the router would read as another name ("m\u0000evil" as
 * "m") is dropped and counted: it never makes the engine
 * serve "m", in routing or in GET /v1/models.
 */
Test(pools, an_ambiguous_id_in_an_engines_list_is_dropped_and_counted)
{
    const char *extra[] = {"--log-level", "info", NULL};
    kvr_harness_start(&h, 1, extra);
    kvr_fake_set_models(h.fleet, 0, "m-0,m\\u0000evil");
    char sample[160], failures[160];
    snprintf(failures, sizeof failures,
             "kvroute_engine_models_failures_total{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    cr_assert(kvr_harness_wait_metric_reach(&h, failures, 1, 5000));
    cr_expect(kvr_test_wait_file_contains(h.log_path, "ambiguous ids dropped", 5000));
    snprintf(sample, sizeof sample, "kvroute_engine_models{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    cr_expect_eq(kvr_harness_metric(&h, sample), 1, "only m-0 is learnt");
    char *resp;
    cr_expect_eq(post_model_on(h.port, "m", &resp), 404, "%s", resp);
    free(resp);
    cr_expect_eq(post_model_on(h.port, "m-0", &resp), 200, "%s", resp);
    free(resp);
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200, "%s",
                 resp);
    const char *list = kvr_test_http_body(resp);
    cr_expect(strstr(list, "\"id\":\"m-0\"") && !strstr(list, "\"id\":\"m\""), "%s", list);
    free(resp);
}

/* A body whose model the router and a Python engine read differently is a 400, not a guess. */
Test(pools, a_model_that_reads_two_ways_is_400)
{
    kvr_harness_start(&h, 1, NULL);
    kvr_fake_set_models(h.fleet, 0, "m,x");
    char sample[160];
    snprintf(sample, sizeof sample, "kvroute_engine_models{engine=\"http://127.0.0.1:%u\"}",
             kvr_fake_port(h.fleet, 0));
    cr_assert(kvr_harness_wait_metric(&h, sample, 2, 5000));
    static const char *const bodies[] = {
        "{\"model\":\"m\",\"model\":\"x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
        "{\"model\":\"m\\u0000x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
        "{\"model\":\"m\xff\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char *resp;
        cr_expect_eq(
            kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, bodies[i], &resp, 5000),
            400, "%s: %s", bodies[i], resp);
        cr_expect(strstr(resp, "ambiguous body: 'model'") && strstr(resp, "invalid_request_error"),
                  "%s", resp);
        free(resp);
    }
    cr_expect_eq(kvr_fake_requests(h.fleet, -1), 0, "nothing reached the engine");
}

static int post_model(const char *model, char **resp)
{
    char body[256];
    snprintf(body, sizeof body,
             "{\"model\":\"%s\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", model);
    return kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, body, resp, 5000);
}

Test(pools, pins_come_from_the_config_file_sighup_and_post_engines)
{
    char cfg_path[128];
    kvr_test_unique_name(cfg_path, sizeof cfg_path, "/tmp/kvroute-pools-cfg");
    kvr_fake_fleet_t *fleet = kvr_fake_start(2);
    FILE *f = fopen(cfg_path, "w");
    fprintf(f, "engine http://127.0.0.1:%u,model=pinned-a\nadmin-token s3cret\n",
            kvr_fake_port(fleet, 0));
    fclose(f);
    const char *extra[] = {"--config", cfg_path, "--log-level", "info", NULL};
    kvr_harness_start(&h, 0, extra);
    h.fleet = fleet;
    char *resp;
    cr_expect_eq(post_model("pinned-a", &resp), 200,
                 "pinned: the engine's own list (m) does not count");
    free(resp);
    cr_expect_eq(post_model("m", &resp), 404);
    free(resp);

    /* SIGHUP: the same engine, now pinned to another model. */
    f = fopen(cfg_path, "w");
    fprintf(f, "engine http://127.0.0.1:%u,model=pinned-b\n", kvr_fake_port(fleet, 0));
    fclose(f);
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "reloaded config", 5000));
    cr_expect_eq(post_model("pinned-b", &resp), 200);
    free(resp);
    cr_expect_eq(post_model("pinned-a", &resp), 404);
    free(resp);

    /* POST /engines with models; a bad list is a 400. */
    char body[256];
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%u\",\"models\":[\"posted\"]}",
             kvr_fake_port(fleet, 1));
    cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                               "{\"url\":\"http://127.0.0.1:1\",\"models\":[7]}", &resp, 3000),
                 400);
    free(resp);
    cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                               body, &resp, 3000),
                 201);
    free(resp);
    cr_assert_eq(post_model("posted", &resp), 200);
    char v[64], want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%u", kvr_fake_port(fleet, 1));
    cr_expect_str_eq(kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v), want);
    free(resp);
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200);
    const char *list = kvr_test_http_body(resp);
    cr_expect(strstr(list, "\"posted\"") && strstr(list, "\"pinned-b\"") &&
                  !strstr(list, "\"pinned-a\""),
              "%s", list);
    free(resp);
    unlink(cfg_path);
}
