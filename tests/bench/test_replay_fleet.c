/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-replay against a real simulated fleet behind the router: one JSON
 * line per trace request, and numbers that agree with the trace and with each
 * other (tokens, engine names, times, cache reuse of a pinned session).
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/support/proc.h"

#define ENGINES 2

static pid_t sim_pid = -1, router_pid = -1;

static void stop_all(void)
{
    if (router_pid > 0)
        kvr_test_stop(router_pid, SIGTERM, 5000);
    if (sim_pid > 0)
        kvr_test_stop(sim_pid, SIGTERM, 5000);
    router_pid = sim_pid = -1;
}

static int run_and_wait(char *const argv[], const char *log, unsigned timeout_ms)
{
    pid_t pid = kvr_test_spawn(argv, log);
    cr_assert(pid > 0, "cannot start %s", argv[0]);
    int status = kvr_test_stop(pid, 0, timeout_ms);
    cr_assert(WIFEXITED(status), "%s did not finish in time", argv[0]);
    return WEXITSTATUS(status);
}

static const cJSON *field(const cJSON *o, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* An integer field's value; -1 when absent or not a number. */
static long long int_of(const cJSON *o, const char *key)
{
    const cJSON *v = field(o, key);
    return cJSON_IsNumber(v) ? (long long)v->valuedouble : -1;
}

/* A real field's value; 0 when absent or not a number. */
static double real_of(const cJSON *o, const char *key)
{
    const cJSON *v = field(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* A string field, NULL when absent or not a string. */
static const char *str_of(const cJSON *o, const char *key)
{
    const cJSON *v = field(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* How the line writes a field's value: a real has a '.' or an exponent, an integer only digits. */
static bool written_as(const char *line, const char *key, bool real)
{
    char pat[64];
    snprintf(pat, sizeof(pat), "\"%s\":", key);
    const char *v = strstr(line, pat);
    if (!v)
        return false;
    v += strlen(pat);
    size_t len = strcspn(v, ",}");
    if (real)
        return strcspn(v, ".e") < len;
    return len > 0 && strspn(v, "0123456789") == len;
}

Test(replay_fleet, one_consistent_line_per_request, .timeout = 120., .fini = stop_all)
{
    char tmp[96], trace[160], out[160], log[160];
    kvr_test_unique_name(tmp, sizeof(tmp), "replay-fleet");
    snprintf(trace, sizeof(trace), "/tmp/%s.trace.jsonl", tmp);
    snprintf(out, sizeof(out), "/tmp/%s.out.jsonl", tmp);
    snprintf(log, sizeof(log), "/tmp/%s.log", tmp);

    char *tg[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_TRACEGEN"),
                  "--preset",
                  "short",
                  "--window",
                  "12",
                  "--session-rate",
                  "1",
                  "--seed",
                  "5",
                  "-o",
                  trace,
                  NULL};
    cr_assert_eq(run_and_wait(tg, log, 30000), 0);

    uint16_t base = kvr_test_free_port_range(ENGINES), rport = kvr_test_free_port();
    cr_assert(base && rport);
    char port_s[16], rlisten[32], e0[64], e1[64], url[96];
    snprintf(port_s, sizeof(port_s), "%u", base);
    snprintf(rlisten, sizeof(rlisten), "127.0.0.1:%u", rport);
    snprintf(e0, sizeof(e0), "http://127.0.0.1:%u", base);
    snprintf(e1, sizeof(e1), "http://127.0.0.1:%u", base + 1);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/v1/chat/completions", rport);
    char *sim[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"),
                   "--port",
                   port_s,
                   "--engines",
                   "2",
                   "--time-scale",
                   "4",
                   "--seed",
                   "5",
                   NULL};
    sim_pid = kvr_test_spawn(sim, log);
    cr_assert(kvr_test_wait_port(base + 1, 10000), "simulator did not listen");
    char *router[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE"),
                      "--listen",
                      rlisten,
                      "--engine",
                      e0,
                      "--engine",
                      e1,
                      "--policy",
                      "sticky",
                      "--es",
                      "0",
                      "--admin-listen",
                      "off",
                      "--engine-header",
                      NULL};
    router_pid = kvr_test_spawn(router, log);
    cr_assert(kvr_test_wait_port(rport, 10000), "router did not listen");

    char *rp[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_REPLAY"),
                  "--url",
                  url,
                  "--trace",
                  trace,
                  "--out",
                  out,
                  "--speed",
                  "4",
                  "--quiet",
                  NULL};
    cr_assert_eq(run_and_wait(rp, log, 90000), 0, "replay reported failures (see %s)", log);

    /* the trace, by index */
    cJSON *lines[512];
    size_t n_trace = 0;
    FILE *f = fopen(trace, "r");
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0 && n_trace < 512)
        lines[n_trace++] = cJSON_Parse(line);
    fclose(f);
    cr_assert(n_trace >= 5, "trace too small: %zu", n_trace);

    bool seen[512] = {false};
    size_t n_out = 0, later_turn_cached = 0, later_turns = 0;
    f = fopen(out, "r");
    cr_assert(f);
    while (getline(&line, &cap, f) > 0) {
        cJSON *r = cJSON_Parse(line);
        cr_assert(r, "record %zu is not JSON", n_out);
        n_out++;
        long long idx = int_of(r, "index");
        cr_assert(idx >= 0 && (size_t)idx < n_trace && !seen[idx], "each trace index once");
        seen[idx] = true;
        const cJSON *t = lines[idx];
        cr_assert(t, "trace line %lld is not JSON", idx);
        cr_assert(cJSON_IsTrue(field(r, "ok")), "request %lld failed: %s", idx, str_of(r, "error"));
        cr_assert_eq(int_of(r, "status"), 200);
        const char *engine = str_of(r, "engine");
        cr_assert(engine && (strcmp(engine, e0) == 0 || strcmp(engine, e1) == 0), "engine %s",
                  engine);
        cr_assert(str_of(r, "session") && str_of(t, "session_id"));
        cr_assert_str_eq(str_of(r, "session"), str_of(t, "session_id"));
        long long in = int_of(t, "input_length"), outlen = int_of(t, "output_length");
        cr_assert_eq(int_of(r, "prompt_tokens"), in, "4 bytes per token");
        cr_assert_eq(int_of(r, "output_tokens"), outlen, "max_tokens honoured");
        long long cached = int_of(r, "cached_tokens");
        cr_assert(cached >= 0 && cached <= in);
        double ttft = real_of(r, "ttft_ms"), e2e = real_of(r, "e2e_ms");
        cr_assert(ttft > 0 && ttft <= e2e, "ttft %.1f e2e %.1f", ttft, e2e);
        cr_assert(real_of(r, "send_ms") + 0.5 >= real_of(r, "scheduled_ms"), "never sent early");
        /* times are reals and counts integers, as the records' readers expect */
        const char *times[] = {"scheduled_ms", "send_ms", "ttft_ms", "first_byte_ms", "e2e_ms"};
        for (size_t k = 0; k < sizeof(times) / sizeof(times[0]); k++)
            cr_assert(written_as(line, times[k], true), "%s is not written as a real: %s", times[k],
                      line);
        const char *counts[] = {"index", "send_mono_ns", "end_mono_ns", "prompt_tokens", "status"};
        for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++)
            cr_assert(written_as(line, counts[k], false), "%s is not written as an integer: %s",
                      counts[k], line);
        if (int_of(t, "turn") > 0) {
            later_turns++;
            later_turn_cached += cached > 0;
        }
        cJSON_Delete(r);
    }
    free(line);
    fclose(f);
    cr_assert_eq(n_out, n_trace, "one line per request");
    /* sticky pins a session: its later turns find their prefix cached */
    if (later_turns)
        cr_assert(later_turn_cached * 10 >= later_turns * 9, "%zu of %zu later turns hit the cache",
                  later_turn_cached, later_turns);
    for (size_t i = 0; i < n_trace; i++)
        cJSON_Delete(lines[i]);
    remove(trace), remove(out), remove(log);
}
