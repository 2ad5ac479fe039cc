/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet: one HTTP server per engine, the ranks' step timers, faults and
 * the admin endpoints that set them (POST /admin/fault, GET /admin/state).
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sim/pd.h"
#include "bench/sim/sim.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/options.h"
#include "common/tls.h"
#include "common/xmalloc.h"

static int engine_listen(kvr_sim_engine_t *e);

uint64_t kvr_sim_now_ns(void)
{
    return kvr_clock_now_ns();
}

/* ---- stepping ---- */

static void step_cb(uv_timer_t *timer)
{
    kvr_sim_rank_t *rank = timer->data;
    rank->timer_armed = false;
    kvr_sim_model_step_end(&rank->model, kvr_sim_now_ns(), kvr_sim_call_event, rank);
    kvr_sim_push_frame(rank->engine, false);
    kvr_sim_rank_kick(rank);
    kvr_sim_kv_flush(rank); /* what the step ended (a kick that started none flushed nothing) */
}

void kvr_sim_rank_kick(kvr_sim_rank_t *rank)
{
    kvr_sim_engine_t *e = rank->engine;
    if (rank->timer_armed || rank->model.step_in_flight || e->fleet->stopping ||
        e->faults.stalled || e->faults.crashed)
        return;
    uint64_t now = kvr_sim_now_ns();
    uint64_t sim_ns = kvr_sim_model_step_begin(&rank->model, now);
    if (sim_ns == 0) {
        rank->due_ns = 0;
        return;
    }
    /* Steps are scheduled against absolute deadlines: a busy engine starts
     * its next step when the last one was due, not when the loop got round
     * to it, so timer lateness and millisecond rounding do not accumulate. */
    uint64_t start = rank->due_ns && now - rank->due_ns < 50 * KVR_NS_PER_MS ? rank->due_ns : now;
    rank->due_ns = start + (uint64_t)((double)sim_ns / e->fleet->cfg.time_scale);
    uint64_t due_ms = (rank->due_ns + KVR_NS_PER_MS - 1) / KVR_NS_PER_MS;
    uint64_t loop_ms = uv_now(e->fleet->loop);
    rank->timer_armed = true;
    uv_timer_start(&rank->step_timer, step_cb, due_ms > loop_ms ? due_ms - loop_ms : 0, 0);
    kvr_sim_kv_flush(rank); /* the blocks the step computes are announced as it starts */
}

static void engine_kick_all(kvr_sim_engine_t *e)
{
    for (int r = 0; r < e->dp; r++)
        kvr_sim_rank_kick(&e->ranks[r]);
}

/* ---- requests held by a stall ---- */

static void held_abort(kvr_http_req_t *req, void *arg)
{
    kvr_sim_engine_unhold(arg, req);
    kvr_http_req_abandon(req);
}

void kvr_sim_engine_hold(kvr_sim_engine_t *e, kvr_http_req_t *req)
{
    if (e->nheld == e->held_cap) {
        e->held_cap = e->held_cap ? e->held_cap * 2 : 16;
        e->held = kvr_xrealloc(e->held, e->held_cap * sizeof *e->held);
    }
    e->held[e->nheld++] = req;
    kvr_http_req_on_abort(req, held_abort, e);
}

void kvr_sim_engine_unhold(kvr_sim_engine_t *e, kvr_http_req_t *req)
{
    for (size_t i = 0; i < e->nheld; i++) {
        if (e->held[i] == req) {
            e->held[i] = e->held[--e->nheld];
            return;
        }
    }
}

static void release_held(kvr_sim_engine_t *e)
{
    /* A stall that ends cuts the hung connections, as a restarted engine would. */
    while (e->nheld) {
        kvr_http_req_t *req = e->held[--e->nheld];
        kvr_http_req_abandon(req);
    }
}

/* ---- admin ---- */

static cJSON *engine_state_json(kvr_sim_engine_t *e)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "engine", e->index);
    cJSON_AddStringToObject(o, "engine_id", e->engine_id);
    cJSON_AddNumberToObject(o, "port", e->port);
    const kvr_sim_faults_t *f = &e->faults;
    cJSON *faults = cJSON_AddObjectToObject(o, "faults");
    cJSON_AddBoolToObject(faults, "crash", f->crashed);
    cJSON_AddBoolToObject(faults, "stall", f->stalled);
    cJSON_AddNumberToObject(faults, "slow_metrics_ms", f->slow_metrics_ms);
    cJSON_AddNumberToObject(faults, "error_rate", f->error_rate);
    cJSON_AddNumberToObject(faults, "drop_after_tokens", f->drop_after_tokens);
    cJSON_AddBoolToObject(faults, "garbage_metrics", f->garbage_metrics);
    cJSON_AddNumberToObject(o, "requests_total", e->requests_total);
    cJSON_AddNumberToObject(o, "requests_rejected", e->requests_rejected);
    cJSON_AddNumberToObject(o, "requests_dropped", e->requests_dropped);
    cJSON_AddNumberToObject(o, "requests_aborted", e->requests_aborted);
    cJSON *ranks = cJSON_AddArrayToObject(o, "ranks");
    for (int r = 0; r < e->dp; r++) {
        kvr_sim_model_t *m = &e->ranks[r].model;
        uint64_t pending, largest;
        kvr_sim_model_pending_prefill(m, &pending, &largest);
        cJSON *rank = cJSON_CreateObject();
        cJSON_AddItemToArray(ranks, rank);
        cJSON_AddNumberToObject(rank, "dp_rank", r);
        cJSON_AddNumberToObject(rank, "running", m->running.count);
        cJSON_AddNumberToObject(rank, "waiting", m->waiting.count);
        cJSON_AddNumberToObject(rank, "max_running", m->params.max_running);
        cJSON_AddNumberToObject(rank, "peak_running", m->peak_running);
        cJSON_AddNumberToObject(rank, "kv_used_tokens", kvr_sim_model_kv_used_tokens(m));
        cJSON_AddNumberToObject(rank, "kv_capacity_tokens", kvr_sim_model_kv_capacity_tokens(m));
        cJSON_AddNumberToObject(rank, "cached_blocks", m->cache.lru_blocks);
        cJSON_AddNumberToObject(rank, "used_blocks", m->cache.used_blocks);
        cJSON_AddNumberToObject(rank, "hashed_blocks", m->cache.hashed_blocks);
        cJSON_AddNumberToObject(rank, "kv_events_seq", kvr_sim_kv_seq(&e->ranks[r]));
        cJSON_AddNumberToObject(rank, "kv_subscriptions", kvr_sim_kv_subscriptions(&e->ranks[r]));
        cJSON_AddNumberToObject(rank, "evictions", m->cache.evictions);
        cJSON_AddNumberToObject(rank, "preemptions", m->preemptions);
        cJSON_AddNumberToObject(rank, "prefix_queries_tokens", m->prefix_queries_tokens);
        cJSON_AddNumberToObject(rank, "prefix_hits_tokens", m->prefix_hits_tokens);
        cJSON_AddNumberToObject(rank, "requests_finished", m->requests_finished);
        cJSON_AddNumberToObject(rank, "pending_prefill_tokens", pending);
        cJSON_AddNumberToObject(rank, "steps", m->steps);
        cJSON_AddNumberToObject(rank, "step_scale", m->params.step_scale);
    }
    return o;
}

static void crash_timer_cb(uv_timer_t *t)
{
    kvr_sim_engine_t *e = t->data;
    if (!e->faults.crashed || !e->server)
        return;
    KVR_WARN("sim_engine_crashed engine=%s", e->engine_id);
    /* Destroying the server aborts every request in flight, which cancels
     * them in the model: the ranks are empty afterwards. */
    kvr_http_server_destroy(e->server, NULL, NULL);
    e->server = NULL;
    kvr_sim_calls_abort_all(e);
    /* A restarted engine comes back with a cold cache and fresh counters. */
    for (int r = 0; r < e->dp; r++) {
        kvr_sim_rank_t *rank = &e->ranks[r];
        kvr_sim_params_t p = rank->model.params;
        kvr_sim_model_close(&rank->model);
        if (kvr_sim_model_init(&rank->model, &p) < 0)
            abort(); /* parameters that worked at start-up; only memory can fail */
        memset(rank->ttft_buckets, 0, sizeof rank->ttft_buckets);
        memset(rank->e2e_buckets, 0, sizeof rank->e2e_buckets);
        rank->ttft_sum = rank->e2e_sum = 0;
        rank->ttft_count = 0;
        rank->rate_last_ns = 0;
        rank->gen_throughput = rank->utilization = 0;
        rank->due_ns = 0;
    }
}

/* The whole body as one JSON value; anything but whitespace after it is an error, as in the router. */
static cJSON *parse_body(const char *body, size_t len)
{
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(body, len, &end, false);
    while (doc && end < body + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    if (doc && end != body + len) {
        cJSON_Delete(doc);
        return NULL;
    }
    return doc;
}

/* Applies one fault document to an engine; a message in err on a bad field. */
static int apply_faults(kvr_sim_engine_t *e, const cJSON *doc, char *err, size_t errlen)
{
    kvr_sim_faults_t f = e->faults;
    double step_scale = e->ranks[0].model.params.step_scale;
    const cJSON *v;
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "clear"))) {
        memset(&f, 0, sizeof f);
        f.drop_after_tokens = -1;
        step_scale = 1.0;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "crash")))
        f.crashed = cJSON_IsTrue(v);
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "stall")))
        f.stalled = cJSON_IsTrue(v);
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "garbage_metrics")))
        f.garbage_metrics = cJSON_IsTrue(v);
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "lose_transfers")))
        f.lose_transfers = cJSON_IsTrue(v);
    /* cJSON numbers are doubles: an integer field must hold a whole value in range. */
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "slow_metrics_ms"))) {
        double ms = cJSON_GetNumberValue(v);
        if (!(ms >= 0 && ms <= UINT32_MAX) || ms != floor(ms))
            return snprintf(err, errlen, "slow_metrics_ms must be a non-negative integer"), -EINVAL;
        f.slow_metrics_ms = (uint32_t)ms;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "error_rate"))) {
        double rate = cJSON_GetNumberValue(v);
        if (!cJSON_IsNumber(v) || rate < 0 || rate > 1)
            return snprintf(err, errlen, "error_rate must be a number in 0..1"), -EINVAL;
        f.error_rate = rate;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "drop_after_tokens"))) {
        double n = cJSON_GetNumberValue(v);
        if (!(n >= -1 && n <= INT32_MAX) || n != floor(n))
            return snprintf(err, errlen, "drop_after_tokens must be an integer >= -1"), -EINVAL;
        f.drop_after_tokens = (int32_t)n;
    }
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "step_scale"))) {
        step_scale = cJSON_GetNumberValue(v);
        if (!cJSON_IsNumber(v) || !(step_scale > 0))
            return snprintf(err, errlen, "step_scale must be a number > 0"), -EINVAL;
    }
    /* KV event actions, not lasting faults: a publisher restart, batches lost on the way. */
    uint32_t kv_drop = 0;
    if ((v = cJSON_GetObjectItemCaseSensitive(doc, "kv_drop_batches"))) {
        double n = cJSON_GetNumberValue(v);
        if (!(n >= 0 && n <= 1e6) || n != floor(n))
            return snprintf(err, errlen, "kv_drop_batches must be an integer in [0, 1000000]"),
                   -EINVAL;
        kv_drop = (uint32_t)n;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(doc, "kv_restart")))
        kvr_sim_kv_restart(e);
    if (kv_drop)
        kvr_sim_kv_drop(e, kv_drop);
    bool was_crashed = e->faults.crashed, was_stalled = e->faults.stalled;
    e->faults = f;
    for (int r = 0; r < e->dp; r++)
        e->ranks[r].model.params.step_scale = step_scale;
    KVR_INFO("sim_faults engine=%s crash=%d stall=%d slow_metrics_ms=%u error_rate=%.3f "
             "drop_after_tokens=%d garbage_metrics=%d step_scale=%.3f",
             e->engine_id, f.crashed, f.stalled, f.slow_metrics_ms, f.error_rate,
             f.drop_after_tokens, f.garbage_metrics, step_scale);
    if (f.crashed && !was_crashed) {
        /* Deferred a moment, so the admin answer on this very port gets out first. */
        uv_timer_start(&e->crash_timer, crash_timer_cb, 20, 0);
    } else if (!f.crashed && was_crashed) {
        uv_timer_stop(&e->crash_timer);
        if (!e->server && engine_listen(e) < 0)
            return snprintf(err, errlen, "engine could not listen again"), -EADDRINUSE;
    }
    if (!f.stalled && was_stalled)
        release_held(e);
    engine_kick_all(e);
    return 0;
}

static void serve_admin(kvr_sim_fleet_t *fleet, kvr_sim_engine_t *self, kvr_http_req_t *req)
{
    const char *path = kvr_http_req_path(req);
    const char *method = kvr_http_req_method(req);
    char which[32] = "";
    int first = 0, last = fleet->cfg.engines - 1;
    if (kvr_http_req_query_param(req, "engine", which, sizeof which) && strcmp(which, "all") != 0) {
        int64_t i;
        if (kvr_opt_parse_int(which, 0, fleet->cfg.engines - 1, &i) < 0) {
            kvr_http_respond_error(req, 404, NULL, "no such engine", NULL, 0);
            return;
        }
        first = last = (int)i;
    } else if (self && !which[0]) {
        first = last = self->index;
    }
    if (strcmp(path, "/admin/fault") == 0) {
        if (strcmp(method, "POST") != 0) {
            kvr_http_respond_error(req, 405, NULL, "use POST", NULL, 0);
            return;
        }
        size_t len;
        const char *body = kvr_http_req_body(req, &len);
        cJSON *doc = parse_body(body, len);
        if (!cJSON_IsObject(doc)) {
            cJSON_Delete(doc);
            kvr_http_respond_error(req, 400, NULL, "body must be a JSON object of faults", NULL, 0);
            return;
        }
        char err[160];
        for (int i = first; i <= last; i++) {
            if (apply_faults(&fleet->engines[i], doc, err, sizeof err) < 0) {
                cJSON_Delete(doc);
                kvr_http_respond_error(req, 400, NULL, err, NULL, 0);
                return;
            }
        }
        cJSON_Delete(doc);
    } else if (strcmp(path, "/admin/state") != 0) {
        kvr_http_respond_error(req, 404, NULL, "admin paths: /admin/fault, /admin/state", NULL, 0);
        return;
    }
    cJSON *doc = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(doc, "engines");
    for (int i = first; i <= last; i++)
        cJSON_AddItemToArray(arr, engine_state_json(&fleet->engines[i]));
    char *text = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (!text) {
        kvr_http_respond_error(req, 500, NULL, "out of memory", NULL, 0);
        return;
    }
    kvr_http_respond(req, 200, "application/json", NULL, 0, text, strlen(text));
    cJSON_free(text);
}

/* ---- request dispatch ---- */

static void on_engine_request(kvr_http_req_t *req, void *user)
{
    kvr_sim_engine_t *e = user;
    const char *path = kvr_http_req_path(req);
    if (strncmp(path, "/admin/", 7) == 0) {
        serve_admin(e->fleet, e, req);
        return;
    }
    if (e->faults.stalled) {
        kvr_sim_engine_hold(e, req);
        return;
    }
    if (kvr_sim_serve_telemetry(e, req) || kvr_sim_serve_openai(e, req))
        return;
    kvr_http_respond_error(req, 404, NULL, "Not Found", NULL, 0);
}

static void on_admin_request(kvr_http_req_t *req, void *user)
{
    serve_admin(user, NULL, req);
}

static int engine_listen(kvr_sim_engine_t *e)
{
    kvr_http_server_config_t hc;
    kvr_http_server_config_init(&hc);
    hc.host = e->fleet->cfg.host;
    hc.port = e->port;
    hc.on_request = on_engine_request;
    hc.user = e;
    hc.max_body_bytes = 64u * 1024u * 1024u; /* long agentic prompts */
    hc.tls = e->fleet->tls;
    hc.max_header_bytes = 64u * 1024u;
    if (e->fleet->cfg.max_connections) { /* 0: a config filled without the flags' defaults */
        hc.max_connections = e->fleet->cfg.max_connections;
        hc.max_connections_per_peer = e->fleet->cfg.max_connections_per_peer;
    }
    int rc = kvr_http_server_create(e->fleet->loop, &hc, &e->server);
    if (rc < 0) {
        KVR_ERROR("sim_listen_failed host=%s port=%d error=\"%s\"", hc.host, e->port,
                  uv_strerror(rc));
        e->server = NULL;
    }
    return rc;
}

static void push_timer_cb(uv_timer_t *t)
{
    kvr_sim_engine_t *e = t->data;
    if (!e->faults.crashed && !e->faults.stalled)
        kvr_sim_push_frame(e, true);
}

static void crash_all_cb(uv_timer_t *t)
{
    kvr_sim_fleet_t *fleet = t->data;
    for (int i = 0; i < fleet->cfg.engines; i++) {
        kvr_sim_engine_t *e = &fleet->engines[i];
        if (e->faults.crashed || (fleet->cfg.fault_engines && !fleet->cfg.fault_engines[i]))
            continue;
        e->faults.crashed = true;
        crash_timer_cb(&e->crash_timer);
    }
}

int kvr_sim_fleet_start(kvr_sim_fleet_t *fleet, uv_loop_t *loop, const kvr_sim_config_t *cfg)
{
    memset(fleet, 0, sizeof *fleet);
    fleet->loop = loop;
    kvr_sim_pd_init(fleet);
    fleet->cfg = *cfg;
    fleet->push_fd = -1;
    cJSON *name = cJSON_CreateString(cfg->model_name);
    char *quoted = cJSON_PrintUnformatted(name);
    snprintf(fleet->model_json, sizeof fleet->model_json, "%s", quoted ? quoted : "\"sim\"");
    cJSON_free(quoted);
    cJSON_Delete(name);
    int rc;
    if (cfg->tls_cert || cfg->tls_key) {
        char err[600];
        rc = kvr_tls_server_ctx_create(cfg->tls_cert, cfg->tls_key, &fleet->tls, err, sizeof err);
        if (rc < 0) {
            KVR_ERROR("sim_tls_failed error=\"%s\"", err);
            return rc;
        }
    }
    rc = kvr_sim_push_open(fleet);
    if (rc < 0)
        return rc;
    fleet->engines = kvr_xcalloc((size_t)cfg->engines, sizeof *fleet->engines);
    for (int i = 0; i < cfg->engines; i++) {
        kvr_sim_engine_t *e = &fleet->engines[i];
        e->fleet = fleet;
        e->index = i;
        e->port = cfg->port + i;
        e->faults.drop_after_tokens = -1;
        if (!cfg->fault_engines || cfg->fault_engines[i])
            e->faults = cfg->faults;
        e->rng = cfg->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(i + 1));
        if (cfg->engine_id_prefix)
            snprintf(e->engine_id, sizeof e->engine_id, "%s%d", cfg->engine_id_prefix, i);
        else if (strchr(cfg->host, ':'))
            snprintf(e->engine_id, sizeof e->engine_id, "http://[%s]:%d", cfg->host, e->port);
        else
            snprintf(e->engine_id, sizeof e->engine_id, "http://%s:%d", cfg->host, e->port);
        e->dp = cfg->dp;
        e->ranks = kvr_xcalloc((size_t)cfg->dp, sizeof *e->ranks);
        kvr_sim_params_t p = cfg->params;
        /* --dp splits one engine: each rank gets its share of slots and KV. */
        p.max_running = cfg->params.max_running / (uint32_t)cfg->dp;
        p.kv_tokens = cfg->params.kv_tokens / (uint64_t)cfg->dp;
        if (p.max_running == 0)
            p.max_running = 1;
        for (int r = 0; r < cfg->dp; r++) {
            kvr_sim_rank_t *rank = &e->ranks[r];
            rank->engine = e;
            rank->index = r;
            if ((rc = kvr_sim_model_init(&rank->model, &p)) < 0)
                return rc;
            uv_timer_init(loop, &rank->step_timer);
            rank->step_timer.data = rank;
        }
        uv_timer_init(loop, &e->push_timer);
        e->push_timer.data = e;
        uv_timer_init(loop, &e->crash_timer);
        e->crash_timer.data = e;
        if (!e->faults.crashed && (rc = engine_listen(e)) < 0)
            return rc;
        if (fleet->push_fd >= 0)
            uv_timer_start(&e->push_timer, push_timer_cb, cfg->push_idle_ms, cfg->push_idle_ms);
        KVR_INFO("sim_engine_ready engine=%s port=%d flavor=%s dp=%d max_running=%u kv_tokens=%llu",
                 e->engine_id, e->port, cfg->flavor == KVR_SIM_FLAVOR_SGLANG ? "sglang" : "vllm",
                 cfg->dp, cfg->params.max_running, (unsigned long long)cfg->params.kv_tokens);
    }
    if ((rc = kvr_sim_kv_open(fleet)) < 0)
        return rc;
    uv_timer_init(loop, &fleet->crash_timer);
    fleet->crash_timer.data = fleet;
    if (cfg->crash_after_ms)
        uv_timer_start(&fleet->crash_timer, crash_all_cb, cfg->crash_after_ms, 0);
    if (cfg->admin_port) {
        kvr_http_server_config_t hc;
        kvr_http_server_config_init(&hc);
        hc.host = cfg->host;
        hc.port = cfg->admin_port;
        hc.on_request = on_admin_request;
        hc.user = fleet;
        if (cfg->max_connections) {
            hc.max_connections = cfg->max_connections;
            hc.max_connections_per_peer = cfg->max_connections_per_peer;
        }
        if ((rc = kvr_http_server_create(loop, &hc, &fleet->admin)) < 0) {
            KVR_ERROR("sim_listen_failed host=%s port=%d error=\"%s\"", cfg->host, cfg->admin_port,
                      uv_strerror(rc));
            return rc;
        }
    }
    return 0;
}

void kvr_sim_fleet_stop(kvr_sim_fleet_t *fleet)
{
    if (fleet->stopping)
        return;
    fleet->stopping = true;
    if (fleet->admin)
        kvr_http_server_destroy(fleet->admin, NULL, NULL);
    fleet->admin = NULL;
    for (int i = 0; fleet->engines && i < fleet->cfg.engines; i++) {
        kvr_sim_engine_t *e = &fleet->engines[i];
        if (e->server)
            kvr_http_server_destroy(e->server, NULL, NULL);
        e->server = NULL;
        release_held(e);
        kvr_sim_calls_abort_all(e);
        for (int r = 0; r < e->dp; r++) {
            if (!uv_is_closing((uv_handle_t *)&e->ranks[r].step_timer))
                uv_close((uv_handle_t *)&e->ranks[r].step_timer, NULL);
        }
        uv_close((uv_handle_t *)&e->push_timer, NULL);
        uv_close((uv_handle_t *)&e->crash_timer, NULL);
    }
    uv_close((uv_handle_t *)&fleet->crash_timer, NULL);
    kvr_sim_pd_close(fleet);
    kvr_sim_push_close(fleet);
    kvr_sim_kv_close(fleet);
}

void kvr_sim_fleet_free(kvr_sim_fleet_t *fleet)
{
    for (int i = 0; fleet->engines && i < fleet->cfg.engines; i++) {
        kvr_sim_engine_t *e = &fleet->engines[i];
        for (int r = 0; r < e->dp; r++)
            kvr_sim_model_close(&e->ranks[r].model);
        free(e->ranks);
        free(e->held);
    }
    free(fleet->engines);
    fleet->engines = NULL;
    kvr_tls_ctx_destroy(fleet->tls);
    fleet->tls = NULL;
}
