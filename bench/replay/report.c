/* SPDX-License-Identifier: Apache-2.0 */
/* Records, summary and session chaining of kvroute-replay. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/replay/json.h"
#include "common/json_text.h"
#include "bench/replay/replay.h"

bool kvr_replay_result_ok(const kvr_replay_result_t *res)
{
    return res->finished && res->req.status >= 200 && res->req.status < 300 && !res->req.error[0];
}

/*
 * Records keep the types their readers depend on: integers print as
 * integers at full 64-bit width (cJSON's doubles would round nanosecond
 * clocks and print large values in exponent form), and times in ms print as
 * reals with 9 significant digits and always a '.' or an exponent, so that
 * 12 ms is written 12.0 and reads back as a float.
 */
static void add_int(cJSON *o, const char *key, long long v)
{
    char buf[24];
    snprintf(buf, sizeof(buf), "%lld", v);
    cJSON_AddRawToObject(o, key, buf);
}

static void add_real(cJSON *o, const char *key, double v)
{
    if (!isfinite(v)) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    char buf[40];
    int n = snprintf(buf, sizeof(buf) - 2, "%.9g", v);
    if (n < 0 || (size_t)n >= sizeof(buf) - 2) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    char *e = strchr(buf, 'e');
    if (!e && !strchr(buf, '.'))
        memcpy(buf + n, ".0", 3);
    if (e) {
        /* 1.5e+09 -> 1.5e9, 1.5e-07 -> 1.5e-7 */
        char *digits = e + 1, *from = digits + 1;
        if (*digits == '-')
            digits++;
        while (*from == '0')
            from++;
        if (from != digits)
            memmove(digits, from, strlen(from) + 1);
    }
    cJSON_AddRawToObject(o, key, buf);
}

static void add_ms_or_null(cJSON *o, const char *key, uint64_t from_ns, uint64_t to_ns)
{
    if (!from_ns || !to_ns || to_ns < from_ns)
        cJSON_AddNullToObject(o, key);
    else
        add_real(o, key, (double)(to_ns - from_ns) / 1e6);
}

static void add_count_or_null(cJSON *o, const char *key, long v)
{
    if (v < 0)
        cJSON_AddNullToObject(o, key);
    else
        add_int(o, key, v);
}

/* A string field, NULL as null; a byte that is not UTF-8 becomes U+FFFD so the line stays valid JSON. */
static void add_text(cJSON *o, const char *key, const char *s)
{
    if (!s) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    size_t len = strlen(s), bad = kvr_json_utf8_valid_prefix(s, len);
    if (bad == len) {
        cJSON_AddStringToObject(o, key, s);
        return;
    }
    char *clean = malloc(len * 3 + 1);
    if (!clean)
        return;
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    char *w = clean;
    while (p < end) {
        size_t n = *p < 0x80 ? 1 : kvr_json_utf8_len(p, end);
        if (n) {
            memcpy(w, p, n);
            w += n, p += n;
        } else {
            memcpy(w, "\xEF\xBF\xBD", 3);
            w += 3, p++;
        }
    }
    *w = '\0';
    cJSON_AddStringToObject(o, key, clean);
    free(clean);
}

void kvr_replay_write_record(FILE *out, const kvr_trace_request_t *tr,
                             const kvr_replay_result_t *res, const char *run_id, uint64_t start_ns)
{
    const kvr_replay_req_t *r = &res->req;
    char request_id[128];
    snprintf(request_id, sizeof(request_id), "%s-%zu", run_id, r->index);
    cJSON *rec = cJSON_CreateObject();
    if (!rec)
        return;
    add_int(rec, "index", (long long)r->index);
    add_text(rec, "request_id", request_id);
    add_text(rec, "session", tr->session_id);
    if (tr->turn >= 0)
        add_int(rec, "turn", tr->turn);
    else
        cJSON_AddNullToObject(rec, "turn");
    add_text(rec, "engine", r->engine[0] ? r->engine : NULL);
    add_text(rec, "target", r->url);
    add_real(rec, "scheduled_ms", res->due_rel_ms);
    add_real(rec, "send_ms", res->send_rel_ms);
    add_int(rec, "send_mono_ns", (long long)r->send_ns);
    add_int(rec, "end_mono_ns", (long long)r->end_ns);
    add_ms_or_null(rec, "ttft_ms", r->send_ns, r->first_token_ns);
    add_ms_or_null(rec, "first_byte_ms", r->send_ns, r->first_byte_ns);
    add_ms_or_null(rec, "e2e_ms", r->send_ns, r->end_ns);
    add_int(rec, "input_length", tr->input_length);
    add_int(rec, "output_length", tr->output_length);
    add_count_or_null(rec, "prompt_tokens", r->prompt_tokens);
    add_count_or_null(rec, "cached_tokens", r->cached_tokens);
    add_count_or_null(rec, "output_tokens", r->completion_tokens);
    add_int(rec, "status", r->status);
    cJSON_AddBoolToObject(rec, "ok", kvr_replay_result_ok(res));
    add_text(rec, "error", r->error[0] ? r->error : NULL);
    if (res->has_router)
        add_int(rec, "router", res->router); /* as split_trace.py merge names it */
    if (res->has_retries)
        add_int(rec, "retries_429",
                res->retries_429); /* 429s answered and retried before this end */
    (void)start_ns;
    char *text = cJSON_PrintUnformatted(rec);
    cJSON_Delete(rec);
    if (text) {
        fputs(text, out);
        fputc('\n', out);
        cJSON_free(text);
    }
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

void kvr_replay_print_summary(FILE *out, const kvr_trace_t *trace,
                              const kvr_replay_result_t *results, size_t n_selected)
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
    struct engine_count {
        const char *name;
        size_t count;
    } engines[MAX_ENGINES_SHOWN];
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
                        ? (double)(last_end - first_send) / 1e9
                        : 0;
    fprintf(out, "requests   %zu selected, %zu sent, %zu ok, %zu failed\n", n_selected, sent, ok,
            failed);
    if (first_error)
        fprintf(out, "first error: %s\n", first_error);
    double ttft_mean = mean(ttft, n_ttft), e2e_mean = mean(e2e, n_e2e);
    fprintf(out, "TTFT ms    p50 %.1f  p90 %.1f  p99 %.1f  mean %.1f\n",
            kvr_replay_percentile(ttft, n_ttft, 50), kvr_replay_percentile(ttft, n_ttft, 90),
            kvr_replay_percentile(ttft, n_ttft, 99), ttft_mean);
    fprintf(out, "e2e ms     p50 %.1f  p90 %.1f  p99 %.1f  mean %.1f\n",
            kvr_replay_percentile(e2e, n_e2e, 50), kvr_replay_percentile(e2e, n_e2e, 90),
            kvr_replay_percentile(e2e, n_e2e, 99), e2e_mean);
    fprintf(out, "throughput %.2f req/s, %.1f output tok/s over %.1f s\n",
            wall_s > 0 ? ok / wall_s : 0.0, wall_s > 0 ? (double)output / wall_s : 0.0, wall_s);
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
