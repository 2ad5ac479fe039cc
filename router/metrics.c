/* SPDX-License-Identifier: Apache-2.0 */
#include "router/metrics.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/json_text.h"
#include "common/xmalloc.h"
#include "router/router.h"
#include "router/upstream.h"

static const double bucket_bounds[KVR_HIST_BUCKETS - 1] = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120,
};

int kvr_router_metrics_init(kvr_router_metrics_t *m)
{
    memset(m, 0, sizeof *m);
    m->selections = calloc(KVR_MAX_ENGINES, sizeof *m->selections);
    return m->selections ? 0 : -ENOMEM;
}

void kvr_router_metrics_close(kvr_router_metrics_t *m)
{
    free(m->selections);
    m->selections = NULL;
}

void kvr_histogram_observe(kvr_histogram_t *h, double seconds)
{
    size_t i = 0;
    while (i < KVR_HIST_BUCKETS - 1 && seconds > bucket_bounds[i])
        i++;
    h->buckets[i]++;
    h->count++;
    h->sum += seconds;
}

void kvr_router_metrics_selection(kvr_router_metrics_t *m, uint32_t engine_index, const char *reason)
{
    if (engine_index >= KVR_MAX_ENGINES)
        return;
    kvr_selection_counts_t *s = &m->selections[engine_index];
    for (size_t i = 0; i < KVR_METRICS_MAX_REASONS; i++) {
        if (!s->reason[i] || s->reason[i] == reason || strcmp(s->reason[i], reason) == 0) {
            s->reason[i] = reason;
            s->count[i]++;
            return;
        }
    }
}

void kvr_router_metrics_status(kvr_router_metrics_t *m, int status)
{
    if (status > 0 && status < KVR_METRICS_MAX_STATUS)
        m->requests_by_status[status]++;
}

/* ---- text building ---- */

typedef struct out_s {
    char *buf;
    size_t len, cap;
} out_t;

__attribute__((format(printf, 2, 3))) static void outf(out_t *o, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < o->cap - o->len) {
            o->len += (size_t)n;
            return;
        }
        o->cap = o->cap * 2 + (size_t)(n > 0 ? n : 0);
        o->buf = kvr_xrealloc(o->buf, o->cap);
    }
}

/* Prometheus label values escape backslash, double quote and newline. */
static const char *label(const char *s, char *tmp, size_t cap)
{
    size_t j = 0;
    for (size_t i = 0; s[i] && j + 2 < cap; i++) {
        if (s[i] == '\\' || s[i] == '"') {
            tmp[j++] = '\\';
            tmp[j++] = s[i];
        } else if (s[i] == '\n') {
            tmp[j++] = '\\';
            tmp[j++] = 'n';
        } else {
            tmp[j++] = s[i];
        }
    }
    tmp[j] = '\0';
    return tmp;
}

static void head(out_t *o, const char *name, const char *type, const char *help)
{
    outf(o, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void histogram(out_t *o, const char *name, const char *help, const kvr_histogram_t *h)
{
    head(o, name, "histogram", help);
    uint64_t cum = 0;
    for (size_t i = 0; i < KVR_HIST_BUCKETS - 1; i++) {
        cum += h->buckets[i];
        outf(o, "%s_bucket{le=\"%g\"} %llu\n", name, bucket_bounds[i], (unsigned long long)cum);
    }
    cum += h->buckets[KVR_HIST_BUCKETS - 1];
    outf(o, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name, (unsigned long long)cum,
         name, h->sum, name, (unsigned long long)h->count);
}

typedef struct engine_snapshot_s {
    kvr_engine_t *e;
    kvr_engine_view_t v;
    kvr_feed_state_t state;
} engine_snapshot_t;

static size_t snapshot(kvr_router_t *r, engine_snapshot_t *snaps)
{
    uint64_t now = kvr_clock_now_ns();
    kvr_feed_refresh(&r->decider.feed, now);
    size_t n = 0;
    for (uint32_t i = 0; i < r->decider.engines.n_slots; i++) {
        kvr_engine_t *e = r->decider.engines.engines[i];
        if (!e || (e->removed && e->shadow_requests == 0))
            continue;
        snaps[n].e = e;
        snaps[n].state = kvr_feed_view(&r->decider.feed, e, now, false, &snaps[n].v);
        n++;
    }
    return n;
}

static void engine_gauges(out_t *o, engine_snapshot_t *s, size_t n)
{
    char l[512];
    static const char *const kinds[] = {"shadow", "real", "eff"};
    head(o, "kvroute_engine_requests", "gauge",
         "requests per engine: shadow (dispatched here, not finished), real (feed, running+waiting), eff (used for routing)");
    for (size_t i = 0; i < n; i++) {
        const kvr_engine_view_t *v = &s[i].v;
        uint64_t vals[3] = {v->shadow_requests, (uint64_t)v->real_running + v->real_waiting, v->eff_requests};
        for (int k = 0; k < 3; k++)
            if (k != 1 || v->feed_fresh)
                outf(o, "kvroute_engine_requests{engine=\"%s\",kind=\"%s\"} %llu\n", label(s[i].e->id, l, sizeof l),
                     kinds[k], (unsigned long long)vals[k]);
    }
    head(o, "kvroute_engine_pending_prefill_tokens", "gauge", "prompt tokens not yet prefilled, per engine and kind");
    for (size_t i = 0; i < n; i++) {
        const kvr_engine_view_t *v = &s[i].v;
        uint64_t vals[3] = {v->shadow_pending_prefill_tokens, v->real_pending_prefill_tokens,
                            v->eff_pending_prefill_tokens};
        for (int k = 0; k < 3; k++)
            if (k != 1 || v->feed_fresh)
                outf(o, "kvroute_engine_pending_prefill_tokens{engine=\"%s\",kind=\"%s\"} %llu\n",
                     label(s[i].e->id, l, sizeof l), kinds[k], (unsigned long long)vals[k]);
    }
    head(o, "kvroute_engine_kv_tokens", "gauge", "KV cache tokens held, per engine and kind");
    for (size_t i = 0; i < n; i++) {
        const kvr_engine_view_t *v = &s[i].v;
        uint64_t vals[3] = {v->shadow_kv_tokens, v->real_kv_tokens, v->eff_kv_tokens};
        for (int k = 0; k < 3; k++)
            if (k != 1 || v->feed_fresh)
                outf(o, "kvroute_engine_kv_tokens{engine=\"%s\",kind=\"%s\"} %llu\n", label(s[i].e->id, l, sizeof l),
                     kinds[k], (unsigned long long)vals[k]);
    }
    head(o, "kvroute_engine_healthy", "gauge", "1 when the engine is in the candidate set");
    for (size_t i = 0; i < n; i++)
        outf(o, "kvroute_engine_healthy{engine=\"%s\"} %d\n", label(s[i].e->id, l, sizeof l),
             kvr_engine_is_candidate(s[i].e));
    head(o, "kvroute_engine_feed_fresh", "gauge", "1 when the engine's feed slot is fresh (ES=1)");
    for (size_t i = 0; i < n; i++)
        outf(o, "kvroute_engine_feed_fresh{engine=\"%s\"} %d\n", label(s[i].e->id, l, sizeof l), s[i].v.feed_fresh);
    head(o, "kvroute_engine_feed_age_seconds", "gauge", "age of the engine's feed sample (ES=1, slot present)");
    for (size_t i = 0; i < n; i++)
        if (s[i].v.feed_age_ns)
            outf(o, "kvroute_engine_feed_age_seconds{engine=\"%s\"} %.6f\n", label(s[i].e->id, l, sizeof l),
                 (double)s[i].v.feed_age_ns / 1e9);
    head(o, "kvroute_engine_reconcile_drift", "gauge",
         "ES=0: shadow requests minus the engine's own running + waiting at the last /metrics reconciliation");
    for (size_t i = 0; i < n; i++)
        if (s[i].e->reconciled_ns)
            outf(o, "kvroute_engine_reconcile_drift{engine=\"%s\"} %lld\n", label(s[i].e->id, l, sizeof l),
                 (long long)s[i].e->reconcile_drift);
    head(o, "kvroute_engine_dispatched_total", "counter", "requests dispatched to the engine, retries included");
    for (size_t i = 0; i < n; i++)
        outf(o, "kvroute_engine_dispatched_total{engine=\"%s\"} %llu\n", label(s[i].e->id, l, sizeof l),
             (unsigned long long)s[i].e->dispatched_total);
    head(o, "kvroute_engine_failures_total", "counter", "connect failures, failed health checks and upstream errors");
    for (size_t i = 0; i < n; i++)
        outf(o, "kvroute_engine_failures_total{engine=\"%s\"} %llu\n", label(s[i].e->id, l, sizeof l),
             (unsigned long long)s[i].e->failures_total);
}

char *kvr_router_render_metrics(kvr_router_t *r, size_t *len)
{
    out_t o = {.buf = kvr_xmalloc(16384), .cap = 16384};
    kvr_router_metrics_t *m = &r->metrics;
    char l[512];

    head(&o, "kvroute_requests_total", "counter", "proxied requests by final status");
    for (int s = 0; s < KVR_METRICS_MAX_STATUS; s++)
        if (m->requests_by_status[s])
            outf(&o, "kvroute_requests_total{status=\"%d\"} %llu\n", s, (unsigned long long)m->requests_by_status[s]);
    head(&o, "kvroute_selections_total", "counter", "routing decisions by engine, policy and reason");
    for (uint32_t i = 0; i < r->decider.engines.n_slots; i++) {
        kvr_selection_counts_t *s = &m->selections[i];
        for (size_t k = 0; k < KVR_METRICS_MAX_REASONS && s->reason[k]; k++)
            outf(&o, "kvroute_selections_total{engine=\"%s\",policy=\"%s\",reason=\"%s\"} %llu\n",
                 label(r->decider.engines.engines[i]->id, l, sizeof l), r->cfg.policy, s->reason[k],
                 (unsigned long long)s->count[k]);
    }
    static const char *const causes[] = {"connect", "status_5xx", "reset", "first_byte_timeout"};
    head(&o, "kvroute_retries_total", "counter", "requests retried on another engine, by cause");
    for (int c = 0; c < KVR_RETRY_N_CAUSES; c++)
        outf(&o, "kvroute_retries_total{cause=\"%s\"} %llu\n", causes[c], (unsigned long long)m->retries_total[c]);
    static const char *const kinds[] = {"connect", "first_byte", "idle"};
    head(&o, "kvroute_upstream_timeouts_total", "counter", "upstream timeouts by kind");
    for (int k = 0; k < KVR_TIMEOUT_N_KINDS; k++)
        outf(&o, "kvroute_upstream_timeouts_total{kind=\"%s\"} %llu\n", kinds[k], (unsigned long long)m->timeouts_total[k]);
    head(&o, "kvroute_client_aborts_total", "counter", "clients that went away before their response ended");
    outf(&o, "kvroute_client_aborts_total %llu\n", (unsigned long long)m->client_aborts_total);
    head(&o, "kvroute_upstream_cut_total", "counter", "responses cut short by an engine after bytes reached the client");
    outf(&o, "kvroute_upstream_cut_total %llu\n", (unsigned long long)m->upstream_cut_total);
    head(&o, "kvroute_no_candidate_total", "counter", "decisions that found no healthy engine");
    outf(&o, "kvroute_no_candidate_total %llu\n", (unsigned long long)m->no_candidate_total);
    head(&o, "kvroute_pressure_fallback_total", "counter", "cache_aware decisions that fell back fleet-wide for lack of caps");
    outf(&o, "kvroute_pressure_fallback_total %llu\n", (unsigned long long)m->pressure_fallback_total);
    head(&o, "kvroute_in_flight", "gauge", "proxied requests not finished");
    outf(&o, "kvroute_in_flight %u\n", r->in_flight);
    histogram(&o, "kvroute_ttft_seconds", "time to the first response byte, measured at the router", &m->ttft);
    histogram(&o, "kvroute_request_duration_seconds", "request arrival to the last response byte", &m->e2e);

    head(&o, "kvroute_sessions", "gauge", "session pins held (oneshot placement)");
    outf(&o, "kvroute_sessions %zu\n", r->decider.sessions.count);
    head(&o, "kvroute_session_placements_total", "counter", "session placements: new, replaced (pin unhealthy), migrated (pin overloaded)");
    outf(&o, "kvroute_session_placements_total{kind=\"new\"} %llu\n", (unsigned long long)m->sessions_placed_total);
    outf(&o, "kvroute_session_placements_total{kind=\"replaced\"} %llu\n", (unsigned long long)m->sessions_replaced_total);
    outf(&o, "kvroute_session_placements_total{kind=\"migrated\"} %llu\n", (unsigned long long)m->sessions_migrated_total);
    head(&o, "kvroute_sessions_dropped_total", "counter", "session pins forgotten: idle past the TTL or over --max-sessions");
    outf(&o, "kvroute_sessions_dropped_total{why=\"ttl\"} %llu\n", (unsigned long long)r->decider.sessions.expired_total);
    outf(&o, "kvroute_sessions_dropped_total{why=\"capacity\"} %llu\n", (unsigned long long)r->decider.sessions.evicted_total);

    kvr_admission_stats_t as;
    kvr_admission_stats(r->decider.admission, &as);
    head(&o, "kvroute_admission_total", "counter", "admission verdicts");
    outf(&o, "kvroute_admission_total{verdict=\"admitted\"} %llu\n", (unsigned long long)as.admitted);
    outf(&o, "kvroute_admission_total{verdict=\"seed_lease\"} %llu\n", (unsigned long long)as.seed_leases);
    outf(&o, "kvroute_admission_total{verdict=\"rejected\"} %llu\n", (unsigned long long)as.rejected);
    outf(&o, "kvroute_admission_total{verdict=\"would_reject\"} %llu\n", (unsigned long long)as.shadow_would_reject);

    head(&o, "kvroute_feed_enabled", "gauge", "1 when the router reads the statefeed segment (ES=1)");
    outf(&o, "kvroute_feed_enabled %d\n", r->decider.feed.enabled);
    head(&o, "kvroute_feed_reads_total", "counter", "per-engine feed reads at decisions, by outcome (fresh, or why shadow was used)");
    uint64_t stale = 0;
    for (int s = 0; s < KVR_FEED_N_STATES; s++) {
        outf(&o, "kvroute_feed_reads_total{state=\"%s\"} %llu\n", kvr_feed_state_name((kvr_feed_state_t)s),
             (unsigned long long)r->decider.feed.fallbacks_total[s]);
        if (s != KVR_FEED_FRESH)
            stale += r->decider.feed.fallbacks_total[s];
    }
    head(&o, "kvroute_feed_stale_fallbacks_total", "counter", "per-engine decisions that used shadow only because the feed was stale or missing");
    outf(&o, "kvroute_feed_stale_fallbacks_total %llu\n", (unsigned long long)stale);
    head(&o, "kvroute_feed_opens_total", "counter", "times the segment was (re)opened");
    outf(&o, "kvroute_feed_opens_total %llu\n", (unsigned long long)r->decider.feed.opens_total);
    head(&o, "kvroute_feed_segment_changes_total", "counter", "times the mapped segment was found shrunk, changed in its geometry or replaced, and dropped");
    outf(&o, "kvroute_feed_segment_changes_total %llu\n", (unsigned long long)r->decider.feed.changes_total);
    if (r->decider.feed.open) {
        head(&o, "kvroute_feed_heartbeat_age_seconds", "gauge", "age of the statefeed writer's heartbeat");
        outf(&o, "kvroute_feed_heartbeat_age_seconds %.6f\n", (double)r->decider.feed.last_heartbeat_age_ns / 1e9);
    }
    head(&o, "kvroute_reconcile_runs_total", "counter", "ES=0 reconciliations of shadow counters against engine /metrics");
    outf(&o, "kvroute_reconcile_runs_total %llu\n", (unsigned long long)m->reconcile_runs_total);
    head(&o, "kvroute_reconcile_failures_total", "counter", "ES=0 /metrics scrapes that failed");
    outf(&o, "kvroute_reconcile_failures_total %llu\n", (unsigned long long)m->reconcile_failures_total);

    engine_snapshot_t *snaps = kvr_xmalloc((r->decider.engines.n_slots + 1) * sizeof *snaps);
    size_t n = snapshot(r, snaps);
    engine_gauges(&o, snaps, n);
    free(snaps);
    *len = o.len;
    return o.buf;
}

static void add_real(cJSON *o, const char *name, double v)
{
    char buf[KVR_JSON_REAL_MAX];
    cJSON_AddRawToObject(o, name, kvr_json_format_real(buf, v)); /* "3.0", not cJSON's "3" */
}

static void render_engine(cJSON *arr, kvr_router_t *r, const engine_snapshot_t *snap)
{
    const kvr_engine_view_t *v = &snap->v;
    kvr_engine_t *e = snap->e;
    uint32_t idle = 0, busy = 0;
    const kvr_upstream_pool_t *pool = kvr_router_pool(r, e->index);
    if (pool)
        kvr_upstream_pool_stats(pool, &idle, &busy);
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        return;
    }
    cJSON_AddStringToObject(o, "id", e->id);
    cJSON_AddNumberToObject(o, "index", (int)e->index);
    cJSON_AddBoolToObject(o, "healthy", kvr_engine_is_candidate(e));
    cJSON_AddBoolToObject(o, "removed", e->removed);
    cJSON_AddNumberToObject(o, "consecutive_failures", (int)e->consecutive_failures);
    cJSON *shadow = cJSON_AddObjectToObject(o, "shadow");
    cJSON_AddNumberToObject(shadow, "requests", (int)v->shadow_requests);
    cJSON_AddNumberToObject(shadow, "pending_prefill_tokens", (double)v->shadow_pending_prefill_tokens);
    cJSON_AddNumberToObject(shadow, "kv_tokens", (double)v->shadow_kv_tokens);
    cJSON *eff = cJSON_AddObjectToObject(o, "eff");
    cJSON_AddNumberToObject(eff, "requests", (double)v->eff_requests);
    cJSON_AddNumberToObject(eff, "running", (double)v->eff_running);
    cJSON_AddNumberToObject(eff, "waiting", (double)v->eff_waiting);
    cJSON_AddNumberToObject(eff, "pending_prefill_tokens", (double)v->eff_pending_prefill_tokens);
    cJSON_AddNumberToObject(eff, "kv_tokens", (double)v->eff_kv_tokens);
    cJSON_AddNumberToObject(o, "dispatched", (double)e->dispatched_total);
    cJSON_AddNumberToObject(o, "failures", (double)e->failures_total);
    cJSON *upstream = cJSON_AddObjectToObject(o, "upstream");
    cJSON_AddNumberToObject(upstream, "idle", (int)idle);
    cJSON_AddNumberToObject(upstream, "busy", (int)busy);
    if (v->feed_fresh) {
        cJSON *real = cJSON_AddObjectToObject(o, "real");
        cJSON_AddNumberToObject(real, "running", (double)v->real_running);
        cJSON_AddNumberToObject(real, "waiting", (double)v->real_waiting);
        cJSON_AddNumberToObject(real, "pending_prefill_tokens", (double)v->real_pending_prefill_tokens);
        cJSON_AddNumberToObject(real, "kv_tokens", (double)v->real_kv_tokens);
        cJSON_AddNumberToObject(real, "max_running", (double)v->max_running);
        cJSON_AddBoolToObject(real, "caps_complete", v->caps_complete);
        if (real)
            add_real(real, "kv_usage", v->kv_usage);
    } else {
        cJSON_AddNullToObject(o, "real");
    }
    cJSON_AddStringToObject(o, "feed", r->decider.feed.enabled ? kvr_feed_state_name(snap->state) : "off");
    if (v->feed_age_ns)
        add_real(o, "feed_age_ms", (double)v->feed_age_ns / 1e6);
    else
        cJSON_AddNullToObject(o, "feed_age_ms");
    cJSON_AddNumberToObject(o, "sessions", (double)kvr_sessions_count_on(&r->decider.sessions, e->index));
}

char *kvr_router_render_engines(kvr_router_t *r, size_t *len)
{
    engine_snapshot_t *snaps = kvr_xmalloc((r->decider.engines.n_slots + 1) * sizeof *snaps);
    size_t n = snapshot(r, snaps);
    cJSON *doc = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(doc, "engines");
    for (size_t i = 0; arr && i < n; i++)
        render_engine(arr, r, &snaps[i]);
    free(snaps);
    cJSON_AddStringToObject(doc, "policy", r->cfg.policy);
    cJSON_AddStringToObject(doc, "placement", kvr_placement_name(r->cfg.placement));
    cJSON_AddBoolToObject(doc, "es", r->cfg.es);
    /* Printed into one buffer of ours (free()-able, no growth copies), enlarged if too small. */
    size_t cap = 1024 + n * 1024;
    char *text = kvr_xmalloc(cap);
    bool ok = doc && cJSON_PrintPreallocated(doc, text, (int)cap, false);
    while (doc && !ok && cap < (64u << 20)) {
        cap *= 2;
        free(text);
        text = kvr_xmalloc(cap);
        ok = cJSON_PrintPreallocated(doc, text, (int)cap, false);
    }
    if (!ok)
        snprintf(text, cap, "{}");
    cJSON_Delete(doc);
    *len = strlen(text);
    return text;
}
