/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Telemetry in the engines' own formats: vLLM's /metrics (prometheus_client
 * text, labels model_name and engine), SGLang's /metrics (sglang: prefix),
 * SGLang's /v1/loads (one loads[] entry per DP rank) and /get_load. Slow and
 * garbage telemetry faults are applied here.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/sim.h"
#include "common/buf.h"
#include "common/clock.h"
#include "common/prom_writer.h"
#include "common/xmalloc.h"

/* vLLM's time_to_first_token_seconds buckets, used for both histograms. */
static const double buckets[KVR_SIM_TTFT_BUCKETS] = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1,  0.25,  0.5,   0.75,
    1.0,   2.5,   5.0,  7.5,  10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0,
};

void kvr_sim_rank_observe(kvr_sim_rank_t *rank, double ttft_s, double e2e_s)
{
    kvr_prom_histogram_observe(rank->ttft_buckets, buckets, KVR_SIM_TTFT_BUCKETS, ttft_s);
    rank->ttft_sum += ttft_s;
    rank->ttft_count++;
    kvr_prom_histogram_observe(rank->e2e_buckets, buckets, KVR_SIM_TTFT_BUCKETS, e2e_s);
    rank->e2e_sum += e2e_s;
}

/* Generation throughput and busy fraction since the previous look (at least 0.5 s apart). */
static void rank_rates(kvr_sim_rank_t *rank)
{
    uint64_t now = kvr_clock_now_ns();
    const kvr_sim_model_t *m = &rank->model;
    if (rank->rate_last_ns == 0) {
        rank->rate_last_ns = now;
        rank->rate_last_tokens = m->generation_tokens_total;
        rank->rate_last_busy_ns = m->busy_ns;
        return;
    }
    uint64_t dt = now - rank->rate_last_ns;
    if (dt < KVR_NS_PER_SEC / 2)
        return;
    double secs = (double)dt / 1e9;
    rank->gen_throughput = (double)(m->generation_tokens_total - rank->rate_last_tokens) / secs;
    /* busy_ns is simulated time; scale back to real time to compare with dt. */
    double busy = (double)(m->busy_ns - rank->rate_last_busy_ns) /
                  rank->engine->fleet->cfg.time_scale;
    rank->utilization = busy / (double)dt;
    if (rank->utilization > 1.0)
        rank->utilization = 1.0;
    rank->rate_last_ns = now;
    rank->rate_last_tokens = m->generation_tokens_total;
    rank->rate_last_busy_ns = m->busy_ns;
}

static double kv_usage(const kvr_sim_model_t *m)
{
    uint64_t cap = kvr_sim_model_kv_capacity_tokens(m);
    return cap ? (double)kvr_sim_model_kv_used_tokens(m) / (double)cap : 0.0;
}

static double hit_rate(const kvr_sim_model_t *m)
{
    return m->prefix_queries_tokens
               ? (double)m->prefix_hits_tokens / (double)m->prefix_queries_tokens
               : 0.0;
}

/* ---- Prometheus text, as prometheus_client writes it ---- */

typedef double (*rank_value_fn)(kvr_sim_rank_t *rank);

/* The labels every series of a rank carries, in the engine's order. */
typedef struct {
    kvr_prom_label_t l[5];
    size_t n;
    char rank[16];
} rank_labels_t;

static void family(kvr_prom_writer_t *w, kvr_sim_engine_t *e, const char *name,
                   kvr_prom_type_t type, const char *help, rank_value_fn value,
                   const rank_labels_t *labels)
{
    kvr_prom_family(w, name, type, help);
    for (int r = 0; r < e->dp; r++)
        kvr_prom_sample(w, name, labels[r].l, labels[r].n, value(&e->ranks[r]));
}

static void histogram(kvr_prom_writer_t *w, kvr_sim_engine_t *e, const char *name, const char *help,
                      bool e2e, const rank_labels_t *labels)
{
    kvr_prom_family(w, name, KVR_PROM_HISTOGRAM, help);
    for (int r = 0; r < e->dp; r++) {
        kvr_sim_rank_t *rank = &e->ranks[r];
        kvr_prom_histogram(w, name, labels[r].l, labels[r].n, buckets, KVR_SIM_TTFT_BUCKETS,
                           e2e ? rank->e2e_buckets : rank->ttft_buckets,
                           e2e ? rank->e2e_sum : rank->ttft_sum);
    }
}

static const char *model_name(const kvr_sim_engine_t *e)
{
    return e->fleet->cfg.model_name ? e->fleet->cfg.model_name : "sim";
}

static double v_running(kvr_sim_rank_t *r)
{
    return r->model.running.count;
}
static double v_waiting(kvr_sim_rank_t *r)
{
    return r->model.waiting.count;
}
static double v_kv_usage(kvr_sim_rank_t *r)
{
    return kv_usage(&r->model);
}
static double v_queries(kvr_sim_rank_t *r)
{
    return (double)r->model.prefix_queries_tokens;
}
static double v_hits(kvr_sim_rank_t *r)
{
    return (double)r->model.prefix_hits_tokens;
}
static double v_preempt(kvr_sim_rank_t *r)
{
    return (double)r->model.preemptions;
}
static double v_prompt(kvr_sim_rank_t *r)
{
    return (double)r->model.prompt_tokens_total;
}
static double v_gen(kvr_sim_rank_t *r)
{
    return (double)r->model.generation_tokens_total;
}
static double v_finished(kvr_sim_rank_t *r)
{
    return (double)r->model.requests_finished;
}
static double v_used(kvr_sim_rank_t *r)
{
    return (double)kvr_sim_model_kv_used_tokens(&r->model);
}
static double v_capacity(kvr_sim_rank_t *r)
{
    return (double)kvr_sim_model_kv_capacity_tokens(&r->model);
}
static double v_max_running(kvr_sim_rank_t *r)
{
    return r->model.params.max_running;
}
static double v_throughput(kvr_sim_rank_t *r)
{
    return r->gen_throughput;
}
static double v_hit_rate(kvr_sim_rank_t *r)
{
    return hit_rate(&r->model);
}
static double v_utilization(kvr_sim_rank_t *r)
{
    return r->utilization;
}

static char *render_vllm(kvr_sim_engine_t *e, size_t *len)
{
    rank_labels_t *labels = kvr_xcalloc((size_t)e->dp, sizeof *labels);
    for (int r = 0; r < e->dp; r++) {
        snprintf(labels[r].rank, sizeof labels[r].rank, "%d", r);
        labels[r].l[0] = (kvr_prom_label_t){"model_name", model_name(e)};
        labels[r].l[1] = (kvr_prom_label_t){"engine", labels[r].rank};
        labels[r].n = 2;
    }
    kvr_buf_t out = KVR_BUF_INIT;
    kvr_prom_writer_t pw, *w = &pw;
    kvr_prom_writer_init(w, &out, KVR_PROM_STYLE_PYTHON);
    family(w, e, "vllm:num_requests_running", KVR_PROM_GAUGE,
           "Number of requests in model execution batches.", v_running, labels);
    family(w, e, "vllm:num_requests_waiting", KVR_PROM_GAUGE,
           "Number of requests waiting to be processed.", v_waiting, labels);
    family(w, e,
           e->fleet->cfg.vllm_v0_metrics ? "vllm:gpu_cache_usage_perc" : "vllm:kv_cache_usage_perc",
           KVR_PROM_GAUGE, "KV-cache usage. 1 means 100 percent usage.", v_kv_usage, labels);
    family(w, e, "vllm:prefix_cache_queries_total", KVR_PROM_COUNTER,
           "Prefix cache queries, in terms of number of queried tokens.", v_queries, labels);
    family(w, e, "vllm:prefix_cache_hits_total", KVR_PROM_COUNTER,
           "Prefix cache hits, in terms of number of cached tokens.", v_hits, labels);
    family(w, e, "vllm:num_preemptions_total", KVR_PROM_COUNTER,
           "Cumulative number of preemption from the engine.", v_preempt, labels);
    family(w, e, "vllm:prompt_tokens_total", KVR_PROM_COUNTER,
           "Number of prefill tokens processed.", v_prompt, labels);
    family(w, e, "vllm:generation_tokens_total", KVR_PROM_COUNTER,
           "Number of generation tokens processed.", v_gen, labels);
    kvr_prom_family(w, "vllm:request_success_total", KVR_PROM_COUNTER,
                    "Count of successfully processed requests.");
    for (int r = 0; r < e->dp; r++) {
        kvr_prom_label_t l[] = {labels[r].l[0], labels[r].l[1], {"finished_reason", "length"}};
        kvr_prom_sample_u64(w, "vllm:request_success_total", l, 3,
                            e->ranks[r].model.requests_finished);
    }
    histogram(w, e, "vllm:time_to_first_token_seconds",
              "Histogram of time to first token in seconds.", false, labels);
    histogram(w, e, "vllm:e2e_request_latency_seconds",
              "Histogram of e2e request latency in seconds.", true, labels);
    kvr_prom_family(w, "vllm:cache_config_info", KVR_PROM_GAUGE,
                    "Information of the LLMEngine CacheConfig");
    for (int r = 0; r < e->dp; r++) {
        char block_size[16], blocks[24];
        snprintf(block_size, sizeof block_size, "%u", KVR_SIM_BLOCK_TOKENS);
        snprintf(blocks, sizeof blocks, "%zu", e->ranks[r].model.cache.capacity_blocks);
        kvr_prom_label_t l[] = {{"block_size", block_size},
                                {"enable_prefix_caching", "True"},
                                {"engine", labels[r].rank},
                                {"num_gpu_blocks", blocks}};
        kvr_prom_sample(w, "vllm:cache_config_info", l, 4, 1);
    }
    free(labels);
    if (e->server) /* the engine's own HTTP server: refusals and paused connections */
        kvr_http_server_write_metrics(e->server, w, "kvroute_sim");
    return kvr_buf_release(&out, len);
}

static char *render_sglang(kvr_sim_engine_t *e, size_t *len)
{
    rank_labels_t *labels = kvr_xcalloc((size_t)e->dp, sizeof *labels);
    for (int r = 0; r < e->dp; r++) {
        snprintf(labels[r].rank, sizeof labels[r].rank, "%d", r);
        labels[r].l[0] = (kvr_prom_label_t){"model_name", model_name(e)};
        labels[r].l[1] = (kvr_prom_label_t){"engine_type", "unified"};
        labels[r].l[2] = (kvr_prom_label_t){"tp_rank", "0"};
        labels[r].l[3] = (kvr_prom_label_t){"pp_rank", "0"};
        labels[r].l[4] = (kvr_prom_label_t){"dp_rank", labels[r].rank};
        labels[r].n = 5;
    }
    kvr_buf_t out = KVR_BUF_INIT;
    kvr_prom_writer_t pw, *w = &pw;
    kvr_prom_writer_init(w, &out, KVR_PROM_STYLE_PYTHON);
    family(w, e, "sglang:num_running_reqs", KVR_PROM_GAUGE, "The number of running requests.",
           v_running, labels);
    family(w, e, "sglang:num_queue_reqs", KVR_PROM_GAUGE,
           "The number of requests in the waiting queue.", v_waiting, labels);
    family(w, e, "sglang:num_used_tokens", KVR_PROM_GAUGE, "The number of used tokens.", v_used,
           labels);
    family(w, e, "sglang:max_total_num_tokens", KVR_PROM_GAUGE,
           "Maximum total number of tokens in the KV cache pool.", v_capacity, labels);
    family(w, e, "sglang:max_running_requests", KVR_PROM_GAUGE,
           "Maximum number of running requests.", v_max_running, labels);
    family(w, e, "sglang:token_usage", KVR_PROM_GAUGE, "The token usage.", v_kv_usage, labels);
    family(w, e, "sglang:gen_throughput", KVR_PROM_GAUGE, "The generation throughput (token/s).",
           v_throughput, labels);
    family(w, e, "sglang:cache_hit_rate", KVR_PROM_GAUGE, "The prefix cache hit rate.", v_hit_rate,
           labels);
    family(w, e, "sglang:utilization", KVR_PROM_GAUGE, "The utilization.", v_utilization, labels);
    family(w, e, "sglang:prompt_tokens_total", KVR_PROM_COUNTER,
           "Number of prefill tokens processed.", v_prompt, labels);
    family(w, e, "sglang:generation_tokens_total", KVR_PROM_COUNTER,
           "Number of generation tokens processed.", v_gen, labels);
    family(w, e, "sglang:cached_tokens_total", KVR_PROM_COUNTER, "Number of cached prompt tokens.",
           v_hits, labels);
    family(w, e, "sglang:num_requests_total", KVR_PROM_COUNTER, "Number of requests processed.",
           v_finished, labels);
    family(w, e, "sglang:num_retracted_reqs_total", KVR_PROM_COUNTER,
           "Number of retracted (preempted) requests.", v_preempt, labels);
    histogram(w, e, "sglang:time_to_first_token_seconds",
              "Histogram of time to first token in seconds.", false, labels);
    histogram(w, e, "sglang:e2e_request_latency_seconds",
              "Histogram of End-to-end request latency in seconds", true, labels);
    free(labels);
    if (e->server) /* the engine's own HTTP server: refusals and paused connections */
        kvr_http_server_write_metrics(e->server, w, "kvroute_sim");
    return kvr_buf_release(&out, len);
}

/* /v1/loads ({timestamp, dp_rank_count, loads[]}) or /get_load's bare array; NULL without memory. */
static char *render_loads(kvr_sim_engine_t *e, bool legacy, size_t *len)
{
    cJSON *doc, *loads;
    if (legacy) {
        doc = loads = cJSON_CreateArray();
    } else {
        doc = cJSON_CreateObject();
        cJSON_AddNumberToObject(doc, "timestamp", (double)kvr_clock_wall_ns() / 1e9);
        cJSON_AddNumberToObject(doc, "dp_rank_count", e->dp);
        loads = cJSON_AddArrayToObject(doc, "loads");
    }
    for (int r = 0; r < e->dp; r++) {
        kvr_sim_rank_t *rank = &e->ranks[r];
        kvr_sim_model_t *m = &rank->model;
        uint64_t used = kvr_sim_model_kv_used_tokens(m), pending, largest;
        kvr_sim_model_pending_prefill(m, &pending, &largest);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(loads, o);
        cJSON_AddNumberToObject(o, "dp_rank", r);
        if (legacy) {
            cJSON_AddNumberToObject(o, "num_reqs", m->running.count + m->waiting.count);
            cJSON_AddNumberToObject(o, "num_waiting_reqs", m->waiting.count);
            cJSON_AddNumberToObject(o, "num_tokens", used);
            continue;
        }
        cJSON_AddNumberToObject(o, "num_running_reqs", m->running.count);
        cJSON_AddNumberToObject(o, "num_waiting_reqs", m->waiting.count);
        cJSON_AddNumberToObject(o, "max_running_requests", m->params.max_running);
        cJSON_AddNumberToObject(o, "num_used_tokens", used);
        cJSON_AddNumberToObject(o, "num_total_tokens", used + pending);
        cJSON_AddNumberToObject(o, "max_total_num_tokens", kvr_sim_model_kv_capacity_tokens(m));
        cJSON_AddNumberToObject(o, "token_usage", kv_usage(m));
        cJSON_AddNumberToObject(o, "gen_throughput", rank->gen_throughput);
        cJSON_AddNumberToObject(o, "cache_hit_rate", hit_rate(m));
        cJSON_AddNumberToObject(o, "utilization", rank->utilization);
    }
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    *len = text ? strlen(text) : 0;
    return text;
}

/* ---- serving, with the slow and garbage faults ---- */

typedef enum { T_METRICS, T_LOADS, T_GET_LOAD } telemetry_t;

typedef struct {
    uv_timer_t timer;
    kvr_sim_engine_t *engine;
    kvr_http_req_t *req;
    telemetry_t what;
} delayed_t;

static void respond_telemetry(kvr_sim_engine_t *e, kvr_http_req_t *req, telemetry_t what)
{
    for (int r = 0; r < e->dp; r++)
        rank_rates(&e->ranks[r]);
    if (e->faults.garbage_metrics) {
        static const char prom_junk[] = "vllm:num_requests_running{engine=\"0\" 7 7 7\n"
                                        "# TYPE broken\n\x01\x02 not prometheus {{{\n";
        static const char json_junk[] = "{\"loads\": [ {\"num_running_reqs\": \"many\", oops";
        if (what == T_METRICS)
            kvr_http_respond(req, 200, "text/plain; version=0.0.4; charset=utf-8", NULL, 0,
                             prom_junk, sizeof prom_junk - 1);
        else
            kvr_http_respond(req, 200, "application/json", NULL, 0, json_junk,
                             sizeof json_junk - 1);
        return;
    }
    size_t len;
    char *body;
    if (what == T_METRICS) {
        body = e->fleet->cfg.flavor == KVR_SIM_FLAVOR_SGLANG ? render_sglang(e, &len)
                                                             : render_vllm(e, &len);
        kvr_http_respond(req, 200, "text/plain; version=0.0.4; charset=utf-8", NULL, 0, body, len);
        free(body);
    } else {
        body = render_loads(e, what == T_GET_LOAD, &len);
        if (body)
            kvr_http_respond(req, 200, "application/json", NULL, 0, body, len);
        else
            kvr_http_respond_error(req, 500, NULL, "out of memory", NULL, 0);
        cJSON_free(body);
    }
}

static void delayed_closed(uv_handle_t *h)
{
    free(h->data);
}

static void delayed_fire(uv_timer_t *t)
{
    delayed_t *d = t->data;
    respond_telemetry(d->engine, d->req, d->what);
    uv_close((uv_handle_t *)&d->timer, delayed_closed);
}

static void delayed_abort(kvr_http_req_t *req, void *arg)
{
    delayed_t *d = arg;
    uv_timer_stop(&d->timer);
    uv_close((uv_handle_t *)&d->timer, delayed_closed);
    kvr_http_req_abandon(req);
}

bool kvr_sim_serve_telemetry(kvr_sim_engine_t *e, kvr_http_req_t *req)
{
    const char *path = kvr_http_req_path(req);
    bool sglang = e->fleet->cfg.flavor == KVR_SIM_FLAVOR_SGLANG;
    telemetry_t what;
    if (strcmp(path, "/metrics") == 0)
        what = T_METRICS;
    else if (sglang && strcmp(path, "/v1/loads") == 0)
        what = T_LOADS; /* ?include=core (or any include) gets the same core fields */
    else if (sglang && strcmp(path, "/get_load") == 0)
        what = T_GET_LOAD;
    else
        return false;
    if (strcmp(kvr_http_req_method(req), "GET") != 0) {
        kvr_http_respond_error(req, 405, NULL, "Method Not Allowed", NULL, 0);
        return true;
    }
    if (e->faults.slow_metrics_ms == 0) {
        respond_telemetry(e, req, what);
        return true;
    }
    delayed_t *d = kvr_xcalloc(1, sizeof *d);
    d->engine = e;
    d->req = req;
    d->what = what;
    uv_timer_init(e->fleet->loop, &d->timer);
    d->timer.data = d;
    kvr_http_req_on_abort(req, delayed_abort, d);
    uv_timer_start(&d->timer, delayed_fire, e->faults.slow_metrics_ms, 0);
    return true;
}
