/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-fleetsim as a user relies on it: every request of a run finishes,
 * one seed gives the same bytes, the routers' shadow counters end at zero, a
 * shared-prefix trace rewards affinity over round robin, the hot-owner trap
 * holds without owner pressure and is escaped with it, and bad input is
 * refused before the run with a reason. Every outcome is in virtual time.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/support/proc.h"

typedef struct {
    char dir[160];
} scratch_t;

static void scratch_init(scratch_t *s)
{
    char name[96];
    kvr_test_unique_name(name, sizeof(name), "fleetsim");
    snprintf(s->dir, sizeof(s->dir), "/tmp/%s", name);
    cr_assert_eq(mkdir(s->dir, 0700), 0);
}

static void scratch_path(const scratch_t *s, const char *file, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", s->dir, file);
}

static void scratch_remove(const scratch_t *s)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->dir);
    cr_assert_eq(system(cmd), 0);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    cr_assert(fread(buf, 1, (size_t)len, f) == (size_t)len);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

static pid_t last_pid;

/* Runs kvroute-fleetsim with args (NULL-terminated), output into log; returns the exit status. */
static int run_fleetsim(const char *log, const char *const *args)
{
    char *argv[64];
    int n = 0;
    argv[n++] = (char *)kvr_test_bin("KVR_BIN_KVROUTE_FLEETSIM");
    for (; *args && n < 63; args++)
        argv[n++] = (char *)*args;
    argv[n] = NULL;
    pid_t pid = kvr_test_spawn(argv, log);
    cr_assert(pid > 0);
    last_pid = pid;
    int status = kvr_test_stop(pid, 0, 100000);
    cr_assert(WIFEXITED(status), "kvroute-fleetsim did not exit normally");
    return WEXITSTATUS(status);
}

/* ---- traces ---- */

/*
 * A conversation trace: sessions with a tenant prefix of prefix_blocks ids
 * (tenant = session % tenants), each turn appending two blocks, opened
 * gap_ms apart in order, turns turn_gap_ms apart.
 */
static void write_sessions(const char *path, int sessions, int turns, int tenants,
                           int prefix_blocks, int gap_ms, int turn_gap_ms, int output)
{
    FILE *f = fopen(path, "w");
    cr_assert(f);
    /* Emit in timestamp order: the loader refuses timestamps going backwards. */
    int total = sessions * turns;
    long *ts = malloc(sizeof(long) * (size_t)total);
    int *order = malloc(sizeof(int) * (size_t)total);
    for (int i = 0; i < total; i++) {
        ts[i] = (long)(i / turns) * gap_ms + (long)(i % turns) * turn_gap_ms;
        order[i] = i;
    }
    for (int i = 1; i < total; i++) /* insertion sort, stable: equal times keep session order */
        for (int j = i; j > 0 && ts[order[j]] < ts[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    for (int k = 0; k < total; k++) {
        int s = order[k] / turns, t = order[k] % turns;
        int blocks = prefix_blocks + 2 * (t + 1);
        fprintf(
            f,
            "{\"timestamp\":%ld,\"input_length\":%d,\"output_length\":%d,\"session_id\":\"s%03d\",\"turn\":%d,"
            "\"hash_ids\":[",
            ts[order[k]], blocks * 512, output, s, t);
        for (int b = 0; b < blocks; b++) {
            long id = b < prefix_blocks ? (long)(s % tenants) * 1000 + b
                                        : 100000L + (long)s * 1000 + (b - prefix_blocks);
            fprintf(f, "%s%ld", b ? "," : "", id);
        }
        fputs("]}\n", f);
    }
    free(ts);
    free(order);
    fclose(f);
}

/* The hot-owner trace: a warm request, 35 trajectories at once, 41 more after 5 s; 3 turns x 1,000 tokens. */
static void write_hot_owner(const char *path)
{
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("{\"timestamp\":0,\"input_length\":12288,\"output_length\":1,\"hash_ids\":[", f);
    for (int b = 0; b < 24; b++)
        fprintf(f, "%s%d", b ? "," : "", b);
    fputs("]}\n", f);
    for (int s = 0; s < 76; s++) {
        long base = s < 35 ? 100 : 5000;
        int tail = 1000 + s * 10;
        for (int t = 0; t < 3; t++) {
            int blocks = 24 + 1 + 3 * t;
            fprintf(
                f,
                "{\"timestamp\":%ld,\"input_length\":%d,\"output_length\":1000,\"session_id\":\"t%02d\","
                "\"turn\":%d,\"hash_ids\":[",
                base + s * 2 + t, blocks * 512, s, t);
            for (int b = 0; b < blocks; b++)
                fprintf(f, "%s%d", b ? "," : "", b < 24 ? b : tail + b - 24);
            fputs("]}\n", f);
        }
    }
    fclose(f);
}

/* ---- reading what a run wrote ---- */

typedef struct {
    size_t lines, ok;
    long long prompt, cached;
} records_t;

static records_t read_records(const char *path)
{
    records_t r = {0};
    FILE *f = fopen(path, "r");
    cr_assert(f, "no records at %s", path);
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        cr_assert(o, "record is not JSON: %s", line);
        r.lines++;
        if (cJSON_IsTrue(cJSON_GetObjectItem(o, "ok")))
            r.ok++;
        r.prompt += (long long)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "prompt_tokens"));
        r.cached += (long long)cJSON_GetNumberValue(cJSON_GetObjectItem(o, "cached_tokens"));
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    return r;
}

static cJSON *read_stats(const char *path)
{
    char *text = slurp(path);
    cJSON *o = cJSON_Parse(text);
    free(text);
    cr_assert(o, "stats %s is not JSON", path);
    return o;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    cr_assert(cJSON_IsNumber(v), "no number %s", key);
    return v->valuedouble;
}

/* ---- tests ---- */

Test(fleetsim, every_request_finishes_and_shadow_counters_end_at_zero, .timeout = 120.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], out[256], stats[256], dlog[256], log[256], feed[256];
    scratch_path(&s, "feed.txt", feed, sizeof(feed));
    scratch_path(&s, "trace.jsonl", trace, sizeof(trace));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "stats.json", stats, sizeof(stats));
    scratch_path(&s, "decisions.jsonl", dlog, sizeof(dlog));
    scratch_path(&s, "run.log", log, sizeof(log));
    write_sessions(trace, 60, 5, 4, 8, 200, 3000, 64);
    const char *args[] = {"--trace",
                          trace,
                          "--engines",
                          "4",
                          "--routers",
                          "2",
                          "--policy",
                          "cache_aware",
                          "--es",
                          "1",
                          "--closed-loop",
                          "--think-ms",
                          "500",
                          "--out",
                          out,
                          "--stats",
                          stats,
                          "--decision-log",
                          dlog,
                          "--feed-samples",
                          feed,
                          "--quiet",
                          NULL};
    cr_assert_eq(run_fleetsim(log, args), 0, "exit status (see %s)", log);
    records_t r = read_records(out);
    cr_assert_eq(r.lines, 300, "one record per request");
    cr_assert_eq(r.ok, 300, "every request finished with 200");
    cJSON *st = read_stats(stats);
    cr_assert_eq(num(st, "unfinished"), 0);
    const cJSON *routers = cJSON_GetObjectItem(st, "routers");
    cr_assert_eq(cJSON_GetArraySize(routers), 2);
    const cJSON *rt;
    cJSON_ArrayForEach(rt, routers)
    {
        cr_assert_eq(num(rt, "shadow_requests"), 0, "a request left charged");
        cr_assert_eq(num(rt, "shadow_pending_prefill_tokens"), 0);
        cr_assert_eq(num(rt, "shadow_kv_tokens"), 0);
        const char *states = cJSON_GetStringValue(cJSON_GetObjectItem(rt, "feed"));
        cr_assert(states && strstr(states, "fresh=") && !strstr(states, "fresh=0 "),
                  "ES=1 read the segment: %s", states);
    }
    const cJSON *engines = cJSON_GetObjectItem(st, "engines");
    const cJSON *e;
    cJSON_ArrayForEach(e, engines) cr_assert_eq(num(e, "running_at_end"), 0);
    cJSON_Delete(st);
    /* Both routers logged their decisions, one line per request between them. */
    char d0[300], d1[300];
    snprintf(d0, sizeof(d0), "%s/decisions-r0.jsonl", s.dir);
    snprintf(d1, sizeof(d1), "%s/decisions-r1.jsonl", s.dir);
    char *a = slurp(d0), *b = slurp(d1);
    size_t lines = 0;
    for (const char *p = a; *p; p++)
        lines += *p == '\n';
    for (const char *p = b; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, 300);
    free(a);
    free(b);
    /* The feed's publishes in kvroute-feedsample's format: start, samples of every engine, end. */
    char *ft = slurp(feed);
    cr_assert(strncmp(ft, "# ", 2) == 0 && strstr(ft, "\nstart 1000000000\n"), "%.200s", ft);
    for (int i = 0; i < 4; i++) {
        char id[64];
        snprintf(id, sizeof(id), " http://127.0.0.1:%d\n", 20000 + i);
        cr_assert(strstr(ft, id), "no sample of engine %d", i);
    }
    cr_assert(strstr(ft, "\nend "));
    free(ft);
    /* The feed segment is gone with the run. */
    char shm[96];
    snprintf(shm, sizeof(shm), "/dev/shm/kvr-fleetsim-%ld-0", (long)last_pid);
    cr_assert_neq(access(shm, F_OK), 0, "%s left behind", shm);
    scratch_remove(&s);
}

Test(fleetsim, one_seed_gives_the_same_bytes_and_another_seed_other_bytes, .timeout = 120.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], a[256], b[256], c[256], log[256];
    scratch_path(&s, "trace.jsonl", trace, sizeof(trace));
    scratch_path(&s, "a.jsonl", a, sizeof(a));
    scratch_path(&s, "b.jsonl", b, sizeof(b));
    scratch_path(&s, "c.jsonl", c, sizeof(c));
    scratch_path(&s, "run.log", log, sizeof(log));
    write_sessions(trace, 50, 4, 3, 6, 150, 2000, 48);
    const char *outs[] = {a, b, c};
    const char *seeds[] = {"3", "3", "4"};
    char logs[3][256];
    for (int i = 0; i < 3; i++) {
        snprintf(logs[i], sizeof(logs[i]), "%s.decisions", outs[i]);
        const char *args[] = {"--trace",
                              trace,
                              "--engines",
                              "4",
                              "--policy",
                              "power_of_two",
                              "--es",
                              "1",
                              "--step-jitter",
                              "0.2",
                              "--arrival-jitter-ms",
                              "20",
                              "--seed",
                              seeds[i],
                              "--out",
                              outs[i],
                              "--decision-log",
                              logs[i],
                              "--quiet",
                              NULL};
        cr_assert_eq(run_fleetsim(log, args), 0, "exit status (see %s)", log);
    }
    char *ta = slurp(a), *tb = slurp(b), *tc = slurp(c);
    cr_assert_gt(strlen(ta), 1000);
    cr_assert_str_eq(ta, tb, "two runs with one seed differ");
    cr_assert_str_neq(ta, tc, "the seed moves nothing");
    free(ta);
    free(tb);
    free(tc);
    /* The decision log too, timestamps included: they are virtual. */
    char *da = slurp(logs[0]), *db = slurp(logs[1]);
    cr_assert_gt(strlen(da), 1000);
    cr_assert_str_eq(da, db, "two decision logs with one seed differ");
    free(da);
    free(db);
    scratch_remove(&s);
}

Test(fleetsim, affinity_hits_the_cache_more_than_round_robin_on_shared_prefixes, .timeout = 120.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], out[256], log[256];
    scratch_path(&s, "trace.jsonl", trace, sizeof(trace));
    scratch_path(&s, "run.log", log, sizeof(log));
    /* 8 tenants of 16-block prefixes, sessions interleaved across them. */
    write_sessions(trace, 80, 3, 8, 16, 100, 4000, 32);
    double hit[2];
    const char *policies[] = {"affinity", "round_robin"};
    for (int i = 0; i < 2; i++) {
        scratch_path(&s, policies[i], out, sizeof(out));
        const char *args[] = {"--trace", trace, "--engines", "4", "--policy", policies[i],
                              "--es",    "0",   "--out",     out, "--quiet",  NULL};
        cr_assert_eq(run_fleetsim(log, args), 0, "exit status (see %s)", log);
        records_t r = read_records(out);
        cr_assert_eq(r.ok, 240);
        hit[i] = (double)r.cached / (double)r.prompt;
    }
    cr_assert_gt(hit[0], hit[1] + 0.05, "affinity %.3f vs round_robin %.3f", hit[0], hit[1]);
    scratch_remove(&s);
}

Test(fleetsim, the_hot_owner_trap_holds_without_owner_pressure_and_is_escaped_with_it,
     .timeout = 120.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], stats[256], out[256], log[256];
    scratch_path(&s, "hot.jsonl", trace, sizeof(trace));
    scratch_path(&s, "stats.json", stats, sizeof(stats));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "run.log", log, sizeof(log));
    write_hot_owner(trace);
    double peak[2];
    const char *pressure[] = {"0", "1"};
    for (int i = 0; i < 2; i++) {
        /* 2 x 38 slots; 35 first turns forced onto engine 0, the warm request's engine;
         * --balance-abs 256 keeps SGLang's balance rule from freeing the owner by accident. */
        const char *args[] = {"--trace",
                              trace,
                              "--engines",
                              "2",
                              "--engine-params",
                              "all:max_running=38",
                              "--closed-loop",
                              "--first-turn-engine",
                              "0",
                              "--first-turn-sessions",
                              "35",
                              "--policy",
                              "cache_aware",
                              "--es",
                              "1",
                              "--stats",
                              stats,
                              "--out",
                              out,
                              "--quiet",
                              "--",
                              "--owner-pressure",
                              pressure[i],
                              "--balance-abs",
                              "256",
                              NULL};
        cr_assert_eq(run_fleetsim(log, args), 0, "exit status (see %s)", log);
        records_t r = read_records(out);
        cr_assert_eq(r.ok, 229);
        char *first = slurp(out);
        cr_assert(strstr(first, "\"index\":0,") &&
                      strstr(first, "\"engine\":\"http://127.0.0.1:20000\""),
                  "the warm request made engine 0 the owner");
        free(first);
        cJSON *st = read_stats(stats);
        peak[i] = num(st, "fleet_peak_running");
        cJSON_Delete(st);
    }
    cr_assert_leq(peak[0], 38,
                  "without owner pressure the fleet stays at the owner's 38 slots (%.0f)", peak[0]);
    cr_assert_gt(peak[1], 38, "owner pressure spills to the idle peer (%.0f)", peak[1]);
    scratch_remove(&s);
}

/* Arrays, not pointers: Criterion hands each parameter to the test's process by value. */
typedef struct {
    char trace_text[200]; /* "": the good trace */
    char extra[6][40];
    int status;
    char expect[64]; /* in the output */
} bad_case_t;

ParameterizedTestParameters(fleetsim, bad_input_is_refused_before_the_run)
{
    static bad_case_t cases[] = {
        {"{\"timestamp\":0,\"input_length\":64,\"output_length\":4}\n{\"timestamp\":1,\"output_length\":4}\n",
         {""},
         2,
         ":2: input_length missing"},
        {"{\"timestamp\":0,\"input_length\":-64,\"output_length\":4}\n",
         {""},
         2,
         ":1: input_length is negative"},
        {"{\"timestamp\":0,\"input_length\":64,\"output_length\":4,\"hash_ids\":[\"a\"]}\n",
         {""},
         2,
         ":1: hash_ids holds a non-integer"},
        {"{\"timestamp\":5,\"input_length\":64,\"output_length\":4}\n{\"timestamp\":4,\"input_length\":64,\"output_length\":4}\n",
         {""},
         2,
         ":2: timestamp 4 goes backwards"},
        /* skip mode: reported with its line number, counted, the rest runs */
        {"{\"timestamp\":0,\"input_length\":64,\"output_length\":4}\nnot json\n{\"timestamp\":9,\"input_length\":64,\"output_length\":4}\n",
         {"--bad-lines", "skip"},
         0,
         "1 invalid trace lines skipped, 2 requests kept"},
        {"", {"--engines", "0"}, 2, "a fleet needs at least one engine"},
        {"", {"--routers", "3"}, 2, "--routers 3: the trace has 2 requests in 2 sessions"},
        {"", {"--engine-params", "1:kv_tokens=64"}, 2, "needs 68 KV tokens"},
        {"", {"--engine-params", "0:nonsense=1"}, 2, "unknown key 'nonsense'"},
        {"",
         {"--engine-params", "2-7:step_scale=2"},
         2,
         "names engine 7; the fleet has engines 0..3"},
        {"",
         {"--engine-params", "0:max_running=2", "--dp", "4"},
         2,
         "max_running 2 is below --dp 4"},
        {"", {"--", "--engine", "http://127.0.0.1:1"}, 2, "--engine is not allowed"},
        {"", {"--policy", "nope"}, 2, "--policy: expected one of"},
        {"", {"stray"}, 2, "unexpected argument 'stray' (router flags go after --"},
        {"", {"--engines", "x"}, 2, "--engines: expected an integer"},
    };
    return cr_make_param_array(bad_case_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(bad_case_t *c, fleetsim, bad_input_is_refused_before_the_run, .timeout = 60.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], out[256], log[256];
    scratch_path(&s, "trace.jsonl", trace, sizeof(trace));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "run.log", log, sizeof(log));
    FILE *f = fopen(trace, "w");
    cr_assert(f);
    fputs(c->trace_text[0] ? c->trace_text
                           : "{\"timestamp\":0,\"input_length\":64,\"output_length\":4}\n"
                             "{\"timestamp\":1,\"input_length\":64,\"output_length\":4}\n",
          f);
    fclose(f);
    const char *args[24] = {"--trace", trace, "--out", out};
    int n = 4;
    bool router_flags = false;
    for (int i = 0; i < 6 && c->extra[i][0]; i++) {
        router_flags = router_flags || strcmp(c->extra[i], "--") == 0;
        args[n++] = c->extra[i];
    }
    if (!router_flags)
        args[n++] = "--quiet";
    args[n] = NULL;
    cr_assert_eq(run_fleetsim(log, args), c->status, "exit status (see %s)", log);
    char *text = slurp(log);
    cr_assert(strstr(text, c->expect), "output should say '%s':\n%s", c->expect, text);
    free(text);
    if (c->status == 2 && access(out, F_OK) == 0) {
        records_t r = read_records(out);
        cr_assert_eq(r.lines, 0, "nothing ran");
    }
    scratch_remove(&s);
}

/*
 * A warm 24-block prompt, then 20 requests at once that each add one block
 * to it, onto one engine with one slot: 19 wait, each with 512 uncached
 * tokens. The feed's pending prefill is that work, not 19 whole prompts.
 */
Test(fleetsim, the_feed_reports_only_uncached_tokens_of_queued_prompts_as_pending_prefill,
     .timeout = 60.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], out[256], feed[256], log[256];
    scratch_path(&s, "queued.jsonl", trace, sizeof(trace));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "feed.txt", feed, sizeof(feed));
    scratch_path(&s, "run.log", log, sizeof(log));
    FILE *f = fopen(trace, "w");
    cr_assert(f);
    for (int r = 0; r < 21; r++) {
        int blocks = r ? 25 : 24;
        fprintf(f, "{\"timestamp\":%d,\"input_length\":%d,\"output_length\":%d,\"hash_ids\":[",
                r ? 5000 : 0, blocks * 512, r ? 40 : 1);
        for (int b = 0; b < blocks; b++)
            fprintf(f, "%s%d", b ? "," : "", b < 24 ? b : 1000 + r);
        fputs("]}\n", f);
    }
    fclose(f);
    const char *args[] = {
        "--trace",        trace,       "--engines", "1", "--engine-params", "all:max_running=1",
        "--policy",       "load_only", "--es",      "1", "--out",           out,
        "--feed-samples", feed,        "--quiet",   NULL};
    cr_assert_eq(run_fleetsim(log, args), 0, "exit status (see %s)", log);
    records_t rec = read_records(out);
    cr_assert_eq(rec.ok, 21);
    FILE *fs = fopen(feed, "r");
    cr_assert(fs);
    char *line = NULL;
    size_t cap = 0;
    unsigned long long most = 0, most_waiting = 0;
    while (getline(&line, &cap, fs) > 0) {
        unsigned long long now, sample, seq, pending, largest;
        unsigned slot, flags, running, waiting;
        if (sscanf(line, "s %llu %u %llu %llu %u %u %u %llu %llu", &now, &slot, &sample, &seq,
                   &flags, &running, &waiting, &pending, &largest) != 9)
            continue;
        if (pending > most)
            most = pending;
        if (waiting > most_waiting)
            most_waiting = waiting;
    }
    free(line);
    fclose(fs);
    cr_assert_geq(most_waiting, 10, "requests queued behind the one slot (%llu)", most_waiting);
    cr_assert_gt(most, 0, "queued work is reported");
    /* 20 x (512 new tokens + a partial block): far below 19 x 12,800 whole prompts. */
    cr_assert_leq(most, 20 * 1024, "pending prefill %llu counts cached prefixes as work", most);
    scratch_remove(&s);
}

Test(fleetsim, admission_refuses_with_429_when_no_engine_has_room, .timeout = 60.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], out[256], stats[256], log[256];
    scratch_path(&s, "trace.jsonl", trace, sizeof(trace));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "stats.json", stats, sizeof(stats));
    scratch_path(&s, "run.log", log, sizeof(log));
    FILE *f = fopen(trace, "w");
    cr_assert(f);
    /* One slot and one queue place: the third request at the same instant has nowhere to go. */
    fputs("{\"timestamp\":0,\"input_length\":64,\"output_length\":400,\"session_id\":\"a\"}\n"
          "{\"timestamp\":0,\"input_length\":64,\"output_length\":400,\"session_id\":\"b\"}\n"
          "{\"timestamp\":0,\"input_length\":64,\"output_length\":4,\"session_id\":\"c\"}\n",
          f);
    fclose(f);
    const char *args[] = {
        "--trace",         trace,           "--engines", "1",     "--engine-params",
        "0:max_running=1", "--es",          "1",         "--out", out,
        "--stats",         stats,           "--quiet",   "--",    "--admission",
        "enforce",         "--max-waiting", "1",         NULL};
    cr_assert_eq(run_fleetsim(log, args), 1, "a refused request makes the exit status 1 (see %s)",
                 log);
    records_t r = read_records(out);
    cr_assert_eq(r.lines, 3);
    cr_assert_eq(r.ok, 2);
    char *text = slurp(out);
    cr_assert(strstr(text, "\"session\":\"c\"") && strstr(text, "\"status\":429"), "%s", text);
    free(text);
    cJSON *st = read_stats(stats);
    cr_assert_eq(num(st, "refused"), 1);
    const cJSON *rt = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "routers"), 0);
    cr_assert_eq(num(rt, "shadow_requests"), 0);
    cJSON_Delete(st);
    scratch_remove(&s);
}

/*
 * Admission before routing, as the peer gateway orders it: on the hot-owner
 * trap the owner's full queue answers 429 before the policy runs, the
 * clients retry into the same owner, and the idle peer never gets a first
 * request. kvroute's order (score, then admit with a seeding lease) lets
 * the peer serve. Virtual time: the counts are exact for the seed.
 */
Test(fleetsim, admission_before_routing_loops_on_429_while_after_routing_the_peer_serves,
     .timeout = 120.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], stats[256], out[256], log[256];
    scratch_path(&s, "hot.jsonl", trace, sizeof(trace));
    scratch_path(&s, "stats.json", stats, sizeof(stats));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "run.log", log, sizeof(log));
    write_hot_owner(trace);
    const char *order[] = {"before", "after"};
    double answers_429[2], peer_finished[2], refused[2];
    for (int i = 0; i < 2; i++) {
        const char *args[] = {"--trace",
                              trace,
                              "--engines",
                              "2",
                              "--engine-params",
                              "all:max_running=38",
                              "--closed-loop",
                              "--first-turn-engine",
                              "0",
                              "--first-turn-sessions",
                              "35",
                              "--policy",
                              "cache_aware",
                              "--es",
                              "1",
                              "--seed",
                              "1",
                              "--retry-429-ms",
                              "1000",
                              "--retry-429-max",
                              "20",
                              "--admission-order",
                              order[i],
                              "--stats",
                              stats,
                              "--out",
                              out,
                              "--quiet",
                              "--",
                              "--admission",
                              "enforce",
                              "--balance-abs",
                              "256",
                              NULL};
        int rc = run_fleetsim(log, args);
        cJSON *st = read_stats(stats);
        answers_429[i] = num(st, "answers_429");
        refused[i] = num(st, "refused");
        cr_assert_eq(rc, refused[i] > 0 ? 1 : 0, "exit status (see %s)", log);
        cr_assert_eq(num(st, "finished"), 229, "every request ended, served or refused");
        peer_finished[i] = num(cJSON_GetArrayItem(cJSON_GetObjectItem(st, "engines"), 1),
                               "finished");
        const cJSON *rt = cJSON_GetArrayItem(cJSON_GetObjectItem(st, "routers"), 0);
        cr_assert_eq(num(rt, "shadow_requests"), 0, "a 429 holds no charge (order %s)", order[i]);
        cJSON_Delete(st);
        char *text = slurp(out);
        cr_assert(strstr(text, "\"retries_429\":"), "records count the retried 429s");
        if (answers_429[i] > refused[i])
            cr_assert(strstr(text, "\"retries_429\":20"),
                      "a request retried to the bound (order %s)", order[i]);
        free(text);
    }
    cr_assert_gt(answers_429[0], 100, "admission before routing answers 429s (%.0f)",
                 answers_429[0]);
    cr_assert_leq(peer_finished[0], 2, "the idle peer serves almost nothing (%.0f)",
                  peer_finished[0]);
    cr_assert_eq(answers_429[1], 0, "after routing no 429 (%.0f)", answers_429[1]);
    cr_assert_gt(peer_finished[1], 20, "after routing the peer serves (%.0f)", peer_finished[1]);
    scratch_remove(&s);
}

Test(fleetsim, share_makes_the_routers_see_each_others_charge, .timeout = 120.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], a[256], b[256], log[256], dlog[256], dlog0[300];
    scratch_path(&s, "trace.jsonl", trace, sizeof(trace));
    scratch_path(&s, "a.jsonl", a, sizeof(a));
    scratch_path(&s, "b.jsonl", b, sizeof(b));
    scratch_path(&s, "run.log", log, sizeof(log));
    scratch_path(&s, "d.jsonl", dlog, sizeof(dlog));
    write_sessions(trace, 60, 3, 2, 6, 40, 1500, 48);
    const char *plain[] = {"--trace", trace,      "--engines", "4",    "--routers",
                           "3",       "--policy", "load_only", "--es", "0",
                           "--out",   a,          "--quiet",   NULL};
    cr_assert_eq(run_fleetsim(log, plain), 0, "exit status (see %s)", log);
    const char *shared[] = {
        "--trace",  trace,       "--engines",      "4",  "--routers",     "3",
        "--policy", "load_only", "--es",           "0",  "--router-args", "--share herd",
        "--out",    b,           "--decision-log", dlog, "--quiet",       NULL};
    cr_assert_eq(run_fleetsim(log, shared), 0, "exit status (see %s)", log);
    char *ta = slurp(a), *tb = slurp(b);
    cr_assert_gt(strlen(ta), 1000);
    cr_expect_str_neq(ta, tb, "--share changed nothing");
    free(ta);
    free(tb);
    /* Router 0's shadow counts the others' in-flight requests: more than it has sent on its own. */
    scratch_path(&s, "d-r0.jsonl", dlog0, sizeof(dlog0)); /* FILE-r<k> before the extension */
    bool peer_seen = false;
    FILE *f = fopen(dlog0, "r");
    cr_assert_not_null(f, "%s", dlog0);
    char line[4096];
    while (!peer_seen && fgets(line, sizeof line, f)) {
        cJSON *o = cJSON_Parse(line);
        cr_assert_not_null(o);
        peer_seen = num(o, "shadow_requests") >= 2;
        cJSON_Delete(o);
    }
    fclose(f);
    cr_expect(peer_seen, "no decision saw another router's charge");
    /* The run's dispatch segment is gone with it. */
    char seg[128];
    snprintf(seg, sizeof seg, "/dev/shm/kvr-fleetsim-%ld-share-herd", (long)last_pid);
    cr_expect_neq(access(seg, F_OK), 0, "%s left behind", seg);
    scratch_remove(&s);
}

/* The TTFT of the record with this trace index, in ms. */
static double record_ttft_ms(const char *path, int index)
{
    FILE *f = fopen(path, "r");
    cr_assert(f, "no records at %s", path);
    char *line = NULL;
    size_t cap = 0;
    double ttft = -1;
    while (getline(&line, &cap, f) > 0) {
        cJSON *o = cJSON_Parse(line);
        cr_assert(o, "record is not JSON: %s", line);
        if ((int)num(o, "index") == index)
            ttft = num(o, "ttft_ms");
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    cr_assert_geq(ttft, 0, "no record of request %d", index);
    return ttft;
}

/*
 * A same-millisecond group as the real router sees it: the HTTP server reads
 * one 64 KiB buffer per connection per loop turn, so a short prompt sent
 * after a long one is routed first and is on the engine before it. On one
 * engine the short prompt's TTFT is its own prefill (1,000 tokens: ~0.1 s);
 * routed in send order it would wait out the long one's first 8,192-token
 * chunk (~0.8 s), which is what --read-round-ms 0 keeps.
 */
Test(fleetsim, a_short_body_of_a_same_millisecond_group_is_routed_before_a_long_one, .timeout = 60.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], out[256], out0[256], log[256];
    scratch_path(&s, "group.jsonl", trace, sizeof(trace));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "records0.jsonl", out0, sizeof(out0));
    scratch_path(&s, "run.log", log, sizeof(log));
    FILE *f = fopen(trace, "w");
    cr_assert(f);
    /* 20,480 tokens: an 80 KiB body, two reads; then 1,024 tokens: one read. */
    fputs("{\"timestamp\":7,\"input_length\":20480,\"output_length\":4,\"hash_ids\":[", f);
    for (int b = 0; b < 40; b++)
        fprintf(f, "%s%d", b ? "," : "", b);
    fputs(
        "]}\n{\"timestamp\":7,\"input_length\":1024,\"output_length\":4,\"hash_ids\":[100,101]}\n",
        f);
    fclose(f);
    const char *args[] = {"--trace",   trace,   "--engines", "1",       "--policy",
                          "load_only", "--out", out,         "--quiet", NULL};
    cr_assert_eq(run_fleetsim(log, args), 0, "exit status (see %s)", log);
    double long_ttft = record_ttft_ms(out, 0), short_ttft = record_ttft_ms(out, 1);
    cr_assert_lt(short_ttft, 200, "the short prompt waited behind the long one: TTFT %.1f ms",
                 short_ttft);
    cr_assert_gt(long_ttft, short_ttft);
    const char *args0[] = {"--trace",         trace, "--engines", "1",  "--policy", "load_only",
                           "--read-round-ms", "0",   "--out",     out0, "--quiet",  NULL};
    cr_assert_eq(run_fleetsim(log, args0), 0, "exit status (see %s)", log);
    cr_assert_gt(record_ttft_ms(out0, 1), 800,
                 "in send order the short prompt waits for the long one's first chunk");
    scratch_remove(&s);
}

Test(fleetsim, a_disaggregated_fleet_prefills_on_prefill_engines_and_answers_from_decode_ones,
     .timeout = 120.)
{
    scratch_t s;
    scratch_init(&s);
    char trace[256], out[256], stats[256], log[256];
    scratch_path(&s, "trace.jsonl", trace, sizeof(trace));
    scratch_path(&s, "records.jsonl", out, sizeof(out));
    scratch_path(&s, "stats.json", stats, sizeof(stats));
    scratch_path(&s, "run.log", log, sizeof(log));
    write_sessions(trace, 40, 3, 4, 8, 200, 3000, 64);
    const char *args[] = {"--trace", trace,  "--engines", "3",     "--prefill-engines",
                          "1",       "--es", "1",         "--out", out,
                          "--stats", stats,  "--quiet",   NULL};
    cr_assert_eq(run_fleetsim(log, args), 0, "exit status (see %s)", log);
    records_t r = read_records(out);
    cr_assert_eq(r.lines, 120);
    cr_assert_eq(r.ok, 120, "every request finished with 200");
    cr_expect_gt(r.cached, 0, "the prefill engine's prefix hits are the records'");
    /* every answer is a decode engine's, with the output the trace asked for */
    char *text = slurp(out);
    cr_expect_null(strstr(text, "\"engine\":\"http://127.0.0.1:20000\""), "engine 0 only prefills");
    free(text);
    cJSON *st = read_stats(stats);
    const cJSON *engines = cJSON_GetObjectItem(st, "engines");
    cr_assert_eq(cJSON_GetArraySize(engines), 3);
    const cJSON *prefill = cJSON_GetArrayItem(engines, 0);
    cr_expect_eq(num(prefill, "received"), 120, "each request prefilled once");
    cr_expect_eq(num(prefill, "generated_tokens"), 120, "one token per prefill");
    double decoded = num(cJSON_GetArrayItem(engines, 1), "received") +
                     num(cJSON_GetArrayItem(engines, 2), "received");
    cr_expect_eq(decoded, 120, "each request decoded once");
    cr_expect_gt(num(cJSON_GetArrayItem(engines, 1), "received"), 0, "both decode engines used");
    cr_expect_gt(num(cJSON_GetArrayItem(engines, 2), "received"), 0);
    cr_expect_eq(num(cJSON_GetArrayItem(engines, 1), "generated_tokens") +
                     num(cJSON_GetArrayItem(engines, 2), "generated_tokens"),
                 120 * 64, "the decode engines generate every output token");
    const cJSON *rt;
    cJSON_ArrayForEach(rt, cJSON_GetObjectItem(st, "routers"))
    {
        cr_expect_eq(num(rt, "shadow_requests"), 0, "a phase left charged");
        cr_expect_eq(num(rt, "shadow_kv_tokens"), 0);
    }
    cJSON_Delete(st);
    /* every engine prefilling: refused with a reason */
    const char *bad[] = {"--trace",           trace, "--engines", "2",
                         "--prefill-engines", "2",   "--quiet",   NULL};
    cr_expect_eq(run_fleetsim(log, bad), 2);
    char *why = slurp(log);
    cr_expect_not_null(strstr(why, "must be left to decode"), "%s", why);
    free(why);
    scratch_remove(&s);
}
