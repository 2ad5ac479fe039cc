/* SPDX-License-Identifier: Apache-2.0 */
#include "common/prom_writer.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kvr_prom_writer_init(kvr_prom_writer_t *w, kvr_buf_t *out, kvr_prom_style_t style)
{
    w->out = out;
    w->style = style;
    w->family[0] = '\0';
}

/* Fewest significant digits (1..17) that read back as v. */
static int shortest_precision(double v)
{
    char tmp[KVR_PROM_NUMBER_MAX];
    for (int p = 1; p < 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, v);
        if (strtod(tmp, NULL) == v)
            return p;
    }
    return 17;
}

const char *kvr_prom_format_number(char buf[KVR_PROM_NUMBER_MAX], kvr_prom_style_t style,
                                   double value)
{
    if (isnan(value))
        return strcpy(buf, "NaN");
    if (isinf(value))
        return strcpy(buf, value > 0 ? "+Inf" : "-Inf");
    int p = shortest_precision(value);
    if (style == KVR_PROM_STYLE_GO) {
        snprintf(buf, KVR_PROM_NUMBER_MAX, "%.*g", p, value); /* strconv's 'g', -1 */
        return buf;
    }
    /* Python's repr: positional for decimal exponents in [-4, 16), always with a fraction. */
    int exp10 = value == 0 ? 0 : (int)floor(log10(fabs(value)));
    char tmp[KVR_PROM_NUMBER_MAX];
    snprintf(tmp, sizeof tmp, "%.*e", p - 1, value);
    const char *e = strchr(tmp, 'e');
    if (e)
        exp10 = atoi(e + 1); /* the rounded exponent, not log10's */
    if (exp10 < -4 || exp10 >= 16) {
        memcpy(buf, tmp, sizeof tmp);
        return buf;
    }
    int decimals = p - 1 - exp10;
    snprintf(buf, KVR_PROM_NUMBER_MAX, "%.*f%s", decimals > 0 ? decimals : 0, value,
             decimals > 0 ? "" : ".0");
    return buf;
}

/* Label values escape backslash, double quote and line feed; HELP text only the first and last. */
static void append_escaped(kvr_buf_t *b, const char *s, int quote)
{
    const char *run = s;
    for (; *s; s++) {
        const char *esc = *s == '\\'           ? "\\\\"
                          : *s == '\n'         ? "\\n"
                          : *s == '"' && quote ? "\\\""
                                               : NULL;
        if (!esc)
            continue;
        kvr_buf_append(b, run, (size_t)(s - run));
        kvr_buf_append(b, esc, 2);
        run = s + 1;
    }
    kvr_buf_append(b, run, (size_t)(s - run));
}

void kvr_prom_family(kvr_prom_writer_t *w, const char *name, kvr_prom_type_t type, const char *help)
{
    if (strcmp(w->family, name) == 0)
        return;
    snprintf(w->family, sizeof w->family, "%s", name);
    static const char *const types[] = {"counter", "gauge", "histogram"};
    kvr_buf_t *b = w->out;
    kvr_buf_append_str(b, "# HELP ");
    kvr_buf_append_str(b, name);
    kvr_buf_append_char(b, ' ');
    append_escaped(b, help, 0);
    kvr_buf_append_str(b, "\n# TYPE ");
    kvr_buf_append_str(b, name);
    kvr_buf_append_char(b, ' ');
    kvr_buf_append_str(b, types[type]);
    kvr_buf_append_char(b, '\n');
}

static void series(kvr_prom_writer_t *w, const char *name, const char *suffix,
                   const kvr_prom_label_t *labels, size_t n_labels, const char *le)
{
    kvr_buf_t *b = w->out;
    kvr_buf_append_str(b, name);
    kvr_buf_append_str(b, suffix);
    if (n_labels == 0 && !le)
        return;
    kvr_buf_append_char(b, '{');
    for (size_t i = 0; i < n_labels; i++) {
        if (i)
            kvr_buf_append_char(b, ',');
        kvr_buf_append_str(b, labels[i].name);
        kvr_buf_append_str(b, "=\"");
        append_escaped(b, labels[i].value, 1);
        kvr_buf_append_char(b, '"');
    }
    if (le) {
        kvr_buf_append_str(b, n_labels ? ",le=\"" : "le=\"");
        kvr_buf_append_str(b, le);
        kvr_buf_append_char(b, '"');
    }
    kvr_buf_append_char(b, '}');
}

static void value_line(kvr_buf_t *b, const char *number)
{
    kvr_buf_append_char(b, ' ');
    kvr_buf_append_str(b, number);
    kvr_buf_append_char(b, '\n');
}

void kvr_prom_sample(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                     size_t n_labels, double value)
{
    char num[KVR_PROM_NUMBER_MAX];
    series(w, name, "", labels, n_labels, NULL);
    value_line(w->out, kvr_prom_format_number(num, w->style, value));
}

static const char *format_u64(char buf[KVR_PROM_NUMBER_MAX], kvr_prom_style_t style, uint64_t v)
{
    if (style == KVR_PROM_STYLE_PYTHON) /* prometheus_client holds every value as a float */
        return kvr_prom_format_number(buf, style, (double)v);
    snprintf(buf, KVR_PROM_NUMBER_MAX, "%" PRIu64, v);
    return buf;
}

void kvr_prom_sample_u64(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                         size_t n_labels, uint64_t value)
{
    char num[KVR_PROM_NUMBER_MAX];
    series(w, name, "", labels, n_labels, NULL);
    value_line(w->out, format_u64(num, w->style, value));
}

void kvr_prom_sample_i64(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                         size_t n_labels, int64_t value)
{
    char num[KVR_PROM_NUMBER_MAX];
    series(w, name, "", labels, n_labels, NULL);
    if (w->style == KVR_PROM_STYLE_PYTHON)
        kvr_prom_format_number(num, w->style, (double)value);
    else
        snprintf(num, sizeof num, "%" PRId64, value);
    value_line(w->out, num);
}

void kvr_prom_histogram_observe(uint64_t *counts, const double *bounds, size_t n_bounds,
                                double value)
{
    size_t i = 0;
    while (i < n_bounds && value > bounds[i])
        i++;
    counts[i]++;
}

void kvr_prom_histogram(kvr_prom_writer_t *w, const char *name, const kvr_prom_label_t *labels,
                        size_t n_labels, const double *bounds, size_t n_bounds,
                        const uint64_t *counts, double sum)
{
    char le[KVR_PROM_NUMBER_MAX], num[KVR_PROM_NUMBER_MAX];
    uint64_t cumulative = 0;
    for (size_t i = 0; i <= n_bounds; i++) {
        cumulative += counts[i];
        series(w, name, "_bucket", labels, n_labels,
               i < n_bounds ? kvr_prom_format_number(le, w->style, bounds[i]) : "+Inf");
        value_line(w->out, format_u64(num, w->style, cumulative));
    }
    kvr_prom_format_number(le, w->style, sum);
    format_u64(num, w->style, cumulative);
    if (w->style == KVR_PROM_STYLE_PYTHON) {
        series(w, name, "_count", labels, n_labels, NULL);
        value_line(w->out, num);
    }
    series(w, name, "_sum", labels, n_labels, NULL);
    value_line(w->out, le);
    if (w->style == KVR_PROM_STYLE_GO) {
        series(w, name, "_count", labels, n_labels, NULL);
        value_line(w->out, num);
    }
}
