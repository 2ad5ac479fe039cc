/* SPDX-License-Identifier: Apache-2.0 */
#include "router/metrics.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/clock.h"
#include "common/json_text.h"
#include "common/log.h"
#include "tokens/turn_cache.h"
#include "common/prom_writer.h"
#include "common/xmalloc.h"
#include "router/config.h"
#include "router/decide.h"
#include "router/models.h"
#include "router/share.h"
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
    for (size_t i = 0; i < KVR_METRICS_MAX_MODELS; i++) {
        free(m->model_name[i]);
        m->model_name[i] = NULL;
        free(m->tokenize_model[i]);
        m->tokenize_model[i] = NULL;
    }
}

void kvr_router_metrics_tokenize_fallback(kvr_router_metrics_t *m, const char *model,
                                          kvr_tokenize_result_t reason)
{
    for (size_t i = 0; model && kvr_model_name_plain(model) && reason < KVR_TOKENIZE_N_REASONS &&
                       i < KVR_METRICS_MAX_MODELS;
         i++) {
        if (!m->tokenize_model[i])
            m->tokenize_model[i] = kvr_xstrdup(model);
        if (strcmp(m->tokenize_model[i], model) == 0) {
            m->tokenize_fallbacks[i][reason]++;
            return;
        }
    }
    m->tokenize_fallbacks_other++;
}

void kvr_router_metrics_prompt(kvr_router_metrics_t *m, uint32_t prompt_tokens, bool exact)
{
    m->prompt_tokens_total[exact] += prompt_tokens;
    m->prompt_requests_total[exact]++;
}

void kvr_router_metrics_model(kvr_router_metrics_t *m, const char *name)
{
    for (size_t i = 0; name && i < KVR_METRICS_MAX_MODELS; i++) {
        if (!m->model_name[i])
            m->model_name[i] = kvr_xstrdup(name);
        if (strcmp(m->model_name[i], name) == 0) {
            m->model_requests[i]++;
            return;
        }
    }
    m->model_other++;
}

void kvr_histogram_observe(kvr_histogram_t *h, double seconds)
{
    kvr_prom_histogram_observe(h->buckets, bucket_bounds, KVR_HIST_BUCKETS - 1, seconds);
    h->count++;
    h->sum += seconds;
}

void kvr_router_metrics_selection(kvr_router_metrics_t *m, uint32_t engine_index,
                                  const char *reason)
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

/* ---- text ---- */

static void counter(kvr_prom_writer_t *w, const char *name, const char *help, uint64_t v)
{
    kvr_prom_family(w, name, KVR_PROM_COUNTER, help);
    kvr_prom_sample_u64(w, name, NULL, 0, v);
}

/* One sample per value of one label: name{label="names[i]"} values[i]. */
static void counter_by(kvr_prom_writer_t *w, const char *name, const char *help, const char *label,
                       const char *const *names, const uint64_t *values, size_t n)
{
    kvr_prom_family(w, name, KVR_PROM_COUNTER, help);
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {label, names[i]};
        kvr_prom_sample_u64(w, name, &l, 1, values[i]);
    }
}

static void histogram(kvr_prom_writer_t *w, const char *name, const char *help,
                      const kvr_histogram_t *h)
{
    kvr_prom_family(w, name, KVR_PROM_HISTOGRAM, help);
    kvr_prom_histogram(w, name, NULL, 0, bucket_bounds, KVR_HIST_BUCKETS - 1, h->buckets, h->sum);
}

typedef struct engine_snapshot_s {
    kvr_engine_t *e;
    kvr_engine_view_t v;
    kvr_feed_state_t state;
} engine_snapshot_t;

static size_t snapshot(const kvr_metrics_view_t *r, engine_snapshot_t *snaps)
{
    uint64_t now = kvr_clock_now_ns();
    kvr_decide_refresh_feed(r->decider, now);
    size_t n = 0;
    for (uint32_t i = 0; i < r->decider->engines.n_slots; i++) {
        kvr_engine_t *e = r->decider->engines.engines[i];
        if (!e || (e->removed && e->shadow_requests == 0))
            continue;
        snaps[n].e = e;
        snaps[n].state = kvr_decide_view(r->decider, e, now, &snaps[n].v);
        n++;
    }
    return n;
}

/* A per-engine family of shadow, real (fresh feed only) and eff values. */
static void engine_kinds(kvr_prom_writer_t *w, const char *name, const char *help,
                         engine_snapshot_t *s, size_t n, size_t field)
{
    static const char *const kinds[] = {"shadow", "real", "eff"};
    kvr_prom_family(w, name, KVR_PROM_GAUGE, help);
    for (size_t i = 0; i < n; i++) {
        const kvr_engine_view_t *v = &s[i].v;
        uint64_t vals[3][3] = {
            {v->shadow_requests, (uint64_t)v->real_running + v->real_waiting, v->eff_requests},
            {v->shadow_pending_prefill_tokens, v->real_pending_prefill_tokens,
             v->eff_pending_prefill_tokens},
            {v->shadow_kv_tokens, v->real_kv_tokens, v->eff_kv_tokens},
        };
        for (int k = 0; k < 3; k++) {
            if (k == 1 && !v->feed_fresh)
                continue;
            kvr_prom_label_t l[] = {{"engine", s[i].e->id}, {"kind", kinds[k]}};
            kvr_prom_sample_u64(w, name, l, 2, vals[field][k]);
        }
    }
}

static void engine_gauges(kvr_prom_writer_t *w, engine_snapshot_t *s, size_t n)
{
    engine_kinds(
        w, "kvroute_engine_requests",
        "requests per engine: shadow (dispatched here, not finished), real (feed, running+waiting), eff (used for routing)",
        s, n, 0);
    engine_kinds(w, "kvroute_engine_pending_prefill_tokens",
                 "prompt tokens not yet prefilled, per engine and kind", s, n, 1);
    engine_kinds(w, "kvroute_engine_kv_tokens", "KV cache tokens held, per engine and kind", s, n,
                 2);
    kvr_prom_family(w, "kvroute_engine_healthy", KVR_PROM_GAUGE,
                    "1 when the engine is in the candidate set");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        kvr_prom_sample_i64(w, "kvroute_engine_healthy", &l, 1, kvr_engine_is_candidate(s[i].e));
    }
    kvr_prom_family(w, "kvroute_engine_role", KVR_PROM_GAUGE,
                    "1 for the engine's role= (prefill, decode or both)");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l[2] = {{"engine", s[i].e->id},
                                 {"role", kvr_engine_role_name(s[i].e->role)}};
        kvr_prom_sample_i64(w, "kvroute_engine_role", l, 2, 1);
    }
    kvr_prom_family(w, "kvroute_engine_feed_fresh", KVR_PROM_GAUGE,
                    "1 when the engine's feed slot is fresh (ES=1)");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        kvr_prom_sample_i64(w, "kvroute_engine_feed_fresh", &l, 1, s[i].v.feed_fresh);
    }
    kvr_prom_family(w, "kvroute_engine_feed_age_seconds", KVR_PROM_GAUGE,
                    "age of the engine's feed sample (ES=1, slot present)");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        if (s[i].v.feed_age_ns)
            kvr_prom_sample(w, "kvroute_engine_feed_age_seconds", &l, 1,
                            (double)s[i].v.feed_age_ns / 1e9);
    }
    kvr_prom_family(
        w, "kvroute_engine_reconcile_drift", KVR_PROM_GAUGE,
        "ES=0: shadow requests minus the engine's own running + waiting at the last /metrics reconciliation");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        if (s[i].e->reconciled_ns)
            kvr_prom_sample_i64(w, "kvroute_engine_reconcile_drift", &l, 1,
                                (int64_t)s[i].e->reconcile_drift);
    }
    kvr_prom_family(w, "kvroute_engine_dispatched_total", KVR_PROM_COUNTER,
                    "requests dispatched to the engine, retries included");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        kvr_prom_sample_u64(w, "kvroute_engine_dispatched_total", &l, 1, s[i].e->dispatched_total);
    }
    kvr_prom_family(
        w, "kvroute_engine_models", KVR_PROM_GAUGE,
        "models the engine lists (pinned or from its /v1/models); 0 = not known yet, serves any");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        kvr_prom_sample_u64(w, "kvroute_engine_models", &l, 1, s[i].e->models.n);
    }
    kvr_prom_family(
        w, "kvroute_engine_serves_model", KVR_PROM_GAUGE,
        "1 per model the engine lists (models whose name is not plain printable ASCII are left out)");
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < s[i].e->models.n; k++) {
            if (!kvr_model_name_plain(s[i].e->models.names[k]))
                continue;
            kvr_prom_label_t l[] = {{"engine", s[i].e->id}, {"model", s[i].e->models.names[k]}};
            kvr_prom_sample_u64(w, "kvroute_engine_serves_model", l, 2, 1);
        }
    }
    kvr_prom_family(
        w, "kvroute_engine_models_failures_total", KVR_PROM_COUNTER,
        "/v1/models refreshes that failed or listed nothing (the last known list is kept)");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        kvr_prom_sample_u64(w, "kvroute_engine_models_failures_total", &l, 1,
                            s[i].e->models_failures_total);
    }
    kvr_prom_family(w, "kvroute_engine_failures_total", KVR_PROM_COUNTER,
                    "connect failures, failed health checks and upstream errors");
    for (size_t i = 0; i < n; i++) {
        kvr_prom_label_t l = {"engine", s[i].e->id};
        kvr_prom_sample_u64(w, "kvroute_engine_failures_total", &l, 1, s[i].e->failures_total);
    }
}

char *kvr_router_render_metrics(const kvr_metrics_view_t *r, size_t *len)
{
    kvr_buf_t out = KVR_BUF_INIT;
    (void)kvr_buf_reserve(&out, 16384);
    kvr_prom_writer_t pw, *w = &pw;
    kvr_prom_writer_init(w, &out, KVR_PROM_STYLE_GO);
    const kvr_router_metrics_t *m = r->metrics;

    kvr_prom_family(w, "kvroute_requests_total", KVR_PROM_COUNTER,
                    "proxied requests by final status");
    for (int s = 0; s < KVR_METRICS_MAX_STATUS; s++) {
        if (!m->requests_by_status[s])
            continue;
        char status[16];
        snprintf(status, sizeof status, "%d", s);
        kvr_prom_label_t l = {"status", status};
        kvr_prom_sample_u64(w, "kvroute_requests_total", &l, 1, m->requests_by_status[s]);
    }
    kvr_prom_family(w, "kvroute_model_requests_total", KVR_PROM_COUNTER,
                    "requests by the model pool they were routed in (served models only)");
    for (size_t i = 0; i < KVR_METRICS_MAX_MODELS && m->model_name[i]; i++) {
        kvr_prom_label_t l = {"model", m->model_name[i]};
        kvr_prom_sample_u64(w, "kvroute_model_requests_total", &l, 1, m->model_requests[i]);
    }
    counter(w, "kvroute_model_requests_other_total",
            "requests for a model no engine lists, with no model, or past the model label limit",
            m->model_other);
    if (r->turn_cache) {
        kvr_turn_cache_stats_t tc;
        kvr_turn_cache_stats(r->turn_cache, &tc);
        counter(w, "kvroute_tokenize_cache_hits_total",
                "chat prompt parts (a turn's text between added tokens) taken from the turn cache",
                tc.hits);
        counter(w, "kvroute_tokenize_cache_misses_total",
                "chat prompt parts tokenized (and kept) because the turn cache had no such prefix",
                tc.misses);
        counter(w, "kvroute_tokenize_cache_hit_text_bytes_total",
                "prompt text whose tokens came from the turn cache", tc.hit_text_bytes);
        counter(w, "kvroute_tokenize_cache_miss_text_bytes_total",
                "prompt text tokenized with the turn cache on", tc.miss_text_bytes);
        counter(w, "kvroute_tokenize_cache_evictions_total",
                "parts dropped from the turn cache to stay within --tokenize-cache-mb",
                tc.evictions);
        kvr_prom_family(w, "kvroute_tokenize_cache_bytes", KVR_PROM_GAUGE,
                        "memory the turn cache holds (bounded by --tokenize-cache-mb)");
        kvr_prom_sample_u64(w, "kvroute_tokenize_cache_bytes", NULL, 0, tc.bytes);
    }
    kvr_prom_family(w, "kvroute_tokenize_fallbacks_total", KVR_PROM_COUNTER,
                    "requests of a --tokenizer model keyed on text (bytes/4 tokens) after all: "
                    "no_template, template (render failed), tokenizer, prompt_batch");
    for (size_t i = 0; i < KVR_METRICS_MAX_MODELS && m->tokenize_model[i]; i++)
        for (int k = 1; k < KVR_TOKENIZE_N_REASONS; k++) {
            kvr_prom_label_t l[] = {{"model", m->tokenize_model[i]},
                                    {"reason", kvr_tokenize_reason_name(k)}};
            kvr_prom_sample_u64(w, "kvroute_tokenize_fallbacks_total", l, 2,
                                m->tokenize_fallbacks[i][k]);
        }
    counter(w, "kvroute_tokenize_fallbacks_other_total",
            "tokenize fallbacks of a model whose name cannot be a label, or past the label limit",
            m->tokenize_fallbacks_other);
    kvr_prom_family(w, "kvroute_prompt_tokens_total", KVR_PROM_COUNTER,
                    "prompt tokens of routed requests: count=exact by the model's tokenizer, "
                    "estimated as bytes/4");
    for (int exact = 1; exact >= 0; exact--) {
        kvr_prom_label_t l = {"count", exact ? "exact" : "estimated"};
        kvr_prom_sample_u64(w, "kvroute_prompt_tokens_total", &l, 1, m->prompt_tokens_total[exact]);
    }
    kvr_prom_family(w, "kvroute_prompt_requests_total", KVR_PROM_COUNTER,
                    "routed requests by how their prompt tokens were counted");
    for (int exact = 1; exact >= 0; exact--) {
        kvr_prom_label_t l = {"count", exact ? "exact" : "estimated"};
        kvr_prom_sample_u64(w, "kvroute_prompt_requests_total", &l, 1,
                            m->prompt_requests_total[exact]);
    }
    counter(w, "kvroute_model_not_found_total", "requests answered 404 model_not_found",
            m->model_not_found_total);
    counter(w, "kvroute_model_missing_total",
            "requests without a model answered 400 because several models are served",
            m->model_ambiguous_total);
    kvr_prom_family(w, "kvroute_selections_total", KVR_PROM_COUNTER,
                    "routing decisions by engine, policy and reason");
    for (uint32_t i = 0; i < r->decider->engines.n_slots; i++) {
        kvr_selection_counts_t *s = &m->selections[i];
        if (!r->decider->engines.engines[i])
            continue; /* a freed index: its counts go with it when the index is reused */
        for (size_t k = 0; k < KVR_METRICS_MAX_REASONS && s->reason[k]; k++) {
            kvr_prom_label_t l[] = {{"engine", r->decider->engines.engines[i]->id},
                                    {"policy", r->cfg->policy},
                                    {"reason", s->reason[k]}};
            kvr_prom_sample_u64(w, "kvroute_selections_total", l, 3, s->count[k]);
        }
    }
    static const char *const causes[] = {"connect", "status_5xx", "reset", "first_byte_timeout"};
    counter_by(w, "kvroute_retries_total", "requests retried on another engine, by cause", "cause",
               causes, m->retries_total, KVR_RETRY_N_CAUSES);
    static const char *const kinds[] = {"connect", "first_byte", "idle"};
    counter_by(w, "kvroute_upstream_timeouts_total", "upstream timeouts by kind", "kind", kinds,
               m->timeouts_total, KVR_TIMEOUT_N_KINDS);
    if (r->server)
        kvr_http_server_write_metrics(r->server, w, "kvroute");
    counter(w, "kvroute_client_aborts_total", "clients that went away before their response ended",
            m->client_aborts_total);
    {
        static const char *const phases[] = {"prefill", "decode"};
        counter_by(w, "kvroute_pd_requests_total",
                   "disaggregated attempts sent to a prefill or decode engine, by phase", "phase",
                   phases, m->pd_requests_total, 2);
        counter_by(w, "kvroute_pd_failures_total",
                   "disaggregated requests that failed, by the phase they failed in", "phase",
                   phases, m->pd_failures_total, 2);
        counter_by(w, "kvroute_pd_retries_total",
                   "disaggregated requests retried with a fresh prefill, by the phase that failed",
                   "phase", phases, m->pd_retries_total, 2);
    }
    counter(
        w, "kvroute_pd_transfer_timeouts_total",
        "decode engines that did not answer within --pd-transfer-timeout-ms (the KV never came)",
        m->pd_transfer_timeouts_total);
    counter(
        w, "kvroute_pd_unpaired_total",
        "requests refused 503: the model had prefill engines but no decode engine, or the reverse",
        m->pd_unpaired_total);
    counter(w, "kvroute_upstream_cut_total",
            "responses cut short by an engine after bytes reached the client",
            m->upstream_cut_total);
    counter(w, "kvroute_shutdown_cuts_total",
            "requests ended by a shutdown that could not wait (drain timeout, second signal): an "
            "SSE error event or a 503",
            m->shutdown_cuts_total);
    counter(w, "kvroute_no_candidate_total", "decisions that found no healthy engine",
            m->no_candidate_total);
    counter(w, "kvroute_pressure_fallback_total",
            "cache_aware decisions that fell back fleet-wide for lack of caps",
            m->pressure_fallback_total);
    counter(w, "kvroute_policy_input_clamped_total",
            "ttft decisions that clamped an absurd feed value or learned figure",
            m->input_clamped_total);
    counter(w, "kvroute_log_lines_dropped_total",
            "log lines dropped because stderr did not keep up", kvr_log_dropped_total());
    kvr_prom_family(w, "kvroute_config_reloads_total", KVR_PROM_COUNTER,
                    "SIGHUP readings of --config: ok, partial (some changed settings need a "
                    "restart, logged reload_ignored), failed (nothing changed)");
    static const char *const reload_results[KVR_RELOAD_N_RESULTS] = {"ok", "partial", "failed"};
    for (int k = 0; k < KVR_RELOAD_N_RESULTS; k++) {
        kvr_prom_label_t l = {"result", reload_results[k]};
        kvr_prom_sample_u64(w, "kvroute_config_reloads_total", &l, 1, m->config_reloads_total[k]);
    }
    kvr_prom_family(w, "kvroute_in_flight", KVR_PROM_GAUGE, "proxied requests not finished");
    kvr_prom_sample_u64(w, "kvroute_in_flight", NULL, 0, *r->in_flight);
    histogram(w, "kvroute_ttft_seconds", "time to the first response byte, measured at the router",
              &m->ttft);
    histogram(w, "kvroute_request_duration_seconds", "request arrival to the last response byte",
              &m->e2e);

    kvr_prom_family(w, "kvroute_sessions", KVR_PROM_GAUGE, "session pins held (oneshot placement)");
    kvr_prom_sample_u64(w, "kvroute_sessions", NULL, 0, r->decider->sessions.count);
    static const char *const placements[] = {"new", "replaced", "migrated"};
    uint64_t placed[] = {m->sessions_placed_total, m->sessions_replaced_total,
                         m->sessions_migrated_total};
    counter_by(w, "kvroute_session_placements_total",
               "session placements: new, replaced (pin unhealthy), migrated (pin overloaded)",
               "kind", placements, placed, 3);
    static const char *const whys[] = {"ttl", "capacity"};
    uint64_t dropped[] = {r->decider->sessions.expired_total, r->decider->sessions.evicted_total};
    counter_by(w, "kvroute_sessions_dropped_total",
               "session pins forgotten: idle past the TTL or over --max-sessions", "why", whys,
               dropped, 2);

    kvr_admission_stats_t as;
    kvr_admission_stats(r->decider->admission, &as);
    static const char *const verdicts[] = {"admitted", "seed_lease", "rejected", "would_reject"};
    uint64_t verdict_counts[] = {as.admitted, as.seed_leases, as.rejected, as.shadow_would_reject};
    counter_by(w, "kvroute_admission_total", "admission verdicts", "verdict", verdicts,
               verdict_counts, 4);

    kvr_prom_family(w, "kvroute_feed_enabled", KVR_PROM_GAUGE,
                    "1 when the router reads the statefeed segment (ES=1)");
    kvr_prom_sample_i64(w, "kvroute_feed_enabled", NULL, 0, r->decider->feed.enabled);
    kvr_prom_family(
        w, "kvroute_feed_reads_total", KVR_PROM_COUNTER,
        "per-engine feed reads at decisions, by outcome (fresh, or why shadow was used)");
    uint64_t stale = 0;
    for (int s = 0; s < KVR_FEED_N_STATES; s++) {
        kvr_prom_label_t l = {"state", kvr_feed_state_name((kvr_feed_state_t)s)};
        kvr_prom_sample_u64(w, "kvroute_feed_reads_total", &l, 1,
                            r->decider->feed.fallbacks_total[s]);
        if (s != KVR_FEED_FRESH)
            stale += r->decider->feed.fallbacks_total[s];
    }
    counter(w, "kvroute_feed_stale_fallbacks_total",
            "per-engine decisions that used shadow only because the feed was stale or missing",
            stale);
    counter(w, "kvroute_feed_opens_total", "times the segment was (re)opened",
            r->decider->feed.opens_total);
    counter(
        w, "kvroute_feed_segment_changes_total",
        "times the mapped segment was found shrunk, changed in its geometry or replaced, and dropped",
        r->decider->feed.changes_total);
    const kvr_cache_state_t *cs = &r->decider->cache;
    if (cs->mode != KVR_CACHE_STATE_OWN) {
        counter(w, "kvroute_cache_state_lookups_total",
                "residency table lookups (--cache-state) of requests' token blocks",
                cs->lookups_total);
        static const char *const sources[] = {"own", "events"};
        counter_by(w, "kvroute_cache_state_hits_total",
                   "candidates with a prefix match at a decision, by where the match came from",
                   "source", sources, cs->hits_total, 2);
        uint64_t fallbacks[] = {cs->no_tokens_total, cs->table_down_total};
        static const char *const why[] = {"no_token_hashes", "table_unavailable"};
        counter_by(w, "kvroute_cache_state_fallbacks_total",
                   "decisions the residency table did not serve: the request had no token "
                   "hashes, or the table was missing, stale or another writer's",
                   "reason", why, fallbacks, 2);
        counter(w, "kvroute_cache_state_stale_slots_total",
                "candidates the residency table was not read for: their state-segment slot was "
                "stale, unhealthy or not theirs",
                cs->stale_slots_total);
        counter(w, "kvroute_cache_state_untrusted_total",
                "candidates of lookups whose blocks the table did not vouch for (fresh slot, "
                "engine untrusted)",
                cs->untrusted_total);
        kvr_prom_family(w, "kvroute_cache_state_untrusted_engines", KVR_PROM_GAUGE,
                        "candidates of the last lookup whose blocks the table does not vouch for");
        kvr_prom_sample_u64(w, "kvroute_cache_state_untrusted_engines", NULL, 0,
                            cs->untrusted_engines);
        kvr_prom_family(w, "kvroute_cache_state_table_open", KVR_PROM_GAUGE,
                        "1 while the residency table is mapped");
        kvr_prom_sample_i64(w, "kvroute_cache_state_table_open", NULL, 0, cs->open);
    }
    if (r->share) {
        const kvr_share_t *s = r->share;
        kvr_prom_family(w, "kvroute_share_open", KVR_PROM_GAUGE,
                        "1 while this router holds a row of the --share segment");
        kvr_prom_sample(w, "kvroute_share_open", NULL, 0, s->open ? 1 : 0);
        kvr_prom_family(w, "kvroute_share_rows_live", KVR_PROM_GAUGE,
                        "other routers whose charge the last decision counted");
        kvr_prom_sample(w, "kvroute_share_rows_live", NULL, 0, s->rows_live);
        kvr_prom_family(
            w, "kvroute_share_rows_stale", KVR_PROM_GAUGE,
            "other routers ignored at the last decision: heartbeat older than --share-max-age-ms");
        kvr_prom_sample(w, "kvroute_share_rows_stale", NULL, 0, s->rows_stale);
        counter(w, "kvroute_share_rows_busy_total",
                "row reads skipped: the writer was mid-write for every attempt (or died mid-write)",
                s->rows_busy_total);
        counter(w, "kvroute_share_rows_bad_total",
                "row reads skipped: payload of another owner or past the row", s->rows_bad_total);
        counter(w, "kvroute_share_ring_applied_total",
                "other routers' placements applied to the prefix index and pins",
                s->ring_applied_total);
        counter(w, "kvroute_share_ring_lost_total",
                "placements overwritten before this router read them", s->ring_lost_total);
        counter(w, "kvroute_share_ring_torn_total",
                "placements skipped: torn, or never completed by their writer", s->ring_torn_total);
        counter(w, "kvroute_share_ring_dropped_total", "own placements the ring could not take",
                s->ring_dropped_total);
        counter(w, "kvroute_share_pins_applied_total",
                "sessions re-pinned here to follow another router's pin", s->pins_applied_total);
        counter(w, "kvroute_share_fallbacks_total",
                "faults that left this router on its own shadow counters", s->fallbacks_total);
        counter(w, "kvroute_share_publishes_total", "writes of this router's row",
                s->publishes_total);
    }
    if (r->decider->feed.open) {
        kvr_prom_family(w, "kvroute_feed_heartbeat_age_seconds", KVR_PROM_GAUGE,
                        "age of the statefeed writer's heartbeat");
        kvr_prom_sample(w, "kvroute_feed_heartbeat_age_seconds", NULL, 0,
                        (double)r->decider->feed.last_heartbeat_age_ns / 1e9);
    }
    counter(w, "kvroute_reconcile_runs_total",
            "ES=0 reconciliations of shadow counters against engine /metrics",
            m->reconcile_runs_total);
    counter(w, "kvroute_reconcile_failures_total", "ES=0 /metrics scrapes that failed",
            m->reconcile_failures_total);

    if (r->more)
        r->more(r->more_ctx, w);

    engine_snapshot_t *snaps = kvr_xmalloc((r->decider->engines.n_slots + 1) * sizeof *snaps);
    size_t n = snapshot(r, snaps);
    engine_gauges(w, snaps, n);
    free(snaps);
    return kvr_buf_release(&out, len);
}

static void add_real(cJSON *o, const char *name, double v)
{
    char buf[KVR_JSON_REAL_MAX];
    cJSON_AddRawToObject(o, name, kvr_json_format_real(buf, v)); /* "3.0", not cJSON's "3" */
}

static void render_engine(cJSON *arr, const kvr_metrics_view_t *r, const engine_snapshot_t *snap)
{
    const kvr_engine_view_t *v = &snap->v;
    kvr_engine_t *e = snap->e;
    uint32_t idle = 0, busy = 0;
    const kvr_upstream_pool_t *pool = (r->pools && e->index < r->decider->engines.max_engines
                                           ? r->pools[e->index]
                                           : NULL);
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
    cJSON_AddStringToObject(o, "role", kvr_engine_role_name(e->role));
    if (e->bootstrap_port)
        cJSON_AddNumberToObject(o, "bootstrap_port", e->bootstrap_port);
    else
        cJSON_AddNullToObject(o, "bootstrap_port");
    cJSON_AddStringToObject(o, "models_source",
                            e->models_pinned ? "pinned"
                            : e->models.n    ? "learned"
                                             : "unknown");
    cJSON *models = cJSON_AddArrayToObject(o, "models");
    for (size_t k = 0; models && k < e->models.n; k++) {
        char safe[KVR_MODEL_SAFE_MAX];
        cJSON_AddItemToArray(
            models, cJSON_CreateString(kvr_model_name_safe(e->models.names[k], safe, sizeof safe)));
    }
    cJSON_AddNumberToObject(o, "consecutive_failures", (double)e->consecutive_failures);
    cJSON *shadow = cJSON_AddObjectToObject(o, "shadow");
    cJSON_AddNumberToObject(shadow, "requests", (double)v->shadow_requests);
    cJSON_AddNumberToObject(shadow, "pending_prefill_tokens",
                            (double)v->shadow_pending_prefill_tokens);
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
    cJSON_AddNumberToObject(upstream, "idle", (double)idle);
    cJSON_AddNumberToObject(upstream, "busy", (double)busy);
    if (v->feed_fresh) {
        cJSON *real = cJSON_AddObjectToObject(o, "real");
        cJSON_AddNumberToObject(real, "running", (double)v->real_running);
        cJSON_AddNumberToObject(real, "waiting", (double)v->real_waiting);
        cJSON_AddNumberToObject(real, "pending_prefill_tokens",
                                (double)v->real_pending_prefill_tokens);
        cJSON_AddNumberToObject(real, "kv_tokens", (double)v->real_kv_tokens);
        cJSON_AddNumberToObject(real, "max_running", (double)v->max_running);
        cJSON_AddBoolToObject(real, "caps_complete", v->caps_complete);
        if (real)
            add_real(real, "kv_usage", v->kv_usage);
    } else {
        cJSON_AddNullToObject(o, "real");
    }
    cJSON_AddStringToObject(o, "feed",
                            r->decider->feed.enabled ? kvr_feed_state_name(snap->state) : "off");
    if (v->feed_age_ns)
        add_real(o, "feed_age_ms", (double)v->feed_age_ns / 1e6);
    else
        cJSON_AddNullToObject(o, "feed_age_ms");
    cJSON_AddNumberToObject(o, "sessions",
                            (double)kvr_sessions_count_on(&r->decider->sessions, e->index));
}

char *kvr_router_render_engines(const kvr_metrics_view_t *r, size_t *len)
{
    engine_snapshot_t *snaps = kvr_xmalloc((r->decider->engines.n_slots + 1) * sizeof *snaps);
    size_t n = snapshot(r, snaps);
    cJSON *doc = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(doc, "engines");
    for (size_t i = 0; arr && i < n; i++)
        render_engine(arr, r, &snaps[i]);
    free(snaps);
    cJSON_AddStringToObject(doc, "policy", r->cfg->policy);
    cJSON_AddStringToObject(doc, "placement", kvr_placement_name(r->cfg->placement));
    cJSON_AddBoolToObject(doc, "es", r->cfg->es);
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
