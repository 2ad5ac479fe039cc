/* SPDX-License-Identifier: Apache-2.0 */
/*
 * /readiness and GET /v1/models with one model pool dead: kvroute in front
 * of two kvroute-sim fleets, one serving "alpha" and one "beta". Readiness
 * counts healthy engines per pool and is 503 while a pool has none (200 with
 * --readiness any-pool); /v1/models offers only models a healthy engine
 * serves, also before health checks have noticed the pool died.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define PER_POOL 2

static pid_t sim_pid[2];
static uint16_t sim_port[2];
static kvr_harness_t h;
static const char *const pool_model[2] = {"alpha", "beta"};

static void teardown(void)
{
    kvr_harness_stop(&h);
    for (int p = 0; p < 2; p++) {
        if (sim_pid[p] > 0)
            kvr_test_stop(sim_pid[p], SIGTERM, 5000);
        sim_pid[p] = 0;
    }
}

TestSuite(readiness, .fini = teardown, .timeout = 60.);

/* Pool p's fleet on its ports (new ones the first time). */
static void start_sim(int p)
{
    if (sim_port[p] == 0)
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

/* Both fleets behind one router (more: extra kvroute flags), their lists learnt. */
static void start(const char *const *more)
{
    start_sim(0);
    start_sim(1);
    static char specs[2 * PER_POOL][64];
    const char *extra[4 * PER_POOL + 8];
    size_t k = 0;
    for (int p = 0; p < 2; p++) {
        for (int i = 0; i < PER_POOL; i++) {
            char *s = specs[p * PER_POOL + i];
            snprintf(s, sizeof specs[0], "http://127.0.0.1:%u", sim_port[p] + i);
            extra[k++] = "--engine";
            extra[k++] = s;
        }
    }
    for (size_t i = 0; more && more[i]; i++)
        extra[k++] = more[i];
    extra[k] = NULL;
    kvr_harness_start(&h, 0, extra);
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

/* Waits until the router counts pool p's engines as healthy (1) or out (0). */
static void wait_pool(int p, int healthy)
{
    for (int i = 0; i < PER_POOL; i++) {
        char sample[128];
        snprintf(sample, sizeof sample, "kvroute_engine_healthy{engine=\"http://127.0.0.1:%u\"}",
                 sim_port[p] + i);
        cr_assert(kvr_harness_wait_metric(&h, sample, healthy, 10000), "%s never %d", sample,
                  healthy);
    }
}

/* Kills pool p's engines; with wait, until the router has taken them out. */
static void kill_pool(int p, bool wait)
{
    kvr_test_stop(sim_pid[p], SIGKILL, 5000);
    sim_pid[p] = 0;
    if (wait)
        wait_pool(p, 0);
}

/* GET /readiness: its status code, the document in *doc (the caller deletes it). */
static int readiness(cJSON **doc)
{
    char *resp = NULL;
    int status = kvr_test_http(h.port, "GET", "/readiness", NULL, NULL, &resp, 5000);
    *doc = resp ? cJSON_Parse(kvr_test_http_body(resp)) : NULL;
    cr_assert_not_null(*doc, "%s", resp ? resp : "no answer");
    free(resp);
    return status;
}

static const char *status_of(const cJSON *doc)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "status");
    return cJSON_IsString(s) ? s->valuestring : "";
}

static int number_of(const cJSON *o, const char *name)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(n) ? n->valueint : -1;
}

/* Expects the pool of model to be listed with healthy / engines. */
static void expect_pool(const cJSON *doc, const char *model, int healthy, int engines)
{
    const cJSON *pool;
    cJSON_ArrayForEach(pool, cJSON_GetObjectItemCaseSensitive(doc, "pools"))
    {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(pool, "model");
        if (cJSON_IsString(m) && strcmp(m->valuestring, model) == 0) {
            cr_expect_eq(number_of(pool, "healthy"), healthy, "%s healthy", model);
            cr_expect_eq(number_of(pool, "engines"), engines, "%s engines", model);
            return;
        }
    }
    cr_expect_fail("no pool %s in /readiness", model);
}

/* GET /v1/models: 200 expected; whether alpha and beta are listed. */
static void listed_models(bool *alpha, bool *beta)
{
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200, "%s",
                 resp ? resp : "");
    const char *body = kvr_test_http_body(resp);
    *alpha = body && strstr(body, "\"id\":\"alpha\"");
    *beta = body && strstr(body, "\"id\":\"beta\"");
    free(resp);
}

Test(readiness, one_dead_pool_is_not_ready_and_its_model_not_offered)
{
    start(NULL);
    cJSON *doc;
    cr_assert_eq(readiness(&doc), 200);
    cr_expect_str_eq(status_of(doc), "ready");
    cr_expect_eq(number_of(doc, "engines"), 2 * PER_POOL);
    cr_expect_eq(number_of(doc, "healthy"), 2 * PER_POOL);
    expect_pool(doc, "alpha", PER_POOL, PER_POOL);
    expect_pool(doc, "beta", PER_POOL, PER_POOL);
    cJSON_Delete(doc);

    kill_pool(1, true);
    cr_expect_eq(readiness(&doc), 503);
    cr_expect_str_eq(status_of(doc), "pool_down");
    cr_expect_eq(number_of(doc, "engines"), 2 * PER_POOL);
    cr_expect_eq(number_of(doc, "healthy"), PER_POOL);
    expect_pool(doc, "alpha", PER_POOL, PER_POOL);
    expect_pool(doc, "beta", 0, PER_POOL);
    cJSON_Delete(doc);

    bool alpha, beta;
    listed_models(&alpha, &beta);
    cr_expect(alpha && !beta, "alpha listed %d, beta listed %d", alpha, beta);
    char *resp = NULL;
    cr_expect_eq(kvr_test_http(h.port, "GET", "/health", NULL, NULL, &resp, 5000), 200,
                 "liveness does not follow the engines");
    free(resp);

    /* The pool is back once its engines answer health checks again. */
    start_sim(1);
    wait_pool(1, 1);
    cr_expect_eq(readiness(&doc), 200);
    expect_pool(doc, "beta", PER_POOL, PER_POOL);
    cJSON_Delete(doc);
}

Test(readiness, any_pool_is_ready_while_one_pool_lives)
{
    const char *more[] = {"--readiness", "any-pool", NULL};
    start(more);
    kill_pool(1, true);
    cJSON *doc;
    cr_expect_eq(readiness(&doc), 200);
    cr_expect_str_eq(status_of(doc), "ready");
    expect_pool(doc, "beta", 0, PER_POOL);
    cJSON_Delete(doc);
    kill_pool(0, true);
    cr_expect_eq(readiness(&doc), 503);
    cr_expect_str_eq(status_of(doc), "no_healthy_engine");
    cJSON_Delete(doc);
}

/*
 * Health checks an hour apart never notice: the failed /v1/models fetch is
 * what tells the router the pool is gone, and its last good list is not
 * offered for it.
 */
Test(readiness, v1_models_leaves_out_a_pool_that_does_not_answer)
{
    const char *more[] = {"--health-interval-ms", "3600000", NULL};
    start(more);
    kill_pool(1, false);
    bool alpha, beta;
    listed_models(&alpha, &beta);
    cr_expect(alpha && !beta, "alpha listed %d, beta listed %d", alpha, beta);
    /* Each fetch that found no engine is a failed attempt: after --fail-threshold the pool is out. */
    listed_models(&alpha, &beta);
    cJSON *doc;
    cr_expect_eq(readiness(&doc), 503);
    expect_pool(doc, "beta", 0, PER_POOL);
    cJSON_Delete(doc);
}
