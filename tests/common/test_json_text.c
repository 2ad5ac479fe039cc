/* SPDX-License-Identifier: Apache-2.0 */
/* JSON strings written without a document stay valid JSON whatever bytes they get. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_text.h"

static char *put(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    kvr_json_put_string(f, s);
    fclose(f);
    return buf;
}

Test(json_text, escapes_quotes_backslashes_and_controls, .timeout = 5.)
{
    char *out = put("a\"b\\c\nd\te\x01");
    cr_expect_str_eq(out, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
    free(out);
    out = put(NULL);
    cr_expect_str_eq(out, "null");
    free(out);
}

Test(json_text, keeps_utf8_and_replaces_what_is_not, .timeout = 5.)
{
    char *out = put("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
    cr_expect_str_eq(out, "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
    free(out);
    /* A lone continuation byte, an overlong form, a surrogate, a truncated sequence. */
    out = put("x\x80y\xC0\xAFz\xED\xA0\x80w\xE2\x82");
    cr_expect_str_eq(out, "\"x\\ufffdy\\ufffd\\ufffdz\\ufffd\\ufffd\\ufffdw\\ufffd\\ufffd\"");
    free(out);
}

Test(json_text, valid_prefix_stops_at_the_first_bad_byte, .timeout = 5.)
{
    const char ok[] = "plain \xC3\xA9";
    cr_expect_eq(kvr_json_utf8_valid_prefix(ok, strlen(ok)), strlen(ok));
    const char bad[] = "ab\xC3";
    cr_expect_eq(kvr_json_utf8_valid_prefix(bad, 3), 2, "a sequence cut by the end is not valid");
    const unsigned char four[] = {0xF0, 0x9F, 0x98, 0x80};
    cr_expect_eq(kvr_json_utf8_len(four, four + 4), 4);
    cr_expect_eq(kvr_json_utf8_len(four, four + 3), 0);
}

Test(json_text, reals_read_back_exactly_and_stay_reals, .timeout = 5.)
{
    char buf[KVR_JSON_REAL_MAX];
    cr_expect_str_eq(kvr_json_format_real(buf, 3), "3.0");
    cr_expect_str_eq(kvr_json_format_real(buf, 0), "0.0");
    cr_expect_str_eq(kvr_json_format_real(buf, -1), "-1.0");
    cr_expect_str_eq(kvr_json_format_real(buf, 1.7), "1.7");
    cr_expect_str_eq(kvr_json_format_real(buf, 1e20), "1e+20");
    cr_expect_str_eq(kvr_json_format_real(buf, NAN), "null");
    cr_expect_str_eq(kvr_json_format_real(buf, INFINITY), "null");
    double third = 1.0 / 3;
    cr_expect_eq(strtod(kvr_json_format_real(buf, third), NULL), third);
}
