/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-sim as its users see it: the real program on loopback ports,
 * spoken to over HTTP (and by the official openai npm client), its
 * telemetry checked by promtool and by field names, its push frames decoded,
 * and every fault mode doing what it says.
 */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/prom.h"
#include "common/state_frame.h"
#include "tests/support/proc.h"

static pid_t sim_pid = -1;
static uint16_t sim_port;

/* Starts kvroute-sim on free consecutive ports with extra args (NULL-terminated). */
static void start_sim(unsigned engines, const char *const *extra)
{
    sim_port = kvr_test_free_port_range(engines + 1);
    cr_assert_gt(sim_port, 0);
    char port[16], n[16];
    snprintf(port, sizeof port, "%u", sim_port);
    snprintf(n, sizeof n, "%u", engines);
    const char *argv[40] = {
        kvr_test_bin("KVR_BIN_KVROUTE_SIM"), "--port", port, "--engines", n, "--log-level", "warn"};
    size_t argc = 7;
    for (size_t i = 0; extra && extra[i]; i++)
        argv[argc++] = extra[i];
    argv[argc] = NULL;
    sim_pid = kvr_test_spawn((char *const *)argv, NULL);
    cr_assert_gt(sim_pid, 0);
    for (unsigned i = 0; i < engines; i++)
        cr_assert(kvr_test_wait_port((uint16_t)(sim_port + i), 5000), "engine %u listens", i);
}

static void stop_sim(void)
{
    if (sim_pid > 0)
        cr_assert_eq(kvr_test_stop(sim_pid, SIGTERM, 5000), 0, "clean exit on SIGTERM");
    sim_pid = -1;
}

static int post(uint16_t port, const char *path, const char *body, char **resp)
{
    return kvr_test_http(port, "POST", path, "Content-Type: application/json\r\n", body, resp,
                         5000);
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static cJSON *body_json(const char *resp)
{
    const char *body = kvr_test_http_body(resp);
    cr_assert_not_null(body);
    cJSON *doc = cJSON_Parse(body);
    cr_assert_not_null(doc, "JSON body: %s", body);
    return doc;
}

/* obj[key] as a whole number; -1 when absent or not a number. */
static long count_of(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
}

/* A chat request whose first message is prefix_char repeated prefix_bytes times. */
static char *chat_body(char prefix_char, size_t prefix_bytes, const char *tail, int max_tokens,
                       bool stream)
{
    char *prefix = malloc(prefix_bytes + 1);
    memset(prefix, prefix_char, prefix_bytes);
    prefix[prefix_bytes] = '\0';
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "model", "sim");
    cJSON *messages = cJSON_AddArrayToObject(doc, "messages");
    cJSON *system = cJSON_CreateObject();
    cJSON_AddItemToArray(messages, system);
    cJSON_AddStringToObject(system, "role", "system");
    cJSON_AddStringToObject(system, "content", prefix);
    cJSON *user = cJSON_CreateObject();
    cJSON_AddItemToArray(messages, user);
    cJSON_AddStringToObject(user, "role", "user");
    cJSON_AddStringToObject(user, "content", tail);
    cJSON_AddNumberToObject(doc, "max_tokens", max_tokens);
    cJSON_AddBoolToObject(doc, "stream", stream);
    cJSON_AddBoolToObject(cJSON_AddObjectToObject(doc, "stream_options"), "include_usage", true);
    char *json = cJSON_PrintUnformatted(doc);
    cr_assert_not_null(json);
    char *text = strdup(json); /* callers free() it */
    cJSON_free(json);
    cJSON_Delete(doc);
    free(prefix);
    return text;
}

static long completion_tokens(const cJSON *doc)
{
    return count_of(cJSON_GetObjectItemCaseSensitive(doc, "usage"), "completion_tokens");
}

static long cached_tokens(const cJSON *doc)
{
    const cJSON *usage = cJSON_GetObjectItemCaseSensitive(doc, "usage");
    return count_of(cJSON_GetObjectItemCaseSensitive(usage, "prompt_tokens_details"),
                    "cached_tokens");
}

Test(sim, chat_stream_is_vllm_shaped, .timeout = 30.)
{
    const char *args[] = {"--time-scale", "10", NULL};
    start_sim(1, args);
    char *body = chat_body('s', 1000, "hi", 6, true), *resp;
    cr_assert_eq(post(sim_port, "/v1/chat/completions", body, &resp), 200);
    cr_assert(strstr(resp, "Content-Type: text/event-stream"));
    cr_assert(strstr(resp, "Transfer-Encoding: chunked"));
    cr_assert_eq(count(resp, "\"object\":\"chat.completion.chunk\""), 8, "role + 6 tokens + usage");
    cr_assert_eq(count(resp, "\"delta\":{\"role\":\"assistant\",\"content\":\"\"}"), 1);
    cr_assert_eq(count(resp, "\"delta\":{\"content\":\""), 6, "one chunk per decode step");
    cr_assert_eq(count(resp, "\"finish_reason\":\"length\""), 1);
    cr_assert(strstr(resp,
                     "\"choices\":[],\"usage\":{\"prompt_tokens\":250,\"total_tokens\":256,"
                     "\"completion_tokens\":6,\"prompt_tokens_details\":{\"cached_tokens\":0}}"),
              "usage chunk: %s", resp);
    cr_assert(strstr(resp, "data: [DONE]\n\n"));
    free(resp);
    free(body);
    stop_sim();
}

Test(sim, same_prefix_reports_cached_tokens, .timeout = 30.)
{
    const char *args[] = {"--time-scale", "10", NULL};
    start_sim(1, args);
    char *resp;
    char *a = chat_body('P', 6400, "first question", 3, false);
    char *b = chat_body('P', 6400, "another question entirely", 3, false);
    char *c = chat_body('Q', 6400, "first question", 3, false);
    cr_assert_eq(post(sim_port, "/v1/chat/completions", a, &resp), 200);
    cJSON *doc = body_json(resp);
    cr_assert_eq(cached_tokens(doc), 0);
    cr_assert_eq(completion_tokens(doc), 3);
    cJSON_Delete(doc);
    free(resp);
    cr_assert_eq(post(sim_port, "/v1/chat/completions", b, &resp), 200);
    doc = body_json(resp);
    /* 6400 shared bytes = 100 blocks of 16 tokens. */
    cr_assert_eq(cached_tokens(doc), 1600, "cached %ld", cached_tokens(doc));
    cJSON_Delete(doc);
    free(resp);
    cr_assert_eq(post(sim_port, "/v1/chat/completions", c, &resp), 200);
    doc = body_json(resp);
    cr_assert_eq(cached_tokens(doc), 0, "a different prefix reports none");
    cJSON_Delete(doc);
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 5000), 200);
    cr_assert(
        strstr(resp,
               "vllm:prefix_cache_hits_total{model_name=\"sim-30b-a3b\",engine=\"0\"} 1600.0\n"),
        "%s", resp);
    free(resp);
    free(a);
    free(b);
    free(c);
    stop_sim();
}

/*
 * Sends n POSTs at once on n connections and reads every answer to the end.
 * Each request but its last byte goes out first, then the last bytes one
 * after the other: however slowly the requests were written, none can
 * start before all are nearly there, so they overlap in the engine.
 */
static void post_many(uint16_t port, const char *path, char **bodies, size_t n, char **resps)
{
    int fds[64];
    kvr_buf_t answers[64];
    cr_assert_leq(n, 64);
    for (size_t i = 0; i < n; i++) {
        size_t body_len = strlen(bodies[i]);
        cr_assert_gt(body_len, 0);
        fds[i] = kvr_test_connect(port);
        cr_assert_geq(fds[i], 0, "connect to the simulator: %s", strerror(errno));
        char head[256];
        int hn = snprintf(head, sizeof head,
                          "POST %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                          "Content-Length: %zu\r\n\r\n",
                          path, body_len);
        cr_assert_eq(write(fds[i], head, (size_t)hn), hn);
        cr_assert_eq(write(fds[i], bodies[i], body_len - 1), (ssize_t)(body_len - 1));
        kvr_buf_init(&answers[i]);
    }
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(write(fds[i], bodies[i] + strlen(bodies[i]) - 1, 1), 1);
    size_t open_fds = n;
    while (open_fds) {
        struct pollfd pfd[64];
        for (size_t i = 0; i < n; i++)
            pfd[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
        cr_assert_gt(poll(pfd, n, 20000), 0, "answers keep coming");
        for (size_t i = 0; i < n; i++) {
            if (fds[i] < 0 || !(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t r = read(fds[i], kvr_buf_tail(&answers[i], 2048), 2048);
            if (r <= 0) {
                close(fds[i]);
                fds[i] = -1;
                pfd[i].fd = -1;
                open_fds--;
                resps[i] = kvr_buf_release(&answers[i], NULL);
                continue;
            }
            kvr_buf_commit(&answers[i], (size_t)r);
        }
    }
}

static long state_field(uint16_t port, const char *field)
{
    char *resp;
    cr_assert_eq(kvr_test_http(port, "GET", "/admin/state", NULL, NULL, &resp, 5000), 200);
    cJSON *doc = body_json(resp);
    const cJSON *engine = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "engines"), 0);
    const cJSON *rank = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(engine, "ranks"), 0);
    long v = count_of(rank, field);
    cJSON_Delete(doc);
    free(resp);
    return v;
}

Test(sim, kv_pressure_evicts_preempts_and_metrics_agree, .timeout = 60.)
{
    /* 128 blocks of KV, 4 slots; 12 requests of 25 distinct prompt blocks and
     * 200 output tokens (39 blocks each): four of them outgrow the cache. */
    const char *args[] = {"--max-running", "4", "--kv-tokens", "2048", "--time-scale", "20", NULL};
    start_sim(1, args);
    char *bodies[12], *resps[12];
    for (int i = 0; i < 12; i++)
        bodies[i] = chat_body((char)('A' + i), 1600, "go", 200, false);
    post_many(sim_port, "/v1/chat/completions", bodies, 12, resps);
    for (int i = 0; i < 12; i++) {
        cr_assert_eq(strncmp(resps[i], "HTTP/1.1 200", 12), 0, "%.200s", resps[i]);
        cJSON *doc = body_json(resps[i]);
        cr_assert_eq(completion_tokens(doc), 200);
        cJSON_Delete(doc);
        free(resps[i]);
        free(bodies[i]);
    }
    cr_assert_leq(state_field(sim_port, "peak_running"), 4, "max_running is never exceeded");
    cr_assert_eq(state_field(sim_port, "peak_running"), 4, "the overflow waited for slots");
    long preemptions = state_field(sim_port, "preemptions");
    cr_assert_gt(preemptions, 0);
    cr_assert_gt(state_field(sim_port, "evictions"), 0, "LRU blocks made room");
    cr_assert_eq(state_field(sim_port, "running") + state_field(sim_port, "waiting"), 0);
    char *resp, want[160];
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 5000), 200);
    snprintf(want, sizeof want,
             "vllm:num_preemptions_total{model_name=\"sim-30b-a3b\",engine=\"0\"} %ld.0\n",
             preemptions);
    cr_assert(strstr(resp, want), "metrics agree: %s", want);
    cr_assert(strstr(resp, "vllm:request_success_total{model_name=\"sim-30b-a3b\",engine=\"0\","
                           "finished_reason=\"length\"} 12.0\n"));
    cr_assert(
        strstr(resp, "vllm:kv_cache_usage_perc{model_name=\"sim-30b-a3b\",engine=\"0\"} 0.0\n"));
    free(resp);
    stop_sim();
}

/* promtool check metrics: parses or fails (1); lint findings exit 3. Real
 * engines' names contain ':' which promtool's linter flags, so that finding,
 * and only that one, is accepted. */
static void promtool_accepts(const char *metrics)
{
    if (system("command -v promtool >/dev/null 2>&1") != 0)
        cr_skip_test("promtool not installed (Debian package prometheus)");
    char in[64], out[80], cmd[256];
    kvr_test_unique_name(in, sizeof in, "/tmp/kvr-sim-metrics");
    snprintf(out, sizeof out, "%s.out", in);
    FILE *f = fopen(in, "w");
    fputs(metrics, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "promtool check metrics < %s > %s 2>&1", in, out);
    int st = system(cmd);
    int rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    f = fopen(out, "r");
    char line[512];
    int findings = 0;
    while (fgets(line, sizeof line, f)) {
        cr_assert(strstr(line, "metric names should not contain ':'"), "promtool: %s", line);
        findings++;
    }
    fclose(f);
    unlink(in);
    unlink(out);
    cr_assert(rc == 0 || (rc == 3 && findings > 0), "promtool exit %d", rc);
}

Test(sim, vllm_metrics_pass_promtool, .timeout = 30.)
{
    const char *args[] = {"--time-scale", "10", "--dp", "2", NULL};
    start_sim(1, args);
    char *body = chat_body('m', 700, "x", 2, false), *resp;
    cr_assert_eq(post(sim_port, "/v1/chat/completions", body, &resp), 200);
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 5000), 200);
    const char *m = kvr_test_http_body(resp);
    const char *names[] = {"vllm:num_requests_running{",
                           "vllm:num_requests_waiting{",
                           "vllm:kv_cache_usage_perc{",
                           "vllm:prefix_cache_queries_total{",
                           "vllm:prefix_cache_hits_total{",
                           "vllm:num_preemptions_total{",
                           "vllm:time_to_first_token_seconds_bucket{",
                           "engine=\"1\""};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        cr_assert(strstr(m, names[i]), "has %s", names[i]);
    promtool_accepts(m);
    free(resp);
    free(body);
    stop_sim();
}

typedef struct {
    int running_samples;
    char model[64];
    bool vllm_bound; /* a bucket bound written as prometheus_client writes it */
} model_seen_t;

static int model_sample(const kvr_prom_sample_t *s, void *arg)
{
    model_seen_t *seen = arg;
    if (strcmp(s->name, "vllm:num_requests_running") == 0) {
        seen->running_samples++;
        const char *model = kvr_prom_label(s, "model_name");
        snprintf(seen->model, sizeof seen->model, "%s", model ? model : "(none)");
    }
    const char *le = kvr_prom_label(s, "le");
    if (strcmp(s->name, "vllm:time_to_first_token_seconds_bucket") == 0 && le &&
        strcmp(le, "0.005") == 0)
        seen->vllm_bound = true;
    return 0;
}

/* The model name is a label value: escaped as the exposition format says, not as JSON. */
Test(sim, model_name_reads_back_from_the_metrics_page, .timeout = 30.)
{
    static const char model[] = "tab\there \"quoted\" back\\slash";
    const char *args[] = {"--model", model, NULL};
    start_sim(1, args);
    char *resp;
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 5000), 200);
    const char *m = kvr_test_http_body(resp);
    model_seen_t seen = {0};
    kvr_prom_error_t err = {0};
    cr_assert_eq(kvr_prom_parse(m, strlen(m), model_sample, &seen, &err), 0, "line %zu: %s",
                 err.line, err.reason);
    cr_expect_eq(seen.running_samples, 1);
    cr_expect_str_eq(seen.model, model);
    cr_expect(seen.vllm_bound, "le=\"0.005\", as vLLM writes it");
    promtool_accepts(m);
    free(resp);
    stop_sim();
}

Test(sim, sglang_metrics_and_loads, .timeout = 30.)
{
    const char *args[] = {"--time-scale", "10", "--flavor", "sglang", "--dp", "2", NULL};
    start_sim(1, args);
    char *resp;
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 5000), 200);
    cr_assert(strstr(resp, "sglang:num_running_reqs{"));
    cr_assert(strstr(resp, "sglang:num_queue_reqs{"));
    cr_assert(strstr(resp, "sglang:token_usage{"));
    promtool_accepts(kvr_test_http_body(resp));
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/v1/loads?include=core", NULL, NULL, &resp, 5000),
                 200);
    cJSON *doc = body_json(resp);
    const cJSON *loads = cJSON_GetObjectItemCaseSensitive(doc, "loads");
    cr_assert(cJSON_IsArray(loads));
    cr_assert_eq(cJSON_GetArraySize(loads), 2, "one entry per DP rank");
    const char *fields[] = {"num_running_reqs", "num_waiting_reqs",     "max_running_requests",
                            "num_used_tokens",  "max_total_num_tokens", "num_total_tokens",
                            "token_usage",      "utilization",          "cache_hit_rate",
                            "dp_rank"};
    for (size_t r = 0; r < 2; r++)
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            cr_assert_not_null(
                cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(loads, (int)r), fields[i]),
                "%s", fields[i]);
    cr_assert_eq(count_of(cJSON_GetArrayItem(loads, 1), "max_running_requests"), 32);
    cJSON_Delete(doc);
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/get_load", NULL, NULL, &resp, 5000), 200);
    doc = body_json(resp);
    cr_assert(cJSON_IsArray(doc));
    cr_assert_eq(cJSON_GetArraySize(doc), 2);
    cr_assert_not_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(doc, 0), "num_reqs"));
    cJSON_Delete(doc);
    free(resp);
    /* SGLang's native /generate, whole and streamed (cumulative text per event). */
    const char *gen = "{\"text\":\"native prompt text\",\"sampling_params\":{\"max_new_tokens\":4}";
    char body[256];
    snprintf(body, sizeof body, "%s}", gen);
    cr_assert_eq(post(sim_port, "/generate", body, &resp), 200);
    doc = body_json(resp);
    const cJSON *meta = cJSON_GetObjectItemCaseSensitive(doc, "meta_info");
    cr_assert_eq(count_of(meta, "completion_tokens"), 4);
    const char *finish = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(meta, "finish_reason"), "type"));
    cr_assert_not_null(finish);
    cr_assert_str_eq(finish, "length");
    cr_assert_not_null(cJSON_GetObjectItemCaseSensitive(meta, "cached_tokens"));
    cJSON_Delete(doc);
    free(resp);
    snprintf(body, sizeof body, "%s,\"stream\":true}", gen);
    cr_assert_eq(post(sim_port, "/generate", body, &resp), 200);
    cr_assert_eq(count(resp, "data: {\"text\":"), 4);
    cr_assert(strstr(resp, "data: [DONE]"));
    free(resp);
    stop_sim();
}

Test(sim, vllm_has_no_sglang_loads, .timeout = 30.)
{
    const char *args[] = {"--vllm-v0-metrics", NULL};
    start_sim(1, args);
    char *resp;
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 5000), 200);
    cr_assert(strstr(resp, "\nvllm:gpu_cache_usage_perc{"), "the older KV gauge name");
    cr_assert_null(strstr(resp, "vllm:kv_cache_usage_perc"));
    free(resp);
    cr_assert_eq(post(sim_port, "/generate", "{\"text\":\"x\"}", &resp), 404,
                 "no SGLang API on vLLM");
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/v1/loads", NULL, NULL, &resp, 5000), 404);
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/v1/models", NULL, NULL, &resp, 5000), 200);
    cr_assert(strstr(resp, "\"id\":\"sim-30b-a3b\""));
    free(resp);
    cr_assert_eq(post(sim_port, "/v1/chat/completions", "{not json", &resp), 400);
    cr_assert(strstr(resp, "{\"error\":{"));
    free(resp);
    stop_sim();
}

Test(sim, error_rate_answers_503, .timeout = 30.)
{
    const char *args[] = {"--error-rate", "1", NULL};
    start_sim(1, args);
    char *body = chat_body('e', 100, "x", 2, false), *resp;
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(post(sim_port, "/v1/chat/completions", body, &resp), 503);
        cr_assert(strstr(resp, "\"type\":\"server_error\""));
        free(resp);
    }
    free(body);
    stop_sim();
}

Test(sim, drop_after_tokens_cuts_the_stream, .timeout = 30.)
{
    const char *args[] = {"--time-scale", "10", "--drop-after-tokens", "3", NULL};
    start_sim(1, args);
    char *body = chat_body('d', 100, "x", 10, true), *resp;
    cr_assert_eq(post(sim_port, "/v1/chat/completions", body, &resp), 200);
    cr_assert_eq(count(resp, "\"delta\":{\"content\":\""), 3, "three tokens then the cut");
    cr_assert_null(strstr(resp, "[DONE]"));
    cr_assert_null(strstr(resp, "\r\n0\r\n\r\n"), "no terminating chunk");
    free(resp);
    free(body);
    /* Short answers finish before the cut. */
    body = chat_body('d', 100, "x", 2, true);
    cr_assert_eq(post(sim_port, "/v1/chat/completions", body, &resp), 200);
    cr_assert(strstr(resp, "[DONE]"));
    free(resp);
    free(body);
    stop_sim();
}

Test(sim, stall_accepts_and_never_answers, .timeout = 30.)
{
    start_sim(1, NULL);
    char *resp;
    cr_assert_eq(post(sim_port, "/admin/fault", "{\"stall\":true}", &resp), 200);
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/health", NULL, NULL, &resp, 300), -1,
                 "no answer");
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/admin/state", NULL, NULL, &resp, 5000), 200);
    cr_assert(strstr(resp, "\"stall\":true"));
    free(resp);
    cr_assert_eq(post(sim_port, "/admin/fault", "{\"clear\":true}", &resp), 200);
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/health", NULL, NULL, &resp, 5000), 200);
    free(resp);
    stop_sim();
}

/* A client that resets a connection while its engine writes makes the next write raise SIGPIPE
 * (a soak lost whole simulator processes to it, exit status 141). The race cannot be forced, so
 * the signal is sent directly: the fleet must shrug it off and keep serving. */
Test(sim, sigpipe_does_not_end_the_fleet, .timeout = 30.)
{
    start_sim(2, NULL);
    cr_assert_eq(kill(sim_pid, SIGPIPE), 0);
    char *resp;
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/health", NULL, NULL, &resp, 5000), 200,
                 "still serving");
    free(resp);
    cr_assert_eq(kvr_test_http((uint16_t)(sim_port + 1), "GET", "/health", NULL, NULL, &resp, 5000),
                 200);
    free(resp);
    cr_assert(kvr_test_alive(sim_pid));
    stop_sim();
}

Test(sim, crash_closes_the_port_until_recovered, .timeout = 30.)
{
    uint16_t admin = kvr_test_free_port();
    char admin_arg[16];
    snprintf(admin_arg, sizeof admin_arg, "%u", admin);
    const char *args[] = {"--admin-port", admin_arg, NULL};
    start_sim(2, args);
    cr_assert(kvr_test_wait_port(admin, 5000));
    char *resp;
    char *body = chat_body('c', 3200, "warm", 2, false);
    uint16_t second = (uint16_t)(sim_port + 1);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(post(second, "/v1/chat/completions", body, &resp), 200);
        cJSON *warm = body_json(resp);
        cr_assert_eq(cached_tokens(warm) > 0, i == 1, "warm on the second request only");
        cJSON_Delete(warm);
        free(resp);
    }
    cr_assert_eq(kvr_test_http(admin, "POST", "/admin/fault?engine=1", NULL, "{\"crash\":true}",
                               &resp, 5000),
                 200);
    free(resp);
    /* The crash follows the fault's answer by a moment. */
    cr_assert(kvr_test_wait_port_closed((uint16_t)(sim_port + 1), 10000),
              "crashed engine still accepts");
    cr_assert_eq(kvr_test_http((uint16_t)(sim_port + 1), "GET", "/health", NULL, NULL, &resp, 1000),
                 -1, "crashed engine refuses");
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/health", NULL, NULL, &resp, 5000), 200,
                 "its neighbour lives on");
    free(resp);
    cr_assert_eq(kvr_test_http(admin, "POST", "/admin/fault?engine=1", NULL, "{\"crash\":false}",
                               &resp, 5000),
                 200);
    free(resp);
    cr_assert_eq(kvr_test_http((uint16_t)(sim_port + 1), "GET", "/health", NULL, NULL, &resp, 5000),
                 200);
    free(resp);
    cr_assert_eq(post(second, "/v1/chat/completions", body, &resp), 200);
    cJSON *doc = body_json(resp);
    cr_assert_eq(cached_tokens(doc), 0, "a restarted engine has a cold cache");
    cJSON_Delete(doc);
    free(resp);
    free(body);
    stop_sim();
}

Test(sim, crash_after_flag, .timeout = 30.)
{
    /* Long enough for start_sim to see engine 0 listen first, even on a loaded machine. */
    const char *args[] = {"--crash-after-ms", "1000", "--fault-engines", "0", NULL};
    start_sim(2, args);
    cr_assert(kvr_test_wait_port_closed(sim_port, 10000), "engine 0 never crashed");
    char *resp;
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/health", NULL, NULL, &resp, 1000), -1);
    free(resp);
    cr_assert_eq(kvr_test_http((uint16_t)(sim_port + 1), "GET", "/health", NULL, NULL, &resp, 5000),
                 200);
    free(resp);
    stop_sim();
}

Test(sim, slow_and_garbage_metrics, .timeout = 30.)
{
    const char *args[] = {"--slow-metrics-ms", "600", "--flavor", "sglang", NULL};
    start_sim(1, args);
    char *resp;
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 150), -1, "not yet");
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/v1/loads", NULL, NULL, &resp, 5000), 200,
                 "eventually");
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/health", NULL, NULL, &resp, 5000), 200);
    free(resp);
    cr_assert_eq(
        post(sim_port, "/admin/fault", "{\"slow_metrics_ms\":0,\"garbage_metrics\":true}", &resp),
        200);
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/v1/loads", NULL, NULL, &resp, 5000), 200);
    cr_assert_null(cJSON_Parse(kvr_test_http_body(resp)), "garbage is not JSON");
    free(resp);
    cr_assert_eq(kvr_test_http(sim_port, "GET", "/metrics", NULL, NULL, &resp, 5000), 200);
    cr_assert_null(strstr(resp, "# TYPE sglang:num_running_reqs gauge"));
    free(resp);
    stop_sim();
}

Test(sim, push_frames_reach_a_unix_socket, .timeout = 30.)
{
    char path[108];
    kvr_test_unique_name(path, sizeof path, "/tmp/kvr-sim-push");
    int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    snprintf(sun.sun_path, sizeof sun.sun_path, "%s", path);
    cr_assert_eq(bind(fd, (struct sockaddr *)&sun, sizeof sun), 0);
    struct timeval tv = {.tv_sec = 3};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char target[128];
    snprintf(target, sizeof target, "unix:%s", path);
    const char *args[] = {"--push", target, "--push-idle-ms", "50", "--max-running", "48", NULL};
    start_sim(1, args);
    unsigned char buf[KVR_STATE_FRAME_MAX + 1];
    ssize_t n = recv(fd, buf, sizeof buf, 0);
    cr_assert_gt(n, 0, "a frame arrived");
    kvr_state_frame_t f;
    const char *why = NULL;
    cr_assert_eq(kvr_state_frame_decode(buf, (size_t)n, &f, &why), 0, "decodes: %s",
                 why ? why : "");
    char want[64];
    snprintf(want, sizeof want, "http://127.0.0.1:%u", sim_port);
    cr_assert_str_eq(f.state.engine_id, want);
    cr_assert_eq(f.state.max_running, 48);
    cr_assert_gt(f.state.kv_tokens_capacity, 0);
    cr_assert(f.state.flags & KVR_SLOT_CAPS_COMPLETE);
    cr_assert(f.state.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    stop_sim();
    close(fd);
    unlink(path);
}

static char *completion_text(const char *seed)
{
    const char *args[] = {"--seed", seed, "--time-scale", "10", NULL};
    start_sim(1, args);
    char *resp;
    cr_assert_eq(
        post(sim_port, "/v1/completions", "{\"prompt\":\"same prompt\",\"max_tokens\":12}", &resp),
        200);
    cJSON *doc = body_json(resp);
    const cJSON *choice = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "choices"), 0);
    const char *choice_text = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(choice, "text"));
    cr_assert_not_null(choice_text);
    char *text = strdup(choice_text);
    cJSON_Delete(doc);
    free(resp);
    stop_sim();
    return text;
}

Test(sim, deterministic_for_a_seed, .timeout = 30.)
{
    char *a = completion_text("7"), *b = completion_text("7"), *c = completion_text("8");
    cr_assert_str_eq(a, b);
    cr_assert_str_neq(a, c);
    free(a);
    free(b);
    free(c);
}

Test(sim, openai_npm_client_accepts_the_surfaces, .timeout = 60.)
{
    const char *src = getenv("KVR_SOURCE_DIR");
    cr_assert_not_null(src);
    char mod[512], script[512];
    snprintf(mod, sizeof mod, "%s/tests/node/node_modules/openai/package.json", src);
    snprintf(script, sizeof script, "%s/tests/node/sim_openai.mjs", src);
    if (system("command -v node >/dev/null 2>&1") != 0 || access(mod, R_OK) != 0)
        cr_skip_test("node or the openai package missing: run scripts/install-deps.sh");
    const char *args[] = {"--time-scale", "10", NULL};
    start_sim(1, args);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/v1", sim_port);
    const char *argv[] = {"node", script, NULL};
    setenv("KVR_SIM_URL", url, 1);
    char node_path[256] = "/usr/bin/node";
    FILE *p = popen("command -v node", "r");
    if (p && fgets(node_path, sizeof node_path, p))
        node_path[strcspn(node_path, "\n")] = '\0';
    if (p)
        pclose(p);
    argv[0] = node_path;
    pid_t pid = kvr_test_spawn((char *const *)argv, NULL);
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
    stop_sim();
}
