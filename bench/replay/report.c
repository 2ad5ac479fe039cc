/* SPDX-License-Identifier: Apache-2.0 */
/* Records, summary and session chaining of kvroute-replay. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/replay/replay.h"

bool kvr_replay_result_ok(const kvr_replay_result_t *res)
{
    return res->finished && res->req.status >= 200 && res->req.status < 300 && !res->req.error[0];
}

static json_t *ms_or_null(uint64_t from_ns, uint64_t to_ns)
{
    if (!from_ns || !to_ns || to_ns < from_ns)
        return json_null();
    return json_real((double)(to_ns - from_ns) / 1e6);
}

static json_t *count_or_null(long v)
{
    return v < 0 ? json_null() : json_integer(v);
}

void kvr_replay_write_record(FILE *out, const kvr_trace_request_t *tr, const kvr_replay_result_t *res,
                             const char *run_id, uint64_t start_ns)
{
    const kvr_replay_req_t *r = &res->req;
    char request_id[128];
    snprintf(request_id, sizeof(request_id), "%s-%zu", run_id, r->index);
    json_t *rec = json_object();
    json_object_set_new(rec, "index", json_integer((json_int_t)r->index));
    json_object_set_new(rec, "request_id", json_string(request_id));
    json_object_set_new(rec, "session", tr->session_id ? json_string(tr->session_id) : json_null());
    json_object_set_new(rec, "turn", tr->turn >= 0 ? json_integer(tr->turn) : json_null());
    json_object_set_new(rec, "engine", r->engine[0] ? json_string(r->engine) : json_null());
    json_object_set_new(rec, "target", json_string(r->url));
    json_object_set_new(rec, "scheduled_ms", json_real(res->due_rel_ms));
    json_object_set_new(rec, "send_ms", json_real(res->send_rel_ms));
    json_object_set_new(rec, "send_mono_ns", json_integer((json_int_t)r->send_ns));
    json_object_set_new(rec, "end_mono_ns", json_integer((json_int_t)r->end_ns));
    json_object_set_new(rec, "ttft_ms", ms_or_null(r->send_ns, r->first_token_ns));
    json_object_set_new(rec, "first_byte_ms", ms_or_null(r->send_ns, r->first_byte_ns));
    json_object_set_new(rec, "e2e_ms", ms_or_null(r->send_ns, r->end_ns));
    json_object_set_new(rec, "input_length", json_integer(tr->input_length));
    json_object_set_new(rec, "output_length", json_integer(tr->output_length));
    json_object_set_new(rec, "prompt_tokens", count_or_null(r->prompt_tokens));
    json_object_set_new(rec, "cached_tokens", count_or_null(r->cached_tokens));
    json_object_set_new(rec, "output_tokens", count_or_null(r->completion_tokens));
    json_object_set_new(rec, "status", json_integer(r->status));
    json_object_set_new(rec, "ok", json_boolean(kvr_replay_result_ok(res)));
    json_object_set_new(rec, "error", r->error[0] ? json_string(r->error) : json_null());
    (void)start_ns;
    json_dumpf(rec, out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    fputc('\n', out);
    json_decref(rec);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double kvr_replay_percentile(double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof(*v), cmp_double);
    double rank = p / 100.0 * (double)(n - 1);
    size_t lo = (size_t)floor(rank), hi = (size_t)ceil(rank);
    return v[lo] + (v[hi] - v[lo]) * (rank - (double)lo);
}

static double mean(const double *v, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    return n ? sum / (double)n : NAN;
}

#define MAX_ENGINES_SHOWN 64

void kvr_replay_print_summary(FILE *out, const kvr_trace_t *trace, const kvr_replay_result_t *results,
                              size_t n_selected)
{
    size_t n = trace->len, sent = 0, ok = 0, failed = 0;
    double *ttft = malloc((n ? n : 1) * sizeof(double));
    double *e2e = malloc((n ? n : 1) * sizeof(double));
    if (!ttft || !e2e) {
        free(ttft);
        free(e2e);
        return;
    }
    size_t n_ttft = 0, n_e2e = 0;
    uint64_t first_send = UINT64_MAX, last_end = 0;
    long long prompt = 0, cached = 0, output = 0;
    struct engine_count { const char *name; size_t count; } engines[MAX_ENGINES_SHOWN];
    size_t n_engines = 0, other_engines = 0;
    const char *first_error = NULL;

    for (size_t i = 0; i < n; i++) {
        const kvr_replay_result_t *res = &results[i];
        if (!res->sent)
            continue;
        sent++;
        const kvr_replay_req_t *r = &res->req;
        if (!kvr_replay_result_ok(res)) {
            failed++;
            if (!first_error)
                first_error = r->error;
            continue;
        }
        ok++;
        if (r->send_ns < first_send)
            first_send = r->send_ns;
        if (r->end_ns > last_end)
            last_end = r->end_ns;
        if (r->first_token_ns)
            ttft[n_ttft++] = (double)(r->first_token_ns - r->send_ns) / 1e6;
        e2e[n_e2e++] = (double)(r->end_ns - r->send_ns) / 1e6;
        if (r->prompt_tokens > 0) {
            prompt += r->prompt_tokens;
            cached += r->cached_tokens > 0 ? r->cached_tokens : 0;
        }
        output += r->completion_tokens > 0 ? r->completion_tokens : 0;
        const char *name = r->engine[0] ? r->engine : "(no engine header)";
        size_t k = 0;
        while (k < n_engines && strcmp(engines[k].name, name) != 0)
            k++;
        if (k < n_engines)
            engines[k].count++;
        else if (n_engines < MAX_ENGINES_SHOWN)
            engines[n_engines++] = (struct engine_count){name, 1};
        else
            other_engines++;
    }
    double wall_s = last_end > first_send && first_send != UINT64_MAX
                        ? (double)(last_end - first_send) / 1e9 : 0;
    fprintf(out, "requests   %zu selected, %zu sent, %zu ok, %zu failed\n", n_selected, sent, ok, failed);
    if (first_error)
        fprintf(out, "first error: %s\n", first_error);
    double ttft_mean = mean(ttft, n_ttft), e2e_mean = mean(e2e, n_e2e);
    fprintf(out, "TTFT ms    p50 %.1f  p90 %.1f  p99 %.1f  mean %.1f\n",
            kvr_replay_percentile(ttft, n_ttft, 50), kvr_replay_percentile(ttft, n_ttft, 90),
            kvr_replay_percentile(ttft, n_ttft, 99), ttft_mean);
    fprintf(out, "e2e ms     p50 %.1f  p90 %.1f  p99 %.1f  mean %.1f\n",
            kvr_replay_percentile(e2e, n_e2e, 50), kvr_replay_percentile(e2e, n_e2e, 90),
            kvr_replay_percentile(e2e, n_e2e, 99), e2e_mean);
    fprintf(out, "throughput %.2f req/s, %.1f output tok/s over %.1f s\n", wall_s > 0 ? ok / wall_s : 0.0,
            wall_s > 0 ? (double)output / wall_s : 0.0, wall_s);
    fprintf(out, "cache hit  %.1f%% (%lld of %lld prompt tokens cached)\n",
            prompt ? 100.0 * (double)cached / (double)prompt : 0.0, cached, prompt);
    fprintf(out, "engines   ");
    for (size_t k = 0; k < n_engines; k++)
        fprintf(out, " %s=%zu", engines[k].name, engines[k].count);
    if (other_engines)
        fprintf(out, " (+%zu requests on more engines)", other_engines);
    fputc('\n', out);
    free(ttft);
    free(e2e);
}

static const kvr_trace_t *link_trace; /* qsort has no context argument in C11 */

static int cmp_session_order(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const kvr_trace_request_t *x = &link_trace->requests[i], *y = &link_trace->requests[j];
    int c = strcmp(x->session_id, y->session_id);
    if (c)
        return c;
    if (x->turn != y->turn)
        return x->turn < y->turn ? -1 : 1;
    if (x->timestamp_ms != y->timestamp_ms)
        return x->timestamp_ms < y->timestamp_ms ? -1 : 1;
    return i < j ? -1 : i > j;
}

size_t *kvr_replay_link_sessions(const kvr_trace_t *trace, size_t n, size_t *next, int *rc)
{
    size_t *prev = malloc((n ? n : 1) * sizeof(size_t));
    size_t *order = malloc((n ? n : 1) * sizeof(size_t));
    if (!prev || !order) {
        free(prev);
        free(order);
        *rc = -ENOMEM;
        return NULL;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        prev[i] = next[i] = SIZE_MAX;
        if (trace->requests[i].session_id)
            order[m++] = i;
    }
    link_trace = trace;
    qsort(order, m, sizeof(size_t), cmp_session_order);
    for (size_t k = 1; k < m; k++) {
        size_t a = order[k - 1], b = order[k];
        if (strcmp(trace->requests[a].session_id, trace->requests[b].session_id) == 0) {
            next[a] = b;
            prev[b] = a;
        }
    }
    free(order);
    *rc = 0;
    return prev;
}
