/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SGLang /v1/loads (and the older /get_load) as engine state: sums over DP
 * ranks, caps complete only when every rank has its cap, pending prefill
 * from num_total_tokens, and malformed answers refused with a reason.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/sglang_loads.h"

/* Two ranks, shaped like /v1/loads?include=core from a DP=2 server. */
static const char LOADS_DP2[] =
    "{\"timestamp\": \"2026-11-30T04:30:00Z\", \"version\": \"0.5.4\", \"dp_rank_count\": 2,"
    " \"loads\": ["
    "  {\"dp_rank\": 0, \"num_running_reqs\": 38, \"num_waiting_reqs\": 116,"
    "   \"max_running_requests\": 48, \"num_used_tokens\": 150000, \"max_total_num_tokens\": 160000,"
    "   \"token_usage\": 0.94, \"utilization\": 0.97, \"num_total_tokens\": 250000,"
    "   \"gen_throughput\": 1020.5, \"cache_hit_rate\": 0.8},"
    "  {\"dp_rank\": 1, \"num_running_reqs\": 2, \"num_waiting_reqs\": 0,"
    "   \"max_running_requests\": 48, \"num_used_tokens\": 8000, \"max_total_num_tokens\": 160000,"
    "   \"token_usage\": 0.05, \"utilization\": 0.10, \"num_total_tokens\": 8000}"
    " ]}";

static kvr_engine_state_t parse_ok(const char *json)
{
    kvr_engine_state_t s;
    memset(&s, 0, sizeof(s));
    const char *reason = NULL;
    int rc = kvr_sglang_loads_parse(json, strlen(json), &s, &reason);
    cr_assert_eq(rc, 0, "rc %d: %s", rc, reason ? reason : "?");
    return s;
}

Test(sglang_loads, dp2_sums_and_maxima, .timeout = 5.)
{
    kvr_engine_state_t s = parse_ok(LOADS_DP2);
    cr_assert_eq(s.running, 40);
    cr_assert_eq(s.waiting, 116);
    cr_assert_eq(s.max_running, 96);
    cr_assert_eq(s.kv_tokens_used, 158000);
    cr_assert_eq(s.kv_tokens_capacity, 320000);
    cr_assert(s.kv_usage == 0.94, "max over ranks");
    cr_assert(s.utilization == 0.97, "max over ranks");
    cr_assert_eq(s.pending_prefill_tokens, 100000, "total - used, summed");
    cr_assert_eq(s.dp_ranks, 2);
    cr_assert(s.flags & KVR_SLOT_CAPS_COMPLETE);
    cr_assert(s.flags & KVR_SLOT_HAS_UTILIZATION);
    cr_assert(s.flags & KVR_SLOT_HAS_PENDING_PREFILL);
}

Test(sglang_loads, one_rank_without_cap_makes_caps_incomplete, .timeout = 5.)
{
    kvr_engine_state_t s = parse_ok(
        "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_running_requests\": 8},"
        "             {\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_running_requests\": 0}]}");
    cr_assert_not(s.flags & KVR_SLOT_CAPS_COMPLETE);
    s = parse_ok(
        "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_running_requests\": 8},"
        "             {\"num_running_reqs\": 1, \"num_waiting_reqs\": 0}]}");
    cr_assert_not(s.flags & KVR_SLOT_CAPS_COMPLETE);
    cr_assert_not(s.flags & KVR_SLOT_HAS_UTILIZATION);
    cr_assert_not(s.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    cr_assert_eq(s.pending_prefill_tokens, 0);
    cr_assert_eq(s.running, 2);
}

Test(sglang_loads, usage_from_tokens_when_no_fraction, .timeout = 5.)
{
    kvr_engine_state_t s = parse_ok(
        "{\"loads\": [{\"num_running_reqs\": 3, \"num_waiting_reqs\": 1, \"num_used_tokens\": 250,"
        " \"max_total_num_tokens\": 1000, \"max_running_requests\": 4.0, \"num_total_tokens\": 200}]}");
    cr_assert(s.kv_usage == 0.25);
    cr_assert_eq(s.max_running, 4, "integral reals are counts");
    cr_assert_eq(s.pending_prefill_tokens, 0, "total below used never goes negative");
    cr_assert(s.flags & KVR_SLOT_HAS_PENDING_PREFILL);
}

Test(sglang_loads, older_get_load_shapes, .timeout = 5.)
{
    kvr_engine_state_t s = parse_ok(
        "[{\"dp_rank\": 0, \"num_reqs\": 10, \"num_waiting_reqs\": 4, \"num_tokens\": 5000},"
        " {\"dp_rank\": 1, \"num_reqs\": 3, \"num_waiting_reqs\": 0, \"num_tokens\": 700}]");
    cr_assert_eq(s.running, 9);
    cr_assert_eq(s.waiting, 4);
    cr_assert_eq(s.kv_tokens_used, 5700);
    cr_assert_eq(s.dp_ranks, 2);
    cr_assert_not(s.flags & KVR_SLOT_CAPS_COMPLETE);
    cr_assert_not(s.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    s = parse_ok("{\"num_reqs\": 2, \"num_waiting_reqs\": 1}");
    cr_assert_eq(s.running, 1);
    cr_assert_eq(s.waiting, 1);
    cr_assert_eq(s.dp_ranks, 1);
    s = parse_ok("{\"dp_rank\": 0, \"num_reqs\": 4, \"num_waiting_reqs\": 2, \"num_tokens\": 10,"
                 " \"num_pending_tokens\": 9000, \"ts_tic\": 1.5}");
    cr_assert(s.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    cr_assert_eq(s.pending_prefill_tokens, 9000);
}

Test(sglang_loads, identity_bits_kept, .timeout = 5.)
{
    kvr_engine_state_t s;
    memset(&s, 0, sizeof(s));
    strcpy(s.engine_id, "http://h:30000");
    s.flags = kvr_slot_with_source(KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY, KVR_SOURCE_LOADS);
    s.sample_seq = 12;
    cr_assert_eq(kvr_sglang_loads_parse(LOADS_DP2, strlen(LOADS_DP2), &s, NULL), 0);
    cr_assert_str_eq(s.engine_id, "http://h:30000");
    cr_assert_eq(s.sample_seq, 12);
    cr_assert(s.flags & KVR_SLOT_HEALTHY);
    cr_assert_eq(kvr_slot_source(s.flags), KVR_SOURCE_LOADS);
}

static const char *const refused[] = {
    "",
    "not json",
    "{\"loads\": [",
    "{}",
    "{\"loads\": []}",
    "{\"loads\": {}}",
    "{\"loads\": [1]}",
    "{\"loads\": [{\"num_waiting_reqs\": 0}]}",
    "{\"loads\": [{\"num_running_reqs\": -1, \"num_waiting_reqs\": 0}]}",
    "{\"loads\": [{\"num_running_reqs\": \"3\", \"num_waiting_reqs\": 0}]}",
    "{\"loads\": [{\"num_running_reqs\": 1.5, \"num_waiting_reqs\": 0}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"num_used_tokens\": -5}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"token_usage\": \"high\"}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"utilization\": -0.1}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_running_reqs\": 2, \"num_waiting_reqs\": 0}]}",
    "[]",
    "[{\"num_reqs\": 1}]",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0}]} trailing",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0}], \"loads\": []}",
    "# HELP vllm:num_requests_running x\nvllm:num_requests_running 1\n",
    /* counts that do not fit 64 bits, or are not numbers a count can be */
    "{\"loads\": [{\"num_running_reqs\": 18446744073709551616, \"num_waiting_reqs\": 0}]}",
    "{\"loads\": [{\"num_running_reqs\": 1e400, \"num_waiting_reqs\": 0}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_total_num_tokens\": 2e19}]}",
    /* sums over ranks that would wrap 64 bits: two ranks of 2^63 running summed to 0 (idle) */
    "{\"loads\": [{\"num_running_reqs\": 9223372036854775808, \"num_waiting_reqs\": 0},"
    "           {\"num_running_reqs\": 9223372036854775808, \"num_waiting_reqs\": 0}]}",
    "{\"loads\": [{\"num_running_reqs\": 0, \"num_waiting_reqs\": 9223372036854775808},"
    "           {\"num_running_reqs\": 0, \"num_waiting_reqs\": 9223372036854775808}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_running_requests\": 9223372036854775808},"
    "           {\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_running_requests\": 9223372036854775808}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_total_num_tokens\": 1.5e19},"
    "           {\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"max_total_num_tokens\": 1.5e19}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"num_used_tokens\": 1e19},"
    "           {\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"num_used_tokens\": 1e19}]}",
    "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"num_used_tokens\": 0, \"num_total_tokens\": 1e19},"
    "           {\"num_running_reqs\": 1, \"num_waiting_reqs\": 0, \"num_used_tokens\": 0, \"num_total_tokens\": 1e19}]}",
    "[{\"num_reqs\": 9223372036854775808, \"num_waiting_reqs\": 0},"
    " {\"num_reqs\": 9223372036854775808, \"num_waiting_reqs\": 0}]",
    "[{\"num_reqs\": 1, \"num_waiting_reqs\": 0, \"num_tokens\": 1e19},"
    " {\"num_reqs\": 1, \"num_waiting_reqs\": 0, \"num_tokens\": 1e19}]",
    "[{\"num_reqs\": 1, \"num_waiting_reqs\": 0, \"num_pending_tokens\": 1e19},"
    " {\"num_reqs\": 1, \"num_waiting_reqs\": 0, \"num_pending_tokens\": 1e19}]",
};
#define REFUSED (sizeof(refused) / sizeof(refused[0]))

ParameterizedTestParameters(sglang_loads, refuses_malformed)
{
    static size_t index[REFUSED];
    for (size_t i = 0; i < REFUSED; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, REFUSED);
}

ParameterizedTest(size_t *i, sglang_loads, refuses_malformed, .timeout = 5.)
{
    kvr_engine_state_t s;
    memset(&s, 0x33, sizeof(s));
    kvr_engine_state_t before = s;
    const char *reason = NULL;
    int rc = kvr_sglang_loads_parse(refused[*i], strlen(refused[*i]), &s, &reason);
    cr_assert_eq(rc, KVR_EPARSE, "case %zu accepted: %s", *i, refused[*i]);
    cr_assert_not_null(reason);
    cr_assert(memcmp(&s, &before, sizeof(s)) == 0, "state untouched on failure");
}

Test(sglang_loads, truncations_never_crash, .timeout = 10.)
{
    size_t len = strlen(LOADS_DP2);
    for (size_t cut = 0; cut < len; cut++) {
        kvr_engine_state_t s;
        memset(&s, 0, sizeof(s));
        int rc = kvr_sglang_loads_parse(LOADS_DP2, cut, &s, NULL);
        cr_assert_eq(rc, KVR_EPARSE, "prefix of %zu bytes accepted", cut);
    }
}

Test(sglang_loads, large_counts_that_fit_are_kept_and_saturate_into_32_bits, .timeout = 5.)
{
    /* 1.5e19 fits 64 bits: kept exactly, not cut to 2^63; running beyond 2^32 reads as full */
    kvr_engine_state_t s = parse_ok(
        "{\"loads\": [{\"num_running_reqs\": 9223372036854775808, \"num_waiting_reqs\": 0,"
        "             \"max_total_num_tokens\": 1.5e19, \"num_used_tokens\": 1e19}]}");
    cr_assert_eq(s.running, UINT32_MAX);
    cr_assert_eq(s.kv_tokens_capacity, 15000000000000000000ull);
    cr_assert_eq(s.kv_tokens_used, 10000000000000000000ull);
}

/* cJSON allocations still outstanding, through hooks that count them. */
static long cjson_live;

static void *counting_malloc(size_t n)
{
    cjson_live++;
    return malloc(n);
}

static void counting_free(void *p)
{
    if (p)
        cjson_live--;
    free(p);
}

Test(sglang_loads, refused_answers_free_the_parsed_tree, .timeout = 5.)
{
    cJSON_Hooks hooks = {counting_malloc, counting_free};
    cJSON_InitHooks(&hooks);
    static const char *const bodies[] = {
        "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0}]} trailing",
        "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0}]}{}",
        "[{\"num_reqs\": 1, \"num_waiting_reqs\": 0}] x",
        "{\"loads\": [{\"num_running_reqs\": -1, \"num_waiting_reqs\": 0}]}",
        "{\"loads\": [",
        LOADS_DP2,
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        kvr_engine_state_t s;
        memset(&s, 0, sizeof(s));
        cjson_live = 0;
        (void)kvr_sglang_loads_parse(bodies[i], strlen(bodies[i]), &s, NULL);
        cr_expect_eq(cjson_live, 0, "body %zu leaves %ld cJSON allocations: %s", i, cjson_live,
                     bodies[i]);
    }
    cJSON_InitHooks(NULL);
}

/* An object of n distinct filler keys plus the two counts, as a loads[] entry. */
static char *wide_rank(size_t n, size_t *len)
{
    size_t cap = n * 16 + 128;
    char *body = malloc(cap);
    cr_assert_not_null(body);
    size_t at = (size_t)snprintf(body, cap,
                                 "{\"loads\": [{\"num_running_reqs\": 1, \"num_waiting_reqs\": 0");
    for (size_t i = 0; i < n; i++)
        at += (size_t)snprintf(body + at, cap - at, ", \"k%zu\": 0", i);
    at += (size_t)snprintf(body + at, cap - at, "}]}");
    *len = at;
    return body;
}

Test(sglang_loads, objects_with_hundreds_of_thousands_of_keys_are_refused, .timeout = 10.)
{
    /* Pairwise duplicate checks made this body cost ~10^10 string compares per poll. */
    size_t len;
    char *body = wide_rank(200000, &len);
    kvr_engine_state_t s;
    memset(&s, 0, sizeof(s));
    const char *reason = NULL;
    cr_expect_eq(kvr_sglang_loads_parse(body, len, &s, &reason), KVR_EPARSE);
    cr_expect(reason && strstr(reason, "512"), "reason: %s", reason ? reason : "(none)");
    free(body);
    /* An entry with a few hundred extra fields is still an answer. */
    body = wide_rank(500, &len);
    cr_expect_eq(kvr_sglang_loads_parse(body, len, &s, &reason), 0, "%s", reason ? reason : "");
    cr_expect_eq(s.running, 1);
    free(body);
}
