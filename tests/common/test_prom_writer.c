/* SPDX-License-Identifier: Apache-2.0 */
/* The Prometheus text writer: escapes what the format says, and the parser reads back what it wrote. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/prom.h"
#include "common/prom_writer.h"

Test(prom_writer, escapes_backslash_quote_and_newline_in_label_values, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_prom_writer_t w;
    kvr_prom_writer_init(&w, &b, KVR_PROM_STYLE_GO);
    kvr_prom_label_t l[] = {{"engine", "a\\b\"c\nd"}, {"kind", "plain"}};
    kvr_prom_sample_u64(&w, "x_total", l, 2, 7);
    cr_expect_str_eq(b.base, "x_total{engine=\"a\\\\b\\\"c\\nd\",kind=\"plain\"} 7\n");
    kvr_buf_close(&b);
}

Test(prom_writer, help_and_type_once_per_family, .timeout = 5.)
{
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_prom_writer_t w;
    kvr_prom_writer_init(&w, &b, KVR_PROM_STYLE_GO);
    kvr_prom_family(&w, "up", KVR_PROM_GAUGE, "1 when up\\down\nnext");
    kvr_prom_sample(&w, "up", NULL, 0, 1);
    kvr_prom_family(&w, "up", KVR_PROM_GAUGE, "1 when up\\down\nnext");
    kvr_prom_sample(&w, "up", NULL, 0, 0.5);
    kvr_prom_family(&w, "down_total", KVR_PROM_COUNTER, "d");
    cr_expect_str_eq(b.base, "# HELP up 1 when up\\\\down\\nnext\n# TYPE up gauge\nup 1\nup 0.5\n"
                             "# HELP down_total d\n# TYPE down_total counter\n");
    kvr_buf_close(&b);
}

typedef struct {
    char number[24]; /* inline: Criterion hands parameters to a fresh process */
    kvr_prom_style_t style;
    double value;
} number_case_t;

ParameterizedTestParameters(prom_writer, numbers)
{
    static number_case_t cases[] = {
        {"3", KVR_PROM_STYLE_GO, 3},
        {"3.0", KVR_PROM_STYLE_PYTHON, 3},
        {"0.1", KVR_PROM_STYLE_GO, 0.1},
        {"0.1", KVR_PROM_STYLE_PYTHON, 0.1},
        {"0.005", KVR_PROM_STYLE_PYTHON, 0.005},
        {"1e-05", KVR_PROM_STYLE_PYTHON, 1e-5},
        {"0.0001", KVR_PROM_STYLE_PYTHON, 1e-4},
        {"1e+16", KVR_PROM_STYLE_PYTHON, 1e16},
        {"1000000000000000.0", KVR_PROM_STYLE_PYTHON, 1e15},
        {"1e+20", KVR_PROM_STYLE_GO, 1e20},
        {"-1", KVR_PROM_STYLE_GO, -1},
        {"-1.0", KVR_PROM_STYLE_PYTHON, -1},
        {"0.0", KVR_PROM_STYLE_PYTHON, 0},
        {"2560.0", KVR_PROM_STYLE_PYTHON, 2560},
        {"0.30000000000000004", KVR_PROM_STYLE_GO, 0.1 + 0.2},
        {"NaN", KVR_PROM_STYLE_GO, NAN},
        {"+Inf", KVR_PROM_STYLE_PYTHON, INFINITY},
        {"-Inf", KVR_PROM_STYLE_GO, -INFINITY},
    };
    return cr_make_param_array(number_case_t, cases, sizeof cases / sizeof cases[0]);
}

ParameterizedTest(number_case_t *c, prom_writer, numbers, .timeout = 5.)
{
    char buf[KVR_PROM_NUMBER_MAX];
    cr_expect_str_eq(kvr_prom_format_number(buf, c->style, c->value), c->number);
}

Test(prom_writer, shortest_numbers_read_back_exactly, .timeout = 5.)
{
    char buf[KVR_PROM_NUMBER_MAX];
    unsigned long long x = 88172645463325252ull;
    int wrong = 0;
    for (int i = 0; i < 5000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        uint64_t bits = x & ~(0x7ffull << 52) ? x : x ^ 1; /* keep it finite */
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v))
            continue;
        for (int s = 0; s < 2; s++) {
            kvr_prom_format_number(buf, (kvr_prom_style_t)s, v);
            if (strtod(buf, NULL) != v && wrong++ == 0)
                cr_log_error("%s does not read back as %.17g", buf, v);
        }
    }
    cr_expect_eq(wrong, 0);
}

typedef struct {
    char names[64][64];
    char engine[64][64];
    char le[64][16];
    double values[64];
    size_t n;
} seen_t;

static int collect(const kvr_prom_sample_t *s, void *arg)
{
    seen_t *seen = arg;
    cr_assert_lt(seen->n, 64u);
    snprintf(seen->names[seen->n], sizeof seen->names[0], "%s", s->name);
    const char *e = kvr_prom_label(s, "engine"), *le = kvr_prom_label(s, "le");
    snprintf(seen->engine[seen->n], sizeof seen->engine[0], "%s", e ? e : "");
    snprintf(seen->le[seen->n], sizeof seen->le[0], "%s", le ? le : "");
    seen->values[seen->n++] = s->value;
    return 0;
}

static void round_trip(kvr_prom_style_t style)
{
    static const char hostile[] = "h\"t\\tp://x\ny";
    kvr_buf_t b = KVR_BUF_INIT;
    kvr_prom_writer_t w;
    kvr_prom_writer_init(&w, &b, style);
    kvr_prom_label_t l[] = {{"engine", hostile}};
    kvr_prom_family(&w, "a_total", KVR_PROM_COUNTER, "with \"quotes\" and \\");
    kvr_prom_sample_u64(&w, "a_total", l, 1, UINT64_C(9007199254740993));
    kvr_prom_family(&w, "b", KVR_PROM_GAUGE, "b");
    kvr_prom_sample(&w, "b", NULL, 0, 1.0 / 3);
    kvr_prom_sample_i64(&w, "b", l, 1, -12);
    kvr_prom_family(&w, "h_seconds", KVR_PROM_HISTOGRAM, "h");
    const double bounds[] = {0.005, 1, 2.5};
    const uint64_t counts[] = {1, 2, 0, 4};
    kvr_prom_histogram(&w, "h_seconds", l, 1, bounds, 3, counts, 12.75);

    seen_t seen = {0};
    kvr_prom_error_t err = {0};
    cr_assert_eq(kvr_prom_parse(b.base, b.len, collect, &seen, &err), 0, "line %zu: %s\n%s",
                 err.line, err.reason, b.base);
    cr_assert_eq(seen.n, 3u + 6u);
    cr_expect_str_eq(seen.names[0], "a_total");
    cr_expect_str_eq(seen.engine[0], hostile);
    if (style == KVR_PROM_STYLE_GO)
        cr_expect(strstr(b.base, "} 9007199254740993\n"), "integers are exact:\n%s", b.base);
    cr_expect_eq(seen.values[1], 1.0 / 3);
    cr_expect_str_eq(seen.engine[1], "");
    cr_expect_eq(seen.values[2], -12);
    static const char *const les[] = {"0.005", "1", "2.5", "+Inf"};
    static const double cum[] = {1, 3, 3, 7};
    for (int i = 0; i < 4; i++) {
        cr_expect_str_eq(seen.names[3 + i], "h_seconds_bucket");
        cr_expect_eq(strtod(seen.le[3 + i], NULL), strtod(les[i], NULL), "le %s", seen.le[3 + i]);
        cr_expect_eq(seen.values[3 + i], cum[i]);
        cr_expect_str_eq(seen.engine[3 + i], hostile);
    }
    int sum_at = style == KVR_PROM_STYLE_GO ? 7 : 8, count_at = style == KVR_PROM_STYLE_GO ? 8 : 7;
    cr_expect_str_eq(seen.names[sum_at], "h_seconds_sum");
    cr_expect_eq(seen.values[sum_at], 12.75);
    cr_expect_str_eq(seen.names[count_at], "h_seconds_count");
    cr_expect_eq(seen.values[count_at], 7);
    kvr_buf_close(&b);
}

Test(prom_writer, parser_reads_back_what_the_go_style_wrote, .timeout = 5.)
{
    round_trip(KVR_PROM_STYLE_GO);
}

Test(prom_writer, parser_reads_back_what_the_python_style_wrote, .timeout = 5.)
{
    round_trip(KVR_PROM_STYLE_PYTHON);
}

Test(prom_writer, observe_counts_a_value_in_the_first_bucket_it_does_not_exceed, .timeout = 5.)
{
    static const double bounds[3] = {0.1, 1, 10};
    uint64_t counts[4] = {0};
    const double values[] = {0, 0.1, 0.10000001, 1, 9.99, 10, 10.5, INFINITY, -1};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        kvr_prom_histogram_observe(counts, bounds, 3, values[i]);
    cr_expect_eq(counts[0], 3); /* 0, 0.1 (le is inclusive), -1 */
    cr_expect_eq(counts[1], 2); /* just above 0.1, 1 */
    cr_expect_eq(counts[2], 2); /* 9.99, 10 */
    cr_expect_eq(counts[3], 2); /* +Inf: 10.5 and infinity */
}
