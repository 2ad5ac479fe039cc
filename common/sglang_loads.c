/* SPDX-License-Identifier: Apache-2.0 */
#include "common/sglang_loads.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

#define LOADS_MAX_RANKS 4096 /* more DP ranks than any deployment: treat as garbage */

/* Totals over the DP ranks of one answer. */
typedef struct loads_sum_s {
    uint64_t running, waiting, max_running;
    uint64_t kv_used, kv_capacity;
    uint64_t pending_prefill;
    double kv_usage, utilization;
    size_t ranks;
    size_t ranks_with_caps, ranks_with_total, ranks_with_utilization;
    bool has_kv_usage;
} loads_sum_t;

/* 2^64 as a double: every double below it converts to uint64_t without overflow. */
#define TWO_POW_64 18446744073709551616.0

/*
 * A non-negative whole count; reals with an integral value are accepted
 * (Python floats). NaN, infinities, negatives, fractions and values that do
 * not fit 64 bits are refused: no conversion is left undefined.
 */
static int get_count(const cJSON *rank, const char *key, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rank, key);
    if (!v)
        return -ENOENT;
    if (!cJSON_IsNumber(v))
        return KVR_EPARSE;
    double d = v->valuedouble;
    if (!(d >= 0 && d < TWO_POW_64) || d != floor(d))
        return KVR_EPARSE;
    *out = (uint64_t)d;
    return 0;
}

/*
 * Sums over ranks are checked: a wrapped sum would turn a flood into an idle
 * engine (two ranks of 2^63 running add up to 0), and a saturated one would
 * be a guess (a saturated capacity reads as empty), so an overflow refuses
 * the whole answer. No real engine comes near 2^64 of anything.
 */
static bool add_checked(uint64_t *sum, uint64_t v)
{
    return !__builtin_add_overflow(*sum, v, sum);
}

/* A 0..1 fraction; larger values are clamped (engines briefly over-commit), negatives rejected. */
static int get_fraction(const cJSON *rank, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(rank, key);
    if (!v || cJSON_IsNull(v))
        return -ENOENT;
    if (!cJSON_IsNumber(v))
        return KVR_EPARSE;
    double d = v->valuedouble;
    if (!(d >= 0) || !isfinite(d))
        return KVR_EPARSE;
    *out = d > 1 ? 1 : d;
    return 0;
}

/*
 * cJSON keeps duplicate keys and answers lookups with the first: a body that
 * names a count twice is ambiguous, so it is refused, as JSON parsers with
 * duplicate checks do. SGLang's objects have a few dozen keys; one with more
 * than LOADS_MAX_KEYS is refused outright, and the check sorts the names, so
 * an 8 MB object of distinct keys costs n log n, not n^2 string compares.
 */
#define LOADS_MAX_KEYS 512

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool has_duplicate_keys(const cJSON *object)
{
    const char *names[LOADS_MAX_KEYS];
    size_t n = 0;
    for (const cJSON *item = object->child; item; item = item->next) {
        if (n == LOADS_MAX_KEYS)
            return true; /* too many to be an SGLang answer: refused like a repeat */
        names[n++] = item->string ? item->string : "";
    }
    qsort(names, n, sizeof names[0], compare_names);
    for (size_t i = 1; i < n; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            return true;
    return false;
}

/* Optional count: absent is fine, present must be valid. */
static int get_optional_count(const cJSON *rank, const char *key, uint64_t *out, bool *present)
{
    int rc = get_count(rank, key, out);
    *present = rc == 0;
    if (rc == -ENOENT) {
        *out = 0;
        return 0;
    }
    return rc;
}

/* One rank of /v1/loads. */
static int add_loads_rank(loads_sum_t *sum, const cJSON *rank, const char **reason)
{
    uint64_t running, waiting, max_running = 0, used = 0, capacity = 0, total = 0;
    bool has_max_running, has_used, has_capacity, has_total;
    double fraction;
    if (!cJSON_IsObject(rank) || has_duplicate_keys(rank)) {
        *reason = "a loads[] entry is not an object with distinct keys (at most 512)";
        return KVR_EPARSE;
    }
    if (get_count(rank, "num_running_reqs", &running) != 0 ||
        get_count(rank, "num_waiting_reqs", &waiting) != 0) {
        *reason = "a rank lacks a valid num_running_reqs or num_waiting_reqs";
        return KVR_EPARSE;
    }
    if (get_optional_count(rank, "max_running_requests", &max_running, &has_max_running) ||
        get_optional_count(rank, "num_used_tokens", &used, &has_used) ||
        get_optional_count(rank, "max_total_num_tokens", &capacity, &has_capacity) ||
        get_optional_count(rank, "num_total_tokens", &total, &has_total)) {
        *reason = "a rank has a negative or non-numeric token or cap figure";
        return KVR_EPARSE;
    }
    if (!add_checked(&sum->running, running) || !add_checked(&sum->waiting, waiting) ||
        !add_checked(&sum->max_running, max_running) || !add_checked(&sum->kv_used, used) ||
        !add_checked(&sum->kv_capacity, capacity) ||
        /* num_total_tokens counts what is held plus what is admitted but not yet prefilled */
        !add_checked(&sum->pending_prefill, has_total && total > used ? total - used : 0)) {
        *reason = "a sum over DP ranks overflows 64 bits";
        return KVR_EPARSE;
    }
    if (has_max_running && max_running > 0)
        sum->ranks_with_caps++;
    if (has_total)
        sum->ranks_with_total++;
    int rc = get_fraction(rank, "token_usage", &fraction);
    if (rc == 0) {
        if (!sum->has_kv_usage || fraction > sum->kv_usage)
            sum->kv_usage = fraction;
        sum->has_kv_usage = true;
    } else if (rc != -ENOENT) {
        *reason = "a rank has an invalid token_usage";
        return KVR_EPARSE;
    }
    rc = get_fraction(rank, "utilization", &fraction);
    if (rc == 0) {
        if (!sum->ranks_with_utilization || fraction > sum->utilization)
            sum->utilization = fraction;
        sum->ranks_with_utilization++;
    } else if (rc != -ENOENT) {
        *reason = "a rank has an invalid utilization";
        return KVR_EPARSE;
    }
    sum->ranks++;
    return 0;
}

/*
 * One rank of the older /get_load: num_reqs counts running and waiting
 * together, num_tokens is the KV tokens held, and later releases add
 * num_pending_tokens (admitted, not yet prefilled).
 */
static int add_get_load_rank(loads_sum_t *sum, const cJSON *rank, const char **reason)
{
    uint64_t reqs, waiting, tokens = 0, pending = 0;
    bool has_tokens, has_pending;
    if (!cJSON_IsObject(rank) || has_duplicate_keys(rank)) {
        *reason = "a /get_load entry is not an object with distinct keys (at most 512)";
        return KVR_EPARSE;
    }
    if (get_count(rank, "num_reqs", &reqs) != 0 ||
        get_count(rank, "num_waiting_reqs", &waiting) != 0 ||
        get_optional_count(rank, "num_tokens", &tokens, &has_tokens) != 0 ||
        get_optional_count(rank, "num_pending_tokens", &pending, &has_pending) != 0) {
        *reason = "a /get_load entry lacks valid num_reqs or num_waiting_reqs";
        return KVR_EPARSE;
    }
    if (!add_checked(&sum->running, reqs > waiting ? reqs - waiting : 0) ||
        !add_checked(&sum->waiting, waiting) || !add_checked(&sum->kv_used, tokens) ||
        !add_checked(&sum->pending_prefill, pending)) {
        *reason = "a sum over DP ranks overflows 64 bits";
        return KVR_EPARSE;
    }
    if (has_pending)
        sum->ranks_with_total++;
    sum->ranks++;
    return 0;
}

static uint32_t clamp_u32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static void store(const loads_sum_t *sum, kvr_engine_state_t *out)
{
    out->running = clamp_u32(sum->running);
    out->waiting = clamp_u32(sum->waiting);
    out->max_running = clamp_u32(sum->max_running);
    out->kv_tokens_used = sum->kv_used;
    out->kv_tokens_capacity = sum->kv_capacity;
    if (sum->has_kv_usage)
        out->kv_usage = sum->kv_usage;
    else if (sum->kv_capacity > 0)
        out->kv_usage = fmin(1.0, (double)sum->kv_used / (double)sum->kv_capacity);
    else
        out->kv_usage = 0;
    out->pending_prefill_tokens = sum->pending_prefill;
    out->max_prefill_remaining = 0;
    out->utilization = sum->ranks_with_utilization ? sum->utilization : 0;
    out->dp_ranks = (uint32_t)sum->ranks;

    out->flags &= ~(KVR_SLOT_CAPS_COMPLETE | KVR_SLOT_HAS_UTILIZATION |
                    KVR_SLOT_HAS_PENDING_PREFILL);
    /* A rank without its cap would make any occupancy ratio a guess: all or nothing. */
    if (sum->ranks_with_caps == sum->ranks)
        out->flags |= KVR_SLOT_CAPS_COMPLETE;
    if (sum->ranks_with_utilization == sum->ranks)
        out->flags |= KVR_SLOT_HAS_UTILIZATION;
    if (sum->ranks_with_total == sum->ranks)
        out->flags |= KVR_SLOT_HAS_PENDING_PREFILL;
    else
        out->pending_prefill_tokens = 0;
}

/* Only blanks may follow the JSON value. */
static bool only_whitespace(const char *p, const char *end)
{
    for (; p < end; p++)
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
            return false;
    return true;
}

int kvr_sglang_loads_parse(const char *json, size_t len, kvr_engine_state_t *out,
                           const char **reason)
{
    const char *why = NULL;
    int rc = 0;
    const char *parse_end = NULL;
    cJSON *root = len ? cJSON_ParseWithLengthOpts(json, len, &parse_end, false) : NULL;
    if (!root) {
        why = "body is not valid JSON";
        rc = KVR_EPARSE;
        goto fail_parse;
    }
    if (!only_whitespace(parse_end, json + len)) {
        why = "body has bytes after the JSON value";
        rc = KVR_EPARSE;
        goto fail_shape;
    }
    if (cJSON_IsObject(root) && has_duplicate_keys(root)) {
        why = "body repeats a key or has more than 512";
        rc = KVR_EPARSE;
        goto fail_shape;
    }

    loads_sum_t sum;
    memset(&sum, 0, sizeof(sum));
    const cJSON *loads = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "loads")
                                              : NULL;
    if (loads) {
        int n = cJSON_IsArray(loads) ? cJSON_GetArraySize(loads) : 0;
        if (n == 0 || n > LOADS_MAX_RANKS) {
            why = "loads is not a non-empty array";
            rc = KVR_EPARSE;
            goto fail_shape;
        }
        for (const cJSON *rank = loads->child; rank && rc == 0; rank = rank->next)
            rc = add_loads_rank(&sum, rank, &why);
    } else if (cJSON_IsArray(root)) {
        int n = cJSON_GetArraySize(root);
        if (n == 0 || n > LOADS_MAX_RANKS) {
            why = "/get_load array is empty";
            rc = KVR_EPARSE;
            goto fail_shape;
        }
        for (const cJSON *rank = root->child; rank && rc == 0; rank = rank->next)
            rc = add_get_load_rank(&sum, rank, &why);
    } else if (cJSON_IsObject(root) && cJSON_GetObjectItemCaseSensitive(root, "num_reqs")) {
        rc = add_get_load_rank(&sum, root, &why);
    } else {
        why = "no loads[] array (not a /v1/loads answer)";
        rc = KVR_EPARSE;
    }
    if (rc != 0)
        goto fail_shape;

    store(&sum, out);
    cJSON_Delete(root);
    return 0;

fail_shape:
    cJSON_Delete(root);
fail_parse:
    if (reason)
        *reason = why;
    return rc;
}
