/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvroute-bench-feedfmt: what reading engine state costs the feed per
 * sample. Times the Prometheus parser and engine-metrics extraction on a
 * vLLM-sized /metrics page, the SGLang /v1/loads parser, and the push frame
 * encode and decode, then prints per-operation figures and the CPU share of
 * one core they would take at a given fleet size and tick rate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/buf.h"
#include "common/engine_metrics.h"
#include "common/error.h"
#include "common/options.h"
#include "common/prom.h"
#include "common/sglang_loads.h"
#include "common/state_frame.h"

/* A page shaped like vLLM V1's: gauges, counters with _created, and histograms, per engine. */
static void vllm_page(kvr_buf_t *b, int engines)
{
    static const char *hists[] = {"time_to_first_token_seconds",    "inter_token_latency_seconds",
                                  "e2e_request_latency_seconds",    "request_queue_time_seconds",
                                  "request_inference_time_seconds", "request_prefill_time_seconds",
                                  "request_decode_time_seconds",    "request_prompt_tokens",
                                  "request_generation_tokens",      "iteration_tokens_total"};
    static const double le[] = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25, 0.5,
                                0.75,  1.0,   2.5,  5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0};
    const char *model = "model_name=\"meta-llama/Llama-3.1-8B-Instruct\"";
    kvr_buf_printf(b, "# HELP python_gc_objects_collected_total Objects collected during gc\n"
                      "# TYPE python_gc_objects_collected_total counter\n");
    for (int g = 0; g < 3; g++)
        kvr_buf_printf(b, "python_gc_objects_collected_total{generation=\"%d\"} %d.0\n", g,
                       1000 * (g + 1));
    const char *gauges[] = {"num_requests_running", "num_requests_waiting", "kv_cache_usage_perc"};
    for (int i = 0; i < 3; i++) {
        kvr_buf_printf(b, "# HELP vllm:%s A gauge.\n# TYPE vllm:%s gauge\n", gauges[i], gauges[i]);
        for (int e = 0; e < engines; e++)
            kvr_buf_printf(b, "vllm:%s{engine=\"%d\",%s} %g\n", gauges[i], e, model,
                           i == 2 ? 0.42 : 7.0 + e);
    }
    kvr_buf_printf(
        b,
        "# HELP vllm:prompt_tokens_total Prefill tokens.\n# TYPE vllm:prompt_tokens_total counter\n");
    for (int e = 0; e < engines; e++)
        kvr_buf_printf(b,
                       "vllm:prompt_tokens_total{engine=\"%d\",%s} 1.23456789e+08\n"
                       "vllm:prompt_tokens_created{engine=\"%d\",%s} 1.7644e+09\n",
                       e, model, e, model);
    for (size_t h = 0; h < sizeof(hists) / sizeof(hists[0]); h++) {
        kvr_buf_printf(b, "# HELP vllm:%s A histogram.\n# TYPE vllm:%s histogram\n", hists[h],
                       hists[h]);
        for (int e = 0; e < engines; e++) {
            for (size_t i = 0; i < sizeof(le) / sizeof(le[0]); i++)
                kvr_buf_printf(b, "vllm:%s_bucket{engine=\"%d\",le=\"%g\",%s} %zu.0\n", hists[h], e,
                               le[i], model, i * 37);
            kvr_buf_printf(b, "vllm:%s_bucket{engine=\"%d\",le=\"+Inf\",%s} 777.0\n", hists[h], e,
                           model);
            kvr_buf_printf(b, "vllm:%s_count{engine=\"%d\",%s} 777.0\n", hists[h], e, model);
            kvr_buf_printf(b, "vllm:%s_sum{engine=\"%d\",%s} 1234.5678\n", hists[h], e, model);
        }
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
    uint64_t iterations, engines, period_ms;
} feedfmt_args_t;

#define T feedfmt_args_t
static const kvr_opt_t options[] = {
    KVR_OPT_ROW_U64(T, iterations, "iterations", "N", "20000", 1, 1000000000,
                    "repetitions of each operation"),
    KVR_OPT_ROW_U64(T, engines, "engines", "N", "64", 1, 1000000,
                    "fleet size for the CPU-share column"),
    KVR_OPT_ROW_U64(T, period_ms, "period-ms", "N", "50", 1, 3600000,
                    "tick period for the CPU-share column"),
    KVR_OPT_ROW_HELP,
};
#undef T

static void report(const char *op, size_t bytes, double seconds, long iterations, long engines,
                   long period_ms)
{
    double ns = seconds * 1e9 / (double)iterations;
    double per_second = (double)engines * 1000.0 / (double)period_ms;
    printf("op=%s bytes=%zu ns_per_op=%.0f ops_per_s=%.0f cpu_share_at_%ld_engines_%ldms=%.4f%%\n",
           op, bytes, ns, 1e9 / ns, engines, period_ms, ns * per_second / 1e9 * 100.0);
}

int main(int argc, char **argv)
{
    feedfmt_args_t args;
    kvr_opt_set_t set = {
        .opts = options, .n_opts = sizeof options / sizeof options[0], .obj = &args};
    kvr_opt_parser_t parser = {.sets = &set, .n_sets = 1};
    const kvr_opt_program_t program = {
        .name = "kvroute-bench-feedfmt",
        .head = "usage: kvroute-bench-feedfmt [--iterations N] [--engines N] [--period-ms N]\n"
                "\n"
                "Times the feed's format code and prints one line per operation:\n"
                "ns per operation, operations per second on one core, and the share of one\n"
                "core it takes to handle every engine once per tick.\n\n"};
    int parsed = kvr_opt_program_parse(&program, &parser, argc, argv);
    if (parsed != 0)
        return parsed > 0 ? 0 : 2;
    long iterations = (long)args.iterations, engines = (long)args.engines,
         period_ms = (long)args.period_ms;

    /* One engine's page (DP=1) and a DP=4 page. */
    for (int dp = 1; dp <= 4; dp *= 4) {
        kvr_buf_t page = KVR_BUF_INIT;
        vllm_page(&page, dp);
        kvr_engine_state_t state;
        memset(&state, 0, sizeof(state));
        double t0 = now_s();
        for (long i = 0; i < iterations; i++) {
            kvr_prom_error_t err;
            int rc = kvr_engine_metrics_parse(page.base, page.len, &state, NULL, &err);
            if (rc != 0) {
                fprintf(stderr, "kvroute-bench-feedfmt: page rejected at line %zu: %s\n", err.line,
                        err.reason);
                return 1;
            }
        }
        report(dp == 1 ? "vllm_metrics_page_dp1" : "vllm_metrics_page_dp4", page.len, now_s() - t0,
               iterations, engines, period_ms);
        kvr_buf_close(&page);
    }

    kvr_buf_t loads = KVR_BUF_INIT;
    kvr_buf_printf(&loads, "{\"loads\": [");
    for (int r = 0; r < 4; r++)
        kvr_buf_printf(
            &loads,
            "%s{\"dp_rank\": %d, \"num_running_reqs\": 38, \"num_waiting_reqs\": 116,"
            " \"max_running_requests\": 48, \"num_used_tokens\": 150000,"
            " \"max_total_num_tokens\": 160000, \"token_usage\": 0.94, \"utilization\": 0.97,"
            " \"num_total_tokens\": 250000, \"gen_throughput\": 1020.5}",
            r ? ", " : "", r);
    kvr_buf_printf(&loads, "]}");
    double t0 = now_s();
    for (long i = 0; i < iterations; i++) {
        kvr_engine_state_t state;
        if (kvr_sglang_loads_parse(loads.base, loads.len, &state, NULL) != 0) {
            fprintf(stderr, "kvroute-bench-feedfmt: loads body rejected\n");
            return 1;
        }
    }
    report("sglang_loads_dp4", loads.len, now_s() - t0, iterations, engines, period_ms);
    kvr_buf_close(&loads);

    kvr_state_frame_t frame;
    memset(&frame, 0, sizeof(frame));
    snprintf(frame.state.engine_id, sizeof(frame.state.engine_id), "http://10.0.0.5:8000");
    frame.sample_unix_ns = 1764474000123456789ull;
    frame.has_seq = true;
    frame.state.running = 38;
    frame.state.waiting = 116;
    frame.state.max_running = 48;
    frame.state.kv_tokens_used = 150000;
    frame.state.kv_tokens_capacity = 160000;
    frame.state.kv_usage = 0.9375;
    frame.state.pending_prefill_tokens = 100000;
    frame.state.max_prefill_remaining = 65536;
    frame.state.flags = KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_PENDING_PREFILL;
    char wire[KVR_STATE_FRAME_MAX];
    size_t len = 0;
    t0 = now_s();
    for (long i = 0; i < iterations; i++) {
        frame.seq = (uint64_t)i;
        if (kvr_state_frame_encode(&frame, wire, sizeof(wire), &len) != 0)
            return 1;
    }
    report("push_frame_encode", len, now_s() - t0, iterations, engines, period_ms);
    t0 = now_s();
    for (long i = 0; i < iterations; i++) {
        kvr_state_frame_t out;
        if (kvr_state_frame_decode(wire, len, &out, NULL) != 0)
            return 1;
    }
    report("push_frame_decode", len, now_s() - t0, iterations, engines, period_ms);
    return 0;
}
