/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-replay against a real simulated fleet behind the router: one JSON
 * line per trace request, and numbers that agree with the trace and with each
 * other (tokens, engine names, times, cache reuse of a pinned session).
 */
#include <criterion/criterion.h>
#include <jansson.h>
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

Test(replay_fleet, one_consistent_line_per_request, .timeout = 120., .fini = stop_all)
{
    char tmp[96], trace[160], out[160], log[160];
    kvr_test_unique_name(tmp, sizeof(tmp), "replay-fleet");
    snprintf(trace, sizeof(trace), "/tmp/%s.trace.jsonl", tmp);
    snprintf(out, sizeof(out), "/tmp/%s.out.jsonl", tmp);
    snprintf(log, sizeof(log), "/tmp/%s.log", tmp);

    char *tg[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_TRACEGEN"), "--preset", "short", "--window", "12",
                  "--session-rate", "1", "--seed", "5", "-o", trace, NULL};
    cr_assert_eq(run_and_wait(tg, log, 30000), 0);

    uint16_t base = kvr_test_free_port_range(ENGINES), rport = kvr_test_free_port();
    cr_assert(base && rport);
    char port_s[16], rlisten[32], e0[64], e1[64], url[96];
    snprintf(port_s, sizeof(port_s), "%u", base);
    snprintf(rlisten, sizeof(rlisten), "127.0.0.1:%u", rport);
    snprintf(e0, sizeof(e0), "http://127.0.0.1:%u", base);
    snprintf(e1, sizeof(e1), "http://127.0.0.1:%u", base + 1);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/v1/chat/completions", rport);
    char *sim[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_SIM"), "--port", port_s, "--engines", "2",
                   "--time-scale", "4", "--seed", "5", NULL};
    sim_pid = kvr_test_spawn(sim, log);
    cr_assert(kvr_test_wait_port(base + 1, 10000), "simulator did not listen");
    char *router[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE"), "--listen", rlisten, "--engine", e0, "--engine",
                      e1, "--policy", "sticky", "--es", "0", NULL};
    router_pid = kvr_test_spawn(router, log);
    cr_assert(kvr_test_wait_port(rport, 10000), "router did not listen");

    char *rp[] = {(char *)kvr_test_bin("KVR_BIN_KVROUTE_REPLAY"), "--url", url, "--trace", trace, "--out", out,
                  "--speed", "4", "--quiet", NULL};
    cr_assert_eq(run_and_wait(rp, log, 90000), 0, "replay reported failures (see %s)", log);

    /* the trace, by index */
    json_t *lines[512];
    size_t n_trace = 0;
    FILE *f = fopen(trace, "r");
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0 && n_trace < 512)
        lines[n_trace++] = json_loads(line, 0, NULL);
    fclose(f);
    cr_assert(n_trace >= 5, "trace too small: %zu", n_trace);

    bool seen[512] = {false};
    size_t n_out = 0, later_turn_cached = 0, later_turns = 0;
    f = fopen(out, "r");
    cr_assert(f);
    while (getline(&line, &cap, f) > 0) {
        json_t *r = json_loads(line, 0, NULL);
        cr_assert(r, "record %zu is not JSON", n_out);
        n_out++;
        size_t idx = (size_t)json_integer_value(json_object_get(r, "index"));
        cr_assert(idx < n_trace && !seen[idx], "each trace index once");
        seen[idx] = true;
        json_t *t = lines[idx];
        cr_assert(json_is_true(json_object_get(r, "ok")), "request %zu failed: %s", idx,
                  json_string_value(json_object_get(r, "error")));
        cr_assert_eq(json_integer_value(json_object_get(r, "status")), 200);
        const char *engine = json_string_value(json_object_get(r, "engine"));
        cr_assert(engine && (strcmp(engine, e0) == 0 || strcmp(engine, e1) == 0), "engine %s", engine);
        cr_assert_str_eq(json_string_value(json_object_get(r, "session")),
                         json_string_value(json_object_get(t, "session_id")));
        json_int_t in = json_integer_value(json_object_get(t, "input_length"));
        json_int_t outlen = json_integer_value(json_object_get(t, "output_length"));
        cr_assert_eq(json_integer_value(json_object_get(r, "prompt_tokens")), in, "4 bytes per token");
        cr_assert_eq(json_integer_value(json_object_get(r, "output_tokens")), outlen, "max_tokens honoured");
        json_int_t cached = json_integer_value(json_object_get(r, "cached_tokens"));
        cr_assert(cached >= 0 && cached <= in);
        double ttft = json_real_value(json_object_get(r, "ttft_ms"));
        double e2e = json_real_value(json_object_get(r, "e2e_ms"));
        cr_assert(ttft > 0 && ttft <= e2e, "ttft %.1f e2e %.1f", ttft, e2e);
        cr_assert(json_real_value(json_object_get(r, "send_ms")) + 0.5 >=
                  json_real_value(json_object_get(r, "scheduled_ms")), "never sent early");
        if (json_integer_value(json_object_get(t, "turn")) > 0) {
            later_turns++;
            later_turn_cached += cached > 0;
        }
        json_decref(r);
    }
    free(line);
    fclose(f);
    cr_assert_eq(n_out, n_trace, "one line per request");
    /* sticky pins a session: its later turns find their prefix cached */
    if (later_turns)
        cr_assert(later_turn_cached * 10 >= later_turns * 9, "%zu of %zu later turns hit the cache",
                  later_turn_cached, later_turns);
    for (size_t i = 0; i < n_trace; i++)
        json_decref(lines[i]);
    remove(trace), remove(out), remove(log);
}
