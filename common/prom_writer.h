/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVR_COMMON_PROM_WRITER_H
#define KVR_COMMON_PROM_WRITER_H

/*
 * Prometheus text exposition writer (format 0.0.4) on a kvr_buf_t: HELP and
 * TYPE once per family, label values and HELP text escaped as the format
 * says, numbers that read back exactly. Two number styles: client_golang's
 * (integers as integers, other values in the shortest form that round-trips,
 * "1e+06" style) and Python prometheus_client's (every value a Python float:
 * "3.0", "0.25", "1e-05"), which the engine simulator needs to look like vLLM
 * and SGLang.
 */

#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/prom.h"

typedef enum kvr_prom_type_e {
    KVR_PROM_COUNTER,
    KVR_PROM_GAUGE,
    KVR_PROM_HISTOGRAM,
} kvr_prom_type_t;

typedef enum kvr_prom_style_e {
    KVR_PROM_STYLE_GO,     /* 3, 0.25, 1e+20, _sum before _count */
    KVR_PROM_STYLE_PYTHON, /* 3.0, 0.25, 1e+20, _count before _sum */
} kvr_prom_style_t;

/* The longest number either style writes, NUL included. */
#define KVR_PROM_NUMBER_MAX 32

typedef struct kvr_prom_writer_s {
    kvr_buf_t *out;
    kvr_prom_style_t style;
    char family[128]; /* the family whose HELP and TYPE were written last */
} kvr_prom_writer_t;

/** A writer appending to out. */
void kvr_prom_writer_init(kvr_prom_writer_t *w, kvr_buf_t *out, kvr_prom_style_t style);

/** "# HELP" and "# TYPE" for family name, unless they were just written for it. */
void kvr_prom_family(kvr_prom_writer_t *w, const char *name, kvr_prom_type_t type,
                     const char *help);

/** One sample line: name{labels} value (no braces without labels). */
void kvr_prom_sample(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                     size_t n_labels, double value);
/** A sample with an integer value, written exactly (no rounding through a double in the Go style). */
void kvr_prom_sample_u64(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                         size_t n_labels, uint64_t value);
/** kvr_prom_sample_u64 for signed values. */
void kvr_prom_sample_i64(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                         size_t n_labels, int64_t value);

/**
 * The series of one histogram: name_bucket for each of the n_bounds upper
 * bounds (ascending) and +Inf, with le after the given labels, then name_sum
 * and name_count. counts holds n_bounds + 1 per-bucket counts, not cumulative.
 */
void kvr_prom_histogram(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                        size_t n_labels, const double *bounds, size_t n_bounds,
                        const uint64_t *counts, double sum);

/** Counts value in counts (n_bounds + 1 per-bucket counts, as kvr_prom_histogram takes them). */
void kvr_prom_histogram_observe(uint64_t *counts, const double *bounds, size_t n_bounds,
                                double value);

/** value as the style writes it: "NaN", "+Inf", "-Inf" or a number that strtod reads back exactly. */
const char *kvr_prom_format_number(char buf[KVR_PROM_NUMBER_MAX], kvr_prom_style_t style,
                                   double value);

#endif
