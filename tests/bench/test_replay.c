/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-replay's pieces a benchmark result depends on: trace loading
 * (Mooncake's lines without sessions too), the hash-id → text mapping that
 * makes equal prefixes equal text, session chaining for closed loop, and
 * percentiles.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/replay/replay.h"
#include "bench/replay/trace.h"
#include "common/prefix_hash.h"
#include "tests/support/proc.h"

static void write_file(char *path, size_t len, const char *text)
{
    char name[96];
    kvr_test_unique_name(name, sizeof(name), "replay-trace");
    snprintf(path, len, "/tmp/%s.jsonl", name);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    fclose(f);
}

static char *text_of(const kvr_trace_request_t *r, uint32_t block_size, uint64_t fallback)
{
    char *t = malloc(kvr_trace_text_len(r) + 1);
    kvr_trace_text(r, block_size, fallback, t);
    t[kvr_trace_text_len(r)] = '\0';
    return t;
}

Test(replay_trace, loads_mooncake_lines_without_sessions, .timeout = 10.)
{
    char path[128];
    write_file(path, sizeof(path),
               "{\"timestamp\": 0, \"input_length\": 1000, \"output_length\": 10, \"hash_ids\": [0, 1]}\n"
               "\n"
               "{\"timestamp\": 27, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [0, 2],"
               " \"session_id\": \"a\", \"turn\": 1}\n");
    kvr_trace_t t;
    char err[256];
    cr_assert_eq(kvr_trace_load(&t, path, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(t.len, 2);
    cr_assert_null(t.requests[0].session_id);
    cr_assert_eq(t.requests[0].turn, -1);
    cr_assert_eq(t.requests[0].input_length, 1000);
    cr_assert_eq(t.requests[0].n_hash_ids, 2);
    cr_assert_str_eq(t.requests[1].session_id, "a");
    cr_assert_eq(t.requests[1].turn, 1);
    cr_assert_eq(t.requests[1].timestamp_ms, 27);
    kvr_trace_free(&t);
    remove(path);
}

typedef struct {
    char line[160];
    char expect[48]; /* part of the error message naming the fault */
} bad_line_t;

ParameterizedTestParameters(replay_trace, bad_lines_are_reported_with_line_number)
{
    static bad_line_t cases[] = {
        {"not json", ":2: not a JSON object"},
        {"{\"input_length\": 5, \"output_length\": 1}", "timestamp"},
        {"{\"timestamp\": 1, \"output_length\": 1}", "input_length"},
        {"{\"timestamp\": 1, \"input_length\": 5}", "output_length"},
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": 3}", "hash_ids"},
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": [\"x\"]}", "hash_ids"},
    };
    return cr_make_param_array(bad_line_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(bad_line_t *c, replay_trace, bad_lines_are_reported_with_line_number, .timeout = 10.)
{
    char path[128], text[256];
    snprintf(text, sizeof(text), "{\"timestamp\":0,\"input_length\":1,\"output_length\":1}\n%s\n", c->line);
    write_file(path, sizeof(path), text);
    kvr_trace_t t;
    char err[256] = "";
    cr_assert_lt(kvr_trace_load(&t, path, err, sizeof(err)), 0);
    cr_assert(strstr(err, c->expect), "error '%s' should mention '%s'", err, c->expect);
    cr_assert(strstr(err, ":2:"), "error '%s' should name line 2", err);
    remove(path);
}

Test(replay_text, equal_id_prefixes_give_equal_text_prefixes, .timeout = 10.)
{
    uint64_t ids_a[] = {10, 11, 12, 13}, ids_b[] = {10, 11, 99};
    kvr_trace_request_t a = {.input_length = 64 * 3 + 20, .hash_ids = ids_a, .n_hash_ids = 4};
    kvr_trace_request_t b = {.input_length = 64 * 3, .hash_ids = ids_b, .n_hash_ids = 3};
    char *ta = text_of(&a, 64, 1), *tb = text_of(&b, 64, 2);
    cr_assert_eq(strlen(ta), (size_t)a.input_length * KVR_BYTES_PER_TOKEN, "4 bytes per token");
    size_t two_blocks = 2 * 64 * KVR_BYTES_PER_TOKEN;
    cr_assert_eq(memcmp(ta, tb, two_blocks), 0, "blocks 10, 11 are the same text in both");
    cr_assert_neq(memcmp(ta + two_blocks, tb + two_blocks, 64 * KVR_BYTES_PER_TOKEN), 0,
                  "block 12 and block 99 differ");
    /* The router hashes 64-byte blocks: the shared text is shared hashes too. */
    uint64_t ha[64], hb[64];
    size_t na = kvr_prefix_hash_blocks(ta, strlen(ta), ha, 64);
    size_t nb = kvr_prefix_hash_blocks(tb, strlen(tb), hb, 64);
    size_t shared = 0;
    while (shared < na && shared < nb && ha[shared] == hb[shared])
        shared++;
    cr_assert_eq(shared, two_blocks / KVR_PREFIX_BLOCK_BYTES);
    for (size_t i = 0; i < strlen(ta); i++)
        cr_assert(ta[i] == ' ' || (ta[i] >= 'a' && ta[i] <= 'z'), "text needs no JSON escaping");
    free(ta), free(tb);
}

Test(replay_text, a_prompt_longer_than_its_ids_gets_private_text, .timeout = 10.)
{
    uint64_t ids[] = {5};
    kvr_trace_request_t r = {.input_length = 64 * 2, .hash_ids = ids, .n_hash_ids = 1};
    char *t1 = text_of(&r, 64, 1), *t2 = text_of(&r, 64, 2), *t1b = text_of(&r, 64, 1);
    size_t block = 64 * KVR_BYTES_PER_TOKEN;
    cr_assert_eq(memcmp(t1, t2, block), 0);
    cr_assert_neq(memcmp(t1 + block, t2 + block, block), 0, "tails of two requests differ");
    cr_assert_str_eq(t1, t1b, "and are deterministic");
    free(t1), free(t2), free(t1b);
}

Test(replay_sessions, turns_chain_in_order_and_sessionless_requests_stand_alone, .timeout = 10.)
{
    kvr_trace_request_t reqs[] = {
        {.timestamp_ms = 0, .session_id = "b", .turn = 0},
        {.timestamp_ms = 5, .session_id = "a", .turn = 1},
        {.timestamp_ms = 1, .session_id = "a", .turn = 0},
        {.timestamp_ms = 2, .session_id = NULL, .turn = -1},
        {.timestamp_ms = 9, .session_id = "b", .turn = 1},
        {.timestamp_ms = 7, .session_id = "a", .turn = 2},
    };
    kvr_trace_t t = {.requests = reqs, .len = 6};
    size_t next[6];
    int rc = -1;
    size_t *prev = kvr_replay_link_sessions(&t, 6, next, &rc);
    cr_assert_eq(rc, 0);
    cr_assert_eq(next[2], 1);
    cr_assert_eq(next[1], 5);
    cr_assert_eq(next[5], SIZE_MAX);
    cr_assert_eq(next[0], 4);
    cr_assert_eq(next[3], SIZE_MAX);
    cr_assert_eq(prev[2], SIZE_MAX, "a's first turn is scheduled by time");
    cr_assert_eq(prev[3], SIZE_MAX, "a request without session is scheduled by time");
    cr_assert_eq(prev[4], 0);
    free(prev);
}

Test(replay_summary, percentiles_interpolate, .timeout = 10.)
{
    double v[] = {40, 10, 30, 20, 50};
    cr_assert_float_eq(kvr_replay_percentile(v, 5, 50), 30, 1e-9);
    cr_assert_float_eq(kvr_replay_percentile(v, 5, 90), 46, 1e-9);
    cr_assert_float_eq(kvr_replay_percentile(v, 5, 0), 10, 1e-9);
    cr_assert(isnan(kvr_replay_percentile(v, 0, 50)));
}
