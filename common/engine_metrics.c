/* SPDX-License-Identifier: Apache-2.0 */
#include "common/engine_metrics.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/error.h"

/* 2^64 as a double: every double below it converts to uint64_t without overflow. */
#define TWO_POW_64 18446744073709551616.0

typedef enum {
    GAUGE_RUNNING,
    GAUGE_WAITING,
    GAUGE_KV_USAGE,
    GAUGE_UTILIZATION,
    GAUGE_KV_USED,
    GAUGE_KV_CAPACITY,
    GAUGE_CACHE_CONFIG, /* vLLM's info metric: capacity = num_gpu_blocks × block_size */
} gauge_t;

typedef struct gauge_name_s {
    const char *suffix;
    size_t len;
    gauge_t gauge;
} gauge_name_t;

#define GAUGE(suffix, gauge)                                                                       \
    {                                                                                              \
        suffix, sizeof(suffix) - 1, gauge                                                          \
    }

static const gauge_name_t vllm_gauges[] = {
    GAUGE("num_requests_running", GAUGE_RUNNING),   GAUGE("num_requests_waiting", GAUGE_WAITING),
    GAUGE("kv_cache_usage_perc", GAUGE_KV_USAGE),  /* a 0..1 fraction despite the name */
    GAUGE("gpu_cache_usage_perc", GAUGE_KV_USAGE), /* its name before vLLM 0.10 */
    GAUGE("cache_config_info", GAUGE_CACHE_CONFIG),
};

static const gauge_name_t sglang_gauges[] = {
    GAUGE("num_running_reqs", GAUGE_RUNNING), GAUGE("num_queue_reqs", GAUGE_WAITING),
    GAUGE("token_usage", GAUGE_KV_USAGE),     GAUGE("utilization", GAUGE_UTILIZATION),
    GAUGE("num_used_tokens", GAUGE_KV_USED),  GAUGE("max_total_num_tokens", GAUGE_KV_CAPACITY),
};

static int lookup(const gauge_name_t *table, size_t n, const char *suffix, size_t len, gauge_t *out)
{
    for (size_t i = 0; i < n; i++) {
        if (table[i].len == len && memcmp(table[i].suffix, suffix, len) == 0) {
            *out = table[i].gauge;
            return 1;
        }
    }
    return 0;
}

/* Which engine family and gauge a sample name (len bytes) is, if any. */
static int classify(const char *name, size_t len, kvr_engine_kind_t *kind, gauge_t *gauge)
{
    if (len > 5 && memcmp(name, "vllm:", 5) == 0) {
        *kind = KVR_ENGINE_KIND_VLLM;
        return lookup(vllm_gauges, sizeof(vllm_gauges) / sizeof(vllm_gauges[0]), name + 5, len - 5,
                      gauge);
    }
    if (len > 7 && (memcmp(name, "sglang:", 7) == 0 || memcmp(name, "sglang_", 7) == 0)) {
        *kind = KVR_ENGINE_KIND_SGLANG;
        return lookup(sglang_gauges, sizeof(sglang_gauges) / sizeof(sglang_gauges[0]), name + 7,
                      len - 7, gauge);
    }
    return 0;
}

/* kvr_prom_name_filter: histograms and counters of a page are skipped unparsed. */
static bool wanted(const char *name, size_t len, void *arg)
{
    (void)arg;
    kvr_engine_kind_t kind;
    gauge_t gauge;
    return classify(name, len, &kind, &gauge);
}

/* Counts a distinct engine / dp_rank label value as one more data-parallel rank. */
static void note_rank(kvr_engine_metrics_t *m, const kvr_prom_sample_t *s)
{
    const char *rank = kvr_prom_label(s, "dp_rank");
    if (!rank)
        rank = kvr_prom_label(s, "engine");
    if (!rank)
        return;
    char key[sizeof(m->rank_ids[0])];
    snprintf(key, sizeof(key), "%s", rank);
    for (size_t i = 0; i < m->rank_count; i++) {
        if (strcmp(m->rank_ids[i], key) == 0)
            return;
    }
    if (m->rank_count < KVR_ENGINE_METRICS_MAX_RANKS)
        memcpy(m->rank_ids[m->rank_count++], key, sizeof(key));
}

/* A label value that is a plain base-10 count fitting 64 bits (no sign, blank or suffix). */
static bool label_count(const char *text, uint64_t *out)
{
    if (!text || !(*text >= '0' && *text <= '9'))
        return false;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE || *end != '\0')
        return false;
    *out = v;
    return true;
}

/*
 * num_gpu_blocks × block_size from vllm:cache_config_info's labels; 0 when
 * absent or not counts ("None" before profiling). A product that overflows
 * 64 bits is returned as is (a double) and refused by finish like any other
 * capacity that does not fit.
 */
static double cache_config_capacity(const kvr_prom_sample_t *s)
{
    uint64_t blocks, block_size;
    if (!label_count(kvr_prom_label(s, "num_gpu_blocks"), &blocks) ||
        !label_count(kvr_prom_label(s, "block_size"), &block_size))
        return 0;
    return (double)blocks * (double)block_size;
}

/*
 * A series' identity: its name and its label set in any order, hashed. The
 * labels are sorted by name (at most KVR_PROM_MAX_LABELS, and the parser
 * refuses a name given twice), each piece hashed with its NUL so "ab"+"c"
 * and "a"+"bc" differ.
 */
static uint64_t series_hash(const kvr_prom_sample_t *s)
{
    const kvr_prom_label_t *sorted[KVR_PROM_MAX_LABELS];
    size_t n = s->label_count;
    for (size_t i = 0; i < n; i++) {
        const kvr_prom_label_t *l = &s->labels[i];
        size_t j = i;
        for (; j > 0 && strcmp(sorted[j - 1]->name, l->name) > 0; j--)
            sorted[j] = sorted[j - 1];
        sorted[j] = l;
    }
    uint64_t h = XXH3_64bits(s->name, strlen(s->name) + 1);
    for (size_t i = 0; i < n; i++) {
        h = XXH3_64bits_withSeed(sorted[i]->name, strlen(sorted[i]->name) + 1, h);
        h = XXH3_64bits_withSeed(sorted[i]->value, strlen(sorted[i]->value) + 1, h);
    }
    return h;
}

/* Records a recognised series; -EEXIST when it was already seen, -E2BIG when there are too many. */
static int note_series(kvr_engine_metrics_t *m, const kvr_prom_sample_t *s)
{
    uint64_t h = series_hash(s);
    for (size_t i = 0; i < m->series_count; i++) {
        if (m->series_hashes[i] == h)
            return -EEXIST;
    }
    if (m->series_count == KVR_ENGINE_METRICS_MAX_SERIES)
        return -E2BIG;
    m->series_hashes[m->series_count++] = h;
    return 0;
}

void kvr_engine_metrics_init(kvr_engine_metrics_t *m)
{
    memset(m, 0, sizeof(*m));
}

int kvr_engine_metrics_sample(const kvr_prom_sample_t *sample, void *arg)
{
    kvr_engine_metrics_t *m = arg;
    kvr_engine_kind_t kind;
    gauge_t gauge;
    if (!classify(sample->name, strlen(sample->name), &kind, &gauge))
        return 0;
    /* A negative or non-finite load is a broken engine, not a reading to route on. */
    if (!isfinite(sample->value) || sample->value < 0) {
        m->refused = "negative or non-finite engine gauge";
        return KVR_EPARSE;
    }
    int rc = note_series(m, sample);
    if (rc != 0) {
        m->refused = rc == -EEXIST ? "an engine series appears twice on the page"
                                   : "more engine series on the page than kvroute accepts";
        return KVR_EPARSE;
    }
    if (m->kind == KVR_ENGINE_KIND_UNKNOWN)
        m->kind = kind;
    else if (m->kind != kind)
        m->mixed_kinds = true;

    double v = sample->value;
    switch (gauge) {
    case GAUGE_RUNNING:
        m->running += v;
        m->has_running = true;
        break;
    case GAUGE_WAITING:
        m->waiting += v;
        m->has_waiting = true;
        break;
    case GAUGE_KV_USAGE:
        if (!m->has_kv_usage || v > m->kv_usage)
            m->kv_usage = v;
        m->has_kv_usage = true;
        break;
    case GAUGE_UTILIZATION:
        if (!m->has_utilization || v > m->utilization)
            m->utilization = v;
        m->has_utilization = true;
        break;
    case GAUGE_KV_USED:
        m->kv_tokens_used += v;
        m->has_kv_tokens_used = true;
        break;
    case GAUGE_KV_CAPACITY:
        m->kv_tokens_capacity += v;
        m->has_kv_tokens_capacity = true;
        break;
    case GAUGE_CACHE_CONFIG: {
        double capacity = cache_config_capacity(sample);
        if (capacity > 0) {
            m->kv_tokens_capacity += capacity;
            m->has_kv_tokens_capacity = true;
        }
        return 0; /* an info metric says nothing about ranks in use */
    }
    }
    note_rank(m, sample);
    return 0;
}

/* A request count: saturates, since a count too large can only make the engine look busier. */
static uint32_t to_u32(double v)
{
    if (!(v > 0))
        return 0;
    if (v >= (double)UINT32_MAX)
        return UINT32_MAX;
    return (uint32_t)llround(v);
}

/*
 * A token figure: false when it does not fit 64 bits. Not saturated: a
 * saturated capacity would make any usage ratio read as an empty engine.
 * (llround cannot be used: it overflows long long from 2^63 on.)
 */
static bool to_u64(double v, uint64_t *out)
{
    if (!(v > 0)) {
        *out = 0;
        return true;
    }
    double r = round(v);
    if (!(r < TWO_POW_64))
        return false;
    *out = (uint64_t)r;
    return true;
}

static double fraction(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

int kvr_engine_metrics_finish(const kvr_engine_metrics_t *m, kvr_engine_state_t *out,
                              const char **reason)
{
    if (!m->has_running && !m->has_waiting) {
        if (reason)
            *reason = "no running or waiting gauge on the page";
        return -ENODATA;
    }
    uint64_t capacity = 0, used = 0;
    double usage = m->has_kv_usage ? fraction(m->kv_usage) : 0;
    if ((m->has_kv_tokens_capacity && !to_u64(m->kv_tokens_capacity, &capacity)) ||
        !to_u64(m->has_kv_tokens_used ? m->kv_tokens_used : usage * (double)capacity, &used)) {
        if (reason)
            *reason = "a KV token gauge does not fit 64 bits";
        return KVR_EPARSE;
    }
    out->running = to_u32(m->running);
    out->waiting = to_u32(m->waiting);
    out->max_running = 0; /* Prometheus pages carry no batch caps */
    out->kv_tokens_capacity = capacity;
    out->kv_tokens_used = used;
    out->kv_usage = usage;
    if (!m->has_kv_usage && capacity > 0)
        out->kv_usage = fraction((double)used / (double)capacity);
    out->pending_prefill_tokens = 0;
    out->max_prefill_remaining = 0;
    out->utilization = m->has_utilization ? fraction(m->utilization) : 0;
    out->dp_ranks = m->rank_count ? (uint32_t)m->rank_count : 1;
    out->flags &= ~(KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_PENDING_PREFILL |
                    KVR_SLOT_HAS_UTILIZATION);
    if (m->has_utilization)
        out->flags |= KVR_SLOT_HAS_UTILIZATION;
    return 0;
}

int kvr_engine_metrics_parse(const char *text, size_t len, kvr_engine_state_t *out,
                             kvr_engine_kind_t *kind, kvr_prom_error_t *err)
{
    kvr_prom_error_t local;
    if (!err)
        err = &local;
    kvr_engine_metrics_t m;
    kvr_engine_metrics_init(&m);
    int rc = kvr_prom_parse_filtered(text, len, wanted, kvr_engine_metrics_sample, &m, err);
    if (rc == KVR_EPARSE && m.refused)
        err->reason = m.refused;
    if (rc != 0)
        return rc;
    kvr_engine_state_t next = *out;
    err->line = 0;
    rc = kvr_engine_metrics_finish(&m, &next, &err->reason);
    if (rc != 0)
        return rc;
    *out = next;
    if (kind)
        *kind = m.kind;
    return 0;
}

const char *kvr_engine_kind_name(kvr_engine_kind_t kind)
{
    switch (kind) {
    case KVR_ENGINE_KIND_VLLM: return "vllm";
    case KVR_ENGINE_KIND_SGLANG: return "sglang";
    default: return "unknown";
    }
}
