/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Engine state from vLLM and SGLang /metrics pages: counts summed over
 * engines / DP ranks, usage as the max, caps never complete, and pages that
 * are not engine pages (or carry broken gauges) refused rather than read as
 * an idle engine.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/engine_metrics.h"
#include "common/error.h"
#include "tests/common/engine_pages.h"

static kvr_engine_state_t parse_ok(const char *page, kvr_engine_kind_t *kind)
{
    kvr_engine_state_t s;
    memset(&s, 0, sizeof(s));
    kvr_prom_error_t err;
    int rc = kvr_engine_metrics_parse(page, strlen(page), &s, kind, &err);
    cr_assert_eq(rc, 0, "rc %d line %zu: %s", rc, err.line, err.reason ? err.reason : "?");
    return s;
}

Test(engine_metrics, vllm_dp2_sums_engines, .timeout = 5.)
{
    kvr_engine_kind_t kind;
    kvr_engine_state_t s = parse_ok(VLLM_PAGE_DP2, &kind);
    cr_assert_eq(kind, KVR_ENGINE_KIND_VLLM);
    cr_assert_str_eq(kvr_engine_kind_name(kind), "vllm");
    cr_assert_eq(s.running, 12);
    cr_assert_eq(s.waiting, 3);
    cr_assert(fabs(s.kv_usage - 0.61) < 1e-12, "max over engines, got %g", s.kv_usage);
    cr_assert_eq(s.dp_ranks, 2);
    cr_assert_eq(s.kv_tokens_capacity, 32000, "2 engines x 1000 blocks x 16 tokens");
    cr_assert_eq(s.kv_tokens_used, 19520, "usage x capacity");
    cr_assert_eq(s.max_running, 0);
    cr_assert_eq(s.flags & (KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_UTILIZATION |
                            KVR_SLOT_HAS_PENDING_PREFILL),
                 0);
}

Test(engine_metrics, vllm_old_gauge_name, .timeout = 5.)
{
    kvr_engine_kind_t kind;
    kvr_engine_state_t s = parse_ok(VLLM_PAGE_OLD, &kind);
    cr_assert_eq(kind, KVR_ENGINE_KIND_VLLM);
    cr_assert_eq(s.running, 4);
    cr_assert_eq(s.waiting, 9);
    cr_assert(s.kv_usage == 0.875);
    cr_assert_eq(s.dp_ranks, 1);
    cr_assert_eq(s.kv_tokens_capacity, 0);
}

Test(engine_metrics, sglang_colon_prefix_two_ranks, .timeout = 5.)
{
    kvr_engine_kind_t kind;
    kvr_engine_state_t s = parse_ok(SGLANG_PAGE_COLON, &kind);
    cr_assert_eq(kind, KVR_ENGINE_KIND_SGLANG);
    cr_assert_eq(s.running, 16);
    cr_assert_eq(s.waiting, 3);
    cr_assert(s.kv_usage == 0.3);
    cr_assert(s.utilization == 0.55);
    cr_assert(s.flags & KVR_SLOT_HAS_UTILIZATION);
    cr_assert_not(s.flags & KVR_SLOT_CAPS_COMPLETE, "Prometheus never completes caps");
    cr_assert_eq(s.kv_tokens_used, 40000);
    cr_assert_eq(s.kv_tokens_capacity, 200000);
    cr_assert_eq(s.dp_ranks, 2);
}

Test(engine_metrics, sglang_underscore_prefix, .timeout = 5.)
{
    kvr_engine_kind_t kind;
    kvr_engine_state_t s = parse_ok(SGLANG_PAGE_UNDERSCORE, &kind);
    cr_assert_eq(kind, KVR_ENGINE_KIND_SGLANG);
    cr_assert_eq(s.running, 3);
    cr_assert_eq(s.waiting, 12);
    cr_assert(s.kv_usage == 0.93);
    cr_assert_not(s.flags & KVR_SLOT_HAS_UTILIZATION);
    cr_assert_eq(s.utilization, 0);
}

Test(engine_metrics, identity_and_health_bits_are_kept, .timeout = 5.)
{
    kvr_engine_state_t s;
    memset(&s, 0, sizeof(s));
    strcpy(s.engine_id, "http://127.0.0.1:8000");
    s.sample_time_ns = 77;
    s.sample_seq = 9;
    s.consecutive_failures = 2;
    s.flags = KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY | KVR_SLOT_CAPS_COMPLETE |
              KVR_SLOT_HAS_PENDING_PREFILL;
    s.flags = kvr_slot_with_source(s.flags, KVR_SOURCE_SCRAPE);
    s.max_running = 99;
    s.pending_prefill_tokens = 5;
    cr_assert_eq(kvr_engine_metrics_parse(VLLM_PAGE_OLD, strlen(VLLM_PAGE_OLD), &s, NULL, NULL), 0);
    cr_assert_str_eq(s.engine_id, "http://127.0.0.1:8000");
    cr_assert_eq(s.sample_time_ns, 77);
    cr_assert_eq(s.sample_seq, 9);
    cr_assert_eq(s.consecutive_failures, 2);
    cr_assert_eq(s.flags & (KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY),
                 KVR_SLOT_IN_USE | KVR_SLOT_HEALTHY);
    cr_assert_eq(kvr_slot_source(s.flags), KVR_SOURCE_SCRAPE);
    cr_assert_not(s.flags & KVR_SLOT_CAPS_COMPLETE);
    cr_assert_not(s.flags & KVR_SLOT_HAS_PENDING_PREFILL);
    cr_assert_eq(s.max_running, 0);
    cr_assert_eq(s.pending_prefill_tokens, 0);
}

struct refused_case {
    const char *page;
    int rc;
};

static const struct refused_case refused_cases[] = {
    {"", -ENODATA},
    {"# HELP process_cpu_seconds_total CPU\nprocess_cpu_seconds_total 1.5\n", -ENODATA},
    {"vllm:kv_cache_usage_perc 0.5\n", -ENODATA}, /* usage alone is not a load */
    {"vllm:num_requests_running -1\n", KVR_EPARSE},
    {"vllm:num_requests_running NaN\n", KVR_EPARSE},
    {"sglang:num_queue_reqs +Inf\n", KVR_EPARSE},
    {"vllm:num_requests_running 1\nvllm:num_requests_waiting oops\n", KVR_EPARSE},
    {"<html>502 Bad Gateway</html>\n", KVR_EPARSE},
    {"{\"loads\":[{\"num_running_reqs\":1}]}", KVR_EPARSE},
    /* a series given twice would be summed into twice the load */
    {"vllm:num_requests_running 3\nvllm:num_requests_running 3\n", KVR_EPARSE},
    {"vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3\n"
     "vllm:num_requests_running{model_name=\"m\",engine=\"0\"} 3\n",
     KVR_EPARSE},
    {"sglang:num_queue_reqs{dp_rank=\"1\"} 0\nsglang:num_running_reqs{dp_rank=\"1\"} 1\n"
     "sglang:num_queue_reqs{dp_rank=\"1\"} 0\n",
     KVR_EPARSE},
    {"sglang:num_running_reqs 1\nsglang:max_total_num_tokens 5\nsglang:max_total_num_tokens 5\n",
     KVR_EPARSE},
    /* token figures that do not fit 64 bits: refused, not saturated (an idle-looking capacity) */
    {"sglang:num_running_reqs 1\nsglang:max_total_num_tokens 2e19\n", KVR_EPARSE},
    {"sglang:num_running_reqs 1\nsglang:max_total_num_tokens{dp_rank=\"0\"} 1e19\n"
     "sglang:max_total_num_tokens{dp_rank=\"1\"} 1e19\n",
     KVR_EPARSE},
    {"sglang:num_running_reqs 1\nsglang:num_used_tokens 1e300\n", KVR_EPARSE},
    {"vllm:num_requests_running 1\n"
     "vllm:cache_config_info{block_size=\"4294967296\",num_gpu_blocks=\"4294967296\"} 1\n",
     KVR_EPARSE},
};
#define REFUSED_CASES (sizeof(refused_cases) / sizeof(refused_cases[0]))

ParameterizedTestParameters(engine_metrics, refuses_non_engine_pages)
{
    static size_t index[REFUSED_CASES];
    for (size_t i = 0; i < REFUSED_CASES; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, REFUSED_CASES);
}

ParameterizedTest(size_t *i, engine_metrics, refuses_non_engine_pages, .timeout = 5.)
{
    const struct refused_case *tc = &refused_cases[*i];
    kvr_engine_state_t s;
    memset(&s, 0x5a, sizeof(s));
    kvr_engine_state_t before = s;
    kvr_prom_error_t err = {0, NULL};
    int rc = kvr_engine_metrics_parse(tc->page, strlen(tc->page), &s, NULL, &err);
    cr_assert_eq(rc, tc->rc, "case %zu: rc %d want %d", *i, rc, tc->rc);
    cr_assert_not_null(err.reason, "a refusal says why");
    cr_assert(memcmp(&s, &before, sizeof(s)) == 0, "state untouched on failure");
}

Test(engine_metrics, accumulator_works_sample_by_sample, .timeout = 5.)
{
    /* The router feeds samples it already parsed; the accumulator must agree with parse(). */
    kvr_engine_metrics_t m;
    kvr_engine_metrics_init(&m);
    cr_assert_eq(kvr_prom_parse(SGLANG_PAGE_COLON, strlen(SGLANG_PAGE_COLON),
                                kvr_engine_metrics_sample, &m, NULL),
                 0);
    kvr_engine_state_t a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    cr_assert_eq(kvr_engine_metrics_finish(&m, &a, NULL), 0);
    cr_assert_eq(
        kvr_engine_metrics_parse(SGLANG_PAGE_COLON, strlen(SGLANG_PAGE_COLON), &b, NULL, NULL), 0);
    cr_assert(memcmp(&a, &b, sizeof(a)) == 0);
}

Test(engine_metrics, usage_over_one_is_clamped, .timeout = 5.)
{
    static const char page[] = "vllm:num_requests_running 1\nvllm:kv_cache_usage_perc 1.02\n";
    kvr_engine_state_t s = parse_ok(page, NULL);
    cr_assert(s.kv_usage == 1.0);
    cr_assert_eq(s.waiting, 0);
}

Test(engine_metrics, malformed_histogram_line_does_not_hide_gauges, .timeout = 5.)
{
    static const char page[] = "vllm:num_requests_running{engine=\"0\"} 2\n"
                               "vllm:e2e_request_latency_seconds_bucket{le=\"0.5\" 3\n"
                               "vllm:num_requests_waiting{engine=\"0\"} 1\n";
    kvr_engine_state_t s = parse_ok(page, NULL);
    cr_assert_eq(s.running, 2);
    cr_assert_eq(s.waiting, 1);
}

Test(engine_metrics, token_figures_beyond_2_63_are_exact, .timeout = 5.)
{
    /* llround() overflows long long from 2^63 on: 1.5e19 came out as 2^63 */
    kvr_engine_state_t s = parse_ok("sglang:num_running_reqs 1\n"
                                    "sglang:max_total_num_tokens 1.5e19\n"
                                    "sglang:num_used_tokens 1e19\n",
                                    NULL);
    cr_assert_eq(s.kv_tokens_capacity, 15000000000000000000ull);
    cr_assert_eq(s.kv_tokens_used, 10000000000000000000ull);
    cr_assert(fabs(s.kv_usage - 1e19 / 1.5e19) < 1e-12, "usage %f", s.kv_usage);
}

Test(engine_metrics, request_counts_beyond_32_bits_read_as_full, .timeout = 5.)
{
    kvr_engine_state_t s = parse_ok("vllm:num_requests_running{engine=\"0\"} 1e19\n"
                                    "vllm:num_requests_running{engine=\"1\"} 1e19\n"
                                    "vllm:num_requests_waiting 4294967296\n",
                                    NULL);
    cr_assert_eq(s.running, UINT32_MAX);
    cr_assert_eq(s.waiting, UINT32_MAX);
}

Test(engine_metrics, distinct_series_of_one_gauge_are_summed, .timeout = 5.)
{
    /* Same name, a label value apart: two ranks, not a repeat. */
    kvr_engine_state_t s = parse_ok("vllm:num_requests_running{engine=\"0\",model_name=\"m\"} 3\n"
                                    "vllm:num_requests_running{engine=\"1\",model_name=\"m\"} 3\n"
                                    "vllm:num_requests_running{engine=\"0\",model_name=\"n\"} 1\n"
                                    "vllm:num_requests_running{engine=\"0\"} 1\n",
                                    NULL);
    cr_assert_eq(s.running, 8);
}

Test(engine_metrics, repeated_series_is_named_in_the_error, .timeout = 5.)
{
    static const char page[] = "vllm:num_requests_running{engine=\"0\"} 3\n"
                               "vllm:num_requests_waiting{engine=\"0\"} 0\n"
                               "vllm:num_requests_running{engine=\"0\"} 3\n";
    kvr_engine_state_t s;
    memset(&s, 0, sizeof(s));
    kvr_prom_error_t err;
    cr_assert_eq(kvr_engine_metrics_parse(page, strlen(page), &s, NULL, &err), KVR_EPARSE);
    cr_assert_eq(err.line, 3);
    cr_assert(err.reason && strstr(err.reason, "twice"), "reason: %s",
              err.reason ? err.reason : "(none)");
}

Test(engine_metrics, cache_config_labels_out_of_range_are_ignored, .timeout = 5.)
{
    /* strtoull's ERANGE answer (2^64-1) was taken as a block count */
    kvr_engine_state_t s = parse_ok("vllm:num_requests_running 1\n"
                                    "vllm:cache_config_info{block_size=\"16\","
                                    "num_gpu_blocks=\"99999999999999999999\"} 1\n",
                                    NULL);
    cr_assert_eq(s.kv_tokens_capacity, 0);
    s = parse_ok("vllm:num_requests_running 1\n"
                 "vllm:cache_config_info{block_size=\"16\",num_gpu_blocks=\" 10\"} 1\n",
                 NULL);
    cr_assert_eq(s.kv_tokens_capacity, 0);
    s = parse_ok("vllm:num_requests_running 1\n"
                 "vllm:cache_config_info{block_size=\"16\",num_gpu_blocks=\"10\"} 1\n",
                 NULL);
    cr_assert_eq(s.kv_tokens_capacity, 160);
}

Test(engine_metrics, too_many_series_are_refused, .timeout = 10.)
{
    size_t cap = (KVR_ENGINE_METRICS_MAX_SERIES + 2) * 48;
    char *page = malloc(cap);
    cr_assert_not_null(page);
    size_t len = 0;
    for (int i = 0; i <= KVR_ENGINE_METRICS_MAX_SERIES; i++)
        len += (size_t)snprintf(page + len, cap - len,
                                "vllm:num_requests_running{engine=\"%d\"} 1\n", i);
    kvr_engine_state_t s;
    memset(&s, 0, sizeof(s));
    kvr_prom_error_t err;
    cr_expect_eq(kvr_engine_metrics_parse(page, len, &s, NULL, &err), KVR_EPARSE);
    cr_expect_eq(err.line, KVR_ENGINE_METRICS_MAX_SERIES + 1);
    /* One fewer is a page like any other. */
    len = (size_t)(strrchr(page, 'v') - page);
    cr_expect_eq(kvr_engine_metrics_parse(page, len, &s, NULL, &err), 0, "%s",
                 err.reason ? err.reason : "");
    cr_expect_eq(s.running, KVR_ENGINE_METRICS_MAX_SERIES);
    free(page);
}
