/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_PROM_H
#define KVR_COMMON_PROM_H

/*
 * Prometheus text exposition parser (format 0.0.4, and the OpenMetrics
 * subset engines actually emit). It walks a whole page once and hands every
 * sample to a callback; HELP/TYPE/other comments are skipped, exemplars
 * ("# {trace_id=...} 1.0") and "# EOF" are ignored, label values are
 * unescaped (\" \\ \n), and a label named twice in one set is an error.
 * Input comes from the network, so every malformed line is an error with
 * its line number and a reason, never a crash and never a silent zero. The
 * parser allocates one scratch buffer per call (the size of the page) and
 * nothing else.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KVR_PROM_MAX_LABELS 32 /* more labels on one sample is a parse error */

typedef struct kvr_prom_label_s {
    const char *name;  /* NUL-terminated, valid only during the callback */
    const char *value; /* unescaped, NUL-terminated, valid only during the callback */
} kvr_prom_label_t;

typedef struct kvr_prom_sample_s {
    const char *name; /* metric name with any suffix (_bucket, _sum, _total ...), NUL-terminated */
    size_t label_count;
    kvr_prom_label_t labels[KVR_PROM_MAX_LABELS];
    double value; /* NaN, +Inf and -Inf are valid values */
    bool has_timestamp;
    int64_t timestamp_ms; /* only when has_timestamp */
    size_t line;          /* 1-based line number in the page */
} kvr_prom_sample_t;

/** Where and why a page was rejected. */
typedef struct kvr_prom_error_s {
    size_t line;        /* 1-based; 0 when the failure is not tied to a line */
    const char *reason; /* static text, e.g. "unterminated label value" */
} kvr_prom_error_t;

/**
 * Called once per sample, in page order. Returning non-zero stops the parse
 * and kvr_prom_parse() returns that value.
 */
typedef int (*kvr_prom_sample_cb)(const kvr_prom_sample_t *sample, void *arg);

/**
 * Parses len bytes of exposition text (need not be NUL-terminated).
 * Returns 0, KVR_EPARSE with *err filled (err may be NULL), -ENOMEM, or the
 * callback's non-zero return. Samples before a bad line have already been
 * delivered: callers that need all-or-nothing accumulate and commit on 0.
 */
int kvr_prom_parse(const char *text, size_t len, kvr_prom_sample_cb cb, void *arg,
                   kvr_prom_error_t *err);

/** Decides from a metric name (len bytes, not NUL-terminated) whether its samples are wanted. */
typedef bool (*kvr_prom_name_filter)(const char *name, size_t len, void *arg);

/**
 * kvr_prom_parse for readers that need a few families of a large page: a
 * sample line whose metric name filter refuses is skipped once the name is
 * seen to be a valid metric name, unparsed like a comment, so a malformed
 * line of an unwanted family does not fail the page. Text that is not
 * exposition format still fails on its first sample line. filter gets arg too.
 */
int kvr_prom_parse_filtered(const char *text, size_t len, kvr_prom_name_filter filter,
                            kvr_prom_sample_cb cb, void *arg, kvr_prom_error_t *err);

/** The value of label name on sample, NULL when absent. */
const char *kvr_prom_label(const kvr_prom_sample_t *sample, const char *name);

#endif
