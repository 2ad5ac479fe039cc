/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-tracegen as a user runs it: the output is a valid trace, the same
 * for a seed, sessions grow their prefixes turn by turn, the study preset
 * has the published shape, and the mooncake preset has no sessions but
 * prefixes shared minutes apart.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/support/proc.h"

static int run_tracegen(const char *out, const char *const *extra)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)kvr_test_bin("KVR_BIN_KVROUTE_TRACEGEN");
    argv[n++] = "-o";
    argv[n++] = (char *)out;
    for (; extra && *extra && n < 30; extra++)
        argv[n++] = (char *)*extra;
    argv[n] = NULL;
    pid_t pid = kvr_test_spawn(argv, NULL);
    cr_assert(pid > 0);
    int status = kvr_test_stop(pid, 0, 60000);
    cr_assert(WIFEXITED(status), "tracegen did not exit normally");
    return WEXITSTATUS(status);
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

static void tmp_path(char *out, size_t len, const char *tag)
{
    char name[96];
    kvr_test_unique_name(name, sizeof(name), tag);
    snprintf(out, len, "/tmp/%s.jsonl", name);
}

Test(tracegen, same_seed_same_bytes_other_seed_other_trace, .timeout = 60.)
{
    char a[128], b[128], c[128];
    tmp_path(a, sizeof(a), "tg-a");
    tmp_path(b, sizeof(b), "tg-b");
    tmp_path(c, sizeof(c), "tg-c");
    const char *seed7[] = {"--preset", "short", "--seed", "7", NULL};
    const char *seed8[] = {"--preset", "short", "--seed", "8", NULL};
    cr_assert_eq(run_tracegen(a, seed7), 0);
    cr_assert_eq(run_tracegen(b, seed7), 0);
    cr_assert_eq(run_tracegen(c, seed8), 0);
    char *ta = slurp(a), *tb = slurp(b), *tc = slurp(c);
    cr_assert(strlen(ta) > 100);
    cr_assert_str_eq(ta, tb, "one seed must give one trace");
    cr_assert_str_neq(ta, tc, "another seed must give another trace");
    free(ta), free(tb), free(tc);
    remove(a), remove(b), remove(c);
}

/* Per session, the previous turn's ids, to check the growing prefix. */
typedef struct {
    char id[32];
    int turn;
    cJSON *ids;
    long long input;
} last_turn_t;

/* Outside strings, no '.', exponent or sign: every number is written as an integer. */
static bool numbers_are_integers(const char *line)
{
    bool in_string = false;
    for (const char *p = line; *p; p++) {
        if (in_string) {
            if (*p == '\\')
                p++;
            else if (*p == '"')
                in_string = false;
        } else if (*p == '"') {
            in_string = true;
        } else if (strchr(".eE+", *p)) {
            return false;
        }
    }
    return true;
}

static cJSON *parse_line(const char *line, size_t lineno)
{
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithOpts(line, &end, false);
    cr_assert(o, "line %zu is not JSON (at byte %td)", lineno, end ? end - line : 0);
    return o;
}

/* The field as an integer; the test fails when it is absent or not a whole number. */
static long long int_field(const cJSON *o, const char *key, size_t lineno)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    cr_assert(cJSON_IsNumber(v) && v->valuedouble > -9e15 && v->valuedouble < 9e15 &&
                  v->valuedouble == (double)(long long)v->valuedouble,
              "line %zu lacks an integer %s", lineno, key);
    return (long long)v->valuedouble;
}

Test(tracegen, lines_are_valid_sorted_and_prefixes_grow, .timeout = 60.)
{
    char path[128];
    tmp_path(path, sizeof(path), "tg-valid");
    const char *args[] = {"--preset", "short",    "--seed", "3", "--block-size",
                          "64",       "--window", "120",    NULL};
    cr_assert_eq(run_tracegen(path, args), 0);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    static last_turn_t sessions[4096];
    size_t n_sessions = 0, lines = 0, later_turns = 0;
    long long last_ts = -1;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        lines++;
        cJSON *o = parse_line(line, lines);
        cr_assert(numbers_are_integers(line), "line %zu has a number that is not an integer: %s",
                  lines, line);
        long long ts = int_field(o, "timestamp", lines), in = int_field(o, "input_length", lines);
        long long out = int_field(o, "output_length", lines), turn = int_field(o, "turn", lines);
        cJSON *ids = cJSON_DetachItemFromObjectCaseSensitive(o, "hash_ids");
        const cJSON *sid_item = cJSON_GetObjectItemCaseSensitive(o, "session_id");
        cr_assert(cJSON_IsArray(ids) && cJSON_IsString(sid_item), "line %zu lacks a field", lines);
        const char *sid = sid_item->valuestring;
        cr_assert(ts >= last_ts, "timestamps must not go back (line %zu)", lines);
        cr_assert(ts < 120000, "a request past the window (line %zu)", lines);
        last_ts = ts;
        cr_assert(in > 0 && out > 0);
        cr_assert_eq((long long)cJSON_GetArraySize(ids), (in + 63) / 64,
                     "ids must cover the prompt");
        size_t k = 0;
        while (k < n_sessions && strcmp(sessions[k].id, sid) != 0)
            k++;
        if (k == n_sessions) {
            cr_assert_eq(turn, 0, "a session starts at turn 0");
            cr_assert(n_sessions < 4096);
            snprintf(sessions[k].id, sizeof(sessions[k].id), "%s", sid);
            n_sessions++;
        } else {
            later_turns++;
            cr_assert_eq(turn, sessions[k].turn + 1, "turns of a session follow each other");
            cr_assert(in > sessions[k].input, "a later turn's prompt is longer");
            /* every full block of the previous prompt is a prefix of this one */
            size_t full = (size_t)(sessions[k].input / 64);
            const cJSON *a = ids->child, *b = sessions[k].ids->child;
            for (size_t blk = 0; blk < full; blk++, a = a->next, b = b->next)
                cr_assert(a && b && cJSON_Compare(a, b, true),
                          "session %s turn %lld breaks the prefix at block %zu", sid, turn, blk);
            cJSON_Delete(sessions[k].ids);
        }
        sessions[k].turn = (int)turn;
        sessions[k].input = in;
        sessions[k].ids = ids;
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    cr_assert(lines > 20 && n_sessions > 5 && later_turns > 5, "%zu lines, %zu sessions", lines,
              n_sessions);
    for (size_t k = 0; k < n_sessions; k++)
        cJSON_Delete(sessions[k].ids);
    remove(path);
}

Test(tracegen, study_preset_has_the_published_shape, .timeout = 60.)
{
    char path[128];
    tmp_path(path, sizeof(path), "tg-study");
    cr_assert_eq(run_tracegen(path, NULL), 0);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    size_t lines = 0, turn0 = 0;
    long long max_ts = 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        lines++;
        cJSON *o = parse_line(line, lines);
        turn0 += int_field(o, "turn", lines) == 0;
        long long ts = int_field(o, "timestamp", lines);
        max_ts = ts > max_ts ? ts : max_ts;
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    cr_assert(lines >= 1000 && lines <= 1400, "~1,200 requests, got %zu", lines);
    cr_assert(turn0 >= 230 && turn0 <= 310, "~270 sessions, got %zu", turn0);
    cr_assert(max_ts > 550000 && max_ts < 600000, "a 600 s window, last at %lld ms", max_ts);
    remove(path);
}

Test(tracegen, mooncake_preset_has_no_sessions_and_shares_prefixes_minutes_apart, .timeout = 60.)
{
    char path[128];
    tmp_path(path, sizeof(path), "tg-mooncake");
    const char *args[] = {"--preset", "mooncake", "--window", "600", "--tenants", "1", NULL};
    cr_assert_eq(run_tracegen(path, args), 0);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    /* When each block id was first seen; ids are handed out in order, the tenant's
     * system prompt first, so an id past its blocks belongs to one conversation. */
    enum { MAX_ID = 1 << 20 };
    long long *first_seen = malloc(sizeof(long long) * MAX_ID);
    cr_assert(first_seen);
    for (size_t i = 0; i < MAX_ID; i++)
        first_seen[i] = -1;
    long long system_blocks = -1;
    size_t lines = 0, reuses = 0, reuses_past_60s = 0;
    long long in_sum = 0;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        lines++;
        cJSON *o = parse_line(line, lines);
        cr_assert(!cJSON_GetObjectItemCaseSensitive(o, "session_id") &&
                      !cJSON_GetObjectItemCaseSensitive(o, "turn"),
                  "line %zu names a session", lines);
        long long ts = int_field(o, "timestamp", lines);
        in_sum += int_field(o, "input_length", lines);
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(o, "hash_ids");
        cr_assert(cJSON_IsArray(ids) && cJSON_GetArraySize(ids) > 0);
        if (system_blocks < 0) { /* the first request's first id past 0, 1, 2, ... */
            system_blocks = 0;
            for (const cJSON *id = ids->child; id && (long long)id->valuedouble == system_blocks;
                 id = id->next)
                system_blocks++;
        }
        long long oldest = -1;
        for (const cJSON *id = ids->child; id; id = id->next) {
            long long v = (long long)id->valuedouble;
            cr_assert(v >= 0 && v < MAX_ID);
            if (v < system_blocks)
                continue;
            if (first_seen[v] >= 0 && (oldest < 0 || first_seen[v] < oldest))
                oldest = first_seen[v];
            if (first_seen[v] < 0)
                first_seen[v] = ts;
        }
        if (oldest >= 0) {
            reuses++;
            reuses_past_60s += ts - oldest > 60000;
        }
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    free(first_seen);
    cr_assert(lines > 500, "~0.6 conversations/s for 600 s, got %zu requests", lines);
    cr_assert(in_sum / (long long)lines > 5000, "long prompts: mean %lld tokens",
              in_sum / (long long)lines);
    cr_assert(reuses > lines / 3, "requests repeat earlier requests' context (%zu of %zu)", reuses,
              lines);
    cr_assert(reuses_past_60s > reuses / 2, "most reuse comes a minute or more later (%zu of %zu)",
              reuses_past_60s, reuses);
    remove(path);
}

Test(tracegen, bad_option_is_refused, .timeout = 30.)
{
    char path[128];
    tmp_path(path, sizeof(path), "tg-bad");
    const char *args[] = {"--window", "-5", NULL};
    cr_assert_eq(run_tracegen(path, args), 2);
    const char *args2[] = {"--preset", "nope", NULL};
    cr_assert_eq(run_tracegen(path, args2), 2);
    remove(path);
}

Test(tracegen, bursts_start_every_session_in_the_head_of_its_period, .timeout = 60.)
{
    char path[128], plain[128];
    tmp_path(path, sizeof(path), "tg-burst");
    tmp_path(plain, sizeof(plain), "tg-noburst");
    const char *args[] = {"--preset", "short", "--seed",         "5",  "--turns",       "1",
                          "--window", "120",   "--burst-period", "20", "--burst-width", "2",
                          NULL};
    cr_assert_eq(run_tracegen(path, args), 0);
    const char *args2[] = {"--preset", "short",    "--seed", "5", "--turns",
                           "1",        "--window", "120",    NULL};
    cr_assert_eq(run_tracegen(plain, args2), 0);
    FILE *f = fopen(path, "r"), *g = fopen(plain, "r");
    cr_assert(f && g);
    size_t lines = 0, plain_lines = 0, spikes[6] = {0};
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        lines++;
        cJSON *o = parse_line(line, lines);
        long long ts = int_field(o, "timestamp", lines);
        cr_assert(ts % 20000 < 2000, "line %zu at %lld ms is outside its period's 2 s spike", lines,
                  ts);
        spikes[ts / 20000 < 6 ? ts / 20000 : 5]++;
        cJSON_Delete(o);
    }
    while (getline(&line, &cap, g) > 0)
        plain_lines++;
    free(line);
    fclose(f);
    fclose(g);
    cr_assert_eq(lines, plain_lines, "bursts move sessions, they neither add nor drop any");
    for (int k = 0; k < 6; k++)
        cr_assert(spikes[k] > 0, "period %d has no spike", k);
    remove(path);
    remove(plain);
}

/* What one zoo preset's trace shows: requests, distinct timestamps, requests opening with
 * block id 0 (the first tenant's system prompt), distinct first ids, mean and largest prompt,
 * prompts of at least 100k tokens, requests in the first and last fifth of the window. */
typedef struct {
    size_t lines, timestamps, open_with_0, first_ids, at_100k, head, tail;
    long long in_sum, in_max;
    bool sessions;
} zoo_shape_t;

static zoo_shape_t zoo_shape(const char *preset, const char *window)
{
    char path[128];
    tmp_path(path, sizeof(path), "tg-zoo");
    const char *args[] = {"--preset", preset, "--window", window, NULL};
    cr_assert_eq(run_tracegen(path, args), 0, "--preset %s", preset);
    double window_ms = atof(window) * 1000.0;
    FILE *f = fopen(path, "r");
    cr_assert(f);
    zoo_shape_t s = {0};
    long long last_ts = -1;
    enum { MAX_FIRST = 4096 };
    long long firsts[MAX_FIRST];
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        s.lines++;
        cJSON *o = parse_line(line, s.lines);
        long long ts = int_field(o, "timestamp", s.lines),
                  in = int_field(o, "input_length", s.lines);
        s.timestamps += ts != last_ts;
        last_ts = ts;
        s.in_sum += in;
        s.in_max = in > s.in_max ? in : s.in_max;
        s.at_100k += in >= 100000;
        s.head += ts < window_ms / 5;
        s.tail += ts >= window_ms * 4 / 5;
        s.sessions = s.sessions || cJSON_GetObjectItemCaseSensitive(o, "session_id");
        const cJSON *ids = cJSON_GetObjectItemCaseSensitive(o, "hash_ids");
        cr_assert(cJSON_IsArray(ids) && ids->child);
        long long first = (long long)ids->child->valuedouble;
        s.open_with_0 += first == 0;
        bool seen = false;
        for (size_t k = 0; k < s.first_ids && !seen; k++)
            seen = firsts[k] == first;
        if (!seen && s.first_ids < MAX_FIRST)
            firsts[s.first_ids++] = first;
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    remove(path);
    cr_assert(s.lines > 0, "--preset %s wrote nothing", preset);
    return s;
}

Test(tracegen, zoo_presets_have_the_shapes_they_stand_for, .timeout = 60.)
{
    zoo_shape_t s = zoo_shape("sessionless-shared", "600");
    cr_assert(!s.sessions, "sessionless-shared names sessions");
    cr_assert(s.lines > 1700 && s.lines < 2300, "~3.35 requests/s over 600 s, got %zu", s.lines);
    cr_assert(s.open_with_0 * 100 >= s.lines * 92 && s.open_with_0 * 100 <= s.lines * 98,
              "~95%% open with the shared block, got %zu of %zu", s.open_with_0, s.lines);
    double mean = (double)s.in_sum / (double)s.lines;
    cr_assert(mean > 10000 && mean < 14000, "mean prompt ~12k, got %.0f", mean);
    cr_assert(s.timestamps * 100 > s.lines * 95, "one request per timestamp, mostly");

    zoo_shape_t g = zoo_shape("grouped", "600");
    cr_assert(g.lines > 1700 && g.lines < 2400, "the same request rate, got %zu", g.lines);
    double per_ts = (double)g.lines / (double)g.timestamps;
    cr_assert(per_ts > 7 && per_ts < 14, "~10 requests per timestamp, got %.1f", per_ts);

    zoo_shape_t r = zoo_shape("ramp-burst", "600");
    cr_assert(r.tail > 2 * r.head, "the rate rises: %zu in the first fifth, %zu in the last",
              r.head, r.tail);

    zoo_shape_t l = zoo_shape("long-tail", "600");
    cr_assert(l.at_100k * 100 >= l.lines, "p99 at 100k tokens or more: %zu of %zu", l.at_100k,
              l.lines);

    zoo_shape_t t = zoo_shape("tenants", "600");
    cr_assert(t.first_ids > 140 && t.first_ids <= 150, "150 tenants' prefixes, got %zu",
              t.first_ids);
    cr_assert(t.in_max < 6000 + 4 * 1200, "6k shared + ~1.2k question, largest %lld", t.in_max);
    cr_assert(t.tail > 3 * t.head, "the rate rises 8x: %zu then %zu", t.head, t.tail);

    zoo_shape_t a = zoo_shape("agentic", "600");
    cr_assert(a.sessions, "agentic names its sessions");
    cr_assert(a.lines > 6 * a.first_ids, "many turns per tenant prefix");
}
