/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_ROUTER_METRICS_H
#define KVR_ROUTER_METRICS_H

/*
 * The router's own counters and histograms, rendered as Prometheus text by
 * kvr_router_render_metrics() together with the live per-engine gauges.
 */

#include <stddef.h>
#include <stdint.h>

#include "common/prom_writer.h"
#include "router/keys.h"
#include "router/policy.h"

#define KVR_HIST_BUCKETS 16
#define KVR_METRICS_MAX_REASONS 24
#define KVR_METRICS_MAX_STATUS 600
#define KVR_METRICS_MAX_MODELS 64 /* model labels; requests for more models count as other */

typedef struct kvr_histogram_s {
    uint64_t buckets[KVR_HIST_BUCKETS]; /* cumulative only when rendered */
    uint64_t count;
    double sum;
} kvr_histogram_t;

typedef struct kvr_selection_counts_s {
    const char *reason[KVR_METRICS_MAX_REASONS]; /* static labels from policies and the core */
    uint64_t count[KVR_METRICS_MAX_REASONS];
} kvr_selection_counts_t;

typedef enum {
    KVR_RETRY_CONNECT = 0, /* connect refused / failed / timed out */
    KVR_RETRY_STATUS_5XX,  /* the engine answered 5xx before any byte went to the client */
    KVR_RETRY_RESET,       /* the connection died before any byte went to the client */
    KVR_RETRY_FIRST_BYTE,  /* the engine stayed silent past --first-byte-timeout-ms */
    KVR_RETRY_N_CAUSES,
} kvr_retry_cause_t;

typedef enum {
    KVR_TIMEOUT_CONNECT = 0,
    KVR_TIMEOUT_FIRST_BYTE,
    KVR_TIMEOUT_IDLE,
    KVR_TIMEOUT_N_KINDS,
} kvr_timeout_kind_t;

/* What a SIGHUP's reading of --config came to: kvroute_config_reloads_total{result}. */
typedef enum {
    KVR_RELOAD_OK,      /* applied */
    KVR_RELOAD_PARTIAL, /* applied, some changed settings left as they are (reload_ignored) */
    KVR_RELOAD_FAILED,  /* the file did not read: nothing changed */
    KVR_RELOAD_N_RESULTS
} kvr_reload_result_t;

typedef struct kvr_router_metrics_s {
    uint64_t requests_by_status[KVR_METRICS_MAX_STATUS];
    kvr_selection_counts_t *selections; /* KVR_MAX_ENGINES entries */
    uint64_t retries_total[KVR_RETRY_N_CAUSES];
    uint64_t timeouts_total[KVR_TIMEOUT_N_KINDS];
    uint64_t client_aborts_total;  /* client went away mid request */
    uint64_t pd_requests_total[2]; /* disaggregated attempts sent, [0] prefill, [1] decode */
    uint64_t pd_failures_total[2]; /* disaggregated requests that failed in that phase */
    uint64_t pd_retries_total[2];  /* retried (with a fresh prefill) after failing in that phase */
    uint64_t pd_transfer_timeouts_total; /* a decode engine never answered: its KV did not come */
    uint64_t pd_unpaired_total; /* 503: a model with prefill but no decode engine, or the reverse */
    uint64_t upstream_cut_total;  /* engine failed after bytes flowed: stream ended */
    uint64_t shutdown_cuts_total; /* requests ended by a shutdown that could not wait for them */
    uint64_t no_candidate_total;
    uint64_t sessions_placed_total;   /* first placement of a session */
    uint64_t sessions_replaced_total; /* pin unhealthy or gone: placed again */
    uint64_t sessions_migrated_total; /* --migrate-load re-homing */
    uint64_t pressure_fallback_total; /* KVR_DECISION_PRESSURE_FALLBACK decisions */
    uint64_t input_clamped_total;     /* KVR_DECISION_INPUT_CLAMPED decisions */
    uint64_t reconcile_runs_total;
    uint64_t reconcile_failures_total;
    kvr_histogram_t ttft;
    kvr_histogram_t e2e;
    /* Requests by pool: a label only for served models with plain names, the rest in model_other. */
    char *model_name[KVR_METRICS_MAX_MODELS];
    uint64_t model_requests[KVR_METRICS_MAX_MODELS];
    uint64_t model_other;
    uint64_t model_not_found_total; /* 404 model_not_found */
    uint64_t model_ambiguous_total; /* 400: no model in the body, several served */
    /* Requests of a --tokenizer model keyed on text after all, by model and reason. */
    char *tokenize_model[KVR_METRICS_MAX_MODELS];
    uint64_t tokenize_fallbacks[KVR_METRICS_MAX_MODELS][KVR_TOKENIZE_N_REASONS];
    uint64_t tokenize_fallbacks_other; /* a model name that cannot be a label, or past the limit */
    uint64_t prompt_tokens_total[2];   /* [exact]: prompt tokens of routed requests */
    uint64_t prompt_requests_total[2]; /* [exact]: their count */
    uint64_t config_reloads_total[KVR_RELOAD_N_RESULTS]; /* SIGHUP readings of --config */
} kvr_router_metrics_t;

/** 0 or -ENOMEM. */
int kvr_router_metrics_init(kvr_router_metrics_t *m);
void kvr_router_metrics_close(kvr_router_metrics_t *m);
/** Adds one observation in seconds. */
void kvr_histogram_observe(kvr_histogram_t *h, double seconds);
/** Counts one selection of engine_index with reason. */
void kvr_router_metrics_selection(kvr_router_metrics_t *m, uint32_t engine_index,
                                  const char *reason);
/** Counts one tokenize fallback of model (a --tokenizer model) for reason. */
void kvr_router_metrics_tokenize_fallback(kvr_router_metrics_t *m, const char *model,
                                          kvr_tokenize_result_t reason);
/** Counts one request's prompt tokens, exact or estimated. */
void kvr_router_metrics_prompt(kvr_router_metrics_t *m, uint32_t prompt_tokens, bool exact);
/** Counts one request for served model name (NULL: not a served model with a plain name). */
void kvr_router_metrics_model(kvr_router_metrics_t *m, const char *name);
/** Counts one finished request by its final status. */
void kvr_router_metrics_status(kvr_router_metrics_t *m, int status);

struct kvr_decider_s;
struct kvr_share_s;
struct kvr_upstream_pool_s;
struct kvr_router_config_s;
struct kvr_http_server_s;

/** What /metrics and /engines read, filled by the router; nothing here is changed but the feed's refresh. */
typedef struct kvr_metrics_view_s {
    const struct kvr_router_config_s *cfg;
    struct kvr_decider_s *decider;            /* engines, feed, sessions, admission */
    struct kvr_upstream_pool_s *const *pools; /* one per engine index (engines.max_engines) */
    const struct kvr_share_s *share;          /* NULL when --share is off */
    const kvr_router_metrics_t *metrics;
    struct kvr_turn_cache_s *turn_cache; /* --tokenize-cache-mb, NULL: off */
    const uint32_t *in_flight;
    const struct kvr_http_server_s *server; /* its connection counts; NULL when not listening */
    void (*more)(void *ctx, kvr_prom_writer_t *w); /* further families (discovery's); may be NULL */
    void *more_ctx;
} kvr_metrics_view_t;

/** The whole /metrics page (malloc'ed, *len bytes). */
char *kvr_router_render_metrics(const kvr_metrics_view_t *view, size_t *len);
/** The /engines JSON document (malloc'ed, *len bytes). */
char *kvr_router_render_engines(const kvr_metrics_view_t *view, size_t *len);

#endif
