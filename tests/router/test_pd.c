/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Disaggregated serving end to end: kvroute with --pd-protocol vllm in front
 * of kvroute-sim engines given role=prefill and role=decode, and the
 * failures of either half before and after the client saw a byte.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

#define ENGINES 3

static pid_t sim_pid;
static uint16_t sim_port, admin_port;
static kvr_harness_t h;
static char decision_log[128];

static void teardown(void)
{
    kvr_harness_stop(&h);
    if (sim_pid > 0)
        kvr_test_stop(sim_pid, SIGTERM, 5000);
    sim_pid = 0;
    if (decision_log[0])
        unlink(decision_log);
    decision_log[0] = '\0';
}

TestSuite(pd, .fini = teardown, .timeout = 60.);

/*
 * roles[i] is engine i's role= ("" for none); more: extra kvroute flags, sim_more extra
 * kvroute-sim flags, NULL-terminated; spec_more[i] is appended to engine i's spec.
 */
static void start_with(const char *const roles[ENGINES], const char *const *more,
                       const char *const *sim_more, const char *const spec_more[ENGINES])
{
    sim_port = kvr_test_free_port_range(ENGINES);
    admin_port = kvr_test_free_port();
    cr_assert_gt(sim_port, 0);
    char port[16], admin[16], engines[8];
    snprintf(port, sizeof port, "%u", sim_port);
    snprintf(admin, sizeof admin, "%u", admin_port);
    snprintf(engines, sizeof engines, "%d", ENGINES);
    char *argv[32] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                      "--engines",
                      engines,
                      "--port",
                      port,
                      "--admin-port",
                      admin,
                      "--time-scale",
                      "50",
                      "--log-level",
                      "warn"};
    size_t n_argv = 11;
    for (size_t i = 0; sim_more && sim_more[i] && n_argv < 31; i++)
        argv[n_argv++] = (char *)sim_more[i];
    argv[n_argv] = NULL;
    sim_pid = kvr_test_spawn(argv, NULL);
    for (int i = 0; i < ENGINES; i++)
        cr_assert(kvr_test_wait_port((uint16_t)(sim_port + i), 5000));
    static char urls[ENGINES][96];
    const char *extra[2 * ENGINES + 24];
    size_t k = 0;
    for (int i = 0; i < ENGINES; i++) {
        if (!roles[i])
            continue;
        snprintf(urls[i], sizeof urls[i], "http://127.0.0.1:%u%s%s%s", sim_port + i,
                 roles[i][0] ? ",role=" : "", roles[i],
                 spec_more && spec_more[i] ? spec_more[i] : "");
        extra[k++] = "--engine";
        extra[k++] = urls[i];
    }
    kvr_test_unique_name(decision_log, sizeof decision_log, "/tmp/kvroute-pd-decisions");
    extra[k++] = "--decision-log";
    extra[k++] = decision_log;
    extra[k++] = "--policy";
    extra[k++] = "round_robin";
    extra[k++] = "--fail-threshold";
    extra[k++] = "1";
    for (size_t i = 0; more && more[i]; i++)
        extra[k++] = more[i];
    extra[k] = NULL;
    kvr_harness_start(&h, 0, extra);
}

static void start(const char *const roles[ENGINES], const char *const *more)
{
    start_with(roles, more, NULL, NULL);
}

static void fault(int engine, const char *body)
{
    char path[64];
    char *resp = NULL;
    snprintf(path, sizeof path, "/admin/fault?engine=%d", engine);
    cr_assert_eq(kvr_test_http(admin_port, "POST", path, NULL, body, &resp, 3000), 200);
    free(resp);
}

static int engine_of(const char *resp)
{
    char v[64];
    if (!kvr_harness_header(resp, "X-Kvroute-Engine", v, sizeof v))
        return -1;
    const char *colon = strrchr(v, ':');
    return colon ? atoi(colon + 1) - sim_port : -1;
}

static const char whole[] = "{\"model\":\"sim-30b-a3b\",\"max_tokens\":6,\"prompt\":\"the prefill "
                            "engine builds this prompt's KV and the decode engine pulls it\"}";
static const char streamed[] =
    "{\"model\":\"sim-30b-a3b\",\"max_tokens\":6,\"stream\":true,"
    "\"messages\":[{\"role\":\"user\",\"content\":\"stream me the decode engine's tokens\"}]}";

static void expect_counters_released(void)
{
    cr_expect(kvr_harness_wait_zero(&h, 5000), "shadow counters left charged: %ld",
              kvr_harness_shadow_total(&h));
}

Test(pd, whole_and_streamed_answers_come_from_the_decode_engine)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 200);
    cr_expect_eq(engine_of(resp), 1, "answered by %d", engine_of(resp));
    const char *body = kvr_test_http_body(resp);
    cr_expect_null(strstr(body, "kv_transfer_params"), "the prefill's params leaked: %s", body);
    cr_expect_not_null(strstr(body, "\"completion_tokens\":6"), "%s", body);
    free(resp);
    cr_assert_eq(
        kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000), 200);
    char *sse = (char *)kvr_test_http_body(resp);
    cr_assert_geq(kvr_harness_dechunk(sse), 0);
    cr_expect_not_null(strstr(sse, "data: [DONE]"), "%s", sse);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 2);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"decode\"}"), 2);
    char role_sample[96];
    snprintf(role_sample, sizeof role_sample,
             "kvroute_engine_role{engine=\"http://127.0.0.1:%u\",role=\"prefill\"}", sim_port);
    cr_expect_eq(kvr_harness_metric(&h, role_sample), 1);
    expect_counters_released();
    char needle[160];
    snprintf(needle, sizeof needle,
             "\"engine\":\"http://127.0.0.1:%u\",\"prefill_engine\":\"http://127.0.0.1:%u\"",
             sim_port + 1, sim_port);
    cr_expect(kvr_test_wait_file_contains(decision_log, needle, 5000),
              "no decision record names both engines (%s)", needle);
    /* --policy (round_robin here) picks the prefill engine, --pd-decode-policy the decode one */
    cr_expect(kvr_test_file_contains(decision_log, "\"reason\":\"least_load_headroom\""),
              "the decode engine was not chosen by kv_headroom");
}

Test(pd, a_model_with_only_prefill_engines_is_a_clear_503)
{
    const char *roles[ENGINES] = {"prefill", "prefill", NULL};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 503);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "no healthy decode engine"), "%s",
                       kvr_test_http_body(resp));
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_unpaired_total"), 1);
    cr_expect(kvr_test_wait_file_contains(h.log_path, "pd_unpaired", 5000));
}

Test(pd, without_the_protocol_only_role_both_engines_serve)
{
    const char *roles[ENGINES] = {"prefill", "decode", ""};
    start(roles, NULL);
    for (int i = 0; i < 3; i++) {
        char *resp;
        cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000),
                     200);
        cr_expect_eq(engine_of(resp), 2);
        free(resp);
    }
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 0);
}

Test(pd, a_failing_prefill_engine_is_retried_on_another)
{
    const char *roles[ENGINES] = {"prefill", "prefill", "decode"};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    fault(0, "{\"error_rate\":1}");
    for (int i = 0; i < 2; i++) { /* round robin: one of them starts on engine 0 */
        char *resp;
        cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000),
                     200);
        cr_expect_eq(engine_of(resp), 2);
        free(resp);
    }
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"prefill\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"prefill\"}"), 0);
    expect_counters_released();
}

Test(pd, a_dead_prefill_engine_is_retried_on_another)
{
    const char *roles[ENGINES] = {"prefill", "prefill", "decode"};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    fault(0, "{\"crash\":true}");
    cr_assert(kvr_test_wait_port_closed(sim_port, 10000));
    for (int i = 0; i < 2; i++) {
        char *resp;
        cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000),
                     200);
        free(resp);
    }
    expect_counters_released();
}

Test(pd, a_dead_decode_engine_is_retried_with_a_fresh_prefill)
{
    const char *roles[ENGINES] = {"prefill", "decode", "decode"};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    fault(1, "{\"crash\":true}");
    cr_assert(kvr_test_wait_port_closed((uint16_t)(sim_port + 1), 10000));
    for (int i = 0; i < 2; i++) {
        char *resp;
        cr_assert_eq(
            kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000),
            200);
        cr_expect_eq(engine_of(resp), 2);
        free(resp);
    }
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"decode\"}"), 1);
    /* each retry prefilled again: more prefills than answered requests */
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 3);
    expect_counters_released();
}

Test(pd, a_decode_dying_after_its_headers_before_a_token_is_retried_with_a_fresh_prefill)
{
    /* engine 1 answers 200 and its SSE headers, then drops the connection before any token */
    const char *roles[ENGINES] = {"prefill", "decode", "decode"};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    fault(1, "{\"drop_after_tokens\":0}");
    for (int i = 0; i < 2; i++) {
        char *resp;
        cr_assert_eq(
            kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000),
            200);
        cr_expect_eq(engine_of(resp), 2);
        char *sse = (char *)kvr_test_http_body(resp);
        cr_assert_geq(kvr_harness_dechunk(sse), 0);
        cr_expect_not_null(strstr(sse, "data: [DONE]"), "%s", sse);
        free(resp);
    }
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"decode\"}"), 1);
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 3);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"decode\"}"), 0);
    expect_counters_released();
}

Test(pd, a_decode_engine_failing_mid_stream_cuts_the_client_with_an_error_event)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    fault(1, "{\"drop_after_tokens\":2}");
    char *resp = NULL;
    kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000);
    cr_assert_not_null(resp);
    cr_expect_not_null(strstr(resp, "the engine failed mid-stream"), "%s", resp);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"decode\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"decode\"}"), 0);
    expect_counters_released();
}

Test(pd, a_lost_transfer_is_a_counted_timeout_not_a_hang)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", "--pd-transfer-timeout-ms", "300",
                                       "--retries", "0", NULL});
    fault(1, "{\"lose_transfers\":true}");
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 20000), 504);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_transfer_timeouts_total"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"decode\"}"), 1);
    expect_counters_released();
}

Test(pd, the_sim_refuses_kv_it_does_not_hold)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start(roles, NULL);
    char body[512], *resp;
    snprintf(
        body, sizeof body,
        "{\"prompt\":\"x\",\"max_tokens\":2,\"kv_transfer_params\":{\"do_remote_prefill\":true,"
        "\"do_remote_decode\":false,\"remote_engine_id\":\"http://127.0.0.1:%u\","
        "\"remote_block_ids\":[424242],\"remote_host\":\"127.0.0.1\",\"remote_port\":%u}}",
        sim_port, sim_port);
    cr_assert_eq(
        kvr_test_http((uint16_t)(sim_port + 1), "POST", "/v1/completions", NULL, body, &resp, 5000),
        500);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "holds no KV"), "%s",
                       kvr_test_http_body(resp));
    free(resp);
}

static bool engines_doc_has(const char *needle)
{
    char *resp = NULL;
    bool found = kvr_test_http(h.admin_port, "GET", "/engines", NULL, NULL, &resp, 3000) == 200 &&
                 strstr(kvr_test_http_body(resp), needle);
    free(resp);
    return found;
}

Test(pd, roles_come_from_the_config_file_sighup_and_post_engines)
{
    char cfg_path[128];
    kvr_test_unique_name(cfg_path, sizeof cfg_path, "/tmp/kvroute-pd-cfg");
    const char *roles[ENGINES] = {NULL, NULL, NULL};
    /* the sim's ports are known once start() picked them: write the file, then SIGHUP */
    FILE *f = fopen(cfg_path, "w");
    cr_assert_not_null(f);
    fprintf(f, "admin-token s3cret\n");
    fclose(f);
    start(roles, (const char *const[]){"--config", cfg_path, "--pd-protocol", "vllm", "--log-level",
                                       "info", NULL});
    f = fopen(cfg_path, "w");
    fprintf(f,
            "admin-token s3cret\nengine http://127.0.0.1:%u,role=prefill\n"
            "engine http://127.0.0.1:%u,role=decode\n",
            sim_port, sim_port + 1);
    fclose(f);
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "role=decode", 5000), "see %s", h.log_path);
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 200);
    cr_expect_eq(engine_of(resp), 1);
    free(resp);
    cr_expect(engines_doc_has("\"role\":\"prefill\""));

    /* SIGHUP turns the decode engine into a colocated one: requests go to it whole */
    f = fopen(cfg_path, "w");
    fprintf(f,
            "admin-token s3cret\nengine http://127.0.0.1:%u,role=prefill\n"
            "engine http://127.0.0.1:%u,role=both\n",
            sim_port, sim_port + 1);
    fclose(f);
    kill(h.pid, SIGHUP);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "reloaded config", 5000));
    cr_assert(kvr_test_wait_until((bool (*)(void *))engines_doc_has, "\"role\":\"both\"", 5000));
    double prefills = kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}");
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 200);
    cr_expect_eq(engine_of(resp), 1);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), prefills);

    /* POST /engines: a decode engine pairs with the prefill one again; a bad role is a 400 */
    char body[160];
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%u\",\"role\":\"sideways\"}",
             sim_port + 2);
    cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                               body, &resp, 3000),
                 400);
    free(resp);
    snprintf(body, sizeof body, "{\"url\":\"http://127.0.0.1:%u\",\"role\":\"decode\"}",
             sim_port + 2);
    cr_assert_eq(kvr_test_http(h.admin_port, "POST", "/engines", "Authorization: Bearer s3cret\r\n",
                               body, &resp, 3000),
                 201);
    free(resp);
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 200);
    cr_expect_eq(engine_of(resp), 2, "answered by %d", engine_of(resp));
    free(resp);
    expect_counters_released();
    unlink(cfg_path);
}

/* A prefill engine whose 200 answer does not say where the KV is: a 502 that says why, nothing held. */
static void bad_prefill_answer(const char *json)
{
    char reply[512];
    snprintf(reply, sizeof reply,
             "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
             "Connection: close\r\n\r\n%s",
             strlen(json), json);
    kvr_raw_engine_t *raw = kvr_raw_engine_start(reply);
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%u,role=prefill", kvr_raw_engine_port(raw));
    const char *roles[ENGINES] = {NULL, "decode", NULL};
    start(roles,
          (const char *const[]){"--engine", url, "--pd-protocol", "vllm", "--retries", "0", NULL});
    char *resp;
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 502);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "kv_transfer_params"), "%s",
                       kvr_test_http_body(resp));
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"prefill\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"decode\"}"), 0);
    expect_counters_released();
    kvr_harness_stop(&h);
    kvr_raw_engine_stop(raw);
}

Test(pd, a_prefill_answer_without_params_is_a_502)
{
    bad_prefill_answer("{\"choices\":[{\"text\":\"x\"}]}");
}

Test(pd, a_prefill_answer_with_params_not_an_object_is_a_502)
{
    bad_prefill_answer("{\"kv_transfer_params\":[1,2,3]}");
}

Test(pd, a_prefill_answer_that_is_not_json_is_a_502)
{
    bad_prefill_answer("{\"kv_transfer_params\":{\"remote_host\":");
}

Test(pd, a_session_stays_pinned_to_its_prefill_engine)
{
    const char *roles[ENGINES] = {"prefill", "prefill", "decode"};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", "--placement", "oneshot", NULL});
    for (int i = 0; i < 4; i++) {
        char *resp;
        cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", "X-Session-ID: alice\r\n",
                                   whole, &resp, 10000),
                     200);
        cr_expect_eq(engine_of(resp), 2);
        free(resp);
    }
    /* the pin is the prefill engine's: the decode phase neither moves nor replaces it */
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_session_placements_total{kind=\"new\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_session_placements_total{kind=\"replaced\"}"), 0);
    expect_counters_released();
}

/* ---- SGLang's bootstrap protocol: the prefill and the decode request at once ---- */

static uint16_t bootstrap_base;
static char bootstrap_specs[ENGINES][40];

/* Engines whose roles[i] is "prefill" are the sim's SGLang prefill engines, with bootstrap
 * ports bootstrap_base + i given to the router; port_skew shifts what the router is told. */
static void start_sglang_with(const char *const roles[ENGINES], const char *const *more,
                              int port_skew, const char *sim_flag, const char *sim_value)
{
    bootstrap_base = kvr_test_free_port_range(ENGINES);
    cr_assert_gt(bootstrap_base, 0);
    static char prefill_list[16], base[16];
    prefill_list[0] = '\0';
    const char *spec_more[ENGINES] = {NULL};
    for (int i = 0; i < ENGINES; i++) {
        if (!roles[i] || strcmp(roles[i], "prefill") != 0)
            continue;
        size_t n = strlen(prefill_list);
        snprintf(prefill_list + n, sizeof prefill_list - n, "%s%d", n ? "," : "", i);
        snprintf(bootstrap_specs[i], sizeof bootstrap_specs[i], ",bootstrap_port=%d",
                 bootstrap_base + i + port_skew);
        spec_more[i] = bootstrap_specs[i];
    }
    snprintf(base, sizeof base, "%u", bootstrap_base);
    const char *sim_more[] = {"--prefill-engines", prefill_list, "--bootstrap-port", base, sim_flag,
                              sim_value,           NULL};
    const char *flags[16] = {"--pd-protocol", "sglang"};
    size_t k = 2;
    for (size_t i = 0; more && more[i] && k < 15; i++)
        flags[k++] = more[i];
    flags[k] = NULL;
    start_with(roles, flags, sim_more, spec_more);
}

static void start_sglang(const char *const roles[ENGINES], const char *const *more, int port_skew)
{
    start_sglang_with(roles, more, port_skew, NULL, NULL);
}

/* The sim's requests_total of engine i, from its admin state. */
static int sim_requests(int engine)
{
    char path[64], *resp = NULL;
    snprintf(path, sizeof path, "/admin/state?engine=%d", engine);
    int n = -1;
    if (kvr_test_http(admin_port, "GET", path, NULL, NULL, &resp, 3000) == 200) {
        const char *at = strstr(kvr_test_http_body(resp), "\"requests_total\":");
        if (at)
            n = atoi(at + strlen("\"requests_total\":"));
    }
    free(resp);
    return n;
}

Test(pd, sglang_whole_and_streamed_answers_come_from_the_decode_engine)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start_sglang(roles, NULL, 0);
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 200);
    cr_expect_eq(engine_of(resp), 1, "answered by %d", engine_of(resp));
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "\"completion_tokens\":6"), "%s",
                       kvr_test_http_body(resp));
    free(resp);
    cr_assert_eq(
        kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000), 200);
    cr_expect_eq(engine_of(resp), 1);
    char *sse = (char *)kvr_test_http_body(resp);
    cr_assert_geq(kvr_harness_dechunk(sse), 0);
    cr_expect_not_null(strstr(sse, "data: [DONE]"), "%s", sse);
    free(resp);
    /* each request went to both engines: the prefill one built the room the decode one pulled */
    cr_expect_eq(sim_requests(0), 2);
    cr_expect_eq(sim_requests(1), 2);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 2);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"decode\"}"), 2);
    expect_counters_released();
    char needle[160];
    snprintf(needle, sizeof needle,
             "\"engine\":\"http://127.0.0.1:%u\",\"prefill_engine\":\"http://127.0.0.1:%u\"",
             sim_port + 1, sim_port);
    cr_expect(kvr_test_wait_file_contains(decision_log, needle, 5000),
              "no decision record names both engines (%s)", needle);
}

Test(pd, sglang_post_engines_takes_a_prefill_engines_bootstrap_port)
{
    /* the sim's engine 0 is an SGLang prefill engine; the router learns it from POST /engines */
    bootstrap_base = kvr_test_free_port_range(ENGINES);
    cr_assert_gt(bootstrap_base, 0);
    char base[16];
    snprintf(base, sizeof base, "%u", bootstrap_base);
    const char *roles[ENGINES] = {NULL, "decode", NULL};
    start_with(
        roles, (const char *const[]){"--pd-protocol", "sglang", "--admin-token", "s3cret", NULL},
        (const char *const[]){"--prefill-engines", "0", "--bootstrap-port", base, NULL}, NULL);
    static const char auth[] = "Authorization: Bearer s3cret\r\n";
    const char *bad[] = {"0", "65536", "\"8998\"", "1.5", "-1", "true"};
    char body[200], *resp;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(body, sizeof body,
                 "{\"url\":\"http://127.0.0.1:%u\",\"role\":\"prefill\",\"bootstrap_port\":%s}",
                 sim_port, bad[i]);
        cr_expect_eq(kvr_test_http(h.admin_port, "POST", "/engines", auth, body, &resp, 3000), 400,
                     "bootstrap_port %s", bad[i]);
        if (resp)
            cr_expect_not_null(strstr(kvr_test_http_body(resp), "bootstrap_port"), "%s",
                               kvr_test_http_body(resp));
        free(resp);
    }
    snprintf(body, sizeof body,
             "{\"url\":\"http://127.0.0.1:%u\",\"role\":\"prefill\",\"bootstrap_port\":%u}",
             sim_port, bootstrap_base);
    cr_assert_eq(kvr_test_http(h.admin_port, "POST", "/engines", auth, body, &resp, 3000), 201);
    free(resp);
    char shown[48];
    snprintf(shown, sizeof shown, "\"bootstrap_port\":%u", bootstrap_base);
    cr_expect(engines_doc_has(shown), "GET /engines does not show %s", shown);
    char healthy[96];
    snprintf(healthy, sizeof healthy, "\"id\":\"http://127.0.0.1:%u\",\"index\":1,\"healthy\":true",
             sim_port);
    cr_assert(kvr_test_wait_until((bool (*)(void *))engines_doc_has, healthy, 5000),
              "the added prefill engine never became healthy");
    /* the sim's decode engine pulls the KV from the port the router named: a 200 */
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 200,
                 "%s", resp ? kvr_test_http_body(resp) : "");
    cr_expect_eq(engine_of(resp), 1);
    free(resp);
    cr_expect_eq(sim_requests(0), 1);
    expect_counters_released();
}

Test(pd, sglang_a_decode_told_the_wrong_bootstrap_port_fails_the_transfer)
{
    /* the sim checks the bootstrap port the router sent against the prefill engine's */
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start_sglang(roles, (const char *const[]){"--retries", "0", NULL}, 1);
    char *resp;
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 500);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "bootstrap_port"), "%s",
                       kvr_test_http_body(resp));
    free(resp);
    expect_counters_released();
}

Test(pd, sglang_a_failing_prefill_engine_retries_the_pair_elsewhere)
{
    const char *roles[ENGINES] = {"prefill", "prefill", "decode"};
    start_sglang(roles, NULL, 0);
    fault(0, "{\"error_rate\":1}");
    for (int i = 0; i < 2; i++) { /* round robin: one of them starts on engine 0 */
        char *resp;
        cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000),
                     200);
        cr_expect_eq(engine_of(resp), 2);
        free(resp);
    }
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"prefill\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"decode\"}"), 0);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"prefill\"}"), 0);
    expect_counters_released();
}

Test(pd, sglang_a_dead_prefill_engine_retries_the_pair_elsewhere)
{
    const char *roles[ENGINES] = {"prefill", "prefill", "decode"};
    start_sglang(roles, NULL, 0);
    fault(0, "{\"crash\":true}");
    cr_assert(kvr_test_wait_port_closed(sim_port, 10000));
    for (int i = 0; i < 2; i++) {
        char *resp;
        cr_assert_eq(
            kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000),
            200);
        cr_expect_eq(engine_of(resp), 2);
        free(resp);
    }
    cr_expect(kvr_test_wait_file_contains(h.log_path, "pd_prefill_failed", 5000));
    expect_counters_released();
}

Test(pd, sglang_a_dead_decode_engine_before_its_first_token_retries_the_pair)
{
    const char *roles[ENGINES] = {"prefill", "decode", "decode"};
    start_sglang(roles, NULL, 0);
    fault(1, "{\"crash\":true}");
    cr_assert(kvr_test_wait_port_closed((uint16_t)(sim_port + 1), 10000));
    for (int i = 0; i < 2; i++) {
        char *resp;
        cr_assert_eq(
            kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000),
            200);
        cr_expect_eq(engine_of(resp), 2);
        free(resp);
    }
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"decode\"}"), 1);
    /* each retry is a fresh pair: more prefills than answered requests */
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 3);
    expect_counters_released();
}

Test(pd, sglang_a_decode_dying_after_its_headers_before_a_token_retries_the_pair)
{
    /* engine 1 answers 200 and its SSE headers, then drops the connection before any token */
    const char *roles[ENGINES] = {"prefill", "decode", "decode"};
    start_sglang(roles, NULL, 0);
    fault(1, "{\"drop_after_tokens\":0}");
    for (int i = 0; i < 2; i++) {
        char *resp;
        cr_assert_eq(
            kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000),
            200);
        cr_expect_eq(engine_of(resp), 2);
        char *sse = (char *)kvr_test_http_body(resp);
        cr_assert_geq(kvr_harness_dechunk(sse), 0);
        cr_expect_not_null(strstr(sse, "data: [DONE]"), "%s", sse);
        cr_expect_null(strstr(sse, "\"error\""), "%s", sse);
        free(resp);
    }
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"decode\"}"), 1);
    /* the retry is a fresh pair: a prefill for it too */
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 3);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"decode\"}"), 0);
    expect_counters_released();
}

Test(pd, sglang_a_decode_failing_mid_stream_cuts_the_client_with_an_error_event)
{
    /* after its first tokens reached the client the stream cannot be retried: the error event */
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start_sglang(roles, NULL, 0);
    fault(1, "{\"drop_after_tokens\":2}");
    char *resp = NULL;
    kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 10000);
    cr_assert_not_null(resp);
    cr_expect_not_null(strstr(resp, "the engine failed mid-stream"), "%s", resp);
    cr_expect_null(strstr(resp, "data: [DONE]"), "%s", resp);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"decode\"}"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_retries_total{phase=\"decode\"}"), 0);
    cr_expect_eq(sim_requests(0), 1, "the prefill engine saw one request");
    expect_counters_released();
}

Test(pd, sglang_a_decode_whose_kv_never_comes_is_a_counted_timeout)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start_sglang(
        roles, (const char *const[]){"--pd-transfer-timeout-ms", "300", "--retries", "0", NULL}, 0);
    fault(1, "{\"lose_transfers\":true}");
    char *resp;
    cr_assert_eq(
        kvr_test_http(h.port, "POST", "/v1/chat/completions", NULL, streamed, &resp, 20000), 504);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_transfer_timeouts_total"), 1);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_failures_total{phase=\"decode\"}"), 1);
    expect_counters_released();
}

Test(pd, sglang_a_batch_is_a_400)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start_sglang(roles, NULL, 0);
    char *resp;
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL,
                               "{\"model\":\"sim-30b-a3b\",\"prompt\":[\"a\",\"b\"]}", &resp,
                               10000),
                 400);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "not a batch"), "%s",
                       kvr_test_http_body(resp));
    free(resp);
    cr_expect_eq(sim_requests(0), 0);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 0);
}

Test(pd, sglang_a_prefill_refusal_reaches_the_client)
{
    static const char json[] = "{\"error\":{\"message\":\"prompt too long for the prefill\"}}";
    char reply[512];
    snprintf(reply, sizeof reply,
             "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: "
             "%zu\r\nConnection: close\r\n\r\n%s",
             strlen(json), json);
    kvr_raw_engine_t *raw = kvr_raw_engine_start(reply);
    char url[96];
    snprintf(url, sizeof url, "http://127.0.0.1:%u,role=prefill", kvr_raw_engine_port(raw));
    const char *roles[ENGINES] = {NULL, "decode", NULL};
    /* It answers its health checks 400 too: none may run before the request, or it is down. */
    start_sglang(
        roles, (const char *const[]){"--engine", url, "--health-interval-ms", "3600000", NULL}, 0);
    char *resp;
    cr_expect_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 10000), 400);
    cr_expect_not_null(strstr(kvr_test_http_body(resp), "prompt too long for the prefill"), "%s",
                       kvr_test_http_body(resp));
    free(resp);
    expect_counters_released();
    kvr_harness_stop(&h);
    kvr_raw_engine_stop(raw);
}

/* The sim moves KV at --kv-transfer-gbps: at 1 bit/s a decode waits for hours, in both protocols. */
static void a_slow_transfer_holds_the_decode(bool sglang)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    const char *const slow[] = {"--kv-transfer-gbps", "0.000000001", NULL};
    if (sglang)
        start_sglang_with(
            roles, (const char *const[]){"--pd-transfer-timeout-ms", "300", "--retries", "0", NULL},
            0, slow[0], slow[1]);
    else
        start_with(roles,
                   (const char *const[]){"--pd-protocol", "vllm", "--pd-transfer-timeout-ms", "300",
                                         "--retries", "0", NULL},
                   slow, NULL);
    char *resp;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", NULL, whole, &resp, 20000), 504);
    free(resp);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_transfer_timeouts_total"), 1);
    expect_counters_released();
}

Test(pd, a_slow_kv_transfer_holds_a_vllm_decode)
{
    a_slow_transfer_holds_the_decode(false);
}

Test(pd, a_slow_kv_transfer_holds_an_sglang_decode)
{
    a_slow_transfer_holds_the_decode(true);
}

/* The official OpenAI client (tests/node/router_pd_openai.mjs) through the current router. */
static void openai_client_through_the_pair(const char *protocol)
{
    char url[64], decode_engine[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/v1", h.port);
    snprintf(decode_engine, sizeof decode_engine, "http://127.0.0.1:%u", sim_port + 1);
    setenv("KVR_ROUTER_URL", url, 1);
    setenv("KVR_DECODE_ENGINES", decode_engine, 1);
    int st = kvr_test_run_node("router_pd_openai.mjs", 40000);
    if (st == KVR_TEST_NODE_MISSING)
        cr_skip_test("node or the openai package missing: run scripts/install-deps.sh");
    cr_assert_eq(st, 0, "the openai client failed through --pd-protocol %s (status %d)", protocol,
                 st);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"prefill\"}"), 2);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_pd_requests_total{phase=\"decode\"}"), 2);
    expect_counters_released();
}

Test(pd, openai_npm_client_through_a_vllm_pair)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start(roles, (const char *const[]){"--pd-protocol", "vllm", NULL});
    openai_client_through_the_pair("vllm");
}

Test(pd, openai_npm_client_through_an_sglang_pair)
{
    const char *roles[ENGINES] = {"prefill", "decode", NULL};
    start_sglang(roles, NULL, 0);
    openai_client_through_the_pair("sglang");
}
