/* SPDX-License-Identifier: Apache-2.0 */
#include "common/prom.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"

/*
 * Line-oriented: each line is copied (unescaped, NUL-terminated pieces) into
 * one scratch buffer allocated per call, which the sample's pointers refer to
 * until the callback returns. The grammar follows the Prometheus text format
 * 0.0.4, tolerant where real exporters are (blanks between tokens, a trailing
 * comma in the label set, CRLF line ends) and strict where tolerance would
 * turn garbage into numbers.
 */

#define PROM_NUMBER_MAX 64 /* longest value or timestamp token accepted */

typedef struct prom_cursor_s {
    const char *p;   /* next byte of the line */
    const char *end; /* one past the line's last byte (CR and LF excluded) */
    char *out;       /* next free byte of the scratch buffer */
} prom_cursor_t;

/* Character classes, by table: the parser touches every byte of every page. */
enum { CH_BLANK = 1, CH_NAME_START = 2, CH_NAME = 4, CH_COLON = 8 };
static unsigned char char_class[256];

static pthread_once_t char_class_once = PTHREAD_ONCE_INIT;

static void char_class_fill(void)
{
    for (int c = 0; c < 256; c++) {
        unsigned char k = 0;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
            k |= CH_NAME_START | CH_NAME;
        if (c >= '0' && c <= '9')
            k |= CH_NAME;
        if (c == ':')
            k |= CH_COLON;
        if (c == ' ' || c == '\t')
            k |= CH_BLANK;
        char_class[c] = k;
    }
}

static void char_class_init(void)
{
    pthread_once(&char_class_once, char_class_fill);
}

static int is_blank(char c)
{
    return char_class[(unsigned char)c] & CH_BLANK;
}

static void skip_blanks(prom_cursor_t *c)
{
    while (c->p < c->end && is_blank(*c->p))
        c->p++;
}

/* Copies a metric (colons allowed) or label name into scratch. */
static const char *take_name(prom_cursor_t *c, int allow_colon)
{
    unsigned char start_mask = CH_NAME_START | (allow_colon ? CH_COLON : 0);
    unsigned char mask = CH_NAME | (allow_colon ? CH_COLON : 0);
    const char *from = c->p;
    if (from >= c->end || !(char_class[(unsigned char)*from] & start_mask))
        return NULL;
    const char *q = from + 1;
    while (q < c->end && (char_class[(unsigned char)*q] & mask))
        q++;
    char *name = c->out;
    memcpy(name, from, (size_t)(q - from));
    name[q - from] = '\0';
    c->out += (q - from) + 1;
    c->p = q;
    return name;
}

/* Copies a quoted label value, resolving \\ \" \n; the opening quote is already consumed. */
static const char *take_label_value(prom_cursor_t *c, const char **reason)
{
    char *start = c->out;
    for (;;) {
        /* Runs without escapes move in one copy: most values have none. */
        const char *quote = memchr(c->p, '"', (size_t)(c->end - c->p));
        if (!quote)
            break;
        const char *slash = memchr(c->p, '\\', (size_t)(quote - c->p));
        const char *stop = slash ? slash : quote;
        memcpy(c->out, c->p, (size_t)(stop - c->p));
        c->out += stop - c->p;
        c->p = stop + 1;
        if (!slash) {
            *c->out++ = '\0';
            return start;
        }
        if (c->p >= c->end)
            break;
        char esc = *c->p++;
        if (esc == 'n')
            *c->out++ = '\n';
        else if (esc == '\\' || esc == '"')
            *c->out++ = esc;
        else {
            *reason = "invalid escape in label value";
            return NULL;
        }
    }
    *reason = "unterminated label value";
    return NULL;
}

static int parse_labels(prom_cursor_t *c, kvr_prom_sample_t *s, const char **reason)
{
    /* the '{' is consumed */
    for (;;) {
        skip_blanks(c);
        if (c->p >= c->end) {
            *reason = "unterminated label set";
            return KVR_EPARSE;
        }
        if (*c->p == '}') {
            c->p++;
            return 0;
        }
        if (s->label_count == KVR_PROM_MAX_LABELS) {
            *reason = "too many labels";
            return KVR_EPARSE;
        }
        kvr_prom_label_t *label = &s->labels[s->label_count];
        label->name = take_name(c, 0);
        if (!label->name) {
            *reason = "invalid label name";
            return KVR_EPARSE;
        }
        /* Prometheus refuses a label set naming one label twice: which value would count? */
        for (size_t i = 0; i < s->label_count; i++) {
            if (strcmp(s->labels[i].name, label->name) == 0) {
                *reason = "duplicate label name";
                return KVR_EPARSE;
            }
        }
        skip_blanks(c);
        if (c->p >= c->end || *c->p != '=') {
            *reason = "expected '=' after label name";
            return KVR_EPARSE;
        }
        c->p++;
        skip_blanks(c);
        if (c->p >= c->end || *c->p != '"') {
            *reason = "expected quoted label value";
            return KVR_EPARSE;
        }
        c->p++;
        label->value = take_label_value(c, reason);
        if (!label->value)
            return KVR_EPARSE;
        s->label_count++;
        skip_blanks(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p < c->end && *c->p == '}') {
            c->p++;
            return 0;
        }
        *reason = "expected ',' or '}' in label set";
        return KVR_EPARSE;
    }
}

/* Copies the next blank-delimited token (at most PROM_NUMBER_MAX-1 bytes) into buf. */
static int take_token(prom_cursor_t *c, char *buf)
{
    size_t n = 0;
    while (c->p < c->end && !is_blank(*c->p)) {
        if (n == PROM_NUMBER_MAX - 1)
            return -1;
        buf[n++] = *c->p++;
    }
    buf[n] = '\0';
    return (int)n;
}

/* Go's ParseFloat spellings the exposition format uses: NaN, Inf, +Inf, -Inf (any case). */
static int parse_special(const char *t, double *out)
{
    const char *u = t;
    int neg = 0;
    if (*u == '+' || *u == '-') {
        neg = *u == '-';
        u++;
    }
    if (!((*u | 0x20) >= 'a' && (*u | 0x20) <= 'z'))
        return 0; /* the common case, a number, costs one comparison */
    if (strcasecmp(u, "inf") == 0 || strcasecmp(u, "infinity") == 0) {
        *out = neg ? -INFINITY : INFINITY;
        return 1;
    }
    if (strcasecmp(u, "nan") == 0 && u == t) {
        *out = NAN;
        return 1;
    }
    return 0;
}

/*
 * Exact without strtod when the decimal has at most 15 significant digits
 * and a power of ten up to 22: both the digits and the power are exact
 * doubles, so one multiplication or division rounds once, correctly
 * (Clinger's fast path). Exporters' gauges ("7.0", "0.42", "1.7324e+09")
 * almost always qualify; anything else goes to strtod.
 */
static int parse_decimal_fast(const char *t, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *q = t;
    int neg = 0;
    if (*q == '+' || *q == '-')
        neg = *q++ == '-';
    uint64_t mantissa = 0;
    int digits = 0, exp10 = 0, any = 0;
    for (; *q >= '0' && *q <= '9'; q++, any = 1) {
        if (mantissa == 0 && *q == '0')
            continue; /* leading zeros are not significant */
        if (++digits > 15)
            return -1;
        mantissa = mantissa * 10 + (uint64_t)(*q - '0');
    }
    if (*q == '.') {
        for (q++; *q >= '0' && *q <= '9'; q++, any = 1) {
            if (mantissa == 0 && *q == '0') {
                exp10--;
                continue;
            }
            if (++digits > 15)
                return -1;
            mantissa = mantissa * 10 + (uint64_t)(*q - '0');
            exp10--;
        }
    }
    if (!any)
        return -1;
    if (*q == 'e' || *q == 'E') {
        q++;
        int eneg = 0, e = 0, edigits = 0;
        if (*q == '+' || *q == '-')
            eneg = *q++ == '-';
        for (; *q >= '0' && *q <= '9' && edigits < 4; q++, edigits++)
            e = e * 10 + (*q - '0');
        if (edigits == 0 || edigits == 4)
            return -1;
        exp10 += eneg ? -e : e;
    }
    if (*q != '\0')
        return -1;
    double v = (double)mantissa;
    if (mantissa != 0) {
        if (exp10 < -22 || exp10 > 22)
            return -1;
        v = exp10 < 0 ? v / pow10[-exp10] : v * pow10[exp10];
    }
    *out = neg ? -v : v;
    return 0;
}

static int parse_value(const char *t, double *out)
{
    if (parse_special(t, out))
        return 0;
    /* strtod would also take "nan(...)", "0x1p3" or " 1": only plain decimals pass. */
    for (const char *q = t; *q; q++) {
        if (!((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' ||
              *q == '-'))
            return -1;
    }
    if (parse_decimal_fast(t, out) == 0)
        return 0;
    char *endp = NULL;
    errno = 0;
    double v = strtod(t, &endp);
    if (endp == t || *endp != '\0')
        return -1;
    /* Overflow to ±HUGE_VAL is a real (huge) reading; underflow to 0 is harmless. */
    *out = v;
    return 0;
}

/* Integer milliseconds (Prometheus 0.0.4) or decimal seconds (OpenMetrics). */
static int parse_timestamp(const char *t, int64_t *out_ms)
{
    char *endp = NULL;
    errno = 0;
    if (strpbrk(t, ".eE") == NULL) {
        if (!(*t == '-' || *t == '+' || (*t >= '0' && *t <= '9')))
            return -1;
        long long v = strtoll(t, &endp, 10);
        if (endp == t || *endp != '\0' || errno == ERANGE)
            return -1;
        *out_ms = (int64_t)v;
        return 0;
    }
    double seconds;
    if (parse_value(t, &seconds) != 0 || !isfinite(seconds) || fabs(seconds) > 9.2e15)
        return -1;
    *out_ms = (int64_t)llround(seconds * 1000.0);
    return 0;
}

static int parse_sample_line(prom_cursor_t *c, kvr_prom_sample_t *s, const char **reason)
{
    s->name = take_name(c, 1);
    if (!s->name) {
        *reason = "invalid metric name";
        return KVR_EPARSE;
    }
    const char *after_name = c->p;
    skip_blanks(c);
    if (c->p < c->end && *c->p == '{') {
        c->p++;
        int rc = parse_labels(c, s, reason);
        if (rc != 0)
            return rc;
    } else {
        c->p = after_name;
    }
    if (c->p < c->end && !is_blank(*c->p)) {
        *reason = "expected blank before value";
        return KVR_EPARSE;
    }
    skip_blanks(c);
    char token[PROM_NUMBER_MAX];
    int n = take_token(c, token);
    if (n <= 0) {
        *reason = n < 0 ? "value too long" : "missing value";
        return KVR_EPARSE;
    }
    if (parse_value(token, &s->value) != 0) {
        *reason = "invalid value";
        return KVR_EPARSE;
    }
    skip_blanks(c);
    if (c->p < c->end && *c->p != '#') {
        n = take_token(c, token);
        if (n < 0 || parse_timestamp(token, &s->timestamp_ms) != 0) {
            *reason = "invalid timestamp";
            return KVR_EPARSE;
        }
        s->has_timestamp = true;
        skip_blanks(c);
    }
    /* "# {...} v [ts]" after the sample is an OpenMetrics exemplar: ignored. */
    if (c->p < c->end && *c->p != '#') {
        *reason = "unexpected text after sample";
        return KVR_EPARSE;
    }
    return 0;
}

/* The metric name at the start of a sample line: its length, 0 when it is not a name. */
static size_t name_length(const char *p, const char *end)
{
    const unsigned char start_mask = CH_NAME_START | CH_COLON, mask = CH_NAME | CH_COLON;
    if (p >= end || !(char_class[(unsigned char)*p] & start_mask))
        return 0;
    const char *q = p + 1;
    while (q < end && (char_class[(unsigned char)*q] & mask))
        q++;
    return (size_t)(q - p);
}

int kvr_prom_parse(const char *text, size_t len, kvr_prom_sample_cb cb, void *arg,
                   kvr_prom_error_t *err)
{
    return kvr_prom_parse_filtered(text, len, NULL, cb, arg, err);
}

int kvr_prom_parse_filtered(const char *text, size_t len, kvr_prom_name_filter filter,
                            kvr_prom_sample_cb cb, void *arg, kvr_prom_error_t *err)
{
    kvr_prom_error_t scratch_err;
    if (!err)
        err = &scratch_err;
    err->line = 0;
    err->reason = NULL;
    if (len > 0 && !text) {
        err->reason = "no input";
        return -EINVAL;
    }
    if (memchr(text ? text : "", '\0', len) != NULL) {
        err->reason = "NUL byte in page";
        return KVR_EPARSE;
    }
    char_class_init();
    /* A line's pieces never outgrow the line plus one NUL per piece. */
    char *scratch = malloc(len + 2 * KVR_PROM_MAX_LABELS + 8);
    if (!scratch) {
        err->reason = "out of memory";
        return -ENOMEM;
    }

    int rc = 0;
    size_t line_no = 0;
    const char *p = text ? text : "";
    const char *end = p + len;
    kvr_prom_sample_t sample;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *line_end = nl ? nl : end;
        const char *next = nl ? nl + 1 : end;
        line_no++;
        if (line_end > p && line_end[-1] == '\r')
            line_end--;
        prom_cursor_t c = {.p = p, .end = line_end, .out = scratch};
        p = next;
        skip_blanks(&c);
        if (c.p == c.end || *c.p == '#')
            continue; /* blank line, HELP, TYPE, UNIT, EOF or a plain comment */
        if (filter) {
            size_t name_len = name_length(c.p, c.end);
            if (name_len == 0) {
                err->line = line_no;
                err->reason = "invalid metric name";
                rc = KVR_EPARSE;
                goto done;
            }
            if (!filter(c.p, name_len, arg))
                continue;
        }

        /* Only what the callback may read is reset: the label array is 512 bytes. */
        sample.name = NULL;
        sample.label_count = 0;
        sample.value = 0;
        sample.has_timestamp = false;
        sample.timestamp_ms = 0;
        sample.line = line_no;
        const char *reason = NULL;
        rc = parse_sample_line(&c, &sample, &reason);
        if (rc != 0) {
            err->line = line_no;
            err->reason = reason;
            goto done;
        }
        rc = cb ? cb(&sample, arg) : 0;
        if (rc != 0) {
            err->line = line_no;
            err->reason = "stopped by the sample handler";
            goto done;
        }
    }
done:
    free(scratch);
    return rc;
}

const char *kvr_prom_label(const kvr_prom_sample_t *sample, const char *name)
{
    for (size_t i = 0; i < sample->label_count; i++) {
        if (strcmp(sample->labels[i].name, name) == 0)
            return sample->labels[i].value;
    }
    return NULL;
}
