/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Prometheus text parser against the exposition format as exporters
 * really write it, and against garbage: a bad line is an error naming its
 * line, never a crash and never a sample.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/engine_metrics.h"
#include "common/error.h"
#include "common/prom.h"
#include "tests/common/engine_pages.h"

/* What the first sample of a page must look like. */
struct good_case {
    const char *page;
    const char *name;
    double value; /* NAN: expect NaN */
    size_t labels;
    const char *label_name; /* checked when not NULL */
    const char *label_value;
    int has_timestamp;
    int64_t timestamp_ms;
    size_t samples; /* samples in the whole page */
};

struct collected {
    size_t count;
    char first_name[128];
    double first_value;
    size_t first_labels;
    char first_label_value[128];
    int first_has_ts;
    int64_t first_ts;
    const char *want_label;
};

static int collect(const kvr_prom_sample_t *s, void *arg)
{
    struct collected *c = arg;
    if (c->count++ == 0) {
        snprintf(c->first_name, sizeof(c->first_name), "%s", s->name);
        c->first_value = s->value;
        c->first_labels = s->label_count;
        c->first_has_ts = s->has_timestamp;
        c->first_ts = s->timestamp_ms;
        const char *v = c->want_label ? kvr_prom_label(s, c->want_label) : NULL;
        snprintf(c->first_label_value, sizeof(c->first_label_value), "%s", v ? v : "(absent)");
    }
    return 0;
}

/*
 * Criterion re-executes the test binary for each case, so a parameter holding
 * a pointer into the parent's image would dangle: parameters are indexes into
 * these file-scope tables instead.
 */
static const struct good_case good_cases[] = {
    {"plain 1\n", "plain", 1, 0, NULL, NULL, 0, 0, 1},
    {"no_newline_at_end 2", "no_newline_at_end", 2, 0, NULL, NULL, 0, 0, 1},
    {"# HELP x Some help, with \\\\ and \\n escapes\n# TYPE x gauge\nx 2.5\n", "x", 2.5, 0, NULL,
     NULL, 0, 0, 1},
    {"m{path=\"a\\\"b\\\\c\\nd\"} 3\n", "m", 3, 1, "path", "a\"b\\c\nd", 0, 0, 1},
    {"m{v=\"has # , } = inside\"} 4\n", "m", 4, 1, "v", "has # , } = inside", 0, 0, 1},
    {"m{a=\"1\",} 5\n", "m", 5, 1, "a", "1", 0, 0, 1},
    {"m{} 6\n", "m", 6, 0, NULL, NULL, 0, 0, 1},
    {"m { a = \"1\" , b=\"\" } 7\n", "m", 7, 2, "b", "", 0, 0, 1},
    {"m NaN\n", "m", NAN, 0, NULL, NULL, 0, 0, 1},
    {"m +Inf\n", "m", INFINITY, 0, NULL, NULL, 0, 0, 1},
    {"m -Inf\n", "m", -INFINITY, 0, NULL, NULL, 0, 0, 1},
    {"m -0.5e-3\n", "m", -0.5e-3, 0, NULL, NULL, 0, 0, 1},
    {"m 1.7324e+09\n", "m", 1.7324e9, 0, NULL, NULL, 0, 0, 1},
    {"m 42 1700000000123\n", "m", 42, 0, NULL, NULL, 1, 1700000000123, 1},
    {"m 42 -5\n", "m", 42, 0, NULL, NULL, 1, -5, 1},
    {"m 1 1520879607.789\n", "m", 1, 0, NULL, NULL, 1, 1520879607789, 1},
    {"h_bucket{le=\"0.5\"} 3 # {trace_id=\"KOO5S4vxi0o\"} 0.67 1520879607.789\n", "h_bucket", 3, 1,
     "le", "0.5", 0, 0, 1},
    {"h_bucket{le=\"+Inf\"} 10 1700000000000 # {trace_id=\"x\"} 1\n", "h_bucket", 10, 1, "le",
     "+Inf", 1, 1700000000000, 1},
    {"m 1 2 # {a=\"b\"} 1 x\n", "m", 1, 0, NULL, NULL, 1, 2, 1},
    {"m 5\r\nn 6\r\n", "m", 5, 0, NULL, NULL, 0, 0, 2},
    {"\n\n   \t\n  m 8  \t\n\n", "m", 8, 0, NULL, NULL, 0, 0, 1},
    {"m\t9\n", "m", 9, 0, NULL, NULL, 0, 0, 1},
    {"# a comment that is neither HELP nor TYPE\nm 10\n# EOF\n", "m", 10, 0, NULL, NULL, 0, 0, 1},
    {"vllm:num_requests_running{engine=\"0\"} 3.0\n", "vllm:num_requests_running", 3, 1, "engine",
     "0", 0, 0, 1},
    {"m{label=\"ünïcödé ✓\"} 1\n", "m", 1, 1, "label", "ünïcödé ✓", 0, 0, 1},
    {"", NULL, 0, 0, NULL, NULL, 0, 0, 0},
    {"# only comments\n# TYPE x counter\n", NULL, 0, 0, NULL, NULL, 0, 0, 0},
    {VLLM_PAGE_DP2, "python_gc_objects_collected_total", 12345, 1, "generation", "0", 0, 0, 16},
    {SGLANG_PAGE_COLON, "sglang:num_running_reqs", 10, 4, "dp_rank", "0", 0, 0, 17},
    {SGLANG_PAGE_UNDERSCORE, "sglang_num_running_reqs", 3, 1, "name",
     "meta-llama/Llama-3.1-8B-Instruct", 0, 0, 3},
};
#define GOOD_CASES (sizeof(good_cases) / sizeof(good_cases[0]))

ParameterizedTestParameters(prom, accepts)
{
    static size_t index[GOOD_CASES];
    for (size_t i = 0; i < GOOD_CASES; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, GOOD_CASES);
}

ParameterizedTest(size_t *case_index, prom, accepts, .timeout = 5.)
{
    const struct good_case *tc = &good_cases[*case_index];
    struct collected c;
    memset(&c, 0, sizeof(c));
    c.want_label = tc->label_name;
    kvr_prom_error_t err;
    int rc = kvr_prom_parse(tc->page, strlen(tc->page), collect, &c, &err);
    cr_assert_eq(rc, 0, "page rejected at line %zu: %s", err.line, err.reason ? err.reason : "?");
    cr_assert_eq(c.count, tc->samples, "samples: got %zu want %zu", c.count, tc->samples);
    if (!tc->name)
        return;
    cr_assert_str_eq(c.first_name, tc->name);
    if (isnan(tc->value))
        cr_assert(isnan(c.first_value), "want NaN, got %g", c.first_value);
    else
        cr_assert(c.first_value == tc->value, "value: got %.17g want %.17g", c.first_value,
                  tc->value);
    cr_assert_eq(c.first_labels, tc->labels);
    if (tc->label_name)
        cr_assert_str_eq(c.first_label_value, tc->label_value);
    cr_assert_eq(c.first_has_ts, tc->has_timestamp);
    if (tc->has_timestamp)
        cr_assert_eq(c.first_ts, tc->timestamp_ms, "timestamp: got %lld want %lld",
                     (long long)c.first_ts, (long long)tc->timestamp_ms);
}

struct bad_case {
    const char *page;
    size_t line;      /* the line the error must name */
    size_t delivered; /* samples handed over before it */
};

static const struct bad_case bad_cases[] = {
    {"m\n", 1, 0},
    {"m \n", 1, 0},
    {"m abc\n", 1, 0},
    {"ok 1\nm 1 2 3\n", 2, 1},
    {"m 1 abc\n", 1, 0},
    {"m 1 99999999999999999999999\n", 1, 0},
    {"{a=\"1\"} 2\n", 1, 0},
    {"3m 1\n", 1, 0},
    {"m-x 1\n", 1, 0},
    {"m{a=1} 2\n", 1, 0},
    {"m{a=\"1} 2\n", 1, 0},
    {"m{a=\"1\"\n", 1, 0},
    {"m{a=\"\\x\"} 1\n", 1, 0},
    {"m{a=\"1\" b=\"2\"} 1\n", 1, 0},
    {"m{=\"1\"} 1\n", 1, 0},
    {"m{a\"1\"} 1\n", 1, 0},
    {"m{a:b=\"1\"} 1\n", 1, 0},
    {"m{a=\"1\"}1\n", 1, 0},
    {"m 0x10\n", 1, 0},
    {"m nan(123)\n", 1, 0},
    {"m -NaN\n", 1, 0},
    {"m 1e\n", 1, 0},
    {"m 1,5\n", 1, 0},
    {"m .\n", 1, 0},
    {"ok 1\n\n# c\n\x01\x02\x03 4\n", 4, 1},
    {"<html><body>502 Bad Gateway</body></html>\n", 1, 0},
    {"{\"loads\": []}\n", 1, 0},
    {"m 111111111111111111111111111111111111111111111111111111111111111111111111111111111\n", 1, 0},
    {"m{l00=\"\",l01=\"\",l02=\"\",l03=\"\",l04=\"\",l05=\"\",l06=\"\",l07=\"\",l08=\"\",l09=\"\","
     "l10=\"\",l11=\"\",l12=\"\",l13=\"\",l14=\"\",l15=\"\",l16=\"\",l17=\"\",l18=\"\",l19=\"\","
     "l20=\"\",l21=\"\",l22=\"\",l23=\"\",l24=\"\",l25=\"\",l26=\"\",l27=\"\",l28=\"\",l29=\"\","
     "l30=\"\",l31=\"\",l32=\"\"} 1\n",
     1, 0},
    /* one label named twice: which value would count? */
    {"ok 1\nm{a=\"1\",a=\"2\"} 1\n", 2, 1},
    {"m{a=\"1\",b=\"2\",a=\"1\"} 1\n", 1, 0},
};
#define BAD_CASES (sizeof(bad_cases) / sizeof(bad_cases[0]))

ParameterizedTestParameters(prom, rejects)
{
    static size_t index[BAD_CASES];
    for (size_t i = 0; i < BAD_CASES; i++)
        index[i] = i;
    return cr_make_param_array(size_t, index, BAD_CASES);
}

ParameterizedTest(size_t *case_index, prom, rejects, .timeout = 5.)
{
    const struct bad_case *tc = &bad_cases[*case_index];
    struct collected c;
    memset(&c, 0, sizeof(c));
    kvr_prom_error_t err;
    int rc = kvr_prom_parse(tc->page, strlen(tc->page), collect, &c, &err);
    cr_assert_eq(rc, KVR_EPARSE, "garbage accepted: %s", tc->page);
    cr_assert_eq(err.line, tc->line, "error line: got %zu want %zu", err.line, tc->line);
    cr_assert_not_null(err.reason);
    cr_assert_eq(c.count, tc->delivered, "only samples before the bad line are delivered");
}

Test(prom, nul_byte_rejected, .timeout = 5.)
{
    static const char page[] = "m 1\nn\0 2\n";
    kvr_prom_error_t err;
    int rc = kvr_prom_parse(page, sizeof(page) - 1, NULL, NULL, &err);
    cr_assert_eq(rc, KVR_EPARSE);
    cr_assert_not_null(err.reason);
}

Test(prom, length_bounds_the_parse, .timeout = 5.)
{
    /* Only the first len bytes count: the parser must not read to a NUL. */
    static const char page[] = "m 1\nthis is not prometheus at all";
    struct collected c;
    memset(&c, 0, sizeof(c));
    cr_assert_eq(kvr_prom_parse(page, 4, collect, &c, NULL), 0);
    cr_assert_eq(c.count, 1);
}

static int stop_at_second(const kvr_prom_sample_t *s, void *arg)
{
    (void)s;
    int *n = arg;
    return ++*n == 2 ? 77 : 0;
}

Test(prom, callback_stops_the_parse, .timeout = 5.)
{
    int n = 0;
    kvr_prom_error_t err;
    int rc = kvr_prom_parse("a 1\nb 2\nc 3\n", 12, stop_at_second, &n, &err);
    cr_assert_eq(rc, 77);
    cr_assert_eq(n, 2);
    cr_assert_eq(err.line, 2);
}

/* Every prefix and thousands of byte mutations of a real page: any result but a crash is fine. */
Test(prom, mutated_pages_never_crash, .timeout = 20.)
{
    const char *pages[] = {VLLM_PAGE_DP2, SGLANG_PAGE_COLON};
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (size_t p = 0; p < 2; p++) {
        size_t len = strlen(pages[p]);
        char *copy = malloc(len);
        cr_assert_not_null(copy);
        for (size_t cut = 0; cut <= len; cut += 7) {
            memcpy(copy, pages[p], cut);
            int rc = kvr_prom_parse(copy, cut, NULL, NULL, NULL);
            cr_assert(rc == 0 || rc == KVR_EPARSE);
        }
        static const char alphabet[] = "{}\"\\=,# \n\r\t:+-.eE0aZ\x01\xff";
        for (int round = 0; round < 3000; round++) {
            memcpy(copy, pages[p], len);
            for (int m = 0; m < 4; m++) {
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                copy[rng % len] = alphabet[(rng >> 32) % (sizeof(alphabet) - 1)];
            }
            kvr_prom_error_t err;
            int rc = kvr_prom_parse(copy, len, NULL, NULL, &err);
            cr_assert(rc == 0 || rc == KVR_EPARSE, "rc %d", rc);
            if (rc)
                cr_assert(err.line >= 1 && err.reason);
            kvr_engine_state_t state;
            memset(&state, 0, sizeof(state));
            rc = kvr_engine_metrics_parse(copy, len, &state, NULL, &err);
            cr_assert(rc == 0 || rc == KVR_EPARSE || rc == -ENODATA, "rc %d", rc);
            if (rc == 0)
                cr_assert(state.kv_usage >= 0 && state.kv_usage <= 1);
        }
        free(copy);
    }
}

static bool only_gauges(const char *name, size_t len, void *arg)
{
    (void)arg;
    return len == 5 && memcmp(name, "gauge", 5) == 0;
}

Test(prom, filtered_parse_skips_unwanted_lines_but_not_garbage, .timeout = 5.)
{
    static const char page[] =
        "# TYPE h histogram\n"
        "h_bucket{le=\"0.5\" broken 3\n" /* unwanted and malformed: skipped */
        "gauge{a=\"1\"} 2\n"
        "other 1 2 3 4\n";
    struct collected c;
    memset(&c, 0, sizeof(c));
    c.want_label = "a";
    kvr_prom_error_t err;
    cr_assert_eq(kvr_prom_parse_filtered(page, strlen(page), only_gauges, collect, &c, &err), 0,
                 "line %zu: %s", err.line, err.reason ? err.reason : "?");
    cr_assert_eq(c.count, 1);
    cr_assert_str_eq(c.first_name, "gauge");
    cr_assert_str_eq(c.first_label_value, "1");
    /* The unfiltered parser refuses the same page. */
    cr_assert_eq(kvr_prom_parse(page, strlen(page), NULL, NULL, &err), KVR_EPARSE);
    cr_assert_eq(err.line, 2);

    static const char not_a_page[] = "gauge 1\n<html>oops</html>\n";
    cr_assert_eq(
        kvr_prom_parse_filtered(not_a_page, strlen(not_a_page), only_gauges, NULL, NULL, &err),
        KVR_EPARSE);
    cr_assert_eq(err.line, 2);
    static const char bad_wanted[] = "gauge{a=\"1} 2\n";
    cr_assert_eq(
        kvr_prom_parse_filtered(bad_wanted, strlen(bad_wanted), only_gauges, NULL, NULL, &err),
        KVR_EPARSE, "wanted lines are fully checked");
}
