/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_ENGINE_METRICS_H
#define KVR_COMMON_ENGINE_METRICS_H

/*
 * Engine state from a vLLM or SGLang Prometheus /metrics page. Used by
 * kvroute-statefeed (scrape source) and by the router when the feed is off
 * (it reconciles its shadow counters against /metrics), so it depends on
 * nothing but the parser in prom.h.
 *
 * Recognised gauges (the page's kind is detected from the names):
 *   vLLM:   vllm:num_requests_running, vllm:num_requests_waiting,
 *           vllm:kv_cache_usage_perc (or the older vllm:gpu_cache_usage_perc)
 *   SGLang: num_running_reqs, num_queue_reqs, token_usage, utilization,
 *           num_used_tokens, max_total_num_tokens, with prefix "sglang:" or
 *           "sglang_"
 * Counts are summed over series (vLLM's `engine`, SGLang's `dp_rank` or any
 * other label split); usage fractions and utilization take the max. A page
 * carries no batch caps, so CAPS_COMPLETE is never set from here.
 *
 * A series (name and label set, in any label order) that appears twice is
 * refused: exporters never emit one, and summing it would double the load.
 * Token figures that do not fit 64 bits are refused too; request counts
 * beyond 32 bits saturate (they can only read busier than they are).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/prom.h"
#include "shm_layout/shm_layout.h"

#define KVR_ENGINE_METRICS_MAX_RANKS 64 /* distinct engine/dp_rank labels counted into dp_ranks */
#define KVR_ENGINE_METRICS_MAX_SERIES 2048 /* recognised series per page; more is refused */

typedef enum {
    KVR_ENGINE_KIND_UNKNOWN = 0, /* no recognised gauge seen yet */
    KVR_ENGINE_KIND_VLLM = 1,
    KVR_ENGINE_KIND_SGLANG = 2,
} kvr_engine_kind_t;

/** Accumulator over the samples of one page; plain data, no allocation. */
typedef struct kvr_engine_metrics_s {
    kvr_engine_kind_t kind;
    double running, waiting;                   /* sums over series */
    double kv_usage, utilization;              /* max over series, valid when has_* */
    double kv_tokens_used, kv_tokens_capacity; /* sums over series (SGLang only) */
    bool has_running, has_waiting, has_kv_usage, has_utilization;
    bool has_kv_tokens_used, has_kv_tokens_capacity;
    bool mixed_kinds;    /* both vllm and sglang gauges seen */
    const char *refused; /* static text: why a sample was refused, NULL until one is */
    size_t rank_count;
    char rank_ids[KVR_ENGINE_METRICS_MAX_RANKS][32]; /* distinct engine/dp_rank label values */
    size_t series_count;
    uint64_t series_hashes
        [KVR_ENGINE_METRICS_MAX_SERIES]; /* recognised series seen, to refuse repeats */
} kvr_engine_metrics_t;

/** Resets the accumulator. */
void kvr_engine_metrics_init(kvr_engine_metrics_t *m);

/**
 * Feeds one sample; usable directly as a kvr_prom_sample_cb with arg = m.
 * Returns 0, or KVR_EPARSE when a recognised gauge is negative or NaN
 * (a broken engine, not a load of zero), repeats a series already fed, or
 * the page has more than KVR_ENGINE_METRICS_MAX_SERIES recognised series.
 */
int kvr_engine_metrics_sample(const kvr_prom_sample_t *sample, void *m);

/**
 * Writes the accumulated state into out: running, waiting, max_running (0),
 * kv_tokens_used, kv_tokens_capacity (0 unless SGLang reports them),
 * kv_usage, pending_prefill_tokens (0), max_prefill_remaining (0),
 * utilization, dp_ranks, and the telemetry flags (CAPS_COMPLETE cleared,
 * HAS_PENDING_PREFILL cleared, HAS_UTILIZATION as seen). engine_id, times,
 * sample_seq, consecutive_failures, IN_USE, HEALTHY and the source bits are
 * left as they are, so a caller can start from the slot's current state.
 * Returns 0, -ENODATA when the page had neither a running nor a waiting
 * gauge (not an engine page, or an engine still starting), or KVR_EPARSE
 * when a token figure does not fit 64 bits, with *reason set (reason may be
 * NULL). On failure *out is untouched.
 */
int kvr_engine_metrics_finish(const kvr_engine_metrics_t *m, kvr_engine_state_t *out,
                              const char **reason);

/**
 * Convenience: parse a whole page and finish. Lines of other families are
 * skipped once their name is read (kvr_prom_parse_filtered), so a malformed
 * histogram line does not hide the gauges; text that is not a metrics page
 * fails on its first line. On failure *out is untouched.
 * Returns 0, KVR_EPARSE (err->line / err->reason say where), -ENODATA, -ENOMEM.
 * err may be NULL.
 */
int kvr_engine_metrics_parse(const char *text, size_t len, kvr_engine_state_t *out,
                             kvr_engine_kind_t *kind, kvr_prom_error_t *err);

/** "vllm", "sglang" or "unknown". */
const char *kvr_engine_kind_name(kvr_engine_kind_t kind);

#endif
