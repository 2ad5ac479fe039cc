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
    write_file(
        path, sizeof(path),
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

Test(replay_trace, a_repeated_key_means_its_last_value_and_numeric_sessions_are_named,
     .timeout = 10.)
{
    char path[128];
    write_file(
        path, sizeof(path),
        "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"input_length\": 7,"
        " \"session_id\": 42, \"turn\": 3}\n"
        "{\"timestamp\": 2.9, \"input_length\": 5, \"output_length\": 1, \"session_id\": 1.5,"
        " \"turn\": 2.5, \"hash_ids\": [-1, 9007199254740991]}\n");
    kvr_trace_t t;
    char err[256];
    cr_assert_eq(kvr_trace_load(&t, path, err, sizeof(err)), 0, "%s", err);
    cr_assert_eq(t.len, 2);
    cr_assert_eq(t.requests[0].input_length, 7, "the last input_length counts");
    cr_assert_str_eq(t.requests[0].session_id, "42");
    cr_assert_eq(t.requests[0].turn, 3);
    cr_assert_eq(t.requests[1].timestamp_ms, 2);
    cr_assert_null(t.requests[1].session_id, "a fractional session number names no session");
    cr_assert_eq(t.requests[1].turn, -1, "nor is 2.5 a turn");
    cr_assert_eq(t.requests[1].n_hash_ids, 2);
    cr_assert_eq(t.requests[1].hash_ids[0], UINT64_MAX);
    cr_assert_eq(t.requests[1].hash_ids[1], 9007199254740991ull);
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
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": 3}",
         "hash_ids"},
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": [\"x\"]}",
         "hash_ids"},
        /* ids are exact below 2^53 only (cJSON's numbers are doubles): refused from there, never rounded */
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": [9007199254740993]}",
         "hash_ids holds an id of magnitude"},
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"session_id\": 18014398509481985}",
         "session_id"},
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1, \"session_id\": \"a\xff\"}",
         "not a JSON object: not UTF-8 at byte"},
        {"{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1} x",
         "data after the JSON value"},
        {"[1, 2]", ":2: not a JSON object"},
    };
    return cr_make_param_array(bad_line_t, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(bad_line_t *c, replay_trace, bad_lines_are_reported_with_line_number,
                  .timeout = 10.)
{
    char path[128], text[256];
    snprintf(text, sizeof(text), "{\"timestamp\":0,\"input_length\":1,\"output_length\":1}\n%s\n",
             c->line);
    write_file(path, sizeof(path), text);
    kvr_trace_t t;
    char err[256] = "";
    cr_assert_lt(kvr_trace_load(&t, path, err, sizeof(err)), 0);
    cr_assert(strstr(err, c->expect), "error '%s' should mention '%s'", err, c->expect);
    cr_assert(strstr(err, ":2:"), "error '%s' should name line 2", err);
    remove(path);
}

Test(replay_trace, negative_lengths_are_named, .timeout = 10.)
{
    char path[128], err[256] = "";
    write_file(path, sizeof(path),
               "{\"timestamp\": 1, \"input_length\": -5, \"output_length\": 1}\n");
    kvr_trace_t t;
    cr_assert_lt(kvr_trace_load(&t, path, err, sizeof(err)), 0);
    cr_assert(strstr(err, ":1: input_length is negative"), "%s", err);
    write_file(path, sizeof(path),
               "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": -1}\n");
    cr_assert_lt(kvr_trace_load(&t, path, err, sizeof(err)), 0);
    cr_assert(strstr(err, ":1: output_length is negative"), "%s", err);
    remove(path);
}

Test(replay_trace, ordered_load_refuses_a_timestamp_going_backwards, .timeout = 10.)
{
    char path[128], err[256] = "";
    write_file(path, sizeof(path),
               "{\"timestamp\": 10, \"input_length\": 5, \"output_length\": 1}\n"
               "{\"timestamp\": 10, \"input_length\": 5, \"output_length\": 1}\n"
               "{\"timestamp\": 9, \"input_length\": 5, \"output_length\": 1}\n");
    kvr_trace_t t;
    cr_assert_eq(kvr_trace_load(&t, path, err, sizeof(err)), 0, "the plain load keeps any order");
    cr_assert_eq(t.len, 3);
    kvr_trace_free(&t);
    kvr_trace_load_opts_t opts = {.ordered = true};
    cr_assert_lt(kvr_trace_load_opts(&t, path, &opts, err, sizeof(err)), 0);
    cr_assert(strstr(err, ":3: timestamp 9 goes backwards"), "%s", err);
    remove(path);
}

Test(replay_trace, skip_mode_reports_each_bad_line_and_keeps_the_rest, .timeout = 10.)
{
    char path[128], err[256] = "", report[1024] = "";
    write_file(
        path, sizeof(path),
        "{\"timestamp\": 5, \"input_length\": 5, \"output_length\": 1}\n"
        "{\"timestamp\": 6, \"output_length\": 1}\n"
        "not json\n"
        "\n"
        "{\"timestamp\": 6, \"input_length\": 5, \"output_length\": 1, \"hash_ids\": [1.5]}\n"
        "{\"timestamp\": 1, \"input_length\": 5, \"output_length\": 1}\n"
        "{\"timestamp\": 6, \"input_length\": 7, \"output_length\": 2}\n");
    FILE *rep = fmemopen(report, sizeof(report) - 1, "w");
    cr_assert(rep);
    kvr_trace_load_opts_t opts = {.skip_bad = true, .ordered = true, .report = rep};
    kvr_trace_t t;
    cr_assert_eq(kvr_trace_load_opts(&t, path, &opts, err, sizeof(err)), 0, "%s", err);
    fclose(rep);
    cr_assert_eq(opts.skipped, 4);
    cr_assert_eq(t.len, 2);
    cr_assert_eq(t.requests[1].input_length, 7, "the lines after a bad one are kept");
    cr_assert(strstr(report, ":2: input_length missing"), "%s", report);
    cr_assert(strstr(report, ":3: not a JSON object"), "%s", report);
    cr_assert(strstr(report, ":5: hash_ids holds a non-integer"), "%s", report);
    cr_assert(strstr(report, ":6: timestamp 1 goes backwards"), "%s", report);
    kvr_trace_free(&t);
    remove(path);
}

Test(replay_text, text_from_a_token_is_the_tail_of_the_whole_text, .timeout = 10.)
{
    uint64_t ids[] = {3, 4, 5};
    kvr_trace_request_t r = {.input_length = 64 * 3 + 7, .hash_ids = ids, .n_hash_ids = 3};
    char *whole = text_of(&r, 64, 9);
    for (uint32_t from = 0; from <= r.input_length; from += 37) {
        size_t n = (size_t)(r.input_length - from) * KVR_BYTES_PER_TOKEN;
        char *tail = malloc(n + 1);
        kvr_trace_text_from(&r, 64, 9, from, tail);
        cr_assert_eq(memcmp(tail, whole + (size_t)from * KVR_BYTES_PER_TOKEN, n), 0,
                     "from token %u", from);
        free(tail);
    }
    free(whole);
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

static char *record_of(const kvr_trace_request_t *tr, const kvr_replay_result_t *res)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert(f);
    kvr_replay_write_record(f, tr, res, "run", 0);
    fclose(f);
    return buf;
}

/* The analysis scripts read these lines: field order and number types are a format. */
Test(replay_record, fields_order_and_number_types_are_fixed, .timeout = 10.)
{
    kvr_trace_request_t tr = {
        .input_length = 100, .output_length = 5, .turn = 2, .session_id = "s1"};
    kvr_replay_result_t res = {
        .sent = true, .finished = true, .due_rel_ms = 12.0, .send_rel_ms = 1.5e9};
    res.req = (kvr_replay_req_t){.index = 7,
                                 .url = "http://r/v1",
                                 .send_ns = 9007199254740993ull,
                                 .status = 200,
                                 .prompt_tokens = 100,
                                 .cached_tokens = -1,
                                 .completion_tokens = 5};
    res.req.first_byte_ns = res.req.send_ns + 1500000;
    res.req.first_token_ns = res.req.send_ns + 2000000;
    res.req.end_ns = res.req.send_ns + 1234567891;
    snprintf(res.req.engine, sizeof(res.req.engine), "http://e0");
    /* whole ms stay reals (12.0), reals keep 9 digits, nanosecond clocks keep all 64 bits */
    char *line = record_of(&tr, &res);
    cr_assert_str_eq(
        line,
        "{\"index\":7,\"request_id\":\"run-7\",\"session\":\"s1\",\"turn\":2,\"engine\":\"http://e0\","
        "\"target\":\"http://r/v1\",\"scheduled_ms\":12.0,\"send_ms\":1.5e9,"
        "\"send_mono_ns\":9007199254740993,\"end_mono_ns\":9007200489308884,\"ttft_ms\":2.0,"
        "\"first_byte_ms\":1.5,\"e2e_ms\":1234.56789,\"input_length\":100,\"output_length\":5,"
        "\"prompt_tokens\":100,\"cached_tokens\":null,\"output_tokens\":5,\"status\":200,\"ok\":true,"
        "\"error\":null}\n");
    free(line);

    tr.session_id = NULL;
    tr.turn = -1;
    res.req.status = 500;
    res.req.engine[0] = '\0';
    res.due_rel_ms = 0.000123456789012;
    res.send_rel_ms = -3;
    res.req.first_token_ns = res.req.first_byte_ns = 0;
    snprintf(res.req.error, sizeof(res.req.error), "HTTP 500: {\"m\":\"tab\there\"}");
    line = record_of(&tr, &res);
    cr_assert_str_eq(
        line,
        "{\"index\":7,\"request_id\":\"run-7\",\"session\":null,\"turn\":null,\"engine\":null,"
        "\"target\":\"http://r/v1\",\"scheduled_ms\":0.000123456789,\"send_ms\":-3.0,"
        "\"send_mono_ns\":9007199254740993,\"end_mono_ns\":9007200489308884,\"ttft_ms\":null,"
        "\"first_byte_ms\":null,\"e2e_ms\":1234.56789,\"input_length\":100,\"output_length\":5,"
        "\"prompt_tokens\":100,\"cached_tokens\":null,\"output_tokens\":5,\"status\":500,\"ok\":false,"
        "\"error\":\"HTTP 500: {\\\"m\\\":\\\"tab\\there\\\"}\"}\n");
    free(line);

    /* A record of one router of several names it last. */
    res.has_router = true;
    res.router = 3;
    line = record_of(&tr, &res);
    cr_assert(
        strstr(line, ",\"error\":\"HTTP 500: {\\\"m\\\":\\\"tab\\there\\\"}\",\"router\":3}\n"),
        "%s", line);
    free(line);
}

/* An error text cut inside a UTF-8 character (or any stray byte) still gives a valid line. */
Test(replay_record, bytes_that_are_not_utf8_become_replacement_characters, .timeout = 10.)
{
    kvr_trace_request_t tr = {.input_length = 1, .output_length = 1, .turn = -1};
    kvr_replay_result_t res = {.sent = true, .finished = true};
    res.req = (kvr_replay_req_t){.index = 1,
                                 .url = "http://r/v1",
                                 .status = 500,
                                 .prompt_tokens = -1,
                                 .cached_tokens = -1,
                                 .completion_tokens = -1};
    snprintf(res.req.error, sizeof(res.req.error), "HTTP 500: caf\xc3\xa9 cut \xe2\x82");
    char *line = record_of(&tr, &res);
    cr_assert(strstr(line, "\"error\":\"HTTP 500: caf\xc3\xa9 cut \xef\xbf\xbd\xef\xbf\xbd\"}\n"),
              "%s", line);
    free(line);
}

Test(replay_summary, percentiles_interpolate, .timeout = 10.)
{
    double v[] = {40, 10, 30, 20, 50};
    cr_assert_float_eq(kvr_replay_percentile(v, 5, 50), 30, 1e-9);
    cr_assert_float_eq(kvr_replay_percentile(v, 5, 90), 46, 1e-9);
    cr_assert_float_eq(kvr_replay_percentile(v, 5, 0), 10, 1e-9);
    cr_assert(isnan(kvr_replay_percentile(v, 0, 50)));
}
